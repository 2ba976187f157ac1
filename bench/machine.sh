#!/bin/sh
# The machine's speed (make bench): simulated host I/Os per wall second of
# one job file on the default drive, bare and with each host layer
# (docs/stack.md), medians of ROUNDS runs (default 3), the bare drive's
# runs alternating with the others' so machine noise hits all alike.
#
# Job: a sequential fill of the volume in 1 MiB writes at QD32, then 2x
# the volume of uniform random 4 KiB writes at QD32, direct=1 (the page
# cache row runs the same file buffered: direct=0).  The drive: default,
# capacity 4g (a RAID 0 of two: 2 x 4g; a bare 8g drive for comparison).
# Prints one row per machine: the median rate and its ratio to the bare
# drive's of the same volume.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-3}
ssdlab="$top/ssdlab"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for direct in 1 0; do
	cat >"$tmp/d$direct.fio" <<EOJ
[fill]
rw=write
bs=1m
size=100%
iodepth=32
direct=$direct
[rand]
stonewall
rw=randwrite
bs=4k
iodepth=32
size=100%
io_size=200%
direct=$direct
EOJ
done
rate() { # JOBFILE SETS...: simulated host I/Os per wall second
	f=$1; shift
	"$ssdlab" run "$f" "$@" | sed -n 's/^Wall: .* s, \([0-9]*\) simulated.*/\1/p'
}
. "$top/bench/lib.sh"
printf '%-44s %14s %8s\n' "machine" "host I/Os/s" "ratio"
row() { # NAME REF_SETS -- SETS...: NAME's median and its ratio to REF's
	name=$1; ref=$2; shift 2
	: >"$tmp/a"; : >"$tmp/b"
	f=$tmp/d1.fio
	case "$*" in *page_cache*) f=$tmp/d0.fio ;; esac
	for i in $(seq "$rounds"); do
		# shellcheck disable=SC2086
		rate "$tmp/d1.fio" $ref >>"$tmp/a"
		rate "$f" "$@" >>"$tmp/b"
	done
	a=$(median <"$tmp/a"); b=$(median <"$tmp/b")
	printf '%-44s %14.0f %8.3f\n' "$name" "$b" "$(echo "$b $a" | awk '{print $1 / $2}')"
}
ref4="--drive default --set capacity=4g"
row "bare SSD, 4g (reference)" "$ref4" $ref4
row "RAID 0 of 2 x 4g (against a bare 8g)" "--drive default --set capacity=8g" $ref4 --set raid=0
row "page cache 256m, buffered" "$ref4" $ref4 --set page_cache=256m
row "MFT" "$ref4" $ref4 --set mft=yes
row "HDD (hitachi), 4g" "$ref4" --drive hitachi-hdt725032vla360 --set capacity=4g
