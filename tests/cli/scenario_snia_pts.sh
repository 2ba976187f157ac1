# The snia-pts scenario on a small drive with short points and few rounds:
# the IOPS table (8 block sizes x 7 R/W mixes) in the summary, result.json
# and pts-iops.csv, the throughput, latency, write-saturation and host
# idle recovery results, the gnuplot scripts (and plots when gnuplot is
# installed); bad parameters are one-line errors.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" scenario list
grep -q '^snia-pts$' out.txt || fail "list: snia-pts"

drive="--drive tiny --set capacity=16m --set op=0.5"
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run snia-pts $drive --set rounds=6 \
	--set point=0.01 --set tp_point=0.01 --set lat_point=0.01 \
	--set wsat=200% --set wsat_interval=0.05 --set hir_write=0.05 \
	--set hir_idle=0.1,1 --set hir_reps=2 --set hir_baseline=0.2 --out pts
grep -q '^snia-pts on tiny: ' out.txt || fail "summary header"
# the IOPS, throughput and latency tests run beside write saturation when
# a second core is there; on one core (taskset), one after the other:
# the same results to the byte
if have taskset; then
	sed 's|pts/|PTS/|' out.txt >serial-want.txt
	# shellcheck disable=SC2086
	expect_status 0 taskset -c 0 "$SSDLAB" scenario run snia-pts $drive --set rounds=6 \
		--set point=0.01 --set tp_point=0.01 --set lat_point=0.01 \
		--set wsat=200% --set wsat_interval=0.05 --set hir_write=0.05 \
		--set hir_idle=0.1,1 --set hir_reps=2 --set hir_baseline=0.2 --out pts1
	sed 's|pts1/|PTS/|' out.txt | diff serial-want.txt - || fail "one core: another summary"
	for f in result.json pts-iops.csv pts-iops-rounds.csv pts-throughput.csv \
		pts-latency.csv pts-wsat.csv pts-hir.csv; do
		cmp -s pts/$f pts1/$f || fail "one core: another $f"
	done
	cp serial-want.txt out.txt
else
	skip_part "taskset is not installed: the one-core run is not compared"
fi
grep -q 'IOPS test  .*steady state' out.txt || fail "summary: IOPS steady state"
grep -Eq '^ +bs +0/100 +5/95 +35/65 +50/50 +65/35 +95/5 +100/0$' out.txt \
	|| fail "summary: IOPS table header"
for bs in 0.5 4 8 16 32 64 128 1024; do
	grep -Eq "^ +$bs( +[0-9]+){7}$" out.txt || fail "summary: IOPS row $bs"
done
grep -q '1024 KiB *write' out.txt || fail "summary: throughput"
grep -q 'idle   0.1 s' out.txt || fail "summary: host idle recovery"

[ -s pts/result.json ] || fail "no result.json"
for k in iops steady_state_round rounds window_excursion_pct window_slope_pct \
	tracking_iops table 0.5k 1024k 0/100 100/0 65/35 throughput 128k \
	write_mbps read_mbps latency mean_us max_us write_saturation fob_iops \
	final_iops waf host_idle_recovery baseline_iops wait_states idle_s \
	vs_baseline return_iops simulated_seconds; do
	grep -q "\"$k\" :" pts/result.json || { cat pts/result.json; fail "no $k"; }
done
# 8 block sizes x 7 mixes in the IOPS table, 3 x 3 in the latency table
[ "$(grep -c '"35/65" :' pts/result.json)" -eq 8 ] || fail "json: IOPS table rows"
[ "$(grep -c '"mean_us" :' pts/result.json)" -eq 9 ] || fail "json: latency table"
[ "$(grep -c '"idle_s" :' pts/result.json)" -eq 2 ] || fail "json: wait states"

head -n 1 pts/pts-iops.csv | grep -q '^bs_kib,rw_0_100,rw_5_95,rw_35_65,rw_50_50,rw_65_35,rw_95_5,rw_100_0$' \
	|| fail "pts-iops.csv header"
[ "$(wc -l <pts/pts-iops.csv)" -eq 9 ] || fail "pts-iops.csv: wanted a header and 8 rows"
sed -n 2p pts/pts-iops.csv | grep -q '^0.5,' || fail "pts-iops.csv: first size 0.5"
sed -n 9p pts/pts-iops.csv | grep -q '^1024,' || fail "pts-iops.csv: last size 1024"
awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i <= 0) exit 1 }' pts/pts-iops.csv \
	|| fail "pts-iops.csv: a zero measurement"
rounds=$(sed -n 's/.*"rounds" : \([0-9]*\),*$/\1/p' pts/result.json | head -n 1)
[ "$(wc -l <pts/pts-iops-rounds.csv)" -eq $((rounds * 56 + 1)) ] \
	|| fail "pts-iops-rounds.csv: wanted 56 points per round"
[ "$(wc -l <pts/pts-latency.csv)" -eq 10 ] || fail "pts-latency.csv"
# HIR: a baseline, then per wait state 2 segments and a return
[ "$(grep -c ',write,' pts/pts-hir.csv)" -eq 4 ] || fail "pts-hir.csv: write segments"
[ "$(grep -c ',return,' pts/pts-hir.csv)" -eq 2 ] || fail "pts-hir.csv: returns"
for f in pts-throughput pts-wsat; do
	[ -s pts/$f.csv ] || fail "no $f.csv"
done
for p in pts-iops pts-iops-ss pts-wsat pts-wsat-tgbw pts-hir; do
	[ -s pts/$p.gp ] || fail "no $p.gp"
	if have gnuplot; then
		[ -s pts/$p.png ] || fail "no $p.png"
		[ -s pts/$p.svg ] || fail "no $p.svg"
	else
		skip_part "gnuplot is not installed: no plots drawn to check"
	fi
done

grep -q '"ended_by" : "wsat"' pts/result.json || fail "write saturation not ended by wsat"
grep -q "wsat_time's limit" out.txt && fail "write saturation: wrongly ended by wsat_time"

# write saturation stops at wsat or wsat_time, whichever comes first (the
# PTS: 4x capacity or 24 h): here the time, long before 400%
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run snia-pts $drive --set rounds=1 \
	--set point=0.01 --set tp_point=0.01 --set lat_point=0.01 \
	--set wsat=400% --set wsat_time=0.3 --set wsat_interval=0.05 \
	--set hir_write=0.05 --set hir_idle=0.1 --set hir_reps=1 \
	--set hir_baseline=0.1 --out pts-t
grep -q "write saturation .* in 0 s (wsat_time's limit)" out.txt || fail "wsat_time: summary"
grep -q '"ended_by" : "wsat_time"' pts-t/result.json || fail "wsat_time: json"
gb=$(sed -n '/write_saturation/,/}/s/.*"gb_written" : \([0-9.e+-]*\).*/\1/p' pts-t/result.json)
awk -v g="$gb" 'BEGIN { exit !(g > 0 && g < 0.064) }' || fail "wsat_time: wrote $gb GB"

# errors: one line, exit 2
expect_err 2 "parameter 'point'" "$SSDLAB" scenario run snia-pts --drive tiny --set point=soon
expect_err 2 "parameter 'hir_idle'" "$SSDLAB" scenario run snia-pts --drive tiny --set hir_idle=5,later
expect_err 2 "parameter 'rounds': 0 is out of range \(1 to 1000\)" "$SSDLAB" scenario run snia-pts --drive tiny --set rounds=0
expect_err 2 "parameter 'iodepth': 4097 is out of range \(1 to 4096\)" "$SSDLAB" scenario run snia-pts --drive tiny --set iodepth=4097
expect_err 2 "parameter 'hir_reps': '2.5' is not a whole number" "$SSDLAB" scenario run snia-pts --drive tiny --set hir_reps=2.5
