# Drive files and --set: every user mistake exits 2 with one line on
# stderr naming the file:line (or --set), the key and what is accepted;
# `drive show` prints the resolved drive, and its output loads back.
. "$TOP/tests/cli/lib.inc"

# presets are listed and shown
expect_status 0 "$SSDLAB" drives
for p in default slc mlc tiny; do
	grep -q "$p" out.txt || fail "drives does not list $p"
done
expect_status 0 "$SSDLAB" drive show tiny
grep -Eq '^capacity +=  *64m( |$)' out.txt || fail "tiny: capacity"
grep -Eq '^op +=  *0\.07( |$)' out.txt || fail "tiny: op"
grep -Eq '^page_size +=  *4k( |$)' out.txt || fail "tiny: page_size"
grep -Eq '^pages_per_block +=  *64( |$)' out.txt || fail "tiny: pages_per_block"
grep -Eq '^gc_policy +=  *greedy( |$)' out.txt || fail "tiny: gc_policy"
grep -Eq '^t_prog +=  *700us( |$)' out.txt || fail "tiny: t_prog not resolved"
grep -q 'blocks_per_plane = 69' out.txt || fail "tiny: blocks_per_plane"

# --set overrides, applied after the file
expect_status 0 "$SSDLAB" drive show tiny --set op=0.25 --set cell=slc
grep -Eq '^op +=  *0\.25( |$)' out.txt || fail "--set op"
grep -Eq '^t_prog +=  *200us( |$)' out.txt || fail "--set cell: slc timing"

# `drive show` output is itself a drive file
"$SSDLAB" drive show tiny --set capacity=96m >round.ini
expect_status 0 "$SSDLAB" drive show round.ini
grep -Eq '^capacity +=  *96m( |$)' out.txt || fail "round trip: capacity"
grep -Eq '^name +=  *tiny( |$)' out.txt || fail "round trip: name"

# a drive file: comments, [drive], duplicate keys (last wins), name = stem
printf '# my drive\n[drive]\ncapacity = 128m  # inline\npage_size = 4k\npages_per_block = 64\nop = 0.1\nop = 20%%\n' >mine.ini
expect_status 0 "$SSDLAB" drive show mine.ini
grep -Eq '^op +=  *0\.2( |$)' out.txt || fail "duplicate key: last should win"
grep -Eq '^name +=  *mine( |$)' out.txt || fail "name should default to the file stem"

# mistakes in a drive file name file:line and key
printf 'capacity = 64m\nfoo = 1\n' >bad1.ini
expect_err 2 "bad1\.ini:2: unknown key 'foo'" "$SSDLAB" drive show bad1.ini
printf '# comment\n\ncapacity 64m\n' >bad2.ini
expect_err 2 "bad2\.ini:3: expected 'key = value'" "$SSDLAB" drive show bad2.ini
printf 'channels = many\n' >bad3.ini
expect_err 2 "bad3\.ini:1: key 'channels': 'many' is not a whole number" \
	"$SSDLAB" drive show bad3.ini
printf 'op = 0.07\nchannels = 65\n' >bad4.ini
expect_err 2 "bad4\.ini:2: key 'channels'.*out of range.*1\.\.64" \
	"$SSDLAB" drive show bad4.ini
printf 'cell = xlc\n' >bad5.ini
expect_err 2 "bad5\.ini:1: key 'cell': unknown value 'xlc'.*slc, mlc, tlc, qlc" \
	"$SSDLAB" drive show bad5.ini
printf '[ssd]\ncapacity = 64m\n' >bad6.ini
expect_err 2 "bad6\.ini:1: unknown section" "$SSDLAB" drive show bad6.ini
printf 'capacity = 1000000\n' >bad7.ini
expect_err 2 "bad7\.ini:1: key 'capacity'.*multiple of 4k" \
	"$SSDLAB" drive show bad7.ini
# an empty drive file (or comments alone) is no drive: it ran as the
# default 32 GiB one; a drive file may start from a preset
printf '# to do\n' >empty.ini
expect_err 2 "drive file 'empty\.ini' sets no keys.*preset = NAME" \
	"$SSDLAB" run /dev/null --drive empty.ini
printf 'preset = tiny\ngc_policy = fifo\n' >based.ini
expect_status 0 "$SSDLAB" drive show based.ini
grep -Eq '^capacity +=  *64m( |$)' out.txt || fail "preset = tiny: capacity"
grep -Eq '^gc_policy +=  *fifo( |$)' out.txt || fail "preset = tiny: the file's key"
grep -Eq '^name +=  *based( |$)' out.txt || fail "preset = tiny: name = stem"
printf 'op = 0.1\npreset = tiny\n' >late.ini
expect_err 2 "late\.ini:2: key 'preset': comes after other keys" \
	"$SSDLAB" drive show late.ini
# a preset name mistyped gets a suggestion, as keys and options do
expect_err 2 "unknown drive 'tinyy' \(did you mean 'tiny'\?" \
	"$SSDLAB" drive show tinyy
expect_err 2 "unknown drive 'tinyy' \(did you mean 'tiny'\?" \
	"$SSDLAB" run /dev/null --drive tinyy

# mistakes in --set
expect_err 2 "unknown key 'capacty'.*capacity" \
	"$SSDLAB" drive show tiny --set capacty=1g
expect_err 2 "key 'page_size'.*4k, 8k, 16k, 32k, 64k" \
	"$SSDLAB" drive show tiny --set page_size=12k
expect_err 2 "key 'gc_policy': unknown value 'lru'.*greedy, cost-benefit, fifo, random" \
	"$SSDLAB" drive show tiny --set gc_policy=lru
expect_err 2 "key 't_read'.*not a time" "$SSDLAB" drive show tiny --set t_read=fast
expect_err 2 "key 'blocks_per_plane'.*derived" \
	"$SSDLAB" drive show tiny --set blocks_per_plane=100
expect_err 2 "set" "$SSDLAB" drive show tiny --set capacity

# geometry that cannot work: the message names the key and what works
expect_err 2 "capacity 64 MiB does not fit beside the FTL's reserve.*raise op to at least 0\.0625" \
	"$SSDLAB" drive show tiny --set op=0
expect_status 0 "$SSDLAB" drive show tiny --set op=0.0625
expect_err 2 "capacity 1 MiB does not fit.*capacity to at least 3660k" \
	"$SSDLAB" drive show default --set capacity=1m
expect_err 2 "gc_bg_blocks.*gc_fg_blocks.*gc_bg_blocks 10 or more" \
	"$SSDLAB" drive show tiny --set gc_fg_blocks=10 --set gc_bg_blocks=9

# derived quantities are checked against the drive, naming the culprit
# and a value that works (docs/options.md, "What must fit")
expect_err 2 "key 'write_buffer': 64 GiB is more than an eighth of the capacity 64 MiB.*accepted: 0\.\.8m" \
	"$SSDLAB" drive show tiny --set write_buffer=64g
expect_status 0 "$SSDLAB" drive show tiny --set write_buffer=8m
expect_err 2 "key 'write_buffer'" "$SSDLAB" drive show tiny --set write_buffer=8196k
expect_err 2 "key 'slc_cache_size': the static SLC cache of 60 MiB takes 183 blocks per plane.*leaves 1 .*at most 336k" \
	"$SSDLAB" drive show tiny --set slc_cache=static --set slc_cache_size=60m
expect_status 0 "$SSDLAB" drive show tiny --set slc_cache=static --set slc_cache_size=336k
expect_err 2 "key 'slc_cache_size'" \
	"$SSDLAB" drive show tiny --set slc_cache=static --set slc_cache_size=340k
expect_err 2 "key 'slc_cache_size': a dynamic SLC cache of 60 MiB.*at most 21840k" \
	"$SSDLAB" drive show tiny --set slc_cache=dynamic --set slc_cache_size=60m
expect_status 0 "$SSDLAB" drive show tiny --set slc_cache=dynamic --set slc_cache_size=21840k
expect_err 2 "key 'slc_cache_size': 0 with slc_cache = static" \
	"$SSDLAB" drive show tiny --set slc_cache=static
expect_err 2 "key 'slc_cache': static with cell = slc" \
	"$SSDLAB" drive show tiny --set cell=slc --set slc_cache=static --set slc_cache_size=1m
expect_err 2 "key 'map_cache': 64 GiB is more than the whole map, 64 KiB.*4k\.\.64k" \
	"$SSDLAB" drive show tiny --set map_cache=64g
expect_err 2 "key 'map_cache': 1 KiB is less than one map page" \
	"$SSDLAB" drive show tiny --set map_cache=1k
expect_status 0 "$SSDLAB" drive show tiny --set map_cache=64k
expect_err 2 "key 'gc_bg_blocks': 100 needs 104 blocks per plane.*at most 65" \
	"$SSDLAB" drive show tiny --set gc_bg_blocks=100
expect_status 0 "$SSDLAB" drive show tiny --set gc_bg_blocks=65
expect_err 2 "key 'gc_fg_blocks': 10 free blocks.*at most 3" \
	"$SSDLAB" drive show tiny --set gc_fg_blocks=10 --set gc_bg_blocks=10
expect_status 0 "$SSDLAB" drive show tiny --set gc_fg_blocks=3 --set gc_bg_blocks=10
expect_err 2 "key 'slc_pe_cycles': 3000001 is more than 1000 x pe_cycles.*0\.\.3000000" \
	"$SSDLAB" drive show tiny --set slc_pe_cycles=3000001
expect_status 0 "$SSDLAB" drive show tiny --set slc_pe_cycles=3000000
# and a run refuses them the same way
printf '[w]\nrw=write\nsize=1m\n' >w.fio
expect_err 2 "key 'write_buffer'" "$SSDLAB" run w.fio --drive tiny --set write_buffer=64g

# numbers that do not fit are refused, never wrapped; 010 is ten
expect_err 2 "key 'capacity'.*out of range" \
	"$SSDLAB" drive show tiny --set capacity=99999999999999999999
expect_err 2 "key 'channels'.*out of range" \
	"$SSDLAB" drive show tiny --set channels=4294967298
expect_err 2 "key 't_prog'.*out of range" \
	"$SSDLAB" drive show tiny --set t_prog=9223372037s
expect_status 0 "$SSDLAB" drive show tiny --set gc_window=010
grep -Eq '^gc_window +=  *10( |$)' out.txt || fail "gc_window=010 is not ten"
expect_status 0 "$SSDLAB" drive show tiny --set gc_window=0x1f
grep -Eq '^gc_window +=  *31( |$)' out.txt || fail "gc_window=0x1f is not 31"
# and so in a drive file: sizes, counts
printf '[drive]\ncapacity = 0100m\nop = 0.25\npage_size = 4k\nchannels = 010\ndies_per_channel = 1\nplanes_per_die = 1\npages_per_block = 0x40\ngc_bg_blocks = 0x10\n' >ints.ini
expect_status 0 "$SSDLAB" drive show ints.ini
grep -Eq '^capacity +=  *100m( |$)' out.txt || fail "capacity = 0100m is not 100m"
grep -Eq '^channels +=  *10( |$)' out.txt || fail "channels = 010 is not ten"
grep -Eq '^pages_per_block +=  *64( |$)' out.txt || fail "pages_per_block = 0x40 is not 64"
grep -Eq '^gc_bg_blocks +=  *16( |$)' out.txt || fail "gc_bg_blocks = 0x10 is not sixteen"
printf 'channels = 0x100000004\n' >wrap.ini
expect_err 2 "wrap\.ini:1: key 'channels'.*out of range" "$SSDLAB" drive show wrap.ini

# drives that do not exist
expect_err 2 "unknown drive 'nosuch'.*ssdlab drives" "$SSDLAB" drive show nosuch
expect_err 2 "missing\.ini" "$SSDLAB" drive show missing.ini
expect_err 2 "nodir/x\.ini" "$SSDLAB" drive show nodir/x.ini
exit 0
