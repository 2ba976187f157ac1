# Sweeps as a Slurm job array (docs/sweeps.md "On many machines"), on a
# real one-node cluster this test starts and stops itself: munged with a
# key of its own, slurmctld and slurmd on this machine, their
# configuration, state and sockets in this test's folder (SLURM_CONF).
# A 4x4 sweep submitted with `sweep slurm --wait` gives the same
# results.csv and results.jsonl, byte for byte, as `sweep run -j 1`; the
# cluster's MaxArraySize (5 here) sets the chunk: 4 array tasks of 4
# points; a --chunk that would need more tasks than that is refused; a
# missing sbatch is one line naming the Debian package.
#
# The daemons run as root (as on a real node: slurmd starts jobs as their
# users); a cluster that cannot start here for a reason of this machine's
# is a skip, with the daemons' last words as the reason.
. "$TOP/tests/cli/lib.inc"
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
# WAF against the spare fraction and the seed: 16 points
[sweep]
drive = tiny
set.op = 0.07, 0.12, 0.2, 0.28
job = rw.fio
measure = measure
seed = 1..4
EOF2

# a missing sbatch, whatever is installed
expect_err 1 "^ssdlab: sbatch: not found; Slurm runs the points \\(Debian: apt-get install slurm-wlm\\)$" \
	env PATH=/nonexistent "$SSDLAB" sweep slurm grid.sweep --dir nosb
expect_err 2 "^ssdlab: --wait goes with 'sweep slurm'" "$SSDLAB" sweep run grid.sweep --wait

need sbatch slurmctld slurmd sinfo squeue scancel scontrol munged munge
[ "$(id -u)" -eq 0 ] || skip "a Slurm cluster of its own needs root (slurmd starts jobs as their users)"

# the reference: one point at a time, here
expect_status 0 "$SSDLAB" sweep run grid.sweep --dir ref -j 1
expect_status 0 "$SSDLAB" sweep collect grid.sweep --dir ref
grep -q "^16 points: 16 done, 0 failed, 0 missing" out.txt || fail "reference: $(cat out.txt)"

# ---- the cluster ----
c=$(pwd -P)/cluster
mkdir -p "$c/run" "$c/state" "$c/spool" "$c/log"
chmod 755 "$c" "$c/run"
# the node is this machine, by its name; its address is the loopback
# one, whatever the name resolves to (a container's may not resolve)
host=$(hostname -s)
# ports of this test's own, away from a cluster this machine may run
port=$((20000 + ($$ % 10000) * 2))
mem=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
cpus=$(nproc)
# munge: a key of this cluster's, its socket in the cluster's folder
dd if=/dev/urandom of="$c/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$c/munge.key"
munged -F --force --socket="$c/run/munge.sock" --key-file="$c/munge.key" \
	--pid-file="$c/run/munged.pid" --seed-file="$c/munged.seed" \
	--log-file="$c/log/munged.log" >"$c/log/munged.out" 2>&1 &
mpid=$!
at_exit "kill $mpid; wait $mpid"
cat >"$c/slurm.conf" <<EOF2
# a one-node cluster for tests/cli/sweep_slurm.sh
ClusterName=ssdlabtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$c/run/munge.sock
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/run/slurmctld.pid
SlurmdPidFile=$c/run/slurmd.pid
SlurmctldLogFile=$c/log/slurmctld.log
SlurmdLogFile=$c/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MaxArraySize=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF2
SLURM_CONF=$c/slurm.conf
export SLURM_CONF
# munged answers before the daemons that need it start
i=0
until munge -S "$c/run/munge.sock" -n </dev/null >/dev/null 2>&1; do
	i=$((i + 1))
	kill -0 $mpid 2>/dev/null && [ $i -lt 50 ] ||
		skip "munged did not start here: $(tail -n 1 "$c/log/munged.out")"
	sleep 0.2
done
slurmctld -D -i >"$c/log/slurmctld.out" 2>&1 &
cpid=$!
at_exit "kill $cpid; wait $cpid"
slurmd -D -N "$host" >"$c/log/slurmd.out" 2>&1 &
dpid=$!
# jobs left by a failure are cancelled before the daemons stop
at_exit "kill $dpid; wait $dpid"
at_exit "scancel --quiet --user=root"
i=0
until [ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ]; do
	i=$((i + 1))
	# a daemon ended, or 60 s went by
	if ! kill -0 $cpid 2>/dev/null || ! kill -0 $dpid 2>/dev/null || [ $i -ge 120 ]; then
		why=$(cat "$c/log/slurmctld.log" "$c/log/slurmd.log" "$c/log/slurmctld.out" \
			"$c/log/slurmd.out" 2>/dev/null | grep -i 'error\|fatal' | tail -n 1)
		skip "the one-node Slurm cluster did not come up (node: $(sinfo -h -n "$host" -o %T 2>&1 | head -n 1)): ${why:-no error logged}"
	fi
	sleep 0.5
done
expect_status 0 scontrol show config
grep -q "^MaxArraySize *= 5$" out.txt || fail "the cluster's MaxArraySize: $(grep MaxArraySize out.txt)"

# ---- the sweep through it ----
# 16 points, at most 5 array tasks: 4 tasks of 4 points
expect_status 0 "$SSDLAB" sweep slurm grid.sweep --dir sl --wait
here=$(pwd -P)
grep -qx "16 points, 4 array tasks of 4 (output: $here/sl/slurm/JOB_TASK.out): sbatch --array=0-3 --wait $here/sl/slurm.sh" out.txt ||
	fail "sweep slurm: $(cat out.txt)"
job=$(sed -n 's/^Submitted batch job \([0-9][0-9]*\)$/\1/p' out.txt)
[ -n "$job" ] || fail "sweep slurm: no job id: $(cat out.txt)"
grep -q "^16 points: 16 done, 0 failed, 0 missing: sl/results.csv, sl/results.jsonl$" out.txt ||
	fail "sweep slurm --wait did not collect: $(cat out.txt)"
cmp ref/results.csv sl/results.csv || fail "slurm: results.csv differs from -j 1's"
cmp ref/results.jsonl sl/results.jsonl || fail "slurm: results.jsonl differs from -j 1's"
# every task ran its chunk, each point once
for t in 0 1 2 3; do
	f=sl/slurm/${job}_$t.out
	[ "$(grep -c ': done$' "$f")" -eq 4 ] || fail "array task $t: $(cat "$f")"
	grep -q "^point $((t * 4)) " "$f" || fail "array task $t did not run point $((t * 4)): $(cat "$f")"
done
grep -q "^#SBATCH --job-name=sweep-grid$" sl/slurm.sh || fail "slurm.sh: $(cat sl/slurm.sh)"

# a chunk that needs more tasks than the cluster takes
expect_err 2 "^ssdlab: --chunk 3 makes 6 array tasks, and the cluster's MaxArraySize is 5 \\(--chunk 4 or more\\)" \
	"$SSDLAB" sweep slurm grid.sweep --dir sl --chunk 3
# without --wait: the job id at once; the tasks skip the points that
# ended; sbatch's arguments after '--' (a job name of one's own)
expect_status 0 "$SSDLAB" sweep slurm grid.sweep --dir sl --chunk 8 -- --job-name=again
grep -qx "16 points, 2 array tasks of 8 (output: $here/sl/slurm/JOB_TASK.out): sbatch --array=0-1 --job-name=again $here/sl/slurm.sh" out.txt ||
	fail "sweep slurm --chunk 8: $(cat out.txt)"
job=$(sed -n 's/^Submitted batch job \([0-9][0-9]*\)$/\1/p' out.txt)
[ -n "$job" ] || fail "sweep slurm --chunk 8: no job id: $(cat out.txt)"
i=0
while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
	i=$((i + 1))
	[ $i -lt 240 ] || fail "job $job still queued after 2 minutes: $(squeue -j "$job")"
	sleep 0.5
done
for t in 0 1; do
	f=sl/slurm/${job}_$t.out
	[ "$(grep -c 'skipped (done)$' "$f" 2>/dev/null)" -eq 8 ] || fail "array task $t of job $job: $(cat "$f" 2>&1)"
done
expect_status 0 scontrol show job "$job"
grep -q "JobName=again" out.txt || fail "sbatch's arguments: $(grep JobName out.txt)"
