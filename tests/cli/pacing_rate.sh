# rate and rate_iops pace a job in simulated time: below the drive's
# capacity it gets the rate it asks, at the latency of an unloaded drive;
# near the capacity the queue fills and latency rises (latency against
# load).  Per-direction rates, io_submit_mode, and rate_min ending a job
# that cannot keep its minimum.
. "$TOP/tests/cli/lib.inc"
need python3

job() { # NAME EXTRA...: a filled tiny drive, then 4 KiB random reads
	name=$1; shift
	{
		printf '[fill]\nrw=write\nbs=128k\niodepth=16\n'
		printf '[%s]\nstonewall\nrw=randread\nbs=4k\niodepth=32\n' "$name"
		printf 'runtime=2\ntime_based\n'
		for o in "$@"; do printf '%s\n' "$o"; done
	} >"$name.fio"
	expect_status 0 "$SSDLAB" run "$name.fio" --drive tiny \
		--output-format=json --output "$name.json"
}

job qd1 iodepth=1
job free
for r in 1000 20000 40000 55000; do job "r$r" "rate_iops=$r"; done
job bw rate=40m,10m
job off rate_iops=40000 io_submit_mode=offload

python3 - <<'PY'
import json
def f(n):
    r = json.load(open(n + ".json"))["jobs"][-1]["read"]
    return r["iops"], r["clat_ns"]["mean"], r["clat_ns"]["percentile"]["99.000000"]
qd1, free = f("qd1"), f("free")
print("qd1", qd1, "free", free)
prev = 0
for rate in (1000, 20000, 40000, 55000):
    iops, mean, p99 = f("r%d" % rate)
    print(rate, iops, mean, p99)
    # below capacity the job gets the rate it asks (within 0.5%)
    assert abs(iops - rate) <= 0.005 * rate, (rate, iops)
    assert mean >= prev * 0.98, ("latency must rise with load", rate, mean, prev)
    prev = mean
# at a low rate the drive is unloaded: QD1 latency within 5%
lo = f("r1000")
assert abs(lo[1] - qd1[1]) <= 0.05 * qd1[1], (lo, qd1)
# near the capacity (55k of about 60k) latency is far higher
hi = f("r55000")
assert hi[1] > 5 * lo[1] and hi[2] > 5 * lo[2], (hi, lo)
assert free[0] > 55000, free
# rate=40m,10m: reads at 40 MiB/s (the write part limits nothing here)
bw = json.load(open("bw.json"))["jobs"][-1]["read"]["bw_bytes"]
assert abs(bw - 40 * 1048576) <= 0.005 * 40 * 1048576, bw
# offload: I/Os go out at their turn, no waiting for the queue to drain
# first (fio's inline thread does), so latency at the same rate is lower
off, inl = f("off"), f("r40000")
assert abs(off[0] - 40000) <= 200 and off[1] < inl[1], (off, inl)
PY

# Per direction: rate=R,W caps each; "R," caps reads only; a mixed job
# takes the other direction while one is ahead (fio's rate_ddir).
cat >mix.fio <<'EOF'
[fill]
rw=write
bs=128k
iodepth=16
[both]
stonewall
rw=randrw
bs=4k
iodepth=8
rate=400k,200k
runtime=4
time_based
[reads]
stonewall
rw=randrw
bs=4k
iodepth=8
rate=400k,
runtime=4
time_based
EOF
expect_status 0 "$SSDLAB" run mix.fio --drive tiny --output-format=json --output mix.json
python3 - <<'PY'
import json
j = json.load(open("mix.json"))["jobs"]
r, w = j[1]["read"]["bw_bytes"], j[1]["write"]["bw_bytes"]
assert abs(r - 409600) < 4096 and abs(w - 204800) < 4096, (r, w)
r, w = j[2]["read"]["bw_bytes"], j[2]["write"]["bw_bytes"]
assert abs(r - 409600) < 4096 and w > 2 * r, (r, w)
PY

# rate_min: a job that cannot keep its minimum ends with EIO after fio's
# 2 s of settling and one ratecycle; the run exits 1 naming it, and the
# jobs after it still run
cat >min.fio <<'EOF'
[fill]
rw=write
bs=128k
iodepth=16
[slow]
stonewall
rw=randwrite
bs=4k
iodepth=32
rate_min=200m
ratecycle=500
runtime=20
time_based
[after]
stonewall
rw=randread
bs=4k
runtime=100ms
time_based
EOF
set +e
"$SSDLAB" run min.fio --drive tiny --output-format=json --output min.json 2>min.err
st=$?
set -e
[ "$st" -eq 1 ] || fail "rate_min: exit $st, wanted 1"
grep -q "job 'slow': rate_min=209715200B/s not met, got [0-9]*B/s" min.err || { cat min.err; fail "rate_min message"; }
python3 - <<'PY'
import json
j = json.load(open("min.json"))["jobs"]
assert j[1]["error"] == 5, j[1]["error"]
# after 2 s of settling, the first 500 ms cycle below the minimum
assert 2500 <= j[1]["job_runtime"] <= 3000, j[1]["job_runtime"]
assert j[2]["error"] == 0 and j[2]["read"]["total_ios"] > 0
PY
# a minimum the drive keeps is no error
sed -e 's/rate_min=200m/rate_min=100k/' min.fio >ok.fio
expect_status 0 "$SSDLAB" run ok.fio --drive tiny
