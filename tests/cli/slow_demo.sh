# `ssdlab` with no arguments runs the demo: a fresh drive, then
# preconditioning, then steady state, with a WAF column that shows the
# write amplification GC causes.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB"
cp out.txt demo.txt
has() { grep -Eq -- "$1" demo.txt || { cat demo.txt >&2; fail "demo output lacks /$1/"; }; }
has '^ssdlab [0-9]+\.[0-9]+\.[0-9]+ -- '
has "^Drive 'default': "
has '^phase +written +IOPS +MB/s +mean lat +WAF +GC copies +erases$'
has '^fresh +[0-9.]+ [KMG]iB '
has '^precondition +[0-9.]+ [KMG]iB '
has '^steady-state +[0-9.]+ [KMG]iB '
has '^Simulated [0-9.]+ s of drive time'
# the WAF column (6th): 1 on the fresh drive, above 1 once GC works, and
# steady state at least as bad as preconditioning
awk '
$1 == "fresh" { f = $(NF - 2) }
$1 == "precondition" { p = $(NF - 2) }
$1 == "steady-state" { s = $(NF - 2) }
END {
	if (f != 1 || p <= 1 || s <= 1.5 || s < p) { print "WAF fresh/pre/steady: " f "/" p "/" s; exit 1 }
}' demo.txt || fail "demo: WAF column"
exit 0
