# The layer rules (tools/check-layers.sh): the tree has no violation
# beyond the known ones of tools/layers.allow; and on a small tree made
# here, each rule is caught, one line per violation, and an allow-list
# counts known ones, fails on new ones and names the ones gone.
. "$TOP/tests/cli/lib.inc"

sh "$TOP/tools/check-layers.sh" --allow "$TOP/tools/layers.allow" >out.txt 2>&1 ||
	{ cat out.txt >&2; fail "new layer violations"; }
cat out.txt
grep -q '^check-layers: [0-9]* known violations (.*), 0 new$' out.txt || fail "no summary line"

# a small tree with one violation of each kind
mkdir -p t/tools t/include t/src/base t/src/stats t/src/ftl t/src/job t/src/odd \
	 t/tests/unit/ftl t/tests/unit/job t/examples t/cli
cp "$TOP/tools/check-layers.sh" t/tools/
inc() { f=$1; shift; : >"t/$f"; for h in "$@"; do echo "#include $h" >>"t/$f"; done; }
inc include/ssdlab.h '<stddef.h>' '"base/util.h"'
inc src/base/util.h '<stdint.h>'
inc src/base/util.c '"base/util.h"' '"ssdlab.h"'
inc src/stats/stats.h '"base/util.h"' '"job/job.h"'
inc src/ftl/ftl.h '"ftl/gc_int.h"'
inc src/ftl/gc_int.h '"ftl/ftl.h"'
inc src/ftl/gc.c '"ftl/gc_int.h"' '"gc_int.h"'
inc src/job/job.h '"ftl/ftl.h"'
inc src/job/job.c '"ftl/gc_int.h"' '"job/nosuch.h"'
inc src/odd/odd.c '"base/util.h"'
inc tests/unit/ftl/test_gc.c '"ftl/gc_int.h"'
inc tests/unit/job/test_job.c '"ftl/gc_int.h"' '"job/job.h"'
inc cli/main.c '"job/job.h"' '"ssdlab.h"'
inc examples/embed.c '<stdio.h>' '<ssdlab.h>' '<pthread.h>' '"base/util.h"'
cat >want.txt <<'EOF2'
examples/embed.c: includes "base/util.h": an example includes only <ssdlab.h> and the C library
examples/embed.c: includes <pthread.h>: an example includes only <ssdlab.h> and the C library
include/ssdlab.h: includes "base/util.h": the public header includes only the C library
src/ftl/ftl.h: includes "ftl/gc_int.h": private header included by a public header (only .c files may)
src/job/job.c: includes "ftl/gc_int.h": private header of src/ftl/ included from outside it
src/job/job.c: includes "job/nosuch.h": no such header beside it or in include/, src/, tests/unit/
src/odd/odd.c: includes "base/util.h": src/odd/ is not a layer (base < stats < ... < api)
src/stats/stats.h: includes "job/job.h": upward, stats is below job
tests/unit/job/test_job.c: includes "ftl/gc_int.h": private header of src/ftl/ included from outside it
check-layers: 9 violations
EOF2
set +e
sh t/tools/check-layers.sh >got.txt 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || { cat got.txt >&2; fail "exit $rc with violations, wanted 1"; }
diff want.txt got.txt >&2 || fail "violations of the small tree"

# an allow-list: known ones counted, a new one fails, a gone one is named
grep -v '^check-layers' want.txt | grep -v examples/ >t/allow
echo 'src/base/util.c: includes "x.h": gone' >>t/allow
set +e
sh t/tools/check-layers.sh --allow t/allow >got.txt 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || { cat got.txt >&2; fail "a new violation did not fail"; }
[ "$(grep -c '^examples/embed.c: ' got.txt)" -eq 2 ] || { cat got.txt >&2; fail "new violations not printed"; }
grep -q '^no longer occurs (remove it from t/allow): src/base/util.c: includes "x.h": gone$' got.txt ||
	{ cat got.txt >&2; fail "a gone violation is not named"; }
grep -q '^check-layers: 7 known violations (t/allow), 2 new$' got.txt || { cat got.txt >&2; fail "allow-list summary"; }
rm t/examples/embed.c
sh t/tools/check-layers.sh --allow t/allow >got.txt 2>&1 || { cat got.txt >&2; fail "only known violations failed"; }
