# The order of jobs as fio runs them: startdelay (a value or a range, from
# the start of the run), wait_for, new_group (reporting groups), exitall
# and exitall_on_error, flow (token-based throttling between jobs), and
# end_fsync / fsync_on_close (a flush at the job's end).
. "$TOP/tests/cli/lib.inc"
need python3

runj() { # FILE: run it on the tiny drive into FILE.json
	expect_status 0 "$SSDLAB" run "$1" --drive tiny --output-format=json --output "$1.json"
}

cat >order.fio <<'EOF'
[global]
rw=randwrite
bs=4k
runtime=100ms
time_based
[a]
[b]
startdelay=50ms
[c]
wait_for=a
new_group
[d]
startdelay=10ms-40ms
numjobs=4
rw=randread
runtime=20ms
[e]
stonewall
startdelay=100ms
runtime=50ms
[f]
startdelay=250ms
runtime=50ms
EOF
runj order.fio
python3 - <<'PY'
import json
j = json.load(open("order.fio.json"))["jobs"]
s = {}
for x in j:
    s.setdefault(x["jobname"], []).append((x["groupid"], x["job_start"], x["job_runtime"]))
print(s)
assert s["a"] == [(0, 0, 100)] and s["b"] == [(0, 50, 100)], s
# c waits for a (ends at 100 ms) and opens reporting group 1
assert s["c"] == [(1, 100, 100)], s
d = [x[1] for x in s["d"]]
assert all(x[0] == 1 for x in s["d"]) and all(10 <= t <= 40 for t in d), d
assert len(set(d)) > 1, ("each clone draws its own delay", d)
# the second stonewall group starts at 200 ms; startdelay counts from the
# run's start, as in fio: 100 ms has passed, 250 ms has not
assert s["e"] == [(2, 200, 50)] and s["f"] == [(2, 250, 50)], s
PY
# the range is drawn from the job's stream: same seed, same delays
runj order.fio
cp order.fio.json o1.json
runj order.fio
cmp -s o1.json order.fio.json || python3 - <<'PY'
import json
a = [x["job_start"] for x in json.load(open("o1.json"))["jobs"]]
b = [x["job_start"] for x in json.load(open("order.fio.json"))["jobs"]]
assert a == b, (a, b)
PY

# exitall: the first job to end ends its reporting group (not the next)
cat >exit.fio <<'EOF'
[global]
exitall
rw=randread
bs=4k
[short]
rw=randwrite
io_size=1m
[long]
runtime=10
time_based
[late]
startdelay=5
runtime=1
time_based
[other]
new_group
runtime=300ms
time_based
EOF
runj exit.fio
python3 - <<'PY'
import json
j = {x["jobname"]: x for x in json.load(open("exit.fio.json"))["jobs"]}
end = j["short"]["job_runtime"]
assert end < 200, end
assert j["long"]["job_runtime"] <= end + 1, (j["long"]["job_runtime"], end)
# a job still in its startdelay never starts
assert j["late"]["read"]["total_ios"] == 0, j["late"]["read"]
assert j["other"]["job_runtime"] == 300, j["other"]["job_runtime"]
PY

# exitall_on_error: a job ending in error (rate_min not met) ends its
# group; without it the other job runs on
cat >err.fio <<'EOF'
[fill]
rw=write
bs=128k
iodepth=16
[bad]
stonewall
rw=randwrite
bs=4k
iodepth=32
rate_min=500m
runtime=20
time_based
exitall_on_error
[good]
rw=randread
bs=4k
runtime=20
time_based
EOF
set +e
"$SSDLAB" run err.fio --drive tiny --output-format=json --output err.json 2>/dev/null
st=$?
set -e
[ "$st" -eq 1 ] || fail "exitall_on_error: exit $st"
sed -e '/exitall_on_error/d' err.fio >noerr.fio
set +e
"$SSDLAB" run noerr.fio --drive tiny --output-format=json --output noerr.json 2>/dev/null
set -e
python3 - <<'PY'
import json
j = {x["jobname"]: x for x in json.load(open("err.json"))["jobs"]}
assert j["bad"]["error"] == 5 and j["good"]["error"] == 0
# its I/O in flight still completes (behind GC here)
assert j["good"]["job_runtime"] <= j["bad"]["job_runtime"] + 100, (j["good"]["job_runtime"], j["bad"]["job_runtime"])
j = {x["jobname"]: x for x in json.load(open("noerr.json"))["jobs"]}
assert j["bad"]["error"] == 5 and j["good"]["job_runtime"] == 20000
PY

# flow: jobs of one flow_id issue in the ratio of their weights, with or
# without flow_sleep; another flow_id is not held back
cat >flow.fio <<'EOF'
[global]
rw=randwrite
bs=4k
iodepth=4
runtime=1
time_based
[two]
flow=2
[one]
flow=1
[three]
flow_id=1
flow=3
flow_sleep=100
[onemore]
flow_id=1
flow=1
flow_sleep=100
EOF
runj flow.fio
python3 - <<'PY'
import json
n = {x["jobname"]: x["write"]["total_ios"] for x in json.load(open("flow.fio.json"))["jobs"]}
print(n)
assert abs(n["two"] / n["one"] - 2) < 0.02, n
assert abs(n["three"] / n["onemore"] - 3) < 0.05, n
PY

# end_fsync / fsync_on_close: one flush of the write cache at the end of
# a job that wrote (both: still one; a reading job: none); the job waits
cat >sync.fio <<'EOF'
[global]
rw=randwrite
bs=4k
io_size=1m
stonewall
[none]
[end]
end_fsync=1
[close]
fsync_on_close=1
[both]
end_fsync=1
fsync_on_close=1
[reader]
rw=randread
end_fsync=1
EOF
runj sync.fio
python3 - <<'PY'
import json
n = {x["jobname"]: x["ssdlab"]["host_flushes"] for x in json.load(open("sync.fio.json"))["jobs"]}
assert n == {"none": 0, "end": 1, "close": 1, "both": 1, "reader": 0}, n
PY
