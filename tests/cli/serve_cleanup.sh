# The serve tests leave nothing behind, whatever happens: serve_power.sh
# run on a machine without fusermount3 skips its file-system part
# (instead of failing with nbdfuse's mount and process left over), and
# run with an e2fsck that fails while the file system is mounted fails
# with everything it started ended and unmounted.
. "$TOP/tests/cli/lib.inc"
need nbdkit nbdinfo nbdcopy qemu-io nbdfuse fusermount3 mkfs.ext4 debugfs e2fsck python3 pgrep
[ -e /dev/fuse ] || skip "no /dev/fuse here"
[ -f "$(dirname "$SSDLAB")/nbdkit-ssdlab-plugin.so" ] || skip "the nbdkit plugin was not built"

# what a run in folder $1 left: its mounts and its processes
left() {
	awk -v d="$1" 'index($2, d) == 1 { print "mount " $2 }' /proc/mounts
	for p in $(pgrep -f "$1" || true); do
		[ "$p" = $$ ] || echo "process $p: $(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null)"
	done
}
# ... ended here whatever happens, so that this test leaves nothing either
reap() {
	for m in $(awk -v d="$1" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do
		fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for p in $(pgrep -f "$1"); do kill -9 "$p"; done
}

# a PATH without fusermount3: every other program of the PATH linked
mkdir nofuse
oifs=$IFS
IFS=:
for d in $PATH; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		n=${f##*/}
		case $n in fusermount3|fusermount) continue ;; esac
		[ -x "$f" ] && [ ! -e "nofuse/$n" ] && ln -s "$f" "nofuse/$n"
	done
done
IFS=$oifs
mkdir run1
at_exit "reap '$PWD/run1'"
set +e
(cd run1 && PATH="$PWD/../nofuse" sh "$TOP/tests/cli/serve_power.sh") >run1.log 2>&1
rc=$?
set -e
[ -z "$(left "$PWD/run1")" ] || { cat run1.log >&2; left "$PWD/run1" >&2; fail "without fusermount3: left behind"; }
[ $rc -eq 77 ] || { cat run1.log >&2; fail "without fusermount3: exit $rc, wanted 77 (a skip)"; }
grep -q "^SKIP: fusermount3 is not installed" run1.log || { cat run1.log >&2; fail "the skip's reason"; }

# an e2fsck that fails while nbdfuse has the drive mounted
mkdir fake run2
printf '#!/bin/sh\necho "e2fsck: a failure of this test" >&2\nexit 4\n' >fake/e2fsck
chmod +x fake/e2fsck
at_exit "reap '$PWD/run2'"
set +e
(cd run2 && PATH="$PWD/../fake:$PATH" sh "$TOP/tests/cli/serve_power.sh") >run2.log 2>&1
rc=$?
set -e
[ -z "$(left "$PWD/run2")" ] || { cat run2.log >&2; left "$PWD/run2" >&2; fail "a failure while mounted: left behind"; }
[ $rc -eq 1 ] || { cat run2.log >&2; fail "a failure while mounted: exit $rc, wanted 1"; }
grep -q "FAIL: e2fsck after the cut" run2.log || { cat run2.log >&2; fail "not the fake e2fsck's failure"; }
echo ok
