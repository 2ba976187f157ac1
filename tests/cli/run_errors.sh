# A job that ends in error still gets its report: the error is in the
# job's result (fio's "err=" / "error", the ssdlab error kind and message),
# the text and JSON reports are written whole, the log files are closed,
# stderr has one line naming the job and what failed, and the exit status
# is 1.  The failure here is a latency log that cannot be written (its
# file is /dev/full).
. "$TOP/tests/cli/lib.inc"

[ -w /dev/full ] || skip "no writable /dev/full here"

cat >j.fio <<'EOF'
[global]
bs=64k

[logged]
rw=write
size=4m
write_lat_log=w

[after]
stonewall
rw=read
size=4m
EOF
ln -s /dev/full w_clat.1.log

set +e
"$SSDLAB" run j.fio --drive tiny >out.txt 2>err.txt
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat err.txt >&2; fail "text: exit $rc, wanted 1"; }
[ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt >&2; fail "text: wanted one line of error"; }
grep -qx "[^ ]*ssdlab: job 'logged': cannot write 'w_clat.1.log': No space left on device" err.txt ||
	{ cat err.txt >&2; fail "text: stderr names the job and the log"; }
grep -qx 'logged: (groupid=0, jobs=1): err= 5 (input/output error)' out.txt ||
	{ cat out.txt >&2; fail "text: the job's err= line"; }
grep -qx "  ssdlab: error: cannot write 'w_clat.1.log': No space left on device" out.txt ||
	{ cat out.txt >&2; fail "text: the job's ssdlab error line"; }
# the whole report: both jobs, their run-status groups, the drive block
grep -qx 'after: (groupid=1, jobs=1): err= 0' out.txt || fail "text: the second job"
[ "$(grep -c '^Run status group' out.txt)" -eq 2 ] || fail "text: run status groups"
[ "$(grep -c '^  write: IOPS=' out.txt)" -eq 1 ] || fail "text: the write line"
# the other logs were written and closed
for f in w_lat.1.log w_slat.1.log; do
	[ "$(wc -l <"$f")" -eq 64 ] || fail "$f: wanted 64 lines"
done

set +e
"$SSDLAB" run j.fio --drive tiny --output-format=json --output out.json 2>err.txt
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat err.txt >&2; fail "json: exit $rc, wanted 1"; }
[ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt >&2; fail "json: wanted one line of error"; }
if ! have python3; then
	grep -q '"error" : 5,' out.json || fail "json: fio's error"
	grep -q "\"error_message\" : \"cannot write 'w_clat.1.log': No space left on device\"" out.json ||
		fail "json: error_message"
	skip "python3 is not installed: the JSON report checked by grep only"
fi
python3 - out.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
jobs = {j["jobname"]: j for j in d["jobs"]}
if sorted(jobs) != ["after", "logged"]:
    die("jobs %r" % sorted(jobs))
l, a = jobs["logged"], jobs["after"]
if l["error"] != 5 or l["ssdlab"].get("error") != "input/output error":
    die("logged: error %r / %r" % (l["error"], l["ssdlab"].get("error")))
if l["ssdlab"].get("error_message") != "cannot write 'w_clat.1.log': No space left on device":
    die("logged: error_message %r" % l["ssdlab"].get("error_message"))
if l["write"]["io_bytes"] != 4 << 20 or l["ssdlab"]["host_pages_written"] != 1024:
    die("logged: its figures %r" % l["write"]["io_bytes"])
if a["error"] != 0 or "error" in a["ssdlab"] or a["read"]["io_bytes"] != 4 << 20:
    die("after: %r %r" % (a["error"], a["read"]["io_bytes"]))
EOF
