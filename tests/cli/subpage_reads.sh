# Sequential sub-page reads are served from one NAND read per 4 KiB page:
# the controller keeps the page a 512-byte read brought in, and the next
# seven reads of it take it from there.  On the slc preset at QD4 they
# are at least as fast as random 512-byte reads, with an eighth of their
# NAND reads; a write between drops the kept page (the read after it
# sees the new data: verify).
. "$TOP/tests/cli/lib.inc"
need python3
for rw in read randread; do
	printf '[f]\nrw=write\nbs=128k\nsize=64m\n[r]\nstonewall\nrw=%s\nbs=512\niodepth=4\nsize=4m\n' "$rw" >$rw.fio
	"$SSDLAB" run $rw.fio --drive slc --output-format=json >$rw.json || fail "$rw: the run failed"
done
python3 - <<'PY' || fail "sequential 512-byte reads"
import json
def job(name):
    j = json.load(open(name + ".json"))["jobs"][1]
    return j["read"]["iops"], j["read"]["clat_ns"]["mean"], j["ssdlab"]["nand_pages_read"]
s, r = job("read"), job("randread")
assert s[0] >= r[0] and s[1] <= r[1], (s, r)
assert s[2] * 4 <= r[2], (s, r)
PY
printf '[w]\nrw=randrw\nbs=512\nsize=256k\ndo_verify=1\nverify=crc32c\n' >rw.fio
"$SSDLAB" run rw.fio --drive slc --check 1 >rw.out 2>&1 || fail "verify: $(cat rw.out)"
echo ok
