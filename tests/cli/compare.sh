# ssdlab compare (docs/sweeps.md, "Comparing two results"): two runs of
# one workload on two drives -- the keys that differ, and the WAF
# difference put down to its cause (GC copies here, padding with sync
# writes on a drive with bigger pages); a run against itself differs in
# nothing; two scenarios' figures; bad input in one line.
. "$TOP/tests/cli/lib.inc"
need python3
cat >rw.fio <<'EOF2'
[fill]
rw=write
bs=128k
iodepth=16
[measure]
stonewall
rw=randwrite
bs=4k
iodepth=16
io_size=16m
EOF2
"$SSDLAB" run rw.fio --drive tiny --output-format=json --output a.json
"$SSDLAB" run rw.fio --drive tiny --set op=0.28 --output-format=json --output b.json
expect_status 0 "$SSDLAB" compare a.json b.json
cp out.txt ab.txt
grep -q "^Drive keys that differ:$" ab.txt || fail "no drive keys: $(cat ab.txt)"
grep -q "^  op  *0.07  *0.28$" ab.txt || fail "op not listed: $(cat ab.txt)"
grep -q "description" ab.txt && fail "the description is not a key that differs"
grep -q "^Job 'measure':" ab.txt || fail "no measure job"
expect_status 0 "$SSDLAB" compare a.json b.json --output-format=json
python3 - <<'PY' || fail "compare's JSON"
import json
d = json.load(open("out.txt"))
assert d["drive_keys_that_differ"]["op"] == ["0.07", "0.28"], d["drive_keys_that_differ"]
j = [x for x in d["jobs"] if x["job"] == "measure"][0]
c = j["nand_writes_per_host_page"]
wa, wb = c["all: WAF"]
ga, gb = c["GC copies"]
# more spare, fewer copies: and the copies are the whole difference
assert gb < ga and abs((wb - wa) - (gb - ga)) < 1e-9, c
assert c["other (unexplained by the above)"] == [0, 0], c
assert j["figures"]["write IOPS"][1] > j["figures"]["write IOPS"][0], j["figures"]
PY
# the same run twice: nothing differs
expect_status 0 "$SSDLAB" compare a.json a.json
grep -q "^Drive keys that differ: none$" out.txt || fail "self: $(cat out.txt)"
grep -E '^  [a-zA-Z].*[0-9] +[+-][0-9]' out.txt && fail "self-compare shows a difference"
# padding: sync 4 KiB writes on 16 KiB pages pad each page
cat >sync.fio <<'EOF2'
[w]
rw=randwrite
bs=4k
io_size=4m
sync=1
EOF2
"$SSDLAB" run sync.fio --drive tiny --set op=0.3 --output-format=json --output s4.json
"$SSDLAB" run sync.fio --drive tiny --set op=0.3 --set page_size=16k --output-format=json --output s16.json
expect_status 0 "$SSDLAB" compare s4.json s16.json
grep -q "^  padding  *0  *3 " out.txt || fail "padding: $(cat out.txt)"
# a heading whose rows are all zeros says so, not a bare heading
printf '[r]\nrw=randread\nsize=1m\n' >r.fio
"$SSDLAB" run r.fio --drive tiny --output-format=json --output ra.json
"$SSDLAB" run r.fio --drive tiny --output-format=json --output rb.json
expect_status 0 "$SSDLAB" compare ra.json rb.json
grep -q "^  What slows commands: none in either$" out.txt || fail "empty heading: $(cat out.txt)"
# two scenarios
"$SSDLAB" scenario run fdp --drive tiny --set op=0.3 --out f3 >/dev/null
"$SSDLAB" scenario run fdp --drive tiny --set op=0.4 --out f4 >/dev/null
expect_status 0 "$SSDLAB" compare f3 f4/result.json
grep -q "^  cache.none.waf " out.txt || fail "scenario figures: $(cat out.txt)"
# bad input
expect_err 2 "^ssdlab: nope.json: No such file or directory" "$SSDLAB" compare nope.json a.json
echo '{"a": 1}' >x.json
expect_err 2 "^ssdlab: x.json: not a result of 'ssdlab run --output-format=json' or of a scenario" "$SSDLAB" compare a.json x.json
echo '{"a": ' >y.json
expect_err 2 "^ssdlab: y.json: line 2, column 1: expected a value, found the end" "$SSDLAB" compare y.json a.json
expect_err 2 "^ssdlab: a.json is a run's result and f3/result.json a scenario's: nothing to compare" "$SSDLAB" compare a.json f3
expect_err 2 "^ssdlab: compare needs two results" "$SSDLAB" compare a.json
expect_err 2 "^ssdlab: compare takes two results, got a third: 'c'" "$SSDLAB" compare a.json b.json c
