# ssdlab serve --power-cuts: SIGUSR2 cuts the drive's power.  What a
# flush covered reads back after the cut; unflushed writes in the write
# buffer and open pages are lost without plp -- the pages the power log
# lists read their older content again, every other page its newest --
# and nothing is lost with plp; a file system made and flushed survives
# a cut and checks clean.  The same on an FDP drive.
. "$TOP/tests/cli/lib.inc"
. "$TOP/tests/cli/serve.inc"

expect_err 2 "need --power-cuts" "$SSDLAB" serve --power-log p.csv
expect_err 2 "power-off needs a time" "$SSDLAB" serve --power-cuts --power-off soon
expect_err 2 "^ssdlab: power cuts need a bare SSD" "$SSDLAB" serve --power-cuts --set page_cache=64m

head -c 8388608 /dev/zero | tr '\0' '\252' >aa.img   # 0xaa
head -c 4194304 /dev/zero | tr '\0' '\273' >bb.img   # 0xbb
drive="--drive tiny --set page_size=16k --set capacity=256m --set write_buffer=1m"
# and an FDP drive (docs/power-loss.md#flexible-data-placement; NBD names
# no handle: handle 0's write points), its checker on
fdp="--set fdp=yes --set fdp_handles=3 --set op=0.25 --check 1"
for plp in no yes fdpno; do
	case $plp in
	fdp*) set -- $drive $fdp --set plp=no ;;
	*) set -- $drive --set plp=$plp ;;
	esac
	rm -f p$plp.csv
	start p$plp "$@" --clock fast --power-cuts --power-log "$PWD/p$plp.csv" \
		--output p$plp.json --output-format json
	# 8 MiB of 0xaa, flushed (qemu-io flushes as it closes) ...
	qemu-io -f raw -c 'write -P 0xaa 0 8M' -c flush "$URI" >q.out 2>&1 ||
		{ cat q.out >&2; fail "qemu-io failed"; }
	# ... then its first 4 MiB written with 0xbb, no flush
	nbdcopy bb.img "$URI" || fail "nbdcopy in"
	kill -USR2 $srv
	i=0
	until grep -q "power cut:" p$plp.err; do
		i=$((i + 1)); [ $i -lt 200 ] || fail "no power cut after SIGUSR2: $(cat p$plp.err)"; sleep 0.05
	done
	nbdcopy "$URI" back$plp.img || fail "nbdcopy out"
	usr1 p$plp.json
	stop
	[ "$(jq p$plp.json 'j["ssdlab"]["power_cuts"]')" = 1 ] || fail "the report's power_cuts"
	[ "$(jq p$plp.json 'j["ssdlab"]["power_lost_pages"]')" = "$(grep -o '[0-9]* pages lost' p$plp.err | cut -d' ' -f1)" ] ||
		fail "the report's power_lost_pages"
	python3 - back$plp.img p$plp.csv p$plp.err $plp <<'EOF' || fail "plp=$plp: what the cut left"
import csv, re, sys
img, log, err, plp = open(sys.argv[1], "rb").read(), sys.argv[2], open(sys.argv[3]).read(), sys.argv[4]
lost = {int(r["offset"]) for r in csv.DictReader(open(log))}
assert all(r["holds"] == "older" for r in csv.DictReader(open(log))), "a lost page without its older content"
n = int(re.search(r"power cut: (\d+) pages lost", err).group(1))
assert n == len(lost), (n, len(lost))
P = 4096
for off in range(0, 8 << 20, P):
    page = img[off:off + P]
    if off >= 4 << 20:
        assert page == b"\xaa" * P, f"flushed page at {off} changed"
    elif off in lost:
        assert page == b"\xaa" * P, f"lost page at {off} is not its older content"
    else:
        assert page == b"\xbb" * P, f"page at {off} neither new nor listed as lost"
if plp == "yes":
    assert not lost, f"plp: {len(lost)} pages lost"
else:
    assert lost, "no plp, a buffer full of unflushed data: nothing lost"
EOF
done

# the normal report counts the cuts too
start pt $drive --clock fast --power-cuts --output pt.txt
nbdcopy bb.img "$URI" || fail "nbdcopy in"
kill -USR2 $srv
i=0
until grep -q "power cut:" pt.err; do
	i=$((i + 1)); [ $i -lt 200 ] || fail "no power cut after SIGUSR2: $(cat pt.err)"; sleep 0.05
done
stop
n=$(grep -o '[0-9]* pages lost' pt.err | cut -d' ' -f1)
grep -q "ssdlab: power cuts=1, 4KiB pages lost=$n\$" pt.txt || fail "the normal report: $(cat pt.txt)"

# a file system made and flushed survives a cut: e2fsck finds it clean and
# its file whole
if can_fuse; then
	start fs $drive --clock fast --power-cuts
	if fuse_mount "$PWD/mnt" "$PWD/fs.sock"; then
		mkfs.ext4 -q -F -E nodiscard mnt/nbd
		head -c 2097152 /dev/urandom >file1
		debugfs -w -R "write file1 file1" mnt/nbd >/dev/null 2>&1
		kill -USR2 $srv
		i=0
		until grep -q "power cut:" fs.err; do
			i=$((i + 1)); [ $i -lt 200 ] || fail "no power cut on the file system"; sleep 0.05
		done
		e2fsck -f -n mnt/nbd >fsck.out 2>&1 || { cat fsck.out >&2; fail "e2fsck after the cut"; }
		debugfs -R "dump file1 back1" mnt/nbd >/dev/null 2>&1
		cmp file1 back1 || fail "a flushed file changed in the cut"
		fuse_unmount "$PWD/mnt"
	fi
	stop
fi
echo ok
