# Small drives from big presets: --set capacity on every preset gives a
# working drive (the preset's blocks and array adapted where its shape
# cannot hold the capacity), whose report describes the drive that ran;
# or, below what can work, one line naming the smallest value that works.
. "$TOP/tests/cli/lib.inc"

cat >small.fio <<'EOF2'
[w]
rw=randwrite
bs=4k
size=100%
io_size=50%

[gc]
stonewall
rw=randwrite
bs=4k
io_size=100%
EOF2

n=0
for ini in "$TOP"/presets/*.ini; do
	p=$(basename "$ini" .ini)
	for cap in 64m 1g 4m 512m; do
		set +e
		"$SSDLAB" run small.fio --drive "$p" --set capacity=$cap >out.txt 2>err.txt
		rc=$?
		set -e
		if [ $rc -ne 0 ]; then
			cat err.txt >&2
			fail "$p capacity=$cap: exit $rc"
		fi
		[ ! -s err.txt ] || { cat err.txt >&2; fail "$p capacity=$cap: stderr"; }
		# a complete report of both jobs
		[ "$(grep -c '^Run status group' out.txt)" -eq 2 ] ||
			fail "$p capacity=$cap: incomplete report"
		grep -q '^Run: seed=1' out.txt || fail "$p capacity=$cap: no Run line"
		if grep -q '^type *= *hdd' "$ini"; then
			# a hard disk: no GC, its capacity on the disk's line
			grep -q '^  hard disk: capacity=' out.txt ||
				fail "$p capacity=$cap: no hard disk line"
			n=$((n + 1))
			continue
		fi
		grep -Eq 'gc: copied=[1-9]' out.txt || fail "$p capacity=$cap: no GC ran"
		# the report describes the drive that ran
		grep -q "^Drive $p -- .*\[changed: capacity=$cap" out.txt ||
			{ grep '^Drive' out.txt >&2; fail "$p capacity=$cap: description"; }
		bytes=$(awk -v c="$cap" 'BEGIN { u = substr(c, length(c)); v = substr(c, 1, length(c) - 1);
			m = u == "g" ? 1073741824 : 1048576; printf "%.0f", v * m }')
		grep -q "^  capacity=.*($bytes bytes)" out.txt ||
			fail "$p capacity=$cap: effective capacity not shown"
		n=$((n + 1))
	done
done
[ "$n" -ge 48 ] || fail "only $n preset runs"

# more sizes on the presets the reports were about
for cap in 1536m 2g; do
	for p in default intel-760p-128g; do
		expect_status 0 "$SSDLAB" run small.fio --drive "$p" --set capacity=$cap
		grep -q "^Drive $p -- .*\[changed: capacity=$cap" out.txt ||
			fail "$p capacity=$cap: description"
	done
done

# the reported case: 1 GiB from the 32 GiB default, the blocks made smaller
expect_status 0 "$SSDLAB" drive show default --set capacity=1g
grep -q '^pages_per_block *= 64 ' out.txt || fail "default 1g: pages_per_block"
grep -q '^channels *= 4 ' out.txt || fail "default 1g: channels changed"
grep -q '^op *= 0.07 ' out.txt || fail "default 1g: op changed"
grep -q 'adapted to fit: pages_per_block=64\]' out.txt || fail "default 1g: note"
# a key given with --set is kept: the array narrows instead
expect_status 0 "$SSDLAB" drive show default --set capacity=1g --set pages_per_block=256
grep -q '^pages_per_block *= 256 ' out.txt || fail "pinned pages_per_block changed"
# JSON says it too
expect_status 0 "$SSDLAB" run small.fio --drive intel-760p-128g --set capacity=1g \
	--output-format=json
grep -Eq '"description" ?: "Intel 760p.*\[changed: capacity=1g; adapted to fit: .*slc_cache_size=' out.txt ||
	fail "json description"

# too small for any adaptation: the message names what works, and it does
for p in default tiny intel-760p-128g; do
	expect_err 2 "keys 'capacity' and 'op'.*capacity to at least [0-9]+k" \
		"$SSDLAB" drive show "$p" --set capacity=1m
	least=$(sed -n 's/.*capacity to at least \([0-9]*k\).*/\1/p' err.txt)
	expect_status 0 "$SSDLAB" run small.fio --drive "$p" --set capacity="$least"
	op=$(sed -n 's/.*op to at least \([0-9.]*\).*/\1/p' err.txt)
	expect_status 0 "$SSDLAB" drive show "$p" --set capacity=1m --set op="$op"
done
# a drive file's own values are not adapted: refused, with what works
printf 'capacity = 1g\n' >mine.ini
expect_err 2 "capacity 1 GiB does not fit.*raise op to at least 0\.25 or capacity to at least" \
	"$SSDLAB" drive show mine.ini
exit 0
