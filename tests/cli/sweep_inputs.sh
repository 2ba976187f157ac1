# The files a sweep's job files name (docs/sweeps.md, "Points and their
# ids"): a point's id covers the bytes of a trace (read_iolog=), a
# dp_scheme= file and an include, so a changed one is a new point; a
# relative name in a job file is found beside the job file, as when the
# job is run from its folder; a missing one, or one above that folder,
# is an error when the sweep is loaded.
. "$TOP/tests/cli/lib.inc"
mkdir jobs
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 0 4096\n1 t write 8192 4096\n2 t read 0 4096\n3 t close\n' >jobs/t.iolog
printf '[r]\nread_iolog=t.iolog\n' >jobs/tr.fio
printf 'bs=4k\n' >jobs/common.inc
printf '[w]\ninclude common.inc\nrw=randwrite\nio_size=1m\n' >jobs/inc.fio
cat >tr.sweep <<'EOF2'
[sweep]
drive = tiny
job = jobs/tr.fio, jobs/inc.fio
EOF2
# the job runs from its own folder; the sweep's point the same way
(cd jobs && "$SSDLAB" run tr.fio >/dev/null) || fail "ssdlab run tr.fio from its folder"
expect_status 0 "$SSDLAB" sweep run tr.sweep --dir a
[ "$(grep -c ': done$' out.txt)" -eq 2 ] || fail "run: $(cat out.txt) $(cat a/points/*/stderr.txt)"
cp a/manifest.tsv m1.tsv
# the trace changed: the trace's point is new, the other is not
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 0 4096\n3 t close\n' >jobs/t.iolog
expect_status 0 "$SSDLAB" sweep plan tr.sweep --dir a
[ "$(sed -n 2p m1.tsv | cut -f 2)" != "$(sed -n 2p a/manifest.tsv | cut -f 2)" ] ||
	fail "the trace changed and its point's id did not"
[ "$(sed -n 3p m1.tsv | cut -f 2)" = "$(sed -n 3p a/manifest.tsv | cut -f 2)" ] ||
	fail "an unchanged job's id changed"
expect_status 0 "$SSDLAB" sweep run tr.sweep --dir a
grep -q "^point 0 [0-9a-f]*: done$" out.txt || fail "the changed trace's point did not run: $(cat out.txt)"
# the include changed: its job's point is new
printf 'bs=8k\n' >jobs/common.inc
expect_status 0 "$SSDLAB" sweep plan tr.sweep --dir a
[ "$(sed -n 3p m1.tsv | cut -f 2)" != "$(sed -n 3p a/manifest.tsv | cut -f 2)" ] ||
	fail "the include changed and its point's id did not"
# dp_scheme's file too
printf '0,1048576,1\n' >jobs/dp.txt
printf '[w]\nrw=randwrite\nio_size=1m\nfdp=1\nplid_select=scheme\ndp_scheme=dp.txt\n' >jobs/dp.fio
printf '[sweep]\ndrive = tiny\njob = jobs/dp.fio\n' >dp.sweep
expect_status 0 "$SSDLAB" sweep plan dp.sweep --dir d
id1=$(sed -n 2p d/manifest.tsv | cut -f 2)
printf '0,2097152,1\n' >jobs/dp.txt
expect_status 0 "$SSDLAB" sweep plan dp.sweep --dir d
[ "$id1" != "$(sed -n 2p d/manifest.tsv | cut -f 2)" ] || fail "dp_scheme's file changed and the id did not"
# a trace in a folder below the job file's, with dots in its name
mkdir jobs/tr
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 0 4096\n1 t close\n' >jobs/tr/t..2.iolog
printf '[r]\nread_iolog=tr/./t..2.iolog\n' >jobs/sub.fio
printf '[sweep]\ndrive = tiny\njob = jobs/sub.fio\n' >sub.sweep
expect_status 0 "$SSDLAB" sweep run sub.sweep --dir s
grep -q ': done$' out.txt || fail "a trace below the job's folder: $(cat out.txt) $(cat s/points/*/error.txt)"
# a missing trace, a trace above the job file's folder: at load
rm jobs/t.iolog
expect_err 2 "^ssdlab: tr.sweep:3: job 'jobs/tr.fio': tr.fio:2: 't.iolog': No such file or directory" \
	"$SSDLAB" sweep plan tr.sweep --dir a
printf '[r]\nread_iolog=../up.iolog\n' >jobs/up.fio
printf '[sweep]\njob = jobs/up.fio\n' >up.sweep
expect_err 2 "^ssdlab: up.sweep:2: job 'jobs/up.fio': up.fio:2: '../up.iolog' is above the job file's folder" \
	"$SSDLAB" sweep plan up.sweep --dir u
