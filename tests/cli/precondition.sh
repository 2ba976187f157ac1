# `ssdlab run --precondition`: the drive filled before the job file runs,
# sequentially or by a directory copy (docs/fill.md), with a line on
# stderr saying what was written; the jobs then meet a full drive (GC
# erases blocks from the first write on), and the errors.
. "$TOP/tests/cli/lib.inc"

cat >w.fio <<'EOJ'
[w]
rw=write
bs=128k
iodepth=32
size=64m
EOJ
run() { "$SSDLAB" run w.fio --drive tiny --set capacity=256m --output-format json "$@"; }
erased() { python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["ssdlab"]["blocks_erased"])'; }

need python3
run >fresh.json 2>fresh.err || fail "run on a fresh drive"
[ -s fresh.err ] && { cat fresh.err; fail "a line on stderr without --precondition"; }
[ "$(erased <fresh.json)" -eq 0 ] || fail "a fresh drive erased blocks"
run --precondition dircopy >dc.json 2>dc.err || { cat dc.err; fail "--precondition dircopy"; }
grep -Eq '^ssdlab: precondition: directory copy of the impressions set, [0-9]+ files in [0-9]+ directories, 25[0-9.]+ MiB of 256 MiB in use, [0-9.]+ [KM]iB of metadata among the data, [0-9.]+ s of drive time$' dc.err ||
	{ cat dc.err; fail "--precondition dircopy: its line"; }
[ "$(erased <dc.json)" -gt 0 ] || fail "after a directory copy the drive is not full"
run --precondition dircopy:win7:0.5 >half.json 2>half.err || { cat half.err; fail "dircopy:win7:0.5"; }
grep -Eq 'copy of the win7 set, .* 1[2-9][0-9.]+ MiB of 256 MiB in use' half.err ||
	{ cat half.err; fail "dircopy:win7:0.5: not half full"; }
run --precondition sequential >seq.json 2>seq.err || { cat seq.err; fail "--precondition sequential"; }
grep -Eq '^ssdlab: precondition: sequential fill, 256 MiB in 128 KiB writes at QD32, [0-9.]+ s of drive time$' seq.err ||
	{ cat seq.err; fail "--precondition sequential: its line"; }
[ "$(erased <seq.json)" -gt 0 ] || fail "after a sequential fill the drive is not full"
# deterministic
run --precondition dircopy >dc2.json 2>dc2.err
cmp -s dc.err dc2.err || fail "--precondition dircopy: not deterministic"

expect_err 2 "ssdlab: --precondition must be sequential or dircopy\[:SET\[:SHARE\]\], got 'random'" \
	"$SSDLAB" run w.fio --precondition random
expect_err 2 "ssdlab: --precondition: unknown file set 'linux' \(accepted: impressions, win7, game, media, usb\)" \
	"$SSDLAB" run w.fio --precondition dircopy:linux
expect_err 2 "ssdlab: --precondition: the share of the volume must be above 0 and at most 1, got '0'" \
	"$SSDLAB" run w.fio --precondition dircopy:usb:0
sed 's/size=64m/size=4m/' w.fio >small.fio
expect_err 2 "ssdlab: --precondition dircopy: a directory copy needs a volume of 16 MiB or more, the drive has 12 MiB" \
	"$SSDLAB" run small.fio --drive tiny --set capacity=12m --set op=0.5 --precondition dircopy
exit 0
