# Bad job files through the CLI: each mistake exits 2 with one line that
# names the file, the line and the option.  The drive is tiny with its
# capacity pinned to 256 MiB, so the "beyond the drive" case does not
# depend on the preset's size.
. "$TOP/tests/cli/lib.inc"

run() {
	expect_err 2 "$1" "$SSDLAB" run "$2" --drive tiny --set capacity=256m
}

# unknown option
cat >unknown.fio <<'EOF'
[job]
rw=randwrite
blocksiz=4k
EOF
run "unknown\.fio:3: .*unknown option 'blocksiz'" unknown.fio

# a fio option ssdlab does not support
cat >unsup.fio <<'EOF'
[job]
merge_blktrace_file=merged.log
EOF
run "unsup\.fio:2: .*'merge_blktrace_file'.*not supported" unsup.fio

# a size that is not a size
cat >badsize.fio <<'EOF'
[global]
rw=randread
bs=4q
[job]
EOF
run "badsize\.fio:3: .*'bs'" badsize.fio

# a value out of range
cat >range.fio <<'EOF'
[job]
iodepth=0
EOF
run "range\.fio:2: .*'iodepth'.*accepted" range.fio

# a region past the end of the 256 MiB drive
cat >beyond.fio <<'EOF'
[job]
offset=128m
size=192m
EOF
run "beyond\.fio:3: .*'size'.*256 MiB" beyond.fio

# zone access percentages that do not add up to 100
cat >zoned.fio <<'EOF'
[job]
rw=randread
random_distribution=zoned:50/10:30/90
EOF
run "zoned\.fio:3: .*'random_distribution'.*100" zoned.fio

# no job section at all
cat >nojobs.fio <<'EOF'
[global]
bs=4k
EOF
run "nojobs\.fio:2: .*no job" nojobs.fio

# a job file that does not exist
run "missing\.fio" missing.fio

# numjobs x iodepth summed over the file beyond what the runner holds (a
# 32-bit sum once wrapped and overflowed the command table)
{
	printf '[global]\nrw=randwrite\nnumjobs=1024\niodepth=65536\nsize=1m\nio_size=4k\n'
	i=0
	while [ $i -lt 64 ]; do printf '[j%d]\n' $i; i=$((i + 1)); done
} >depth.fio
run "depth\.fio:4: option 'iodepth': .*I/Os in flight.*at most 1048576" depth.fio
printf '[global]\nnumjobs=1024\nsize=1m\nio_size=4k\n[a]\n[b]\n[c]\n[d]\n[e]\n' >clones.fio
run "clones\.fio:2: option 'numjobs': .*5120 clones.*at most 4096" clones.fio

# times whose sum passes int64 once made the job do nothing, silently;
# now each time is at most 146 years, and so is their sum
printf '[job]\nrw=randwrite\nsize=1m\nramp_time=9223372036s\nruntime=9223372036s\n' >ramp.fio
run "ramp\.fio:4: option 'ramp_time': 9223372036s is too long, more than 146 years" ramp.fio
printf '[job]\nrw=randwrite\nsize=1m\nramp_time=3000000000s\nruntime=3000000000s\n' >ramp.fio
run "ramp\.fio:5: option 'runtime': .*years of simulated time.*at most 146 years" ramp.fio
printf '[job]\nrw=randwrite\nsize=1m\nthinktime=4000000000000000us\n' >think.fio
run "think\.fio:4: option 'thinktime': .*at most 146 years" think.fio
printf '[job]\nrw=randwrite\nsize=1m\nthinktime=9223372036854776us\n' >think2.fio
run "think2\.fio:4: option 'thinktime'.*too long" think2.fio

# times the runner adds to the clock: ss_ramp + ss_interval and a
# flow_sleep after the last issue overflowed int64 (the sanitized build
# stopped; the normal one ran on with the clock wrapped)
printf '[job]\nrw=randwrite\nsize=1m\nruntime=3s\ntime_based\nrate_iops=200\nss=iops:1\nss_dur=2s\nss_ramp=9223372036854775807ns\n' >ssramp.fio
run "ssramp\.fio:9: option 'ss_ramp': .*too long, more than 146 years" ssramp.fio
printf '[global]\nrw=randwrite\nsize=1m\nio_size=400k\nflow_id=1\nflow_sleep=9223372036854775807ns\n[a]\nflow=1\n[b]\nflow=9\n' >flow.fio
run "flow\.fio:6: option 'flow_sleep': .*too long, more than 146 years" flow.fio
# and a flow_sleep after every I/O counts in the span, as thinktime does
printf '[global]\nrw=randwrite\nsize=1m\nio_size=400k\nflow_id=1\nflow_sleep=4611686018427387903ns\n[a]\nflow=1\n[b]\nflow=9\n' >flow2.fio
run "flow2\.fio:6: option 'flow_sleep': the jobs up to 'a' could span .*at most 146 years" flow2.fio
# a startdelay that makes the span too long is named (not 'rate_iops' at
# the section's line)
printf '[job]\nrw=randwrite\nsize=1m\nruntime=10\nstartdelay=0-53375d\nramp_time=1d\n' >delay.fio
run "delay\.fio:5: option 'startdelay': the jobs up to 'job' could span" delay.fio

# zoned_abs sizes whose sum wraps past 2^64 (to 0) ran as if they fitted
printf '[job]\nrw=randread\nsize=1m\nio_size=64k\nrandom_distribution=zoned_abs:50/8192p:50/8192p\n' >zabs.fio
run "zabs\.fio:5: option 'random_distribution': the zones cover over 16384 PiB" zabs.fio
# offset + (numjobs-1) x offset_increment past 2^64
printf '[job]\nrw=write\nsize=1m\nio_size=64k\nnumjobs=5\noffset_increment=4096p\n' >incr.fio
run "incr\.fio:6: option 'offset_increment': clone 4 of job 'job' at offset \+ 4 x 4096 PiB reaches past 2\^64" incr.fio

# arithmetic overflows are refused; integers in it are exact (a seed
# past 2^53 once went through a double: (9007199254740993) seeded the
# stream of 9007199254740992)
printf '[job]\nrw=randwrite\nsize=(8192p*2)\n' >expr.fio
run "expr\.fio:3: option 'size': '\(8192p\*2\)' overflows" expr.fio
printf '[job]\nrw=randwrite\nsize=1m\nio_size=64k\nrandseed=(4611686018427387904+4611686018427387904)\n' >expr.fio
run "expr\.fio:5: option 'randseed': .*overflows" expr.fio
stream() {
	printf '[job]\nrw=randwrite\nsize=1m\nio_size=64k\nrandseed=%s\nwrite_iolog=seed.log\n' "$1" >seed.fio
	expect_status 0 "$SSDLAB" run seed.fio --drive tiny
	cksum <seed.log
}
want=$(stream 9007199254740993)
[ "$want" != "$(stream 9007199254740992)" ] || fail "the two seeds give one stream"
[ "$(stream '(9007199254740993)')" = "$want" ] || fail "randseed=(9007199254740993) is not 9007199254740993"
[ "$(stream '(9007199254740992+1)')" = "$want" ] || fail "randseed=(9007199254740992+1) is not 9007199254740993"

# integers are decimal (a leading 0 is not octal) or 0x hex, as in fio
printf '[job]\nrw=randwrite\nsize=1m\nio_size=64k\niodepth=010\nnumjobs=0x2\n' >ints.fio
expect_status 0 "$SSDLAB" run ints.fio --drive tiny --output-format=json
# ("job options" are the strings as written; latency_depth is the iodepth)
grep -Eq '"latency_depth" ?: 10,' out.txt || fail "iodepth=010 is not ten"
[ "$(grep -c '"jobname" : "job"' out.txt)" -eq 2 ] || fail "numjobs=0x2 is not two"
printf '[job]\nrw=randwrite\nsize=1m\nio_size=64k\niodepth=0x10\nnumjobs=010\n' >ints.fio
expect_status 0 "$SSDLAB" run ints.fio --drive tiny --output-format=json
grep -Eq '"latency_depth" ?: 16,' out.txt || fail "iodepth=0x10 is not sixteen"
[ "$(grep -c '"jobname" : "job"' out.txt)" -eq 10 ] || fail "numjobs=010 is not ten"
