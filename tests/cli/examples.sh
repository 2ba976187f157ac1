# Every example job file runs on the tiny drive, and the steady-state
# example measures what it claims: its measure job starts in steady state
# (its first seconds are no faster than the rest) and costs what its
# preconditioning ended at.
. "$TOP/tests/cli/lib.inc"
command -v python3 >/dev/null 2>&1 || fail "python3 is needed"
for f in "$TOP"/examples/*.fio; do
	$SSDLAB run "$f" --drive tiny >/dev/null || fail "$(basename "$f")"
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
