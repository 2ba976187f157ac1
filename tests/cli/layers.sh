# The layer rules (tools/check-layers.sh): the tree has no violation
# beyond the known ones of tools/layers.allow, in its includes, in the
# calls between the objects of the build under test (beside $SSDLAB) and
# in its proportions (no file above 2,000 lines, no folder of src/ above
# a quarter of its lines); and
# on small trees made here, each rule is caught, one line per violation,
# and an allow-list counts known ones, fails on new ones and names the
# ones gone.
. "$TOP/tests/cli/lib.inc"
need cc nm

objects=$(dirname "$SSDLAB")
sh "$TOP/tools/check-layers.sh" --allow "$TOP/tools/layers.allow" --objects "$objects" --sizes >out.txt 2>&1 ||
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

# the calls, on a tree of its own compiled here (no includes: each file
# declares what it calls, the way that hides a call from the include rules)
mkdir -p c/tools c/obj
cp "$TOP/tools/check-layers.sh" "$TOP/tools/layer-calls.sh" c/tools/
src() { mkdir -p "c/$(dirname "$1")"; cat >"c/$1"; }
src src/base/util.c <<'EOF2'
int job_run(int);
int util_add(int a) { return a < 0 ? job_run(a) : a + 1; }
EOF2
src src/job/job.c <<'EOF2'
#include <string.h>
int util_add(int);
static int helper(int a) { return a * 2; }
int job_run(int a) { return util_add(helper(a)) + (int)strlen("x"); }
EOF2
src src/ftl/ftl.c <<'EOF2'
struct ops { int (*submit)(int); };
extern const struct ops machine_ops;
int machine_submit(int);
int machine_flush(void);
int gc_step(int);
int ftl_write(int a) { return machine_submit(a) + machine_flush() + machine_ops.submit(a) + gc_step(a); }
EOF2
src src/ftl/gc.c <<'EOF2'
int ftl_write(int);
int gc_step(int a) { return a > 0 ? ftl_write(a - 1) : 0; }
EOF2
src src/machine/device.c <<'EOF2'
struct ops { int (*submit)(int); };
int ftl_write(int);
int machine_submit(int a) { return a; }
int machine_flush(void) { return 0; }
const struct ops machine_ops = { ftl_write };
EOF2
src src/stats/stats.c <<'EOF2'
int report_print(int);
int stats_add(int a) { return report_print(a); }
EOF2
src src/report/report.c <<'EOF2'
int report_print(int a) { return a; }
EOF2
src src/odd/odd.c <<'EOF2'
int job_run(int);
int odd_go(int a) { return job_run(a); }
EOF2
compile() { # compile FILE: c/obj/FILE.o
	mkdir -p "c/obj/$(dirname "$1")"
	${CC:-cc} -O2 -c -o "c/obj/${1%.c}.o" "c/$1" || fail "cannot compile $1"
}
for f in $(cd c && ls src/*/*.c); do compile "$f"; done
cat >want.txt <<'EOF2'
src/base/util.c <-> src/job/job.c: util.c calls job_run, job.c calls util_add
src/base/util.c: calls job_run of src/job/job.c: upward, base is below job
src/ftl/ftl.c <-> src/machine/device.c: ftl.c calls machine_flush and machine_submit and uses machine_ops, device.c calls ftl_write
src/ftl/ftl.c: calls machine_flush of src/machine/device.c: upward, ftl is below machine
src/ftl/ftl.c: calls machine_submit of src/machine/device.c: upward, ftl is below machine
src/ftl/ftl.c: uses machine_ops of src/machine/device.c: upward, ftl is below machine
src/stats/stats.c: calls report_print of src/report/report.c: upward, stats is below report
check-layers: 7 violations
EOF2
set +e
sh c/tools/check-layers.sh --objects c/obj >got.txt 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || { cat got.txt >&2; fail "exit $rc with call violations, wanted 1"; }
diff want.txt got.txt >&2 || fail "call violations of the small tree"

# an allow-list of calls: known ones counted, a new one fails, one fixed
# (stats.c no longer calls up) is named
grep -v -e '^check-layers' -e 'machine_flush of' want.txt >c/allow
set +e
sh c/tools/check-layers.sh --allow c/allow --objects c/obj >got.txt 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || { cat got.txt >&2; fail "a new call violation did not fail"; }
grep -q '^src/ftl/ftl.c: calls machine_flush of src/machine/device.c: upward, ftl is below machine$' got.txt ||
	{ cat got.txt >&2; fail "the new call violation is not printed"; }
grep -q '^check-layers: 6 known violations (c/allow), 1 new$' got.txt || { cat got.txt >&2; fail "allow-list summary (calls)"; }
grep 'machine_flush of' want.txt >>c/allow
echo 'int stats_add(int a) { return a; }' >c/src/stats/stats.c
compile src/stats/stats.c
sh c/tools/check-layers.sh --allow c/allow --objects c/obj >got.txt 2>&1 ||
	{ cat got.txt >&2; fail "only known call violations failed"; }
grep -q '^no longer occurs (remove it from c/allow): src/stats/stats.c: calls report_print of src/report/report.c: upward, stats is below report$' got.txt ||
	{ cat got.txt >&2; fail "a fixed call violation is not named"; }
grep -q '^check-layers: 6 known violations (c/allow), 0 new$' got.txt || { cat got.txt >&2; fail "allow-list summary (calls fixed)"; }

# an object missing: the check cannot be made
rm c/obj/src/report/report.o
set +e
sh c/tools/check-layers.sh --objects c/obj >got.txt 2>&1
rc=$?
set -e
[ $rc -eq 2 ] || { cat got.txt >&2; fail "exit $rc with an object missing, wanted 2"; }
grep -q 'no object .*c/obj/src/report/report.o for src/report/report.c' got.txt || { cat got.txt >&2; fail "the missing object is not named"; }

# proportions (--sizes): a file of 2,001 lines, a folder of most of src/
mkdir -p z/tools z/src/a z/src/b z/cli
cp "$TOP/tools/check-layers.sh" z/tools/
awk 'BEGIN { for (i = 0; i < 2001; i++) print "/* " i " */" }' >z/src/a/big.c
awk 'BEGIN { for (i = 0; i < 2000; i++) print "/* " i " */" }' >z/cli/main.c
for i in 1 2 3; do
	mkdir -p z/src/c$i
	awk 'BEGIN { for (i = 0; i < 1000; i++) print "/* " i " */" }' >z/src/c$i/x.c
done
awk 'BEGIN { for (i = 0; i < 500; i++) print "/* " i " */" }' >z/src/b/y.c
set +e
(cd z && sh tools/check-layers.sh --sizes) >got.txt 2>&1
rc=$?
set -e
cat >want.txt <<'EOF2'
src/a/: 2001 of the 5501 lines of src/ (36%), above 25%
src/a/big.c: 2001 lines, above 2000
check-layers: 2 violations
EOF2
[ $rc -eq 1 ] || { cat got.txt >&2; fail "exit $rc with proportions broken, wanted 1"; }
diff want.txt got.txt >&2 || fail "proportions of the small tree"
# without --sizes they are not checked
(cd z && sh tools/check-layers.sh) >got.txt 2>&1 || { cat got.txt >&2; fail "sizes checked without --sizes"; }
