# fio's steady-state detection over simulated time: per-interval samples,
# the criterion over a rolling window (deviation from the mean, or slope),
# the job ended when it holds, and fio's "steadystate" JSON object filled
# with the window the decision was taken on.
. "$TOP/tests/cli/lib.inc"
need python3

# fio's examples/steadystate.fio (its "threads=1" written "thread=1")
cat >ss.fio <<'EOF'
[global]
thread=1
group_reporting
time_based
size=128m

[ss-write]
filename=/dev/null
rw=write
bs=128k
numjobs=4
runtime=5m
ss=iops:10%
ss_dur=30s
ss_ramp=10s

[ss-read]
new_group
stonewall
filename=/dev/zero
rw=randread
bs=4k
numjobs=4
runtime=5m
ss=bw_slope:1%
ss_dur=10s
ss_ramp=5s
EOF
expect_status 0 "$SSDLAB" run ss.fio --drive tiny --set capacity=256m \
	--output-format=json --output ss.json
expect_status 0 "$SSDLAB" run ss.fio --drive tiny --set capacity=256m --output ss.txt
grep -Eq '^  steadystate  : attained=yes, bw=.*, iops=.*, iops mean dev=[0-9.]+%$' ss.txt || fail "text line (iops)"
grep -Eq '^  steadystate  : attained=yes, .*, bw slope=-?[0-9.]+%$' ss.txt || fail "text line (bw_slope)"

# a latency criterion (ss_interval is one for the whole file, as in fio) (fio's example_latency_steadystate.fio, its times
# scaled down 30x), and one that is never met
cat >lat.fio <<'EOF'
[fill]
rw=write
bs=128k
iodepth=16
[lat]
stonewall
rw=randread
bs=4k
iodepth=32
time_based
runtime=120
steadystate=lat:5%
steadystate_duration=10
steadystate_ramp_time=2
steadystate_check_interval=2
[never]
stonewall
rw=randread
bs=4k
iodepth=4
rate_iops=1000
rate_process=poisson
runtime=10
time_based
ss=iops_slope:0%
ss_dur=6
ss_interval=2
EOF
expect_status 0 "$SSDLAB" run lat.fio --drive tiny --output-format=json --output lat.json

python3 - <<'PY'
import json
# job_runtime sums the runtimes of the instances reported together (fio's
# total_run_time): per instance, it is that over the clones
def check(j, crit, dur, interval, ramp, attained, clones=1):
    rt = j["job_runtime"] / clones
    s = j["steadystate"]
    n = dur // interval
    print(j["jobname"], s["ss"], s["attained"], s["criterion"], j["job_runtime"])
    assert s["ss"] == crit and s["duration"] == dur, s
    assert s["attained"] == attained, s
    d = s["data"]
    assert len(d["iops"]) == n and len(d["bw"]) == n, d
    assert d["iops_mean"] == sum(d["iops"]) // n and d["bw_mean"] == sum(d["bw"]) // n
    what = crit.split(":")[0]
    key = {"iops": "iops", "bw": "bw", "lat": "lat_ns"}[what.split("_")[0]]
    y = d[key]
    pct = crit.endswith("%")
    val = float(s["criterion"].rstrip("%"))
    if what.endswith("_slope"):
        xs = range(n)
        mx, my = sum(xs) / n, sum(y) / n
        slope = sum((x - mx) * (v - my) for x, v in zip(xs, y)) / \
                sum((x - mx) ** 2 for x in xs)
        assert abs(slope - s["slope"]) <= 1e-6 * max(1, abs(slope)), (slope, s["slope"])
        want = 100 * slope / (sum(y) // n) if pct else slope
    else:
        m = sum(y) / n
        dev = max(abs(v - m) for v in y)
        assert abs(dev - s["max_deviation"]) < 1e-6 * max(1, dev), (dev, s)
        want = 100 * dev / m if pct else dev
    assert abs(want - val) <= 1e-5 * max(1, abs(want)), (want, val)
    limit = float(crit.split(":")[1].rstrip("%"))
    if attained:
        assert abs(val) < limit, (val, limit)
        # ended when attained: the ramp, then the window, then some
        assert rt >= 1000 * (ramp + dur), j["job_runtime"]
        # at a sample, once the I/Os in flight have completed
        assert rt % (1000 * interval) < 100, j["job_runtime"]
    return s
jobs = {j["jobname"]: j for j in json.load(open("ss.json"))["jobs"]}
w = check(jobs["ss-write"], "iops:10.000000%", 30, 1, 10, 1, 4)
assert jobs["ss-write"]["job_runtime"] < 4 * 300000
r = check(jobs["ss-read"], "bw_slope:1.000000%", 10, 1, 5, 1, 4)
assert jobs["ss-read"]["groupid"] == 1
jobs = {j["jobname"]: j for j in json.load(open("lat.json"))["jobs"]}
l = check(jobs["lat"], "lat:5.000000%", 10, 2, 2, 1)
assert l["data"]["lat_mean"] > 0 and len(l["data"]["lat_ns"]) == 5
assert jobs["lat"]["job_runtime"] < 120000
n = check(jobs["never"], "iops_slope:0.000000%", 6, 2, 0, 0)
assert 10000 <= jobs["never"]["job_runtime"] < 10100
# not attained: the last window, oldest first, about 1000 IOPS each
assert all(800 < v < 1200 for v in n["data"]["iops"]), n
PY

# options checked as fio checks them
printf '[a]\nss=iops:1%%\nss_dur=3\nss_interval=2\n' >bad1.fio
expect_err 2 "bad1\.fio:3: option 'ss_dur'.*multiple of ss_interval" "$SSDLAB" run bad1.fio --drive tiny
printf '[a]\nss=lat\nss_dur=3\n' >bad2.fio
expect_err 2 "bad2\.fio:2: option 'ss'.*no limit" "$SSDLAB" run bad2.fio --drive tiny
printf '[a]\nss_dur=4\nss_interval=2\n[b]\nss_dur=4\n' >bad3.fio
expect_err 2 "bad3\.fio:4: option 'ss_interval'.*the same interval in every job" "$SSDLAB" run bad3.fio --drive tiny
