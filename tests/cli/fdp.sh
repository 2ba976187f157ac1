# A drive with flexible data placement from the command line
# (docs/fdp.md): a job names no handle, so everything goes to handle 0;
# the report's FDP statistics log agrees with the drive's own counters --
# media bytes erased are the erase blocks counted, each its page_size x
# pages_per_block bytes (a multi-plane drive counts every plane's block
# once), media bytes written the 4 KiB units programmed.  The events by
# type are none; the handle usage adds up: handle 0 wrote every host
# page, and its pages, the GC copies into the blocks the handles share
# and the padding are every 4 KiB unit programmed.  Reclaim groups: a
# count that does not divide the units is refused by key; two groups
# run, and report themselves.
. "$TOP/tests/cli/lib.inc"
need python3
printf '[w]\nrw=randwrite\nbs=4k\nio_size=4g\n' >w.fio
"$SSDLAB" run w.fio --drive default --set capacity=2g --set op=0.4 --set fdp=yes \
	--output-format=json >f.json || fail "run: exit $?"
python3 - <<'EOF2' || fail "the FDP statistics log"
import json
s = json.load(open('f.json'))['jobs'][0]['ssdlab']
f = s['fdp']
assert f["handles"] == 8 and f['isolation'] == 'initial', f
assert s['blocks_erased'] > 0, s['blocks_erased']
# default: 16 KiB pages, 256 pages a block, 2 planes a die in lockstep
assert f['media_bytes_erased'] == s['blocks_erased'] * 16384 * 256, (f, s['blocks_erased'])
assert f['media_bytes_written'] == s['nand_lpages_programmed'] * 4096, f
assert f['invalid_placement_identifiers'] == 0, f
assert abs(f['media_bytes_written'] / f['host_bytes_written'] - s['waf']) < 1e-5, f
assert f['reclaim_groups'] == 1, f
assert f['events'] == {'invalid_placement_identifier': 0,
                       'reclaim_unit_not_written_to_capacity': 0,
                       'media_reallocated': 0}, f
u = f['handle_usage']
assert [x['handle'] for x in u] == list(range(8)), u
assert u[0]['host_pages_written'] == s['host_pages_written'], (u[0], s)
assert all(x['host_pages_written'] == 0 == x['media_pages_written'] and
           x['waf'] is None for x in u[1:]), u
assert (u[0]['media_pages_written'] + f['gc_shared_pages'] + s['pad_pages'] ==
        s['nand_lpages_programmed']), (u[0], f['gc_shared_pages'], s)
assert f['gc_shared_pages'] == s['gc_copied_pages'] > 0, (f, s)
EOF2
"$SSDLAB" run w.fio --drive default --set capacity=2g --set op=0.4 --set fdp=yes >f.txt ||
	fail "run (text): exit $?"
grep -q "ssdlab: fdp: handles=8 (initial isolation), host bytes written=4294967296, " f.txt ||
	fail "the text report's fdp line: $(grep 'fdp:' f.txt)"
grep -q "ssdlab: fdp: reclaim groups=1, events: invalid placement identifier=0, reclaim unit not written to capacity=0, media reallocated=0$" f.txt ||
	fail "the text report's events line: $(grep 'fdp:' f.txt)"
grep -q "ssdlab: fdp handle 0: host 4KiB pages written=1048576, media 4KiB pages written=1048576, waf=1.000$" f.txt ||
	fail "the text report's handle 0: $(grep 'fdp handle 0' f.txt)"
[ "$(grep -c 'ssdlab: fdp handle [0-7]: host 4KiB pages written=' f.txt)" = 8 ] ||
	fail "a line per handle: $(grep 'fdp handle' f.txt)"
# reclaim groups
if "$SSDLAB" run w.fio --drive default --set capacity=2g --set op=0.4 --set fdp=yes \
	--set fdp_groups=3 >g.txt 2>g.err; then fail "fdp_groups=3 of 8 units accepted"; fi
grep -q "key 'fdp_groups': 3 reclaim groups do not divide the drive's 8 allocation units" g.err ||
	fail "the refusal: $(cat g.err)"
printf '[w]\nrw=randwrite\nbs=4k\nio_size=1g\n' >g.fio
"$SSDLAB" run g.fio --drive default --set capacity=2g --set op=0.4 --set fdp=yes \
	--set fdp_groups=4 >g.txt || fail "run with 4 groups: exit $?"
grep -q "ssdlab: fdp: reclaim groups=4, events:" g.txt ||
	fail "the groups: $(grep 'fdp:' g.txt)"
