# fill-idle (seed 003's method) on a small drive with shortened
# parameters: HD Tach curves clean, full and after idle for two OP values
# (0 runs at the least spare the FTL takes), sequential write after Secure
# Erase vs after fill + TRIM; result.json, CSV, gnuplot scripts and plots;
# the two fills, files and dircopy.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" scenario list
grep -q '^fill-idle$' out.txt || fail "list: fill-idle"

expect_status 0 "$SSDLAB" scenario run fill-idle --drive tiny --set capacity=16m \
	--set op=0.5 --set ops=0,0.5 --set zones=8 --set sample=0.5 --set idle=60 \
	--set file_mean=256k --out fi
for k in ops op_asked op read_mbps write_mbps clean full after_idle files \
	seq_write_after_se_mbps seq_write_after_trim_mbps seq_write_trim_vs_se_pct; do
	grep -q "\"$k\" :" fi/result.json || { cat fi/result.json; fail "result.json: no $k"; }
done
# op 0 is below the least spare of this drive: it runs at that least (25%)
grep -q '"op" : 0.25' fi/result.json || { cat fi/result.json; fail "op 0 not raised to 0.25"; }
grep -q 'OP 25% (asked 0%)' out.txt || fail "summary: raised op not shown"
grep -q 'unmapped LBAs' out.txt || fail "summary: no note on unmapped reads"
grep -q 'after fill+TRIM' out.txt || fail "summary: no sequential-write table"
for f in fill-idle.csv hdtach-op0.csv hdtach-op0.5.csv fill-idle.gp fill-idle-write.gp \
	seq-write.gp hdtach-op0.gp hdtach-op0.5.gp; do
	[ -s "fi/$f" ] || fail "no fi/$f"
done
# one line per zone, and the clean read (unmapped) beats the full one
[ "$(wc -l <fi/hdtach-op0.5.csv)" -eq 9 ] || fail "hdtach CSV: not 8 zones"
awk -F, 'NR > 1 && $3 <= $5 { exit 1 }' fi/hdtach-op0.5.csv ||
	fail "clean read not faster than full read"
if have gnuplot; then
	for p in fill-idle fill-idle-write seq-write hdtach-op0 hdtach-op0.5; do
		[ -s "fi/$p.png" ] || fail "no fi/$p.png"
		[ -s "fi/$p.svg" ] || fail "no fi/$p.svg"
	done
else
	skip_part "gnuplot is not installed: no plots drawn to check"
fi

# fill=dircopy, the reviewer's own fill (docs/fill.md): directories of
# files copied onto a file system through the page cache until the
# volume is full.  What it exists to show: the drive gets the files'
# data in long sequential runs with the file system's small metadata
# writes (MFT, indexes, bitmap, log) between them -- not a sequential
# write, and not the random-order copy of fill=files, after which HD
# Tach's write pass over the full drive makes GC copy more
if have python3; then
	for f in files dircopy; do
		expect_status 0 "$SSDLAB" scenario run fill-idle --drive tiny --set capacity=64m \
			--set op=0.5 --set ops=0.1 --set zones=8 --set sample=0.5 --set idle=60 \
			--set file_mean=256k --set fill=$f --out "fill-$f"
		cp out.txt "fill-$f.txt"
	done
	grep -Eq '^  fill: directory copy of the impressions set, [0-9]+ files .* in [0-9]+ directories, 9[0-9.]+% of the span in use, no TRIM$' \
		fill-dircopy.txt || { cat fill-dircopy.txt; fail "dircopy: the fill's line"; }
	grep -Eq '^    [0-9]+ of the files in more than one extent, .* metadata \([0-9.]+% of the bytes\), the data in sequential runs of ' \
		fill-dircopy.txt || { cat fill-dircopy.txt; fail "dircopy: the stream's line"; }
	python3 - fill-files/result.json fill-dircopy/result.json <<'PY' || fail "dircopy: result.json"
import json, sys
files, dc = (json.load(open(p)) for p in sys.argv[1:])
assert files["fill"] == "files" and dc["fill"] == "dircopy", "fill named"
assert dc["file_set"] == "impressions" and dc["dirs"] > 0, "the set, the directories"
assert 6 < dc["files"] / dc["dirs"] < 16, "10.2 files a directory"
assert dc["used_share"] > 0.95, "the volume full"
w = dc["ops"][0]["fill_writes"]
for k in ("mft", "index", "bitmap", "log"):
    assert w[k]["cmds"] > 0 and w[k]["bytes"] > 0, "no %s writes" % k
data, meta = w["data"]["bytes"], sum(w[k]["bytes"] for k in ("mft", "index", "bitmap", "log"))
assert meta < 0.2 * data, "metadata is the small part"
assert w["data_sequential_cmds"] * 2 > w["data"]["cmds"], "data in runs"
f, d = files["ops"][0]["full_write_waf"], dc["ops"][0]["full_write_waf"]
assert 1 <= d < f, "HD Tach's write pass: WAF %g after the copy, %g after the random-order files" % (d, f)
PY
else
	skip_part "python3 is not installed: result.json of fill=dircopy not read"
fi

expect_err 2 "fill-idle: fill 'copy' is not files or dircopy" "$SSDLAB" scenario run fill-idle \
	--drive tiny --set capacity=16m --set op=0.5 --set fill=copy --out bad
expect_err 2 "fill-idle: file_set 'linux' is not impressions, win7, game, media or usb" \
	"$SSDLAB" scenario run fill-idle --drive tiny --set capacity=16m --set op=0.5 \
	--set fill=dircopy --set file_set=linux --out bad
expect_err 2 "fill-idle: ops 'abc' is not a list of up to 8 values" "$SSDLAB" \
	scenario run fill-idle --drive tiny --set capacity=16m --set op=0.5 --set ops=abc --out bad
expect_err 2 "parameter 'sample': 2 is out of range \(more than 0, up to 1\)" "$SSDLAB" \
	scenario run fill-idle --drive tiny --set capacity=16m --set op=0.5 --set sample=2 --out bad
expect_err 2 "parameter 'zones': '2.5' is not a whole number" "$SSDLAB" \
	scenario run fill-idle --drive tiny --set capacity=16m --set op=0.5 --set zones=2.5 --out bad
expect_err 2 "fill-idle: a zone .* is smaller than bs 1m" "$SSDLAB" scenario run fill-idle \
	--drive tiny --set capacity=16m --set op=0.5 --set zones=4096 --set bs=1m --out bad
