# Stopping a sweep (docs/sweeps.md, "Running: what ends, what runs
# again"): SIGTERM, SIGINT or SIGHUP to `sweep run` stops its children
# (they carried on with PPID 1), leaves their points unended -- no final
# folder, so the next run runs them -- and exits 128+N; a child killed
# by a signal the runner did not send (the OOM killer) is cut short, not
# failed: its point is not skipped next time.
. "$TOP/tests/cli/lib.inc"
need pgrep
# a point that runs for a minute or more of wall time, and a quick one
printf '[w]\nrw=randwrite\nbs=4k\niodepth=16\nio_size=1t\n' >slow.fio
printf '[w]\nrw=randwrite\nbs=4k\niodepth=16\nio_size=1m\n' >quick.fio
printf '[sweep]\ndrive = tiny\nset.pe_cycles = 1000000\njob = slow.fio\nseed = 1, 2\n' >slow.sweep
# wait until runner $1 has $2 children running, their pids in kids.txt
kids() {
	i=0
	while [ "$(pgrep -P "$1" | wc -l)" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "the runner did not start $2 points"
		sleep 0.1
	done
	pgrep -P "$1" >kids.txt
}
at_exit 'for p in $(cat all_kids.txt 2>/dev/null); do kill -9 $p; done'
for sig in TERM INT HUP; do
	case $sig in TERM) n=15 ;; INT) n=2 ;; HUP) n=1 ;; esac
	"$SSDLAB" sweep run slow.sweep --dir $sig -j 2 >out.txt 2>err.txt &
	runner=$!
	kids $runner 2
	cat kids.txt >>all_kids.txt
	kill -$sig $runner
	set +e
	wait $runner
	got=$?
	set -e
	[ $got -eq $((128 + n)) ] || fail "SIG$sig: exit $got, wanted $((128 + n)): $(cat out.txt err.txt)"
	for k in $(cat kids.txt); do
		kill -0 "$k" 2>/dev/null && fail "SIG$sig: child $k still runs"
	done
	[ "$(grep -c ': stopped (it runs again next time)$' out.txt)" -eq 2 ] ||
		fail "SIG$sig: the points stopped: $(cat out.txt)"
	grep -q "^ssdlab: stopped by signal $n: 2 points stopped, to run again next time$" err.txt ||
		fail "SIG$sig: $(cat err.txt)"
	# no point ended: no final folder, no temporary one left
	[ -z "$(ls -A $sig/points)" ] || fail "SIG$sig: left $(ls -A $sig/points)"
	expect_status 1 "$SSDLAB" sweep collect slow.sweep --dir $sig
	grep -q "^2 points: 0 done, 0 failed, 2 missing" out.txt || fail "SIG$sig: collect: $(cat out.txt)"
done

# a child killed by another's signal: cut short, runs again
printf '[sweep]\ndrive = tiny\nset.pe_cycles = 1000000\njob = quick.fio, slow.fio\n' >oom.sweep
"$SSDLAB" sweep run oom.sweep --dir oom -j 2 >out.txt 2>err.txt &
runner=$!
i=0
until grep -q '^point 0 [0-9a-f]*: done$' out.txt; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "the quick point did not end: $(cat out.txt err.txt)"
	sleep 0.1
done
kids $runner 1
cat kids.txt >>all_kids.txt
kill -KILL $(cat kids.txt)
set +e
wait $runner
got=$?
set -e
[ $got -eq 1 ] || fail "a killed child: exit $got, wanted 1: $(cat out.txt err.txt)"
grep -q '^point 1 [0-9a-f]*: cut short by signal 9 (not ended: it runs again next time)$' out.txt ||
	fail "a killed child: $(cat out.txt)"
grep -q '^ssdlab: 1 point cut short by a signal (not ended: the same command runs it again)$' err.txt ||
	fail "a killed child: $(cat err.txt)"
expect_status 1 "$SSDLAB" sweep collect oom.sweep --dir oom
grep -q "^2 points: 1 done, 0 failed, 1 missing" out.txt || fail "a killed child: collect: $(cat out.txt)"
