# The trace scenario: the committed sample trace (examples/traces) on the
# tiny drive, preconditioned to steady state, at 7% and at 28% spare: the
# more spare, the less write amplification and the lower the latency,
# which is what the scenario exists to show; its files and curves.
. "$TOP/tests/cli/lib.inc"
need python3

trace="$TOP/examples/traces/sample.iolog.gz"
# the sample is what its job file makes
mkdir -p examples/traces
"$SSDLAB" run "$TOP/examples/traces/sample.fio" --drive tiny >/dev/null
gzip -dc "$trace" | cmp -s - examples/traces/sample.iolog ||
	fail "examples/traces/sample.iolog.gz is not what sample.fio makes"
for op in 0.07 0.28; do
	expect_status 0 "$SSDLAB" scenario run trace --drive tiny --set op=$op \
		--set warmup=200% --set trace="$trace" --out "t$op"
	cp out.txt "t$op.txt"
	for f in result.json trace.csv series.csv trace-iops.gp trace-latency.gp trace-waf.gp \
		replay_clat_hist.1.log; do
		[ -s "t$op/$f" ] || fail "no t$op/$f"
	done
done
python3 - t0.07/result.json t0.28/result.json t0.07/trace.csv <<'EOF' || fail "the scenario's figures"
import csv, json, sys
lo, hi = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# every request of the trace (10,050 lines less the 4 of its file)
assert lo["requests"] == hi["requests"] == 10046, (lo["requests"], hi["requests"])
assert lo["writes"] == 7085 and lo["reads"] == 2961
# more spare: less write amplification, lower tail latency, and the
# trace's pace kept (its 5 s) where the drive keeps up
assert lo["waf"] > 2 * hi["waf"], (lo["waf"], hi["waf"])
assert lo["write_p99_us"] > 2 * hi["write_p99_us"]
assert 4.9 < hi["duration_s"] < 5.2, hi["duration_s"]
assert lo["duration_s"] > hi["duration_s"]
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == lo["intervals"] and len(rows) >= 5
# the curves add up to the trace: IOPS over 1 s intervals
assert abs(sum(float(r["write_iops"]) for r in rows) - 7085) < 1
assert sum(1 for r in rows if r["write_p99_us"]) >= len(rows) - 2
assert float(rows[-1]["waf"]) == round(lo["waf"], 4) or abs(float(rows[-1]["waf"]) - lo["waf"]) < 1e-3
EOF
grep -q 'WAF  *[0-9.]* over the replay' t0.07.txt || fail "summary: $(cat t0.07.txt)"
# a trace is needed, and must be one
expect_err 2 "name the trace: --set trace=FILE" "$SSDLAB" scenario run trace --drive tiny --out x
printf 'nonsense\n' >bad.iolog
expect_err 2 "bad.iolog: neither a fio iolog" "$SSDLAB" scenario run trace --drive tiny --set trace=bad.iolog --out y
expect_err 2 "nosuch.iolog: No such file" "$SSDLAB" scenario run trace --drive tiny --set trace=nosuch.iolog --out y
# the numbers are checked before the trace is read
expect_err 2 "parameter 'fill': 2 is out of range \(0 to 1\)" "$SSDLAB" scenario run trace --drive tiny --set trace=bad.iolog --set fill=2 --out y
expect_err 2 "parameter 'loops': '1.5' is not a whole number" "$SSDLAB" scenario run trace --drive tiny --set loops=1.5 --out y
expect_err 2 "parameter 'time_scale': 0 is out of range" "$SSDLAB" scenario run trace --drive tiny --set time_scale=0 --out y
expect_err 2 "trace: interval 1.5ms is not a whole number of ms" "$SSDLAB" scenario run trace --drive tiny --set trace="$trace" --set interval=1.5ms --out y
echo ok
