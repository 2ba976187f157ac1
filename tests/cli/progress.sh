# The status line of the long commands (report/eta.h): scenario run,
# calibrate, life, accuracy and serve take run's --eta, --eta-interval and
# --eta-newline.  With --eta always the line is on stderr and names the
# phase; with stderr not a terminal and the default (auto), or with
# never, nothing is; the outputs are byte for byte those of a run without
# the option; a bad value is one line naming the option, exit 2.  On a
# terminal (a pty, through script(1)) auto draws it.
. "$TOP/tests/cli/lib.inc"

ss="scenario run steady-state --drive tiny --set volume=400% --set round=5 --set average=3"
cal="calibrate --drive intel-x25m-80g-8820 --quick"
life="life --drive tiny"
acc="accuracy --quick --set capacity=256m"

# cmd NAME ARGS...: run ARGS with stdout in NAME.out and stderr in
# NAME.err (not a terminal); accuracy's exit 1 (a row out of tolerance)
# counts as run
cmd() {
	name=$1; shift
	set +e
	"$SSDLAB" "$@" >"$name.out" 2>"$name.err"
	rc=$?
	set -e
	[ "$rc" -le 1 ] || { cat "$name.err" >&2; fail "$name: exit $rc: $*"; }
}
# same A B: A.out and B.out are the same bytes (life's wall time aside)
same() {
	grep -v '^Wall: ' "$1.out" >"$1.cmp"
	grep -v '^Wall: ' "$2.out" >"$2.cmp"
	cmp -s "$1.cmp" "$2.cmp" || { diff "$1.cmp" "$2.cmp" >&2 || :; fail "$2: stdout differs from $1's"; }
}
# lines FILE: the status lines in FILE, one a line (drawn over each
# other with \r, erased to their ends with ESC [K)
esc=$(printf '\033')
lines() { tr '\r' '\n' <"$1" | sed "s/$esc\[K//g"; }
# line NAME LABEL PHASE: NAME.err has a status line "LABEL: [PHASE...][share][sim T][eta E]"
line() {
	lines "$1.err" | grep -Eq "^$2: \[$3[^]]*\]\[(-|[0-9.]+%)\]\[sim [0-9.:hms]+\]\[eta [-0-9hms:]+\]" ||
		{ cat -A "$1.err" >&2; fail "$1: no status line of $2 naming phase '$3'"; }
}

# shellcheck disable=SC2086
{
	cmd ss0 $ss --out o
	mv o o0
	cmd ss1 $ss --out o --eta always --eta-interval 250ms
	mv o o1
	cmd ss2 $ss --out o --eta never
	cmd cal0 $cal
	cmd cal1 $cal --eta=always
	cmd cal2 $cal --eta=never
	cmd life0 $life
	cmd life1 $life --eta always --eta-newline 1ms
	cmd life2 $life --eta never
	cmd acc0 $acc
	cmd acc1 $acc --eta always
	cmd acc2 $acc --eta never
}
line ss1 steady-state writing
line cal1 calibrate 'intel-x25m-80g-8820: steady state'
line life1 life precondition
line life1 life measure
line acc1 accuracy '1 of 20: greedy, 7% OP, 64 pages per block'
line acc1 accuracy '8 of 20: fifo, 28% OP, 256 pages per block'
# --eta-newline: a line due after TIME ends with a new line, not erased
# to its end to be drawn over
grep -q 'life: \[measure\]\[.*\]$' life1.err || { cat -A life1.err >&2; fail "life: --eta-newline: no new line"; }
for c in ss cal life acc; do
	[ ! -s ${c}0.err ] || { cat ${c}0.err >&2; fail "$c: stderr not a terminal, default --eta: something printed"; }
	[ ! -s ${c}2.err ] || { cat ${c}2.err >&2; fail "$c: --eta never printed something"; }
	[ -s ${c}0.out ] || fail "$c: no output"
	same ${c}0 ${c}1
	same ${c}0 ${c}2
done
cmp -s o0/result.json o1/result.json || fail "the status line changed the scenario's result.json"
# run --precondition: the fill has its line too, before the jobs' own
printf '[j]\nrw=randwrite\nbs=4k\nio_size=4m\n' >pre.fio
"$SSDLAB" run pre.fio --drive tiny --precondition sequential --eta always >pre1.out 2>pre1.err ||
	{ cat pre1.err >&2; fail "run --precondition --eta always failed"; }
line pre1 precondition precondition
"$SSDLAB" run pre.fio --drive tiny --precondition sequential >pre0.out 2>pre0.err ||
	{ cat pre0.err >&2; fail "run --precondition failed"; }
grep -q "$esc" pre0.err && { cat -A pre0.err >&2; fail "run --precondition: a status line, stderr not a terminal"; }
grep -v '^Wall:' pre0.out >pre0.cmp
grep -v '^Wall:' pre1.out | cmp -s - pre0.cmp || fail "run --precondition: the status line changed stdout"
cmp -s o0/steady-state.csv o1/steady-state.csv || fail "the status line changed the scenario's series"
# the line is erased (or ended) before the summary: none is left open
last=$(tail -c 4 ss1.err | od -An -tx1 | tr -d ' \n')
[ "$last" = 0d1b5b4b ] || [ "${last#??????}" = 0a ] || { cat -A ss1.err >&2; fail "the scenario's line was left open"; }

# bad values: one line naming the option, exit 2, in every command
# shellcheck disable=SC2086
for args in "$ss --out o" "$cal" "$life" "$acc" "serve --run true"; do
	expect_err 2 "eta must be auto, always or never, got 'sometimes'" "$SSDLAB" $args --eta sometimes
	expect_err 2 "eta-interval.*at least 250 ms" "$SSDLAB" $args --eta-interval=100ms
	expect_err 2 "eta-newline.*got 'soon'" "$SSDLAB" $args --eta-newline=soon
done
expect_err 2 "eta must be auto, always or never" "$SSDLAB" run - --eta=sometimes

# every command documents the options
for c in "scenario" "scenario run steady-state" "calibrate" "life" "accuracy" "serve" "run"; do
	# shellcheck disable=SC2086
	"$SSDLAB" $c --help >help.txt
	for o in --eta --eta-interval --eta-newline; do
		grep -q "^  $o " help.txt || fail "'$c --help' lacks $o"
	done
done

# on a terminal the default draws it (script(1) runs the command on a pty)
if have script; then
	# shellcheck disable=SC2086
	script -qec "\"$SSDLAB\" $ss --out o" /dev/null >pty.txt 2>&1 </dev/null ||
		{ cat pty.txt >&2; fail "scenario on a pty failed"; }
	lines pty.txt | grep -q '^steady-state: \[writing' ||
		{ cat -A pty.txt >&2; fail "no status line on a terminal with the default --eta"; }
	grep -q 'steady-state IOPS' pty.txt || fail "no summary on the pty"
	# shellcheck disable=SC2086
	script -qec "\"$SSDLAB\" $ss --out o --eta never" /dev/null >pty2.txt 2>&1 </dev/null ||
		fail "scenario on a pty with --eta never failed"
	! grep -q '^steady-state: \[\|\[sim ' pty2.txt || fail "--eta never drew on a terminal"
else
	skip_part "script (util-linux) is not installed: no check on a terminal"
fi

# serve: the reporter thread draws it while the drive is served
if have nbdkit && [ -f "$(dirname "$SSDLAB")/nbdkit-ssdlab-plugin.so" ]; then
	timeout 60 "$SSDLAB" serve --drive tiny --eta always --eta-interval 250ms \
		--run 'sleep 0.7' >srv.out 2>srv.err || { cat srv.err >&2; fail "serve --eta always failed"; }
	line srv serve 'serving: 0 requests'
	timeout 60 "$SSDLAB" serve --drive tiny --run 'sleep 0.3' >srv0.out 2>srv0.err ||
		{ cat srv0.err >&2; fail "serve failed"; }
	! grep -q '\[sim ' srv0.err || fail "serve: stderr not a terminal, default --eta: a status line"
else
	skip_part "nbdkit or ssdlab's plugin is missing: no status line of serve"
fi
echo ok
