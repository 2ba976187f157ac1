# Every example job file runs on the tiny drive (made zoned for the
# zoned ones), and the steady-state
# example measures what it claims: its measure job starts in steady state
# (its first seconds are no faster than the rest) and costs what its
# preconditioning ended at; the latency-vs-load example gets the rates it
# asks, with latency rising with the rate, and its latency target settles
# between depth 1 and the iodepth.
. "$TOP/tests/cli/lib.inc"
need python3
for f in "$TOP"/examples/*.fio; do
	# the zoned examples on the tiny drive made zoned, as they say
	z=
	grep -q -- "--set mapping=zone" "$f" && z="--set mapping=zone"
	# shellcheck disable=SC2086
	$SSDLAB run "$f" --drive tiny $z >/dev/null || fail "$(basename "$f")"
done
$SSDLAB run "$TOP/examples/steady-state.fio" --drive tiny \
	--output-format=json --output ss.json >/dev/null
python3 - <<'PY' || fail "steady state"
import glob, json, statistics
d = json.load(open("ss.json"))
jobs = {j["jobname"]: j for j in d["jobs"]}
pre, mea = jobs["precondition"]["ssdlab"]["waf"], jobs["measure"]["ssdlab"]["waf"]
assert abs(mea - pre) < 0.1 * mea, (pre, mea)
iops = [int(l.split(",")[1]) for l in open(glob.glob("measure_iops*.log")[0])][:-1]
med = statistics.median(iops)
assert max(iops[:5]) < 1.25 * med, (iops[:5], med)
PY
$SSDLAB run "$TOP/examples/latency-vs-load.fio" --drive tiny \
	--output-format=json --output lat.json >/dev/null
python3 - <<'PY' || fail "latency against load"
import json
jobs = {j["jobname"]: j for j in json.load(open("lat.json"))["jobs"]}
prev = 0
for rate in (1000, 20000, 40000, 55000):
    r = jobs["rate-%d" % rate]["read"]
    assert abs(r["iops"] - rate) <= 0.005 * rate, (rate, r["iops"])
    assert r["clat_ns"]["mean"] > prev, (rate, r["clat_ns"]["mean"], prev)
    prev = r["clat_ns"]["mean"]
assert jobs["unpaced"]["read"]["clat_ns"]["mean"] > prev
assert 1 < jobs["latency-target"]["latency_depth"] < 32
PY
