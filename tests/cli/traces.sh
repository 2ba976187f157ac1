# Traces replayed and recorded (read_iolog, write_iolog): a job recorded
# and replayed issues the same I/O with the same counters; real fio
# replaying the same iolog on a file issues the same requests (fio's own
# per-I/O logs compared); the trace's timing and fio's replay_* options;
# gzip and blktrace files; a bad line far into a trace ends the job with
# its file and line.
. "$TOP/tests/cli/lib.inc"
need python3

json() { # json FILE EXPR: a Python expression over the report r, job j
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
j = r["jobs"][0]
print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- a job recorded, then replayed ----
cat >rec.fio <<'EOF'
[rec]
rw=randrw
bs=4k,16k
size=16m
io_size=8m
iodepth=4
fsync=16
write_iolog=rec.iolog
EOF
"$SSDLAB" run rec.fio --drive tiny --output-format json >rec.json
head -3 rec.iolog >head.txt
printf 'fio version 3 iolog\n0 rec.0.0 add\n0 rec.0.0 open\n' | cmp -s - head.txt || fail "iolog header: $(cat head.txt)"
tail -1 rec.iolog | grep -Eq '^[0-9]+ rec\.0\.0 close$' || fail "iolog end: $(tail -1 rec.iolog)"
n=$(grep -c ' rec\.0\.0 \(read\|write\|sync\) ' rec.iolog)
[ "$n" = "$(json rec.json 'j["read"]["total_ios"] + j["write"]["total_ios"] + j["sync"]["total_ios"]')" ] ||
	fail "the log has $n requests"
cat >rep.fio <<'EOF'
[rec]
read_iolog=rec.iolog
iodepth=4
write_iolog=rep.iolog
EOF
"$SSDLAB" run rep.fio --drive tiny --output-format json >rep.json
# the same requests in the same order ...
[ "$(cut -d' ' -f3- rec.iolog | sha256sum)" = "$(cut -d' ' -f3- rep.iolog | sha256sum)" ] ||
	fail "the replay issued other requests"
# ... at the same times, within the log's microsecond a request
python3 - rec.iolog rep.iolog <<'EOF' || fail "replay times"
import sys
a = [int(l.split()[0]) for l in open(sys.argv[1]) if len(l.split()) == 5]
b = [int(l.split()[0]) for l in open(sys.argv[2]) if len(l.split()) == 5]
assert len(a) == len(b)
assert all(y >= x for x, y in zip(a, b)), "issued before the trace's time"
assert b[-1] - a[-1] <= len(a), (a[-1], b[-1])
EOF
# ... and the same drive counters
for k in host_pages_written nand_pages_programmed gc_copied_pages blocks_erased host_flushes; do
	[ "$(json rec.json "j['ssdlab']['$k']")" = "$(json rep.json "j['ssdlab']['$k']")" ] ||
		fail "$k differs between the job and its replay"
done

# the report's job line names the trace, not a pattern the job has not
"$SSDLAB" run rep.fio --drive tiny >rep.txt
head -1 rep.txt | grep -q '^rec: (g=0): read_iolog=rec.iolog, ioengine=ssdlab, iodepth=4$' ||
	fail "job line: $(head -1 rep.txt)"

# ---- real fio replays the same iolog and issues the same requests ----
if have fio; then
	truncate -s 16M data.bin
	for who in fio ssdlab; do
		cat >"$who.fio" <<EOF
[rep]
filename=$PWD/data.bin
size=16m
ioengine=psync
read_iolog=rec.iolog
replay_redirect=$PWD/data.bin
replay_no_stall=1
write_lat_log=$who
log_offset=1
EOF
	done
	fio fio.fio >fio.out 2>&1 || { cat fio.out >&2; fail "fio replay"; }
	"$SSDLAB" run ssdlab.fio --drive tiny >ssdlab.out
	# (direction, size, offset) of every I/O, in order (QD1)
	[ "$(cut -d, -f3-5 fio_clat.1.log | sha256sum)" = "$(cut -d, -f3-5 ssdlab_clat.1.log | sha256sum)" ] ||
		fail "fio and ssdlab replayed different requests"
	[ "$(wc -l <fio_clat.1.log)" -gt 500 ] || fail "too few requests compared"
else
	skip_part "fio is not installed: no replay by fio to compare"
fi

# ---- timing: the trace's gaps, replay_no_stall, replay_time_scale ----
{
	echo "fio version 3 iolog"
	echo "0 t add"
	echo "0 t open"
	i=0
	while [ $i -lt 100 ]; do
		echo "$((i * 10000)) t write $((i * 4096)) 4096"
		i=$((i + 1))
	done
	echo "990000 t close"
} >slow.iolog
run_rt() { # run_rt OPTIONS...: the replay's runtime, ms
	{ echo "[r]"; echo "read_iolog=slow.iolog"; for o in "$@"; do echo "$o"; done; } >slow.fio
	"$SSDLAB" run slow.fio --drive tiny --output-format json >slow.json
	json slow.json 'j["job_runtime"]'
}
rt=$(run_rt)
[ "$rt" -ge 990 ] && [ "$rt" -le 1000 ] || fail "100 writes 10 ms apart took $rt ms"
rt=$(run_rt replay_time_scale=200)
[ "$rt" -ge 495 ] && [ "$rt" -le 500 ] || fail "at twice the speed: $rt ms"
rt=$(run_rt replay_no_stall=1)
[ "$rt" -lt 20 ] || fail "replay_no_stall took $rt ms"
# a version 2 wait waits until its time (ms) after the start, as fio's does
printf 'fio version 2 iolog\nt add\nt open\nt write 0 4096\nt wait 300 0\nt write 4096 4096\nt close\n' >v2.iolog
printf '[r]\nread_iolog=v2.iolog\n' >v2.fio
"$SSDLAB" run v2.fio --drive tiny --output-format json >v2.json
rt=$(json v2.json 'j["job_runtime"]')
[ "$rt" -ge 300 ] && [ "$rt" -le 302 ] || fail "v2 wait: $rt ms"

# ---- replay_skip, replay_scale, replay_align, loops ----
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 8192 4096\n1 t read 16384 4096\n2 t trim 0 4096\n3 t sync 0 0\n4 t close\n' >mix.iolog
opts() { { echo "[r]"; echo "read_iolog=mix.iolog"; for o in "$@"; do echo "$o"; done; } >mix.fio
	"$SSDLAB" run mix.fio --drive tiny --output-format json >mix.json; }
opts
[ "$(json mix.json 'j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"], j["sync"]["total_ios"]')" = "(1, 1, 1, 1)" ] ||
	fail "the mix: $(json mix.json 'j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"]')"
opts replay_skip=read,sync
[ "$(json mix.json 'j["read"]["total_ios"], j["write"]["total_ios"], j["sync"]["total_ios"]')" = "(0, 1, 0)" ] || fail "replay_skip"
opts loops=3
[ "$(json mix.json 'j["write"]["total_ios"]')" = 3 ] || fail "loops=3"
opts replay_scale=2 write_iolog=scaled.iolog
grep -q ' t\?.* write 4096 4096$' scaled.iolog || fail "replay_scale: $(grep write scaled.iolog)"
opts replay_align=16k write_iolog=aligned.iolog
grep -q ' write 0 4096$' aligned.iolog && grep -q ' read 16384 4096$' aligned.iolog || fail "replay_align"
# offsets are in the job's file, as fio's: offset= does not move them,
# and a job recorded with offset= replays its own log
opts offset=1m write_iolog=moved.iolog
grep -q ' write 8192 4096$' moved.iolog || fail "offset: $(grep write moved.iolog)"
printf '[rec]\noffset=32m\nsize=4m\nrw=write\nwrite_iolog=off.iolog\n' >off.fio
"$SSDLAB" run off.fio --drive tiny >/dev/null
grep -q ' write 33554432 4096$' off.iolog || fail "offset= in the log: $(sed -n 4p off.iolog)"
printf '[rep]\noffset=32m\nsize=4m\nread_iolog=off.iolog\n' >offrep.fio
"$SSDLAB" run offrep.fio --drive tiny --output-format json >offrep.json ||
	fail "a job with offset= does not replay its own log"
[ "$(json offrep.json 'j["write"]["io_bytes"]')" = $((4 << 20)) ] || fail "offset= replay"
# one job file records a log and replays it in a later job
printf '[rec]\nrw=randwrite\nsize=4m\nwrite_iolog=both.iolog\n[rep]\nstonewall\nread_iolog=both.iolog\n' >both.fio
"$SSDLAB" run both.fio --drive tiny --output-format json >both.json ||
	fail "a job file that records and replays"
python3 -c '
import json, sys
r = json.load(open("both.json"))
a, b = r["jobs"][0]["write"]["total_ios"], r["jobs"][1]["write"]["total_ios"]
assert a == b == 1024, (a, b)' || fail "record and replay in one file"
# a replay keeps the trace's directions under rate limits of a mixed job
printf '[r]\nrw=randrw\nrate_iops=50,10\nread_iolog=rec.iolog\n' >rate.fio
"$SSDLAB" run rate.fio --drive tiny --output-format json >rate.json
[ "$(json rate.json 'j["read"]["total_ios"], j["write"]["total_ios"]')" = "$(json rec.json 'j["read"]["total_ios"], j["write"]["total_ios"]')" ] ||
	fail "rate limits changed the trace's directions"
# a time_based replay of a trace with nothing to issue ends
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t close\n' >empty.iolog
printf '[r]\nread_iolog=empty.iolog\ntime_based\nruntime=1s\n' >empty.fio
timeout 20 "$SSDLAB" run empty.fio --drive tiny >/dev/null || fail "an empty time_based replay"
# completions are reaped while the replay waits for the trace: a light
# trace at QD32 sees the drive's latency, not the wait for the queue
cat >qd.fio <<'EOF'
[r]
read_iolog=slow.iolog
iodepth=32
EOF
"$SSDLAB" run qd.fio --drive tiny --output-format json >qd.json
[ "$(json qd.json 'j["write"]["clat_ns"]["max"] < 5e6')" = True ] ||
	fail "a light replay's latency: $(json qd.json 'j["write"]["clat_ns"]["max"]') ns"

# ---- gzip, and blktrace's binary files ----
gzip -c rec.iolog >rec.iolog.gz
printf '[r]\nread_iolog=rec.iolog.gz\niodepth=4\n' >gz.fio
"$SSDLAB" run gz.fio --drive tiny --output-format json >gz.json
[ "$(json gz.json 'j["ssdlab"]["nand_pages_programmed"]')" = "$(json rep.json 'j["ssdlab"]["nand_pages_programmed"]')" ] ||
	fail "the gzip trace replays otherwise"
python3 - <<'EOF'
import struct
# blk_io_trace: magic, sequence, time (ns), sector, bytes, action, pid,
# device, cpu, error, pdu_len; queue events (action 1) with the write (2)
# or read (1) category, and a complete event (8) to skip
def ev(seq, t, sector, nbytes, cat, act=1):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sector, nbytes,
                       act | (cat << 16), 1, 8 << 20, 0, 0, 0)
with open("b.blktrace.0", "wb") as f:
    f.write(ev(1, 1000000, 8, 4096, 2))
    f.write(ev(2, 2000000, 8, 4096, 2, act=8))
    f.write(ev(3, 3000000, 16, 8192, 1))
EOF
printf '[r]\nread_iolog=b.blktrace.0\n' >b.fio
"$SSDLAB" run b.fio --drive tiny --output-format json >b.json
[ "$(json b.json 'j["write"]["io_bytes"], j["read"]["io_bytes"]')" = "(4096, 8192)" ] || fail "blktrace replay"
[ "$(json b.json 'j["job_runtime"]')" -ge 2 ] || fail "blktrace times"

# two disks in one blktrace file: refused, naming both, as trace convert
# does (they were replayed merged into one stream)
python3 - <<'EOF'
import struct
def ev(seq, t, sector, nbytes, cat, dev):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sector, nbytes,
                       1 | (cat << 16), 1, dev, 0, 0, 0)
with open("b2.blktrace.0", "wb") as f:
    f.write(ev(1, 1000000, 8, 4096, 2, 8 << 20))
    f.write(ev(2, 3000000, 16, 8192, 1, 8 << 20 | 16))
EOF
printf '[r]\nread_iolog=b2.blktrace.0\n' >b2.fio
expect_err 2 "b2\.blktrace\.0:.*a request of device 8,16 after those of device 8,0 \(expected one device: the trace holds several; --device of ssdlab trace convert or stat picks one\)" \
	"$SSDLAB" run b2.fio --drive tiny
expect_err 2 "b2\.blktrace\.0:.*a request of device 8,16 after those of device 8,0 " \
	"$SSDLAB" scenario run trace --drive tiny --set trace=b2.blktrace.0 --out b2out
"$SSDLAB" trace convert --device 8,16 b2.blktrace.0 b2.log 2>/dev/null || fail "blktrace --device 8,16"
grep -q "^0 trace read 8192 8192$" b2.log || { cat b2.log >&2; fail "blktrace --device 8,16: $(cat b2.log)"; }

# ---- errors ----
# a trace that cannot be read is the job file's error, with its line
printf 'not an iolog\n' >bad.iolog
printf '[r]\nread_iolog=bad.iolog\n' >bad.fio
expect_err 2 "bad\.fio:2: option 'read_iolog': .*neither a fio iolog" "$SSDLAB" run bad.fio --drive tiny
# a request of 0 bytes is refused at its line (it once ran on, and fio's
# replay stops there without a word)
printf 'fio version 3 iolog\n0 f add\n0 f open\n10 f write 0 0\n20 f write 4096 4096\n' >zero.iolog
printf '[r]\nread_iolog=zero.iolog\n' >zero.fio
expect_err 2 "^ssdlab: zero\.iolog:4: a write of 0 bytes \(expected a length above 0.*\) \(read_iolog of zero\.fio:2\)$" "$SSDLAB" run zero.fio --drive tiny
# a bad line of a trace a job file names is the trace's FILE:LINE error,
# the job file's line once as context; not wrapped as a wrong value of
# the option with its "(accepted: ...)" (it once was, twice located)
printf 'fio version 3 iolog\n0 f add\n0 f open\n10 f write 0 4096\n20 f write 4096 four\n' >m.log
printf '[m]\nread_iolog=m.log\n' >m.fio
expect_err 2 "^ssdlab: m\.log:5: length 'four' is not a number of bytes below 4 GiB \(read_iolog of m\.fio:2\)$" \
	"$SSDLAB" run m.fio --drive tiny
expect_err 2 "zero\.iolog:4: a write of 0 bytes" "$SSDLAB" scenario run trace --drive tiny --set trace=zero.iolog --out zout
# a bad line far into the trace ends the job with file, line and what
python3 - <<'EOF'
with open("long.iolog", "w") as f:
    f.write("fio version 3 iolog\n0 t add\n0 t open\n")
    for i in range(200000):
        f.write("%d t write %d 4096\n" % (i, (i * 4096) % (32 << 20)))
    f.write("200000 t write 4096 four\n")
    f.write("200001 t write 0 4096\n")
EOF
printf '[r]\nread_iolog=long.iolog\nreplay_no_stall=1\n' >long.fio
expect_status 1 "$SSDLAB" run long.fio --drive tiny
grep -q "long\.iolog:200004: length 'four' is not a number" out.txt || { cat out.txt >&2; fail "the bad line is not named"; }
# a request beyond the job's region
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 1099511627776 4096\n' >far.iolog
printf '[r]\nread_iolog=far.iolog\n' >far.fio
expect_status 1 "$SSDLAB" run far.fio --drive tiny
grep -q "far\.iolog:4: a write at offset 1099511627776, 4096 bytes: beyond the job's file" out.txt ||
	{ cat out.txt >&2; fail "the far request is not named"; }
# a gap x 100 / replay_time_scale, or the gaps over every pass (loops),
# past the 146 years a job may span: the scaled gap once overflowed
# int64 on its way to the clock
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 0 4096\n90000000000000 t write 4096 4096\n' >slow.iolog
printf '[r]\nread_iolog=slow.iolog\nreplay_time_scale=1\n' >slow.fio
expect_err 1 "job 'r': slow\.iolog:5: the replay would wait 285 years of simulated time.*at most 146 years" \
	"$SSDLAB" run slow.fio --drive tiny
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 0 4096\n1900000000000000 t write 4096 4096\n' >slow.iolog
printf '[r]\nread_iolog=slow.iolog\nloops=2\n' >slow.fio
expect_status 0 "$SSDLAB" run slow.fio --drive tiny
printf '[r]\nread_iolog=slow.iolog\nloops=3\n' >slow.fio
expect_err 1 "job 'r': slow\.iolog:5: the replay would wait 181 years" "$SSDLAB" run slow.fio --drive tiny
printf '[r]\nread_iolog=slow.iolog\nloops=3\nruntime=100d\n' >slow.fio
expect_status 0 "$SSDLAB" run slow.fio --drive tiny
# recording: numjobs would share the file
printf '[r]\nwrite_iolog=x.iolog\nnumjobs=2\n' >nj.fio
expect_err 2 "option 'write_iolog': job 'r' has 2 clones" "$SSDLAB" run nj.fio --drive tiny
echo ok
