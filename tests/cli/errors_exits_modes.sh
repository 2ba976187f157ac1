# Errors, exits, percentiles and command modes: continue_on_error and
# ignore_error keep a job going after the drive refuses its writes,
# exit_what sets what exitall ends, clat/lat/slat_percentiles and
# percentile_list choose the reported percentiles, write_mode,
# sg_write_mode, num_range and writefua change the commands the drive
# gets.
. "$TOP/tests/cli/lib.inc"
need python3
WEAR="--drive tiny --set capacity=16m --set op=0.5 --set pe_cycles=20"

# ---- continue_on_error: a drive worn out to read-only ----
wear() { # $1: extra option line; writes out.json, exit status in rc
	printf '[hammer]\nrw=randwrite\nbs=4k\niodepth=16\nnorandommap\nio_size=600m\n%s\n' \
		"$1" >wear.fio
	set +e
	$SSDLAB run wear.fio $WEAR --output-format=json --output out.json \
		2>err.txt
	rc=$?
	set -e
}
wear ""
[ "$rc" -eq 1 ] || fail "no continue_on_error: exit $rc, wanted 1"
grep -q "drive is read-only" err.txt || fail "no continue_on_error: message"
python3 - <<'PY' || fail "no continue_on_error: report"
import json
j = json.load(open("out.json"))["jobs"][0]
assert j["error"] == 30, j["error"]            # EROFS
assert "total_err" not in j and "first_error" not in j
assert j["write"]["io_bytes"] < 600 << 20      # ended at the first refusal
open("ios", "w").write(str(j["write"]["total_ios"]))
PY
for opt in continue_on_error=write continue_on_error=all continue_on_error=1 \
	ignore_error=,EROFS ignore_error=,30; do
	wear "$opt"
	[ "$rc" -eq 0 ] || { cat err.txt; fail "$opt: exit $rc, wanted 0"; }
	OPT=$opt python3 - <<'PY' || fail "$opt: report"
import json, os
j = json.load(open("out.json"))["jobs"][0]
ios = int(open("ios").read())
w = j["write"]
# the same writes succeed, every refused one is counted, and the job
# went on to the end of its io_size
assert w["total_ios"] == ios, (w["total_ios"], ios)
assert j["total_err"] > 0 and j["first_error"] == 30, j
assert w["total_ios"] + j["total_err"] == (600 << 20) // 4096, (w, j["total_err"])
assert j["error"] == 30                        # fio: the first error
PY
done
# the error kinds: read errors do not cover writes; a write list without
# EROFS replaces the default list (fio's rule)
for opt in continue_on_error=read continue_on_error=verify ignore_error=,ENOSPC \
	"ignore_error=EROFS"; do
	wear "$opt"
	[ "$rc" -eq 1 ] || fail "$opt: exit $rc, wanted 1 (the job ends)"
done
wear continue_on_error=io
[ "$rc" -eq 0 ] || fail "continue_on_error=io: exit $rc"
printf '[hammer]\nrw=randwrite\nbs=4k\niodepth=16\nnorandommap\nio_size=600m\ncontinue_on_error=write\n' >wear.fio
$SSDLAB run wear.fio $WEAR >out.txt
grep -Eq '^     errors    : total=[1-9][0-9]*, first_error=30/<.+>$' out.txt ||
	{ cat out.txt; fail "text errors line"; }
$SSDLAB run wear.fio $WEAR --output-format=terse >out.txt
grep -Eq ';[1-9][0-9]*;30$' out.txt || { cat out.txt; fail "terse total_err;first_error"; }

# a failed data check is a verify error: the read still counts (fio
# checks after the read completed), the job reads on
printf '[w]\nrw=write\nbs=64k\nsize=1m\n[r]\nstonewall\nrw=read\nbs=8k\nsize=2m\nverify=sha256\ncontinue_on_error=verify\n' >bad.fio
$SSDLAB run bad.fio --drive tiny --output-format=json --output bad.json 2>err.txt ||
	{ cat err.txt; fail "continue_on_error=verify: exit status"; }
python3 -c "
import json
r = json.load(open('bad.json'))['jobs'][1]
assert r['read']['io_bytes'] == 2 << 20, r['read']['io_bytes']
# the second MiB was never written: each of its 128 reads fails
assert r['total_err'] == 128 and r['first_error'] == 84 and r['error'] == 84, r" ||
	fail "continue_on_error=verify"
sed -i 's/continue_on_error=verify/continue_on_error=write/' bad.fio
expect_status 1 $SSDLAB run bad.fio --drive tiny

expect_err 2 "wear.fio:2: option 'continue_on_error': unknown value 'sometimes' \(accepted: none, read, write, io, verify, all" \
	sh -c 'printf "[j]\ncontinue_on_error=sometimes\n" >wear.fio; $0 run wear.fio --drive tiny' "$SSDLAB"
expect_err 2 "wear.fio:2: option 'ignore_error': unknown error 'ENOTANERROR'" \
	sh -c 'printf "[j]\nignore_error=,ENOTANERROR\n" >wear.fio; $0 run wear.fio --drive tiny' "$SSDLAB"
expect_err 2 "wear.fio:2: option 'ignore_error': more than three lists" \
	sh -c 'printf "[j]\nignore_error=EIO,EIO,EIO,EIO\n" >wear.fio; $0 run wear.fio --drive tiny' "$SSDLAB"

# ---- exit_what ----
for w in group stonewall all; do
	cat >ex.fio <<EOF
[global]
exitall=1
size=4m
[a]
rw=read
io_size=1m
exit_what=$w
[b]
new_group
rw=randread
io_size=400m
[c]
stonewall
rw=read
EOF
	$SSDLAB run ex.fio --drive tiny --output-format=json --output ex.json
	W=$w python3 - <<'PY' || fail "exit_what=$w"
import json, os
b = {j["jobname"]: j["read"]["io_bytes"] for j in json.load(open("ex.json"))["jobs"]}
w = os.environ["W"]
assert b["a"] == 1 << 20, b
if w == "group":       # b is in another reporting group: it runs on
    assert b["b"] == 400 << 20 and b["c"] == 4 << 20, b
elif w == "stonewall": # every running job ends; the next group runs
    assert b["b"] < 400 << 20 and b["c"] == 4 << 20, b
else:                  # all: the later group does not run
    assert b["b"] < 400 << 20 and b["c"] == 0, b
PY
done
expect_err 2 "ex.fio:2: option 'exit_what': unknown value 'some' \(accepted: group, stonewall, all\)" \
	sh -c 'printf "[j]\nexit_what=some\n" >ex.fio; $0 run ex.fio --drive tiny' "$SSDLAB"

# ---- percentiles ----
cat >pc.fio <<'EOF'
[w]
rw=randwrite
size=8m
iodepth=4
lat_percentiles=1
slat_percentiles=1
percentile_list=99.5:50
EOF
$SSDLAB run pc.fio --drive tiny --output-format=json --output pc.json
python3 - <<'PY' || fail "percentiles json"
import json
w = json.load(open("pc.json"))["jobs"][0]["write"]
keys = ["50.000000", "99.500000"]
assert list(w["clat_ns"]["percentile"]) == keys, w["clat_ns"]
assert w["lat_ns"]["percentile"] == w["clat_ns"]["percentile"]  # lat = clat
assert w["slat_ns"]["percentile"] == {k: 0 for k in keys}
assert w["clat_ns"]["percentile"]["50.000000"] <= w["clat_ns"]["percentile"]["99.500000"]
PY
$SSDLAB run pc.fio --drive tiny >pc.txt
grep -q '^    clat percentiles (' pc.txt || fail "clat percentiles text"
grep -q '^    lat percentiles (' pc.txt || fail "lat percentiles text"
grep -q '^    slat percentiles (nsec):' pc.txt || fail "slat percentiles text"
grep -Eq '^     \| 50\.0th=\[ *[0-9]+\], 99\.5th=\[ *[0-9]+\]$' pc.txt ||
	{ cat pc.txt; fail "percentile_list text (one digit after the point)"; }
printf '[w]\nrw=randwrite\nsize=8m\nclat_percentiles=0\n' >pc.fio
$SSDLAB run pc.fio --drive tiny --output-format=json --output pc.json
python3 -c "
import json
w = json.load(open('pc.json'))['jobs'][0]['write']
assert 'percentile' not in w['clat_ns'] and 'percentile' not in w['lat_ns'], w" ||
	fail "clat_percentiles=0"
$SSDLAB run pc.fio --drive tiny >pc.txt
! grep -q "percentiles" pc.txt || fail "clat_percentiles=0: text"
expect_err 2 "pc.fio:2: option 'percentile_list': 100.5 is out of range" \
	sh -c 'printf "[w]\npercentile_list=50:100.5\n" >pc.fio; $0 run pc.fio --drive tiny' "$SSDLAB"
expect_err 2 "pc.fio:2: option 'percentile_list': more than 20 values" \
	sh -c 'printf "[w]\npercentile_list=1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21\n" >pc.fio; $0 run pc.fio --drive tiny' "$SSDLAB"

# ---- write_mode, sg_write_mode, writefua, num_range ----
mode() { # $1: option line; prints writes, bytes, mean clat, pages r/w/t, NAND programs
	printf '[w]\nrw=write\nsize=8m\nbs=64k\n%s\n' "$1" >wm.fio
	$SSDLAB run wm.fio --drive tiny --output-format=json --output wm.json
	python3 -c "
import json
j = json.load(open('wm.json'))['jobs'][0]; s = j['ssdlab']; w = j['write']
print(w['total_ios'], w['io_bytes'], round(w['clat_ns']['mean']), s['host_pages_read'],
      s['host_pages_written'], s['host_pages_trimmed'], s['nand_pages_programmed'])"
}
set -- $(mode "write_mode=write"); plain_lat=$3
[ "$1 $2 $4 $5 $6" = "128 8388608 0 2048 0" ] || fail "write_mode=write: $*"
set -- $(mode "write_mode=zeroes")
[ "$1 $2 $4 $5 $6 $7" = "128 8388608 0 0 2048 0" ] || fail "write_mode=zeroes: $*"
set -- $(mode "write_mode=verify")
[ "$1 $2 $4 $5 $6 $7" = "128 8388608 2048 0 0 0" ] || fail "write_mode=verify: $*"
set -- $(mode "write_mode=write/40:zeroes/30:uncor/20:verify/10")
# 128 writes: 51 written, 38 + 26 trimmed, 13 read (16 pages each)
[ "$1 $4 $5 $6" = "128 208 816 1024" ] || fail "write_mode mix: $*"
set -- $(mode "sg_write_mode=write_and_verify")
[ "$4 $5 $6" = "2048 2048 0" ] || fail "write_and_verify: $*"
[ "$3" -gt "$plain_lat" ] || fail "write_and_verify: latency $3 not above $plain_lat"
set -- $(mode "sg_write_mode=verify_bytchk_01")
[ "$4 $5" = "2048 0" ] || fail "verify_bytchk_01: $*"
set -- $(mode "sg_write_mode=write_same_ndob")
[ "$5" = "2048" ] || fail "write_same_ndob: $*"
mode "writefua=1" >a.txt
mode "sync=1" >b.txt
cmp -s a.txt b.txt || fail "writefua=1 differs from sync=1"
expect_err 2 "wm.fio:2: option 'write_mode': io_uring_cmd with write_mode=zone_append requires zonemode=zbd" \
	sh -c 'printf "[w]\nwrite_mode=zone_append\n" >wm.fio; $0 run wm.fio --drive tiny' "$SSDLAB"
expect_err 2 "wm.fio:2: option 'write_mode': the percentages add up to 110, not 100" \
	sh -c 'printf "[w]\nwrite_mode=write/50:zeroes/60\n" >wm.fio; $0 run wm.fio --drive tiny' "$SSDLAB"
expect_err 2 "wm.fio:2: option 'sg_write_mode': unknown value 'erase'" \
	sh -c 'printf "[w]\nsg_write_mode=erase\n" >wm.fio; $0 run wm.fio --drive tiny' "$SSDLAB"

for n in 1 8; do
	printf '[w]\nrw=write\nsize=8m\nbs=64k\n[t]\nstonewall\nrw=randtrim\nsize=8m\nbs=4k\nnum_range=%s\n' $n >nr.fio
	$SSDLAB run nr.fio --drive tiny --output-format=json --output nr.json
	N=$n python3 -c "
import json, os
t = json.load(open('nr.json'))['jobs'][1]
n = int(os.environ['N'])
assert t['trim']['total_ios'] == 2048 // n, t['trim']['total_ios']
assert t['trim']['io_bytes'] == 8 << 20 and t['ssdlab']['host_pages_trimmed'] == 2048" ||
		fail "num_range=$n"
done
expect_err 2 "nr.fio:3: option 'num_range': job 'w' has rw=randwrite" \
	sh -c 'printf "[w]\nrw=randwrite\nnum_range=4\n" >nr.fio; $0 run nr.fio --drive tiny' "$SSDLAB"

# ---- random_distribution=sequence ----
for stride in 0 1; do
	printf '[j]\nrw=randread\nbs=4k\nsize=48k\nio_size=24k\nrandom_distribution=sequence:2,0,1\nrandom_sequence_stride=%s\nwrite_lat_log=l\nlog_offset=1\n' \
		$stride >sq.fio
	$SSDLAB run sq.fio --drive tiny >/dev/null
	got=$(awk -F', ' '{printf "%s ", $5 / 4096}' l_lat.1.log)
	want="2 0 1 2 0 1 "
	[ $stride = 1 ] && want="2 0 1 5 3 4 "
	[ "$got" = "$want" ] || fail "sequence stride=$stride: blocks $got, wanted $want"
done
# with the stride the pass ends at the region's end: 12 blocks, 4 rounds
printf '[j]\nrw=randread\nbs=4k\nsize=48k\nio_size=1m\nrandom_distribution=sequence:2,0,1\nrandom_sequence_stride\n' >sq.fio
$SSDLAB run sq.fio --drive tiny --output-format=json --output sq.json
python3 -c "
import json
j = json.load(open('sq.json'))['jobs'][0]
assert j['read']['total_ios'] == 12, j['read']['total_ios']
assert j['job options']['random_distribution'] == 'sequence:2,0,1'" || fail "sequence stride end"
expect_err 2 "sq.fio:5: option 'random_distribution': block 12 of the sequence is past the end of job 'j'" \
	sh -c 'printf "[j]\nrw=randread\nbs=4k\nsize=48k\nrandom_distribution=sequence:2,0,12\n" >sq.fio; $0 run sq.fio --drive tiny' "$SSDLAB"
expect_err 2 "sq.fio:2: option 'random_distribution': 'x' is not a block index" \
	sh -c 'printf "[j]\nrandom_distribution=sequence:1,x\n" >sq.fio; $0 run sq.fio --drive tiny' "$SSDLAB"

# ---- aliases ----
printf '[w]\nrw=write\nsize=8m\nnr_files=4\n' >al.fio
printf '[w]\nrw=write\nsize=8m\nnrfiles=4\n' >al2.fio
$SSDLAB run al.fio --drive tiny --output-format=json --output a.json
$SSDLAB run al2.fio --drive tiny --output-format=json --output b.json
python3 -c "
import json
a, b = (json.load(open(f))['jobs'][0]['ssdlab'] for f in ('a.json', 'b.json'))
assert a == b" || fail "nr_files"
echo ok
