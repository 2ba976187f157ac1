# The drive's health in the report: each job's "ssdlab" object carries a
# "health" object (SMART-like, the drive at the job's end) and an
# erase-count histogram over every erase unit; the text has a health line
# per job.  A drive with a short life turns read-only, and reads go on.
. "$TOP/tests/cli/lib.inc"

cat >wear.fio <<'EOF'
[global]
bs=4k
iodepth=16

[fill]
rw=write

[wear]
stonewall
rw=randwrite
runtime=1h
time_based

[readback]
stonewall
rw=randread
io_size=4m
EOF
short="--set pe_cycles=50 --set pe_spread=0.05"
# a job that ends with the drive read-only makes the exit status 1, as fio
# shellcheck disable=SC2086
expect_status 1 "$SSDLAB" run wear.fio --drive tiny $short --output-format=json --output wear.json
# shellcheck disable=SC2086
expect_status 1 "$SSDLAB" run wear.fio --drive tiny $short
[ "$(grep -c '^  health: used=' out.txt)" -eq 3 ] || { cat out.txt >&2; fail "text: one health line per job"; }
grep -q '^wear: (groupid=1, jobs=1): err=30 (drive is read-only)$' out.txt || fail "text: wear job not read-only"
grep -q '^  health: .*bad blocks=[1-9][0-9]*, read-only=yes, host written=' out.txt || fail "text: no read-only health line"
# docs/lifetime.md shows the wear job's line
doc=$(grep '^  health: used=.*read-only=yes' "$TOP/docs/lifetime.md")
grep -qxF -- "$doc" out.txt || fail "docs/lifetime.md's health line is not the wear job's: $(grep 'read-only=yes' out.txt)"
grep -q '^  health: used=0.0%, max wear=0.0%, spare=100%, bad blocks=0, read-only=no, host written=64.0MiB, nand written=64.0MiB$' out.txt \
	|| fail "text: the fill's health line"

# a drive whose planes work in lockstep: the histogram counts erase
# units (the planes' blocks erased together count once)
cat >short.fio <<'EOF'
[fill]
rw=write
bs=64k
[over]
stonewall
rw=randwrite
bs=4k
io_size=50%
EOF
expect_status 0 "$SSDLAB" run short.fio --drive tiny --set planes_per_die=2 --set op=0.15 --output-format=json --output mp.json

if ! have python3; then
	for k in '"health" : {' '"percentage_used" : ' '"available_spare" : ' \
		'"read_only" : true' '"read_only" : false' '"histogram" : [' \
		'"writes_refused_read_only" : ' '"bad_blocks" : '; do
		grep -qF "$k" wear.json || fail "wear.json lacks $k"
	done
	skip "python3 is not installed: the JSON report checked by grep only"
fi

python3 - wear.json mp.json <<'EOF'
import json, sys

def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)

def units(d):
    dr = d["ssdlab"]["drive"]
    planes = dr["channels"] * dr["dies_per_channel"] * dr["planes_per_die"] * dr["blocks_per_plane"]
    return planes // dr["planes_per_die"] if dr["multiplane"] else planes

KEYS = {"percentage_used": float, "max_wear_pct": float, "available_spare": float,
        "spare_blocks": int, "bad_blocks": int, "erase_failures": int,
        "program_failures": int, "read_only": bool, "host_bytes_written": int,
        "host_bytes_read": int, "nand_bytes_written": int, "slc_cache_bytes": int}
COUNTERS = ("fold_copied_pages", "wl_copied_pages", "slc_written_pages",
            "map_pages_read", "map_pages_written", "erase_failures",
            "program_failures", "writes_refused_read_only", "buffered_writes")

def check(path):
    d = json.load(open(path))
    n = units(d)
    written = 0
    for j in d["jobs"]:
        name, s = j["jobname"], j["ssdlab"]
        h = s.get("health")
        if not isinstance(h, dict):
            die("%s: %s has no health object" % (path, name))
        for k, t in KEYS.items():
            v = h.get(k)
            if t is float:
                ok = isinstance(v, (int, float)) and not isinstance(v, bool)
            else:
                ok = isinstance(v, t) and (t is bool or not isinstance(v, bool))
            if not ok or (t is not bool and v < 0):
                die("%s: %s.health.%s = %r" % (path, name, k, v))
        for k in COUNTERS:
            v = s.get(k)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                die("%s: %s.ssdlab.%s = %r" % (path, name, k, v))
        ec = s["erase_count"]
        hist = ec.get("histogram")
        if not isinstance(hist, list) or not hist:
            die("%s: %s: no histogram: %r" % (path, name, ec))
        total = sum(b["blocks"] for b in hist)
        if total != n:
            die("%s: %s: histogram holds %d blocks, the drive has %d erase units"
                % (path, name, total, n))
        if hist[0]["from"] != ec["min"] or not hist[-1]["from"] <= ec["max"] <= hist[-1]["to"]:
            die("%s: %s: histogram %r does not span min %r .. max %r"
                % (path, name, hist, ec["min"], ec["max"]))
        for a, b in zip(hist, hist[1:]):
            if b["from"] != a["to"] + 1 or a["to"] < a["from"]:
                die("%s: %s: bins not contiguous: %r %r" % (path, name, a, b))
        # the health covers the drive's life, the counters the job's window
        written += s["host_pages_written"] * 4096
        if h["host_bytes_written"] != written:
            die("%s: %s: health.host_bytes_written %d != %d written so far"
                % (path, name, h["host_bytes_written"], written))
        if h["nand_bytes_written"] < h["host_bytes_written"]:
            die("%s: %s: fewer NAND bytes than host bytes" % (path, name))
        if not 0 <= h["available_spare"] <= 100:
            die("%s: %s: available_spare %r" % (path, name, h["available_spare"]))
    return d

d = check(sys.argv[1])
fill, wear, rd = d["jobs"]
h = fill["ssdlab"]["health"]
if h["read_only"] or h["bad_blocks"] or h["available_spare"] != 100 or h["percentage_used"] != 0:
    die("a freshly filled drive: %r" % h)
h = wear["ssdlab"]["health"]
if not h["read_only"] or wear["error"] != 30 or wear["ssdlab"].get("error") != "drive is read-only":
    die("the wear job should end read-only: error %r, %r" % (wear["error"], h))
if h["bad_blocks"] < 1 or h["available_spare"] >= 100 or h["percentage_used"] <= 0:
    die("a worn-out drive: %r" % h)
if wear["ssdlab"]["writes_refused_read_only"] < 1:
    die("wear: no write refused")
if h["max_wear_pct"] < h["percentage_used"]:
    die("max_wear_pct below the mean: %r" % h)
# reads keep working on a read-only drive
if rd["error"] != 0 or rd["read"]["io_bytes"] != 4 << 20 or not rd["ssdlab"]["health"]["read_only"]:
    die("readback on the read-only drive: error %r, %r bytes" % (rd["error"], rd["read"]["io_bytes"]))
if rd["ssdlab"]["health"]["host_bytes_read"] != 4 << 20:
    die("readback: host_bytes_read %r" % rd["ssdlab"]["health"]["host_bytes_read"])

d = check(sys.argv[2])
if units(d) * d["ssdlab"]["drive"]["planes_per_die"] != 296:
    die("multiplane drive: %d units" % units(d))
EOF
