# torture (seed 004's Samsung 470 method) on a small drive with a short
# database pattern: the application-load benchmark fresh, tortured and
# after idle, with TRIM and without; result.json, CSV, scripts and plots.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" scenario list
grep -q '^torture$' out.txt || fail "list: torture"

expect_status 0 "$SSDLAB" scenario run torture --drive tiny --set capacity=16m \
	--set op=0.5 --set db_time=3 --set app_size=1m --set app_io=1m --set idle=60 \
	--out tt
for k in trim_on trim_off fresh_mbps tortured_mbps after_idle_mbps \
	tortured_over_fresh after_idle_over_fresh db_iops qd32 files; do
	grep -q "\"$k\" :" tt/result.json || { cat tt/result.json; fail "result.json: no $k"; }
done
grep -q 'application load, MB/s' out.txt || fail "summary: no table"
grep -q '^  tortured ' out.txt || fail "summary: no tortured row"
[ "$(wc -l <tt/torture.csv)" -eq 4 ] || fail "torture.csv: not three states"
[ "$(wc -l <tt/db-pattern.csv)" -eq 7 ] || fail "db-pattern.csv: not six queue depths"
# every benchmark moved data
awk -F, 'NR > 1 && ($2 <= 0 || $3 <= 0) { exit 1 }' tt/torture.csv ||
	fail "a benchmark result is zero"
[ -s tt/torture.gp ] && [ -s tt/db-pattern.gp ] || fail "no gnuplot scripts"
if have gnuplot; then
	for p in torture db-pattern; do
		[ -s "tt/$p.png" ] || fail "no tt/$p.png"
		[ -s "tt/$p.svg" ] || fail "no tt/$p.svg"
	done
else
	skip_part "gnuplot is not installed: no plots drawn to check"
fi

# an explicit file count
expect_status 0 "$SSDLAB" scenario run torture --drive tiny --set capacity=16m \
	--set op=0.5 --set db_time=1 --set app_size=1m --set app_io=256k --set idle=1 \
	--set files=50 --out tt50
grep -q '"files" : 50,' tt50/result.json || { cat tt50/result.json; fail "files=50 not honoured"; }

expect_err 2 "torture: app_size must be 1m up to the capacity" "$SSDLAB" scenario run torture \
	--drive tiny --set capacity=16m --set op=0.5 --set app_size=0 --out bad
expect_err 2 "parameter 'db_read': 101 is out of range \(0 to 100\)" "$SSDLAB" scenario run \
	torture --drive tiny --set db_read=101 --out bad
expect_err 2 "parameter 'files': '1.5' is not a whole number" "$SSDLAB" scenario run \
	torture --drive tiny --set files=1.5 --out bad
