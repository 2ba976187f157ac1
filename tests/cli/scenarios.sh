# Every scenario runs on a small drive with shortened parameters and
# writes result.json, CSV data and a gnuplot script (and PNG/SVG plots
# when gnuplot is installed); bad parameters are one-line errors.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" scenario list
grep -q '^steady-state$' out.txt || fail "list: steady-state"
grep -q '^slc-cache$' out.txt || fail "list: slc-cache"
grep -q '^gc-states$' out.txt || fail "list: gc-states"

drive="--drive tiny --set capacity=16m --set op=0.5"
check_out() {
	dir=$1; shift
	[ -s "$dir/result.json" ] || fail "$dir: no result.json"
	for k in "$@"; do
		grep -q "\"$k\" :" "$dir/result.json" || { cat "$dir/result.json"; fail "$dir: no $k"; }
	done
	ls "$dir"/*.csv >/dev/null 2>&1 || fail "$dir: no CSV"
	ls "$dir"/*.gp >/dev/null 2>&1 || fail "$dir: no gnuplot script"
	if have gnuplot; then
		ls "$dir"/*.png >/dev/null 2>&1 || fail "$dir: no PNG"
		ls "$dir"/*.svg >/dev/null 2>&1 || fail "$dir: no SVG"
	else
		skip_part "gnuplot is not installed: no plots drawn to check"
	fi
}
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run steady-state $drive --set volume=400% \
	--set round=5 --set average=3 --out ss
grep -q 'steady-state IOPS' out.txt || fail "steady-state summary"
check_out ss fresh_iops steady_iops steady_state_round outliers
# a block-mapped drive writes a few pages a second: max_time (simulated)
# ends the writes, and the summary says so instead of a steady state
expect_status 0 "$SSDLAB" scenario run steady-state --drive tiny --set mapping=block \
	--set max_time=600 --set round=60 --out ssb
grep -Eq 'not reached by the SNIA PTS rule in 10 rounds: max_time \(600 s\) ended the writes after [0-9.]+% of the capacity' out.txt ||
	fail "steady-state: max_time not reported: $(grep 'steady state' out.txt)"
expect_err 2 "steady-state: max_time is less than round" \
	"$SSDLAB" scenario run steady-state --drive tiny --set max_time=10
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run slc-cache $drive --set slc_cache=dynamic \
	--set slc_cache_size=6m --set interval=0.005 --out slc
check_out slc initial_mbps cache_gb post_cache_mbps
grep -q 'cache  ' out.txt || fail "slc-cache summary"
grep -Eq '^  cache +[0-9.]+ MiB \(' out.txt || fail "slc-cache: the cache in MiB: $(cat out.txt)"
grep -Eq "set label 1 'cache ~[0-9.]+ MiB'" slc/slc-cache.gp || fail "slc-cache: the chart's cache label"
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run gc-states $drive --set idle=60 \
	--set probe=0.5 --set load=100% --out gcs
check_out gcs clean after_load after_idle after_trim rand_write_iops
# sizes in a unit that fits (a small drive's load once read "0 GB")
grep -q '^gc-states on tiny (load 16 MiB of 4 KiB random writes, idle' out.txt ||
	fail "gc-states header: $(head -1 out.txt)"
grep -q '"load_ended_by" : "load"' gcs/result.json || fail "gc-states: load not ended by its size"
# whole numbers exactly, not in %g (16 MiB once read 1.67772e+07)
grep -q '"load_bytes" : 16777216,' gcs/result.json || fail "gc-states: load_bytes $(grep load_bytes gcs/result.json)"
# a load the drive cannot write in load_time ends there, and says so (a
# drive of tens of IOPS would otherwise run for simulated weeks)
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run gc-states $drive --set idle=60 \
	--set probe=0.5 --set load=100% --set load_time=0.2s --out gcs-t
grep -q '^gc-states on tiny (load [0-9.]* [KM]iB of 4 KiB random writes, ended by load_time' out.txt ||
	fail "gc-states with load_time: $(head -1 out.txt)"
grep -q '"load_ended_by" : "load_time"' gcs-t/result.json || fail "gc-states: not ended by load_time"
lb=$(sed -n 's/.*"load_bytes" : \([0-9.e+]*\).*/\1/p' gcs-t/result.json)
awk -v b="$lb" 'BEGIN { exit !(b > 0 && b < 16 * 1048576) }' || fail "gc-states: load_bytes $lb"

# errors: one line, exit 2
expect_err 2 "'nosuch' is neither a parameter of scenario steady-state" "$SSDLAB" scenario run steady-state --drive tiny --set nosuch=1
expect_err 2 "parameter 'volume'" "$SSDLAB" scenario run steady-state --drive tiny --set volume=lots
expect_err 2 "unknown scenario 'nope'" "$SSDLAB" scenario run nope
expect_err 2 "needs a scenario name" "$SSDLAB" scenario run
# numbers out of their declared range or not whole: the parameter named
expect_err 2 "^ssdlab: scenario steady-state: parameter 'iodepth': 0 is out of range \(1 to 65536\)$" \
	"$SSDLAB" scenario run steady-state --drive tiny --set iodepth=0
expect_err 2 "^ssdlab: scenario slc-cache: parameter 'drop': 1 is out of range \(more than 0, less than 1\)$" \
	"$SSDLAB" scenario run slc-cache --drive tiny --set drop=1
expect_err 2 "parameter 'hold': '2.5' is not a whole number" "$SSDLAB" scenario run slc-cache --drive tiny --set hold=2.5
expect_err 2 "parameter 'iodepth': 70000 is out of range" "$SSDLAB" scenario run gc-states --drive tiny --set iodepth=70000
expect_err 2 "parameter 'files': 0 is out of range \(1 to 1000000\)" "$SSDLAB" scenario run trim-latency --drive tiny --set files=0
expect_err 2 "trim-latency: files 100 x file 6.25% \+ test 25% \+ big 12.5% is more than the capacity" \
	"$SSDLAB" scenario run trim-latency --drive tiny --set files=100
expect_err 2 "steady-state: average is less than interval" "$SSDLAB" scenario run steady-state --drive tiny --set average=0.5
# the help and the list say what a number accepts
expect_status 0 "$SSDLAB" scenario run power-loss --help
grep -q "qd *= 8 *Commands in flight. (number, whole 1 to 256)$" out.txt || fail "help: $(cat out.txt)"
expect_status 0 "$SSDLAB" scenario list
grep -q "drop *= 0.7 .*(number, more than 0, less than 1)$" out.txt || fail "list: $(grep drop out.txt)"

# gnuplot's messages reach the console only when it fails, in the
# scenario's one-line error: its warnings on a chart with an empty
# series ("empty y range") are no fault of the run.
mkdir -p fakebin
cat >fakebin/gnuplot <<'EOF'
#!/bin/sh
echo 'Warning: empty y range [0:0], adjusting to [0:1]' >&2
[ -z "${FAKE_GNUPLOT_FAIL:-}" ] && exit 0
eval "script=\${$#}" # the script comes last, after -e's definitions
printf '         plot nothing\n              ^\n"%s" line 9: undefined variable: nothing\n' "$script" >&2
exit 1
EOF
chmod +x fakebin/gnuplot
expect_status 0 env PATH="$PWD/fakebin:$PATH" "$SSDLAB" scenario run power-loss --drive tiny --set cuts=2 --out fake
! grep -q "Warning" out.txt || fail "gnuplot's warning on the console: $(cat out.txt)"
expect_err 1 "^ssdlab: gnuplot failed on fake/power-loss.gp: \"power-loss.gp\" line 9: undefined variable: nothing$" \
	env PATH="$PWD/fakebin:$PATH" FAKE_GNUPLOT_FAIL=1 "$SSDLAB" scenario run power-loss --drive tiny --set cuts=2 --out fake

# trim-latency: immediate TRIMs stall the reads, deferred ones do not
for m in immediate deferred; do
	# shellcheck disable=SC2086
	expect_status 0 "$SSDLAB" scenario run trim-latency --drive tiny --set trim_mode=$m \
		--set trim_cost=200us --set pause=1 --set gap=0.01 --set interval=0.01 \
		--set trim_bs=1m --out tl-$m
	check_out tl-$m read_avg_mbps read_worst_interval_mbps read_max_latency_ms trim_ack_gbps
	grep -q "^trim-latency on tiny (trim_mode $m): read 16 MiB while deleting 4 x 4 MiB$" out.txt ||
		fail "trim-latency header: $(head -1 out.txt)"
done
max_ms() { sed -n 's/.*"read_max_latency_ms" : \([0-9.e+-]*\).*/\1/p' "$1/result.json"; }
awk -v a="$(max_ms tl-immediate)" -v b="$(max_ms tl-deferred)" \
	'BEGIN { exit !(a > 2 * b) }' || fail "immediate TRIM did not stall reads ($(max_ms tl-immediate) vs $(max_ms tl-deferred) ms)"
