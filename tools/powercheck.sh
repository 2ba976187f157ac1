#!/bin/sh
# Power cuts over NBD, checked from the client's side: `ssdlab serve
# --power-cuts` under tests/nbd/powercheck.c (random writes at a queue
# depth, flushes and FUA writes, SIGUSR2 cuts while they are in flight,
# every page read back and checked against what the server promised)
# across queue depths 1, 4, 16 and 64, both clocks, with and without a
# write buffer, each paired-pages model and plp.
#
#   tools/powercheck.sh [-n CUTS] [-r ROUNDS] [-s SEED] [-c CASE] SSDLAB POWERCHECK
#   tools/powercheck.sh -l        the cases' names, one a line
#
# Each round runs every case of the table below once, a new server each,
# with CUTS cuts (default 3) and the round's seed (-c: only the cases
# whose name contains CASE).  Prints a line per
# run and the totals; exits 1 if a check failed anywhere (the client
# names it), if a drive without plp never lost a page (the cuts missed
# the writes: the check proved nothing) or if one with plp lost any.
# `make powercheck` runs the long version (docs/power-loss.md).
set -u
# name  client-qd  checker-options  serve-options (the tiny drive, a
# 64 MiB region of it; 16k pages so that a cut meets several pages in
# a program)
cases='
fast-qd1-wb      1  -     --clock fast --set write_buffer=1m
fast-qd4         4  -     --clock fast
fast-qd16-wb    16  -     --clock fast --fast-qd 8 --set write_buffer=1m
fast-qd64-wb    64  -     --clock fast --fast-qd 32 --set write_buffer=2m
real-qd1-wb      1  -     --set write_buffer=1m
real-qd4         4  -     --clock real
real-qd16-wb    16  -     --set write_buffer=1m
real-qd64       64  -     --clock real
fast-protected  16  -     --clock fast --fast-qd 8 --set paired_pages=protected
real-protected  16  -     --set paired_pages=protected --set write_buffer=1m
fast-unprot     16  loss  --clock fast --fast-qd 8 --set paired_pages=unprotected
fast-plp        16  plp   --clock fast --fast-qd 8 --set plp=yes --set write_buffer=1m
real-plp        64  plp   --set plp=yes
'
cuts=3
rounds=1
seed=1
only=
while getopts ln:r:s:c: o; do
	case $o in
	l) echo "$cases" | while read -r name rest; do
		[ -z "$name" ] || echo "$name"
	   done
	   exit 0 ;;
	n) cuts=$OPTARG ;;
	r) rounds=$OPTARG ;;
	s) seed=$OPTARG ;;
	c) only=$OPTARG ;;
	*) echo "usage: $0 [-n CUTS] [-r ROUNDS] [-s SEED] [-c CASE] SSDLAB POWERCHECK" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "usage: $0 [-n CUTS] [-r ROUNDS] [-s SEED] [-c CASE] SSDLAB POWERCHECK" >&2; exit 2; }
ssdlab=$1
check=$2
dir=$(mktemp -d)
pid=
cleanup() {
	[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fails=0
t_cuts=0 t_writes=0 t_eio=0 t_flush=0 t_feio=0 t_lost=0 t_flost=0 t_unprot=0
nolp_lost=0
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	s=$((seed + r - 1))
	echo "$cases" | while read -r name qd kind args; do
		[ -n "$name" ] || continue
		case $name in *"$only"*) ;; *) continue ;; esac
		sock=$dir/s.sock
		rm -f "$sock" "$dir/p.csv" "$dir/s.err"
		# shellcheck disable=SC2086
		"$ssdlab" serve --socket "$sock" --drive tiny --set page_size=16k --set capacity=256m \
			--power-cuts --power-log "$dir/p.csv" --seed "$s" $args \
			>/dev/null 2>"$dir/s.err" &
		pid=$!
		uri="nbd+unix:///?socket=$sock"
		i=0
		until [ -S "$sock" ] && nbdinfo --size "$uri" >/dev/null 2>&1; do
			i=$((i + 1))
			if [ $i -ge 400 ] || ! kill -0 $pid 2>/dev/null; then
				echo "FAIL $name: the server did not start: $(tail -n 3 "$dir/s.err")"
				exit 1
			fi
			sleep 0.05
		done
		opt=
		[ "$kind" = loss ] && opt=--allow-flushed-loss
		# shellcheck disable=SC2086
		out=$("$check" "$uri" --pid $pid --err "$dir/s.err" --power-log "$dir/p.csv" \
			--qd "$qd" --cuts "$cuts" --region 64m --seed "$s" $opt 2>"$dir/c.err")
		rc=$?
		kill -TERM $pid
		wait $pid
		src=$?
		pid=
		echo "$name seed=$s $out"
		if [ $rc -ne 0 ] || [ $src -ne 0 ]; then
			echo "FAIL $name (client exit $rc, server exit $src):"
			sed 's/^/    /' "$dir/c.err" | head -n 20
			echo "  the server's last words:"
			grep -v 'the power was cut at\|no flush on this connection' "$dir/s.err" |
				tail -n 5 | sed 's/^/    /'
			exit 1
		fi
		lost=$(echo "$out" | sed -n 's/.* lost=\([0-9]*\) .*/\1/p')
		if [ "$kind" = plp ] && [ "$lost" -ne 0 ]; then
			echo "FAIL $name: a drive with plp lost $lost pages"
			exit 1
		fi
	done >"$dir/round.out"
	rc=$?
	cat "$dir/round.out"
	[ $rc -eq 0 ] || fails=1
	# the totals, from the lines (the loop ran in a subshell)
	eval "$(awk '
		/ cuts=/ {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			c += v["cuts"]; w += v["writes"]; e += v["eio"]; f += v["flushes_ok"]
			fe += v["flushes_eio"]; l += v["lost"]
			if ($1 ~ /unprot/) u += v["flushed_lost"]; else fl += v["flushed_lost"]
			if ($1 !~ /plp/) nl += v["lost"]
		}
		END { printf "tc=%d rw=%d re=%d rf=%d rfe=%d rl=%d rfl=%d ru=%d rnl=%d\n", c, w, e, f, fe, l, fl, u, nl }
	' "$dir/round.out")"
	t_cuts=$((t_cuts + tc)) t_writes=$((t_writes + rw)) t_eio=$((t_eio + re))
	t_flush=$((t_flush + rf)) t_feio=$((t_feio + rfe)) t_lost=$((t_lost + rl))
	t_flost=$((t_flost + rfl)) t_unprot=$((t_unprot + ru)) nolp_lost=$((nolp_lost + rnl))
	[ $fails -eq 0 ] || break
done
if [ $fails -eq 0 ] && [ $nolp_lost -eq 0 ]; then
	echo "FAIL: no drive without plp lost a page: the cuts missed the writes"
	fails=1
fi
echo "total: cuts=$t_cuts writes=$t_writes eio=$t_eio flushes_ok=$t_flush" \
	"flushes_eio=$t_feio lost=$t_lost flushed_lost=$t_flost" \
	"flushed_lost_unprotected=$t_unprot"
[ $fails -eq 0 ] && [ $t_flost -eq 0 ]
