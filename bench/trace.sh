#!/bin/sh
# Trace replay's speed (make bench): simulated requests per wall second
# of a replayed fio iolog against the same workload drawn by ssdlab
# itself, rounds alternating so machine noise hits both alike.
#
# The workload: 5x the volume of uniform random 4 KiB writes at QD32 on
# the default drive at 4g, after a sequential fill; the trace is that job
# recorded once with write_iolog (5,242,880 requests, 206 MiB of text) and
# replayed with read_iolog and replay_no_stall=1 (as fast as the queue
# allows), plain and gzip-compressed.  Prints each round and the medians,
# and the median of the rounds' ratios replay / synthetic (target >= 0.8).
# Environment: ROUNDS (default 3), CAPACITY (default 4g), VOLUME (the
# random part, in % of the capacity; default 500), SSDLAB (the binary;
# default ./ssdlab), BASE (a second binary, an older build, run in the
# same rounds after it: before and after in one run).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-3}
cap=${CAPACITY:-4g}
volume=${VOLUME:-500}
ssdlab=${SSDLAB:-$top/ssdlab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fill='[fill]
rw=write
bs=1m
size=100%
iodepth=32'
printf '%s\n[rand]\nstonewall\nrw=randwrite\nbs=4k\niodepth=32\nsize=100%%\nio_size=%s%%\nnorandommap\n' \
	"$fill" "$volume" >"$tmp/synth.fio"
sed 's/^norandommap$/norandommap\nwrite_iolog=rand.iolog/' "$tmp/synth.fio" >"$tmp/rec.fio"
(cd "$tmp" && "$ssdlab" run rec.fio --set capacity="$cap" >/dev/null)
gzip -c "$tmp/rand.iolog" >"$tmp/rand.iolog.gz"
for f in rand.iolog rand.iolog.gz; do
	printf '%s\n[rand]\nstonewall\nread_iolog=%s\niodepth=32\nreplay_no_stall=1\n' \
		"$fill" "$f" >"$tmp/$f.fio"
done
rate() { # BINARY JOBFILE: simulated host I/Os per wall second (the run's)
	(cd "$tmp" && "$1" run "$2" --set capacity="$cap") |
		sed -n 's/^Wall: .* s, \([0-9]*\) simulated.*/\1/p'
}
round() { # BINARY NAME ROUND ROWS: the three runs, a line, a row
	s=$(rate "$1" synth.fio)
	p=$(rate "$1" rand.iolog.fio)
	g=$(rate "$1" rand.iolog.gz.fio)
	r=$(awk -v a="$p" -v b="$s" 'BEGIN {printf "%.3f", a / b}')
	rg=$(awk -v a="$g" -v b="$s" 'BEGIN {printf "%.3f", a / b}')
	printf '%5s %4d  %11s  %8s  %11s  %5s  %8s\n' "$2" "$3" "$s" "$p" "$g" "$r" "$rg"
	echo "$s $p $g $r $rg" >>"$4"
}
. "$top/bench/lib.sh"
: >"$tmp/rows"
: >"$tmp/base"
echo "      round  synthetic/s  replay/s  replay_gz/s  ratio  ratio_gz"
i=1
while [ "$i" -le "$rounds" ]; do
	round "$ssdlab" "" "$i" "$tmp/rows"
	[ -z "${BASE:-}" ] || round "$BASE" base "$i" "$tmp/base"
	i=$((i + 1))
done
col() { cut -d' ' -f"$1" "${2:-$tmp/rows}" | median; }
echo
echo "median synthetic: $(col 1) I/Os per wall second; replay: $(col 2); gzip replay: $(col 3)"
echo "median ratio replay / synthetic: $(col 4) (target >= 0.8); gzip: $(col 5)"
if [ -n "${BASE:-}" ]; then
	b=$tmp/base
	echo "base: median synthetic $(col 1 "$b"), replay $(col 2 "$b"), gzip replay $(col 3 "$b");" \
		"ratio $(col 4 "$b"), gzip $(col 5 "$b")"
fi
echo "(the runs' own figures, the fill included; the trace: $(grep -c ' write ' "$tmp/rand.iolog") requests)"
# constant memory: the replay's peak resident memory against the
# synthetic run's (the trace is read a line at a time)
peak() { (cd "$tmp" && python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$ssdlab" run "$1" --set capacity="$cap"); }
echo "peak resident memory: synthetic $(peak synth.fio) KiB, replay $(peak rand.iolog.fio) KiB, gzip replay $(peak rand.iolog.gz.fio) KiB" \
	"(trace $(($(wc -c <"$tmp/rand.iolog") / 1048576)) MiB)"
