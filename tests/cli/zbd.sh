# zonemode=zbd (docs/fio-zoned.md, "In ssdlab"): zoned jobs on a
# conventional drive (fio's emulated zones) against the installed fio on
# an emulated-zone file, where both are deterministic -- bytes read,
# written and trimmed and the zone resets of sequential passes, a second
# pass over full zones, zone-sized random writes, a capacity below the
# zone size, verify's resets, trims of empty zones (not counted) and
# read_beyond_wp=0 over empty zones (nothing read); every refusal with
# fio's words; and the same jobs on a zoned drive (mapping = zone), whose
# own counters agree with the zone resets.
. "$TOP/tests/cli/lib.inc"

need python3

# ---- refusals: one line each, fio's message, file:line: option ----
refuse() { # PATTERN OPTIONS...
	pat=$1; shift
	printf '[a]\n' >r.fio
	for o; do printf '%s\n' "$o" >>r.fio; done
	expect_err 2 "$pat" "$SSDLAB" run r.fio --drive tiny
}
refuse "r.fio:2: option 'zonemode': a: Specifying the zone size is mandatory for regular file/block device with --zonemode=zbd \(accepted" zonemode=zbd
refuse "r.fio:4: option 'zonecapacity': a: job parameter zonecapacity 2097152 is larger than zone size 1048576" zonemode=zbd zonesize=1m zonecapacity=2m
refuse "r.fio:3: option 'zonesize': a: file/device size [0-9]+ is smaller than zone size 137438953472" zonemode=zbd zonesize=128g
refuse "r.fio:2: option 'max_open_zones': max value out of range: 5000 \(4096 max\)" max_open_zones=5000
refuse "r.fio:2: option 'job_max_open_zones': max value out of range: 4097 \(4096 max\)" job_max_open_zones=4097
refuse "r.fio:2: option 'zone_reset_threshold': value out of range: 1.500000 \(range max: 1.000000\)" zone_reset_threshold=1.5
refuse "r.fio:2: option 'zone_reset_frequency': value out of range: 2.000000 \(range max: 1.000000\)" zone_reset_frequency=2
refuse "r.fio:4: option 'job_max_open_zones': 'job_max_open_zones' cannot be used without a global open zones limit" zonemode=zbd zonesize=1m job_max_open_zones=2
refuse "r.fio:5: option 'bs': a: trim block size 65536 is not the zone size 1048576" zonemode=zbd zonesize=1m rw=randtrim bs=64k
refuse "r.fio:5: option 'bsrange': bsrange and bssplit are not allowed for trim with zonemode=zbd" zonemode=zbd zonesize=1m rw=trim bsrange=1m-2m
refuse "r.fio:4: option 'create_serialize': --zonemode=zbd and --create_serialize=0 are not compatible." zonemode=zbd zonesize=1m create_serialize=0
refuse "r.fio:4: option 'norandommap': write_zone_remainder=1 requires norandommap=1" zonemode=zbd zonesize=1m norandommap=0 write_zone_remainder=1
refuse "r.fio:4: option 'recover_zbd_write_error': recover_zbd_write_error works only when continue_on_error is set" zonemode=zbd zonesize=1m recover_zbd_write_error=1
refuse "r.fio:4: option 'experimental_verify': zonemode=zbd does not support experimental verify" zonemode=zbd zonesize=1m experimental_verify=1 verify=md5
refuse "r.fio:2: option 'write_mode': io_uring_cmd with write_mode=zone_append requires zonemode=zbd" write_mode=zone_append
refuse "r.fio:4: option 'size': a: io_size must be at least one zone" zonemode=zbd zonesize=1m size=512k rw=write
refuse "r.fio:2: option 'size': 2 zones of job 'a', which has no zone size" size=2z
refuse "r.fio:4: option 'size': unexpected zone value '1.5z'" zonemode=zbd zonesize=1m size=1.5z
refuse "r.fio:2: option 'zonesize': 'z' suffix isn't applicable" zonesize=1z
refuse "r.fio:4: option 'zoneskip': zoneskip 1048576: ssdlab does not skip zones" zonemode=zbd zonesize=1m zoneskip=1z
refuse "r.fio:4: unknown option 'write_zone_remainders' \(did you mean 'write_zone_remainder'" zonemode=zbd zonesize=1m write_zone_remainders=1
printf '[a]\nzonemode=zbd\nzonesize=1m\nmax_open_zones=4\n[b]\nzonemode=zbd\nzonesize=1m\nmax_open_zones=2\n' >r.fio
expect_err 2 "r.fio:8: option 'max_open_zones': Different 'max_open_zones' values" \
	"$SSDLAB" run r.fio --drive tiny
printf '[a]\nzonemode=zbd\nzonesize=512\n' >r.fio
expect_err 2 "r.fio:3: option 'zonesize': [0-9]+ zones of 512 B on the drive, more than ssdlab keeps" \
	"$SSDLAB" run r.fio --drive default
# block sizes above 128 MiB: only a zbd job's trims (zone resets)
printf '[a]\nrw=write\nbs=256m\n' >r.fio
expect_err 2 "r.fio:3: option 'bs': block size 256 MiB is out of range" \
	"$SSDLAB" run r.fio --drive default
printf '[a]\nzonemode=zbd\nzonesize=256m\nrw=randtrim\nbs=256m\nsize=4z\n' >r.fio
expect_status 0 "$SSDLAB" run r.fio --drive default
printf '[a]\nzonemode=zbd\nzonesize=1m\n[b]\nzonemode=zbd\nzonesize=2m\n' >r.fio
expect_err 2 "r.fio:6: option 'zonesize': b: zonesize 2097152 does not match the device zone size 1048576." \
	"$SSDLAB" run r.fio --drive tiny

# ---- the same jobs, ssdlab against the installed fio ----
# Each case is a job file without filename or engine; fio runs it on
# f.img (64 MiB, the tiny drive's size) with psync, ssdlab on the tiny
# drive.  Compared per job: bytes read, written, trimmed, and the zone
# resets fio 3.33 prints on its write lines.
cat >cmp.py <<'PY'
import json, os, re, subprocess, sys

ssdlab = os.environ["SSDLAB"]
drive = sys.argv[1:]
fails = 0

def fio_run(text):
    body = text.replace("[global]", "[global]\nfilename=f.img\nioengine=psync", 1)
    open("f.fio", "w").write(body)
    if os.path.exists("f.img"):
        os.remove("f.img")
    with open("f.img", "wb") as f:
        f.truncate(64 << 20)
    out = {}
    for fmt in ("json", "normal"):
        p = subprocess.run(["fio", "--output-format=" + fmt, "f.fio"],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit("FAIL: fio: " + p.stderr)
        if fmt == "json":
            for j in json.loads(p.stdout)["jobs"]:
                out[j["jobname"]] = [j[d]["io_bytes"] for d in ("read", "write", "trim")]
        else:
            job = None
            for line in p.stdout.splitlines():
                m = re.match(r"(\S+): \(groupid", line)
                if m:
                    job = m.group(1)
                m = re.match(r"\s+write: .*; (\d+) zone resets", line)
                if m:
                    out[job].append(int(m.group(1)))
    return out

def ssd_run(text):
    open("s.fio", "w").write(text)
    p = subprocess.run([ssdlab, "run", "s.fio", "--output-format=json",
                        "--output", "s.json"] + drive,
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit("FAIL: ssdlab: " + p.stderr)
    out = {}
    for j in json.load(open("s.json"))["jobs"]:
        r = [j[d]["io_bytes"] for d in ("read", "write", "trim")]
        out[j["jobname"]] = r, j.get("zone_resets")
    return out

def case(name, text, resets):
    """resets: {job: zone resets ssdlab must count} (trims and reads are
    not on fio 3.33's write lines)"""
    global fails
    f, s = fio_run(text), ssd_run(text)
    for job, want in f.items():
        got, zr = s[job]
        if got != want[:3] or (len(want) > 3 and zr != want[3]) or \
           (job in resets and zr != resets[job]):
            print(f"FAIL: {name}: job {job}: fio {want}, ssdlab {got} "
                  f"resets {zr}, wanted {resets.get(job)}", file=sys.stderr)
            fails += 1

G = "[global]\nzonemode=zbd\nzonesize=1m\ndirect=1\n"
case("two sequential passes", G + "bs=256k\nsize=4m\n[a]\nrw=write\n"
     "[b]\nstonewall\nrw=write\n", {"a": 0, "b": 4})
case("zone-sized random writes, twice the region",
     G + "bs=1m\nsize=4m\nio_size=8m\n[a]\nrw=randwrite\n", {"a": 4})
case("capacity below the zone size",
     G + "zonecapacity=768k\nbs=256k\nsize=4m\n[a]\nrw=write\n", {"a": 0})
case("verify resets the region first",
     G + "bs=256k\nsize=4m\nverify=crc32c\n[a]\nrw=write\n"
     "[b]\nstonewall\nrw=write\n", {"a": 0, "b": 4})
case("reads below the write pointers",
     G + "bs=256k\nsize=8m\n[e]\nrw=read\n[w]\nstonewall\nrw=write\n"
     "size=2m\n[r]\nstonewall\nrw=read\n[rr]\nstonewall\nrw=randread\n"
     "[rb]\nstonewall\nrw=randread\nread_beyond_wp=1\n", {})
case("trims reset zones; empty ones are not counted",
     G + "bs=1m\nsize=8m\n[w]\nrw=write\nsize=2m\n[t]\nstonewall\n"
     "rw=randtrim\n[s]\nstonewall\nrw=trim\n", {"t": 2, "s": 0})
sys.exit(1 if fails else 0)
PY
if have fio; then
	SSDLAB=$SSDLAB python3 cmp.py --drive tiny || fail "ssdlab differs from fio"
else
	skip_part "fio is not installed"
fi

# ---- a zoned drive: the drive's zones, its counters, its limits ----
Z="--drive tiny --set mapping=zone --set max_open_zones=4 --set max_active_zones=6"
cat >z.fio <<'EOF'
[global]
zonemode=zbd
direct=1
bs=64k
size=4z
[a]
rw=write
[b]
stonewall
rw=write
[c]
stonewall
rw=randwrite
io_size=8z
[d]
stonewall
rw=randtrim
bs=1m
EOF
expect_status 0 $SSDLAB run z.fio $Z --output-format=json --output z.json
python3 - <<'PY' || fail "zoned drive"
import json
d = json.load(open("z.json"))
jobs = {j["jobname"]: j for j in d["jobs"]}
def die(m):
    raise SystemExit("FAIL: " + m)
for n, w, zr in (("a", 4 << 20, 0), ("b", 4 << 20, 4), ("c", 8 << 20, None)):
    j = jobs[n]
    if j["write"]["io_bytes"] != w or j["error"]:
        die(f"{n}: wrote {j['write']['io_bytes']}, error {j['error']}")
    if zr is not None and j["zone_resets"] != zr:
        die(f"{n}: {j['zone_resets']} zone resets, wanted {zr}")
# the drive counts the resets the jobs sent
for n, j in jobs.items():
    zones = j["ssdlab"]["zones_reset"]
    if zones != j["zone_resets"]:
        die(f"{n}: the drive reset {zones} zones, the job {j['zone_resets']}")
if jobs["d"]["zone_resets"] != 4 or jobs["d"]["trim"]["io_bytes"] != 4 << 20:
    die(f"d: {jobs['d']['zone_resets']} resets, trimmed {jobs['d']['trim']['io_bytes']}")
PY
zref() { # PATTERN OPTIONS...
	pat=$1; shift
	printf '[a]\n' >r.fio
	for o; do printf '%s\n' "$o" >>r.fio; done
	expect_err 2 "$pat" "$SSDLAB" run r.fio $Z
}
zref "r.fio:3: option 'zonesize': a job parameter zonesize 2097152 does not match disk zone size 1048576." zonemode=zbd zonesize=2m
zref "r.fio:3: option 'max_open_zones': Specified --max_open_zones \(8\) is larger than max \(4\)" zonemode=zbd max_open_zones=8
zref "r.fio:1: option 'direct': Using direct I/O is mandatory for writing to ZBD drives" zonemode=zbd rw=write
# a job without zonemode=zbd: its first write off a write pointer fails,
# with fio's hint
printf '[a]\nrw=randwrite\nsize=1m\nfilename=/dev/nullb0\n' >n.fio
set +e
$SSDLAB run n.fio $Z >n.out 2>n.err
rc=$?
set -e
[ $rc -ne 0 ] || fail "a random write job without zonemode=zbd ran on a zoned drive"
grep -q "fio: io_u error on file /dev/nullb0: Input/output error: write offset=[0-9]*, buflen=4096; fio: first I/O failed. If /dev/nullb0 is a zoned block device, consider --zonemode=zbd" n.err ||
	{ cat n.err >&2; fail "no fio hint"; }
# zone_append with verify: the appends land where the host predicts
printf '[a]\nzonemode=zbd\ndirect=1\nrw=randwrite\nbs=64k\nsize=2z\nverify=crc32c\nwrite_mode=zone_append\niodepth=4\n' >za.fio
expect_status 0 $SSDLAB run za.fio $Z --output-format=json --output za.json
python3 -c "
import json; j = json.load(open('za.json'))['jobs'][0]
assert j['error'] == 0 and j['write']['io_bytes'] == 2 << 20 and j['read']['io_bytes'] == 2 << 20, j['error']
" || fail "zone_append with verify"
# a zbd job's verify phase reads where the zones put its writes, not
# where its stream drew them (a replay would read unwritten blocks)
printf '[a]\nzonemode=zbd\ndirect=1\nrw=randrw\nverify=crc32c\nsize=8z\n' >rv.fio
expect_status 0 $SSDLAB run rv.fio $Z
printf '[a]\nzonemode=zbd\nzonesize=1m\nrw=randrw\nverify=crc32c\nsize=8z\nmax_open_zones=2\n' >rv.fio
expect_status 0 $SSDLAB run rv.fio --drive tiny
# zones left open on the drive in a zbd job's region are its write
# targets; more than its limit: fio HEAD's refusal
printf '[pre]\nrw=write:960k\nbs=64k\nsize=4m\ndirect=1\n[z]\nstonewall\nzonemode=zbd\ndirect=1\nrw=randwrite\nbs=64k\nsize=8z\nmax_open_zones=2\n' >open.fio
expect_status 1 $SSDLAB run open.fio $Z
grep -q "z: (groupid=1, jobs=1): err=22" out.txt &&
	grep -q "Number of open zones exceeds max_open_zones limit" out.txt ||
	{ cat out.txt >&2; fail "open zones beyond max_open_zones"; }
