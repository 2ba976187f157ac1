# The queue as fio drives it: iodepth_batch (submission in batches),
# iodepth_batch_complete_min/max (completions reaped together) and
# iodepth_low (a full queue refilled only once drained that far) change
# the depth the drive sees; think time (thinktime_spin,
# thinktime_blocks_type, thinktime_iotime, rate_ignore_thinktime).
. "$TOP/tests/cli/lib.inc"
need python3

cat >q.fio <<'EOF'
[global]
rw=randread
bs=4k
runtime=1
time_based
[fill]
rw=write
bs=128k
iodepth=16
runtime=0
time_based=0
[qd1]
stonewall
iodepth=1
[base]
stonewall
iodepth=16
[low]
stonewall
iodepth=16
iodepth_low=4
iodepth_batch=12
[drain]
stonewall
iodepth=16
iodepth_batch_complete_min=16
write_lat_log=drain
[base_log]
stonewall
iodepth=16
runtime=100ms
write_lat_log=base
EOF
expect_status 0 "$SSDLAB" run q.fio --drive tiny --output-format=json --output q.json
python3 - <<'PY'
import json
j = {x["jobname"]: x["read"] for x in json.load(open("q.json"))["jobs"][1:]}
iops = {k: v["iops"] for k, v in j.items()}
p1 = {k: v["clat_ns"]["percentile"]["1.000000"] for k, v in j.items()}
print(iops, p1)
# a queue kept full does most; refilled at 4 less; drained to 0 before
# each refill (all 16 reaped together) less again; QD1 least
assert iops["base"] > 1.1 * iops["low"] > 1.1 * iops["drain"], iops
assert iops["drain"] > 2 * iops["qd1"], iops
# the drive is less loaded while the queue drains to 4: faster I/Os
assert p1["low"] < 0.7 * p1["base"], p1
# reaped together: nothing completes before the 16th of its batch
assert p1["drain"] > 1.5 * p1["base"], p1
def lats(path):
    return [int(l.split(",")[1]) for l in open(path)]
# the 16 I/Os of a batch are submitted at once and reaped at once: one
# latency per batch of 16; the full queue has all different ones
d = lats("drain_lat.5.log")
assert len(d) > 1000 and len(d) % 16 == 0, len(d)
assert all(len(set(d[i:i + 16])) == 1 for i in range(0, len(d), 16))
b = lats("base_lat.6.log")
assert len(set(b)) > len(b) / 4, (len(set(b)), len(b))
PY

cat >t.fio <<'EOF'
[global]
rw=randread
bs=4k
runtime=1
time_based
[fill]
rw=write
bs=128k
iodepth=16
runtime=0
time_based=0
[free]
stonewall
iodepth=1
[think]
stonewall
iodepth=1
thinktime=10ms
thinktime_blocks=10
[spin]
stonewall
iodepth=1
thinktime=10ms
thinktime_spin=4ms
thinktime_blocks=10
[spin_over]
stonewall
iodepth=1
thinktime=10ms
thinktime_spin=25ms
thinktime_blocks=10
[complete]
stonewall
iodepth=8
thinktime=1ms
thinktime_blocks=4
[issue]
stonewall
iodepth=8
thinktime=1ms
thinktime_blocks=4
thinktime_blocks_type=issue
[iotime]
stonewall
iodepth=1
thinktime=100ms
thinktime_iotime=100ms
[catchup]
stonewall
iodepth=1
rate_iops=2000
thinktime=100ms
thinktime_iotime=100ms
[ignore]
stonewall
iodepth=1
rate_iops=2000
thinktime=100ms
thinktime_iotime=100ms
rate_ignore_thinktime=1
EOF
expect_status 0 "$SSDLAB" run t.fio --drive tiny --output-format=json --output t.json
python3 - <<'PY'
import json
n = {x["jobname"]: x["read"]["total_ios"] for x in json.load(open("t.json"))["jobs"]}
print(n)
free = n["free"]
# 10 I/Os (0.7 ms) then 10 ms of thinking: about 94 rounds in 1 s
assert 900 <= n["think"] <= 960, n
# the spin is part of the think time (at most all of it): the same
assert n["spin"] == n["think"] and n["spin_over"] == n["think"], n
# counting issues, the queue never holds more than 4 before a think;
# counting completions, 8 go out first
assert n["complete"] > 1.5 * n["issue"], n
# 100 ms of I/O, 100 ms of thinking: half of the free run
assert abs(n["iotime"] - free / 2) < 0.05 * free, n
# after a think, a rated job catches up (fio's default) ...
assert 1750 <= n["catchup"] <= 2000, n
# ... or keeps to its rate when told to ignore the think time
assert 950 <= n["ignore"] <= 1050, n
PY
