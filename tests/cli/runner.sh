# The suite's count tells the truth: tests/run.sh, run on a tree of its
# own with a test that passes, one that fails, one that skips (exit 77,
# "SKIP: reason"), one that skips a part, one that exits 77 without a
# reason, and a unit-test binary with a skip, reports each as what it was
# and closes with "N passed, N failed, N skipped"; SSDLAB_TEST_NO_SKIP=1
# makes every skip a failure, its reason still shown; a unit-test binary
# that does not close with its counts is a failure.  lib.inc's at_exit
# ends what a failing test started.  The real unit-test binary closes
# with the three counts run.sh reads.
. "$TOP/tests/cli/lib.inc"

mkdir -p fake/tests/cli fake/b
cp "$TOP/tests/run.sh" "$TOP/tests/cli/lib.inc" fake/tests/
mv fake/tests/lib.inc fake/tests/cli/
cat >fake/b/unit_tests <<'EOF'
#!/bin/sh
echo "ok   u_one"
echo "skip u_two: no /dev/full here"
echo "ok   u_three"
echo "2 passed, 0 failed, 1 skipped"
EOF
chmod +x fake/b/unit_tests
: >fake/b/ssdlab
L='. "$TOP/tests/cli/lib.inc"'
printf '%s\necho fine\n' "$L" >fake/tests/cli/a_pass.sh
printf '%s\nfail "a wrong answer"\n' "$L" >fake/tests/cli/b_fail.sh
printf '%s\nneed no-such-tool-here\necho unreached\n' "$L" >fake/tests/cli/c_skip.sh
printf '%s\nhave no-such-tool-here || skip_part "no chart"\necho rest\n' "$L" >fake/tests/cli/d_part.sh
printf 'echo "no reason given"\nexit 77\n' >fake/tests/cli/e_bare77.sh
# a test that fails with a process of its own running: at_exit ends it
printf '%s\nsleep 300 &\necho $! >"%s/sleeper.pid"\nat_exit "kill -9 $!"\nfail "while a server runs"\n' \
	"$L" "$PWD" >fake/tests/cli/f_leaves.sh

set +e
env -u SSDLAB_TEST_NO_SKIP sh fake/tests/run.sh b >run.out 2>&1
rc=$?
SSDLAB_TEST_NO_SKIP=1 sh fake/tests/run.sh b >noskip.out 2>&1
rc2=$?
set -e
show() { sed 's/^/    /' "$1" >&2; }
has() { grep -qxF -- "$2" "$1" || { show "$1"; fail "$1: no line '$2'"; }; }
[ $rc -eq 1 ] || { show run.out; fail "run.sh exited $rc with failing tests"; }
has run.out "ok   a_pass"
has run.out "FAIL b_fail"
has run.out "skip c_skip: no-such-tool-here is not installed"
has run.out "skip d_part: no chart"
has run.out "FAIL e_bare77: exit 77 (skipped) without a 'SKIP: reason' line"
has run.out "FAIL f_leaves"
has run.out "skip u_two: no /dev/full here"
# 2 unit + a_pass; b_fail, e_bare77, f_leaves; u_two, c_skip, d_part
has run.out "3 passed, 3 failed, 3 skipped"
has run.out "skipped: unit(b) c_skip(b) d_part(b)"
# the failing test's own message is shown
grep -q '^    FAIL: a wrong answer$' run.out || { show run.out; fail "no message of b_fail"; }
# ... and its sleeper is gone
pid=$(cat sleeper.pid)
i=0
while kill -0 "$pid" 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 40 ] || fail "a failed test left its process $pid running"; sleep 0.05
done

# on CI a skip is a failure, with its reason
[ $rc2 -eq 1 ] || { show noskip.out; fail "SSDLAB_TEST_NO_SKIP: exit $rc2"; }
has noskip.out "FAIL c_skip: skipped, and SSDLAB_TEST_NO_SKIP is set: no-such-tool-here is not installed"
has noskip.out "FAIL d_part: skipped, and SSDLAB_TEST_NO_SKIP is set: no chart"
has noskip.out "unit(b): 1 skipped, counted as failed (SSDLAB_TEST_NO_SKIP)"
has noskip.out "skip u_two: no /dev/full here"
has noskip.out "3 passed, 6 failed, 0 skipped"

# all passing: exit 0
rm fake/tests/cli/b_fail.sh fake/tests/cli/e_bare77.sh fake/tests/cli/f_leaves.sh
env -u SSDLAB_TEST_NO_SKIP sh fake/tests/run.sh b >pass.out 2>&1 || { show pass.out; fail "run.sh failed with nothing failing"; }
has pass.out "3 passed, 0 failed, 3 skipped"

# a unit-test binary that does not close with its counts (it crashed, or
# prints the old two-number line) is a failure
printf '#!/bin/sh\necho "ok   u_one"\necho "1 passed, 0 failed"\n' >fake/b/unit_tests
if env -u SSDLAB_TEST_NO_SKIP sh fake/tests/run.sh b >crash.out 2>&1; then show crash.out; fail "a unit binary without its counts passed"; fi
has crash.out "unit(b) crashed"

# the real unit-test binary closes with the three counts
"$(dirname "$SSDLAB")/unit_tests" no-test-has-this-name >unit.out 2>&1 || { show unit.out; fail "unit_tests"; }
has unit.out "0 passed, 0 failed, 0 skipped"
echo ok
