# `calibrate`: presets of real drives measured against the seed reviews'
# figures ("# ref" lines).  --quick on the small Silicon Power preset and
# on a drive file of the test's own; the table's shape and arithmetic, the
# Markdown form, and the errors.  Each row names what filled its figure's
# drive (the column "fill"): the Crucial M4 and the Intel 510, whose
# review filled them by copying directories, say dircopy on the full
# drive's rows ("# fill dircopy" in their presets), --fill overrides it.  Every row that is not "ok" says why: a
# figure not modelled (the figure table), one the drive misses (its
# "# miss" line), a rough --quick figure; the full run's table in
# docs/calibration.md (make doc-check keeps it the command's) has a
# reason on each such row.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" calibrate --drive silicon-power-32g --quick
cp out.txt table.txt
head -n 1 table.txt | grep -Eq '^drive +figure +seed +fill +seed value +ssdlab +deviation +status  why$' ||
	{ cat table.txt >&2; fail "calibrate: header"; }
refs=$(grep -c '^# ref ' "$TOP/presets/silicon-power-32g.ini")
[ "$(grep -c '^silicon-power-32g ' table.txt)" -eq "$refs" ] ||
	{ cat table.txt >&2; fail "calibrate: one row per ref line ($refs)"; }
grep -Eq '^silicon-power-32g +seq_read_mbps +000 +- +168 +[0-9.]+ +[-+][0-9.]+% +(ok|OUT  .+)$' table.txt ||
	{ cat table.txt >&2; fail "calibrate: seq_read_mbps row"; }
# the figures measured through MFT and the page cache have rows of
# their own (docs/calibration.md)
for f in mft_seq_write_mbps mft_rand_write_iops mft_seq_read_mbps \
	 rand_write_iops_oscache mean_latency_large_ms; do
	grep -Eq "^silicon-power-32g +$f +000 .* (ok|OUT  .+)\$" table.txt ||
		{ cat table.txt >&2; fail "calibrate: $f row"; }
done
tail -n 1 table.txt | grep -Eq '^[0-9]+ of [0-9]+ measured figures within 15%; 0 not modelled$' ||
	{ cat table.txt >&2; fail "calibrate: closing line"; }
# the hard disk: the essay's latencies and write, measured on the disk
# as it is (quick runs are short: only the small requests' latency is
# near the seed's; the full run's figures are in docs/calibration.md)
expect_status 0 "$SSDLAB" calibrate --drive hitachi-hdt725032vla360 --quick
for f in mean_latency_ms mean_latency_large_ms seq_write_mbps; do
	grep -Eq "^hitachi-hdt725032vla360 +$f +000 +- +[0-9]+ +[0-9.]+ " out.txt ||
		{ cat out.txt >&2; fail "calibrate: hdd $f"; }
done
grep -Eq "^hitachi-hdt725032vla360 +mean_latency_ms .* ok\$" out.txt ||
	{ cat out.txt >&2; fail "calibrate: hdd small-request latency"; }
awk '$2 == "mean_latency_ms" { s = $6 } $2 == "mean_latency_large_ms" { l = $6 }
     END { exit !(l > 2 * s) }' out.txt || { cat out.txt >&2; fail "calibrate: hdd large vs small"; }
# every deviation agrees with its two values; ok means within 15%
awk 'NR > 1 && $2 ~ /_/ && $7 ~ /%$/ && $5 ~ /^[0-9]+(\.[0-9]+)?$/ {
	r = $5 + 0; s = $6 + 0; d = $7; sub(/%$/, "", d); d += 0
	want = (s - r) / r * 100
	tol = 0.06 + 100 * (s < 10 ? 0.005 : 0.5) / r   # printed rounding
	if (d - want > tol || want - d > tol) { print "deviation: " $0; bad = 1 }
	ok = (d <= 15 && d >= -15)
	if (ok != ($8 == "ok")) { print "status: " $0; bad = 1 }
} END { exit bad }' table.txt || fail "calibrate: rows"
# a reason on every row that is not ok: the preset's "# miss" line where
# it has one, else that quick figures are rough
grep -Eq '  (OUT|not modelled|FAILED) *$' table.txt && { cat table.txt >&2; fail "a row without its reason"; }
grep -Eq '^silicon-power-32g +mft_seq_write_mbps .* OUT  MFT writes its log in long runs' table.txt ||
	{ cat table.txt >&2; fail "the preset's miss line is not the row's reason"; }
# intel-760p-128g's SLC cache in --quick is a rough figure, with no miss line
expect_status 0 "$SSDLAB" calibrate --drive intel-760p-128g --quick
grep -Eq '^intel-760p-128g +slc_cache_mb .* OUT  --quick: a rough figure' out.txt ||
	{ cat out.txt >&2; fail "a quick figure out of tolerance: no reason"; }
# the sequential write is tuned to the seed: within 15% even when quick
grep -Eq '^silicon-power-32g +seq_write_mbps .* ok$' table.txt ||
	{ cat table.txt >&2; fail "calibrate: seq_write_mbps out of tolerance"; }

# deterministic
expect_status 0 "$SSDLAB" calibrate --drive silicon-power-32g --quick
cmp -s out.txt table.txt || { diff out.txt table.txt >&2; fail "calibrate: not deterministic"; }

# a drive file of our own: ranges and bounds, --set applies, Markdown
cat >d.ini <<'EOD'
capacity = 64m
page_size = 4k
pages_per_block = 64
channels = 2
dies_per_channel = 2
planes_per_die = 1
# ref seq_write_mbps = 1..100000 ; 000: anything positive
# ref seq_read_unmapped_mbps = >100000 ; 003: more than the link gives
# ref trim_32g_s = <1 ; 001: under a second
# ref iometer_database_iops = 3300 ; 002: a figure not modelled
# miss seq_read_unmapped_mbps: the link is capped by --set
EOD
expect_status 0 "$SSDLAB" calibrate --drive d.ini --quick --markdown --set host_mbps=1000
grep -q '^| drive | figure | seed | fill | seed value | ssdlab | deviation | what the seed says | why not ok |$' out.txt ||
	{ cat out.txt >&2; fail "markdown: header"; }
grep -Eq '^\| d \| `seq_write_mbps` \| 000 \| - \| 1\.\.100000 MB/s \| [0-9.]+ \| \+0\.0% \| anything positive \|  \|$' out.txt ||
	{ cat out.txt >&2; fail "markdown: range row"; }
# --set host_mbps=1000 caps the unmapped reads: far below the bound
grep -Eq '^\| d \| `seq_read_unmapped_mbps` \| 003 \| - \| >100000 MB/s \| 1000 \| \*\*-99\.0%\*\* \| more than the link gives \| the link is capped by --set \|$' out.txt ||
	{ cat out.txt >&2; fail "markdown: bound row (with --set)"; }
grep -Eq '^\| d \| `trim_32g_s` \| 001 \| sequential \| <1 s \| [0-9.e-]+ \| \+0\.0% \|' out.txt ||
	{ cat out.txt >&2; fail "markdown: trim row"; }
grep -Eq '^\| d \| `iometer_database_iops` \| 002 \| - \| 3300 IOPS \| - \| not modelled \| a figure not modelled \| the seed does not give the queue depth .+ \|$' out.txt ||
	{ cat out.txt >&2; fail "markdown: a figure not modelled"; }
grep -q '^2 of 3 measured figures within 15%; 1 not modelled$' out.txt ||
	{ cat out.txt >&2; fail "markdown: closing line"; }

# errors: one line each, exit 2
expect_err 2 "drive 'tiny' has no '# ref' lines" "$SSDLAB" calibrate --drive tiny --quick
expect_err 2 "unknown drive 'nope'" "$SSDLAB" calibrate --drive nope
expect_err 2 "unknown option '--fast'" "$SSDLAB" calibrate --fast
expect_err 2 "calibrate takes no arguments" "$SSDLAB" calibrate silicon-power-32g
echo "# ref seq_read_speed = 1 ; 000: x" >>d.ini
expect_err 2 "d\.ini:12: unknown figure 'seq_read_speed' \(accepted: seq_read_mbps, " \
	"$SSDLAB" calibrate --drive d.ini --quick
sed -i '$d' d.ini
echo "# ref seq_read_mbps = 1" >>d.ini
expect_err 2 "d\.ini:12: reference line: the form is '# ref FIGURE = VALUE ; SEED: note'" \
	"$SSDLAB" calibrate --drive d.ini --quick
expect_status 0 "$SSDLAB" calibrate --help
grep -q '^usage: ssdlab calibrate ' out.txt || fail "calibrate --help"
"$SSDLAB" --help | grep -q '^  ssdlab calibrate ' || fail "main help lacks calibrate"

# the "# miss" lines: the reason on the row; errors name the file and line
sed -i '$d' d.ini
for bad in "# miss seq_read_speed: x|unknown figure 'seq_read_speed'" \
	   "# miss trim_32g_s|the form is '# miss FIGURE: why" \
	   "# miss trim_32g_s:   |needs a reason" \
	   "# miss seq_write_mbps: twice|a second miss line for 'seq_write_mbps' \\(the first is line 12\\)" \
	   "# miss mean_latency_ms: x|a miss line for 'mean_latency_ms', which no '# ref' line"; do
	cp d.ini e.ini
	echo "# miss seq_write_mbps: once" >>e.ini
	echo "${bad%%|*}" >>e.ini
	expect_err 2 "e\.ini:1[23]: .*${bad#*|}" "$SSDLAB" calibrate --drive e.ini --quick
done

# what filled each figure's drive: '-' a fresh one, random the 4 KiB
# random-write preconditioning, the drive file's "# fill" procedure the
# full drive's figures (sequential without one); --fill overrides it
grep -Eq '^silicon-power-32g +rand_write_iops_steady +000 +random ' table.txt ||
	{ cat table.txt >&2; fail "calibrate: the random-write fill not named"; }
full="seq_read_full_mbps seq_write_full_mbps seq_read_idle_mbps seq_write_idle_mbps seq_write_trim_mbps"
expect_status 0 "$SSDLAB" calibrate --drive crucial-m4-256g --quick
grep -Eq '^crucial-m4-256g +seq_read_unmapped_mbps +003 +- ' out.txt ||
	{ cat out.txt >&2; fail "calibrate: a fresh drive's row names a fill"; }
for f in $full; do
	grep -Eq "^crucial-m4-256g +$f +003 +dircopy " out.txt ||
		{ cat out.txt >&2; fail "calibrate: $f of the M4 is not measured after a directory copy"; }
done
expect_status 0 "$SSDLAB" calibrate --drive crucial-m4-256g --quick --fill sequential
for f in $full; do
	grep -Eq "^crucial-m4-256g +$f +003 +sequential " out.txt ||
		{ cat out.txt >&2; fail "calibrate --fill sequential: $f"; }
done
grep -q ' dircopy ' out.txt && { cat out.txt >&2; fail "--fill sequential left a dircopy row"; }
cp d.ini f.ini
echo "# fill dircopy: the review copied directories onto it" >>f.ini
expect_status 0 "$SSDLAB" calibrate --drive f.ini --quick --markdown
grep -Eq '^\| f \| `trim_32g_s` \| 001 \| dircopy \| <1 s \| [0-9.e-]+ \| ' out.txt ||
	{ cat out.txt >&2; fail "markdown: the drive file's fill"; }
grep -Eq '^\| f \| `seq_write_mbps` \| 000 \| - \| ' out.txt ||
	{ cat out.txt >&2; fail "markdown: a fresh drive's figure took the file's fill"; }
for bad in "# fill nope: x|unknown procedure 'nope' \\(accepted: sequential, dircopy\\)" \
	   "# fill dircopy|the form is '# fill PROCEDURE: why'" \
	   "# fill dircopy:  |'dircopy' needs a reason" \
	   "# fill sequential: twice|a second fill line \\(the first is line 12\\)"; do
	cp f.ini e.ini
	echo "${bad%%|*}" >>e.ini
	expect_err 2 "e\.ini:13: .*${bad#*|}" "$SSDLAB" calibrate --drive e.ini --quick
done
expect_err 2 "ssdlab: --fill: unknown procedure 'random' \(accepted: sequential, dircopy\)" \
	"$SSDLAB" calibrate --fill random --quick
expect_err 2 "option '--fill' needs a value" "$SSDLAB" calibrate --quick --fill

# every preset's ref lines parse and name figures calibrate knows (the
# figure table rejects unknown ones), and its miss lines name a figure
# it has a ref line for; a full run is docs/calibration.md's
for f in "$TOP"/presets/*.ini; do
	grep -q '^# ref ' "$f" || continue
	grep '^# ref ' "$f" | grep -Evq '^# ref [a-z0-9_]+ = (>|<)?[0-9.]+(\.\.[0-9.]+)? ; 00[0-4]: .+$' &&
		{ grep '^# ref ' "$f" >&2; fail "$f: a ref line out of form"; }
	for m in $(sed -n 's/^# miss \([a-z0-9_]*\): .*/\1/p' "$f"); do
		grep -q "^# ref $m = " "$f" || fail "$f: '# miss $m' without a ref line"
	done
done
# the full run's table, as docs/calibration.md shows it: a reason on every
# row that is not ok (not modelled, OUT in bold, failed), none on the others
awk -F' [|] ' '/^[|] [a-z0-9-]+ [|] `/ {
	dev = $7; why = $9; sub(/ *[|]$/, "", why)
	bad = (dev == "not modelled" || dev ~ /^[*][*]/)
	if (bad && why == "") { print "no reason: " $0; n++ }
	if (!bad && why != "") { print "a reason on an ok row: " $0; n++ }
	rows++
} END { if (rows < 40) { print "only " rows " rows"; n++ } exit n > 0 }' "$TOP/docs/calibration.md" ||
	fail "docs/calibration.md: the table's reasons"
exit 0
