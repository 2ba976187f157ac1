# A static SLC cache whose data has all been trimmed needs no folding: a
# sequential write right after a full TRIM goes to the cache again (and
# runs faster than the same write to native blocks), without waiting for
# idle time.
. "$TOP/tests/cli/lib.inc"
need python3
cat >t.fio <<'JOB'
[fill]
rw=write
bs=128k
iodepth=32
size=100%
[trim]
stonewall
rw=trim
bs=1m
size=100%
[after-trim]
stonewall
rw=write
bs=128k
iodepth=32
offset=32m
size=8m
JOB
# the same without the TRIM: the cache still holds the first pages of
# the fill (the last job writes elsewhere, so it overwrites none of them)
sed '/^\[trim\]$/,/^size=100%$/d' t.fio >notrim.fio
for j in t notrim; do
	$SSDLAB run $j.fio --drive tiny --set op=0.5 --set slc_cache=static \
		--set slc_cache_size=2m --check 50 --output-format=json --output $j.json
done
python3 - <<'PY' || fail "SLC cache after TRIM"
import json
t = json.load(open("t.json"))["jobs"][2]
n = json.load(open("notrim.json"))["jobs"][1]
assert t["ssdlab"]["slc_written_pages"] >= 512, t["ssdlab"]["slc_written_pages"]
assert n["ssdlab"]["slc_written_pages"] == 0, n["ssdlab"]["slc_written_pages"]
assert t["write"]["bw"] > 1.1 * n["write"]["bw"], (t["write"]["bw"], n["write"]["bw"])
PY
