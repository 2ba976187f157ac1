#!/bin/sh
# The NBD server's speed and memory (make bench): 4 KiB random writes at
# QD32 through fio's nbd engine against `ssdlab serve --clock fast` (the
# default 32 GiB drive, data in memory), side by side in the same run with
# nbdkit's own memory plugin (the same nbdkit, the same threads), rounds
# alternating so machine noise hits both alike.  Then the memory each
# takes per written 4 KiB page: the server's resident memory after the
# writes less its memory before them, over the pages its store holds.
#
# Prints a row per round and the medians, and the ratio ssdlab / memory
# plugin (target >= 0.70).  Environment: ROUNDS (default 3), RUNTIME
# (seconds of each fio run, default 5), SIZE (the range written, 1g).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-3}
runtime=${RUNTIME:-5}
size=${SIZE:-1g}
for t in nbdkit fio python3; do
	command -v $t >/dev/null 2>&1 || { echo "bench/serve.sh: $t is not installed: skipped"; exit 0; }
done
[ -f "$top/build/nbdkit-ssdlab-plugin.so" ] || { echo "bench/serve.sh: the plugin is not built: skipped"; exit 0; }
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
cat >"$tmp/w.fio" <<EOJ
[w]
ioengine=nbd
uri=\${URI}
rw=randwrite
bs=4k
iodepth=32
size=$size
time_based=1
runtime=$runtime
EOJ
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
# one SERVER-COMMAND...: IOPS, and KiB of memory the writes added
one() {
	rm -f "$tmp/sock"
	"$@" >"$tmp/srv.out" 2>"$tmp/srv.err" &
	pid=$!
	while [ ! -S "$tmp/sock" ]; do
		kill -0 $pid 2>/dev/null || { cat "$tmp/srv.err" >&2; exit 1; }
		sleep 0.05
	done
	# the server is nbdkit itself (ssdlab serve execs it)
	r0=$(rss $pid)
	URI="nbd+unix:///?socket=$tmp/sock" fio --output-format=json "$tmp/w.fio" >"$tmp/fio.json"
	r1=$(rss $pid)
	kill -TERM $pid
	wait $pid || true
	pid=
	iops=$(python3 -c '
import json, sys
t = open(sys.argv[1]).read()
print("%.0f" % json.loads(t[t.index("{"):])["jobs"][0]["write"]["iops"])' "$tmp/fio.json")
	echo "$iops $((r1 - r0))"
}
. "$top/bench/lib.sh"
: >"$tmp/rows"
echo "round  ssdlab_iops  memory_iops  ratio  ssdlab_B/page  memory_B/page"
i=1
while [ "$i" -le "$rounds" ]; do
	set -- $(one "$top/ssdlab" serve --socket "$tmp/sock" --clock fast)
	si=$1 sk=$2
	pages=$(sed -n 's/^ssdlab: data store: \([0-9]*\) pages.*/\1/p' "$tmp/srv.err")
	set -- $(one nbdkit -f -t 64 -U "$tmp/sock" memory 32G)
	mi=$1 mk=$2
	# the memory plugin holds the same pages: the writes were the same
	# seeded random offsets
	sb=$(awk -v k="$sk" -v p="$pages" 'BEGIN {printf "%.0f", k * 1024 / p}')
	mb=$(awk -v k="$mk" -v p="$pages" 'BEGIN {printf "%.0f", k * 1024 / p}')
	ratio=$(awk -v a="$si" -v b="$mi" 'BEGIN {printf "%.3f", a / b}')
	printf '%5d  %11s  %11s  %5s  %13s  %13s\n' "$i" "$si" "$mi" "$ratio" "$sb" "$mb"
	echo "$si $mi $ratio $sb $mb $pages" >>"$tmp/rows"
	i=$((i + 1))
done
col() { cut -d' ' -f"$1" "$tmp/rows" | median; }
echo
echo "median ssdlab serve --clock fast: $(col 1) IOPS; nbdkit memory plugin: $(col 2) IOPS"
echo "median ratio ssdlab / memory plugin: $(col 3) (target >= 0.70)"
echo "memory per written 4 KiB page: ssdlab $(col 4) B, memory plugin $(col 5) B" \
	"($(col 6) pages written; resident memory added by the writes)"
