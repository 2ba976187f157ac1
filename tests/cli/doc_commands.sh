# Every command README.md and docs/*.md show runs as written
# (tools/doc-commands.sh): here the fast ones, with the binary under test;
# `make doc-check` runs the slow ones too.  The tool lists what it does
# not run, and why.  The README's recipe of a file system through nbdfuse
# is among them: as it was, nbdfuse had no folder to mount on and mkfs
# ran before the drive's file was there.
. "$TOP/tests/cli/lib.inc"
need python3 bash nbdkit nbdinfo nbdcopy qemu-io nbdfuse fusermount3 mkfs.ext4 debugfs e2fsck
[ -e /dev/fuse ] || skip "no /dev/fuse here: the docs' nbdfuse recipes"
[ -f "$(dirname "$SSDLAB")/nbdkit-ssdlab-plugin.so" ] || skip "the nbdkit plugin was not built (nbdkit-plugin-dev)"

sh "$TOP/tools/doc-commands.sh" --list >list.txt 2>&1 || { cat list.txt >&2; fail "--list"; }
# every skipped command has its reason
grep -E '^skip ' list.txt | grep -Ev '^skip [^ ]+:[0-9]+: .+: .+$' && fail "a skip without a reason"
grep -q '^run  README.md:[0-9]*: mkdir -p /tmp/fuse && nbdfuse ' list.txt || { cat list.txt >&2; fail "the README's nbdfuse recipe is not run"; }

sh "$TOP/tools/doc-commands.sh" --fast --ssdlab "$SSDLAB" >run.txt 2>&1 || { cat run.txt >&2; fail "a command of the docs failed"; }
grep -q '^ok   README.md:[0-9]*: until \[ -s /tmp/fuse.pid \]' run.txt || { cat run.txt >&2; fail "the README's mount did not run"; }
grep -Eq '^[0-9]+ ran, 0 failed, [0-9]+ skipped$' run.txt || { cat run.txt >&2; fail "the closing line"; }
[ "$(sed -n 's/^\([0-9]*\) ran.*/\1/p' run.txt)" -ge 40 ] || { cat run.txt >&2; fail "fewer than 40 commands ran"; }
echo ok
