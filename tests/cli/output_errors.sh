# Output that cannot be written is an error (docs/output.md): standard
# output that is full or closed fails every command with one line naming
# it; a file that cannot be written is named with the reason, exit 1, and
# nothing is left half written looking complete.  Faults are injected as
# SQLite's test VFS does (SSDLAB_FAULT=OP:N fails the N-th open, write,
# fsync, rename or close): N rises until the command succeeds, and after
# each failure every file there is either the whole file a run without
# faults writes or absent, and no temporary is left.
. "$TOP/tests/cli/lib.inc"

[ -w /dev/full ] || { echo "SKIP: no /dev/full to fill"; exit 77; }

STDOUT_FULL="^ssdlab: write error on standard output: No space left on device$"

# ---- standard output ----

printf '[w]\nrw=randwrite\nbs=4k\nsize=1m\n' >small.fio
full() { # CMD...: standard output /dev/full: exit 1, the one line
	expect_err 1 "$STDOUT_FULL" sh -c '"$@" >/dev/full' sh "$@"
}
full "$SSDLAB" run small.fio --drive tiny
full "$SSDLAB" run small.fio --drive tiny --output-format=json
full "$SSDLAB" drive show tiny
full "$SSDLAB" drive doc
full "$SSDLAB" drives
full "$SSDLAB" job doc
full "$SSDLAB" life --drive tiny --daily 1g
full "$SSDLAB" scenario list
full "$SSDLAB" scenario run steady-state --drive tiny --set volume=100% \
	--set min_volume=50% --out so
full "$SSDLAB" trace stat "$TOP/examples/traces/sample.iolog.gz"
full "$SSDLAB" trace convert "$TOP/examples/traces/sample.iolog.gz" -
full "$SSDLAB" --version
full "$SSDLAB" --help
full "$SSDLAB" run --help
# closed: written to, it is an error too (coreutils'); unused, it is not
expect_err 1 "^ssdlab: write error on standard output: Bad file descriptor$" \
	sh -c '"$1" --version >&-' sh "$SSDLAB"
expect_status 2 sh -c '"$1" run >&-' sh "$SSDLAB"
# --output on a full device names it
expect_err 1 "^ssdlab: cannot write '/dev/full': No space left on device$" \
	"$SSDLAB" run small.fio --drive tiny --output /dev/full
expect_err 1 "^ssdlab: cannot write '/dev/full': No space left on device$" \
	"$SSDLAB" life --drive tiny --daily 1g --output /dev/full
expect_err 1 "^ssdlab: cannot write '/dev/full': No space left on device$" \
	"$SSDLAB" trace stat "$TOP/examples/traces/sample.iolog.gz" --output /dev/full
expect_err 2 "^ssdlab: SSDLAB_FAULT='write:0': wanted a comma list of OP:N" \
	env SSDLAB_FAULT=write:0 "$SSDLAB" --version

# ---- the sweep ----

# same DIR REF [SKIP]: every file in DIR is the one in REF, byte for byte
# (files matching one of the globs SKIP only have to exist there, and be
# whole JSON if they are JSON: a report that holds a job's error, or the
# wall clock), and no temporary is left.  (No process but cmp per file:
# the sweep runs this some 500 times.)
same() {
	for f in "$1"/* "$1"/.[!.]*; do
		[ -e "$f" ] || continue
		b=${f##*/}
		[ -e "$2/$b" ] || fail "$1: $b is not a file of a whole run (a temporary?)"
		skip=
		for p in ${3:-}; do
			case $b in $p) skip=1 ;; esac
		done
		if [ "$b" = report.html ]; then
			# the page holds the summary, which names the folder
			sed "s#$1/#DIR/#g" "$f" >page.a
			sed "s#$2/#DIR/#g" "$2/$b" >page.b
			cmp -s page.a page.b || fail "$1: $b is not whole (differs from a run without faults)"
		elif [ -z "$skip" ]; then
			cmp -s "$f" "$2/$b" || fail "$1: $b is not whole (differs from a run without faults)"
		elif [ "${b%.json}" != "$b" ] && [ -n "$PY" ]; then
			python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$f" ||
				fail "$1: $b is not whole JSON"
		fi
	done
}
need python3
PY=python3
# sweep NAME MSGDIR CMD...: CMD run in NAME.OP.N with SSDLAB_FAULT=OP:N
# for each OP and N = 1, 2, ... until it succeeds; each failure exits 1
# with lines naming a file (in MSGDIR, or standard output) and leaves
# NAME.OP.N as `same` wants against NAME.ref (made first, without faults).
# CMD sees the folder as $D.
sweep() {
	name=$1 msgdir=$2; shift 2
	rm -rf "$name.ref"
	mkdir "$name.ref"
	D=$name.ref
	expect_status 0 "$@"
	for op in write fsync rename close open; do
		n=1
		while :; do
			d=$name.$op.$n
			mkdir "$d"
			D=$d
			export SSDLAB_FAULT=$op:$n
			set +e
			"$@" >"$d.out" 2>"$d.err"
			rc=$?
			set -e
			unset SSDLAB_FAULT
			[ "$rc" -eq 0 ] && break
			# (an output that cannot be opened at the start is the
			# usage error of a folder that is not there)
			[ "$rc" -eq 1 ] || { [ "$rc" -eq 2 ] && [ $op = open ]; } ||
				{ cat "$d.err" >&2; fail "$d: exit $rc, wanted 1"; }
			[ -s "$d.err" ] || fail "$d: failed without a message"
			why="(No space left on device|Input/output error)"
			if grep -Ev "^ssdlab: (job '[^']*': )?cannot write '$msgdir/[^']*': $why$" "$d.err" |
				grep -Ev "^ssdlab: write error on standard output: $why$" |
				grep -Eq .; then
				cat "$d.err" >&2
				fail "$d: a message that does not name the file"
			fi
			same "$d" "$name.ref" "${SAME_SKIP:-}"
			n=$((n + 1))
			[ "$n" -le 40 ] || fail "$name: $op:$n still fails"
		done
		# the whole run once the faults are past its last operation
		same "$d" "$name.ref" "${SAME_SKIP:-}"
		[ "$n" -gt 1 ] || fail "$name: no $op in the run"
		echo "$name: $op failed at each of $((n - 1))"
	done
}

# run: the report, fio's logs (per job), write_iolog
cat >logs.fio <<'EOF'
[global]
bs=4k
size=2m
write_bw_log=@D@/lg
log_avg_msec=1

[w]
rw=randwrite
write_iolog=@D@/w.iolog

[r]
stonewall
rw=read
EOF
# the folder goes into the job file by sed, per run
run_logs() {
	sed "s|@D@|$D|g" logs.fio >"$D.fio"
	"$SSDLAB" run "$D.fio" --drive tiny --output-format=json --output "$D/rep.json"
}
SAME_SKIP='rep.json' # with a job's error when a log failed
sweep run "run[^/]*" run_logs
SAME_SKIP=
[ "$(ls run.ref | wc -l)" -eq 4 ] || { ls run.ref >&2; fail "run: wanted 4 files"; }

# per_job_logs=0: a log added to goes back to what it had
printf 'old line\n' >app_bw.log
printf '[a]\nrw=write\nbs=64k\nsize=1m\nwrite_bw_log=app\nper_job_logs=0\n' >app.fio
for f in write:2 fsync:1 close:1; do
	expect_err 1 "^ssdlab: job 'a': cannot write 'app_bw.log': " \
		env SSDLAB_FAULT=$f "$SSDLAB" run app.fio --drive tiny --output /dev/null
	[ "$(cat app_bw.log)" = "old line" ] || fail "app_bw.log after $f: $(head -3 app_bw.log)"
done
expect_status 0 "$SSDLAB" run app.fio --drive tiny --output /dev/null
[ "$(wc -l <app_bw.log)" -eq 17 ] || fail "app_bw.log: $(wc -l <app_bw.log) lines"

# a scenario: CSVs, gnuplot scripts, charts (renamed from gnuplot's
# temporaries), result.json, the summary on standard output
if command -v gnuplot >/dev/null 2>&1; then
	SAME_SKIP='*.png *.svg' # drawn by gnuplot: whole, not compared
else
	echo "note: gnuplot is not installed: no charts in the scenario's sweep"
fi
scn() {
	"$SSDLAB" scenario run steady-state --drive tiny --set volume=100% \
		--set min_volume=50% --out "$D"
}
sweep scn "scn[^/]*" scn
# the message of a scenario on a full disk names the file (it said
# "input/output error")
expect_err 1 "^ssdlab: cannot write 'scn.x/steady-state.csv': No space left on device$" \
	env SSDLAB_FAULT=write:1 "$SSDLAB" scenario run steady-state --drive tiny \
	--set volume=100% --set min_volume=50% --out scn.x
[ -z "$(ls -A scn.x)" ] || fail "scn.x: $(ls -A scn.x)"

# a real full file system, no faults injected: a small tmpfs in a
# private mount namespace (where one may be made: root, unshare)
if unshare -m true 2>/dev/null; then
	mkdir full.mnt full.o
	# the charts fill 48 KiB; without them two pages are too few
	command -v gnuplot >/dev/null 2>&1 && FSIZE=48k || FSIZE=8k
	export FSIZE
	set +e
	unshare -m sh -c 'mount -t tmpfs -o size=$FSIZE tmpfs full.mnt || exit 9
		"$1" scenario run steady-state --drive tiny --set volume=100% \
			--set min_volume=50% --out full.mnt/o >/dev/null 2>full.err
		rc=$?
		cp -a full.mnt/o/. full.o/
		exit $rc' sh "$SSDLAB"
	rc=$?
	set -e
	if [ "$rc" -eq 9 ]; then
		echo "note: no tmpfs could be mounted: no full file system"
	else
		[ "$rc" -eq 1 ] || { cat full.err >&2; fail "full file system: exit $rc, wanted 1"; }
		grep -Eqx "ssdlab: cannot write 'full.mnt/o/[^']*': (No space left on device|gnuplot left it cut short \(a full disk\?\))" full.err ||
			{ cat full.err >&2; fail "full file system: the message does not name the file"; }
		[ "$(wc -l <full.err)" -eq 1 ] || { cat full.err >&2; fail "full file system: one line"; }
		[ ! -e full.o/result.json ] || fail "full file system: result.json of a run that failed"
		same full.o scn.ref "${SAME_SKIP:-}"
	fi
else
	echo "note: unshare -m is not allowed: no full file system"
fi
SAME_SKIP=

# trace convert: plain and gzip; OUT as it was after a failure
for ext in log log.gz; do
	printf 'old\n' >old.$ext
	for f in write:1 fsync:1 rename:1 close:1; do
		expect_err 1 "^ssdlab: cannot write 'old.$ext': " env SSDLAB_FAULT=$f \
			"$SSDLAB" trace convert "$TOP/examples/traces/sample.iolog.gz" old.$ext
		[ "$(cat old.$ext)" = old ] || fail "old.$ext changed after $f"
	done
	ls -A | grep -q '\.tmp$' && fail "a temporary is left: $(ls -A | grep '\.tmp$')"
	expect_status 0 "$SSDLAB" trace convert "$TOP/examples/traces/sample.iolog.gz" old.$ext
done
zcat old.log.gz | cmp -s - old.log || fail "the gzip OUT is not the plain one compressed"

# ---- serve ----

for tool in nbdkit nbdinfo qemu-io; do
	command -v $tool >/dev/null 2>&1 || { echo "note: $tool is not installed: serve not tested"; exit 0; }
done
[ -f "$(dirname "$SSDLAB")/nbdkit-ssdlab-plugin.so" ] ||
	{ echo "note: the nbdkit plugin was not built: serve not tested"; exit 0; }
srv=
cleanup() { [ -z "$srv" ] || kill -9 $srv 2>/dev/null || true; }
trap cleanup EXIT
start() { # NAME ARGS...: a server on ./NAME.sock, its pid in $srv
	sname=$1; shift
	"$SSDLAB" serve --drive tiny --socket "$PWD/$sname.sock" "$@" >"$sname.out" 2>"$sname.err" &
	srv=$!
	URI="nbd+unix:///?socket=$PWD/$sname.sock"
	i=0
	until [ -S "$sname.sock" ] && nbdinfo --size "$URI" >/dev/null 2>&1; do
		i=$((i + 1))
		kill -0 $srv 2>/dev/null || { cat "$sname.err" >&2; fail "server $sname died"; }
		[ $i -lt 400 ] || fail "server $sname did not listen"
		sleep 0.05
	done
}
stop() { # WANT: SIGTERM, and the exit status wanted (within 60 s)
	kill -TERM $srv
	i=0
	while kill -0 $srv 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 1200 ] || { cat "$sname.err" >&2; fail "server $sname did not exit"; }
		sleep 0.05
	done
	set +e
	wait $srv
	got=$?
	set -e
	srv=
	[ "$got" -eq "$1" ] || { cat "$sname.err" >&2; fail "server $sname exited $got, wanted $1"; }
}
# the data file: a write that fails is the client's error, naming the file
export SSDLAB_FAULT=write:1
start dw --data "$PWD/dw.img"
unset SSDLAB_FAULT
set +e
qemu-io -f raw -c 'write -P 1 0 64k' "$URI" >dw.client 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q "No space left on device" dw.client ||
	{ cat dw.client >&2; fail "the client's write did not fail"; }
qemu-io -f raw -c 'write -P 2 64k 64k' -c 'read -P 2 64k 64k' "$URI" >/dev/null ||
	fail "the next write failed"
stop 0
grep -q "error: write at offset 0: the data file $PWD/dw.img: No space left on device" dw.err ||
	{ cat dw.err >&2; fail "the server's message does not name the data file"; }
# ... and a sync (FUA or flush) that fails is EIO
export SSDLAB_FAULT=fsync:1
start ds --data "$PWD/ds.img"
unset SSDLAB_FAULT
set +e
qemu-io -f raw -c 'write -P 1 0 64k' -c flush "$URI" >ds.client 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q "Input/output error" ds.client ||
	{ cat ds.client >&2; fail "the client's flush did not fail"; }
stop 0
grep -q "the data file $PWD/ds.img: Input/output error" ds.err ||
	{ cat ds.err >&2; fail "the server's message does not name the data file"; }
# the report: not renamed into place, the server exits 1 naming it
export SSDLAB_FAULT=rename:1
start rr --output "$PWD/rr.txt"
unset SSDLAB_FAULT
qemu-io -f raw -c 'write -P 1 0 64k' "$URI" >/dev/null
stop 1
grep -q "error: report: cannot write '$PWD/rr.txt': Input/output error" rr.err ||
	{ cat rr.err >&2; fail "the report's failure is not named"; }
ls -A | grep -q '^rr\.txt\|^\.rr\.txt' && fail "a report or its temporary is left: $(ls -A | grep rr.txt)"
# the stats log: removed when a row fails, named at once, exit 1
export SSDLAB_FAULT=write:3
start sl --stats-interval 10ms --stats-log "$PWD/sl.csv"
unset SSDLAB_FAULT
i=0
until grep -q "stats log: cannot write '$PWD/sl.csv': No space left on device" sl.err; do
	i=$((i + 1)); [ $i -lt 100 ] || { cat sl.err >&2; fail "the stats log's failure is not named"; }
	sleep 0.05
done
[ ! -e sl.csv ] || fail "the stats log that failed is left"
stop 1
# the report on a full standard output
"$SSDLAB" serve --drive tiny --socket "$PWD/so.sock" >/dev/full 2>so.err &
srv=$!
sname=so
i=0
until [ -S so.sock ] && nbdinfo --size "nbd+unix:///?socket=$PWD/so.sock" >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -lt 400 ] || fail "server so did not listen"; sleep 0.05
done
stop 1
[ "$(grep -c 'write error on standard output: No space left on device' so.err)" -eq 1 ] ||
	{ cat so.err >&2; fail "the full standard output is not said once"; }
