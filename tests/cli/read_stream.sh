# Reads stream to the host: inside one command the link carries the pages
# already read while later pages are still being read, and the
# controller's read-ahead serves a sequential stream from DRAM.  On the
# X25-E preset (10 channels of 40 MB/s, SATA 240 MB/s) 128 KiB sequential
# reads at QD1 reach the review's >200 MB/s; random reads do not change.
. "$TOP/tests/cli/lib.inc"

cat >seq.fio <<'EOF'
[global]
size=256m

[fill]
rw=write
bs=128k
iodepth=32

[rand4k]
stonewall
rw=randread
bs=4k
iodepth=1
io_size=16m

[seq128]
stonewall
rw=read
bs=128k
iodepth=1

[seq4k]
stonewall
rw=read
bs=4k
iodepth=1
size=64m
EOF
for ra in 0 128k; do
	expect_status 0 "$SSDLAB" run seq.fio --drive intel-x25e-32g --set read_ahead=$ra \
		--output-format=json --output ra$ra.json
done

if ! have python3; then
	grep -q '"read_ahead_hits" : 0,' ra0.json || fail "read_ahead=0 has hits"
	skip "python3 is not installed: the JSON report checked by grep only"
fi
python3 - ra0.json ra128k.json <<'EOF'
import json, sys
def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
def load(p):
    return {j["jobname"]: j for j in json.load(open(p))["jobs"]}
off, on = load(sys.argv[1]), load(sys.argv[2])

# 128 KiB at QD1 without read-ahead: the link overlaps the flash reads.
# All pages in the controller take ~435 us (two 8 KiB pages on the
# busiest channel), the link 546 us, the controller 20 us: one after
# the other ~1001 us; overlapped at least the link's 566 us, and here
# ~779 us (the link waits only for the first page's second half).
lat = off["seq128"]["read"]["clat_ns"]["mean"] / 1e3
if not 566 <= lat < 900:
    die("seq128 QD1 latency %.1f us, wanted overlap: 566 <= lat < 900" % lat)
# with the preset's read-ahead the link is the limit: > 200 MB/s
bw = on["seq128"]["read"]["bw_bytes"] / 1e6
if bw <= 200:
    die("seq128 QD1 with read-ahead: %.1f MB/s, wanted > 200" % bw)
bw0 = off["seq128"]["read"]["bw_bytes"] / 1e6
if not 160 < bw0 < bw:
    die("seq128 QD1 without read-ahead %.1f MB/s" % bw0)

# 4 KiB sequential at QD1: read-ahead is much faster, counts its NAND
# reads but not as host reads
a, b = off["seq4k"], on["seq4k"]
sa, sb = a["ssdlab"], b["ssdlab"]
if not b["read"]["bw_bytes"] > 3 * a["read"]["bw_bytes"]:
    die("seq4k: read-ahead %d B/s vs %d" % (b["read"]["bw_bytes"], a["read"]["bw_bytes"]))
if sa["host_pages_read"] != 16384 or sb["host_pages_read"] != 16384:
    die("seq4k host pages %d %d" % (sa["host_pages_read"], sb["host_pages_read"]))
if sa["read_ahead_pages"] or sa["read_ahead_hits"]:
    die("read_ahead=0 read ahead: %r" % sa)
if sb["read_ahead_hits"] < 16000 or sb["read_ahead_pages"] < sb["read_ahead_hits"]:
    die("seq4k read-ahead counters %r" % sb)
if not sa["nand_pages_read"] <= sb["nand_pages_read"] <= sa["nand_pages_read"] + 32:
    die("seq4k NAND reads %d vs %d" % (sb["nand_pages_read"], sa["nand_pages_read"]))
# the buffered pages' latency: the link and the controller only
if b["read"]["clat_ns"]["percentile"]["50.000000"] > 40000:
    die("seq4k median latency %r" % b["read"]["clat_ns"]["percentile"])

# random reads (before any sequential job, so no buffer is left over):
# the same with and without read-ahead
ra, rb = off["rand4k"]["read"], on["rand4k"]["read"]
if ra["clat_ns"] != rb["clat_ns"] or on["rand4k"]["ssdlab"]["read_ahead_pages"]:
    die("random reads changed by read-ahead: %r vs %r" % (ra["clat_ns"]["mean"], rb["clat_ns"]["mean"]))
EOF
