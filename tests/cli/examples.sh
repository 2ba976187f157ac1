# Every example job file runs on the tiny drive (made zoned, or given
# FDP, as its header says), placement lowers the FDP example's WA, and
# the steady-state
# example measures what it claims: its measure job starts in steady state
# (its first seconds are no faster than the rest) and costs what its
# preconditioning ended at; the latency-vs-load example gets the rates it
# asks, with latency rising with the rate, and its latency target settles
# between depth 1 and the iodepth.
. "$TOP/tests/cli/lib.inc"
need python3
# each with the drive keys its header's command line gives (a zoned
# drive, FDP), on the tiny drive
keys() { sed -n 's/^#   ssdlab run [^ ]* --drive tiny//p' "$1" | head -n 1; }
for f in "$TOP"/examples/*.fio; do
	# shellcheck disable=SC2046
	$SSDLAB run "$f" --drive tiny $(keys "$f") >/dev/null || fail "$(basename "$f")"
done
# placement: the log's blocks empty by themselves, only the region's
# data is copied; on one handle both are
f=$TOP/examples/fdp-noisy.fio
# shellcheck disable=SC2046
$SSDLAB run "$f" --drive tiny $(keys "$f") --output-format=json --output p1.json >/dev/null
sed 's/^fdp=1/fdp=0/' "$f" >p0.fio
# shellcheck disable=SC2046
$SSDLAB run p0.fio --drive tiny $(keys "$f") --output-format=json --output p0.json >/dev/null
python3 - <<'PY' || fail "fdp-noisy: placement"
import json
w1 = json.load(open("p1.json"))["jobs"][-1]["ssdlab"]["waf"]
w0 = json.load(open("p0.json"))["jobs"][-1]["ssdlab"]["waf"]
assert w1 < 1.2 and w0 > 1.8 * w1, (w1, w0)
PY
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
