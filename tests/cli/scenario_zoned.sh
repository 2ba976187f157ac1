# The zoned scenario on a 4 GiB default drive (8 allocation units): what
# it exists to show, from its result.json -- zones on one unit each need
# as many open zones as there are units to reach the drive's bandwidth,
# zones on every unit reach it alone; a reset costs the erase of the
# blocks the zone holds (nothing for an empty zone), and writes behind it
# wait for it once the registers are full; a padded finish programs the
# rest of the zone (more the emptier it is), a marked one nothing.  Also
# the drive's own zone keys, a small drive, and the refusals.
. "$TOP/tests/cli/lib.inc"
need python3

expect_status 0 "$SSDLAB" scenario run zoned --set capacity=4g --out z
cp out.txt z.txt
expect_status 0 "$SSDLAB" scenario run zoned --set capacity=4g --out again
cmp -s z/result.json again/result.json || fail "the same seed gave other figures"
for f in result.json zoned-throughput.csv zoned-occupancy.csv zoned-throughput.gp zoned-occupancy.gp; do
	[ -s "z/$f" ] || fail "no z/$f"
done
if have gnuplot; then
	[ -s z/zoned-throughput.png ] && [ -s z/zoned-occupancy.svg ] || fail "no charts"
else
	skip_part "gnuplot is not installed: no charts drawn to check"
fi
grep -q '^zoned on default (mapping = zone, 8 allocation units): 64 KiB writes at QD32' z.txt ||
	fail "summary: $(head -1 z.txt)"
python3 - z/result.json z/zoned-throughput.csv z/zoned-occupancy.csv <<'EOF' || fail "the scenario's figures: $(cat z.txt)"
import csv, json, sys
r = json.load(open(sys.argv[1]))
assert r["units"] == 8, r["units"]
rows = {t["zone_units"]: t for t in r["throughput"]}
assert sorted(rows) == [1, 2, 4, 8], sorted(rows)
mb = {zu: {p["open_zones"]: p["mbps"] for p in t["points"]} for zu, t in rows.items()}
assert sorted(mb[1]) == [1, 2, 4, 8, 16], mb[1]
full = mb[8][1]
# zones on one unit: each doubling of the open zones doubles the speed
# until every unit has one; beyond, zones share units and gain nothing
for zu in (1, 2, 4):
    groups = 8 // zu
    assert rows[zu]["groups"] == groups
    k = 1
    while k < groups:
        assert mb[zu][2 * k] > 1.8 * mb[zu][k], (zu, k, mb[zu])
        k *= 2
    assert abs(mb[zu][groups] - full) < 0.05 * full, (zu, mb[zu], full)
    assert all(abs(mb[zu][k] - full) < 0.05 * full for k in mb[zu] if k > groups), (zu, mb[zu])
    assert rows[zu]["full_at_open_zones"] == groups, rows[zu]
    # a zone alone is as fast as the units it spans
    assert abs(mb[zu][1] - full * zu / 8) < 0.05 * full * zu / 8, (zu, mb[zu][1], full)
# a zone on every unit needs no other
assert rows[8]["full_at_open_zones"] == 1 and full >= 0.95 * max(mb[8].values()), mb[8]
assert full > 300, full
# every row's zones hold the same (a point), so only the mapping differs
assert len({t["zone_capacity"] for t in r["throughput"]}) == 1
table = list(csv.DictReader(open(sys.argv[2])))
assert [int(t["open_zones"]) for t in table] == [1, 2, 4, 8, 16]
assert abs(float(table[3]["mbps_zone_units_1"]) - mb[1][8]) < 0.1

oz = r["occupancy_zone"]
assert oz["zone_units"] == 8 and oz["blocks_per_unit"] == 4, oz
reset = {x["filled_pct"]: x for x in r["reset"]}
assert sorted(reset) == [0, 25, 50, 75, 100]
# an empty zone holds no block: the command alone
assert reset[0]["erases"] == 0 and reset[0]["latency_ms"] < 0.01, reset[0]
assert reset[0]["held_bytes"] == 0
# then one erase per block on each unit, the units in parallel: a quarter
# of the zone is a block on each unit, so 25, 50, 75 and 100% cost 1..4
# erase times (3.5 ms on TLC)
for i, p in enumerate((25, 50, 75, 100), 1):
    x = reset[p]
    assert x["held_bytes"] == oz["zone_capacity"] * p // 100, x
    assert x["erases"] == i * 16, x    # 8 units, 2 planes each
    assert abs(x["latency_ms"] - 3.5 * i) < 0.1, x
    # the burst beside it waits for the erases; a write the registers
    # take does not
    assert x["burst_behind_ms"] >= x["latency_ms"], x
    assert x["burst_alone_ms"] < 0.2 * reset[25]["latency_ms"], x
    assert x["write_alone_ms"] < 0.1, x
assert abs(reset[0]["burst_behind_ms"] - reset[0]["burst_alone_ms"]) < 0.01, reset[0]

fin = {x["filled_pct"]: x for x in r["finish"]}
cap = oz["zone_capacity"]
# pad fills the rest of the zone's blocks: the emptier, the more and the
# longer; an empty zone has no block to fill, a full one nothing left
assert fin[0]["pad_bytes"] == 0 and fin[100]["pad_bytes"] == 0
for p in (25, 50, 75):
    assert fin[p]["pad_bytes"] == cap * (100 - p) // 100, fin[p]
    assert abs(fin[p]["pad_waf"] - 100 / p) < 0.01, fin[p]
assert fin[25]["pad_latency_ms"] > fin[50]["pad_latency_ms"] > fin[75]["pad_latency_ms"] > 100
assert fin[0]["pad_latency_ms"] < 0.01 and fin[100]["pad_latency_ms"] < 0.01
# mark programs nothing and costs the command alone
for p, x in fin.items():
    assert x["mark_pad_bytes"] == 0 and x["mark_latency_ms"] < 0.01, x
occ = list(csv.DictReader(open(sys.argv[3])))
assert [int(o["filled_pct"]) for o in occ] == [0, 25, 50, 75, 100]
assert int(occ[1]["finish_pad_bytes"]) == fin[25]["pad_bytes"]
EOF

# The drive's own zone keys: its open-zone limit bounds the zones written
# at once, its zone_units is the reset's.  A small drive with small writes.
expect_status 0 "$SSDLAB" scenario run zoned --drive tiny --set mapping=zone \
	--set zone_units=2 --set max_open_zones=2 --set bs=8k --out own
python3 - own/result.json <<'EOF' || fail "the drive's zone keys: $(cat out.txt)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["units"] == 4
for t in r["throughput"]:
    assert [p["open_zones"] for p in t["points"]] == [1, 2], t
assert r["occupancy_zone"]["zone_units"] == 2, r["occupancy_zone"]
m = {t["zone_units"]: t["points"] for t in r["throughput"]}
assert m[1][1]["mbps"] > 1.8 * m[1][0]["mbps"], m[1]
EOF

# refusals: one line, exit 2
expect_err 2 "^ssdlab: zoned: drive 'hitachi-hdt725032vla360' is a hard disk \(type = hdd\)" \
	"$SSDLAB" scenario run zoned --drive hitachi-hdt725032vla360
expect_err 2 "^ssdlab: zoned: drive 'tiny' cannot be made zoned \(mapping = zone\): key 'slc_cache': mapping = zone does not model it" \
	"$SSDLAB" scenario run zoned --drive tiny --set slc_cache=dynamic --set slc_cache_size=4m
expect_err 2 "^ssdlab: zoned: drive 'tiny' cannot be made zoned .*key 'page_cache': a host layer writes anywhere" \
	"$SSDLAB" scenario run zoned --drive tiny --set page_cache=1m
expect_err 2 "^ssdlab: zoned: bs '6k' is not a multiple of 4 KiB" \
	"$SSDLAB" scenario run zoned --drive tiny --set bs=6k
expect_err 2 "^ssdlab: zoned: the writes beside the resets \(10 bursts of 4 MiB\) do not fit in a zone of 4 MiB" \
	"$SSDLAB" scenario run zoned --drive tiny --set bs=2m
expect_err 2 "^ssdlab: zoned: the drive has 8 zones of 8 MiB for the reset and finish parts, which need 15" \
	"$SSDLAB" scenario run zoned --drive tiny --set zone_blocks=8
expect_err 2 "parameter 'iodepth': 0 is out of range" "$SSDLAB" scenario run zoned --drive tiny --set iodepth=0
