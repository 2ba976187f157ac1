# The same job file run by real fio (on a file in this temporary folder,
# ioengine=psync) and by ssdlab: the JSON and json+ reports have the same
# key structure, recursively, apart from the keys docs/output.md lists as
# host-only or ssdlab-only; the simulator-only keys it lists are there,
# as zeros; the terse lines have the same number of fields.
. "$TOP/tests/cli/lib.inc"

need fio python3

cat >j.fio <<EOF2
[global]
ioengine=psync
filename=$PWD/data
size=1m
bs=4k

[w]
rw=randwrite
fsync=8

[r]
stonewall
rw=randread
EOF2
for fmt in json json+ terse; do
	fio --output-format=$fmt --output=fio.$fmt j.fio >fio.out 2>&1 ||
		{ cat fio.out >&2; fail "fio failed"; }
	expect_status 0 "$SSDLAB" run j.fio --drive tiny --output-format=$fmt --output ssd.$fmt
done

python3 - "$TOP/docs/output.md" <<'PY'
import json, re, sys

def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)

# the key lists, from the one place that documents them
sections, cur = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"### (.*)", line)
    if m:
        cur = m.group(1).strip()
        continue
    m = re.match(r"- `([^`]+)`", line)
    if m and cur:
        sections.setdefault(cur, []).append(m.group(1))
sim_only = sections.get("Simulator-only keys", [])
host_only = sections.get("Host-only keys", [])
ssd_only = sections.get("ssdlab-only keys", [])
if len(sim_only) < 10 or not host_only or not ssd_only:
    die("docs/output.md: key lists not found")

def listed(path, keys):
    for k in keys:
        if k.endswith("*"):
            if path.startswith(k[:-1]):
                return True
        elif path == k or path.startswith(k + ".") or path.startswith(k + "["):
            return True
    return False

# data-keyed objects: their keys are values, not structure
DATA = ("bins",)

def paths(o, p, out):
    if isinstance(o, dict):
        for k, v in o.items():
            q = p + "." + k if p else k
            out.add(q)
            if k not in DATA:
                paths(v, q, out)
    elif isinstance(o, list):
        for v in o:
            paths(v, p + "[]", out)
    return out

def leaf(o, path):
    parts = re.findall(r"[^.\[\]]+|\[\]", path)
    vals = [o]
    for part in parts:
        nxt = []
        for v in vals:
            if part == "[]" and isinstance(v, list):
                nxt.extend(v)
            elif isinstance(v, dict) and part in v:
                nxt.append(v[part])
        vals = nxt
    return vals

for fmt in ("json", "json+"):
    f = json.load(open("fio." + fmt))
    s = json.load(open("ssd." + fmt))
    fp, sp = paths(f, "", set()), paths(s, "", set())
    missing = sorted(p for p in fp - sp if not listed(p, host_only))
    extra = sorted(p for p in sp - fp
                   if not listed(p, ssd_only) and not listed(p, host_only))
    if missing:
        die("%s: fio's keys missing in ssdlab's report: %s" % (fmt, missing[:20]))
    if extra:
        die("%s: keys fio does not have (not documented as ssdlab-only): %s"
            % (fmt, extra[:20]))
    for k in sim_only:
        vals = leaf(s, k)
        if not vals:
            die("%s: simulator-only key %s missing" % (fmt, k))
        if any(v != 0 for v in vals):
            die("%s: simulator-only key %s is not zero: %r" % (fmt, k, vals))
    # the options as written: the same as fio's
    if s["global options"] != f["global options"]:
        die("global options %r, fio %r" % (s["global options"], f["global options"]))
    for a, b in zip(s["jobs"], f["jobs"]):
        if a["job options"] != b["job options"]:
            die("job options %r, fio %r" % (a["job options"], b["job options"]))
    # flushes counted as fio counts them
    w = s["jobs"][0]
    if w["sync"]["total_ios"] != f["jobs"][0]["sync"]["total_ios"]:
        die("sync total_ios %d, fio %d" % (w["sync"]["total_ios"],
                                           f["jobs"][0]["sync"]["total_ios"]))
    if fmt == "json+":
        b = w["write"]["clat_ns"]["bins"]
        if sum(b.values()) != w["write"]["total_ios"] or not b:
            die("json+ write bins do not add up to the writes")
        if sum(w["sync"]["lat_ns"]["bins"].values()) != w["sync"]["total_ios"]:
            die("json+ sync bins do not add up to the flushes")
    elif "bins" in json.dumps(s):
        die("bins in plain json")

# terse v3: the same fields, one line a job
fl = [l for l in open("fio.terse") if l.startswith("3;")]
sl = [l for l in open("ssd.terse") if l.startswith("3;")]
if len(fl) != len(sl) or not sl:
    die("terse: %d lines, fio %d" % (len(sl), len(fl)))
for a, b in zip(sl, fl):
    if a.count(";") != b.count(";"):
        die("terse: %d fields, fio %d" % (a.count(";") + 1, b.count(";") + 1))
PY
