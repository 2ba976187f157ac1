# The machine around the drive (docs/stack.md): RAID 0 stripes and scales,
# the page cache takes buffered jobs and lets direct ones past, fsync
# writes back, the report shows every node, a machine's drive file loads
# back as the same machine, and bad machine keys get one-line errors.
. "$TOP/tests/cli/lib.inc"
need python3
js() { # FILE EXPR: a Python assertion on a JSON file (d)
	python3 -c "import json,sys; d=json.load(open('$1')); $2" ||
		fail "$1: $2"
}

# RAID 0: twice the volume, every byte once, about twice the throughput
printf '[seq]\nrw=write\nbs=1m\ndirect=1\nsize=100%%\n' >seq.fio
"$SSDLAB" run seq.fio --drive tiny --output-format=json >one.json
"$SSDLAB" run seq.fio --drive tiny --set raid=0 --output-format=json >two.json
js two.json "
j = d['jobs'][0]; m = d['ssdlab']['machine']
assert j['write']['io_bytes'] == 2 * 64 * 2**20, j['write']['io_bytes']
assert [n['name'] for n in m] == ['raid0', 'ssd0', 'ssd1'], m
assert m[1]['write_bytes'] + m[2]['write_bytes'] == 128 * 2**20
assert abs(m[1]['write_bytes'] - m[2]['write_bytes']) <= 2**20
one = json.load(open('one.json'))['jobs'][0]['write']['bw_bytes']
two = j['write']['bw_bytes']
assert 1.8 < two / one < 2.2, (one, two)"
js one.json "assert 'machine' not in d['ssdlab']"

# the page cache: buffered random writes into a cache that holds them
# below its background ratio (8 MiB < 10% of 128 MiB) finish at memory
# speed; direct ones go to the drive; end_fsync writes
# the dirty pages back
printf '[w]\nrw=randwrite\nbs=4k\nsize=8m\nend_fsync=1\n' >buf.fio
printf '[w]\nrw=randwrite\nbs=4k\nsize=8m\nend_fsync=1\ndirect=1\n' >dir.fio
for f in buf dir; do
	"$SSDLAB" run $f.fio --drive tiny --set page_cache=128m --output-format=json >$f.json
done
js buf.json "
j = d['jobs'][0]; pc = d['ssdlab']['machine'][0]
assert pc['kind'] == 'page_cache', pc
assert pc['stats']['write_bytes'] == 8 * 2**20, pc['stats']
assert pc['stats']['writeback_bytes'] == 8 * 2**20, pc['stats']
assert pc['stats']['direct_cmds'] == 0
assert j['sync']['total_ios'] == 1
assert j['write']['clat_ns']['mean'] < 5000, j['write']['clat_ns']
assert pc['stats']['throttled_writes'] == 0, pc['stats']
# written back sorted by offset and merged: fewer commands than pages
assert pc['stats']['writeback_cmds'] < 2048, pc['stats']"
js dir.json "
j = d['jobs'][0]; pc = d['ssdlab']['machine'][0]
assert pc['stats']['direct_cmds'] == 2048, pc['stats']
assert pc['stats']['write_bytes'] == 0, pc['stats']
assert j['write']['clat_ns']['mean'] > 20000, j['write']['clat_ns']"
# buffered reads of a file that fits: the second pass hits the cache
printf '[r]\nrw=read\nbs=64k\nsize=8m\nloops=2\n' >rd.fio
"$SSDLAB" run rd.fio --drive tiny --set page_cache=32m --output-format=json >rd.json
js rd.json "
s = d['ssdlab']['machine'][0]['stats']
assert s['read_hit_bytes'] >= 8 * 2**20, s
assert 0.45 < s['hit_ratio'] <= 1, s"
# on a machine with a page cache direct= takes effect: not listed as
# without effect; on a bare drive a buffered job says there is no cache
"$SSDLAB" run dir.fio --drive tiny --set page_cache=32m >out.txt
! grep -q 'without effect: direct' out.txt || fail "direct listed as without effect"
grep -q '^Machine' out.txt || fail "no Machine section"
printf '[w]\nrw=write\nbs=4k\nsize=1m\ndirect=0\n' >d0.fio
"$SSDLAB" run d0.fio --drive tiny >out.txt
grep -q 'the machine has no host page cache' out.txt || fail "no page-cache note"

# a machine's drive file loads back as the same machine
"$SSDLAB" drive show tiny --set raid=0 --set raid_members=3 --set page_cache=8m >m.ini
"$SSDLAB" drive show m.ini >m2.ini
diff m.ini m2.ini >/dev/null || fail "drive show of a machine does not load back"
grep -q '^raid_members *= 3' m2.ini || fail "raid_members lost"

# bad machine keys: one line naming the key
expect_err 2 "raid_members" "$SSDLAB" run seq.fio --drive tiny --set raid=0 --set raid_members=1
expect_err 2 "raid" "$SSDLAB" run seq.fio --drive tiny --set raid=5
expect_err 2 "page_cache_dirty_bg_ratio" "$SSDLAB" run seq.fio --drive tiny --set page_cache=1m --set page_cache_dirty_bg_ratio=0.5
expect_err 2 "raid_stripe" "$SSDLAB" run seq.fio --drive tiny --set raid=0 --set raid_stripe=12k
# verify needs a bare SSD
printf '[v]\nrw=write\nbs=4k\nsize=1m\nverify=crc32c\n' >v.fio
expect_err 1 "verify" "$SSDLAB" run v.fio --drive tiny --set raid=0
# MFT that cannot fit the drive below: the keys named at load time
expect_err 2 "mft_reserve' and 'mft_block'" "$SSDLAB" run seq.fio --drive tiny --set mft=yes --set mft_reserve=0.02 --set mft_block=1m --set mft_write=1m
expect_err 2 "key 'mft_reserve'" "$SSDLAB" run seq.fio --drive tiny --set capacity=8m --set mft=yes --set mft_reserve=0.9 --set mft_block=1m --set mft_write=1m
# a hard disk: no flash to wear, no TRIM for the methods that delete
expect_err 2 "is a hard disk" "$SSDLAB" life --drive hitachi-hdt725032vla360
expect_err 2 "deletes with TRIM.*hard disk" "$SSDLAB" scenario run torture --drive hitachi-hdt725032vla360
printf '[t]\nrw=randtrim\nbs=4k\nsize=1m\n' >t.fio
expect_err 1 "trim command .*not supported" "$SSDLAB" run t.fio --drive hitachi-hdt725032vla360 --set capacity=64m
# MFT over a disk cleans without TRIM
printf '[w]\nrw=randwrite\nbs=16k\ndirect=1\nsize=100%%\nio_size=300%%\n' >mw.fio
expect_status 0 "$SSDLAB" run mw.fio --drive hitachi-hdt725032vla360 --set capacity=64m --set mft=yes
grep -q 'err= 0' out.txt || fail "MFT over a disk"
# the report's note names every machine key changed
"$SSDLAB" run seq.fio --drive tiny --set page_cache=8m --set raid=0 --set raid_stripe=128k >out.txt
grep -q '^Drive tiny -- .*\[changed: page_cache=8m, raid=0, raid_stripe=128k\]' out.txt ||
	{ grep '^Drive' out.txt >&2; fail "the note of changed machine keys"; }
# the disk's queue: at QD32 SPTF serves far more random reads than FCFS,
# at QD1 the same
for q in 1 32; do
	printf '[r]\nrw=randread\nbs=4k\ndirect=1\niodepth=%s\nruntime=10s\ntime_based\n' $q >q$q.fio
	for o in fcfs sptf; do
		"$SSDLAB" run q$q.fio --drive hitachi-hdt725032vla360 --set hdd_queue=$o \
			--output-format=json >q$q$o.json
	done
done
python3 - <<'PY' || fail "the disk's command queue"
import json
io = lambda f: json.load(open(f))["jobs"][0]["read"]["total_ios"]
assert io("q1fcfs.json") == io("q1sptf.json"), (io("q1fcfs.json"), io("q1sptf.json"))
assert io("q32sptf.json") > 2 * io("q32fcfs.json"), (io("q32fcfs.json"), io("q32sptf.json"))
PY
echo "machine: ok"
