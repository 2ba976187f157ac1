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
verify=md5
EOF
run "unsup\.fio:2: .*'verify'.*not supported" unsup.fio

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
