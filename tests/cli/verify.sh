# verify= checks the FTL end to end: write+verify jobs of every shape read
# back the latest write of every page (and zeros where trimmed last) on
# drives with GC pressure, an SLC cache that folds, a map cache, queued
# TRIM, wear-out with program failures; fio's own verify example runs; a
# read of never-written blocks fails as fio fails (err=84, exit 1).
. "$TOP/tests/cli/lib.inc"
need python3
# check FILE JOB:MIN_PAGES[:ZEROS] ...: every job without error, each
# listed one checked at least MIN_PAGES pages (ZEROS: zeros at least)
check() {
	python3 - "$@" <<'PY' || fail "report $1"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = {j["jobname"]: j for j in d["jobs"]}
for j in d["jobs"]:
    assert j["error"] == 0, (j["jobname"], j["error"], j["ssdlab"].get("error_message"))
for a in sys.argv[2:]:
    name, *n = a.split(":")
    s = jobs[name]["ssdlab"]
    assert s["verified_pages"] >= int(n[0]), (name, s["verified_pages"], n)
    if len(n) > 1:
        assert s["verified_zero_pages"] >= int(n[1]), (name, s["verified_zero_pages"], n)
PY
}
cat >all.fio <<'JOB'
[global]
verify=md5
[seq]
rw=write
bs=128k
iodepth=8
[rand]
stonewall
rw=randwrite
bs=4k
iodepth=32
norandommap
io_size=300%
verify_backlog=64
[split]
stonewall
rw=randwrite
bssplit=4k/50:16k/30:64k/20
io_size=100%
iodepth=16
[rmw]
stonewall
rw=randwrite
bs=1k
size=4m
iodepth=4
[rmw-seq]
stonewall
rw=write
bs=6k
size=4m
[trim]
stonewall
rw=randtrim
bs=16k
size=8m
verify=0
[trimverify]
stonewall
rw=randwrite
bs=4k
offset=8m
size=4m
trim_percentage=20
trim_backlog=16
[mixed]
stonewall
rw=randrw
bs=4k
iodepth=8
[after]
stonewall
rw=write
bs=128k
verify_only
JOB
# a 16 MiB drive: several overwrite passes under GC pressure (rmw-seq:
# 4 MiB is 682 whole 6 KiB blocks, as fio runs it)
$SSDLAB run all.fio --drive tiny --set capacity=16m --check 200 \
	--output-format=json --output a.json >/dev/null
check a.json seq:4096 rand:3800 split:2500 rmw:4096 rmw-seq:1364 \
	trimverify:700:150 mixed:500 after:1000:1
python3 - <<'PY' || fail "gc pressure"
import json
d = json.load(open("a.json"))
j = {x["jobname"]: x for x in d["jobs"]}
assert j["rand"]["ssdlab"]["gc_copied_pages"] > 4096, "no GC"
assert j["rand"]["read"]["io_bytes"] > 0 and j["rand"]["write"]["io_bytes"] == 3 * 16 << 20
assert j["trimverify"]["trim"]["io_bytes"] > 0
PY
# the same on a map-cache drive, with queued TRIM, with a write buffer
# and read-ahead
for set in "map_cache=16k" "trim_mode=background" "trim_mode=deferred" \
	"write_buffer=1m"; do
	$SSDLAB run all.fio --drive tiny --set "$set" --set read_ahead=128k \
		--output-format=json --output b.json >/dev/null ||
		fail "$set: exit status"
	check b.json seq:16384 after:4000
done
# SLC cache: a burst into the cache, folded in idle time, then verified
cat >slc.fio <<'JOB'
[global]
verify=crc32c
[burst]
rw=write
bs=128k
size=64m
iodepth=8
do_verify=0
[idle]
stonewall
rw=read
bs=4k
size=4k
thinktime=20s
[check]
stonewall
rw=write
bs=128k
size=64m
verify_only
JOB
$SSDLAB run slc.fio --drive intel-760p-128g --set capacity=1g \
	--output-format=json --output s.json >/dev/null
check s.json check:16384
python3 - <<'PY' || fail "slc"
import json
j = {x["jobname"]: x for x in json.load(open("s.json"))["jobs"]}
assert j["burst"]["ssdlab"]["slc_written_pages"] > 0
assert j["idle"]["ssdlab"]["fold_copied_pages"] > 0
PY
# wear-out: program failures, read-only; what was written stays readable
# (a page whose write failed is not checked)
cat >wear.fio <<'JOB'
[global]
verify=md5
[fill]
rw=write
bs=64k
iodepth=8
[hammer]
stonewall
rw=randwrite
bs=4k
iodepth=16
norandommap
time_based
runtime=100000
verify_backlog=256
[readback]
stonewall
rw=write
bs=64k
iodepth=8
verify_only
JOB
set +e
$SSDLAB run wear.fio --drive tiny --set capacity=16m --set op=0.5 \
	--set pe_cycles=20 --output-format=json --output w.json 2>err.txt >/dev/null
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "wear: exit $rc, wanted 1"
grep -q "job 'hammer': .*drive is read-only" err.txt || fail "wear: message"
python3 - <<'PY' || fail "wear report"
import json
j = {x["jobname"]: x for x in json.load(open("w.json"))["jobs"]}
h, r = j["hammer"]["ssdlab"], j["readback"]["ssdlab"]
assert h["program_failures"] > 0 and h["health"]["read_only"]
assert h["verified_pages"] > 1000
assert j["readback"]["error"] == 0 and r["verified_pages"] >= 4000
PY
# fio's own example
$SSDLAB run /work/fio-src/examples/basic-verify.fio --drive tiny \
	--output-format=json --output e.json >/dev/null 2>&1 ||
	[ ! -f /work/fio-src/examples/basic-verify.fio ] || fail "basic-verify"
[ ! -f e.json ] || check e.json write-and-verify:16384
# blocks never written fail as in fio: err=84, exit status 1, fio's line
cat >bad.fio <<'JOB'
[w]
rw=write
bs=64k
size=1m
[r]
stonewall
rw=read
bs=8k
size=2m
verify=sha256
JOB
set +e
$SSDLAB run bad.fio --drive tiny >out.txt 2>err.txt
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "bad: exit $rc"
grep -q "^ssdlab: job 'r': verify: bad magic header 0, wanted acca at file tiny offset 1048576, length 4096 (requested block: offset=1048576, length=8192)$" err.txt ||
	{ cat err.txt; fail "bad: message"; }
grep -q "^r: (groupid=1, jobs=1): err=84 (data verification failed)" out.txt ||
	fail "bad: report"
