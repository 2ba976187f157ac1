# ssdlab serve: the drive over NBD, used by the real tools -- fio's nbd
# engine with verification, qemu-io, nbdcopy, nbdinfo, a file system made
# and trimmed through nbdfuse -- with the server's report counting what
# they did; usage errors; the end of life seen through NBD.
. "$TOP/tests/cli/lib.inc"
. "$TOP/tests/cli/serve.inc"

# ---- usage errors: one line, exit 2, before nbdkit starts ----
expect_err 2 "clock needs real or fast" "$SSDLAB" serve --clock slow
expect_err 2 "exclude each other" "$SSDLAB" serve --socket s --port 1
expect_err 2 "unknown drive .nosuch." "$SSDLAB" serve --drive nosuch
expect_err 2 "stats-log needs --stats-interval" "$SSDLAB" serve --stats-log x.csv
echo data >full.img
expect_err 2 "data file full.img: exists and is not empty" "$SSDLAB" serve --data full.img
# what the plugin would refuse in the drive and the files is serve's own
# one-line usage error, by the plugin's check, and nbdkit never starts
u() { "$SSDLAB" serve --socket "$PWD/u.sock" --drive tiny "$@" --run "touch ran"; }
expect_err 2 "^ssdlab: power cuts are modelled on page mapping only, and the drive has mapping = block" \
	u --set mapping=block --power-cuts
expect_err 2 "^ssdlab: power cuts with paired_pages = protected are modelled on drives without zones or FDP only" \
	u --set fdp=yes --set fdp_handles=2 --set op=0.25 --set paired_pages=protected --power-cuts
expect_err 2 "^ssdlab: power cuts need a bare SSD" u --set mft=yes --power-cuts
expect_err 2 "^ssdlab: the drive is zoned \(mapping = zone, 64 zones\) and NBD has no zone commands" \
	u --set mapping=zone
expect_err 2 "^ssdlab: cannot read snapshot 'none.snap': No such file" u --snapshot none.snap
expect_err 2 "^ssdlab: 'full.img' is not an ssdlab snapshot" u --snapshot full.img
mkdir adir
expect_err 2 "^ssdlab: data file adir: not a regular file" u --data adir
[ ! -e ran ] || fail "nbdkit started for a drive serve refuses"
# nbdkit run directly with the plugin still refuses them
set +e
env $PLUGIN_ENV nbdkit -U "$PWD/u.sock" "$PLUGIN" drive=tiny set=mapping=block \
	power-cuts=yes --run "touch ran" 2>err.txt
got=$?
set -e
[ $got -eq 1 ] && grep -q "power cuts are modelled on page mapping only" err.txt &&
	[ ! -e ran ] || fail "the plugin run directly, mapping = block with power cuts: exit $got: $(cat err.txt)"

# ---- the functional server: fast clock, data in memory ----
start f --set capacity=256m --clock fast --output f.json --output-format json
nbdinfo --json "$URI" >info.json
python3 - info.json <<'EOF' || fail "nbdinfo: $(cat info.json)"
import json, sys
e = json.load(open(sys.argv[1]))["exports"][0]
assert e["export-size"] == 256 << 20, e["export-size"]
for k in ("can_flush", "can_fua", "can_trim", "can_zero", "can_multi_conn", "can_fast_zero"):
    assert e[k] is True, k
assert e["is_rotational"] is False and e["is_read_only"] is False
EOF

# fio's nbd engine: random writes verified by crc32c, trims, the trimmed
# range read back as zeros, the rest read back and verified
cat >v.fio <<'EOF'
[global]
ioengine=nbd
uri=${URI}
bs=4k
size=32m
[write]
rw=randwrite
iodepth=16
verify=crc32c
do_verify=1
[trim]
stonewall
rw=randtrim
offset=8m
size=8m
iodepth=8
[zeros]
stonewall
rw=read
offset=8m
size=8m
verify=pattern
verify_pattern=0
verify_only=1
[rest]
stonewall
rw=read
size=8m
verify=crc32c
verify_only=1
EOF
fio --output-format=json v.fio >v.json 2>v.err || { cat v.err >&2; fail "fio verify failed"; }
[ "$(jq v.json '",".join(str(x["error"]) for x in r["jobs"])')" = "0,0,0,0" ] || fail "fio errors"
[ "$(jq v.json 'r["jobs"][0]["write"]["io_bytes"], r["jobs"][1]["trim"]["io_bytes"], r["jobs"][2]["read"]["io_bytes"]')" = "(33554432, 8388608, 8388608)" ] ||
	fail "fio did not do the I/O: $(jq v.json 'r["jobs"][0]["write"]["io_bytes"]')"
# the check can fail: the trimmed range is not 0x01
sed 's/verify_pattern=0$/verify_pattern=0x01/' v.fio >bad.fio
python3 - bad.fio <<'EOF'
import sys
p = sys.argv[1]; s = open(p).read()
s = s[s.index("[zeros]"):s.index("[rest]")]
open(p, "w").write("[global]\nioengine=nbd\nuri=${URI}\nbs=4k\n" + s.replace("stonewall\n", ""))
EOF
if fio bad.fio >bad.out 2>&1; then fail "a wrong pattern verified"; fi
grep -q "verify failed" bad.out || fail "fio's verify did not report: $(tail -3 bad.out)"

# qemu-io: a pattern written and read back (its message is the failure;
# some versions exit 0 on a mismatch)
qemu-io -f raw -c 'write -P 0xab 64M 1M' -c 'read -P 0xab 64M 1M' -c 'read -P 0 66M 4k' \
	"$URI" >q.out 2>&1 || { cat q.out >&2; fail "qemu-io failed"; }
grep -qi "pattern verification failed\|error" q.out && { cat q.out >&2; fail "qemu-io pattern"; }
qemu-io -f raw -c 'read -P 0xcd 64M 4k' "$URI" >q2.out 2>&1 || true
grep -qi "pattern verification failed" q2.out || fail "qemu-io did not catch a wrong pattern"
# a discard that is not 4 KiB-aligned frees only the whole pages inside
# it, as the drive deallocates them: the pages it covers in part read
# back whole (4 KiB at 68M + 512; 8 KiB at 72M + 2048 frees 72M + 4096)
qemu-io -f raw -c 'write -P 0xab 68M 8k' -c 'discard 71303680 4k' -c 'read -P 0xab 68M 8k' \
	-c 'write -P 0xcd 72M 16k' -c 'discard 75499520 8k' -c 'read -P 0xcd 72M 4k' \
	-c 'read -P 0 75501568 4k' -c 'read -P 0xcd 75505664 8k' \
	"$URI" >q3.out 2>&1 || { cat q3.out >&2; fail "qemu-io discard failed"; }
grep -qi "pattern verification failed\|error" q3.out && { cat q3.out >&2; fail "qemu-io: a discard lost data outside it"; }

# nbdcopy: a file in and out with equal checksums
head -c 8388608 /dev/urandom >in.bin
nbdcopy in.bin "$URI"
nbdcopy "$URI" out.img
[ "$(head -c 8388608 out.img | sha256sum)" = "$(sha256sum <in.bin)" ] || fail "nbdcopy round trip"
[ "$(stat -c %s out.img)" = $((256 << 20)) ] || fail "nbdcopy out size"

# a file system through nbdfuse (where FUSE mounts work): made, files
# written and deleted without mounting, checked, its free space trimmed
if can_fuse && fuse_mount "$PWD/mnt" "$PWD/f.sock"; then
	mkfs.ext4 -q -F -E nodiscard mnt/nbd
	usr1 f.json
	t0=$(jq f.json 'j["ssdlab"]["host_pages_trimmed"]')
	for k in 1 2 3; do
		head -c 2097152 /dev/urandom >file$k
		debugfs -w -R "write file$k file$k" mnt/nbd >/dev/null 2>&1
	done
	debugfs -R "dump file2 back2" mnt/nbd >/dev/null 2>&1
	cmp file2 back2 || fail "a file read back through ext4 differs"
	debugfs -w -R "rm file1" mnt/nbd >/dev/null 2>&1
	debugfs -w -R "rm file3" mnt/nbd >/dev/null 2>&1
	e2fsck -f -n mnt/nbd >fsck.out 2>&1 || { cat fsck.out >&2; fail "e2fsck found errors"; }
	usr1 f.json
	t1=$(jq f.json 'j["ssdlab"]["host_pages_trimmed"]')
	# fstrim's work without a mount: discard the free blocks
	e2fsck -f -y -E discard mnt/nbd >/dev/null 2>&1
	usr1 f.json
	t2=$(jq f.json 'j["ssdlab"]["host_pages_trimmed"]')
	[ "$t1" = "$t0" ] || fail "trims before the discard: $t0 -> $t1"
	# the deleted files' 4 MiB at least, and the free space
	[ "$t2" -gt $((t1 + 1024)) ] || fail "e2fsck -E discard trimmed $t1 -> $t2 pages"
	debugfs -R "dump file2 back2b" mnt/nbd >/dev/null 2>&1
	cmp file2 back2b || fail "the kept file changed after the discard"
	# and mounted by the kernel where loop devices work: files copied
	# and deleted, then fstrim
	mkdir fsmnt
	if ! have mount || ! have umount || ! have fstrim; then
		skip_part "mount, umount and fstrim are not all installed: no fstrim of a mounted ext4"
	elif mount -o loop mnt/nbd fsmnt 2>mount.err; then
		at_exit "umount '$PWD/fsmnt' || umount -l '$PWD/fsmnt'"
		cp file1 fsmnt/f1 && cp file3 fsmnt/f3 && sync
		cmp file1 fsmnt/f1 || { umount fsmnt; fail "ext4 read back"; }
		rm fsmnt/f1 fsmnt/f3 && sync
		usr1 f.json
		m0=$(jq f.json 'j["ssdlab"]["host_pages_trimmed"]')
		fstrim fsmnt || { umount fsmnt; fail "fstrim"; }
		usr1 f.json
		m1=$(jq f.json 'j["ssdlab"]["host_pages_trimmed"]')
		umount fsmnt
		[ "$m1" -gt $((m0 + 1024)) ] || fail "fstrim trimmed $m0 -> $m1 pages"
		e2fsck -f -n mnt/nbd >fsck.out 2>&1 || { cat fsck.out >&2; fail "e2fsck after the mount"; }
	else
		skip_part "no loop mount here: $(head -c 300 mount.err | tr '\n' ' ')"
	fi
	fuse_unmount "$PWD/mnt"
fi
stop
# the final report counts what every client did
[ "$(jq f.json 'j["trim"]["io_bytes"] >= 8 << 20 and j["write"]["io_bytes"] >= 40 << 20')" = True ] ||
	fail "report: $(jq f.json 'j["trim"]["io_bytes"], j["write"]["io_bytes"]')"
[ "$(jq f.json 'j["ssdlab"]["host_pages_written"] >= 10240 and j["ssdlab"]["waf"] >= 1')" = True ] ||
	fail "report counters"

# a drive without TRIM (trim = no; the X25-M G1 of 2008 as its preset
# says): not offered to clients, and write zeroes still zeroes
for d in "--drive tiny --set trim=no" "--drive intel-x25m-80g --set capacity=256m"; do
	start nt $d --clock fast
	nbdinfo --json "$URI" >nt.json
	python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))["exports"][0]
assert e["can_trim"] is False and e["can_zero"] is True' nt.json ||
		fail "$d: $(cat nt.json)"
	qemu-io -f raw -c 'write -P 7 0 64k' -c 'write -z 0 32k' -c 'read -P 0 0 32k' \
		-c 'read -P 7 32k 32k' "$URI" >nt.io || fail "$d: write zeroes: $(cat nt.io)"
	! grep -q 'Pattern verification failed' nt.io || fail "$d: $(cat nt.io)"
	stop
done

# ---- the edges of starting and stopping ----
# the report without --output goes to the standard output serve had
start o --drive tiny --clock fast
qemu-io -f raw -c 'write -P 7 0 64k' "$URI" >/dev/null
stop
grep -q '^nbd: (groupid=0' o.out || { cat o.out o.err >&2; fail "no report on standard output"; }
# the same socket again, after a clean stop (nbdkit leaves it behind)
start o --drive tiny --clock fast
stop
# a drive that cannot be made ends serve before --run's command starts
# (it would wait for a server that never comes)
expect_err 2 "folder .*nodir" timeout 20 "$SSDLAB" serve --data nodir/x.img --run 'echo RAN'
# (in the sanitized build too: nbdkit's exit on an error at start-up
# hung there, nbdkit/san_preload.c)
set +e
timeout -k 5 20 env $PLUGIN_ENV nbdkit -f -U - "$PLUGIN" drive=tiny \
	data="$PWD/nodir/x.img" --run 'echo RAN' >run.out 2>run.err
rc=$?
set -e
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] && ! grep -q RAN run.out ||
	fail "a plugin that cannot open ran the command (exit $rc): $(cat run.err)"
# ... and a data file it made for nothing is gone
set +e
timeout -k 5 20 env $PLUGIN_ENV nbdkit -f -U - "$PLUGIN" drive=tiny \
	data="$PWD/made.img" stats-interval=1s stats-log=/nonexistent-dir/s.csv \
	--run 'echo RAN' >run.out 2>run.err
rc=$?
set -e
[ $rc -ne 124 ] && [ $rc -ne 137 ] || fail "nbdkit did not exit after a failed start"
[ ! -e made.img ] || fail "a failed start left its data file"
# nbdkit's own refusal of an option ends it, and serve, at once
set +e
timeout -k 5 20 "$SSDLAB" serve --drive tiny -- --no-such-nbdkit-option >/dev/null 2>run.err
rc=$?
set -e
[ $rc -eq 1 ] || fail "serve with an option nbdkit refuses: exit $rc, wanted 1: $(cat run.err)"
# the plugin under nbdkit directly, forking into the background (and out
# of this folder): its relative paths are this folder's
at_exit '[ ! -s "$PWD/bg.pid" ] || kill -9 "$(cat "$PWD/bg.pid")"'
env $PLUGIN_ENV nbdkit -U "$PWD/bg.sock" -P "$PWD/bg.pid" "$PLUGIN" \
	drive=tiny clock=fast output=bg.json format=json
i=0
while [ ! -s bg.pid ]; do i=$((i + 1)); [ $i -lt 200 ] || fail "nbdkit did not start"; sleep 0.05; done
qemu-io -f raw -c 'write -P 7 0 4k' "nbd+unix:///?socket=$PWD/bg.sock" >/dev/null
kill -TERM "$(cat bg.pid)"
i=0
while [ ! -f bg.json ]; do i=$((i + 1)); [ $i -lt 200 ] || fail "no report in this folder"; sleep 0.05; done
rm -f bg.pid

# ---- the end of life: writes fail as a drive's do, reads work ----
start ro --set capacity=16m --set pe_cycles=3 --set pe_spread=0 --clock fast \
	--output ro.json --output-format json
cat >wear.fio <<'EOF'
[global]
ioengine=nbd
uri=${URI}
bs=64k
[wear]
rw=randwrite
loops=200
EOF
fio wear.fio >wear.out 2>&1 && fail "writes never failed on a worn-out drive"
grep -q "Operation not permitted\|Read-only\|error=" wear.out || fail "wear: $(tail -3 wear.out)"
printf '[global]\nioengine=nbd\nuri=${URI}\nbs=64k\n[r]\nrw=read\n' >read.fio
fio read.fio >read.out 2>&1 || { cat read.out >&2; fail "reads failed on the read-only drive"; }
stop
[ "$(jq ro.json 'j["ssdlab"]["health"]["read_only"]')" = "True" ] || fail "not read-only: $(jq ro.json 'j["ssdlab"]["health"]')"
echo ok
