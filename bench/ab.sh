#!/bin/sh
# Compare two builds of build/simbench in one run, alternating them (and
# the bare FTL, bench/bareftl.c) so a shared machine's load falls on all
# alike: bench/ab.sh OLD NEW (paths to simbench binaries; build an older
# commit's with `git worktree add /tmp/old COMMIT && make -C /tmp/old
# build/simbench`).  Prints each run, the medians with foreground GC in
# bursts and paced, and the medians of each round's ratio to the bare FTL.
# Environment: ROUNDS (default 5), CAPACITY (default 32g), BARE (the bare
# FTL's binary, default build/bareftl; "none" to leave it out).
set -eu
[ $# -eq 2 ] || { echo "usage: bench/ab.sh OLD_SIMBENCH NEW_SIMBENCH" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-5}
cap=${CAPACITY:-32g}
bare=${BARE:-$top/build/bareftl}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
. "$top/bench/lib.sh"
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
i=1
while [ "$i" -le "$rounds" ]; do
	for which in old new; do
		bin=$1; [ "$which" = new ] && bin=$2
		for pc in no yes; do
			r=$("$bin" --set capacity="$cap" --set op=0.07 --set page_size=4k \
				--set pages_per_block=256 --set multiplane=no \
				--set gc_policy=greedy --precondition 2 --writes 1 \
				--seed "$i" --set gc_pacing="$pc")
			echo "$which pacing=$pc round=$i writes_per_second=$(field writes_per_second "$r")" | tee -a "$tmp"
		done
	done
	if [ "$bare" != none ]; then
		r=$("$bare" --capacity "$cap" --op 0.07 --ppb 256 --page 4096 --seed "$i")
		echo "bare round=$i writes_per_second=$(field writes_per_second "$r")" | tee -a "$tmp"
	fi
	i=$((i + 1))
done
for k in "old pacing=no" "new pacing=no" "old pacing=yes" "new pacing=yes"; do
	echo "median $k: $(grep "^$k " "$tmp" | sed 's/.*writes_per_second=//' | median | awk '{printf "%.0f", $1}')"
done
[ "$bare" = none ] && exit 0
echo "median bare: $(grep "^bare " "$tmp" | sed 's/.*writes_per_second=//' | median | awk '{printf "%.0f", $1}')"
for k in "old pacing=no" "new pacing=no" "old pacing=yes" "new pacing=yes"; do
	m=$(i=1; while [ "$i" -le "$rounds" ]; do
		a=$(grep "^$k round=$i " "$tmp" | sed 's/.*writes_per_second=//')
		b=$(grep "^bare round=$i " "$tmp" | sed 's/.*writes_per_second=//')
		awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f\n", a / b}'
		i=$((i + 1)); done | median)
	echo "median ratio to bare, $k: $m"
done
