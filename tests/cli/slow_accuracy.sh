# `accuracy --quick`: simulated steady-state write amplification of
# uniform random writes within 3% of the analytic models in all 8 cases
# (greedy and FIFO, 7% and 28% OP, 64 and 256 pages per block).
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" accuracy --quick
grep -q '^8 of 8 within 3%$' out.txt || { cat out.txt >&2; fail "accuracy: not 8 of 8 within 3%"; }
head -n 1 out.txt | grep -q '^policy  *op  *ppb  *alpha  *model_waf  *sim_waf  *error$' ||
	{ cat out.txt >&2; fail "accuracy: header"; }
[ "$(grep -Ec '^(greedy|fifo) +(7|28)% +(64|256) ' out.txt)" -eq 8 ] ||
	{ cat out.txt >&2; fail "accuracy: wanted 8 rows"; }
# each row's error is within +-3% and agrees with its two WAFs
awk 'NR > 1 && NF == 7 {
	m = $5 + 0; s = $6 + 0; e = $7; sub(/%$/, "", e); e += 0
	if (e > 3 || e < -3 || m < 1 || s < 1) { print "row out of bounds: " $0; bad = 1 }
	# the WAFs are printed to 3 decimals: allow for their rounding
	d = (s - m) / m * 100 - e; tol = 100 * 0.001 / m + 0.01
	if (d > tol || d < -tol) { print "error column: " $0; bad = 1 }
} END { exit bad }' out.txt || fail "accuracy: rows"
exit 0
