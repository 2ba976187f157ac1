# Every scenario's gnuplot scripts draw their text as written.  gnuplot's
# enhanced text reads ~ as an overprint, _ and ^ as sub- and superscripts,
# {} as a group, @ and & as spacing: the slc-cache chart read "cache 0̣66
# GB", and a drive named my_drive printed "my" and a subscript.  Each
# scenario runs on the tiny drive, named with every one of them, and its
# scripts are scanned: a script whose terminal is enhanced must have no
# such character in a title, label or tic; then gnuplot, where installed,
# draws one chart and the name must come out as written.
. "$TOP/tests/cli/lib.inc"
need python3

odd="name=my_drive ~x^2 {a} @b &c 'q'"
# the scripts alone (a gnuplot that draws nothing is quicker)
mkdir -p fakebin
printf '#!/bin/sh\nexit 0\n' >fakebin/gnuplot
chmod +x fakebin/gnuplot
"$SSDLAB" scenario list | grep -v '^ ' >list.txt
[ "$(wc -l <list.txt)" -ge 12 ] || fail "scenario list: $(cat list.txt)"
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
		--drive tiny --set "$odd" --out "out/$s" "$@"
	ls "out/$s"/*.gp >/dev/null 2>&1 || fail "$s: no gnuplot script"
done <list.txt

python3 - out <<'PY' || fail "enhanced-text specials in the scripts above"
import os, re, sys
special = re.compile(r"[~^_{}@&]")
# the strings gnuplot draws as text
text_cmd = re.compile(r"^\s*set\s+(title|xlabel|ylabel|y2label|x2label|label(\s+\d+)?|key\s+title)\s+")
def strings(line):
    # gnuplot's string literals: '...' ('' a quote) and "..." (\ escapes)
    out, i = [], 0
    while i < len(line):
        c = line[i]
        if c == "#":
            break
        if c in "'\"":
            j, buf = i + 1, ""
            while j < len(line):
                if c == "'" and line[j] == "'" and line[j + 1:j + 2] == "'":
                    buf += "'"; j += 2; continue
                if c == '"' and line[j] == "\\":
                    buf += line[j:j + 2]; j += 2; continue
                if line[j] == c:
                    break
                buf += line[j]; j += 1
            out.append((i, buf))
            i = j + 1
        else:
            i += 1
    return out
bad = 0
for root, _, files in os.walk(sys.argv[1]):
    for f in sorted(files):
        if not f.endswith(".gp"):
            continue
        path = os.path.join(root, f)
        lines = open(path).read().split("\n")
        terms = [l for l in lines if re.match(r"^\s*set\s+term", l)]
        if not terms:
            print("%s: no terminal" % path); bad += 1; continue
        enhanced = any("noenhanced" not in l for l in terms) or \
            any(re.match(r"^\s*set\s+termoption\s+enhanced", l) for l in lines)
        if not enhanced:
            continue
        for n, l in enumerate(lines, 1):
            texts = []
            if text_cmd.match(l):
                texts = strings(l)[:1]
            else:
                for m in re.finditer(r"\b(title|xtic|ytic)\b\s*", l):
                    texts += strings(l[m.end():])[:1]
            for _, t in texts:
                if special.search(t):
                    print("%s:%d: enhanced text '%s'" % (path, n, t)); bad += 1
sys.exit(1 if bad else 0)
PY

# drawn by gnuplot: the title holds the name as written
if command -v gnuplot >/dev/null 2>&1; then
	expect_status 0 "$SSDLAB" scenario run slc-cache --drive tiny --set "$odd" \
		--set slc_cache=dynamic --set slc_cache_size=6m --out drawn
	grep -q "Sustained sequential write (my_drive ~x^2 {a} @b &amp;c 'q')" drawn/slc-cache.svg ||
		fail "the SVG's title is not the drive's name as written"
	grep -q ">cache ~" drawn/slc-cache.svg || fail "the SVG's cache label"
fi
exit 0
