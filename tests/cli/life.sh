# `ssdlab life`: measured write amplification, TBW and years beside the
# 2008 essay's capacity x cycles / 2; --accelerated wears a short-lived
# tiny drive out and compares.  Everything on the tiny drive: fast.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" life --help
grep -q -- '--accelerated' out.txt || fail "life --help lacks --accelerated"
expect_status 0 "$SSDLAB" --help
grep -q '^  ssdlab life ' out.txt || fail "main help lacks life"

expect_status 0 "$SSDLAB" life --drive tiny
for k in '^  measured WAF      [0-9]+\.[0-9]{3} \(16384 host 4 KiB pages written, ' \
	'^  physical flash    69 MiB \(72\.35 MB\): 276 blocks of 256 KiB' \
	'^  rated endurance   3000 P/E cycles per block \(tlc\)$' \
	'^  flash endurance   72\.35 MB x 3000 cycles = 217\.1 GB of NAND writes$' \
	'^  estimated TBW     217\.1 GB / [0-9.]+ = [0-9.]+ GB of host writes$' \
	'^Daily host writes: 20 GiB \(21\.47 GB\)$' \
	"^The 2008 essay's arithmetic: capacity x cycles / 2 " \
	'^  TBW               67\.11 MB x 3000 / 2 = 100\.7 GB of host writes$' \
	'^  lifetime          4\.688 days = 0\.013 years at 21\.47 GB/day$' \
	"^Why they differ: the essay's factor 2 is a guessed write"; do
	grep -Eq "$k" out.txt || { cat out.txt >&2; fail "life: no line matching $k"; }
done
grep -q 'Endurance run' out.txt && fail "an endurance run without --accelerated"

# usage errors
expect_err 2 "daily needs a size above 0" "$SSDLAB" life --drive tiny --daily 0
expect_err 2 "daily needs a size above 0" "$SSDLAB" life --drive tiny --daily lots
expect_err 2 "unknown option '--bogus'" "$SSDLAB" life --bogus
expect_err 2 "life takes no arguments" "$SSDLAB" life extra
expect_err 2 "option '--job' needs a value" "$SSDLAB" life --job
expect_err 2 "^ssdlab: .*nope\.fio" "$SSDLAB" life --drive tiny --job nope.fio
# a workload whose measured group writes nothing
printf '[fill]\nrw=write\n[read]\nstonewall\nrw=randread\nio_size=1m\n' >ro.fio
expect_err 1 "measured jobs .*'read'.* write nothing" "$SSDLAB" life --drive tiny --job ro.fio
# a drive that wears out before the measurement ends
expect_err 1 "wore out .*raise pe_cycles" "$SSDLAB" life --drive tiny --set pe_cycles=3

# a job file: its last stonewall group is measured
cat >ss.fio <<'EOF'
[global]
rw=randwrite
bs=4k
iodepth=32
write_iops_log=measure
[precondition]
io_size=200%
[measure]
stonewall
runtime=10s
time_based
EOF
expect_status 0 "$SSDLAB" life --drive tiny --job ss.fio --daily 1g --output-format json --output job.json
[ ! -e measure_iops.1.log ] && [ ! -e measure_iops.2.log ] || fail "life wrote the job's log files"

expect_status 0 "$SSDLAB" life --drive tiny --daily 1g --output-format=json --output a.json
expect_status 0 "$SSDLAB" life --drive tiny --daily=1g --output-format json --seed 1
cp out.txt b.json

# --accelerated: tiny, pe_cycles=50, pe_spread=0.05, until read-only
expect_status 0 "$SSDLAB" life --accelerated
grep -q '^  rated endurance   50 P/E cycles per block' out.txt || fail "accelerated: not 50 cycles"
grep -Eq '^  worn out after    [0-9.]+ MB of host writes from fresh \([0-9]+ measured passes\)$' out.txt \
	|| { cat out.txt >&2; fail "accelerated: no wear-out line"; }
grep -Eq '^  ratio             [0-9]+\.[0-9]{3} \(written / estimate\)$' out.txt || fail "accelerated: no ratio"
grep -q 'read-only: yes' out.txt || fail "accelerated: not read-only at the end"
expect_status 0 "$SSDLAB" life --accelerated --output-format=json --output acc.json
# --set applies after the accelerated defaults
expect_status 0 "$SSDLAB" life --accelerated --set pe_cycles=40 --output-format=json --output acc40.json

if ! have python3; then
	for k in '"waf" : ' '"tbw_bytes" : ' '"naive" : {' '"physical_blocks" : 276,' \
		'"pe_cycles" : 3000,' '"daily_bytes" : 1073741824,'; do
		grep -qF "$k" a.json || fail "a.json lacks $k"
	done
	grep -qF '"worn_out" : true' acc.json || fail "acc.json: not worn out"
	skip "python3 is not installed: the JSON report checked by grep only"
fi

python3 - a.json b.json job.json acc.json acc40.json <<'EOF'
import json, sys

def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)

def load(p):
    try:
        return json.load(open(p))
    except ValueError as e:
        die("%s does not parse: %s" % (p, e))

def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(b), 1)

a, b, job, acc, acc40 = (load(p) for p in sys.argv[1:])

# the arithmetic, from the reported figures
e, n, m = a["estimate"], a["naive"], a["measured"]
if a["drive"]["name"] != "tiny" or a["workload"] != "built-in" or a["seed"] != 1:
    die("header: %r" % {k: a[k] for k in ("workload", "seed")})
if (e["user_bytes"], e["physical_blocks"], e["block_bytes"], e["physical_bytes"], e["pe_cycles"]) \
        != (64 << 20, 276, 256 << 10, 276 * (256 << 10), 3000):
    die("geometry: %r" % e)
if m["host_pages_written"] != 16384 or not close(m["waf"], m["nand_lpages_programmed"] / 16384):
    die("measured: %r" % m)
if not 1 < e["waf"] < 50 or e["waf"] != m["waf"]:
    die("waf %r" % e["waf"])
if e["nand_bytes"] != e["physical_bytes"] * 3000:
    die("nand_bytes %r" % e["nand_bytes"])
if not close(e["tbw_bytes"], e["nand_bytes"] / e["waf"], 1e-6):
    die("tbw %r != nand / waf" % e["tbw_bytes"])
if e["daily_bytes"] != 1 << 30 or not close(e["days"], e["tbw_bytes"] / (1 << 30), 1e-6) \
        or not close(e["years"], e["days"] / 365, 1e-5):
    die("days/years: %r" % e)
if not close(e["equivalent_factor"], e["waf"] * e["user_bytes"] / e["physical_bytes"], 1e-5):
    die("equivalent_factor %r" % e["equivalent_factor"])
if n["factor"] != 2 or n["tbw_bytes"] != (64 << 20) * 3000 // 2 \
        or not close(n["days"], n["tbw_bytes"] / (1 << 30), 1e-6):
    die("naive: %r" % n)
if "endurance" in a:
    die("an endurance object without --accelerated")

# deterministic apart from the wall clock
for x in (a, b):
    x.pop("wall_seconds")
if a != b:
    die("two runs with the same inputs differ")

# a job file: the measure job's window
if job["workload"] != "ss.fio" or not 1 < job["measured"]["waf"] < 50:
    die("job file: %r" % job["measured"])

# accelerated: written until read-only, near the estimate
for x, pe in ((acc, 50), (acc40, 40)):
    d = x["drive"]
    if d["name"] != "tiny" or d["pe_cycles"] != pe or abs(d["pe_spread"] - 0.05) > 1e-9:
        die("accelerated drive: %r" % {k: d[k] for k in ("name", "pe_cycles", "pe_spread")})
    en = x.get("endurance")
    if not isinstance(en, dict) or en["worn_out"] is not True or en["read_only"] is not True:
        die("accelerated: not worn out: %r" % en)
    if en["estimated_host_bytes"] != x["estimate"]["tbw_bytes"]:
        die("accelerated: estimate %r" % en)
    if not close(en["ratio"], en["host_bytes_written"] / en["estimated_host_bytes"], 1e-5):
        die("accelerated: ratio %r" % en)
    if not 0.67 < en["ratio"] < 1.5:
        die("accelerated: wore out at %r of the estimate" % en["ratio"])
    if en["bad_blocks"] < 1 or en["passes"] < 2:
        die("accelerated: %r" % en)
if acc40["endurance"]["host_bytes_written"] >= acc["endurance"]["host_bytes_written"]:
    die("40 cycles lasted as long as 50")
EOF

# docs/lifetime.md shows the accelerated run's whole output (the fast one
# of its outputs; make doc-check compares them all): it is what the tool
# prints, the wall time apart
"$SSDLAB" life --accelerated | grep -v '^Wall: ' >acc_now.txt
awk '/^`\.\/ssdlab life --accelerated` \(a fraction of a second\):$/ { p = 1; next }
     p && /^```$/ { if (inb) exit; inb = 1; next }
     inb && !/^Wall: / { print }' "$TOP/docs/lifetime.md" >acc_doc.txt
[ -s acc_doc.txt ] || fail "docs/lifetime.md: no output of ./ssdlab life --accelerated"
cmp -s acc_doc.txt acc_now.txt || { diff acc_doc.txt acc_now.txt >&2; fail "docs/lifetime.md's ./ssdlab life --accelerated is stale (tools/doc-check.sh --update)"; }
