# The fdp scenario on its default drive (accuracy: 2 GiB, 2 allocation
# units): what it exists to show, from its result.json -- placement
# brings a cache's log and random region from the mixed drive's write
# amplification to the oracle's, with either handle type; a noisy handle
# raises a sequential one's cost, more when handles are initially
# isolated; logs written in pieces smaller than a reclaim unit cost
# copies even on handles of their own, and more the fewer handles they
# share, while logs written a reclaim unit at a time reach the oracle on
# two.  Also the same figures from the same seed, and the refusals.
. "$TOP/tests/cli/lib.inc"
need python3

expect_status 0 "$SSDLAB" scenario run fdp --out f
cp out.txt f.txt
for x in result.json fdp-cache.csv fdp-noisy.csv fdp-handles.csv fdp-cache.gp fdp-noisy.gp fdp-handles.gp; do
	[ -s "f/$x" ] || fail "no f/$x"
done
if have gnuplot; then
	[ -s f/fdp-cache.png ] && [ -s f/fdp-noisy.svg ] && [ -s f/fdp-handles.png ] || fail "no charts"
else
	skip_part "gnuplot is not installed: no charts drawn to check"
fi
grep -q '^fdp on accuracy (2 allocation units, reclaim units of 2 MiB, stripes of 8 KiB)$' f.txt ||
	fail "summary: $(head -1 f.txt)"
python3 - f/result.json f/fdp-cache.csv f/fdp-noisy.csv f/fdp-handles.csv <<'PY' || fail "the scenario's figures: $(cat f.txt)"
import csv, json, sys
r = json.load(open(sys.argv[1]))
assert r["units"] == 2 and r["reclaim_unit_bytes"] == 2 << 20, r
assert r["log_bytes"] + r["region_bytes"] == 2 << 30

# 1. placement keeps the log's blocks whole: both types at the oracle,
# far below the mixed drive; the types do the same work here (GC only
# ever copies the random region's data)
c = r["cache"]
none, ini, per, ideal = c["none"]["waf"], c["initial"]["waf"], c["persistent"]["waf"], c["ideal_waf"]
assert abs(c["log_share"] - 0.5) < 0.01, c
assert none > 2.5 * per, c
for w in (ini, per):
    assert abs(w - ideal) < 0.02 * ideal, c
assert c["initial"]["media_bytes"] == c["persistent"]["media_bytes"], c
for k in ("none", "initial", "persistent"):
    m = c[k]
    assert 4 << 30 <= m["host_bytes"] < (4 << 30) + r["reclaim_unit_bytes"], m
    assert abs(m["media_bytes"] / m["host_bytes"] - m["waf"]) < 0.01, m
rows = list(csv.DictReader(open(sys.argv[2])))
assert [x["placement"] for x in rows] == ["none", "initial", "persistent", "ideal"], rows
assert abs(float(rows[0]["waf"]) - none) < 1e-3

# 2. the noisy neighbour: above the oracle with both types (greedy GC
# takes the log's oldest block before it empties), initial isolation
# the most (its copies of the log land among the noisy handle's); the
# more noisy writes, the higher
n = r["noisy"]
assert [round(x["noisy_share"] * 4) for x in n] == [1, 2, 3], n
for x in n:
    i, p = x["initial"], x["persistent"]
    assert i["waf"] > p["waf"] > x["ideal_waf"] * 1.02, x
    assert i["log_waf_estimate"] > p["log_waf_estimate"] > 1.05, x
for a, b in zip(n, n[1:]):
    assert b["ideal_waf"] > a["ideal_waf"] and b["initial"]["waf"] > a["initial"]["waf"], (a, b)
    assert b["persistent"]["waf"] > a["persistent"]["waf"], (a, b)
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == 3 and abs(float(rows[1]["initial_waf"]) - n[1]["initial"]["waf"]) < 1e-3

# 3. reclaim units and handles: four logs of sizes 1:2:3:4
h = r["handles"]
assert h["logs"] == 4 and len(h["log_bytes"]) == 4
assert [b // h["log_bytes"][0] for b in h["log_bytes"]] == [1, 2, 3, 4], h["log_bytes"]
st = [x["waf"] for x in h["stripe"]["points"]]
ru = [x["waf"] for x in h["reclaim_unit"]["points"]]
assert [x["handles"] for x in h["stripe"]["points"]] == [1, 2, 3, 4, 5]
# logs in whole reclaim units: one handle for the logs is enough
assert ru[0] > 1.5 * ru[1], ru
for w in ru[1:]:
    assert abs(w - h["reclaim_unit"]["ideal_waf"]) < 0.02 * w, (ru, h["reclaim_unit"])
# logs in stripes: every handle more helps, and a handle each is still
# above the oracle (a reclaim unit dies a stripe at a time)
assert all(a > b * 1.02 for a, b in zip(st, st[1:])), st
assert st[-1] > 1.1 * h["stripe"]["ideal_waf"] and st[-1] > 1.1 * ru[-1], (st, ru)
assert all(s > q for s, q in zip(st, ru)), (st, ru)
rows = list(csv.DictReader(open(sys.argv[4])))
assert [int(x["handles"]) for x in rows] == [1, 2, 3, 4, 5]
assert abs(float(rows[4]["waf_stripe_pieces"]) - st[4]) < 1e-3
PY

# the same seed, the same figures (a small drive, quickly)
expect_status 0 "$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --out t1
expect_status 0 "$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --out t2
cmp -s t1/result.json t2/result.json || fail "the same seed gave other figures"
expect_status 0 "$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --seed 2 --out t3
cmp -s t1/result.json t3/result.json && fail "another seed gave the same figures"

# refusals: one line, exit 2; a drive that cannot take FDP with the
# config's own message
expect_err 2 "^ssdlab: fdp: drive 'tiny' cannot take flexible data placement with 5 persistently isolated handles: key 'fdp_handles': 5 handles keep 8 more blocks open in every allocation unit, which with one free for GC to work needs 9 beside the reserve, and op leaves 1" \
	"$SSDLAB" scenario run fdp --drive tiny
expect_err 2 "^ssdlab: fdp: drive 'tiny' cannot take .*key 'slc_cache': fdp = yes places" \
	"$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --set slc_cache=dynamic --set slc_cache_size=4m
expect_err 2 "^ssdlab: scenario fdp deletes with TRIM, and drive 'hitachi-hdt725032vla360' is a hard disk" \
	"$SSDLAB" scenario run fdp --drive hitachi-hdt725032vla360
expect_err 2 "^ssdlab: fdp: drive 'tiny' has host layers" \
	"$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --set page_cache=1m
expect_err 2 "^ssdlab: fdp: log '100%' is not at least a reclaim unit \(1 MiB\)" \
	"$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --set log=100%
expect_err 2 "^ssdlab: fdp: the log region of 2 MiB cannot be cut into 4 logs" \
	"$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --set log=2m
expect_err 2 "parameter 'logs': 1 is out of range" "$SSDLAB" scenario run fdp --drive tiny --set logs=1
expect_err 2 "parameter 'log_writes': 1 is out of range" "$SSDLAB" scenario run fdp --drive tiny --set log_writes=1
exit 0
