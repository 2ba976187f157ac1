#!/bin/sh
# Runs the whole suite for each build directory given (normal, sanitized):
# the unit-test binary, then every end-to-end CLI test tests/cli/*.sh with
# $SSDLAB pointing at that build's binary.  A CLI test passes when it exits
# 0.  Prints a closing "N passed, N failed" line summing everything.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
failures=""
for build in "$@"; do
	echo "== unit tests ($build)"
	out=$("$top/$build/unit_tests" 2>&1)
	echo "$out" | grep -v '^ok ' 
	line=$(echo "$out" | tail -n 1)
	p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		echo "unit tests in $build crashed"
		failed=$((failed + 1))
		failures="$failures unit($build)"
	else
		passed=$((passed + p))
		failed=$((failed + f))
		[ "$f" -eq 0 ] || failures="$failures unit($build)"
	fi
	echo "== CLI tests ($build)"
	for t in "$top"/tests/cli/*.sh; do
		name=$(basename "$t" .sh)
		# The heavy accuracy check runs once, in the normal build, and so
		# do the checks against the wall clock (a sanitizer's slowdown
		# is not the model's).
		case "$build:$name" in build/san:slow_*|build/san:*_timing) continue ;; esac
		tmp=$(mktemp -d)
		if (cd "$tmp" && SSDLAB="$top/$build/ssdlab" TOP="$top" sh "$t") >"$tmp.log" 2>&1; then
			passed=$((passed + 1))
			echo "ok   $name"
		else
			failed=$((failed + 1))
			failures="$failures $name($build)"
			echo "FAIL $name"
			sed 's/^/    /' "$tmp.log" | tail -n 20
		fi
		rm -rf "$tmp" "$tmp.log"
	done
done
[ -z "$failures" ] || echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
