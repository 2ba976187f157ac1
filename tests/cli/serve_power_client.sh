# Power cuts over NBD as a client sees them (tools/powercheck.sh with
# tests/nbd/powercheck.c): at queue depths 1, 4, 16 and 64, on both
# clocks, with and without a write buffer, with protected and
# unprotected paired pages and with plp, a client writes, flushes and
# writes FUA while SIGUSR2 cuts the power; after each cut every page it
# reads back holds what the server promised: nothing a successful flush
# or FUA write covered is lost, nothing is lost that the power log does
# not list, no page is torn, and the connection a lossy cut caught fails
# its flushes from then on.  (The server before this check answered
# flushes waiting for the lock at the cut, and flushes after it, with
# success.)
. "$TOP/tests/cli/lib.inc"
need nbdkit nbdinfo
check="$(dirname "$SSDLAB")/powercheck"
if [ ! -x "$check" ]; then
	pkg-config --exists libnbd 2>/dev/null && fail "$check was not built"
	skip "libnbd's header is not installed (libnbd-dev): no client to check with"
fi
if [ ! -f "$(dirname "$SSDLAB")/nbdkit-ssdlab-plugin.so" ]; then
	pkg-config --exists nbdkit 2>/dev/null && fail "the nbdkit plugin was not built"
	skip "nbdkit's plugin header is not installed (nbdkit-plugin-dev): no plugin to serve"
fi

"$TOP/tools/powercheck.sh" -n 3 "$SSDLAB" "$check" >pc.out 2>&1 || { cat pc.out; fail "the client's check"; }
tail -n 1 pc.out
# every case ran, and the cuts reached the writes
ncases=$("$TOP/tools/powercheck.sh" -l | wc -l)
[ "$ncases" -ge 13 ] || fail "powercheck.sh -l lists $ncases cases"
[ "$(grep -c ' cuts=3 ' pc.out)" -eq "$ncases" ] || { cat pc.out; fail "not every case ran"; }
grep -q "^total: cuts=$((3 * ncases)) " pc.out || fail "$((3 * ncases)) cuts"
# a lossy cut failed the flushes of the connection it caught: some did
[ "$(sed -n 's/^total: .* flushes_eio=\([0-9]*\) .*/\1/p' pc.out)" -gt 0 ] || fail "no flush failed"

# the client refuses what it cannot run, in one line
expect_err 2 "usage: powercheck" "$check"
expect_err 2 "qd 1 to 1024" "$check" nbd://x --pid 1 --err e --power-log p --qd 0
echo ok
