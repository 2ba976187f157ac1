# Ordinary job files a new user writes must not break a fresh drive:
# sequential fills at any block size and numjobs never turn it read-only
# and cost what the data explains; a drive that wears out ends read-only
# with its whole report; sync writes on large pages keep the drive
# writable and take the NAND time they need.
. "$TOP/tests/cli/lib.inc"
need python3
check() { # check NAME MAXWAF JOBFILE ARGS...: no read-only, waf <= MAXWAF
	name=$1 max=$2 job=$3; shift 3
	$SSDLAB run "$job" --output-format=json --output "$name.json" "$@" \
		>/dev/null 2>"$name.err" || { cat "$name.err"; fail "$name: exit status"; }
	python3 - "$name.json" "$max" "$name" <<'PY' || fail "$name"
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    s = j["ssdlab"]
    assert not s["health"]["read_only"], (sys.argv[3], "read-only", s["waf"])
    assert j["error"] == 0, (sys.argv[3], j["error"])
    assert s["waf"] <= float(sys.argv[2]), (sys.argv[3], "waf", s["waf"])
PY
}
# Writes of part of a 4 KiB page are read-modify-writes (docs/design.md):
# a sequential stream of 2 KiB writes programs every page twice, so its
# WAF is 2 plus what GC adds; bounds: pages programmed per byte written,
# times 1.25 for GC.
for spec in 512:10 1k:5 2k:2.5 3k:2.9 4k:1.0 6k:1.7 64k:1.0; do
	bs=${spec%:*} max=${spec#*:}
	printf '[w]\nrw=write\nbs=%s\nsize=100%%\n' $bs >seq.fio
	check "seq-$bs" $max seq.fio --drive tiny --check 200
done
# a first fill of aligned writes costs nothing beyond the data
printf '[w]\nrw=write\nbs=128k\nsize=100%%\n' >fill.fio
check fill 1.0 fill.fio --drive tiny
# several streams over the same range: each page written numjobs times
for nj in 2 3 4 5; do
	printf '[w]\nrw=write\nbs=4k\nnumjobs=%s\nsize=100%%\ngroup_reporting\n' $nj >nj.fio
	check "numjobs-$nj" 1.6 nj.fio --drive tiny --check 200
done
printf '[w]\nrw=write\nbs=32k\nnumjobs=2\niodepth=4\nsize=100%%\ngroup_reporting\n' >nj32.fio
check nj32-default 1.6 nj32.fio --drive default --set capacity=4g
# sync and fsync writes on 16 KiB pages: every write pads its page
printf '[w]\nrw=randwrite\nbs=4k\nsync=1\nsize=100%%\nio_size=150%%\n' >sync.fio
check sync 8 sync.fio --drive tiny --set page_size=16k --set op=0.3 --check 500
printf '[w]\nrw=randwrite\nbs=4k\nfsync=1\nsize=100%%\nio_size=150%%\n' >fsync.fio
check fsync 8 fsync.fio --drive tiny --set page_size=16k --set op=0.3
# ... and they take the NAND time they cost: programs x tPROG spread over
# the dies fit in the simulated time
python3 - sync.json <<'PY' || fail "sync timing"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
progs = j["ssdlab"]["nand_pages_programmed"]
secs = j["job_runtime"] / 1000.0
busy = progs * 700e-6 / 4          # tlc tPROG, 4 dies
assert busy <= secs * 1.001, (busy, secs)
PY
# wear-out at any endurance: read-only, and the report is still written
printf '[w]\nrw=randwrite\nbs=4k\nsize=100%%\nio_size=300%%\n' >wear.fio
for pe in 1 2; do
	set +e
	$SSDLAB run wear.fio --drive tiny --set pe_cycles=$pe --check 100 \
		--output-format=json --output wear$pe.json >/dev/null 2>wear.err
	rc=$?
	set -e
	[ "$rc" -eq 1 ] || { cat wear.err; fail "pe_cycles=$pe: exit $rc, wanted 1"; }
	grep -q "drive is read-only" wear.err || { cat wear.err; fail "pe_cycles=$pe: message"; }
	python3 - wear$pe.json <<'PY' || fail "pe_cycles=$pe report"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["jobs"][0]["ssdlab"]
assert s["health"]["read_only"] is True
assert s["health"]["bad_blocks"] > 0 or s["program_failures"] > 0
assert d["jobs"][0]["write"]["total_ios"] > 1000
PY
done
