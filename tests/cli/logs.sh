# write_iops_log / write_bw_log / write_lat_log: fio's file names
# (PREFIX_KIND.N.log, N the job's number in the file, from 1) and fio
# 3.33's line format "time, value, ddir, bs, prio", with the offset before
# prio under log_offset=1.
. "$TOP/tests/cli/lib.inc"

cat >j.fio <<'EOF'
[global]
bs=4k
iodepth=4
size=16m

[avg]
rw=randwrite
io_size=12m
write_iops_log=pre
write_bw_log=pre
write_lat_log=pre
log_avg_msec=100

[each]
stonewall
rw=randrw
io_size=1m
write_lat_log
write_bw_log=sub
log_offset=1
EOF
expect_status 0 "$SSDLAB" run j.fio --drive tiny --output-format=json --output out.json

for k in iops bw lat clat slat; do
	[ -s "pre_$k.1.log" ] || { ls >&2; fail "no pre_$k.1.log"; }
done
# a bare write_lat_log names the logs after the job; job 2 is numbered 2
for f in each_lat.2.log each_clat.2.log each_slat.2.log sub_bw.2.log; do
	[ -s "$f" ] || { ls >&2; fail "no $f"; }
done
for f in pre_iops.2.log pre_bw.2.log each_iops.2.log each_bw.2.log sub_lat.2.log pre_lat.0.log; do
	[ ! -e "$f" ] || fail "unexpected log $f"
done

# every line: five (six with log_offset) comma-separated whole numbers;
# times never go back; ddir 0 (read), 1 (write) or 2 (trim); prio 0
check_format() {
	awk -F', ' -v nf="$2" '
	NF != nf { print FILENAME ":" NR ": " NF " fields: " $0; bad = 1; exit }
	$NF != 0 { print FILENAME ":" NR ": prio " $NF; bad = 1; exit }
	{
		for (i = 1; i <= nf; i++)
			if ($i !~ /^[0-9]+$/) { print FILENAME ":" NR ": field " i " not a number: " $0; bad = 1; exit }
		if (NR > 1 && $1 + 0 < last) { print FILENAME ":" NR ": time goes back: " $0; bad = 1; exit }
		if ($3 > 2) { print FILENAME ":" NR ": ddir " $3; bad = 1; exit }
		last = $1 + 0
	}
	END { exit bad }' "$1" || fail "$1: not fio's log format"
}
for f in pre_*.1.log; do
	check_format "$f" 5
done
for f in each_*.2.log sub_bw.2.log; do
	check_format "$f" 6
done

# averaged logs: one line a window, stamped with the window's end (a
# multiple of 100 ms), bs 0, writes only; in the latency logs the last,
# partial window is written once, stamped with the job's end, in whole ms
# (so it may repeat the time of the window before it); the iops and bw
# logs keep whole windows only, as fio 3.33
for f in pre_iops.1.log pre_bw.1.log; do
	awk -F', ' '$1 % 100 != 0 { print FILENAME ": partial window " $0; exit 1 }' "$f" ||
		fail "$f: a partial window"
done
last=$(tail -n 1 pre_lat.1.log | cut -d, -f1)
[ "$(grep -c "^$last," pre_lat.1.log)" -le 2 ] || fail "pre_lat.1.log: last window written twice"
for f in pre_*.1.log; do
	awk -F', ' '
	{ t[NR] = $1 }
	$3 != 1 || $4 != 0 || $5 != 0 { print FILENAME ":" NR ": " $0; bad = 1 }
	END {
		for (i = 1; i < NR; i++)
			if (t[i] % 100 != 0 || t[i] != 100 * i ||
			    (i < NR - 1 && t[i + 1] == t[i])) {
				print FILENAME ": times " t[i] ", " t[i + 1]; bad = 1
			}
		if (NR < 2 || t[NR] <= 100 * (NR - 2)) { print FILENAME ": last time " t[NR]; bad = 1 }
		exit bad
	}' "$f" || fail "$f: not one line per 100 ms window"
done
# slat is 0: submission takes no simulated time
awk -F', ' '$2 != 0 { exit 1 }' pre_slat.1.log || fail "pre_slat.1.log: nonzero slat"
# iops windows add up to the job's I/Os, lat and clat agree
cmp -s pre_lat.1.log pre_clat.1.log || fail "lat and clat logs differ (slat is 0)"

# per-I/O logs (no log_avg_msec): one line an I/O, with its size and offset
if have python3; then
	python3 - out.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
def rows(path):
    with open(path) as f:
        return [[int(x) for x in line.split(", ")] for line in f]
avg, each = d["jobs"]
# averaged: about one line per 100 ms of the job's run
n = len(rows("pre_iops.1.log"))
rt = avg["job_runtime"]
if not (rt // 100 <= n <= rt // 100 + 1):
    die("pre_iops.1.log: %d lines for a %d ms job" % (n, rt))
# the windows' IOPS average to about the job's IOPS
rs = rows("pre_iops.1.log")
ios = sum(r[1] * (r[0] - (rs[i - 1][0] if i else 0)) for i, r in enumerate(rs)) / 1000.0
# (short of the last, partial window, which the iops log leaves out)
tot = avg["write"]["total_ios"]
win = max(r[1] for r in rs) * 0.1
if ios > tot * 1.02 + 2 or ios < tot - win - 0.02 * tot - 2:
    die("pre_iops.1.log adds up to %.0f I/Os, the job did %d" % (ios, tot))
# lat: every window's mean lies between the job's min and max latency
c = avg["write"]["clat_ns"]
for r in rows("pre_lat.1.log"):
    if not c["min"] <= r[1] <= c["max"]:
        die("pre_lat.1.log: %r outside [%d, %d]" % (r, c["min"], c["max"]))
# per I/O: a line for each, value the latency, bs 4096, offset in the region
for path in ("each_lat.2.log", "each_clat.2.log", "sub_bw.2.log"):
    rs = rows(path)
    nr = sum(1 for r in rs if r[2] == 0)
    nw = sum(1 for r in rs if r[2] == 1)
    if nr != each["read"]["total_ios"] or nw != each["write"]["total_ios"]:
        die("%s: %d reads + %d writes, the job did %d + %d" % (path, nr, nw,
            each["read"]["total_ios"], each["write"]["total_ios"]))
    for r in rs:
        if r[3] != 4096 or r[4] % 4096 or r[4] >= 16 << 20:
            die("%s: bs/offset %r" % (path, r))
for r in rows("each_lat.2.log"):
    dd = each["read" if r[2] == 0 else "write"]["clat_ns"]
    if not dd["min"] <= r[1] <= dd["max"]:
        die("each_lat.2.log: %r outside [%d, %d]" % (r, dd["min"], dd["max"]))
# the job's start is time 0 of its logs
if rows("each_lat.2.log")[-1][0] > each["job_runtime"] + 1:
    die("each_lat.2.log ends after the job: %r" % rows("each_lat.2.log")[-1])
EOF
else
	skip_part "python3 is not installed: the per-I/O logs against the JSON report"
fi
exit 0
