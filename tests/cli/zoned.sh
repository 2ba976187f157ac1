# A zoned drive (mapping = zone, docs/zoned.md) from the command line:
# a zone-after-zone fill writes each page once (WAF 1, no GC, no erase)
# and reads back; a zone striped over one unit writes at a quarter of the
# speed of one over all four; writes off the write pointer fail with the
# NVMe status and fio's errno; what the drive cannot do is refused in one
# line naming the key or the feature.
. "$TOP/tests/cli/lib.inc"
need python3
Z="--drive tiny --set mapping=zone"
"$SSDLAB" run "$TOP/examples/zoned-fill.fio" $Z --output-format=json >z.json ||
	fail "zoned-fill: exit $?"
python3 - <<'EOF2' || fail "zoned-fill"
import json
j = json.load(open('z.json'))['jobs']
w, r = j[0], j[1]
s = w['ssdlab']
assert s['mapping'] == 'zone', s
assert w['write']['io_bytes'] == 64 << 20, w['write']['io_bytes']
assert abs(s['waf'] - 1) < 1e-9 and s['gc_copied_pages'] == 0, s
assert s['blocks_erased'] == 0 and s['zones_reset'] == 0, s
assert r['read']['io_bytes'] == 64 << 20 and r['ssdlab']['host_pages_read_unmapped'] == 0, r['ssdlab']
EOF2

# a lone zone on one unit: a quarter of the write bandwidth
bw() { "$SSDLAB" run "$TOP/examples/zoned-fill.fio" $Z "$@" --output-format=json |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["write"]["bw_bytes"])'; }
all=$(bw) one=$(bw --set zone_units=1)
python3 -c "import sys; a, o = $all, $one; sys.exit(not 3.5 < a / o < 4.5)" ||
	fail "zone_units=1 wrote at $one B/s against $all over all units"

# random writes hit zones off their write pointers: fio's EIO, the status named
printf '[w]\nrw=randwrite\nbs=4k\ndirect=1\nsize=1m\n' >rand.fio
expect_status 1 "$SSDLAB" run rand.fio $Z
grep -q "err= 5 (Zone Invalid Write: a write must start at the zone's write pointer)" out.txt ||
	fail "random write on a zoned drive: $(grep err= out.txt)"
# TRIM is not offered: fio's EOPNOTSUPP
printf '[t]\nrw=trim\nbs=1m\nsize=1m\n' >trim.fio
expect_status 1 "$SSDLAB" run trim.fio $Z
grep -q "err=95" out.txt || fail "trim on a zoned drive: $(grep err= out.txt)"

# refusals
expect_err 2 "^ssdlab: key 'zone_units': 3 does not divide the drive's 4 allocation units" \
	"$SSDLAB" drive show tiny --set mapping=zone --set zone_units=3
expect_err 2 "^ssdlab: key 'zone_size': 768 KiB is not a power of two" \
	"$SSDLAB" run rand.fio $Z --set zone_size=768k
expect_err 2 "^ssdlab: key 'page_cache': a host layer writes anywhere" \
	"$SSDLAB" run rand.fio $Z --set page_cache=1m
if have nbdkit; then
	expect_err 2 "^ssdlab: the drive is zoned \(mapping = zone, 64 zones\) and NBD has no zone commands" \
		"$SSDLAB" serve $Z --socket "$PWD/z.sock"
else
	skip_part "nbdkit is not installed (serve of a zoned drive)"
fi

# drive show says what the namespace is, and its output loads again
"$SSDLAB" drive show tiny --set mapping=zone --set zone_units=2 \
	--set zone_capacity=384k >z.ini || fail "drive show"
grep -q "^# zones: 130 of 512 KiB, 384 KiB writable, each on 2 allocation units (2 groups, zone z on group z % 2), 1 block on each; the host addresses 65 MiB$" z.ini ||
	fail "drive show's zones line: $(grep '^# zones' z.ini)"
"$SSDLAB" drive show ./z.ini | grep -q "^# zones: 130 of 512 KiB" || fail "z.ini does not load"
