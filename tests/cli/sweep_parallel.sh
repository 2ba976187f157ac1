# Sweeps through GNU parallel (docs/sweeps.md "On many machines"): a 4x4
# sweep run by `sweep parallel -- -j 2` gives the same results.csv and
# results.jsonl, byte for byte, as `sweep run -j 1`; so does one through
# --sshloginfile, whose "ssh" here is a stand-in that runs the command
# it is given with sh -c on this machine, as sshd would on another one
# -- in a folder whose name has a space and a quote, which the remote
# shell must see quoted; a failed point makes parallel's exit status
# non-zero, and so do chunks that never ran though parallel exits 0; a
# missing parallel, or moreutils' program of that name, is
# one line naming the Debian package.
. "$TOP/tests/cli/lib.inc"
need parallel
parallel --version </dev/null 2>/dev/null | head -n 1 | grep -q '^GNU parallel' ||
	skip "parallel is not GNU parallel (moreutils' parallel?)"
cat >rw.fio <<'EOF2'
[fill]
rw=write
bs=128k
iodepth=16
[measure]
stonewall
rw=randwrite
bs=4k
iodepth=16
io_size=4m
EOF2
cat >grid.sweep <<'EOF2'
# WAF against the spare fraction and the GC policy: 16 points
[sweep]
drive = tiny
set.op = 0.07, 0.12, 0.2, 0.28
set.gc_policy = greedy, fifo, random, cost-benefit
job = rw.fio
measure = measure
EOF2

# the reference: one point at a time, here
expect_status 0 "$SSDLAB" sweep run grid.sweep --dir ref -j 1
expect_status 0 "$SSDLAB" sweep collect grid.sweep --dir ref
grep -q "^16 points: 16 done, 0 failed, 0 missing" out.txt || fail "reference: $(cat out.txt)"

# GNU parallel, two jobs at once: the default chunk is 16 / (2 slots x 4)
expect_status 0 "$SSDLAB" sweep parallel grid.sweep --dir par -- -j 2
here=$(pwd -P)
head -n 1 out.txt | grep -qF "16 points, 8 chunks of 2: parallel -j 2 $(cd "$(dirname "$SSDLAB")" && pwd -P)/$(basename "$SSDLAB") sweep run $here/grid.sweep --dir $here/par --points {} ::: 0-1 2-3 4-5 6-7 8-9 10-11 12-13 14-15" ||
	fail "parallel's command: $(head -n 1 out.txt)"
[ "$(grep -c ': done$' out.txt)" -eq 16 ] || fail "parallel: $(cat out.txt)"
expect_status 0 "$SSDLAB" sweep collect grid.sweep --dir par
cmp ref/results.csv par/results.csv || fail "parallel: results.csv differs from -j 1's"
cmp ref/results.jsonl par/results.jsonl || fail "parallel: results.jsonl differs from -j 1's"
# ended points are skipped when it runs again
expect_status 0 "$SSDLAB" sweep parallel grid.sweep --dir par --chunk 16 -- -j 2
grep -q "^16 points, 1 chunk of 16: parallel -j 2 .* --points {} ::: 0-15$" out.txt || fail "--chunk 16: $(head -n 1 out.txt)"
[ "$(grep -c 'skipped (done)$' out.txt)" -eq 16 ] || fail "parallel again: $(cat out.txt)"

# --sshloginfile: each chunk handed to "ssh HOST COMMAND" as a string for
# the remote shell; the stand-in logs what it was given and runs it
cat >fakessh <<'EOF2'
#!/bin/sh
# ssh [OPTIONS] HOST [--] COMMAND...: COMMAND run by a shell, here
echo "$*" >>"$SSH_LOG"
while [ $# -gt 0 ]; do
	case $1 in
	-l|-p|-o|-S) shift 2 ;;
	--) shift; break ;;
	-*) shift ;;
	*) shift; break ;;
	esac
done
[ "${1:-}" != -- ] || shift
# sshd starts the command with the user's login shell in SHELL, which
# parallel's remote wrapper runs each job with; a test's environment may
# have none (CI's has not)
SHELL=$(getent passwd "$(id -un)" | cut -d: -f7)
SHELL=${SHELL:-/bin/sh}
export SHELL
exec sh -c "$*"
EOF2
chmod +x fakessh
mkdir "it's a folder"
cp grid.sweep rw.fio "it's a folder/"
echo "2/node1" >hosts
SSH_LOG=$PWD/ssh.log
export SSH_LOG
expect_status 0 "$SSDLAB" sweep parallel "it's a folder/grid.sweep" --dir "it's a folder/out" --chunk 3 \
	-- --ssh "$PWD/fakessh" --sshloginfile hosts
[ "$(grep -c ': done$' out.txt)" -eq 16 ] || fail "--sshloginfile: $(cat out.txt)"
[ "$(grep -c '^node1 ' ssh.log)" -eq 6 ] || fail "--sshloginfile: not 6 chunks through ssh: $(cut -c 1-80 ssh.log)"
expect_status 0 "$SSDLAB" sweep collect "it's a folder/grid.sweep" --dir "it's a folder/out"
cmp ref/results.csv "it's a folder/out/results.csv" || fail "--sshloginfile: results.csv differs from -j 1's"
cmp ref/results.jsonl "it's a folder/out/results.jsonl" || fail "--sshloginfile: results.jsonl differs from -j 1's"

# chunks that never ran are not a success, whatever parallel says: here
# a remote without a login shell in SHELL, where parallel's wrapper
# cannot start a job and parallel still exits 0
sed 's/^export SHELL$/unset SHELL/' fakessh >noshell
chmod +x noshell
expect_err 1 "^ssdlab: parallel exited with status 0 and 16 of 16 points did not run \\(point 0 [0-9a-f]{16} the first; the same command runs them\\)$" \
	"$SSDLAB" sweep parallel grid.sweep --dir lost --chunk 4 -- --ssh "$PWD/noshell" --sshloginfile hosts
# the same command, with a remote that can, runs them
expect_status 0 "$SSDLAB" sweep parallel grid.sweep --dir lost --chunk 4 -- --ssh "$PWD/fakessh" --sshloginfile hosts
[ "$(grep -c ': done$' out.txt)" -eq 16 ] || fail "lost chunks run again: $(cat out.txt)"

# a failed point fails its chunk: 1, and how many chunks in a line --
# two failed chunks were parallel's status 2, the usage error's (a
# write buffer the drive is too small for fails in the point's run)
printf '[sweep]\ndrive = tiny\nset.op = 0.07, 0.12\nset.write_buffer = 512k, 1g\njob = rw.fio\n' >bad.sweep
expect_status 1 "$SSDLAB" sweep parallel bad.sweep --dir bad --chunk 1 -- -j 2
grep -q "^ssdlab: 2 chunks had a failed point (their errors: 'sweep collect')$" out.txt ||
	fail "the failed chunks: $(cat out.txt)"
[ "$(grep -c ": failed: exit status 2: ssdlab: key 'write_buffer'" out.txt)" -eq 2 ] ||
	fail "failed points: $(cat out.txt)"

# usage and a missing parallel
expect_err 1 "^ssdlab: parallel: not found; GNU parallel runs the points \\(Debian: apt-get install parallel\\)$" \
	env PATH=/nonexistent "$SSDLAB" sweep parallel grid.sweep --dir np
# moreutils' parallel is another program
mkdir other
printf '#!/bin/sh\necho "parallel: invalid option -- -" >&2\nexit 1\n' >other/parallel
chmod +x other/parallel
expect_err 1 "^ssdlab: $PWD/other/parallel is not GNU parallel \\(moreutils' parallel\\?\\); GNU parallel runs the points \\(Debian: apt-get install parallel\\)$" \
	env PATH="$PWD/other:$PATH" "$SSDLAB" sweep parallel grid.sweep --dir np
expect_err 2 "^ssdlab: --chunk needs 1\\.\\.1000000, got '0'" "$SSDLAB" sweep parallel grid.sweep --chunk 0
expect_err 2 "^ssdlab: --chunk and arguments after '--' go with 'sweep parallel' and 'sweep slurm'" \
	"$SSDLAB" sweep run grid.sweep -- -j 2
expect_err 2 "^ssdlab: --wait goes with 'sweep slurm'" "$SSDLAB" sweep parallel grid.sweep --wait
