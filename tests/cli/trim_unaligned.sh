# A TRIM that is not 4 KiB-aligned deallocates only the pages wholly
# inside it, as a real drive deallocates whole mapping units: fio trim
# jobs of 2 KiB blocks (in order from offset 512, and at random) trim no
# page and lose no data; one of 6 KiB blocks trims the one whole page in
# each block, even where two of its blocks cover a page between them.
# A verifying read of the whole region then finds every other page
# holding its data, read from NAND, in every trim_mode.
. "$TOP/tests/cli/lib.inc"
need python3

cat >t.fio <<'EOF'
[global]
verify=md5
[write]
rw=write
bs=64k
size=8m
do_verify=0
[trim2k]
stonewall
rw=trim
bs=2k
offset=512
size=2m
[randtrim2k]
stonewall
rw=randtrim
bs=2k
offset=2m
size=2m
[trim6k]
stonewall
rw=trim
bs=6k
offset=4m
size=96k
[check]
stonewall
rw=read
bs=4k
size=8m
EOF
for mode in immediate background deferred; do
	expect_status 0 "$SSDLAB" run t.fio --drive tiny --set trim_mode=$mode \
		--check 1 --output-format=json --output t.json
	python3 - t.json $mode <<'PY' || fail "trim_mode=$mode"
import json, sys
d = json.load(open(sys.argv[1]))
j = {x["jobname"]: x for x in d["jobs"]}
for x in d["jobs"]:
    assert x["error"] == 0, (x["jobname"], x["ssdlab"].get("error_message"))
# the trims were sent, every byte of them ...
for name, size, ios in (("trim2k", 2 << 20, 1024), ("randtrim2k", 2 << 20, 1024),
                        ("trim6k", 96 << 10, 16)):
    t = j[name]["trim"]
    assert (t["io_bytes"], t["total_ios"]) == (size, ios), (name, t["io_bytes"], t["total_ios"])
# ... but only whole pages were deallocated: none of 2 KiB, one in 6 KiB
got = [j[n]["ssdlab"]["host_pages_trimmed"] for n in ("trim2k", "randtrim2k", "trim6k")]
assert got == [0, 0, 16], got
# the read finds the data of every page but those 16, from NAND
c = j["check"]["ssdlab"]
assert (c["verified_pages"], c["verified_zero_pages"]) == (2048 - 16, 16), \
    (c["verified_pages"], c["verified_zero_pages"])
assert (c["host_pages_read_unmapped"], c["nand_pages_read"]) == (16, 2048 - 16), \
    (c["host_pages_read_unmapped"], c["nand_pages_read"])
PY
done
exit 0
