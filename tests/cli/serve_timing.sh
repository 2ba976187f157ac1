# ssdlab serve's real clock against the wall clock: fio sees the drive's
# latencies, and idle time on the wire runs background GC.  (A *_timing
# test runs in the normal build only: a sanitizer's slowdown is not the
# model's.)
. "$TOP/tests/cli/lib.inc"
. "$TOP/tests/cli/serve.inc"

# ---- the real clock: fio sees the drive's latencies ----
# What fio measures is the drive's latency plus the round trip of its own
# stack (fio, libnbd, the socket, nbdkit: some 30 to 70 us on a 2-core
# virtual machine, longer the longer each wait as the cores sleep deeper).
# At a millisecond and more that is within 10% as it is.  At 200 us it is
# not, so a first run measures it there (fio's latency less the drive's)
# and a second takes it off with --client-overhead.  Medians; the machine
# may be busy with other work, and a wake-up it delays in one run of a
# pair is not the model's, so a pair that misses is measured again (three
# pairs at most: a server whose pacing is wrong misses every time).
cat >lat.fio <<'EOF'
[global]
ioengine=nbd
uri=${URI}
bs=4k
[fill]
rw=write
size=16m
iodepth=8
[lat]
stonewall
rw=randread
size=16m
iodepth=1
runtime=2
time_based=1
EOF
lat_run() { # lat_run NAME OPTIONS...: fio's and the server's median read latency, ns
	name=$1; shift
	start "$name" "$@" --output "$name.json" --output-format json
	fio --output-format=json lat.fio >"$name.fio.json" 2>"$name.fio.err" ||
		{ cat "$name.fio.err" >&2; fail "fio on $name"; }
	stop
	fl=$(jq "$name.fio.json" 'r["jobs"][1]["read"]["clat_ns"]["percentile"]["50.000000"]')
	sl=$(jq "$name.json" 'j["read"]["clat_ns"]["percentile"]["50.000000"]')
}
near() { # near NAME MIN-DRIVE-LATENCY: whether fio's latency is within 10% of the server's
	python3 -c "
f, s = $fl, $sl
print('$1: fio %.1f us, server %.1f us (%+.1f%%)' % (f / 1e3, s / 1e3, (f - s) / s * 100))
assert s >= $2, 'the drive is too fast for this check'
assert abs(f - s) <= 0.10 * s, 'more than 10%% apart'"
}
# within NAME MIN OPTIONS...: a run whose medians are within 10%, in three
# runs at most (a run the machine disturbed is measured again; a server
# whose pacing is wrong misses every time)
within() {
	_w=$1 _min=$2; shift 2
	for _try in 1 2 3; do
		lat_run "$_w" "$@"
		near "$_w" "$_min" && return 0
	done
	fail "latency on $_w, in 3 runs"
}
# the server never answers before the drive would: fio's latency is the
# drive's plus a round trip, never less
not_early() { python3 -c "assert $fl >= 0.98 * $sl, 'fio saw $fl ns, sooner than the drive'" ||
	fail "latency on $1"; }
within ssd1ms 1000e3 --set capacity=256m --set t_read=1ms --set t_read_spread=0
pair=0
while :; do
	pair=$((pair + 1))
	lat_run ssd200us --set capacity=256m --set t_read=200us --set t_read_spread=0
	not_early ssd200us
	over=$(python3 -c "print(max(0, int($fl - $sl)))")
	echo "ssd200us: the client stack's round trip ${over} ns"
	lat_run ssd200us --set capacity=256m --set t_read=200us --set t_read_spread=0 \
		--client-overhead "${over}ns"
	near "ssd200us, --client-overhead ${over}ns" 200e3 && break
	[ "$pair" -lt 3 ] || fail "latency on ssd200us with --client-overhead, in 3 pairs"
done
within hdd 2000e3 --drive hitachi-hdt725032vla360
not_early hdd

# requests in flight together queue together: at QD16 the drive sees a
# deep queue, and its dies serve the reads in parallel
sed 's/^iodepth=1$/iodepth=16/' lat.fio >qd16.fio
start qd16 --set capacity=256m --set t_read=200us --set t_read_spread=0 \
	--output qd16.json --output-format json
fio --output-format=json qd16.fio >qd16.fio.json 2>qd16.fio.err ||
	{ cat qd16.fio.err >&2; fail "fio at QD16"; }
stop
python3 - ssd200us.fio.json qd16.fio.json qd16.json <<'EOF' || fail "QD16"
import json, sys
def load(p):
    t = open(p).read()
    return json.loads(t[t.index("{"):])
qd1 = load(sys.argv[1])["jobs"][1]["read"]["iops"]
qd16 = load(sys.argv[2])["jobs"][1]["read"]["iops"]
lv = load(sys.argv[3])["jobs"][0]["iodepth_level"]
deep = lv["4"] + lv["8"] + lv["16"] + lv["32"] + lv[">=64"]
print("QD1 %.0f IOPS, QD16 %.0f IOPS; %.1f%% of commands found 4 or more at the drive, themselves in" % (qd1, qd16, deep))
# (how deep depends on how fast this machine's client stack is: a busy
# 2-core machine keeps fewer of the 16 in flight at the server)
assert qd16 > 1.5 * qd1, "the reads did not overlap"
assert deep > 50, lv
EOF

# ---- idle time on the wire is idle time for background GC ----
start gc --drive tiny --set capacity=32m --set op=0.25 --set gc_bg_blocks=16 --output gc.json \
	--output-format json --stats-interval 200ms --stats-log gc.csv
cat >age.fio <<'EOF'
[global]
ioengine=nbd
uri=${URI}
bs=4k
[fill]
rw=write
size=100%
iodepth=8
[age]
stonewall
rw=randwrite
norandommap=1
bs=64k
iodepth=16
number_ios=1024
EOF
fio age.fio >age.out 2>&1 || { cat age.out >&2; fail "fio age"; }
usr1 gc.json
b0=$(jq gc.json 'j["ssdlab"]["gc_bg_copied_pages"]')
sleep 1.5
usr1 gc.json
b1=$(jq gc.json 'j["ssdlab"]["gc_bg_copied_pages"]')
[ "$b1" -gt "$b0" ] || fail "no background GC while idle: $b0 -> $b1"
stop
# the series: a row every 200 ms, background copies rising in the quiet
# (an interval after one without writes)
python3 - gc.csv <<'EOF' || fail "the series"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) >= 10, len(rows)
assert rows[-1]["gc_bg_copied_pages"] and int(rows[-1]["gc_bg_copied_pages"]) > 0
# the writers keep the drive busy, so its background work waits for the quiet
assert any(int(b["gc_bg_copied_pages"]) > int(a["gc_bg_copied_pages"])
           for a, b in zip(rows, rows[1:])
           if float(b["write_iops"]) == 0 and float(a["write_iops"]) == 0), "no copies in a quiet interval"
EOF

echo ok
