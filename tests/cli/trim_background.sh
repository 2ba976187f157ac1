# trim_mode=background: while a TRIM backlog exists it takes trim_bg_share
# of the controller, so every other command's controller time takes
# cmd_overhead / (1 - trim_bg_share).  Reads of unmapped pages cost only
# controller time (no NAND, and no link time with host_mbps=0), so during
# a backlog they take 4/3 as long at a share of 0.25: 2666 ns, not 2000.
. "$TOP/tests/cli/lib.inc"

set -- --drive tiny --set trim_mode=background --set trim_bg_share=0.25 \
	--set trim_cost=1us --set host_mbps=0 --set cmd_overhead=2us
# 32 MiB written and trimmed: 8192 pages x 1 us at a 25% share, a 33 ms
# backlog; 1024 reads of 2.7 us each fall inside it
cat >backlog.fio <<'EOF'
[global]
bs=1m
[write]
rw=write
size=32m
[trim]
stonewall
rw=trim
size=32m
[read]
stonewall
rw=read
bs=4k
offset=32m
size=4m
EOF
# the same reads with no TRIM before them
sed -e '/^\[trim\]/,/^size=32m/d' backlog.fio >quiet.fio
grep -q '^\[trim\]' quiet.fio && fail "quiet.fio still trims"

expect_status 0 "$SSDLAB" run backlog.fio "$@"
mv out.txt backlog.txt
expect_status 0 "$SSDLAB" run quiet.fio "$@"
mv out.txt quiet.txt
# controller-only reads at queue depth 1: every read takes the same time
clat() { sed -n '/^read: (groupid/,$p' "$1" | grep -m1 '^    clat (nsec): min=' || true; }
b=$(clat backlog.txt) q=$(clat quiet.txt)
[ "$q" = "    clat (nsec): min=2000, max=2000, avg=2000.00, stdev= 0.00" ] ||
	{ cat quiet.txt >&2; fail "reads without a backlog: '$q'"; }
[ "$b" = "    clat (nsec): min=2666, max=2666, avg=2666.00, stdev= 0.00" ] ||
	{ cat backlog.txt >&2; fail "reads during a backlog: '$b', wanted 2000 / (1 - 0.25)"; }

# the backlog drains in idle time: after a pause, reads cost 2000 ns again
cat >>backlog.fio <<'EOF'
thinktime=1s
thinktime_blocks=1024
[again]
stonewall
rw=read
bs=4k
offset=32m
size=4m
EOF
expect_status 0 "$SSDLAB" run backlog.fio "$@"
a=$(sed -n '/^again: (groupid/,$p' out.txt | grep -m1 '^    clat (nsec): min=' || true)
[ "$a" = "    clat (nsec): min=2000, max=2000, avg=2000.00, stdev= 0.00" ] ||
	{ cat out.txt >&2; fail "reads after the backlog drained: '$a'"; }
