# The workload-switch scenario on a small drive with short patterns and
# few zones: six cycles of min/avg/max read and write speed, IOPS of the
# four IOmeter patterns in cycles 1-3, the CSV files, the gnuplot scripts
# (and plots when gnuplot is installed); bad parameters are one-line
# errors.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" scenario list
grep -q '^workload-switch$' out.txt || fail "list: workload-switch"

drive="--drive tiny --set capacity=16m --set op=0.5"
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run workload-switch $drive \
	--set pattern_time=0.05 --set zones=8 --out ws
grep -q 'workload-switch on tiny' out.txt || fail "summary header"
grep -q '^  3 +IOmeter ' out.txt || fail "summary: cycle 3"
grep -q '^  6 ' out.txt || fail "summary: cycle 6"
grep -q 'random share achieved' out.txt || fail "summary: random share"
[ -s ws/result.json ] || fail "no result.json"
for k in data_bytes zone_bytes sample_bytes fill_mbps read_avg_first_mbps \
	read_avg_worst_mbps write_avg_first_mbps write_avg_worst_mbps cycles \
	read_mbps write_mbps min avg max read_zones_mbps write_zones_mbps \
	patterns file_server database web_server workstation iops \
	random_share_pct waf; do
	grep -q "\"$k\" :" ws/result.json || { cat ws/result.json; fail "no $k"; }
done
[ "$(grep -c '"cycle" :' ws/result.json)" -eq 6 ] || fail "wanted 6 cycles"
[ "$(grep -c '"file_server" :' ws/result.json)" -eq 3 ] || fail "wanted 3 IOmeter cycles"
[ "$(wc -l <ws/workload-switch.csv)" -eq 7 ] || fail "workload-switch.csv: header + 6 cycles"
grep -q '^"cycle 1 +IOmeter",' ws/workload-switch.csv || fail "CSV: cycle 1"
grep -q '^"cycle 6",' ws/workload-switch.csv || fail "CSV: cycle 6"
[ "$(wc -l <ws/workload-switch-iops.csv)" -eq 5 ] || fail "iops CSV: header + 4 patterns"
grep -q '^"web server",' ws/workload-switch-iops.csv || fail "iops CSV: web server"
[ "$(wc -l <ws/workload-switch-zones.csv)" -eq 9 ] || fail "zones CSV: header + 8 zones"
# every speed and IOPS figure is positive
awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "" && $i <= 0) exit 1 }' \
	ws/workload-switch.csv ws/workload-switch-iops.csv || fail "CSV: a zero measurement"
for p in workload-switch workload-switch-iops workload-switch-zones-read \
	workload-switch-zones-write; do
	[ -s ws/$p.gp ] || fail "no $p.gp"
	if have gnuplot; then
		[ -s ws/$p.png ] || fail "no $p.png"
		[ -s ws/$p.svg ] || fail "no $p.svg"
	else
		skip_part "gnuplot is not installed: no plots drawn to check"
	fi
done

# no IOmeter cycles: the sequential passes alone, no IOPS file
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run workload-switch $drive --set zones=4 \
	--set cycles=2 --set io_cycles=0 --out seq
[ ! -e seq/workload-switch-iops.csv ] || fail "io_cycles=0 wrote IOPS"
grep -q '"patterns" :' seq/result.json && fail "io_cycles=0 has patterns"

# errors: one line, exit 2
expect_err 2 "parameter 'fill'" "$SSDLAB" scenario run workload-switch --drive tiny --set fill=most
expect_err 2 "parameter 'fill': 1.5 is out of range \(more than 0, up to 1\)" "$SSDLAB" \
	scenario run workload-switch --drive tiny --set fill=1.5
expect_err 2 "io_cycles 7 is more than cycles 6" "$SSDLAB" scenario run workload-switch --drive tiny --set io_cycles=7
expect_err 2 "parameter 'zones': 4097 is out of range \(1 to 4096\)" "$SSDLAB" scenario run \
	workload-switch --drive tiny --set zones=4097
expect_err 2 "parameter 'iodepth': 1 is out of range \(2 to 65536\)" "$SSDLAB" scenario run \
	workload-switch --drive tiny --set iodepth=1
