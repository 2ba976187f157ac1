#!/bin/sh
# The speed and memory benchmark (make bench): ssdlab's whole simulator
# (bench/simbench) against a bare page-mapped FTL with no timing model
# (bench/bareftl), on the same drive and workload, alternating in the same
# run so machine noise hits both alike.
#
# Workload: 32 GiB user capacity, 7% OP, 4 KiB pages, 256 pages per block,
# greedy GC; a sequential fill, 2x capacity of uniform random 4 KiB writes
# (untimed), then 1x capacity timed.  ssdlab runs twice a round: with
# foreground GC in bursts (gc_pacing=no: the core simulator the benchmark
# was defined for) and with paced foreground GC (the presets' default).  Prints each round and a summary with
# medians and the median of the per-round ratios.
#
# Then times the demo once (its own last line reports the wall time), and
# the machine's layers (bench/machine.sh), the NBD server (bench/serve.sh),
# trace replay (bench/trace.sh) and the memory estimate (bench/memory.sh).
#
# Environment: ROUNDS (default 5), CAPACITY (default 32g).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-5}
cap=${CAPACITY:-32g}
sim="$top/build/simbench"
bare="$top/build/bareftl"
out="$top/bench/out"
mkdir -p "$out"
log="$out/results.txt"
: >"$log"
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
. "$top/bench/lib.sh"
echo "round  ssdlab_writes/s  paced_writes/s  bare_writes/s  ratio  paced_ratio"
i=1
while [ "$i" -le "$rounds" ]; do
	common="--set capacity=$cap --set op=0.07 --set page_size=4k \
		--set pages_per_block=256 --set multiplane=no --set gc_policy=greedy \
		--precondition 2 --writes 1 --seed $i"
	# shellcheck disable=SC2086
	s=$("$sim" $common --set gc_pacing=no)
	# shellcheck disable=SC2086
	p=$("$sim" $common --set gc_pacing=yes)
	b=$("$bare" --capacity "$cap" --op 0.07 --ppb 256 --page 4096 --seed "$i")
	sw=$(field writes_per_second "$s")
	pw=$(field writes_per_second "$p")
	bw=$(field writes_per_second "$b")
	ratio=$(awk -v a="$sw" -v b="$bw" 'BEGIN {printf "%.3f", a / b}')
	pratio=$(awk -v a="$pw" -v b="$bw" 'BEGIN {printf "%.3f", a / b}')
	printf '%5d  %15s  %14s  %13s  %5s  %11s\n' "$i" "$sw" "$pw" "$bw" "$ratio" "$pratio"
	echo "sim $s" >>"$log"
	echo "paced $p" >>"$log"
	echo "bare $b" >>"$log"
	echo "ratio $ratio" >>"$log"
	echo "pratio $pratio" >>"$log"
	i=$((i + 1))
done
sm=$(grep '^sim ' "$log" | sed 's/.*writes_per_second=\([0-9.]*\).*/\1/' | median)
pm=$(grep '^paced ' "$log" | sed 's/.*writes_per_second=\([0-9.]*\).*/\1/' | median)
bm=$(grep '^bare ' "$log" | sed 's/.*writes_per_second=\([0-9.]*\).*/\1/' | median)
rm_=$(grep '^ratio ' "$log" | cut -d' ' -f2 | median)
prm=$(grep '^pratio ' "$log" | cut -d' ' -f2 | median)
rss=$(grep '^sim ' "$log" | sed 's/.*peak_rss_kib=\([0-9]*\).*/\1/' | median)
bpp=$(grep '^sim ' "$log" | sed 's/.*bytes_per_4k_physical=\([0-9.]*\).*/\1/' | median)
brss=$(grep '^bare ' "$log" | sed 's/.*peak_rss_kib=\([0-9]*\).*/\1/' | median)
swaf=$(grep '^sim ' "$log" | sed 's/.*waf=\([0-9.]*\).*/\1/' | median)
bwaf=$(grep '^bare ' "$log" | sed 's/.*waf=\([0-9.]*\).*/\1/' | median)
echo
echo "median ssdlab, foreground GC in bursts (the core benchmark): $sm host writes/s, WAF $swaf"
echo "median ssdlab, paced foreground GC (the presets' default): $pm host writes/s"
echo "median bare FTL: $bm host writes/s, WAF $bwaf, peak RSS $brss KiB"
echo "median ratio ssdlab / bare FTL: $rm_ (target >= 0.40); paced: $prm"
echo "memory: peak RSS $rss KiB, $bpp bytes per 4 KiB physical (target <= 12)"
echo "(raw lines in $log)"
echo
echo "demo (./ssdlab, default 32 GiB drive, fresh to steady state):"
"$top/ssdlab" | grep 'wall time'
echo
echo "the machine around the drive (bench/machine.sh):"
"$top/bench/machine.sh"

echo
echo "the NBD server against nbdkit's memory plugin (bench/serve.sh):"
"$top/bench/serve.sh"
echo
echo "trace replay against the same workload drawn (bench/trace.sh):"
"$top/bench/trace.sh"
echo
echo "the memory estimate against the peak (bench/memory.sh):"
"$top/bench/memory.sh"
