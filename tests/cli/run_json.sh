# `run --output-format=json --output FILE`: fio's JSON layout plus the
# ssdlab objects; each job's counters cover its own window only.
. "$TOP/tests/cli/lib.inc"

# fill the tiny drive (64 MiB) sequentially, then random writes for a
# fixed simulated time, then random reads
cat >j.fio <<'EOF'
[global]
bs=4k
iodepth=16

[fill]
rw=write

[measure]
stonewall
rw=randwrite
runtime=300ms
time_based

[readback]
stonewall
rw=randread
io_size=4m
EOF
expect_status 0 "$SSDLAB" run j.fio --drive tiny --output-format=json --output out.json --seed 7
[ ! -s out.txt ] || { cat out.txt >&2; fail "--output: nothing should go to stdout/stderr"; }
[ -s out.json ] || fail "out.json is empty"
# the spaced form of the options gives the same report (wall time apart)
expect_status 0 "$SSDLAB" run j.fio --drive=tiny --output-format json --seed=7
cp out.txt stdout.json

if ! have python3; then
	# no python: the shape, by grep
	for k in '"jobname" : "fill"' '"jobname" : "measure"' '"jobname" : "readback"' \
		'"io_bytes" : ' '"bw" : ' '"iops" : ' '"runtime" : ' '"clat_ns" : {' \
		'"99.000000" : ' '"lat_ns" : {' '"waf" : ' '"nand_pages_programmed" : ' \
		'"blocks_erased" : ' '"gc_copied_pages" : ' '"erase_count" : {' \
		'"free_blocks" : ' '"capacity" : 67108864' '"seed" : 7' \
		'"sim_seconds" : ' '"host_ios_per_wall_second" : ' '"waf" : null'; do
		grep -qF "$k" out.json || fail "out.json lacks $k"
	done
	grep -q '"host_pages_written" : 16384,' out.json || fail "fill: host_pages_written"
	skip "python3 is not installed: the JSON report checked by grep only"
fi

python3 - out.json stdout.json <<'EOF'
import json, sys

def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError as e:
        die("%s does not parse: %s" % (path, e))

d = load(sys.argv[1])
jobs = d.get("jobs")
if not isinstance(jobs, list) or [j.get("jobname") for j in jobs] != ["fill", "measure", "readback"]:
    die("jobs: %r" % [j.get("jobname") for j in jobs or []])
fill, meas, rd = jobs

def num(x, what):
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        die("%s is not a number: %r" % (what, x))
    return x

# fio-shaped directions
for j, ddir in ((fill, "write"), (meas, "write"), (rd, "read")):
    n = j["jobname"]
    for dd in ("read", "write", "trim"):
        if dd not in j:
            die("%s: no %s object" % (n, dd))
    s = j[ddir]
    for k in ("io_bytes", "bw", "bw_bytes", "iops", "runtime", "total_ios"):
        num(s.get(k), "%s.%s.%s" % (n, ddir, k))
    if s["io_bytes"] <= 0 or s["bw"] <= 0 or s["iops"] <= 0 or s["runtime"] <= 0:
        die("%s.%s: io_bytes/bw/iops/runtime not positive: %r" % (n, ddir, s))
    if s["io_bytes"] != s["total_ios"] * 4096:
        die("%s.%s: io_bytes %d != total_ios %d x 4k" % (n, ddir, s["io_bytes"], s["total_ios"]))
    p99 = num(s["clat_ns"]["percentile"]["99.000000"], n + " clat p99")
    mean = num(s["lat_ns"]["mean"], n + " lat mean")
    cmin, cmax = s["clat_ns"]["min"], s["clat_ns"]["max"]
    if not (0 < cmin <= mean <= cmax) or p99 <= 0:
        die("%s.%s latency: min %r mean %r max %r p99 %r" % (n, ddir, cmin, mean, cmax, p99))
    if s["clat_ns"]["N"] != s["total_ios"]:
        die("%s.%s: clat N != total_ios" % (n, ddir))
    # the other directions saw nothing
    for dd in ("read", "write", "trim"):
        if dd != ddir and j[dd]["io_bytes"] != 0:
            die("%s: %s io_bytes should be 0" % (n, dd))

# the ssdlab object of each job
for j in jobs:
    n = j["jobname"]
    s = j.get("ssdlab")
    if not isinstance(s, dict):
        die(n + ": no ssdlab object")
    for k in ("host_pages_read", "host_pages_written", "host_pages_trimmed",
              "nand_pages_read", "nand_pages_programmed", "blocks_erased",
              "gc_copied_pages", "gc_victims", "free_blocks"):
        if num(s.get(k), n + ".ssdlab." + k) < 0:
            die(n + ".ssdlab." + k + " negative")
    ec = s.get("erase_count")
    if not isinstance(ec, dict):
        die(n + ": no erase_count")
    for k in ("min", "mean", "max"):
        num(ec.get(k), n + ".erase_count." + k)
    if not ec["min"] <= ec["mean"] <= ec["max"]:
        die(n + ": erase_count min <= mean <= max: %r" % ec)

# fill: exactly the drive, programmed once, nothing collected
f = fill["ssdlab"]
if f["host_pages_written"] != 16384 or fill["write"]["io_bytes"] != 64 << 20:
    die("fill wrote %r pages" % f["host_pages_written"])
if f["waf"] != 1 or f["nand_pages_programmed"] != 16384 or f["gc_copied_pages"] != 0 \
        or f["blocks_erased"] != 0:
    die("fill of a fresh drive: waf 1, no GC: %r" % f)

# measure: its window only (not the fill's pages), and GC at work
m = meas["ssdlab"]
if m["host_pages_written"] != meas["write"]["total_ios"]:
    die("measure: host_pages_written %d != its %d writes"
        % (m["host_pages_written"], meas["write"]["total_ios"]))
if meas["job_runtime"] < 100:
    die("measure: time_based runtime=300ms ran %d ms" % meas["job_runtime"])
if not (m["gc_copied_pages"] > 0 and m["blocks_erased"] > 0 and m["waf"] > 1):
    die("measure on a full drive: expected GC and waf > 1: %r" % m)
if abs(m["waf"] - m["nand_lpages_programmed"] / m["host_pages_written"]) > 1e-5:
    die("measure: waf is not nand_lpages_programmed / host_pages_written")
if m["nand_lpages_programmed"] != m["host_pages_written"] + m["gc_copied_pages"] + m["pad_pages"]:
    die("measure: programmed != host + gc copies + pad: %r" % m)
if m["erase_count"]["max"] < 1:
    die("measure: erase_count max should be >= 1 after GC")

# readback: reads only; no writes in its window, so no write amplification
r = rd["ssdlab"]
if r["host_pages_written"] != 0 or r["nand_pages_programmed"] != 0 or r["blocks_erased"] != 0:
    die("readback window includes writes: %r" % r)
if r.get("waf") is not None:
    die("readback: waf should be null or absent, got %r" % r.get("waf"))
if r["host_pages_read"] != 1024 or r["nand_pages_read"] != 1024:
    die("readback: 4m of mapped 4k reads: host/nand pages read %r/%r"
        % (r["host_pages_read"], r["nand_pages_read"]))

# stonewall: groups and start times in order
if [j["groupid"] for j in jobs] != [0, 1, 2]:
    die("groupids: %r" % [j["groupid"] for j in jobs])
if meas["job_start"] < fill["job_start"] + fill["job_runtime"] - 1 or \
        rd["job_start"] < meas["job_start"] + meas["job_runtime"] - 1:
    die("stonewalled jobs overlap: starts %r runtimes %r"
        % ([j["job_start"] for j in jobs], [j["job_runtime"] for j in jobs]))

# top level
t = d.get("ssdlab")
if not isinstance(t, dict):
    die("no top-level ssdlab object")
drv = t.get("drive")
if not isinstance(drv, dict) or drv.get("capacity") != 64 << 20 or drv.get("name") != "tiny":
    die("ssdlab.drive: %r" % drv)
if t.get("seed") != 7:
    die("ssdlab.seed: %r" % t.get("seed"))
sim = num(t.get("sim_seconds"), "sim_seconds")
if sim < sum(j["job_runtime"] for j in jobs) / 1000.0 - 0.01:
    die("sim_seconds %r shorter than the jobs" % sim)
num(t.get("wall_seconds"), "wall_seconds")
if num(t.get("host_ios_per_wall_second"), "host_ios_per_wall_second") <= 0:
    die("host_ios_per_wall_second <= 0")
ios = sum(j[dd]["total_ios"] for j in jobs for dd in ("read", "write", "trim"))
if t.get("host_ios") != ios:
    die("host_ios %r != sum of the jobs' %d" % (t.get("host_ios"), ios))

# --output FILE and stdout carry the same report
o = load(sys.argv[2])
for x in (d, o):
    x["ssdlab"].pop("wall_seconds")
    x["ssdlab"].pop("host_ios_per_wall_second")
if d != o:
    die("the report on stdout differs from the one in --output")
EOF
exit 0
