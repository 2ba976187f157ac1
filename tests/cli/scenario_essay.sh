# essay-bench rebuilds the 2008 essay's bench (docs/scenarios.md): what
# each configuration shows must come out -- the disk's zoned recording
# in HD Tune, the flat SSD, the disk's buffer beating the bare SSD at
# large writes, the OS cache lifting the disk's small random writes, MFT
# flushing its buffer in mft_write-sized log writes -- and the table of
# seed figures is complete.
. "$TOP/tests/cli/lib.inc"
need python3
expect_status 0 "$SSDLAB" scenario run essay-bench --out out --set file=256m \
	--set point=1 --set lat_time=5 --set cache=64m --set tune_points=8 --set tune_chunk=4m
grep -q '^essay-bench: silicon-power-32g, silicon-power-32g + MFT, hitachi-hdt725032vla360' out.txt ||
	fail "no summary line"
grep -Eq '^  [0-9]+ of 17 figures within 15%' out.txt || fail "no figure count"
for f in essay-nocache-read essay-nocache-write essay-oscache-read \
	 essay-oscache-write hdtune-read hdtune-write; do
	[ -s out/$f.gp ] || fail "no $f.gp"
done
python3 - <<'PY' || fail "essay-bench behaviour"
import csv, json
d = json.load(open("out/result.json"))
c = d["curves"]
def pt(conf, key, bs):
    return next(p for p in c[conf][key] if p["bs"] == bs)
# HD Tune: the disk's outer tracks are faster; the SSD draws a flat line
rows = list(csv.DictReader(open("out/hdtune.csv")))
h = [float(r["hdd_read_1m"]) for r in rows]
s = [float(r["ssd_read_1m"]) for r in rows]
assert h[0] > 1.5 * h[-1], h
assert max(s) < 1.1 * min(s), s
# the disk's write cache beats the bare SSD at large random writes,
# the SSD is far ahead at small random reads
assert pt("hdd", "nocache_write", 4 << 20)["mbps"] > pt("ssd", "nocache_write", 4 << 20)["mbps"]
assert pt("ssd", "nocache_read", 4096)["iops"] > 5 * pt("hdd", "nocache_read", 4096)["iops"]
# the OS cache: the disk's 4 KiB random writes gather and go down sorted
assert pt("hdd", "oscache_write", 4096)["iops"] > 2 * pt("hdd", "nocache_write", 4096)["iops"]
# the disk's latency grows with the request
assert c["hdd"]["lat_1m_ms"] > c["hdd"]["lat_4k_ms"]
# the JMF602 maps blocks: a small random write merges a 4 MiB row, a few
# IOPS, and the 70/30 mix waits for those merges longer than the disk
# seeks; MFT's log turns them into long runs: its rescue
w_ssd = pt("ssd", "nocache_write", 4096)["iops"]
assert w_ssd < 20, w_ssd
assert pt("mft", "nocache_write", 4096)["iops"] > 50 * w_ssd
assert c["ssd"]["lat_4k_ms"] > c["hdd"]["lat_4k_ms"], c["ssd"]["lat_4k_ms"]
f = {x["figure"]: x for x in d["figures"]}
assert len(f) == 17, sorted(f)
# MFT writes its buffer as log writes of mft_write: 32 MiB / 1 MiB
assert 20 <= f["mft_writes_per_flush"]["ssdlab"] <= 33, f["mft_writes_per_flush"]
for x in f.values():
    assert x["status"] in ("ok", "OUT", "-"), x
PY
expect_err 2 "not a hard disk" "$SSDLAB" scenario run essay-bench --set hdd=tiny --set file=16m
expect_err 2 "bare SSD" "$SSDLAB" scenario run essay-bench --set raid=0 --set file=16m
expect_err 2 "parameter 'tune_points': 257 is out of range \(2 to 256\)" "$SSDLAB" scenario run essay-bench --set tune_points=257
expect_err 2 "parameter 'tune_points': '8.5' is not a whole number" "$SSDLAB" scenario run essay-bench --set tune_points=8.5
expect_err 2 "essay-bench: file must be at least 4m" "$SSDLAB" scenario run essay-bench --set file=1m
echo "essay-bench: ok"
