#!/bin/sh
# Compare two builds of build/simbench in one run, alternating them so a
# shared machine's load falls on both alike: bench/ab.sh OLD NEW
# (paths to simbench binaries; build an older commit's with
# `git worktree add /tmp/old COMMIT && make -C /tmp/old build/simbench`).
# Prints each run and the medians, with foreground GC in bursts and paced.
# Environment: ROUNDS (default 5), CAPACITY (default 32g).
set -eu
[ $# -eq 2 ] || { echo "usage: bench/ab.sh OLD_SIMBENCH NEW_SIMBENCH" >&2; exit 2; }
rounds=${ROUNDS:-5}
cap=${CAPACITY:-32g}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
i=1
while [ "$i" -le "$rounds" ]; do
	for which in old new; do
		bin=$1; [ "$which" = new ] && bin=$2
		for pc in no yes; do
			r=$("$bin" --set capacity="$cap" --set op=0.07 --set page_size=4k \
				--set pages_per_block=256 --set multiplane=no \
				--set gc_policy=greedy --precondition 2 --writes 1 \
				--seed "$i" --set gc_pacing="$pc")
			w=$(echo "$r" | tr ' ' '\n' | sed -n 's/^writes_per_second=//p')
			echo "$which pacing=$pc round=$i writes_per_second=$w" | tee -a "$tmp"
		done
	done
	i=$((i + 1))
done
for k in "old pacing=no" "new pacing=no" "old pacing=yes" "new pacing=yes"; do
	m=$(grep "^$k " "$tmp" | sed 's/.*writes_per_second=//' | sort -n |
	    awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
	echo "median $k: $m"
done
