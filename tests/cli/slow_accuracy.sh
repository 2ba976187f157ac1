# `accuracy --quick`: simulated steady-state write amplification of
# uniform random writes within 3% of the analytic models in all 8 cases
# (greedy and FIFO, 7% and 28% OP, 64 and 256 pages per block); FDP's
# ideally separated streams (a log dying whole and a random region, each
# on a handle of its own) within 2% of the oracle in all 8 of theirs, for
# both handle types; and outside the oracle's assumptions (the log dying
# a page at a time) the simulation above it, initial isolation the most.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" accuracy --quick
grep -q '^8 of 8 within 3%$' out.txt || { cat out.txt >&2; fail "accuracy: not 8 of 8 within 3%"; }
head -n 1 out.txt | grep -q '^policy  *op  *ppb  *alpha  *model_waf  *sim_waf  *error$' ||
	{ cat out.txt >&2; fail "accuracy: header"; }
[ "$(grep -Ec '^(greedy|fifo) +(7|28)% +(64|256) ' out.txt)" -eq 8 ] ||
	{ cat out.txt >&2; fail "accuracy: wanted 8 rows"; }
# each row's error is within +-3% and agrees with its two WAFs
awk '/^(greedy|fifo) / && NF == 7 {
	m = $5 + 0; s = $6 + 0; e = $7; sub(/%$/, "", e); e += 0
	if (e > 3 || e < -3 || m < 1 || s < 1) { print "row out of bounds: " $0; bad = 1 }
	# the WAFs are printed to 3 decimals: allow for their rounding
	d = (s - m) / m * 100 - e; tol = 100 * 0.001 / m + 0.01
	if (d > tol || d < -tol) { print "error column: " $0; bad = 1 }
} END { exit bad }' out.txt || fail "accuracy: rows"

# FDP: two tables, each with its header; the oracle's 8 rows within 2%
# with a consistent error column; the model is f_log + f_rand WA_rand
# with half the writes on the log: (1 + waf_rand) / 2
grep -q '^8 of 8 FDP rows within 2%$' out.txt || { cat out.txt >&2; fail "accuracy: not 8 of 8 FDP rows within 2%"; }
[ "$(grep -c '^isolation  *op  *ppb  *rho_eff  *waf_rand  *model_waf  *sim_waf  *error$' out.txt)" -eq 2 ] ||
	{ cat out.txt >&2; fail "accuracy: FDP headers"; }
awk '/^FDP:/ { t = 1 } /^Outside/ { t = 2 } t && /^(persistent|initial) / {
	rho = $4 + 0; w = $5 + 0; m = $6 + 0; s = $7 + 0; e = $8; sub(/%$/, "", e); e += 0
	n[t]++
	if (rho <= 0 || w < 1 || m < 1 || s < 1) { print "FDP row out of bounds: " $0; bad = 1 }
	d = (m - (1 + w) / 2) / m; if (d > 0.005 || d < -0.005) { print "FDP model: " $0; bad = 1 }
	d = (s - m) / m * 100 - e; tol = 100 * 0.001 / m + 0.01
	if (d > tol || d < -tol) { print "FDP error column: " $0; bad = 1 }
	if (t == 1 && (e > 2 || e < -2)) { print "FDP row beyond 2%: " $0; bad = 1 }
	# outside the assumptions: GC copies the log too, initial isolation
	# mixes them with the random data and costs the most
	if (t == 2) { gap[$1 " " $2 " " $3] = e; if (e < 2) { print "FDP outside row at the model: " $0; bad = 1 } }
} END {
	if (n[1] != 8 || n[2] != 4) { print "FDP rows: " n[1] " and " n[2]; bad = 1 }
	for (k in gap) if (k ~ /^initial/) { p = k; sub(/^initial/, "persistent", p)
		if (!(gap[k] > gap[p])) { print "FDP: initial " gap[k] " not above persistent " gap[p]; bad = 1 } }
	exit bad
}' out.txt || { cat out.txt >&2; fail "accuracy: FDP rows"; }
exit 0
