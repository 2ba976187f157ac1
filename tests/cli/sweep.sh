# Sweeps (docs/sweeps.md): plan, run and collect; a point that ended is
# skipped, one cut short runs again, a failed one is recorded with its
# error; -j 2 gives the same table as -j 1 and as point-by-point runs;
# every bad sweep file fails in one line naming the file and the line.
. "$TOP/tests/cli/lib.inc"
need python3
cat >rw.fio <<'EOF2'
[fill]
rw=write
bs=128k
iodepth=16
[measure]
stonewall
rw=randwrite
bs=4k
iodepth=16
io_size=16m
EOF2
cat >op.sweep <<'EOF2'
# WAF against the spare fraction and the GC policy
[sweep]
drive = tiny
set.op = 0.07, 0.28
set.gc_policy = greedy, fifo
job = rw.fio
measure = measure
seed = 1..2
EOF2
expect_status 0 "$SSDLAB" sweep plan op.sweep --dir a
grep -q "^8 points: a/manifest.tsv$" out.txt || fail "plan: $(cat out.txt)"
[ "$(wc -l <a/manifest.tsv)" -eq 9 ] || fail "manifest: $(cat a/manifest.tsv)"
head -n 1 a/manifest.tsv | grep -q "^index	id	drive	set.op	set.gc_policy	job	seed$" ||
	fail "manifest header: $(head -n 1 a/manifest.tsv)"
# the grid: the last axis fastest
sed -n 2,3p a/manifest.tsv | cut -f 3- | tr '\n' '|' | grep -q "^tiny	0.07	greedy	rw.fio	1|tiny	0.07	greedy	rw.fio	2|$" ||
	fail "grid order: $(sed -n 2,3p a/manifest.tsv)"

expect_status 0 "$SSDLAB" sweep run op.sweep --dir a -j 2
[ "$(grep -c ': done$' out.txt)" -eq 8 ] || fail "run: $(cat out.txt)"
expect_status 0 "$SSDLAB" sweep collect op.sweep --dir a
grep -q "^8 points: 8 done, 0 failed, 0 missing" out.txt || fail "collect: $(cat out.txt)"
# once ended, skipped
expect_status 0 "$SSDLAB" sweep run op.sweep --dir a
[ "$(grep -c 'skipped (done)$' out.txt)" -eq 8 ] || fail "rerun: $(cat out.txt)"

# the same table one at a time and point by point
expect_status 0 "$SSDLAB" sweep run op.sweep --dir b
for p in 0 1 2 3 4 5 6 7; do
	expect_status 0 "$SSDLAB" sweep run op.sweep --dir c --points $p
done
for d in b c; do
	expect_status 0 "$SSDLAB" sweep collect op.sweep --dir $d
	cmp a/results.csv $d/results.csv || fail "$d/results.csv differs"
	cmp a/results.jsonl $d/results.jsonl || fail "$d/results.jsonl differs"
done
python3 - <<'PY' || fail "the table"
import csv, json
rows = list(csv.DictReader(open("a/results.csv")))
assert len(rows) == 8, rows
for r in rows:
    assert r["status"] == "done" and r["measured_job"] == "measure", r
    assert int(r["host_pages_written"]) >= 4096, r
# more spare, less WA, under either policy and seed
for pol in ("greedy", "fifo"):
    for seed in ("1", "2"):
        w = {r["set.op"]: float(r["waf"]) for r in rows
             if r["set.gc_policy"] == pol and r["seed"] == seed}
        assert w["0.28"] < w["0.07"], (pol, seed, w)
lines = [json.loads(l) for l in open("a/results.jsonl")]
assert [l["index"] for l in lines] == list(range(8))
assert lines[0]["waf"] == float(rows[0]["waf"])
PY

# a point cut short: its directory never became the point's; a missing
# point is a row too, and collect says so
id=$(sed -n 2p a/manifest.tsv | cut -f 2)
mv "a/points/$id" "a/points/.run-$id-$(hostname | tr -- '-/' '__')-999999"
expect_status 1 "$SSDLAB" sweep collect op.sweep --dir a
grep -q "^point 0 $id: missing$" out.txt || fail "missing: $(cat out.txt)"
grep -q "^8 points: 7 done, 0 failed, 1 missing" out.txt || fail "collect: $(cat out.txt)"
grep -q "^0,$id,tiny,0.07,greedy,rw.fio,1,missing,," a/results.csv || fail "missing row"
expect_status 0 "$SSDLAB" sweep run op.sweep --dir a
[ "$(grep -c ': done$' out.txt)" -eq 1 ] || fail "rerun after a cut: $(cat out.txt)"
ls -a a/points | grep -q '^\.run-' && fail "the cut point's directory was left"
expect_status 0 "$SSDLAB" sweep collect op.sweep --dir a
cmp a/results.csv b/results.csv || fail "after the cut point ran again"

# a failed point: recorded with its error, skipped, retried on request
# (a write buffer each value of which is a buffer, and the drive too
# small for one: known only when the point's drive is made)
cat >bad.sweep <<'EOF2'
[sweep]
drive = tiny
set.write_buffer = 1m, 1g
job = rw.fio
EOF2
expect_status 1 "$SSDLAB" sweep run bad.sweep --dir f
grep -q "^point 1 [0-9a-f]*: failed: exit status 2: ssdlab: key 'write_buffer': 1 GiB is more than" out.txt || fail "failed point: $(cat out.txt)"
expect_status 0 "$SSDLAB" sweep run bad.sweep --dir f
grep -q "^point 1 [0-9a-f]*: skipped (failed before)$" out.txt || fail "skip failed: $(cat out.txt)"
expect_status 1 "$SSDLAB" sweep run bad.sweep --dir f --retry-failed
grep -q "^point 1 [0-9a-f]*: failed" out.txt || fail "retry: $(cat out.txt)"
expect_status 1 "$SSDLAB" sweep collect bad.sweep --dir f
grep -q "^2 points: 1 done, 1 failed, 0 missing" out.txt || fail "collect failed: $(cat out.txt)"
grep -q "^1,[0-9a-f]*,tiny,1g,rw.fio,failed,exit status 2: ssdlab: key 'write_buffer'" f/results.csv ||
	fail "failed row: $(sed -n 3p f/results.csv)"

# a changed job file is another point; an unchanged sweep the same ids
cp a/manifest.tsv m1.tsv
expect_status 0 "$SSDLAB" sweep plan op.sweep --dir a
cmp -s m1.tsv a/manifest.tsv || fail "plan twice: ids changed"
echo "# touched" >>rw.fio
expect_status 0 "$SSDLAB" sweep plan op.sweep --dir a
cut -f 2 m1.tsv | sed 1d >old.ids
cut -f 2 a/manifest.tsv | sed 1d >new.ids
if grep -qxFf old.ids new.ids; then fail "an id unchanged after its job file changed"; fi

# scenarios: the figures of result.json, in list mode
cat >scn.sweep <<'EOF2'
[sweep]
scenario = fdp
drive = tiny
combine = list
set.op = 0.3, 0.4
seed = 1, 2
EOF2
expect_status 0 "$SSDLAB" sweep run scn.sweep --dir s -j 2
expect_status 0 "$SSDLAB" sweep collect scn.sweep --dir s
python3 - <<'PY' || fail "scenario table"
import csv
rows = list(csv.DictReader(open("s/results.csv")))
assert [(r["set.op"], r["seed"]) for r in rows] == [("0.3", "1"), ("0.4", "2")], rows
for r in rows:
    # placement beats none, in the scenario's own figures
    assert float(r["cache.initial.waf"]) < float(r["cache.none.waf"]), r
PY
# a scenario's tables (arrays of rows) are spread over columns, an
# element each; its page charts figures that differ between points, not
# constants such as the drive's units
printf '[sweep]\ndrive = tiny\nscenario = zoned\nset.bs = 64k, 128k\n' >zsw.sweep
expect_status 0 "$SSDLAB" sweep run zsw.sweep --dir zsw -j 2
expect_status 0 "$SSDLAB" sweep collect zsw.sweep --dir zsw
python3 - <<'PY' || fail "zoned scenario table: $(head -n 1 zsw/results.csv)"
import csv, json
rows = list(csv.DictReader(open("zsw/results.csv")))
for r in rows:
    res = json.load(open("zsw/points/%s/result.json" % r["id"]))
    t = res["throughput"]
    assert float(r["throughput.0.points.0.mbps"]) == t[0]["points"][0]["mbps"], r
    last = len(t) - 1
    assert r["throughput.%d.zone_units" % last] == str(t[last]["zone_units"]), r
PY
expect_status 0 "$SSDLAB" report sweep zsw
grep -q 'throughput.0.points.0.mbps against set.bs' zsw/report.html || fail "zoned sweep: chart"
! grep -q '>units against' zsw/report.html || fail "zoned sweep: a constant charted"

# bad sweep files: one line, exit 2, FILE:LINE
e() { printf '%b' "$1" >x.sweep; expect_err 2 "$2" "$SSDLAB" sweep plan x.sweep --dir x; }
e '[sweep]\njob = rw.fio\nbogus = 1\n' "^ssdlab: x.sweep:3: unknown key 'bogus'"
# a device is not read for ever (as the job file, or named in one)
e '[sweep]\njob = /dev/zero\n' "^ssdlab: x.sweep:2: job '/dev/zero': not a regular file \\(/dev/zero\\)$"
printf '[w]\nrw=write\nsize=1m\nread_iolog=/dev/zero\n' >dz.fio
e '[sweep]\njob = dz.fio\n' "^ssdlab: x.sweep:2: job 'dz.fio': dz.fio:4: '/dev/zero': not a regular file"
e 'job = rw.fio\n' "^ssdlab: x.sweep:1: 'job = rw.fio' before \\[sweep\\]"
e '[sweep]\ndrive = tiny\n' "^ssdlab: x.sweep: no workload"
e '[sweep]\njob = rw.fio\nscenario = fdp\n' "^ssdlab: x.sweep:3: job files and scenarios in one sweep"
e '[sweep]\njob = nope.fio\n' "^ssdlab: x.sweep:2: job 'nope.fio': No such file or directory"
e '[sweep]\njob = rw.fio\ncombine = list\nseed = 1, 2\nset.op = 0.1, 0.2, 0.3\n' "^ssdlab: x.sweep:5: combine = list, and axis 'set.op' has 3 values where 'seed' has 2"
e '[sweep]\njob = rw.fio\nseed = 3..1\n' "^ssdlab: x.sweep:3: seed range '3..1'"
e '[sweep]\njob = rw.fio\nset.op = 0.1,,0.2\n' "^ssdlab: x.sweep:3: axis 'set.op' has an empty value"
e '[sweep]\njob = rw.fio\nseed = 1\nseed = 2\n' "^ssdlab: x.sweep:4: axis 'seed' is already set on line 3"
e '[sweep]\njob = rw.fio\ncombine = zip\n' "^ssdlab: x.sweep:3: combine 'zip'"
# each value checked when the sweep is loaded, by the run's own checks
e '[sweep]\ndrive = tiny\nset.opp = 0.1\njob = rw.fio\n' "^ssdlab: x.sweep:3: set.opp: unknown key 'opp'"
e '[sweep]\njob = rw.fio\nset.op = 0.1, lots\n' "^ssdlab: x.sweep:3: set.op: key 'op': 'lots' is not a number"
e '[sweep]\njob = rw.fio\nset.gc_policy = greedy, cost_benefit\n' "^ssdlab: x.sweep:3: set.gc_policy: key 'gc_policy': unknown value 'cost_benefit' \\(accepted: greedy, cost-benefit"
e '[sweep]\ndrive = tiny, tinyy\njob = rw.fio\n' "^ssdlab: x.sweep:2: drive: unknown drive 'tinyy' \\(did you mean 'tiny'?"
e '[sweep]\nscenario = fdp, gc-statez\n' "^ssdlab: x.sweep:2: scenario 'gc-statez' is not a scenario \\(accepted: steady-state,"
e '[sweep]\nscenario = fdp\nset.tenants = 3\n' "^ssdlab: x.sweep:3: set.tenants: 'tenants' is neither a parameter of scenario fdp nor a drive key"
e '[sweep]\nscenario = fdp\nset.measure = lots\n' "^ssdlab: x.sweep:3: set.measure: scenario fdp: parameter 'measure': 'lots' is not a size"
e '[sweep]\njob = rw.fio\nprecondition = sequentiall\n' "^ssdlab: x.sweep:3: precondition: must be sequential or dircopy\\[:SET\\[:SHARE\\]\\], got 'sequentiall' \\(docs/fill.md\\)$"
e '[sweep]\njob = rw.fio\nprecondition = dircopy:win8\n' "^ssdlab: x.sweep:3: precondition: unknown file set 'win8' \\(accepted: impressions, win7, game, media, usb\\) \\(docs/fill.md\\)$"
e '[sweep]\njob = rw.fio\n\nmeasure = nosuchjob\n' "^ssdlab: x.sweep:4: measure 'nosuchjob' is not a job of rw.fio \\(its jobs: fill, measure\\)"
# a value twice would be two points of one id
e '[sweep]\njob = rw.fio\nset.op = 0.1, 0.1\n' "^ssdlab: x.sweep:3: axis 'set.op' has the value '0.1' twice"
e '[sweep]\njob = rw.fio\nseed = 1, 1..2\n' "^ssdlab: x.sweep:3: axis 'seed' has the value '1' twice"
# a name is a folder's, under ssdlab-out
e '[sweep]\njob = rw.fio\nname = ../../escape\n' "^ssdlab: x.sweep:3: name '../../escape' is not a plain name"
# ';' starts a comment after white space, as in job and drive files
printf '[sweep]\ndrive = tiny ; the small drive\njob = rw.fio\n; a comment line\n' >semi.sweep
expect_status 0 "$SSDLAB" sweep plan semi.sweep --dir semi
[ "$(sed -n 2p semi/manifest.tsv | cut -f 3)" = tiny ] || fail "';' comment: $(cat semi/manifest.tsv)"
expect_err 2 "^ssdlab: points '9': 9 is not a point \\(the sweep has 8: 0\\.\\.7\\)" "$SSDLAB" sweep run op.sweep --dir a --points 9
expect_err 2 "^ssdlab: points '3-1': the range 3-1 is reversed" "$SSDLAB" sweep run op.sweep --dir a --points 3-1
expect_err 2 "^ssdlab: points '-1' is not a list of indices" "$SSDLAB" sweep run op.sweep --dir a --points -1
expect_err 2 "^ssdlab: points '1--2' is not a list of indices" "$SSDLAB" sweep run op.sweep --dir a --points 1--2
expect_err 2 "^ssdlab: points '' is not a list of indices" "$SSDLAB" sweep run op.sweep --dir a --points ""
expect_err 2 "^ssdlab: points '1,' is not a list of indices" "$SSDLAB" sweep run op.sweep --dir a --points 1,
# collect where nothing was planned: one line, before any point is listed
expect_err 2 "^ssdlab: nowhere: no such folder \\(nothing planned or run there\\)$" "$SSDLAB" sweep collect op.sweep --dir nowhere
"$SSDLAB" sweep collect op.sweep --dir nowhere >nowhere.txt 2>/dev/null || true
[ ! -s nowhere.txt ] || fail "collect listed points of a folder that is not there: $(cat nowhere.txt)"
[ ! -e nowhere ] || fail "collect made the folder"
expect_err 2 "^ssdlab: nope.sweep: No such file or directory" "$SSDLAB" sweep plan nope.sweep
expect_err 2 "^ssdlab: unknown sweep command 'go'" "$SSDLAB" sweep go op.sweep

# points of one preconditioned drive share it: it is preconditioned
# once and saved, each point starts from the snapshot, and the table is
# the one of points that precondition their own (share = no); a drive
# that cannot be saved (a page cache) is not shared, its points still run
printf '[m]\nrw=randwrite\nbs=4k\niodepth=16\nio_size=8m\n' >r1.fio
printf '[m]\nrw=randread\nbs=4k\niodepth=4\nio_size=8m\n' >r2.fio
cat >pre.sweep <<'EOF2'
[sweep]
drive = tiny
set.op = 0.07, 0.2
precondition = sequential
job = r1.fio, r2.fio
EOF2
expect_status 0 "$SSDLAB" sweep run pre.sweep --dir sh -j 2
[ "$(grep -c '^drive [0-9a-f]*: preconditioned, for its points to share$' out.txt)" -eq 2 ] ||
	fail "two drives to share: $(cat out.txt)"
[ "$(ls sh/drives | grep -c '\.snap$')" -eq 2 ] || fail "two snapshots: $(ls sh/drives)"
grep -q -- "--snapshot $(cd sh && pwd)/drives/[0-9a-f]*\.snap" sh/points/*/command.txt ||
	fail "the points do not start from the snapshots"
expect_status 0 "$SSDLAB" sweep collect pre.sweep --dir sh
sed 's/^precondition = sequential$/precondition = sequential\nshare = no/' pre.sweep >own.sweep
expect_status 0 "$SSDLAB" sweep run own.sweep --dir own
grep -q "^drive" out.txt && fail "share = no shared a drive"
expect_status 0 "$SSDLAB" sweep collect own.sweep --dir own
cmp sh/results.csv own/results.csv || fail "shared drives gave another table"
# ran again: nothing to prepare, nothing to run
expect_status 0 "$SSDLAB" sweep run pre.sweep --dir sh
grep -q "^drive" out.txt && fail "a drive prepared twice: $(cat out.txt)"
sed 's/^drive = tiny$/drive = tiny\nset.page_cache = 8m/' pre.sweep >pc.sweep
expect_status 0 "$SSDLAB" sweep run pc.sweep --dir pc
grep -q "^drive [0-9a-f]*: not shared (exit status 2: ssdlab: --save-snapshot: .*page cache.*): its points precondition their own$" out.txt ||
	fail "a page cache's drive: $(cat out.txt)"
[ "$(grep -c ': done$' out.txt)" -eq 4 ] || fail "page cache points: $(cat out.txt)"
