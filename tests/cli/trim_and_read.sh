# TRIM unmaps pages: reading them afterwards costs no NAND read, while the
# pages left mapped are read from NAND as before.
. "$TOP/tests/cli/lib.inc"

# write the first 32 MiB of the tiny drive, trim the first 16 MiB, read
# both halves
cat >j.fio <<'EOF'
[global]
bs=64k
iodepth=8

[write]
rw=write
size=32m

[trim]
stonewall
rw=trim
size=16m

[read_trimmed]
stonewall
rw=read
bs=4k
size=16m

[read_kept]
stonewall
rw=randread
bs=4k
offset=16m
size=16m
io_size=4m
EOF
expect_status 0 "$SSDLAB" run j.fio --drive tiny --output-format=json --output out.json

if ! have python3; then
	grep -q '"host_pages_trimmed" : 4096,' out.json || fail "trim: host_pages_trimmed"
	grep -q '"host_pages_read_unmapped" : 4096,' out.json || fail "read: unmapped pages"
	skip "python3 is not installed: the JSON report checked by grep only"
fi
python3 - out.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = {j["jobname"]: j for j in d["jobs"]}
def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
w, t, rt, rk = (jobs[n]["ssdlab"] for n in ("write", "trim", "read_trimmed", "read_kept"))

if w["host_pages_written"] != 8192 or w["nand_pages_programmed"] != 8192:
    die("write: %r" % w)
# the trim job trims 16 MiB = 4096 pages, touching no NAND
if jobs["trim"]["trim"]["io_bytes"] != 16 << 20 or jobs["trim"]["trim"]["total_ios"] != 256:
    die("trim job: trim io_bytes %r" % jobs["trim"]["trim"])
if not t["host_pages_trimmed"] > 0 or t["host_pages_trimmed"] != 4096:
    die("trim: host_pages_trimmed %r, wanted 4096" % t["host_pages_trimmed"])
if t["nand_pages_read"] or t["nand_pages_programmed"] or t["host_pages_written"]:
    die("trim: NAND work or writes in the trim window: %r" % t)
if t.get("waf") is not None:
    die("trim: waf should be null, got %r" % t.get("waf"))

# reading trimmed pages never touches NAND
if jobs["read_trimmed"]["read"]["io_bytes"] != 16 << 20:
    die("read_trimmed: read io_bytes %r" % jobs["read_trimmed"]["read"]["io_bytes"])
if rt["host_pages_read"] != 4096:
    die("read_trimmed: host_pages_read %r" % rt["host_pages_read"])
if rt["nand_pages_read"] != 0:
    die("read_trimmed: nand_pages_read %r, wanted 0 (unmapped reads)" % rt["nand_pages_read"])
if rt["host_pages_read_unmapped"] != 4096:
    die("read_trimmed: host_pages_read_unmapped %r, wanted 4096" % rt["host_pages_read_unmapped"])

# the pages that were not trimmed are still mapped and read from NAND
if rk["host_pages_read"] != 1024 or rk["nand_pages_read"] != 1024 or rk["host_pages_read_unmapped"] != 0:
    die("read_kept: %r" % rk)
# an unmapped read is answered by the controller alone: faster than tR
lt = jobs["read_trimmed"]["read"]["clat_ns"]["max"]
lk = jobs["read_kept"]["read"]["clat_ns"]["min"]
if not lt < lk:
    die("unmapped reads (max %d ns) should be faster than NAND reads (min %d ns)" % (lt, lk))
EOF
exit 0
