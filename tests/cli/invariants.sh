# The FTL invariant checker (--check 1: after every garbage-collected
# block) passes under heavy random overwrite with every GC policy; the CLI
# exits 1 if it fails.
. "$TOP/tests/cli/lib.inc"

# 16 MiB needs more than tiny's 7% spare to hold the FTL's reserve of
# gc_fg_blocks + 2 blocks per plane on 4 planes: 28%.
drive="--drive tiny --set capacity=16m --set op=0.28"

# ~3x the capacity in random 4 KiB writes, then trims and mixed sizes
cat >j.fio <<'EOF'
[global]
bs=4k
iodepth=8

[churn]
rw=randwrite
io_size=300%

[trim]
stonewall
rw=randtrim
bs=16k
io_size=25%

[mixed]
stonewall
rw=randrw
rwmixread=20
bssplit=4k/50:8k/25:64k/25
io_size=100%
EOF

for p in greedy cost-benefit fifo random; do
	# shellcheck disable=SC2086
	expect_status 0 "$SSDLAB" run j.fio $drive --set gc_policy=$p --check 1 \
		--output-format=json --output "$p.json"
	[ ! -s out.txt ] || { cat out.txt >&2; fail "$p: unexpected output"; }
	# GC really ran, under the policy asked for
	grep -q "\"gc_policy\" \{0,1\}: \"$p\"" "$p.json" || fail "$p: drive's gc_policy"
	awk '/"gc_victims" : / { n++; if ($3 + 0 > 0) gc++ } END { exit !(n == 3 && gc >= 2) }' \
		"$p.json" || { grep gc_victims "$p.json" >&2; fail "$p: no GC victims"; }
	grep -q '"error" : 0,' "$p.json" && ! grep -q '"error" : [1-9]' "$p.json" ||
		fail "$p: a job failed"
done

# the random policy with a window of candidates, and 16 KiB pages holding
# four 4 KiB logical pages (partial-page GC copies)
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" run j.fio $drive --set gc_policy=random --set gc_window=4 --check 1
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" run j.fio $drive --set page_size=16k --set pages_per_block=16 --check 1
grep -q 'ssdlab: waf=[1-9]' out.txt || fail "16k pages: no waf"

# --check with a period runs too
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" run j.fio $drive --check 7
exit 0
