# `run` in the normal (text) format: fio's lines, then ssdlab's per-job
# lines and the closing drive block.
. "$TOP/tests/cli/lib.inc"

cat >j.fio <<'EOF'
[global]
bs=4k
iodepth=4
size=16m

[w]
rw=randwrite

[r]
stonewall
rw=randread
io_size=2m
EOF
expect_status 0 "$SSDLAB" run j.fio --drive tiny
cp out.txt normal.txt
has() { grep -Eq -- "$1" normal.txt || { cat normal.txt >&2; fail "normal output lacks /$1/"; }; }

# fio's job lines and header
has '^w: \(g=0\): rw=randwrite, bs=\(R\) 4096B-4096B, .*iodepth=4$'
has '^r: \(g=1\): rw=randread, '
has '^ssdlab-[0-9]+\.[0-9]+\.[0-9]+$'
# per-job blocks
has '^w: \(groupid=0, jobs=1\): err= 0$'
has '^  write: IOPS=[0-9.]+k?, BW=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\)\(16\.0MiB/[0-9]+msec\)$'
has '^    clat \((nsec|usec|msec)\): min=[0-9]+, max=[0-9]+, avg=[0-9. ]+, stdev=[0-9. ]+$'
has '^     lat \((nsec|usec|msec)\): min='
has '^    clat percentiles \((nsec|usec|msec)\):$'
has '^     \|  1\.00th=\[ *[0-9]+\],'
has ' 99\.00th=\[ *[0-9]+\],'
has ' 99\.99th=\[ *[0-9]+\]$'
has '^  lat \((nsec|usec|msec)\)   : [0-9]+=[0-9.]+%'
has '^r: \(groupid=1, jobs=1\): err= 0$'
has '^  read: IOPS=[0-9.]+k?, BW=.*\(2048KiB/[0-9]+msec\)$'
# the ssdlab section: write amplification and NAND work per job
has '^  ssdlab: waf=1\.000, nand: read=0 prog=4096 erase=0, gc: copied=0 victims=0, erase count min/mean/max=0/0\.00/0, free blocks=[0-9]+$'
has '^  ssdlab: host 4KiB pages: read=0 written=4096 trimmed=0, '
has '^  ssdlab: waf=n/a, nand: read=512 prog=0 erase=0, '
has '^  ssdlab: host 4KiB pages: read=512 written=0 trimmed=0, read unmapped=0, '
! grep -q 'were never written' normal.txt || fail "a note of unmapped reads on written pages"
[ "$(grep -c '^  ssdlab: waf=' normal.txt)" -eq 2 ] || fail "one waf line per job"
# fio's group summaries
has '^Run status group 0 \(all jobs\):$'
has '^  WRITE: bw=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\), .*io=16\.0MiB \(16\.8MB\), run=[0-9]+-[0-9]+msec$'
has '^Run status group 1 \(all jobs\):$'
has '^   READ: bw=.*io=2048KiB \(2097kB\), run='
# the drive block
has '^Drive tiny -- '
has '^  capacity=64 MiB \(67108864 bytes\), op=7\.00%, cell=tlc, page=4 KiB, block=64 pages$'
has '^  channels=2, dies/channel=2, planes/die=1, blocks/plane=69, gc=greedy$'
has '^Run: seed=1, simulated time=[0-9]+\.[0-9]{9} s, host I/Os=4608, jobs=j\.fio$'
has '^Wall: [0-9.]+ s, [0-9]+ simulated host I/Os per wall second$'
! grep -q '"jobs"' normal.txt || fail "normal output contains JSON"

# --output FILE takes the text report; the default format is normal
expect_status 0 "$SSDLAB" run j.fio --drive tiny --output report.txt --output-format normal
[ ! -s out.txt ] || { cat out.txt >&2; fail "--output: stdout should stay empty"; }
grep -v '^Wall: ' report.txt >a.txt
grep -v '^Wall: ' normal.txt >b.txt
cmp -s a.txt b.txt || { diff a.txt b.txt | head >&2; fail "--output report differs from stdout"; }

# size=1000000000 (fio's "1 GB") is not whole 4 KiB blocks: fio runs it in
# 244140 blocks, ssdlab too, and says so (once refused as "not a
# multiple of 4 KiB"); the JSON has it in the job's ssdlab object
printf '[g]\nrw=write\nsize=1000000000\nio_size=1m\n' >gb.fio
expect_status 0 "$SSDLAB" run gb.fio
grep -q '^  ssdlab: size=1000000000 is not whole 4 KiB blocks: the job.s I/O covers its first 999997440 bytes (953.67 MiB), as fio.s does$' out.txt ||
	{ cat out.txt >&2; fail "no note of the cut size"; }
expect_status 0 "$SSDLAB" run gb.fio --output-format=json
tr -d ' \n' <out.txt | grep -q '"size_cut":{"option":"size","bytes":1000000000,"block_size":4096,"region_bytes":999997440,' ||
	{ cat out.txt >&2; fail "no size_cut in the JSON"; }

# a random read of a fresh drive reads no NAND (fio's fio-rand-read.fio:
# 854,000 IOPS on the default drive): the report counts those pages and
# says what such figures measure
printf '[r]\nrw=randread\nbs=4k\nsize=16m\n' >fresh.fio
expect_status 0 "$SSDLAB" run fresh.fio --drive tiny
grep -q '^  ssdlab: host 4KiB pages: read=4096 written=0 trimmed=0, read unmapped=4096, ' out.txt ||
	{ cat out.txt >&2; fail "no count of unmapped reads"; }
grep -q '^  ssdlab: 100\.0% of the pages read (4096 of 4096) were never written or were trimmed: the drive answers them from its map without reading NAND' out.txt ||
	{ cat out.txt >&2; fail "no note of unmapped reads"; }
expect_status 0 "$SSDLAB" run fresh.fio --drive tiny --output-format=json
grep -q '"host_pages_read_unmapped" : 4096,' out.txt || fail "JSON: host_pages_read_unmapped"
grep -q '"unmapped_reads_note" : "100\.0% of the pages read' out.txt || fail "JSON: unmapped_reads_note"
exit 0
