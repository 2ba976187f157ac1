# fio's own tools read what ssdlab writes: fio_jsonplus_clat2csv its
# json+, fiologparser.py its logs, fiologparser_hist.py its histogram
# log, fio2gnuplot its bandwidth log; each must produce real rows
# (numbers, not an empty file).
. "$TOP/tests/cli/lib.inc"

need fio fio_jsonplus_clat2csv python3
DOC=/usr/share/doc/fio
# fio's scripts are Debian's, for Debian's python3 and its modules
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

cat >j.fio <<'EOF2'
[global]
ioengine=psync
size=4m
bs=4k
iodepth=4

[w]
rw=randwrite
io_size=8m
fsync=16
write_lat_log=w
write_bw_log=w
write_iops_log=w
write_hist_log=w
log_hist_msec=5
log_avg_msec=5
EOF2
expect_status 0 "$SSDLAB" run j.fio --drive tiny --output-format=json+ --output out.json
for f in w_lat.1.log w_clat.1.log w_bw.1.log w_iops.1.log w_clat_hist.1.log; do
	[ -s "$f" ] || fail "no $f"
done

# numbers: at least `min` rows whose first field and another are numbers
rows() {
	awk -F', *' -v min="$2" '$1 ~ /^[0-9.]+$/ {
			for (i = 2; i <= NF; i++)
				if ($i ~ /^[0-9.]+$/) { n++; break }
		}
		END { if (n < min) { print FILENAME ": " n " rows of numbers"; exit 1 } }' "$1"
}

# fio_jsonplus_clat2csv: a CSV per job, a row per latency bin
fio_jsonplus_clat2csv out.json clat.csv >tool.out 2>&1 || { cat tool.out >&2; fail "fio_jsonplus_clat2csv failed"; }
[ -s clat_job0.csv ] || { ls >&2; fail "fio_jsonplus_clat2csv wrote no clat_job0.csv"; }
rows clat_job0.csv 5 || fail "fio_jsonplus_clat2csv: no latency rows"
# the write clat counts of its rows add up to the writes
"$PY" - out.json clat_job0.csv <<'PY' || fail "fio_jsonplus_clat2csv rows do not add up"
import json, sys
d = json.load(open(sys.argv[1]))
lines = [l.split(",") for l in open(sys.argv[2])]
col = [c.strip() for c in lines[0]].index("write_clat_ns_count")
n = sum(int(l[col]) for l in lines[1:] if l[col].strip())
want = d["jobs"][0]["write"]["total_ios"]
if n != want:
    print("FAIL: csv counts %d writes, the report %d" % (n, want), file=sys.stderr)
    sys.exit(1)
PY

# fiologparser.py: sums per interval.  fio 3.33's copy reads only four
# columns (it fails on fio 3.33's own five-column logs in the same way),
# so it gets the first four.
zcat "$DOC/fiologparser.py.gz" >fiologparser.py
cut -d, -f1-4 w_bw.1.log >w_bw4.log
"$PY" fiologparser.py -s -i 10 w_bw4.log >parsed.txt 2>tool.out || { cat tool.out >&2; fail "fiologparser.py failed"; }
rows parsed.txt 3 || fail "fiologparser.py: no rows"

# fiologparser_hist.py: percentiles per interval from the histogram log
zcat "$DOC/fiologparser_hist.py.gz" >fiologparser_hist.py
if "$PY" -c 'import numpy, pandas' 2>/dev/null; then
	"$PY" fiologparser_hist.py -i 10 w_clat_hist.1.log >hist.txt 2>tool.out ||
		{ cat tool.out >&2; fail "fiologparser_hist.py failed"; }
	rows hist.txt 2 || { cat hist.txt >&2; fail "fiologparser_hist.py: no rows"; }
	# the samples it counts are the job's completions
	awk -F', *' 'NR > 1 { n += $2 } END { print n }' hist.txt >n.txt
	[ "$(cat n.txt)" -gt 0 ] || fail "fiologparser_hist.py counts no samples"
else
	skip_part "fiologparser_hist.py needs numpy and pandas (python3-pandas), not installed"
fi

# fio2gnuplot: renders the bandwidth log with gnuplot, headless
if have gnuplot && have fio2gnuplot; then
	mkdir plot && cp w_bw.1.log plot/
	(cd plot && fio2gnuplot -b -g >../tool.out 2>&1) || { cat tool.out >&2; fail "fio2gnuplot failed"; }
	ls plot/*.png >/dev/null 2>&1 || { cat tool.out >&2; fail "fio2gnuplot drew nothing"; }
	for f in plot/*.png; do
		[ -s "$f" ] || fail "fio2gnuplot: empty $f"
	done
else
	skip_part "fio2gnuplot and gnuplot are not both installed: no bandwidth chart"
fi
exit 0
