# fio's latency profiling: latency_target, latency_window,
# latency_percentile, latency_run.  The search for the deepest queue that
# keeps latency_percentile of each window's I/Os within the target lands
# between the depths whose latency brackets the target; a target above
# the full queue's latency gives iodepth; one below the QD1 latency keeps
# depth 1 (or, with latency_percentile=100, ends the job with err=110).
. "$TOP/tests/cli/lib.inc"
need python3

cat >l.fio <<'EOF2'
[global]
rw=randread
bs=4k
iodepth=32
runtime=100ms
time_based
[fill]
rw=write
bs=128k
runtime=0
time_based=0
[qd1]
stonewall
iodepth=1
[qd32]
stonewall
[mid]
stonewall
runtime=2s
latency_target=250
latency_window=20ms
latency_percentile=95
[high]
stonewall
runtime=2s
latency_target=5ms
latency_window=20ms
latency_percentile=95
[low]
stonewall
runtime=300ms
latency_target=30us
latency_window=20ms
latency_percentile=99
[keep]
stonewall
runtime=300ms
latency_target=250
latency_window=20ms
latency_percentile=95
latency_run=1
EOF2
expect_status 0 "$SSDLAB" run l.fio --drive tiny --output-format=json,normal --output l.out
python3 - <<'PY'
import json
txt = open("l.out").read()
at = 0 if txt.startswith("{") else txt.index("\n{\n") + 1
js = json.JSONDecoder().raw_decode(txt, at)[0]
j = {x["jobname"]: x for x in js["jobs"]}
p95 = lambda n: j[n]["read"]["clat_ns"]["percentile"]["95.000000"]
target = 250000
print({n: (j[n]["latency_depth"], p95(n), j[n]["read"]["runtime"])
       for n in j if n != "fill"})
# the target lies between the QD1 and the QD32 latency
assert p95("qd1") < target < p95("qd32"), (p95("qd1"), p95("qd32"))
m = j["mid"]
assert 1 < m["latency_depth"] < 32, m["latency_depth"]
assert m["latency_target"] == target and m["latency_window"] == 20000
assert m["latency_percentile"] == 95.0
# converged: the figures start over, the windows from there on run at
# (or next to) the depth found, and the job ends long before its runtime
assert 20 <= m["read"]["runtime"] < 500, m["read"]["runtime"]
assert p95("mid") <= target * 1.02, p95("mid")
d = m["iodepth_level"]
bucket = {1: "1", 2: "2", 4: "4", 8: "8", 16: "16", 32: "32"}
b = max(k for k in bucket if k <= m["latency_depth"])
assert d[bucket[b]] > 90, d
# above the full queue's latency: the whole iodepth
assert j["high"]["latency_depth"] == 32, j["high"]["latency_depth"]
assert j["high"]["read"]["runtime"] == 20  # converged, one final window
assert j["high"]["iodepth_level"][">=64"] == 0
# below the QD1 latency, percentile < 100: depth 1 for the whole runtime
lo = j["low"]
assert lo["latency_depth"] == 1 and lo["error"] == 0
assert lo["read"]["runtime"] == 300, lo["read"]["runtime"]
assert lo["iodepth_level"]["1"] == 100.0
# latency_run: the search goes on for the whole runtime
k = j["keep"]
assert k["read"]["runtime"] == 300 and 1 < k["latency_depth"] < 32, k
# no target: iodepth, fio's zeros
q = j["qd32"]
assert (q["latency_depth"], q["latency_target"], q["latency_window"],
        q["latency_percentile"]) == (32, 0, 0, 100.0)
PY
grep -q "^     latency   : target=250000, window=20000, percentile=95.00%, depth=[0-9]" l.out ||
	fail "no latency line"
grep -q "^     latency   : target=0, window=0, percentile=100.00%, depth=32$" l.out ||
	fail "no plain latency line"

# percentile 100: an I/O over the target at depth 1 ends the job (fio's
# lat_fatal: err=110, ETIMEDOUT)
cat >f.fio <<'EOF2'
[fill]
rw=write
bs=128k
[strict]
stonewall
rw=randread
iodepth=8
runtime=100ms
time_based
latency_target=10us
EOF2
expect_status 1 "$SSDLAB" run f.fio --drive tiny
grep -q "err=110 (max latency exceeded)" out.txt || { cat out.txt; fail "no err=110"; }
grep -q "job 'strict': latency of [0-9]* nsec exceeds specified max (10000 nsec): read at offset" out.txt ||
	{ cat out.txt; fail "no latency message"; }
grep -q "depth=1$" out.txt || fail "not depth 1"

# the options of fio's examples/latency-profile.fio (a device read at
# up to 128 deep, 500 ms at 99.9% over 5 s windows): the search runs while
# the drive is read once, and its depth is reported
cat >p.fio <<'EOF2'
[global]
bs=4k
rw=randread
random_generator=lfsr
direct=1
ioengine=libaio
iodepth=128
latency_target=500000
latency_window=5000000
latency_percentile=99.9
[device]
filename=/dev/sda
size=32m
EOF2
expect_status 0 "$SSDLAB" run p.fio --drive tiny
grep -q "^     latency   : target=500000000, window=5000000, percentile=99.90%, depth=1$" out.txt ||
	{ cat out.txt; fail "latency-profile line"; }

# checked values
for v in "latency_percentile=101" "latency_percentile=-1" \
	 "latency_percentile=abc" "latency_target=xx" "latency_window=-5" \
	 "latency_run=7"; do
	printf '[j]\nrw=read\nsize=1m\n%s\n' "$v" >bad.fio
	expect_err 2 "bad.fio:4: option '${v%%=*}': .*accepted" \
		"$SSDLAB" run bad.fio --drive tiny
done
printf '[j]\nrw=read\nsize=1m\nlatency_percentile=99.5%%\nlatency_target=1ms\n' >ok.fio
expect_status 0 "$SSDLAB" run ok.fio --drive tiny --output-format=json
grep -q '"latency_percentile" : 99.5' out.txt || fail "99.5% not taken"
