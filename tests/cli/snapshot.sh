# Drive snapshots (docs/snapshots.md): `run A --save-snapshot S` then
# `run B --snapshot S` prints, byte for byte, what `run A B` -- the same
# drive going on without stopping -- prints, apart from the wall-clock
# lines: on TLC, MLC, an SLC cache, a write buffer, a map cache, queued
# TRIM, read-ahead, data verification, FDP and a zoned drive.  And every
# refusal: another drive (naming the key), another format version, a
# flipped byte, a file cut short, a file that is no snapshot, the host
# layers, power-loss tracking's serve, --precondition on a snapshot.  And scenario run and
# serve from a snapshot.
. "$TOP/tests/cli/lib.inc"

cat >a.fio <<'EOF2'
[fill]
rw=write
bs=128k
iodepth=32
size=100%

[rand]
stonewall
rw=randwrite
bs=4k
iodepth=32
norandommap
io_size=60%

[trim]
stonewall
rw=randtrim
bs=64k
io_size=5%

[part]
stonewall
rw=randwrite
bs=2k
iodepth=4
io_size=1%
EOF2

cat >b.fio <<'EOF2'
[mix]
rw=randrw
bs=4k
iodepth=16
norandommap
io_size=30%

[seqread]
stonewall
rw=read
bs=16k
io_size=5%

[idle]
stonewall
rw=randwrite
bs=4k
number_ios=100
thinktime=10ms
EOF2
# without TRIM, for the drives of 2008 that have none
grep -v randtrim a.fio | sed 's/^\[trim\]/[again]/; s/^bs=64k/rw=randwrite/' >a-notrim.fio

nowall() { grep -v '^Wall: ' "$1"; }

# same NAME A B DRIVE-ARGS...: the promise, in the text report
same() {
	n=$1 a=$2 b=$3
	shift 3
	expect_status 0 "$SSDLAB" run "$a" "$@" --save-snapshot "$n.snap" --output "$n.a.txt"
	[ -s "$n.snap" ] || fail "$n: no snapshot"
	expect_status 0 "$SSDLAB" run "$b" --snapshot "$n.snap" --output "$n.b.txt"
	expect_status 0 "$SSDLAB" run "$a" "$b" "$@" --output "$n.ab.txt"
	{ nowall "$n.a.txt"; nowall "$n.b.txt"; } >"$n.split.txt"
	nowall "$n.ab.txt" >"$n.whole.txt"
	cmp -s "$n.split.txt" "$n.whole.txt" || {
		diff "$n.split.txt" "$n.whole.txt" | head -n 20 >&2
		fail "$n: the run from the snapshot differs from the run that went on"
	}
	# the second report's run covers B alone: its own time and commands
	grep -q "^Run: seed=1" "$n.b.txt" || fail "$n: no Run line"
}

same tiny a.fio b.fio --drive tiny
same mlc a.fio b.fio --drive mlc --set capacity=256m
same slc a.fio b.fio --drive intel-760p-128g --set capacity=1g
same wbuf a.fio b.fio --drive tiny --set write_buffer=1m
same mapcache a.fio b.fio --drive tiny --set map_cache=16k --set trim_mode=background
same readahead a-notrim.fio b.fio --drive intel-x25m-80g-8820 --set capacity=512m
same policy a.fio b.fio --drive tiny --set gc_policy=cost-benefit --set trim_mode=deferred
# flexible data placement: its handles' write points and the blocks'
# owners are in the file (a job file names no handle: handle 0's)
same fdp a.fio b.fio --drive tiny --set fdp=yes --set fdp_handles=3 --set op=0.15 \
	--set fdp_isolation=persistent --set write_buffer=256k

# a zoned drive (fio's zoned mode): the zones' states and write pointers,
# the open limit's order of implicit closes, each zone's blocks
cat >za.fio <<'EOF2'
[global]
zonemode=zbd
direct=1
max_open_zones=3

[fill]
rw=write
bs=64k
io_size=60%

[rand]
stonewall
rw=randwrite
bs=4k
iodepth=8
io_size=40%
EOF2
cat >zb.fio <<'EOF2'
[global]
zonemode=zbd
direct=1
max_open_zones=3

[more]
rw=randwrite
bs=16k
iodepth=4
io_size=50%

[read]
stonewall
rw=randread
bs=4k
io_size=10%
EOF2
same zoned za.fio zb.fio --drive tiny --set mapping=zone --set zone_units=2 \
	--set max_open_zones=4

# a later run verifies an earlier one across the snapshot too: the
# host's record and the drive's out-of-band tags are in it
cat >vw.fio <<'EOF2'
[w]
rw=write
bs=64k
size=100%
verify=crc32c
do_verify=0

[w2]
stonewall
rw=randwrite
bs=4k
io_size=50%
norandommap
verify=crc32c
do_verify=0
EOF2
cat >vr.fio <<'EOF2'
[r]
rw=read
bs=64k
size=100%
verify=crc32c
verify_only=1
EOF2
same verify vw.fio vr.fio --drive tiny --set write_buffer=256k
grep -q 'err= 0' verify.b.txt || fail "verify: the read-back did not pass"

# The same run saves the same bytes: nothing of the process's memory
# (an array's entries never written) goes into the file -- the victim
# list once carried what the heap held before it, /proc text among it
# (a run too short for GC to fill the list)
printf '[w]\nrw=randwrite\nbs=4k\nio_size=4m\n' >d.fio
expect_status 0 "$SSDLAB" run d.fio --drive tiny --save-snapshot d1.snap --output d1.txt
expect_status 0 "$SSDLAB" run d.fio --drive tiny --save-snapshot d2.snap --output d2.txt
cmp -s d1.snap d2.snap || fail "the same run saved different snapshots"

# JSON too, and --seed: the same seed on both sides
expect_status 0 "$SSDLAB" run a.fio --drive tiny --seed 5 --save-snapshot s5.snap --output a.json --output-format=json
expect_status 0 "$SSDLAB" run b.fio --snapshot s5.snap --seed 5 --output b.json --output-format=json
expect_status 0 "$SSDLAB" run a.fio b.fio --drive tiny --seed 5 --output ab.json --output-format=json
strip() { sed -e '/^ *"wall_seconds" : /d' -e '/^ *"host_ios_per_wall_second" : /d' "$@"; }
strip a.json b.json >split.json
strip ab.json >whole.json
cmp -s split.json whole.json || fail "json: the run from the snapshot differs"

# --check holds the loaded drive to every invariant before it runs
expect_status 0 "$SSDLAB" run b.fio --snapshot slc.snap --check 1

# snapshots chain: a run from one saves the next
expect_status 0 "$SSDLAB" run b.fio --snapshot tiny.snap --save-snapshot tiny2.snap --output c1.txt
expect_status 0 "$SSDLAB" run b.fio --snapshot tiny2.snap --output c2.txt
expect_status 0 "$SSDLAB" run a.fio b.fio b.fio --drive tiny --output abb.txt
{ nowall tiny.a.txt; nowall c1.txt; nowall c2.txt; } >chain.txt
nowall abb.txt >abb.nowall.txt
cmp -s chain.txt abb.nowall.txt || fail "chain: two snapshots differ from one run"

# --drive and --set may repeat the snapshot's drive, not change it
expect_status 0 "$SSDLAB" run b.fio --snapshot tiny.snap --drive tiny
expect_status 0 "$SSDLAB" run b.fio --snapshot mlc.snap --drive mlc --set capacity=256m
expect_status 0 "$SSDLAB" run b.fio --snapshot tiny.snap --set op=0.07
expect_status 0 "$SSDLAB" run b.fio --snapshot tiny.snap --drive tiny --set mem_check=no
expect_err 2 "^ssdlab: snapshot 'tiny.snap' holds another drive: op is 0.07 in it, 0.2 here$" \
	"$SSDLAB" run b.fio --snapshot tiny.snap --drive tiny --set op=0.2
expect_err 2 "write_buffer is 0 in it, 1m here" \
	"$SSDLAB" run b.fio --snapshot tiny.snap --set write_buffer=1m
expect_err 2 "holds another drive: capacity is 64m in it, 64g here" \
	"$SSDLAB" run b.fio --snapshot tiny.snap --drive mlc

# a scenario from a snapshot: its drive is loaded, not made fresh; the
# same twice; result.json names the snapshot
expect_status 0 "$SSDLAB" scenario run slc-cache --snapshot slc.snap --out scn1
expect_status 0 "$SSDLAB" scenario run slc-cache --snapshot slc.snap --drive intel-760p-128g --set capacity=1g --out scn2
cmp -s scn1/result.json scn2/result.json || fail "scenario: two runs from one snapshot differ"
grep -q '"snapshot" : "slc.snap"' scn1/result.json || fail "scenario: result.json does not name the snapshot"
expect_status 0 "$SSDLAB" scenario run slc-cache --drive intel-760p-128g --set capacity=1g --out scn3
cmp -s scn1/slc-cache.csv scn3/slc-cache.csv && fail "scenario: the snapshot's drive ran as a fresh one"
expect_err 2 "^ssdlab: snapshot 'tiny.snap' holds another drive: op is 0.07 in it, 0.2 here$" \
	"$SSDLAB" scenario run steady-state --snapshot tiny.snap --set op=0.2 --out scn4
expect_err 1 "^ssdlab: scenario fill-idle changes its drive \(op=[0-9.]*\); the drive of --snapshot 'tiny.snap' is the one saved$" \
	"$SSDLAB" scenario run fill-idle --snapshot tiny.snap --out scn5

# serve from a snapshot: the drive's state, not its data -- a read of
# pages the saved drive holds costs NAND reads, where a fresh drive's
# costs none -- and the report counts what the session did
if have nbdkit && have qemu-io; then
	qio='qemu-io -f raw -c "read 0 1M" -c "write 2M 64k" "$uri"'
	expect_status 0 timeout 60 "$SSDLAB" serve --snapshot tiny.snap --clock fast \
		--output srv.json --output-format json --run "$qio"
	expect_status 0 timeout 60 "$SSDLAB" serve --drive tiny --clock fast \
		--output srv0.json --output-format json --run "$qio"
	python3 - srv.json srv0.json <<'EOF2' || fail "serve --snapshot: $(cat srv.json)"
import json, sys
s, f = (json.load(open(p))["jobs"][0]["ssdlab"] for p in sys.argv[1:3])
assert s["host_pages_read"] == 256 and s["host_pages_written"] == 16, s
assert s["nand_pages_read"] > 0 and f["nand_pages_read"] == 0, (s, f)
EOF2
	expect_err 2 "^ssdlab: --power-cuts starts from a fresh drive; it excludes --snapshot" \
		"$SSDLAB" serve --snapshot tiny.snap --power-cuts
	expect_err 2 "^ssdlab: snapshot 'tiny.snap' holds another drive: op is 0.07 in it, 0.2 here$" \
		"$SSDLAB" serve --snapshot tiny.snap --set op=0.2
else
	skip_part "nbdkit or qemu-io is not installed (serve --snapshot)"
fi

# another format version (the u32 after the 16 bytes of magic)
cp tiny.snap v.snap
printf '\003' | dd of=v.snap bs=1 seek=16 conv=notrunc 2>/dev/null
expect_err 2 "^ssdlab: snapshot 'v.snap' has format version 3; this ssdlab reads version 2" \
	"$SSDLAB" run b.fio --snapshot v.snap

# a flipped byte: in the body, in the header's drive text
flip() { # FILE OFFSET
	python3 -c 'import sys
p, o = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read()); b[o] ^= 1; open(p, "wb").write(b)' "$1" "$2"
}
need python3
size=$(wc -c <tiny.snap)
cp tiny.snap f.snap
flip f.snap $((size / 2))
expect_err 2 "^ssdlab: snapshot 'f.snap' is damaged \(the checksum of its body does not match\)$" \
	"$SSDLAB" run b.fio --snapshot f.snap
cp tiny.snap h.snap
flip h.snap 300
expect_err 2 "^ssdlab: snapshot 'h.snap' is damaged \(the checksum of its header does not match\)$" \
	"$SSDLAB" run b.fio --snapshot h.snap

# cut short, at any length
for len in 10 1000 $((size / 2)) $((size - 1)); do
	head -c $len tiny.snap >t.snap
	expect_err 2 "^ssdlab: snapshot 't.snap' is truncated \($len bytes" \
		"$SSDLAB" run b.fio --snapshot t.snap
done

# not a snapshot at all; no file
expect_err 2 "^ssdlab: 'a.fio' is not an ssdlab snapshot" "$SSDLAB" run b.fio --snapshot a.fio
expect_err 1 "^ssdlab: cannot read snapshot 'none.snap': No such file" \
	"$SSDLAB" run b.fio --snapshot none.snap

# the host layers and the hard disk: refused before anything runs
expect_err 2 "^ssdlab: --save-snapshot: snapshots hold a bare SSD for now; this drive has the page cache \(page_cache\)" \
	"$SSDLAB" run b.fio --drive tiny --set page_cache=8m --save-snapshot x.snap
expect_err 2 "this drive has MFT \(mft\)" \
	"$SSDLAB" run b.fio --drive tiny --set mft=yes --save-snapshot x.snap
expect_err 2 "this drive has a hard disk \(type = hdd\)" \
	"$SSDLAB" run b.fio --drive samsung-sp0802n --save-snapshot x.snap
# block mapping: the run goes on, the snapshot is refused, no file
expect_err 1 "^ssdlab: cannot save a snapshot to 'x.snap': mapping = block is not saved yet" \
	"$SSDLAB" run b.fio --drive tiny --set mapping=block --save-snapshot x.snap
[ ! -e x.snap ] || fail "a refused snapshot left a file"

# --precondition fills a fresh drive
expect_err 2 "^ssdlab: --precondition fills a fresh drive; the drive of --snapshot 'tiny.snap' is not fresh" \
	"$SSDLAB" run b.fio --snapshot tiny.snap --precondition sequential

# a save that fails leaves nothing that looks like a snapshot
set +e
SSDLAB_FAULT=write:2 "$SSDLAB" run b.fio --drive mlc --set capacity=256m --save-snapshot w.snap >/dev/null 2>err.txt
rc=$?
set -e
[ $rc -eq 1 ] || fail "a failed save: exit $rc"
grep -q "cannot write 'w.snap'" err.txt || { cat err.txt >&2; fail "a failed save: no message"; }
[ ! -e w.snap ] || fail "a failed save left w.snap"
ls -a | grep -q '\.w\.snap\.' && fail "a failed save left its temporary"
exit 0
