# `drive show`: every key with its value; --set changes keys and the
# derived geometry follows; a drive file loads; the output of `drive show`
# is a drive file that loads back to the same drive.
. "$TOP/tests/cli/lib.inc"

# the value of KEY in a `drive show` output file (a derived key is shown
# as a comment: "# blocks_per_plane = 69")
val() { sed -n "s/^\(# \)\{0,1\}$1 *= *\([^ ]*\).*/\2/p" "$2"; }
want() { # FILE KEY VALUE
	got=$(val "$2" "$1")
	[ "$got" = "$3" ] || { cat "$1" >&2; fail "$1: $2 is '$got', wanted '$3'"; }
}

expect_status 0 "$SSDLAB" drive show tiny
cp out.txt tiny.txt
want tiny.txt capacity 64m
want tiny.txt op 0.07
want tiny.txt page_size 4k
want tiny.txt pages_per_block 64
want tiny.txt gc_policy greedy
want tiny.txt blocks_per_plane 69
want tiny.txt name tiny
# one line for each key, each with its meaning after '#'
for k in name description capacity op page_size pages_per_block channels \
	dies_per_channel planes_per_die cell t_read t_prog t_erase pe_cycles \
	channel_mbps multiplane host_mbps cmd_overhead gc_policy gc_window \
	gc_fg_blocks gc_bg_blocks; do
	[ "$(grep -c "^$k *= " tiny.txt)" -eq 1 ] || fail "tiny: not one '$k' line"
	grep "^$k *= " tiny.txt | grep -q ' # [^ ]' || fail "tiny: '$k' has no unit/meaning"
done

# --set: capacity and op change, blocks_per_plane is derived from them:
# the fewest blocks per plane that hold capacity * (1 + op)
expect_status 0 "$SSDLAB" drive show tiny --set capacity=128m --set op=0.28
cp out.txt big.txt
want big.txt capacity 128m
want big.txt op 0.28
want big.txt page_size 4k
want big.txt pages_per_block 64
# 128 MiB * 1.28 over 4 planes of 256 KiB blocks = 163.84 -> 164
want big.txt blocks_per_plane 164
bpp() { # CAPACITY_MIB OP PAGE_KIB PPB PLANES
	awk -v c="$1" -v o="$2" -v p="$3" -v b="$4" -v n="$5" 'BEGIN {
		x = c * 1024 * (1 + o) / (p * b * n); i = int(x);
		if (x - i > 1e-9) i++; print i }'
}
[ "$(bpp 128 0.28 4 64 4)" = 164 ] || fail "bpp helper"
[ "$(bpp 64 0.07 4 64 4)" = 69 ] || fail "bpp helper"
for s in "256m 0.07 4k 4 128 2 2 1" "196m 0.15 8k 8 32 2 1 2" "96m 0.45 4k 4 64 1 2 2"; do
	set -- $s
	expect_status 0 "$SSDLAB" drive show tiny --set capacity="$1" --set op="$2" \
		--set page_size="$3" --set pages_per_block="$5" --set channels="$6" \
		--set dies_per_channel="$7" --set planes_per_die="$8"
	cp out.txt s.txt
	want s.txt capacity "$1"
	want s.txt op "$2"
	want s.txt page_size "$3"
	want s.txt pages_per_block "$5"
	want s.txt blocks_per_plane "$(bpp "${1%m}" "$2" "$4" "$5" $(($6 * $7 * $8)))"
done

# --set gc_policy, and the --set=K=V spelling
for p in cost-benefit fifo random greedy; do
	expect_status 0 "$SSDLAB" drive show tiny --set=gc_policy=$p
	cp out.txt p.txt
	want p.txt gc_policy "$p"
done

# a drive file written here
cat >lab.ini <<'EOF'
# a drive for this test
[drive]
description = test drive
capacity = 48m
op = 0.12
page_size = 8k
pages_per_block = 32
channels = 1
dies_per_channel = 2
planes_per_die = 2
cell = mlc
gc_policy = cost-benefit
EOF
expect_status 0 "$SSDLAB" drive show lab.ini
cp out.txt lab.txt
want lab.txt name lab
want lab.txt capacity 48m
want lab.txt op 0.12
want lab.txt page_size 8k
want lab.txt pages_per_block 32
want lab.txt channels 1
want lab.txt planes_per_die 2
want lab.txt cell mlc
want lab.txt gc_policy cost-benefit
# 48 MiB * 1.12 over 4 planes of 256 KiB blocks = 53.76 -> 54
want lab.txt blocks_per_plane 54
grep -q '^description *= test drive' lab.txt || fail "lab.ini: description"
# keys the file does not set keep the defaults
want lab.txt host_mbps 3500
want lab.txt gc_fg_blocks 2
# --set applies after the file
expect_status 0 "$SSDLAB" drive show lab.ini --set op=0.2 --set channels=2
cp out.txt lab2.txt
want lab2.txt op 0.2
want lab2.txt channels 2
want lab2.txt capacity 48m
# and a drive file can be run
printf '[w]\nrw=randwrite\nbs=8k\nsize=8m\niodepth=4\n' >w.fio
expect_status 0 "$SSDLAB" run w.fio --drive lab.ini --output-format=json
grep -Eq '"name" ?: "lab"' out.txt || fail "run --drive lab.ini: drive name"
grep -Eq '"capacity" ?: 50331648' out.txt || fail "run --drive lab.ini: capacity"

# `drive show default` saved and loaded back: the same drive
"$SSDLAB" drive show default >saved.ini
expect_status 0 "$SSDLAB" drive show --drive saved.ini
cp out.txt loaded.txt
# the name is kept from the file, so the outputs are identical
cmp -s saved.ini loaded.txt || { diff saved.ini loaded.txt >&2; fail "saved default does not load back the same"; }
# the same for a drive changed by --set, and for a file
"$SSDLAB" drive show lab.ini --set gc_policy=fifo --set t_prog=900us >saved2.ini
expect_status 0 "$SSDLAB" drive show saved2.ini
cmp -s saved2.ini out.txt || { diff saved2.ini out.txt >&2; fail "saved lab drive does not load back the same"; }
want saved2.ini t_prog 900us
want saved2.ini gc_policy fifo
# and running on the saved drive is running on the preset
printf '[w]\nrw=randwrite\nbs=4k\nsize=1m\n' >s.fio
expect_status 0 "$SSDLAB" run s.fio --drive default --output-format json --output a.json
expect_status 0 "$SSDLAB" run s.fio --drive saved.ini --output-format json --output b.json
grep -v -e '"wall_seconds"' -e '"host_ios_per_wall_second"' -e '"jobfile"' a.json >a.txt
grep -v -e '"wall_seconds"' -e '"host_ios_per_wall_second"' -e '"jobfile"' b.json >b.txt
cmp -s a.txt b.txt || { diff a.txt b.txt | head >&2; fail "saved.ini runs differently from default"; }

# every preset, as it is and shrunk (adapted), loads back as the same drive
for ini in "$TOP"/presets/*.ini; do
	p=$(basename "$ini" .ini)
	for set in "" "--set capacity=64m" "--set capacity=1g --set op=0.2"; do
		# shellcheck disable=SC2086
		"$SSDLAB" drive show "$p" $set >p1.ini || fail "$p $set: drive show"
		expect_status 0 "$SSDLAB" drive show p1.ini
		cmp -s p1.ini out.txt || { diff p1.ini out.txt >&2; fail "$p $set does not load back the same"; }
	done
done

# descriptions and names with comment characters, quotes and backslashes
# are written so that they read back as they were
for d in 'a ; b # c' '# all comment' '; all comment' '"quoted" start' \
	'back\slash \" and "quotes" ;#' 'x;y#z' 'tail ;' 'key = value # no' '\' '"'; do
	"$SSDLAB" drive show tiny --set "description=$d" --set "name=$d" >h1.ini ||
		fail "drive show with description [$d]"
	expect_status 0 "$SSDLAB" drive show h1.ini
	cmp -s h1.ini out.txt || { diff h1.ini out.txt >&2; fail "[$d] does not load back the same"; }
	printf '[w]\nrw=write\nsize=1m\n' >d.fio
	expect_status 0 "$SSDLAB" run d.fio --drive h1.ini --output-format=json
	got=$(sed -n 's/^ *"description" : "\(.*\)",$/\1/p' out.txt | sed 's/\\\(.\)/\1/g')
	[ "$got" = "$d" ] || fail "description [$d] read back as [$got]"
done
exit 0
