# ssdlab trace convert and trace stat, end to end: hand-written samples of
# MSR Cambridge (two disks), SPC (UMass) and blkparse text converted and
# checked line by line (times, offsets, lengths, actions), --device,
# --fold modulo and scale, the alignment warning (once) with its count and
# the summary, gzip and standard output; the iologs replayed by `ssdlab
# run` (every request issued) and by real fio; trace stat's numbers on a
# hand-computed trace; a malformed line exits 2 with one line naming
# FILE:LINE; the helps.
. "$TOP/tests/cli/lib.inc"
need python3

# same FILE: FILE holds exactly standard input
same() {
	cat >want.txt
	diff want.txt "$1" >diff.txt || { cat diff.txt >&2; fail "$1 is not as expected"; }
}
# the value of a JSON path (python3 expression on j) in FILE
jq() {
	python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}

# ---- samples ----

# MSR Cambridge: 100 ns ticks since 1601; disks 0 and 1; one request past
# 64 MiB; a read of 1 KiB at 512 (aligned to 512 B, not to 4 KiB)
cat >msr.csv <<'EOF'
Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
128166372000000000,usr,0,Write,0,4096,1000
128166372000010000,usr,1,Read,1048576,8192,1000
128166372000020000,usr,0,Write,4096,4096,1000
128166372000035000,usr,0,Read,512,1024,1000
128166372000100000,usr,1,Write,2097152,65536,1000
128166372010000000,usr,0,Write,100663296,8192,1000
EOF
# SPC (Financial1's layout): ASU, 512 B sectors, bytes, opcode, seconds
cat >spc.csv <<'EOF'
0,20941264,8192,W,0.551706
0,20939840,8192,W,0.554041
1,3436288,15872,r,0.601003
2,3435888,512,R,0.614024
0,20939856,4096,w,1.000000
EOF
# blkparse's default output: queue events are the requests; G and C
# events and the summary are not; 8,16 is another disk
cat >bp.txt <<'EOF'
  8,0    3        1     0.000000000  4162  Q  WS 2048 + 8 [kworker/3:1]
  8,0    3        2     0.000001000  4162  G  WS 2048 + 8 [kworker/3:1]
  8,0    3        3     0.000100000  4162  Q   R 4096 + 16 [cat]
  8,0    3        4     0.000250000  4162  Q FWS [kworker/3:1]
  8,0    3        5     0.000300000  4162  Q   D 8192 + 2048 [fstrim]
  8,16   0        1     0.000400000   377  Q   W 100 + 8 [dd]
  8,0    3        6     0.001000000  4162  Q   R 4112 + 8 [cat]
  8,0    3        7     0.001000500  4162  C   R 4112 + 8 [0]
CPU3 (8,0):
 Reads Queued:           2,       12KiB  Writes Queued:           1,        4KiB
EOF

# ---- convert: MSR ----

# two disks without --device: an error naming both and the option, at the
# first request of the second (not the two merged into one stream)
expect_err 2 "^ssdlab: msr\.csv:3: a request of device 1 after those of device 0 \(expected one device: the trace holds several; --device of ssdlab trace convert or stat picks one\)$" \
	"$SSDLAB" trace convert --from msr msr.csv msr.log
[ ! -e msr.log ] || fail "a conversion of two disks left its output"
expect_err 2 "^ssdlab: msr\.csv:3: a request of device 1 after those of device 0 " \
	"$SSDLAB" trace convert --from msr --capacity 64m --fold scale msr.csv msr.log

"$SSDLAB" trace convert --from msr --device 0 msr.csv msr.log 2>err.txt || { cat err.txt >&2; fail "convert msr"; }
same msr.log <<'EOF'
fio version 3 iolog
0 trace add
0 trace open
0 trace write 0 4096
2000 trace write 4096 4096
3500 trace read 512 1024
1000000 trace write 100663296 8192
1000000 trace close
EOF
same err.txt <<'EOF'
ssdlab: converted 4 requests (1 read, 3 writes, 0 trims, 0 syncs) of msr.csv into msr.log
EOF

# --device: disk 1 alone, its times from its first request
"$SSDLAB" trace convert --from=msr --device 1 msr.csv d1.log 2>err.txt || fail "convert --device 1"
same d1.log <<'EOF'
fio version 3 iolog
0 trace add
0 trace open
0 trace read 1048576 8192
9000 trace write 2097152 65536
9000 trace close
EOF
grep -q "converted 2 requests (1 read, 1 write, 0 trims, 0 syncs)" err.txt || fail "device 1 summary"

# --capacity without --fold: the request past it is an error naming its line
expect_err 2 "^ssdlab: msr\.csv:7: a write at offset 100663296, 8192 bytes ends past --capacity 64 MiB" \
	"$SSDLAB" trace convert --from msr --device 0 --capacity 64m msr.csv cap.log
[ ! -e cap.log ] || fail "a failed conversion left its output"

# --fold modulo: 96 MiB % 64 MiB; --align-warn 4k: the read of 1 KiB,
# warned of once with the count, at the end, then the summary
"$SSDLAB" trace convert --from msr --device 0 --capacity 64m --fold modulo \
	--align-warn 4k msr.csv mod.log 2>err.txt || { cat err.txt >&2; fail "fold modulo"; }
same mod.log <<'EOF'
fio version 3 iolog
0 trace add
0 trace open
0 trace write 0 4096
2000 trace write 4096 4096
3500 trace read 512 1024
1000000 trace write 33554432 8192
1000000 trace close
EOF
same err.txt <<'EOF'
ssdlab: warning: msr.csv:5: a read at offset 512, 1024 bytes is not aligned to 4 KiB (the first such request)
ssdlab: 1 of 4 requests not aligned to 4 KiB
ssdlab: converted 4 requests (1 read, 3 writes, 0 trims, 0 syncs) of msr.csv into mod.log
EOF

# --fold scale: offset x 64 MiB / (96 MiB + 8 KiB), aligned down to 4 KiB;
# the last request moved to end at the capacity
"$SSDLAB" trace convert --from msr --device 0 --capacity 64m --fold scale msr.csv scale.log 2>err.txt ||
	{ cat err.txt >&2; fail "fold scale"; }
same scale.log <<'EOF'
fio version 3 iolog
0 trace add
0 trace open
0 trace write 0 4096
2000 trace write 0 4096
3500 trace read 0 1024
1000000 trace write 67100672 8192
1000000 trace close
EOF

# .gz output, and standard output: the same iolog
"$SSDLAB" trace convert --from msr --device 0 msr.csv msr.log.gz 2>/dev/null || fail "convert to .gz"
gzip -t msr.log.gz || fail "not gzip"
gzip -dc msr.log.gz | same msr.log
"$SSDLAB" trace convert --from msr --device 0 msr.csv - 2>err.txt >stdout.log || fail "convert to -"
same stdout.log <msr.log
grep -q "of msr.csv into standard output$" err.txt || fail "summary of -"
# the iolog read back (auto: by its first line) converts to itself, gzip too
"$SSDLAB" trace convert msr.log.gz again.log 2>/dev/null || fail "convert an iolog.gz"
same again.log <msr.log

# ---- convert: SPC and blkparse ----

expect_err 2 "^ssdlab: spc\.csv:[0-9]*: a request of device 1 after those of device 0 " \
	"$SSDLAB" trace convert --from spc spc.csv spc.log
"$SSDLAB" trace convert --from spc --device 1 spc.csv spc1.log 2>err.txt || { cat err.txt >&2; fail "convert spc"; }
same spc1.log <<'EOF'
fio version 3 iolog
0 trace add
0 trace open
0 trace read 1759379456 15872
0 trace close
EOF
"$SSDLAB" trace convert --from spc --device 0 spc.csv spc.log 2>/dev/null || fail "spc --device 0"
"$SSDLAB" trace convert --from spc --device 0 --file asu0 spc.csv spc0.log 2>/dev/null || fail "spc --device 0"
same spc0.log <<'EOF'
fio version 3 iolog
0 asu0 add
0 asu0 open
0 asu0 write 10721927168 8192
2335 asu0 write 10721198080 8192
448294 asu0 write 10721206272 4096
448294 asu0 close
EOF

# the disks 8,0 and 8,16: one at a time (MAJ,MIN or the kernel's dev_t)
expect_err 2 "^ssdlab: bp\.txt:6: a request of device 8,16 after those of device 8,0 \(expected one device" \
	"$SSDLAB" trace convert --from blkparse bp.txt bp.log
"$SSDLAB" trace convert --from blkparse --device 8,0 bp.txt bp.log 2>err.txt || { cat err.txt >&2; fail "convert blkparse"; }
same bp.log <<'EOF'
fio version 3 iolog
0 trace add
0 trace open
0 trace write 1048576 4096
100 trace read 2097152 8192
250 trace sync 0 0
300 trace trim 4194304 1048576
1000 trace read 2105344 4096
1000 trace close
EOF
grep -q "converted 5 requests (2 reads, 1 write, 1 trim, 1 sync) of bp.txt" err.txt || fail "blkparse summary"
"$SSDLAB" trace convert --from blkparse --device $((8 << 20)) bp.txt bp80.log 2>/dev/null || fail "blkparse --device 8388608"
same bp80.log <bp.log
"$SSDLAB" trace convert --from blkparse --device $((8 << 20 | 16)) bp.txt bp816.log 2>/dev/null ||
	fail "blkparse --device 8388624"
same bp816.log <<'EOF'
fio version 3 iolog
0 trace add
0 trace open
0 trace write 51200 4096
0 trace close
EOF

# ---- ssdlab run replays what convert wrote: every request issued ----

total_ios() { # total_ios REPORT.json: reads + writes + trims + syncs issued
	jq "$1" "sum(j['jobs'][0][d]['total_ios'] for d in ('read','write','trim','sync'))"
}
for log in mod.log scale.log bp.log; do
	printf '[replay]\nread_iolog=%s\n' "$log" >replay.fio
	"$SSDLAB" run replay.fio --drive tiny --output-format json >run.json 2>err.txt ||
		{ cat err.txt >&2; fail "ssdlab run of $log"; }
	want=$(($(wc -l <"$log") - 4))
	got=$(total_ios run.json)
	[ "$got" -eq "$want" ] || fail "$log: $got I/Os replayed, $want converted"
done
# SPC's offsets of 10 GB folded into the 64 MiB drive
"$SSDLAB" trace convert --from spc --device 0 --capacity 64m --fold modulo spc.csv spc64.log.gz 2>/dev/null ||
	fail "spc fold"
printf '[replay]\nread_iolog=spc64.log.gz\nreplay_no_stall=1\n' >replay.fio
"$SSDLAB" run replay.fio --drive tiny --output-format json >run.json 2>err.txt ||
	{ cat err.txt >&2; fail "ssdlab run of spc64.log.gz"; }
[ "$(total_ios run.json)" -eq 3 ] || fail "spc64: not 3 I/Os"
# unfolded, the trace does not fit: the run says so, naming the line
printf '[replay]\nread_iolog=spc.log\n' >replay.fio
set +e
"$SSDLAB" run replay.fio --drive tiny >/dev/null 2>err.txt
rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q "spc.log:4: .*beyond the job's file" err.txt ||
	{ cat err.txt >&2; fail "replay of a trace past the drive"; }

# ---- trace stat on a hand-computed trace ----

cat >stat.log <<'EOF'
fio version 3 iolog
0 f add
0 f open
0 f write 0 8192
100 f write 8192 4096
200 f write 0 4096
1000 f write 4096 8192
1500 f read 0 16384
2500 f write 65536 4096
2600 f trim 1048576 4096
2600 f sync 0 0
3000 f close
EOF
"$SSDLAB" trace stat stat.log --output-format json --interval 1ms >stat.json 2>err.txt ||
	{ cat err.txt >&2; fail "trace stat"; }
[ ! -s err.txt ] || { cat err.txt >&2; fail "trace stat wrote to stderr"; }
python3 - <<'EOF' || fail "trace stat's numbers"
import json
j = json.load(open("stat.json"))
def eq(k, got, want):
    assert got == want, "%s: %r, wanted %r" % (k, got, want)
eq("format", j["format"], "iolog")
eq("requests", j["requests"], 8)
eq("read", (j["read"]["requests"], j["read"]["bytes"]), (1, 16384))
eq("write", (j["write"]["requests"], j["write"]["bytes"]), (5, 28672))
eq("trim", (j["trim"]["requests"], j["trim"]["bytes"]), (1, 4096))
eq("sync", j["sync"]["requests"], 1)
eq("write sizes", {k: v for k, v in j["write"]["sizes"].items() if v}, {"4k": 3, "8k": 2})
eq("read sizes", {k: v for k, v in j["read"]["sizes"].items() if v}, {"16k": 1})
eq("size buckets", list(j["trim"]["sizes"]), ["512", "1k", "2k", "4k", "8k", "16k",
   "32k", "64k", "128k", "256k", "512k", ">=1M"])
f = j["footprint"]
eq("footprint", (f["pages"], f["written_pages"], f["read_pages"]), (6, 4, 4))
eq("footprint bytes", (f["bytes"], f["written_bytes"], f["read_bytes"]), (24576, 16384, 16384))
eq("max_offset", j["max_offset"], 1048576)
eq("address_range", j["address_range"], 1048576 + 4096)
eq("write sequential", j["write"]["sequential"], 0.4)
eq("sequential", j["sequential"], 2 / 7)
g = j["interarrival_ns"]
eq("interarrival", (g["p50"], g["p99"], g["max"]), (100000, 1000000, 1000000))
assert abs(g["mean"] - 2600000 / 7) <= 0.05, g  # printed to 0.1 ns
eq("duration", j["duration_ns"], 2600000)
eq("ratio", j["read_write_ratio"], 0.2)
eq("bytes ratio", j["read_write_bytes_ratio"], 16384 / 28672)
w = j["write_working_set"]
eq("interval", w["interval_ns"], 1000000)
eq("series", [(i["start_ns"], i["pages"], i["total_pages"]) for i in w["intervals"]],
   [(0, 3, 3), (1000000, 2, 3), (2000000, 1, 4)])
EOF
# the default interval: duration / 20 (130 us here)
"$SSDLAB" trace stat stat.log --output-format=json >stat20.json || fail "trace stat, default interval"
[ "$(jq stat20.json "j['write_working_set']['interval_ns']")" = 130000 ] || fail "interval not duration/20"
[ "$(jq stat20.json "[(i['pages'], i['total_pages']) for i in j['write_working_set']['intervals'] if i['pages']]")" = \
  "[(3, 3), (1, 3), (2, 3), (1, 4)]" ] || fail "default series"
[ "$(jq stat20.json "len(j['write_working_set']['intervals'])")" = 20 ] || fail "not 20 intervals"
# the text report
"$SSDLAB" trace stat stat.log --interval 1ms >stat.txt || fail "trace stat, text"
grep -q "^  requests: 8 (1 read, 5 writes, 1 trim, 1 sync) in 2.6ms$" stat.txt || { cat stat.txt >&2; fail "text: requests"; }
grep -q "^  footprint: 6 pages of 4 KiB (24 KiB) touched, 4 written (16 KiB), 4 read (16 KiB)$" stat.txt ||
	{ cat stat.txt >&2; fail "text: footprint"; }
grep -q "^  inter-arrival: mean=371.4us, p50=100us, p99=1ms, max=1ms$" stat.txt ||
	{ cat stat.txt >&2; fail "text: inter-arrival"; }
grep -Eq "^ +1ms +2 +3$" stat.txt || { cat stat.txt >&2; fail "text: working set"; }
# stat of what convert wrote agrees with the summary; --device in stat
"$SSDLAB" trace stat --from blkparse --device 8,0 bp.txt --output-format json >bp.json || fail "stat blkparse"
[ "$(jq bp.json "(j['requests'], j['read']['sequential'], j['footprint']['pages'], j['device'])")" = \
  "(5, 0.5, 260, 8388608)" ] || { cat bp.json >&2; fail "stat of blkparse 8,0"; }
"$SSDLAB" trace stat bp80.log --output-format json >bp80.json || fail "stat of the converted"
[ "$(jq bp80.json "(j['requests'], j['footprint']['pages'], j['sequential'], j['duration_ns'])")" = \
  "$(jq bp.json "(j['requests'], j['footprint']['pages'], j['sequential'], j['duration_ns'])")" ] ||
	fail "stat of the converted iolog differs from stat of its source"
# without --device, stat lists the devices it saw, each with its requests
# and bytes (it once listed none: "device": null and no more)
printf '1538323200,0,8,1,1063\n1538323200,0,8,1,2000\n1538323201,8,8,0,1063\n' >tc.csv
"$SSDLAB" trace stat --from tencent tc.csv >tc.txt || fail "stat tencent"
sed -n '3,5p' tc.txt >tc3.txt
same tc3.txt <<'EOF'
  devices: 2 (--device N picks one)
    1063       2 requests, 8 KiB (8192 bytes)
    2000       1 request, 4 KiB (4096 bytes)
EOF
"$SSDLAB" trace stat --from tencent tc.csv --output-format json >tc.json || fail "stat tencent json"
[ "$(jq tc.json "(j['device'], [(d['device'], d['name'], d['requests'], d['bytes']) for d in j['devices']])")" = \
  "(None, [(1063, '1063', 2, 8192), (2000, '2000', 1, 4096)])" ] || { cat tc.json >&2; fail "stat tencent devices"; }
"$SSDLAB" trace stat --from blkparse bp.txt --output-format json >bpall.json || fail "stat blkparse, both disks"
[ "$(jq bpall.json "[(d['name'], d['requests']) for d in j['devices']]")" = "[('8,0', 5), ('8,16', 1)]" ] ||
	{ cat bpall.json >&2; fail "stat blkparse devices"; }
"$SSDLAB" trace stat --from tencent --device 1063 tc.csv --output-format json >tc1.json || fail "stat --device"
# an iolog names no device: none listed, as before
[ "$(jq bp80.json "j['devices']")" = "None" ] || fail "devices of an iolog"
"$SSDLAB" trace stat bp80.log >bp80.txt || fail "stat of an iolog, text"
! grep -q "devices" bp80.txt || fail "an iolog's stat lists devices"
[ "$(jq tc1.json "(j['device'], j['devices'], j['requests'])")" = "(1063, None, 2)" ] || fail "stat --device 1063"
expect_err 2 "^ssdlab: tc\.csv:2: a request of device 2000 after those of device 1063 \(expected one device" \
	"$SSDLAB" trace convert --from tencent tc.csv -
# a version 2 iolog has no times: no inter-arrival, no series
printf 'fio version 2 iolog\nf add\nf open\nf write 0 4096\nf read 0 4096\nf close\n' >v2.log
"$SSDLAB" trace stat v2.log --output-format json >v2.json || fail "stat of a v2 iolog"
[ "$(jq v2.json "(j['requests'], j['interarrival_ns'], j['duration_ns'], j['write_working_set'])")" = \
  "(2, None, None, None)" ] || fail "v2 stat"

# ---- malformed input: exit 2, one line naming FILE:LINE ----

sed '5s/Read/Raed/' msr.csv >bad.csv
expect_err 2 "^ssdlab: bad\.csv:5: field 4 \(Type\) 'Raed' is neither Read nor Write" \
	"$SSDLAB" trace convert --from msr --device 0 bad.csv bad.log
[ ! -e bad.log ] || fail "a failed conversion left its output"
expect_err 2 "^ssdlab: bad\.csv:5: " "$SSDLAB" trace convert --from msr --device 0 --capacity 64m --fold scale bad.csv bad.log
expect_err 2 "^ssdlab: bad\.csv:5: " "$SSDLAB" trace stat --from msr bad.csv
printf '0,1,4096,x,0.5\n' >bad.spc
expect_err 2 "^ssdlab: bad\.spc:1: field 4 \(Opcode\)" "$SSDLAB" trace stat --from spc bad.spc
printf '  8,0 0 1 0.1 1 Q W 12 + [x]\n' >bad.bp
expect_err 2 "^ssdlab: bad\.bp:1: " "$SSDLAB" trace convert --from blkparse bad.bp bad.log
expect_err 2 "^ssdlab: nosuch\.csv: " "$SSDLAB" trace stat --from msr nosuch.csv
expect_err 2 "^ssdlab: msr\.csv: neither a fio iolog" "$SSDLAB" trace convert msr.csv x.log
head -c 300 /dev/urandom >noise.bin
for f in iolog blktrace blkparse msr spc disksim mqsim alibaba tencent; do
	set +e
	"$SSDLAB" trace stat --from $f noise.bin >/dev/null 2>err.txt
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || fail "stat --from $f of noise: exit $rc"
	[ "$rc" -eq 0 ] || [ "$(wc -l <err.txt)" -eq 1 ] || fail "stat --from $f of noise: not one line"
done

# ---- usage errors and helps ----

expect_err 2 "^ssdlab: --fold needs --capacity; see 'ssdlab trace convert --help'$" \
	"$SSDLAB" trace convert --from msr --fold modulo msr.csv x.log
expect_err 2 "^ssdlab: --fold must be modulo or scale, got 'wrap'" \
	"$SSDLAB" trace convert --fold wrap --capacity 1m msr.csv x.log
expect_err 2 "^ssdlab: --from must be one of auto, iolog, .*, got 'csv'" \
	"$SSDLAB" trace stat --from csv msr.csv
expect_err 2 "^ssdlab: --device needs a device number" "$SSDLAB" trace stat --device x msr.csv
expect_err 2 "^ssdlab: trace convert needs IN and OUT" "$SSDLAB" trace convert msr.csv
expect_err 2 "^ssdlab: .*the output is the input" "$SSDLAB" trace convert --from msr msr.csv ./msr.csv
expect_err 2 "^ssdlab: --file 'a b': " "$SSDLAB" trace convert --from msr --file 'a b' msr.csv x.log
expect_err 2 "^ssdlab: --interval needs a time above 0" "$SSDLAB" trace stat --interval 0 stat.log
expect_err 2 "^ssdlab: unknown trace command 'show'.*; see 'ssdlab trace --help'$" "$SSDLAB" trace show
expect_err 2 "^ssdlab: --output-format must be normal or json.*; see 'ssdlab trace stat --help'$" \
	"$SSDLAB" trace stat --output-format terse stat.log
"$SSDLAB" trace --help >help.txt || fail "trace --help"
head -n 2 help.txt >usage.txt
same usage.txt <<'EOF'
usage: ssdlab trace convert IN OUT [--from FORMAT] [options]
       ssdlab trace stat FILE [--from FORMAT] [options]
EOF
for opt in --from --device --capacity --fold --align-warn --file --interval --output-format; do
	grep -q "^  $opt " help.txt || fail "trace --help lacks $opt"
done
for sub in convert stat; do
	"$SSDLAB" trace $sub --help >help.txt 2>err.txt || fail "trace $sub --help"
	[ ! -s err.txt ] || fail "trace $sub --help wrote to stderr"
	head -n 1 help.txt | grep -q "^usage: ssdlab trace $sub " || fail "trace $sub --help: no usage line"
	grep -q "^  --help  " help.txt || fail "trace $sub --help: no --help line"
done
"$SSDLAB" --help | grep -q "^  ssdlab trace convert|stat  " || fail "trace not in ssdlab --help"
# the manual page has the command
python3 "$TOP/tools/man.py" "$SSDLAB" >ssdlab.1 || fail "tools/man.py"
grep -q '^\.SS "ssdlab trace convert' ssdlab.1 || fail "no trace in the manual page"

# ---- real fio replays the converted iologs ----

if have fio; then
	truncate -s 64M disk.img
	for log in mod.log scale.log; do
		fio --name=replay --ioengine=psync --read_iolog="$log" \
			--replay_redirect="$PWD/disk.img" --replay_no_stall=1 \
			--output-format=json >fio.json 2>fio.err ||
			{ cat fio.err >&2; fail "fio's replay of $log"; }
		[ "$(jq fio.json "j['jobs'][0]['error']")" = 0 ] || fail "fio's replay of $log ended in error"
		want=$(grep -c ' read \| write ' "$log")
		got=$(jq fio.json "j['jobs'][0]['read']['total_ios'] + j['jobs'][0]['write']['total_ios']")
		[ "$got" -eq "$want" ] || fail "fio replayed $got of the $want requests of $log"
	done
else
	skip_part "fio is not installed: no replay by fio"
fi
# a version 2 wait earlier than one before it does not wait (fio waits
# until a wait's time after the start): the requests keep the later time
printf 'fio version 2 iolog\nf add\nf open\nf write 0 4096\nf wait 500 0\nf write 0 4096\nf wait 300 0\nf write 4096 4096\nf wait 1200 0\nf read 0 4096\nf close\n' >v2w.log
"$SSDLAB" trace convert v2w.log v2w.iolog 2>/dev/null
[ "$(awk 'NF == 5 {print $1}' v2w.iolog | tr '\n' ' ')" = "0 500000 500000 1200000 " ] ||
	fail "v2 waits converted: $(cat v2w.iolog)"
echo ok
