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
