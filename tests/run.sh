#!/bin/sh
# Runs the whole suite for each build directory given (normal, sanitized):
# the unit-test binary, the Python package's tests over that build's
# shared library (tests/python/run.py; not in the sanitized build), then
# every end-to-end CLI test tests/cli/*.sh with $SSDLAB pointing at that
# build's binary.
#
# A CLI test passes when it exits 0.  One that cannot run here (a tool it
# uses is not installed) prints "SKIP: reason" and exits 77, automake's
# convention (tests/cli/lib.inc): it is reported as "skip NAME: reason",
# and an exit 77 without that line is a failure.  The unit-test binary
# and the Python tests print their own "skip" lines (with the reason) and
# close with "N passed, N failed, N skipped".  This prints "ok", "FAIL"
# (with the end of the test's output) or "skip" per test, and closes with
# "N passed, N failed, N skipped" summing everything; it exits 1 when
# anything failed.
#
# SSDLAB_TEST_NO_SKIP=1 (.ci/run sets it: there every tool is installed)
# counts each skip as a failure, its reason still printed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
noskip=${SSDLAB_TEST_NO_SKIP:-}
[ "$noskip" = 0 ] && noskip=
passed=0
failed=0
skipped=0
failures=""
skips=""
# count NAME OUTPUT: add a suite's closing "N passed, N failed, N
# skipped" line to the totals (a missing line: the suite crashed)
count() {
	line=$(echo "$2" | tail -n 1)
	counts=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
	if [ -z "$counts" ]; then
		echo "$1 crashed"
		failed=$((failed + 1))
		failures="$failures $1"
		return
	fi
	read -r p f s <<EOF
$counts
EOF
	passed=$((passed + p))
	if [ -n "$noskip" ] && [ "$s" -gt 0 ]; then
		echo "$1: $s skipped, counted as failed (SSDLAB_TEST_NO_SKIP)"
		f=$((f + s))
		s=0
	fi
	failed=$((failed + f))
	skipped=$((skipped + s))
	[ "$f" -eq 0 ] || failures="$failures $1"
	[ "$s" -eq 0 ] || skips="$skips $1"
}
for build in "$@"; do
	echo "== unit tests ($build)"
	out=$("$top/$build/unit_tests" 2>&1)
	echo "$out" | grep -v '^ok '
	count "unit($build)" "$out"
	# The Python module (tests/python) over this build's shared library;
	# not the sanitized one, which loads only into a sanitized program
	# (a tree without them -- tests/cli/runner.sh's -- has none to run).
	if [ "$build" != build/san ] && [ -f "$top/tests/python/run.py" ]; then
		echo "== Python tests ($build)"
		# the python3 Debian's python3-* packages (pandas) serve, where
		# there is one: another on the PATH (pyenv) lacks them
		py=python3
		[ -x /usr/bin/python3 ] && py=/usr/bin/python3
		if ! command -v "$py" >/dev/null 2>&1; then
			out="skip python: python3 is not installed
0 passed, 0 failed, 1 skipped"
		else
			out=$("$py" "$top/tests/python/run.py" "$top/$build" 2>&1)
		fi
		echo "$out" | grep -v '^ok '
		count "python($build)" "$out"
	fi
	echo "== CLI tests ($build)"
	for t in "$top"/tests/cli/*.sh; do
		name=$(basename "$t" .sh)
		# The heavy accuracy check runs once, in the normal build, and so
		# do the checks against the wall clock (a sanitizer's slowdown
		# is not the model's), the docs' commands and the memory limits
		# (AddressSanitizer reserves terabytes of address space: under
		# ulimit -v it does not start).
		case "$build:$name" in build/san:slow_*|build/san:*_timing|build/san:doc_*|build/san:memory) continue ;; esac
		tmp=$(mktemp -d)
		(cd "$tmp" && SSDLAB="$top/$build/ssdlab" TOP="$top" sh "$t") >"$tmp.log" 2>&1
		rc=$?
		why=$(sed -n 's/^SKIP: //p' "$tmp.log" | tail -n 1)
		if [ "$rc" -eq 0 ]; then
			passed=$((passed + 1))
			echo "ok   $name"
		elif [ "$rc" -eq 77 ] && [ -n "$why" ] && [ -z "$noskip" ]; then
			skipped=$((skipped + 1))
			skips="$skips $name($build)"
			echo "skip $name: $why"
		else
			failed=$((failed + 1))
			failures="$failures $name($build)"
			if [ "$rc" -eq 77 ] && [ -n "$why" ]; then
				echo "FAIL $name: skipped, and SSDLAB_TEST_NO_SKIP is set: $why"
			elif [ "$rc" -eq 77 ]; then
				echo "FAIL $name: exit 77 (skipped) without a 'SKIP: reason' line"
				sed 's/^/    /' "$tmp.log" | tail -n 20
			else
				echo "FAIL $name"
				sed 's/^/    /' "$tmp.log" | tail -n 20
			fi
		fi
		rm -rf "$tmp" "$tmp.log"
	done
done
[ -z "$skips" ] || echo "skipped:$skips"
[ -z "$failures" ] || echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
