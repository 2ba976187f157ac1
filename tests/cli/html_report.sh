# Every scenario's report.html, loaded in a real browser: each scenario
# runs on the tiny drive with short parameters (gnuplot replaced by a
# stub that draws nothing: the page must not need it), and headless
# Chromium loads its page from the disk, takes a screenshot and dumps
# the DOM after the page's script ran.  The page must hold a chart for
# every gnuplot script the scenario wrote, each drawn (the script's
# data-charts-rendered equals data-charts and the count of scripts),
# log no console message (an error, an exception), and name nothing to
# fetch (no src or href outside the page).  So must a run's page (run
# --html) and a sweep's (report sweep).  A page with a console error
# and a page with an empty chart are shown first to fail the same
# checks, so that the checks can fail.
#
# SSDLAB_HTML_SHOTS=DIR keeps the screenshots there (DIR/NAME.png).
. "$TOP/tests/cli/lib.inc"
need chromium

mkdir -p fakebin profile
printf '#!/bin/sh\nexit 0\n' >fakebin/gnuplot
chmod +x fakebin/gnuplot

# browse PAGE PNG: the DOM after the scripts ran into dom.txt, the
# console into console.txt, the screenshot into PNG
browse() {
	rm -f "$2"
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$PWD/profile" --enable-logging=stderr --v=0 \
		--window-size=1280,2000 --screenshot="$2" --dump-dom \
		"file://$PWD/$1" >dom.txt 2>chrome.txt ||
		{ cat chrome.txt >&2; fail "chromium failed on $1"; }
	grep 'CONSOLE' chrome.txt >console.txt || true
}
# charts PAGE: "M N", the charts written and the charts drawn, from the
# body's attributes
charts() {
	sed -n 's/.*<body data-charts="\([0-9]*\)" data-charts-rendered="\([0-9]*\)".*/\1 \2/p' dom.txt
}

# the checks can fail: a console error is seen, an empty chart counted
printf '<!DOCTYPE html><html><body><script>console.error("boom")</script></body></html>\n' >bad.html
browse bad.html bad.png
grep -q '"boom"' console.txt || fail "a console error was not caught: $(cat chrome.txt)"
expect_status 0 env PATH="$PWD/fakebin:$PATH" "$SSDLAB" scenario run slc-cache \
	--drive tiny --set slc_cache=dynamic --set slc_cache_size=6m --out empty
# the chart's data emptied, as a page that drew nothing would be
sed 's|<g class="data"\([^>]*\)>|<g class="data"\1></g><g>|' empty/report.html >empty.html
browse empty.html empty.png
[ "$(charts)" = "1 0" ] || fail "an empty chart was counted as drawn: $(charts)"
[ ! -s console.txt ] || fail "console: $(cat console.txt)"

"$SSDLAB" scenario list | grep -v '^ ' >list.txt
[ "$(wc -l <list.txt)" -ge 14 ] || fail "scenario list: $(cat list.txt)"
while read -r s; do
	case $s in
	essay-bench) set -- --set file=8m --set cache=4m --set tune_chunk=1m \
		--set point=0.1 --set lat_time=0.2 --set tune_points=2 ;;
	trace) set -- --set trace="$TOP/examples/traces/sample.iolog.gz" ;;
	slc-cache) set -- --set slc_cache=dynamic --set slc_cache_size=6m ;;
	fdp) set -- --set op=0.3 ;; # room for its handles' open blocks
	*) set -- ;;
	esac
	expect_status 0 env PATH="$PWD/fakebin:$PATH" "$SSDLAB" scenario run "$s" \
		--drive tiny --out "out/$s" "$@"
	page=out/$s/report.html
	[ -s "$page" ] || fail "$s: no report.html"
	# self-contained: nothing to fetch
	if grep -Eo '(src|href)="[^"#][^"]*"' "$page" | grep -q .; then
		fail "$s: the page links outside itself: $(grep -Eo '(src|href)="[^"#][^"]*"' "$page" | head -3)"
	fi
	scripts=$(ls "out/$s"/*.gp | wc -l)
	figs=$(grep -c '<figure class="chart"' "$page")
	[ "$figs" -eq "$scripts" ] || fail "$s: $figs charts in the page, $scripts gnuplot scripts"
	browse "$page" "out/$s/screenshot.png"
	[ -s "out/$s/screenshot.png" ] || fail "$s: no screenshot"
	[ ! -s console.txt ] || fail "$s: console: $(cat console.txt)"
	[ "$(charts)" = "$scripts $scripts" ] ||
		fail "$s: charts written and drawn '$(charts)', wanted $scripts of $scripts"
	if [ -n "${SSDLAB_HTML_SHOTS:-}" ]; then
		mkdir -p "$SSDLAB_HTML_SHOTS"
		cp "out/$s/screenshot.png" "$SSDLAB_HTML_SHOTS/$s.png"
	fi
done <list.txt

# a run's page: the key that differs from the preset, the job file, each
# job's latency percentiles and the IOPS its [measure] job logged
expect_status 0 "$SSDLAB" run "$TOP/examples/steady-state.fio" --drive tiny \
	--set op=0.2 --html run.html --output run.txt
grep -q '<tr><th>op</th><td>0.2</td><td>0.07</td></tr>' run.html || fail "run: the changed key"
grep -q '^write_iops_log=measure$' run.html || fail "run: the job file"
grep -q '<caption>Jobs</caption>' run.html || fail "run: the jobs' table"
browse run.html run.png
[ ! -s console.txt ] || fail "run: console: $(cat console.txt)"
[ "$(charts)" = "4 4" ] || fail "run: charts written and drawn '$(charts)', wanted 4 of 4"
# without logs, the percentiles alone
printf '[w]\nrw=randwrite\nbs=4k\nsize=8m\n' >w.fio
expect_status 0 "$SSDLAB" run w.fio --drive tiny --html w.html
browse w.html w.png
[ "$(charts)" = "1 1" ] || fail "run without logs: charts '$(charts)', wanted 1 of 1"
# the longest latency in whole us, cut as the text and JSON reports have it
expect_status 0 "$SSDLAB" run w.fio --drive tiny --html w2.html --output-format=json --output w.json
max=$(python3 -c 'import json, sys; print(json.load(open("w.json"))["jobs"][0]["write"]["clat_ns"]["max"] // 1000)')
grep -q "<tr><th>w</th><td>write</td>\(<td class=\"n\">[^<]*</td>\)\{5\}<td class=\"n\">$max</td>" w2.html ||
	fail "max latency: wanted $max us: $(grep '<tr><th>w</th>' w2.html)"
# a job that failed before any I/O has its row in its own direction
printf '[w]\nrw=randwrite\ndirect=1\nsize=1m\n' >zw.fio
expect_status 1 "$SSDLAB" run zw.fio --drive tiny --set mapping=zone --html zw.html
grep -q '<tr><th>w</th><td>write</td><td class="n">0</td>' zw.html || fail "failed job: $(grep '<tr><th>w</th>' zw.html)"
# a job file from standard input is kept for the page
"$SSDLAB" run - --drive tiny --html in.html <w.fio >/dev/null || fail "run - --html"
grep -q '^rw=randwrite$' in.html || fail "run -: the job file is not on the page"
expect_err 2 "^ssdlab: cannot write 'nodir/w.html': " "$SSDLAB" run w.fio --drive tiny --html nodir/w.html
[ ! -e nodir ] || fail "a page for a folder that is not there"

# a sweep's page: WAF, IOPS and p99 latency against the spare fraction,
# a line per GC policy, and the table
expect_status 0 "$SSDLAB" sweep run "$TOP/examples/op.sweep" --dir sw -j 2
expect_status 0 "$SSDLAB" sweep collect "$TOP/examples/op.sweep" --dir sw
expect_status 0 "$SSDLAB" report sweep sw
grep -q '>set.gc_policy=fifo<' sw/report.html || fail "sweep: the legend"
[ "$(grep -c '<td>done</td>' sw/report.html)" -eq 12 ] || fail "sweep: 12 rows"
browse sw/report.html sw.png
[ ! -s console.txt ] || fail "sweep: console: $(cat console.txt)"
[ "$(charts)" = "3 3" ] || fail "sweep: charts written and drawn '$(charts)', wanted 3 of 3"
# sizes are numbers (bytes); an axis of names is drawn as bars
printf '[sweep]\ndrive = tiny\nscenario = slc-cache\nset.slc_cache = dynamic\nset.slc_cache_size = 4m, 8m\n' >sizes.sweep
printf '[sweep]\ndrive = tiny\nset.gc_policy = greedy, fifo\njob = %s\n' \
	"$TOP/examples/sweep-randwrite.fio" >names.sweep
for s in sizes names; do
	expect_status 0 "$SSDLAB" sweep run $s.sweep --dir $s -j 2
	expect_status 0 "$SSDLAB" sweep collect $s.sweep --dir $s
	expect_status 0 "$SSDLAB" report sweep $s --out $s.html
	browse $s.html $s.png
	[ ! -s console.txt ] || fail "sweep $s: console: $(cat console.txt)"
	[ "$(charts)" = "2 2" ] || [ "$(charts)" = "3 3" ] ||
		fail "sweep $s: charts written and drawn '$(charts)'"
done
grep -q 'set.slc_cache_size, bytes' sizes.html || fail "sweep of sizes: the axis"
grep -q '<g fill="#' names.html || fail "sweep of names: no bars"
expect_err 2 "^ssdlab: cannot read 'nosuch/results.jsonl': No such file or directory \(run 'ssdlab sweep collect' first\)" \
	"$SSDLAB" report sweep nosuch
echo "html-report: ok"
