# A write buffer merges sub-page writes in DRAM: sequential 512-byte and
# 2 KiB writes through write_buffer program each 4 KiB page once (WAF
# about 1, no read-modify-write reads) and run at the flash's program
# rate, as 4 KiB writes do; random 4 KiB overwrites of a region that
# fits in the buffer replace the pages in DRAM, costing no program each;
# with the invariant checker on, a verifying read after them finds what
# was written.
. "$TOP/tests/cli/lib.inc"
need python3
for bs in 512 2k 4k; do
	printf '[w]\nrw=write\nbs=%s\nsize=8m\n' "$bs" >w$bs.fio
	"$SSDLAB" run w$bs.fio --drive tiny --set write_buffer=4m \
		--output-format=json >r$bs.json || fail "bs=$bs: the run failed"
	printf '[w]\nrw=write\nbs=%s\nsize=2m\ndo_verify=1\nverify=crc32c\n' "$bs" >v$bs.fio
	"$SSDLAB" run v$bs.fio --drive tiny --set write_buffer=1m --check 1 \
		>v$bs.out 2>&1 || fail "bs=$bs: verify or the checker failed: $(cat v$bs.out)"
done
printf '[w]\nrw=randwrite\nbs=4k\nsize=1m\nio_size=16m\niodepth=4\n' >rw.fio
"$SSDLAB" run rw.fio --drive tiny --set write_buffer=4m --output-format=json >rw.json ||
	fail "random overwrites: the run failed"
printf '[w]\nrw=randwrite\nbs=4k\nsize=1m\nio_size=4m\niodepth=4\ndo_verify=1\nverify=crc32c\n' >rwv.fio
"$SSDLAB" run rwv.fio --drive tiny --set write_buffer=4m --check 1 >rwv.out 2>&1 ||
	fail "random overwrites: verify or the checker failed: $(cat rwv.out)"
python3 - <<'PY' || fail "merging"
import json
def job(bs):
    j = json.load(open("r%s.json" % bs))["jobs"][0]
    return j, j["ssdlab"]
base = job("4k")[0]["write"]["bw_bytes"]
for bs in ("512", "2k"):
    j, s = job(bs)
    assert s["waf"] < 1.05, (bs, s["waf"])
    assert s["rmw_read_pages"] == 0, (bs, s["rmw_read_pages"])
    # link and program rate: as fast in bytes as whole pages
    assert j["write"]["bw_bytes"] > 0.9 * base, (bs, j["write"]["bw_bytes"], base)
s = json.load(open("rw.json"))["jobs"][0]["ssdlab"]
# 4096 writes of 256 pages: each page programmed about once, not 16 times
assert s["nand_lpages_programmed"] < 4096 / 4, s["nand_lpages_programmed"]
PY
echo ok
