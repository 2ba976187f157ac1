#!/bin/sh
# The memory estimate against the process's peak (make bench): for each
# drive, the figure `ssdlab drive show` prints ("# memory: about ...",
# plus what it says jobs that verify data add, for those rows) beside the
# peak resident memory of `ssdlab run` on it (/usr/bin/time -f %M, the
# median of ROUNDS runs), and their ratio.  Prints a Markdown table.
#
# The runs: 2 s of simulated 4 KiB random writes at QD32 (a short run:
# the maps are written whole when the drive is built, the rest is touched
# as the flash is), on the default preset at 64m, 1g, 16g, 256g and 1t;
# then with verify=crc32c, short and after writing the whole 16g drive
# (without the verify phase, whose read-back marks, 2 bytes per logical
# page, are the runner's: `run` counts them, drive show's figure does
# not); and a machine with a page cache and MFT over the drive (buffered
# writes, direct=0).
# Environment: ROUNDS (default 3), BIG (default 1t: the largest drive;
# 2.2 GB of memory for it).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-3}
big=${BIG:-1t}
ssdlab="$top/ssdlab"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/bench/lib.sh"
[ -x /usr/bin/time ] || { echo "bench/memory.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
cat >"$tmp/short.fio" <<'EOF'
[w]
rw=randwrite
bs=4k
iodepth=32
runtime=2s
time_based
EOF
sed 's/^bs=4k$/bs=4k\nverify=crc32c\ndo_verify=0/' "$tmp/short.fio" >"$tmp/short_verify.fio"
cat >"$tmp/full_verify.fio" <<'EOF'
[fill]
rw=write
bs=128k
iodepth=32
verify=crc32c
do_verify=0
EOF
sed 's/^bs=4k$/bs=4k\ndirect=0/' "$tmp/short.fio" >"$tmp/buffered.fio"
mib() { # "70.62 MiB" and the like, in MiB
	awk -v n="$1" -v u="$2" 'BEGIN { m = n; if (u == "KiB") m /= 1024;
		if (u == "GiB") m *= 1024; if (u == "TiB") m *= 1048576;
		if (u == "B") m /= 1048576; printf "%.1f", m }'
}
row() { # LABEL JOB VERIFY(0/1) --set...
	label=$1 job=$2 verify=$3
	shift 3
	line=$("$ssdlab" drive show default "$@" | sed -n 's/^# memory: //p')
	# shellcheck disable=SC2086
	est=$(mib $(echo "$line" | sed 's/^about \([0-9.]*\) \([KMGT]*i*B\) .*/\1 \2/'))
	if [ "$verify" = 1 ]; then
		# shellcheck disable=SC2086
		more=$(mib $(echo "$line" | sed 's/.*; \([0-9.]*\) \([KMGT]*i*B\) more for jobs that verify data$/\1 \2/'))
		est=$(awk -v a="$est" -v b="$more" 'BEGIN { printf "%.1f", a + b }')
	fi
	i=0
	: >"$tmp/rss"
	while [ "$i" -lt "$rounds" ]; do
		(cd "$tmp" && /usr/bin/time -f %M -o "$tmp/t" "$ssdlab" run "$job" "$@" >/dev/null)
		cat "$tmp/t" >>"$tmp/rss"
		i=$((i + 1))
	done
	peak=$(median <"$tmp/rss")
	awk -v l="$label" -v e="$est" -v p="$peak" 'BEGIN {
		printf "| %s | %.1f | %.1f | %.2f |\n", l, e, p / 1024, e / (p / 1024) }'
}
echo "| drive, run | estimate MiB | peak RSS MiB (median of $rounds) | estimate / peak |"
echo "|---|---|---|---|"
for cap in 64m 1g 16g 256g "$big"; do
	row "default at $cap, 2 s of random writes" short.fio 0 --set capacity="$cap"
done
row "default at 16g, verify=crc32c, 2 s of random writes" short_verify.fio 1 --set capacity=16g
row "default at 16g, verify=crc32c, the whole drive written" full_verify.fio 1 --set capacity=16g
row "default at 16g, page_cache=1g and mft=yes, buffered random writes" buffered.fio 0 \
	--set capacity=16g --set page_cache=1g --set mft=yes
