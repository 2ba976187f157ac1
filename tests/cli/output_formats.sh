# --output-format (normal, json, json+, terse, comma lists in fio's
# order), --minimal, the status line (--eta), per_job_logs=0, the
# histogram log's coarseness and fio's JSON keys a simulation fills.
. "$TOP/tests/cli/lib.inc"

cat >j.fio <<'EOF2'
[global]
size=8m
bs=4k

[w]
rw=randwrite
iodepth=8
io_size=4m
fsync=32

[r]
stonewall
rw=randread
io_size=2m
numjobs=2
write_iops_log=p
per_job_logs=0
write_hist_log=h
log_hist_msec=2
log_hist_coarseness=2
EOF2
run() { "$SSDLAB" run j.fio --drive tiny "$@"; }

# terse: fio's version 3 line a job, 130 fields; --minimal is the same
run --output-format=terse >t.txt 2>t.err || fail "terse run failed"
[ "$(grep -c '^3;ssdlab-' t.txt)" -eq 3 ] || { cat t.txt >&2; fail "not 3 terse lines"; }
awk -F';' 'NF != 130 { print NR ": " NF " fields"; exit 1 }' t.txt || fail "terse field count"
grep -q '^3;ssdlab-[0-9.]*;w;0;0;' t.txt || fail "terse: job w"
rm -f p_iops.log
run --minimal >m.txt || fail "--minimal run failed"
cmp -s t.txt m.txt || fail "--minimal differs from --output-format=terse"
[ ! -s t.err ] || { cat t.err >&2; fail "stderr not empty without a terminal"; }

# a list: the job lines, then terse, JSON, the text report
rm -f p_iops.log
run --output-format=json,normal,terse >all.txt || fail "list run failed"
awk '/^w: \(g=0\)/ && !a { a = NR } /^3;ssdlab/ && !b { b = NR }
     /^\{$/ && !c { c = NR } /^Run status group/ && !d { d = NR }
     END { exit !(a && b && c && d && a < b && b < c && c < d) }' all.txt ||
	fail "formats not in fio's order"

# the text report: the flush block and the depth lines
grep -q '^  fsync/fdatasync/sync_file_range:$' all.txt || fail "no sync block"
grep -Eq '^    sync \((n|u|m)sec\): min=' all.txt || fail "no sync latency line"
grep -Eq '^  IO depths    : 1=[0-9.]+%, 2=[0-9.]+%, 4=[0-9.]+%, 8=[0-9.]+%' all.txt || fail "no IO depths line"
grep -Eq '^     issued rwts: total=0,1024,0,31 ' all.txt || fail "issued rwts: $(grep issued all.txt)"

# JSON: options as written, sync, depths
rm -f p_iops.log
run --output-format=json+ --output o.json || fail "json+ run failed"
if have python3; then
	python3 - o.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def die(m):
    print("FAIL:", m, file=sys.stderr); sys.exit(1)
if d["global options"] != {"size": "8m", "bs": "4k"}:
    die("global options %r" % d["global options"])
w, r = d["jobs"][0], d["jobs"][1]
if w["job options"] != {"rw": "randwrite", "iodepth": "8", "io_size": "4m", "fsync": "32"}:
    die("job options %r" % w["job options"])
if w["sync"]["total_ios"] != 31 or w["sync"]["lat_ns"]["N"] != 31:
    die("sync %r" % w["sync"])
if sum(w["sync"]["lat_ns"]["bins"].values()) != 31:
    die("sync bins")
# iodepth=8: the submissions keep 8 at the drive ("8" covers 8..15)
lv = w["iodepth_level"]
if lv["8"] < 90:
    die("iodepth_level %r" % lv)
if w["iodepth_submit"]["4"] != 100.0 or w["latency_depth"] != 8:
    die("iodepth_submit / latency_depth")
# reads at depth 1
if r["iodepth_level"]["1"] != 100.0:
    die("read iodepth_level %r" % r["iodepth_level"])
if d["timestamp"] != 0 or w["usr_cpu"] != 0 or w["elapsed"] < 1:
    die("timestamp / usr_cpu / elapsed")
PY
else
	skip_part "python3 is not installed: the json+ report's options, sync and depths"
fi

# per_job_logs=0: one file for both clones, without the job number, one
# block each (times rise within a block), and appended to by a new run
[ -s p_iops.log ] && [ ! -e p_iops.2.log ] || { ls >&2; fail "per_job_logs=0: file names"; }
[ "$(wc -l <p_iops.log)" -eq 1024 ] || fail "p_iops.log: $(wc -l <p_iops.log) lines, wanted 2 x 512"
awk -F', ' 'NR > 1 && $1 + 0 < last { drops++ } { last = $1 + 0 }
	END { exit drops > 1 }' p_iops.log || fail "p_iops.log: not one block per job"
run >/dev/null || fail "second run failed"
[ "$(wc -l <p_iops.log)" -eq 2048 ] || fail "p_iops.log not appended to"

# the histogram log: coarseness 2 gives 1856 / 4 = 464 bins after the
# three leading columns; per_job_logs=0 holds for it too
for f in h_clat_hist.log; do
	[ -s "$f" ] || { ls >&2; fail "no $f"; }
	awk -F', ' 'NF != 467 { print NF; exit 1 } $2 != 0 || $3 != 4096 { exit 1 }' "$f" ||
		fail "$f: not fio's histogram line"
done

# the status line: on stderr with --eta=always, nothing with never, and
# the report is the same either way
run --output-format=json --eta=always --output e1.json 2>eta.txt || fail "eta run failed"
grep -Eq 'Jobs: [0-9]+ \(f=[0-9]+\): \[.*\]\[100\.0%\]\[.*\]\[.* IOPS\]\[eta [0-9]+m:[0-9]+s\]' eta.txt ||
	{ cat eta.txt >&2; fail "no status line"; }
run --output-format=json --eta=never --output e2.json 2>eta2.txt || fail "eta=never run failed"
[ ! -s eta2.txt ] || fail "--eta=never printed something"
grep -v wall e1.json >e1.txt
grep -v wall e2.json >e2.txt
cmp -s e1.txt e2.txt || fail "the status line changed the report"

# bad values: one line, exit 2
expect_err 2 "output-format must be normal, json, json\+, terse" "$SSDLAB" run j.fio --output-format=xml
expect_err 2 "output-format" "$SSDLAB" run j.fio --output-format=json,
expect_err 2 "terse-version: only 3" "$SSDLAB" run j.fio --terse-version=4
expect_err 2 "eta must be auto, always or never" "$SSDLAB" run j.fio --eta=sometimes
expect_err 2 "eta-interval.*at least 250 ms" "$SSDLAB" run j.fio --eta-interval=100ms
expect_err 2 "eta-newline" "$SSDLAB" run j.fio --eta-newline=soon
exit 0
