# A sweep's table and page (docs/sweeps.md "The table", docs/report.md):
# a job file's columns are the same whatever its points did -- every
# direction's figures, in a fixed order, empty where a point had none --
# so two sweeps' tables line up; and a chart's line joins its points in
# the order of x (numbers with units: 32m < 48m < 64m), not in the sweep
# file's order.
. "$TOP/tests/cli/lib.inc"
need python3
printf '[w]\nrw=randwrite\nbs=4k\niodepth=16\nio_size=4m\n' >w.fio
printf '[w]\nrw=write\nbs=128k\niodepth=16\n[r]\nstonewall\nrw=randread\nbs=4k\niodepth=16\nio_size=4m\n' >r.fio
printf '[sweep]\ndrive = tiny\nset.capacity = 32m, 64m, 48m\njob = w.fio\n' >w.sweep
printf '[sweep]\ndrive = tiny\nset.capacity = 32m, 64m, 48m\njob = r.fio\n' >r.sweep
for s in w r; do
	expect_status 0 "$SSDLAB" sweep run $s.sweep --dir $s -j 2
	expect_status 0 "$SSDLAB" sweep collect $s.sweep --dir $s
done
# the header, exactly as docs/sweeps.md lists it, for both
want="index,id,drive,set.capacity,job,status,error,measured_job"
for d in read write trim; do
	for f in iops bw_bytes clat_mean_ns clat_p50_ns clat_p99_ns clat_p99.9_ns; do
		want="$want,$d.$f"
	done
done
want="$want,waf,host_pages_written,nand_pages_programmed,gc_copied_pages,blocks_erased,erase_count.min,erase_count.mean,erase_count.max,health.percentage_used"
for s in w r; do
	[ "$(head -n 1 $s/results.csv)" = "$want" ] || fail "$s: header $(head -n 1 $s/results.csv)"
done
python3 - <<'PY' || fail "the cells"
import csv
w = list(csv.DictReader(open("w/results.csv")))
r = list(csv.DictReader(open("r/results.csv")))
# a write-only point: its read percentiles empty, its write ones not
assert all(x["read.clat_p99_ns"] == "" and x["write.clat_p99_ns"] != "" for x in w), w
assert all(x["read.clat_p99_ns"] != "" for x in r), r
PY
# the page: each line's x coordinates grow
expect_status 0 "$SSDLAB" report sweep w
python3 - <<'PY' || fail "a chart's line goes back"
import re
html = open("w/report.html").read()
lines = re.findall(r'stroke-width="1.5" d="(M[0-9. L]+)"', html)
assert lines, "no line"
for d in lines:
    xs = [float(p.split()[0]) for p in d[1:].split("L")]
    assert len(xs) == 3, d
    assert xs == sorted(xs), d
PY
