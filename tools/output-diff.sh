#!/bin/sh
# tools/output-diff.sh OLD_SSDLAB NEW_SSDLAB -- what two builds print,
# compared: accuracy, calibrate, life (text and JSON), the presets, both
# option references, every scenario on the tiny drive (summary,
# result.json and CSV series) and every examples/*.fio job (normal and
# JSON).  Wall-clock figures are masked.  Prints the diff and exits 1 if
# the outputs differ, prints "same outputs" and exits 0 if not.  Run from
# anywhere; the commands run in the repository (about a minute per build).
# Use: after a change that must not change behaviour, against a build of
# the commit before it (git worktree add /tmp/old HEAD~1 && make -C
# /tmp/old).
set -eu
[ $# -eq 2 ] || { echo "usage: tools/output-diff.sh OLD_SSDLAB NEW_SSDLAB" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
collect() { # BIN OUTDIR
	bin=$1; out=$2
	mkdir -p "$out"
	run() { name=$1; shift; set +e; "$bin" "$@" >"$out/$name.out" 2>&1; echo "rc=$?" >>"$out/$name.out"; set -e; }
	run accuracy accuracy
	run calibrate calibrate
	run life life
	run life-json life --output-format=json
	run drives drives
	run drivedoc drive doc
	run jobdoc job doc
	for p in "$top"/presets/*.ini; do
		p=$(basename "$p" .ini); run "show-$p" drive show "$p"
	done
	for s in $("$bin" scenario list | grep -v '^ ' ); do
		d=$tmp/scn; rm -rf "$d"
		run "scn-$s" scenario run "$s" --drive tiny --out "$d"
		sed -i "s#$d#OUT#g" "$out/scn-$s.out"
		for f in "$d"/*.json "$d"/*.csv; do
			[ -f "$f" ] && cp "$f" "$out/scn-$s-$(basename "$f").out"
		done
	done
	for j in "$top"/examples/*.fio; do
		b=$(basename "$j" .fio)
		run "job-$b" run "$j" --drive tiny --output-format=json
		run "jobn-$b" run "$j" --drive tiny
	done
	sed -i -E 's/"(wall_seconds|host_ios_per_wall_second)" *: *[0-9.e+-]+/"\1":X/g;
		s/"(timestamp|timestamp_ms|time)" *: *[0-9]+/"\1":X/g; s/"time" : "[^"]*"/"time":X/g;
		s/^Wall: .*/Wall: X/; s/[0-9.]+ s of wall/X s of wall/g' "$out"/*.out
}
cd "$top"
collect "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" "$tmp/old"
collect "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")" "$tmp/new"
if diff -r "$tmp/old" "$tmp/new"; then
	echo "same outputs"
else
	exit 1
fi
