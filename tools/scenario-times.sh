#!/bin/sh
# scenario-times.sh -- every scenario on every preset at its defaults:
# wall time, CPU time (user + sys: about the wall time of a run alone on
# an idle machine) and peak resident memory, one run each, as the rows
# of a Markdown table (BENCHMARKS.md, "Scenarios on every preset").
#
# usage: tools/scenario-times.sh [-t SECONDS] [-p "PRESET..."] [-s "SCENARIO..."]
#   -t  stop a run after this many seconds of wall time (default 600);
#       the row then says so
#   -p  the presets (default: every one `./ssdlab drives` lists)
#   -s  the scenarios (default: every one `./ssdlab scenario list` lists)
# Runs ./ssdlab (make), or $SSDLAB; needs GNU time (/usr/bin/time).
set -u
cd "$(dirname "$0")/.." || exit 2
limit=600 presets="" scenarios=""
while getopts t:p:s: o; do
	case $o in
	t) limit=$OPTARG ;;
	p) presets=$OPTARG ;;
	s) scenarios=$OPTARG ;;
	*) echo "usage: tools/scenario-times.sh [-t SECONDS] [-p PRESETS] [-s SCENARIOS]" >&2; exit 2 ;;
	esac
done
bin=${SSDLAB:-./ssdlab}
[ -x "$bin" ] || { echo "scenario-times: $bin is not built (run make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "scenario-times: needs GNU time (/usr/bin/time)" >&2; exit 2; }
[ -n "$presets" ] || presets=$("$bin" drives | awk 'NR > 1 { print $1 }')
[ -n "$scenarios" ] || scenarios=$("$bin" scenario list | grep -v '^ ')
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
echo "| preset | scenario | wall s | CPU s | peak MiB | status |"
echo "|---|---|---|---|---|---|"
for p in $presets; do
	for s in $scenarios; do
		rm -rf "$out/run"
		timeout "$limit" /usr/bin/time -f '%e %U %S %M' -o "$out/time" \
			"$bin" scenario run "$s" --drive "$p" --out "$out/run" \
			>"$out/stdout" 2>"$out/stderr"
		rc=$?
		if [ $rc -eq 124 ]; then
			echo "| $p | $s | >$limit | - | - | stopped after $limit s |"
			continue
		fi
		read -r wall user sys kb <"$out/time" 2>/dev/null || { wall=- user=0 sys=0 kb=0; }
		status=ok
		if [ $rc -ne 0 ]; then
			status="exit $rc: $(head -n 1 "$out/stderr" | tr '|' '/' | cut -c1-120)"
		fi
		awk -v p="$p" -v s="$s" -v w="$wall" -v u="$user" -v y="$sys" -v k="$kb" -v st="$status" \
			'BEGIN { printf "| %s | %s | %s | %.1f | %.0f | %s |\n", p, s, w, u + y, k / 1024, st }'
	done
done
