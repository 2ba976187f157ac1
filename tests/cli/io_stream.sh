# The I/O stream options end to end: each job's counts in the JSON report
# are the ones fio 3.33 gives for the same job (ioengine=null, measured):
# holes, backwards walks, per-direction block sizes, trimwrite, number_ios
# with loops, loops over the random map, bsrange, zoned_abs; and the text
# report's block-size line per direction.
. "$TOP/tests/cli/lib.inc"

cat >s.fio <<'EOF'
[global]
iodepth=4
size=1m
stonewall

[holes]
rw=write:8k
bs=4k

[back]
rw=read:-8k
bs=4k

[dirbs]
rw=randrw
bs=4k,16k
size=16m
io_size=8m

[tw]
rw=trimwrite
bs=4k
io_size=32k

[nios]
rw=randwrite
bs=4k
number_ios=10
loops=2

[loops]
rw=randwrite
bs=64k
loops=3

[range]
rw=randread
bsrange=4k-16k
size=16m
norandommap

[zabs]
rw=randwrite
size=16m
io_size=4m
random_distribution=zoned_abs:60/1m:40/3m

[seqmix]
rw=randwrite:4
percentage_random=50
size=16m
io_size=4m
EOF
expect_status 0 "$SSDLAB" run s.fio --drive tiny --output-format=json --output s.json --seed 3
expect_status 0 "$SSDLAB" run s.fio --drive tiny --seed 3
grep -q '^dirbs: (g=2): rw=randrw, bs=(R) 4096B-4096B, (W) 16.0KiB-16.0KiB, (T) 16.0KiB-16.0KiB' out.txt ||
	{ grep '^dirbs' out.txt >&2; fail "text: per-direction block sizes"; }
grep -q '^range: (g=6): rw=randread, bs=(R) 4096B-16.0KiB' out.txt ||
	{ grep '^range' out.txt >&2; fail "text: bsrange"; }

# bad values: one line naming the option, exit 2
printf '[a]\nrw=randread:0\n' >bad1.fio
expect_err 2 "bad1.fio:2: option 'rw'" "$SSDLAB" run bad1.fio --drive tiny
printf '[a]\nrandom_generator=mt\n' >bad2.fio
expect_err 2 "bad2.fio:2: option 'random_generator'.*tausworthe, lfsr, tausworthe64" \
	"$SSDLAB" run bad2.fio --drive tiny
printf '[a]\nbsrange=8k-4k\n' >bad3.fio
expect_err 2 "bad3.fio:2: option 'bsrange'.*backwards" "$SSDLAB" run bad3.fio --drive tiny
printf '[a]\nsize=1m\nrandom_distribution=zoned_abs:50/1m:50/1m\n' >bad4.fio
expect_err 2 "bad4.fio:3: option 'random_distribution'.*more than the region" \
	"$SSDLAB" run bad4.fio --drive tiny

have python3 || skip "python3 is not installed: the JSON report's figures are not checked"
python3 - s.json <<'EOF'
import json, sys
def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
def io(name, d):
    return jobs[name][d]["io_bytes"], jobs[name][d]["total_ios"]
def want(name, d, b, n):
    got = io(name, d)
    if got != (b, n):
        die(f"{name} {d}: {got}, fio gives {(b, n)}")

want("holes", "write", 352256, 86)       # 1m / 12k steps, then the end
want("back", "read", 1 << 20, 256)
rb, rn = io("dirbs", "read")
wb, wn = io("dirbs", "write")
# the budget is checked before each I/O: the last may end past io_size
if rb != 4096 * rn or wb != 16384 * wn or not 8 << 20 <= rb + wb < (8 << 20) + 16384:
    die(f"dirbs: reads {rb}/{rn}, writes {wb}/{wn}")
if not 0.45 < rn / (rn + wn) < 0.55:
    die(f"dirbs: {rn} reads of {rn + wn}")
want("tw", "trim", 32768, 8)
want("tw", "write", 32768, 8)
want("nios", "write", 20 * 4096, 20)
want("loops", "write", 3 << 20, 48)
if jobs["loops"]["ssdlab"]["host_pages_written"] != 768:
    die("loops: host pages " + str(jobs["loops"]["ssdlab"]["host_pages_written"]))
b, n = io("range", "read")
if not (16 << 20 <= b < (16 << 20) + 16384) or not 1550 < n < 1750:
    die(f"range: {b} bytes in {n} reads (fio: 1680, a mean of 10 KiB)")
# "job options" are the options as written, as in fio
opts = jobs["dirbs"]["job options"]
if opts.get("bs") != "4k,16k":
    die("dirbs job options: " + str(opts))
if jobs["range"]["job options"].get("bsrange") != "4k-16k":
    die("range job options: " + str(jobs["range"]["job options"]))
if jobs["zabs"]["job options"].get("random_distribution") != "zoned_abs:60/1m:40/3m":
    die("zabs job options: " + str(jobs["zabs"]["job options"]))
if jobs["holes"]["job options"].get("rw") != "write:8k":
    die("holes job options: " + str(jobs["holes"]["job options"]))
want("zabs", "write", 4 << 20, 1024)
want("seqmix", "write", 4 << 20, 1024)
EOF
