# A drive with flexible data placement from the command line
# (docs/fdp.md): a job names no handle, so everything goes to handle 0;
# the report's FDP statistics log agrees with the drive's own counters --
# media bytes erased are the erase blocks counted, each its page_size x
# pages_per_block bytes (a multi-plane drive counts every plane's block
# once), media bytes written the 4 KiB units programmed.
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
EOF2
"$SSDLAB" run w.fio --drive default --set capacity=2g --set op=0.4 --set fdp=yes >f.txt ||
	fail "run (text): exit $?"
grep -q "ssdlab: fdp: handles=8 (initial isolation), host bytes written=4294967296, " f.txt ||
	fail "the text report's fdp line: $(grep 'fdp:' f.txt)"
