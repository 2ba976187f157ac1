# NAND pages differ by type: on a TLC drive LSB pages read faster than
# MSB pages, so QD1 random-read latencies spread (p1 < p99) around the
# same mean; read retries (one more tR each) raise the tail, and a retry
# rate of 0 retries nothing.
. "$TOP/tests/cli/lib.inc"

cat >r.fio <<'EOF'
[global]
size=256m

[fill]
rw=write
bs=128k
iodepth=32

[rand]
stonewall
rw=randread
bs=4k
iodepth=1
io_size=32m
EOF
expect_status 0 "$SSDLAB" run r.fio --drive default --output-format=json --output typed.json
expect_status 0 "$SSDLAB" run r.fio --drive default --set t_read_spread=0 \
	--set t_prog_spread=0 --output-format=json --output flat.json
expect_status 0 "$SSDLAB" run r.fio --drive default --set read_retry_rate=0.01 \
	--output-format=json --output retry.json
# a retry rate that rises with wear is accepted; a bad value is one line
expect_status 0 "$SSDLAB" run r.fio --drive default --set read_retry_wear=0.01
expect_err 2 "key 'read_retry_rate'.*out of range" "$SSDLAB" run r.fio --drive default \
	--set read_retry_rate=2
expect_err 2 "key 't_read_spread'.*or cell" "$SSDLAB" run r.fio --drive default \
	--set t_read_spread=1

if ! have python3; then
	grep -q '"read_retries" : 0,' typed.json || fail "retries without a rate"
	skip "python3 is not installed: the JSON report checked by grep only"
fi
python3 - typed.json flat.json retry.json <<'EOF'
import json, sys
def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
def job(p):
    return [j for j in json.load(open(p))["jobs"] if j["jobname"] == "rand"][0]
typed, flat, retry = job(sys.argv[1]), job(sys.argv[2]), job(sys.argv[3])
def pct(j, p):
    return j["read"]["clat_ns"]["percentile"]["%.6f" % p]
def mean(j):
    return j["read"]["clat_ns"]["mean"]

# TLC page types: LSB 39 us, CSB 60, MSB 81 (mean 60): p1 < p50 < p99
if not pct(typed, 1) < pct(typed, 50) < pct(typed, 99):
    die("TLC reads do not spread: %r" % typed["read"]["clat_ns"]["percentile"])
if pct(typed, 99) - pct(typed, 1) < 30000:
    die("TLC spread p1..p99 under 30 us: %r" % typed["read"]["clat_ns"]["percentile"])
# the mean stays (within 2%) where one t_read gave it
if abs(mean(typed) / mean(flat) - 1) > 0.02:
    die("mean moved: %.0f vs %.0f ns" % (mean(typed), mean(flat)))
# without page types every read takes the same time (but the first,
# which waits for the fill's last programs)
if pct(flat, 1) != pct(flat, 99.9):
    die("flat drive spreads: %r" % flat["read"]["clat_ns"]["percentile"])
# no retries without a rate; 1% of reads retried raise p99.9
if typed["ssdlab"]["read_retries"] != 0:
    die("retries with rate 0: %d" % typed["ssdlab"]["read_retries"])
n = retry["ssdlab"]["read_retries"]
if not 40 <= n <= 150:  # ~1% of 8192 reads, plus GC and none else
    die("read_retries %d for 8192 reads at 1%%" % n)
if not pct(retry, 99.9) > pct(typed, 99.9) + 30000:
    die("retries do not raise p99.9: %d vs %d" % (pct(retry, 99.9), pct(typed, 99.9)))
if retry["ssdlab"]["nand_pages_read"] != typed["ssdlab"]["nand_pages_read"]:
    die("retries counted as page reads")
EOF
