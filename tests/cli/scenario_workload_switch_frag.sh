# Fragmentation in workload-switch (seed 002): on intel-x25m-80g (4 GiB,
# 8 zones, 60 s patterns) the IOmeter patterns' small random writes
# scatter the data (mean run 32 -> under 8 pages), and with the preset's
# read_piece_overhead the next sequential read's minimum falls (to 125 of
# 230 MB/s), then recovers once the sequential writes have laid the
# sampled data out again (cycles 5-6); without it the read stays flat
# however scattered the data.
. "$TOP/tests/cli/lib.inc"

drive="--drive intel-x25m-80g --set capacity=4g --set zones=8 --set pattern_time=60"
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run workload-switch $drive --out frag
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run workload-switch $drive \
	--set read_piece_overhead=0 --out flat
python3 - <<'PY' || fail "fragmentation: see above"
import json, sys
def cycles(d):
    return json.load(open(d + "/result.json"))["cycles"]
f, z = cycles("frag"), cycles("flat")
rmin = [c["read_mbps"]["min"] for c in f]
run = [c["frag_run_pages"] for c in f]
print("read min", ["%.0f" % x for x in rmin], "run", ["%.1f" % x for x in run])
ok = (run[0] > 31 and run[1] < 8 and
      rmin[1] < 0.7 * rmin[0] and          # falls after the patterns
      rmin[5] > 0.95 * rmin[0] and         # and recovers
      min(c["read_mbps"]["min"] for c in z) > 0.95 * z[0]["read_mbps"]["min"])
sys.exit(0 if ok else 1)
PY

# Firmware 8160 against 8820 (gc_copies): with the cleaning's copies
# between the host's pages, the sequential writes made while GC runs stay
# broken up and pay the copies in their own stream -- writes lower through
# cycle 6 and the read minimum deeper in cycle 3 -- where 8820's writes
# and reads recover with the sequential passes.
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run workload-switch $drive --out fw8160
d8820="--drive intel-x25m-80g-8820 --set capacity=4g --set zones=8 --set pattern_time=60"
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run workload-switch $d8820 --out fw8820
python3 - <<'PY' || fail "firmware 8160 against 8820: see above"
import json, sys
def cycles(d):
    return json.load(open(d + "/result.json"))["cycles"]
a, b = cycles("fw8160"), cycles("fw8820")
wa = [c["write_mbps"]["avg"] for c in a]
wb = [c["write_mbps"]["avg"] for c in b]
print("8160 writes", ["%.0f" % x for x in wa], "8820", ["%.0f" % x for x in wb])
ok = (wa[0] == wb[0] and                       # the same drive fresh
      wa[5] < 0.7 * wb[5] and                  # 8160 stays slow
      wb[5] > 0.8 * wb[0] and                  # 8820 recovers
      a[2]["read_mbps"]["min"] < 0.9 * b[2]["read_mbps"]["min"])
sys.exit(0 if ok else 1)
PY
