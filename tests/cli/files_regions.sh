# Files and regions of the drive: job files with filename lists, nrfiles,
# filesize, offset_increment, fill_device and strided zones touch exactly
# the pages they describe.  Each case writes, then a stonewalled job reads
# a range; the drive's count of reads of never-written pages
# (host_pages_read_unmapped) tells which pages the writes touched.
. "$TOP/tests/cli/lib.inc"
need python3

run() { # run NAME.fio on the tiny drive (64 MiB) into NAME.json
	$SSDLAB run "$1.fio" --drive tiny --output-format=json \
		--output "$1.json" >/dev/null || fail "$1"
}
# check NAME 'python expression over w (writer) r (reader) and jobs'
check() {
	python3 - "$1.json" "$2" <<'PY' || fail "$1: $2"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = {j["jobname"]: j for j in d["jobs"]}
w, r = jobs.get("w"), jobs.get("r")
def unmapped(j): return j["ssdlab"]["host_pages_read_unmapped"]
def written(j): return j["write"]["io_bytes"]
def read(j): return j["read"]["io_bytes"]
ok = eval(sys.argv[2])
if not ok:
    print({k: (v["write"]["io_bytes"], v["read"]["io_bytes"],
               v["ssdlab"]["host_pages_written"], unmapped(v))
           for k, v in jobs.items()}, file=sys.stderr)
    sys.exit(1)
PY
}
PAGES=16384 # 64 MiB of 4 KiB pages

# nrfiles=4 filesize=1m: 4 MiB written, at the start of the drive
cat >nrfiles.fio <<'EOF'
[w]
rw=randwrite
bs=4k
nrfiles=4
filesize=1m
file_service_type=random
[r]
stonewall
rw=read
bs=1m
[first]
stonewall
rw=read
bs=1m
size=4m
EOF
run nrfiles
check nrfiles 'written(w) == 4 << 20 and w["ssdlab"]["host_pages_written"] == 1024'
check nrfiles 'unmapped(r) == '$PAGES' - 1024 and unmapped(jobs["first"]) == 0'

# two jobs naming the same file share its region; another name does not
cat >shared.fio <<'EOF'
[w]
rw=write
bs=64k
filename=a.dat:b.dat
size=8m
[r]
stonewall
rw=read
bs=64k
filename=b.dat
[c]
stonewall
rw=read
bs=64k
filename=c.dat:d.dat
size=2m
EOF
run shared
check shared 'written(w) == 8 << 20 and read(r) == 4 << 20 and unmapped(r) == 0'
check shared 'read(jobs["c"]) == 2 << 20 and unmapped(jobs["c"]) == 512'

# size is the total over the files; roundrobin by default
cat >split.fio <<'EOF'
[w]
rw=write
bs=4k
filename=x:y:z
size=3m
[r]
stonewall
rw=read
bs=1m
size=3m
EOF
run split
check split 'written(w) == 3 << 20 and unmapped(r) == 0'

# offset_increment: clone k writes [8m + 16k m, +4m)
cat >incr.fio <<'EOF'
[w]
rw=write
bs=128k
numjobs=3
offset=8m
offset_increment=16m
size=4m
group_reporting
[r]
stonewall
rw=read
bs=1m
[inside]
stonewall
rw=read
bs=1m
offset=40m
size=4m
EOF
run incr
check incr 'written(w) == 12 << 20 and unmapped(r) == '$PAGES' - 3072'
check incr 'unmapped(jobs["inside"]) == 0'

# fill_device: writes exactly the drive's capacity from the offset
cat >fill.fio <<'EOF'
[w]
rw=write
bs=128k
offset=16m
size=1m
fill_device=1
[r]
stonewall
rw=read
bs=1m
EOF
run fill
check fill 'written(w) == 48 << 20 and w["ssdlab"]["host_pages_written"] == 12288'
check fill 'unmapped(r) == 4096'

# strided zones: 1 MiB every 4 MiB, 16 MiB written: the drive's 16 zones
cat >zones.fio <<'EOF'
[w]
rw=write
bs=64k
zonemode=strided
zonesize=1m
zoneskip=3m
size=16m
[r]
stonewall
rw=read
bs=1m
[gap]
stonewall
rw=read
bs=1m
offset=1m
size=3m
EOF
run zones
check zones 'written(w) == 16 << 20 and unmapped(r) == '$PAGES' - 4096'
check zones 'unmapped(jobs["gap"]) == 768'

# refused, one line each
printf '[a]\nzonemode=zbd\nzonesize=1m\nnrfiles=2\nsize=8m\n' >zbd.fio
expect_err 2 "zbd.fio:1: job 'a': zonemode=zbd on files" \
	$SSDLAB run zbd.fio --drive tiny
printf '[a]\nfilename=x:y\nsize=40m\n[b]\nnrfiles=2\nfilesize=16m\n' >big.fio
expect_err 2 "big.fio:4: the files do not fit on the drive" \
	$SSDLAB run big.fio --drive tiny
printf '[a]\nnumjobs=2\noffset_increment=40m\nsize=32m\n' >over.fio
expect_err 2 "over.fio:3: option 'offset_increment'" \
	$SSDLAB run over.fio --drive tiny

# fio's disk-zone-profile example (without its log_offset, an option of
# the logs): 256 MiB read every 2 GiB + 256 MiB, over the whole drive
cat >profile.fio <<'EOF'
[global]
bs=64k
direct=1
rw=read
ioengine=libaio
iodepth=2
zonemode=strided
zonesize=256m
zoneskip=2g
[r]
filename=/dev/sdb
write_bw_log
EOF
$SSDLAB run profile.fio --drive default --output-format=json \
	--output profile.json >/dev/null || fail "disk-zone-profile"
check profile 'read(r) == 32 << 30 and unmapped(r) == 32 << 18'
[ -s r_bw.1.log ] || fail "disk-zone-profile: no bandwidth log"
