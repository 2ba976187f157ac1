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

# times whose sum passes int64 once made the job do nothing, silently
printf '[job]\nrw=randwrite\nsize=1m\nramp_time=9223372036s\nruntime=9223372036s\n' >ramp.fio
run "ramp\.fio:5: option 'runtime': .*years of simulated time.*at most 146 years" ramp.fio
printf '[job]\nrw=randwrite\nsize=1m\nthinktime=9000000000000000us\n' >think.fio
run "think\.fio:4: option 'thinktime': .*at most 146 years" think.fio
printf '[job]\nrw=randwrite\nsize=1m\nthinktime=9223372036854776us\n' >think2.fio
run "think2\.fio:4: option 'thinktime'.*too long" think2.fio

# integers are decimal (a leading 0 is not octal) or 0x hex, as in fio
printf '[job]\nrw=randwrite\nsize=1m\nio_size=64k\niodepth=010\nnumjobs=0x2\n' >ints.fio
expect_status 0 "$SSDLAB" run ints.fio --drive tiny --output-format=json
# ("job options" are the strings as written; latency_depth is the iodepth)
grep -Eq '"latency_depth" ?: 10,' out.txt || fail "iodepth=010 is not ten"
[ "$(grep -c '"jobname" : "job"' out.txt)" -eq 2 ] || fail "numjobs=0x2 is not two"
