# `ssdlab` with no arguments runs the demo: the steady-state scenario on
# the default drive, with its data and chart in ./ssdlab-demo.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB"
cp out.txt demo.txt
has() { grep -Eq -- "$1" demo.txt || { cat demo.txt >&2; fail "demo output lacks /$1/"; }; }
has '^ssdlab [0-9]+\.[0-9]+\.[0-9]+ -- '
has "^Drive 'default': "
has '^  fresh IOPS +[0-9]+ '
has '^  steady-state IOPS +[0-9]+ '
has '^  steady state +reached at round [0-9]+ '
# steady state is well below the fresh drive's IOPS
awk '/^  fresh IOPS/ { f = $3 } /^  steady-state IOPS/ { s = $3 }
END { if (!(f > 0 && s > 0 && s < 0.5 * f)) { print "fresh " f " steady " s; exit 1 } }' \
	demo.txt || fail "demo: steady state not below fresh"
[ -s ssdlab-demo/steady-state.csv ] || fail "no steady-state.csv"
[ -s ssdlab-demo/result.json ] || fail "no result.json"
[ -s ssdlab-demo/steady-state.gp ] || fail "no gnuplot script"
if have gnuplot; then
	[ -s ssdlab-demo/steady-state.png ] || fail "gnuplot present but no PNG"
	[ -s ssdlab-demo/steady-state.svg ] || fail "gnuplot present but no SVG"
else
	skip_part "gnuplot is not installed: no plots drawn to check"
fi
exit 0
