# Each job's figures cover one window: the commands submitted after its
# ramp, until the job ends (its think time included).  fio's figures and
# the ssdlab section agree on it, and idle time the host spends thinking
# at the end of a job is idle time for the drive: background GC runs in
# it, before the next stonewalled job starts.
. "$TOP/tests/cli/lib.inc"

cat >j.fio <<'EOF'
[global]
bs=4k
iodepth=32

[fill]
rw=write
bs=128k

[overwrite]
stonewall
rw=randwrite

[ramped]
stonewall
rw=randwrite
bs=8k
ramp_time=2s
runtime=2s
time_based

[idle]
stonewall
rw=randwrite
iodepth=1
io_size=4k
thinktime=60s

[next]
stonewall
rw=randwrite
iodepth=1
io_size=4k
EOF
expect_status 0 "$SSDLAB" run j.fio --drive tiny --output-format=json --output out.json
need python3
python3 - out.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
jobs = {j["jobname"]: j for j in d["jobs"]}
ov, r, i, n = (jobs[k] for k in ("overwrite", "ramped", "idle", "next"))

# ramp_time counts in no figure: 2 host pages per 8 KiB write fio counts
ios = r["write"]["total_ios"]
if not ios or r["ssdlab"]["host_pages_written"] != 2 * ios:
    die("ramped: %d pages written in the window, fio counts %d writes of 8 KiB"
        % (r["ssdlab"]["host_pages_written"], ios))
if abs(r["job_start"] - (ov["job_start"] + ov["job_runtime"] + 2000)) > 1:
    die("ramped: window starts at %d ms, wanted 2 s after the overwrite" % r["job_start"])

# one write, then 60 s of thinking: the job lasts that long, the drive
# cleans meanwhile
if i["write"]["total_ios"] != 1 or not 60000 <= i["job_runtime"] < 61000:
    die("idle: %d writes in %d ms" % (i["write"]["total_ios"], i["job_runtime"]))
si = i["ssdlab"]
if not si["gc_bg_copied_pages"] > 0 or not si["free_blocks"] > r["ssdlab"]["free_blocks"]:
    die("idle: no background GC in 60 s of idle time: %d copies, %d -> %d free blocks"
        % (si["gc_bg_copied_pages"], r["ssdlab"]["free_blocks"], si["free_blocks"]))
# the next group starts when the idle job has really ended
if n["job_start"] < i["job_start"] + 60000:
    die("next: starts at %d ms, the idle job at %d ms" % (n["job_start"], i["job_start"]))
EOF
