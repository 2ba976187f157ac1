# group_reporting as fio 3.33 reports it (stat.c, __show_run_stats): an
# instance with group_reporting joins the entry of the instance before it
# when that one is in the same reporting group, whatever its own setting;
# any other instance starts an entry, named after its job.  So a reporting
# group's jobs are one entry, not only a job's clones; stonewall and
# new_group start another.  Each instance still runs its own workload:
# the merged figures are the sums and maxima of the separate ones.  And a
# job's error ends only that job, as fio's: the later groups run.
. "$TOP/tests/cli/lib.inc"
need python3

# the user's file: no stonewall between [w] and [r]
cat >ex.fio <<'EOF'
[global]
group_reporting
ioengine=null
size=4m
bs=4k

[w]
numjobs=3
rw=randwrite

[r]
numjobs=2
rw=randread
EOF
# the same without group_reporting: an entry per instance
grep -v '^group_reporting$' ex.fio >sep.fio

# a job without group_reporting, then one with it: the second joins the
# first one's last clone
cat >mixed.fio <<'EOF'
[global]
ioengine=null
size=1m
bs=4k

[a]
numjobs=2
rw=write

[b]
group_reporting
numjobs=2
rw=read
EOF
# with it, without it (its own entry), with it again (joins the one
# before: b's), new_group and stonewall (entries of their own)
cat >groups.fio <<'EOF'
[global]
ioengine=null
size=1m
bs=4k

[a]
group_reporting
numjobs=2
rw=write

[b]
rw=read

[c]
group_reporting
rw=randread

[d]
new_group
group_reporting
rw=randwrite

[e]
group_reporting
stonewall
numjobs=2
rw=write
EOF
# group_reporting with a stonewall between the jobs: two groups
cat >stone.fio <<'EOF'
[global]
group_reporting
ioengine=null
size=4m
bs=4k

[w]
numjobs=3
rw=randwrite

[r]
stonewall
numjobs=2
rw=randread
EOF

for f in ex sep mixed groups stone; do
	expect_status 0 "$SSDLAB" run $f.fio --drive tiny --output-format=json,normal --output $f.out
	# the JSON, then the normal report
	python3 - $f <<'PY' || fail "$f: split"
import sys
f = sys.argv[1]
s = open(f + ".out").read()
a = s.index("{\n")
b = s.index("\n}\n", a) + 3
open(f + ".json", "w").write(s[a:b])
open(f + ".txt", "w").write(s[:a] + s[b:])
PY
done

# what fio 3.33 prints for them (checked with it: see below): per file the
# job lines at the top, the entries' lines, the JSON jobs' names, groups
# and "job options"
cat >want.py <<'PY'
want = {
    "ex": {
        "head": ["w: (g=0): rw=randwrite", "...", "r: (g=0): rw=randread", "..."],
        "entries": ["w: (groupid=0, jobs=5)"],
        "json": [("w", 0, {"numjobs": "2", "rw": "randread"})],
    },
    "sep": {
        "head": ["w: (g=0): rw=randwrite", "...", "r: (g=0): rw=randread", "..."],
        "entries": ["w: (groupid=0, jobs=1)"] * 3 + ["r: (groupid=0, jobs=1)"] * 2,
        "json": [("w", 0, {"numjobs": "3", "rw": "randwrite"})] * 3 +
                [("r", 0, {"numjobs": "2", "rw": "randread"})] * 2,
    },
    "mixed": {
        "head": ["a: (g=0): rw=write", "...", "b: (g=0): rw=read", "..."],
        "entries": ["a: (groupid=0, jobs=1)", "a: (groupid=0, jobs=3)"],
        "json": [("a", 0, {"numjobs": "2", "rw": "write"}),
                 ("a", 0, {"numjobs": "2", "rw": "read"})],
    },
    "groups": {
        "head": ["a: (g=0): rw=write", "...", "b: (g=0): rw=read",
                 "c: (g=0): rw=randread", "d: (g=1): rw=randwrite",
                 "e: (g=2): rw=write", "..."],
        "entries": ["a: (groupid=0, jobs=2)", "b: (groupid=0, jobs=2)",
                    "d: (groupid=1, jobs=1)", "e: (groupid=2, jobs=2)"],
        "json": [("a", 0, {"numjobs": "2", "rw": "write"}),
                 ("b", 0, {"rw": "randread"}),
                 ("d", 1, {"rw": "randwrite"}),
                 ("e", 2, {"numjobs": "2", "rw": "write"})],
    },
    "stone": {
        "head": ["w: (g=0): rw=randwrite", "...", "r: (g=1): rw=randread", "..."],
        "entries": ["w: (groupid=0, jobs=3)", "r: (groupid=1, jobs=2)"],
        "json": [("w", 0, {"numjobs": "3", "rw": "randwrite"}),
                 ("r", 1, {"numjobs": "2", "rw": "randread"})],
    },
}
PY
cat >structure.py <<'PY'
import json, re, sys
sys.path.insert(0, ".")
from want import want

def structure(txt, js):
    """The job lines at the top, the entries' lines and the JSON jobs'
    names, groups and job options of a report (fio's or ssdlab's)."""
    head, entries = [], []
    for line in open(txt):
        line = line.rstrip("\n")
        m = re.match(r"^(\S+: \(g=\d+\): rw=[a-z]+),", line)
        if m:
            head.append(m.group(1))
        elif line == "..." and head:
            head.append(line)
        m = re.match(r"^(\S+: \(groupid=\d+, jobs=\d+\)): err=", line)
        if m:
            entries.append(m.group(1))
    # fio 3.33 adds an empty object (groupid 4294967295, no jobname) when
    # a job without group_reporting is followed by one with it: left out
    jobs = [(j["jobname"], j["groupid"], j["job options"])
            for j in json.load(open(js))["jobs"] if "jobname" in j]
    return {"head": head, "entries": entries, "json": jobs}

if __name__ == "__main__":
    pre = sys.argv[1]
    bad = 0
    for f, w in want.items():
        got = structure("%s%s.txt" % (pre, f), "%s%s.json" % (pre, f))
        for k in w:
            if got[k] != w[k]:
                print("%s%s: %s %r, wanted %r" % (pre, f, k, got[k], w[k]))
                bad = 1
    sys.exit(bad)
PY
python3 structure.py "" || fail "ssdlab's entries are not fio's"

# the merged entry is the sum of the separate ones: each instance runs
# its own workload either way
python3 - <<'PY' || fail "merged figures"
import json
sep = json.load(open("sep.json"))["jobs"]
(g,) = json.load(open("ex.json"))["jobs"]
for d in ("read", "write"):
    for k in ("io_bytes", "total_ios"):
        s = sum(j[d][k] for j in sep)
        assert g[d][k] == s, (d, k, g[d][k], s)
    # each direction's runtime: the longest of the instances that did I/O
    # that way (fio's runtime[ddir]), not the other direction's
    rt = max(j[d]["runtime"] for j in sep)
    assert g[d]["runtime"] == rt, (d, g[d]["runtime"], rt)
    for k in ("min", "max"):
        f = min if k == "min" else max
        v = f(j[d]["clat_ns"][k] for j in sep if j[d]["total_ios"])
        assert g[d]["clat_ns"][k] == v, (d, k, g[d]["clat_ns"][k], v)
assert g["read"]["runtime"] != g["write"]["runtime"], g["read"]["runtime"]
# job_runtime sums the instances' (fio's total_run_time), to rounding
s = sum(j["job_runtime"] for j in sep)
assert abs(g["job_runtime"] - s) <= len(sep), (g["job_runtime"], s)
PY
# the group's aggregate bandwidth and I/O are the same either way (its
# min-max range is over its entries)
sed -nE 's/^ *(READ|WRITE): (bw=[^,]*),.*(io=.*), run=[0-9]+-([0-9]+)msec$/\1 \2 \3 \4/p' ex.txt >g1.txt
sed -nE 's/^ *(READ|WRITE): (bw=[^,]*),.*(io=.*), run=[0-9]+-([0-9]+)msec$/\1 \2 \3 \4/p' sep.txt >g2.txt
[ -s g1.txt ] && cmp -s g1.txt g2.txt || { cat g1.txt g2.txt >&2; fail "Run status group lines differ"; }

# real fio gives the same structure for the same files
if have fio; then
	for f in ex sep mixed groups stone; do
		fio --output-format=json --output=fio-$f.json $f.fio >fio.log 2>&1 ||
			{ cat fio.log >&2; fail "fio $f.fio"; }
		fio --output=fio-$f.txt $f.fio >fio.log 2>&1 ||
			{ cat fio.log >&2; fail "fio $f.fio"; }
	done
	python3 structure.py fio- || fail "fio's entries are not the ones this test expects"
else
	skip_part "fio is not installed: its structure not compared"
fi

# --- a job's error ends only that job, as in fio ---

# a zoned drive refuses [w]'s random writes (Zone Invalid Write); the
# stonewalled [r] still runs, and so does [side], beside [w]
cat >zerr.fio <<'EOF'
[w]
rw=randwrite
size=16m

[side]
rw=read
size=1m

[r]
stonewall
rw=read
size=16m
EOF
expect_status 1 "$SSDLAB" run zerr.fio --drive tiny --set mapping=zone --output-format=json --output zerr.json
[ "$(grep -c "^ssdlab: job 'w': write command at offset [0-9]*, 4096 bytes: Zone Invalid Write" out.txt)" -eq 1 ] &&
	[ "$(grep -c . out.txt)" -eq 1 ] || { cat out.txt >&2; fail "zoned refusal: one line for job w"; }
python3 - <<'PY' || fail "zoned refusal"
import json
jobs = {j["jobname"]: j for j in json.load(open("zerr.json"))["jobs"]}
assert sorted(jobs) == ["r", "side", "w"], sorted(jobs)
assert jobs["w"]["error"] == 5, jobs["w"]["error"]
assert jobs["side"]["error"] == 0 and jobs["side"]["read"]["io_bytes"] == 1 << 20, jobs["side"]
assert jobs["r"]["error"] == 0 and jobs["r"]["read"]["io_bytes"] == 16 << 20, jobs["r"]
PY
# reported with the job before it (group_reporting), the failing job is
# named in the entry's message: the entry is the other job's
cat >zgr.fio <<'EOF'
[global]
group_reporting

[r]
rw=read
size=1m

[w]
rw=randwrite
size=16m
EOF
expect_status 1 "$SSDLAB" run zgr.fio --drive tiny --set mapping=zone --output-format=json,normal --output zgr.out
grep -q "^ssdlab: job 'w': write command at offset [0-9]*, 4096 bytes: Zone Invalid Write" out.txt &&
	[ "$(grep -c . out.txt)" -eq 1 ] || { cat out.txt >&2; fail "zgr: one line naming job w"; }
grep -q '^r: (groupid=0, jobs=2): err= 5 (Zone Invalid Write' zgr.out &&
	grep -q "^  ssdlab: error: job 'w': write command at offset" zgr.out ||
	{ cat zgr.out >&2; fail "zgr: the entry's error"; }
# a TRIM on a drive without one: fio's EOPNOTSUPP ends the job, not the run
cat >terr.fio <<'EOF'
[t]
rw=randtrim
size=1m

[r]
stonewall
rw=read
size=1m
EOF
expect_status 1 "$SSDLAB" run terr.fio --drive tiny --set trim=no --output-format=json --output terr.json
python3 - <<'PY' || fail "no TRIM"
import json
jobs = {j["jobname"]: j for j in json.load(open("terr.json"))["jobs"]}
assert sorted(jobs) == ["r", "t"], sorted(jobs)
assert jobs["t"]["error"] == 95, jobs["t"]["error"]
assert jobs["r"]["error"] == 0 and jobs["r"]["read"]["io_bytes"] == 1 << 20, jobs["r"]
PY
# the help says so
"$SSDLAB" run --help >help.txt 2>&1 || true
tr '\n' ' ' <help.txt | grep -q "that ends only the job: *the other jobs and the later groups go on" ||
	fail "run --help: a job's error"
# fio: a write to /dev/full fails (ENOSPC), [side] and the stonewalled [r]
# run on
if have fio && [ -w /dev/full ]; then
	cat >ferr.fio <<'EOF'
[w]
filename=/dev/full
rw=write
size=1m

[side]
ioengine=null
size=1m
rw=read

[r]
stonewall
ioengine=null
size=1m
rw=read
EOF
	set +e
	fio --output-format=json --output=ferr.json ferr.fio >fio.log 2>&1
	st=$?
	set -e
	[ "$st" -eq 1 ] || { cat fio.log >&2; fail "fio: exit $st on a job's error"; }
	python3 - <<'PY' || fail "fio on a job's error"
import json
jobs = {j["jobname"]: j for j in json.load(open("ferr.json"))["jobs"]}
assert jobs["w"]["error"] == 28, jobs["w"]["error"]
assert jobs["side"]["read"]["io_bytes"] == 1 << 20 and jobs["r"]["read"]["io_bytes"] == 1 << 20, jobs
PY
fi
exit 0
