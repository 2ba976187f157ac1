# Memory that says what it needs: `drive show` prints the estimate of
# what simulating the drive takes, in the range the FTL's tables give
# (about 8 bytes per 4 KiB of flash); a drive that needs more than the
# process may take -- here under a real address-space limit, ulimit -v,
# which ssdlab reads as RLIMIT_AS -- is refused before it is built, in
# one line with exit status 1, by run, scenario and serve alike; the
# drive key mem_check = no (--set or a drive file) builds it anyway; a
# job that verifies data counts its tables too (docs/options.md,
# mem_check; BENCHMARKS.md, Memory).
. "$TOP/tests/cli/lib.inc"

# MiB of the "# memory: about N UNIT" line in out.txt
mem_mib() {
	sed -n 's/^# memory: about \([0-9.]*\) \([KMGT]\)iB .*/\1 \2/p' out.txt |
		awk '{ m = $1; if ($2 == "K") m /= 1024; if ($2 == "G") m *= 1024;
		       if ($2 == "T") m *= 1048576; printf "%d\n", m }'
}
# in_range N LO HI WHAT
in_range() {
	[ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ] ||
		{ cat out.txt >&2; fail "$4: '$1' MiB, wanted $2..$3"; }
}

# the estimate: the default 32 GiB drive (34.25 GiB of flash, 8.98 M
# slots at 8.3 bytes, and the program's 3 MiB) and 1 TiB
expect_status 0 "$SSDLAB" drive show default
[ "$(grep -c '^# memory: ' out.txt)" -eq 1 ] || fail "drive show: no '# memory:' line"
grep -q '^# memory: about .* to simulate (the FTL .*; .* more for jobs that verify data$' out.txt ||
	fail "drive show: the memory line names its parts: $(grep '^# memory' out.txt)"
in_range "$(mem_mib)" 65 80 "default's memory"
cp out.txt shown.ini
expect_status 0 "$SSDLAB" drive show default --set capacity=1t
in_range "$(mem_mib)" 2000 2300 "1 TiB's memory"
# the line is a comment: the output still loads as a drive file
expect_status 0 "$SSDLAB" drive show ./shown.ini
# and grows with the host layers: a 1 GiB page cache is 40 bytes per
# 4 KiB page (10 MiB) and MFT's map 4 bytes per 16 KiB block
expect_status 0 "$SSDLAB" drive show default --set page_cache=1g --set mft=yes
in_range "$(mem_mib)" 80 110 "default with a page cache and MFT"

# ulimit -v: not under AddressSanitizer, which reserves terabytes of
# address space (tests/run.sh runs this test in the normal build only)
cat >w.fio <<'EOF'
[w]
rw=randwrite
bs=4k
number_ios=2000
EOF
cat >v.fio <<'EOF'
[v]
rw=randwrite
bs=4k
number_ios=2000
verify=crc32c
EOF
limited() { # KIB CMD...: run CMD under an address-space limit of KIB
	_kib=$1
	shift
	(ulimit -v "$_kib" && exec "$@")
}
refused="^ssdlab: drive 'default' needs about [0-9.]+ [MG]iB of memory, [0-9.]+ MiB is left under the address-space limit \(ulimit -v\) \(use a smaller capacity, or --set mem_check=no\)$"
# 200 MB of address space: 256 GiB (543 MiB) is refused, 16 GiB runs
expect_err 1 "$refused" limited 200000 "$SSDLAB" run w.fio --set capacity=256g
expect_status 0 limited 200000 "$SSDLAB" run w.fio --set capacity=16g
# the override: the drive is built, and the allocator says no
expect_err 1 "^ssdlab: cannot build drive 'default': out of memory$" \
	limited 200000 "$SSDLAB" run w.fio --set capacity=256g --set mem_check=no
# ... the same from a drive file
sed 's/^mem_check *=.*/mem_check = no/' shown.ini >nocheck.ini
grep -q '^mem_check = no$' nocheck.ini || fail "drive show has no mem_check line"
expect_err 1 "^ssdlab: cannot build drive 'default': out of memory$" \
	limited 200000 "$SSDLAB" run w.fio --drive ./nocheck.ini --set capacity=256g
# a job that verifies data: 64 GiB's maps fit (139 MiB), with its tags
# and the host's record (+132 MiB) they do not
expect_status 0 limited 200000 "$SSDLAB" run w.fio --set capacity=64g
expect_err 1 "$refused" limited 200000 "$SSDLAB" run v.fio --set capacity=64g
# the other commands that build a drive
expect_err 1 "$refused" limited 200000 "$SSDLAB" scenario run steady-state \
	--set capacity=256g --out sc
expect_err 1 "$refused" limited 200000 "$SSDLAB" life --set capacity=256g
expect_err 1 "$refused" limited 200000 "$SSDLAB" serve --run true --set capacity=256g
exit 0
