# A run is a function of its inputs: the same job file, drive and seed give
# the same JSON report byte for byte apart from the two wall-clock fields;
# another seed gives other random results.
. "$TOP/tests/cli/lib.inc"

cat >j.fio <<'EOF'
[global]
bs=4k
iodepth=8

[fill]
rw=randwrite
io_size=150%

[mixed]
stonewall
rw=randrw
rwmixread=30
bssplit=4k/60:16k/30:64k/10
random_distribution=zipf:1.1
io_size=16m

[clones]
stonewall
rw=randwrite
numjobs=2
runtime=50ms
time_based
EOF

# the report without wall_seconds and host_ios_per_wall_second
strip() {
	sed -e '/^ *"wall_seconds" : /d' -e '/^ *"host_ios_per_wall_second" : /d' "$1"
}
run() { # SEED OUT
	expect_status 0 "$SSDLAB" run j.fio --drive tiny \
		--seed "$1" --output-format=json --output "$2"
}

run 1 a.json
run 1 b.json
grep -q '"wall_seconds" : ' a.json || fail "no wall_seconds in the report"
grep -q '"host_ios_per_wall_second" : ' a.json || fail "no host_ios_per_wall_second"
strip a.json >a.txt
strip b.json >b.txt
cmp -s a.txt b.txt || { diff a.txt b.txt | head -n 20 >&2; fail "same seed, different reports"; }
# nothing else mentions the wall clock
[ "$(wc -l <a.json)" -eq $(($(wc -l <a.txt) + 2)) ] || fail "strip removed more than two lines"

# the normal output too, apart from its closing "Wall:" line
expect_status 0 "$SSDLAB" run j.fio --drive tiny --seed 1
grep -v '^Wall: ' out.txt >n1.txt
expect_status 0 "$SSDLAB" run j.fio --drive tiny --seed 1
grep -v '^Wall: ' out.txt >n2.txt
cmp -s n1.txt n2.txt || { diff n1.txt n2.txt | head -n 20 >&2; fail "same seed, different text reports"; }

# another seed: other random streams, so other results
run 2 c.json
strip c.json >c.txt
grep -q '"seed" : 2,' c.txt || fail "seed 2 not in the report"
if have python3; then
	python3 - a.json c.json <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
for ja, jc in zip(a["jobs"], c["jobs"]):
    ja.pop("job options"); jc.pop("job options")
    if ja == jc:
        print("FAIL: job %s: seed 1 and seed 2 give the same results" % ja["jobname"],
              file=sys.stderr)
        sys.exit(1)
EOF
else
	# the jobs' results, without the options block that repeats the job file
	sed -n '/"jobs" : \[/,/^  \],/p' a.txt | grep -v '"seed"' >a.jobs
	sed -n '/"jobs" : \[/,/^  \],/p' c.txt | grep -v '"seed"' >c.jobs
	! cmp -s a.jobs c.jobs || fail "seed 1 and seed 2 give the same results"
fi

# randseed in the job file sets every job's stream, whatever --seed says
# (the drive's greedy GC draws no random numbers)
sed 's/^iodepth=8$/iodepth=8\nrandseed=42/' j.fio >k.fio
grep -q '^randseed=42$' k.fio || fail "sed did not add randseed"
expect_status 0 "$SSDLAB" run k.fio --drive tiny --seed 5 \
	--output-format=json --output k5.json
expect_status 0 "$SSDLAB" run k.fio --drive tiny --seed 6 \
	--output-format=json --output k6.json
strip k5.json | grep -v '^    "seed" : 5,$' >k5.txt
strip k6.json | grep -v '^    "seed" : 6,$' >k6.txt
[ "$(wc -l <k5.txt)" -eq "$(wc -l <k6.txt)" ] && [ "$(wc -l <k5.txt)" -lt "$(wc -l <k5.json)" ] ||
	fail "the top-level seed line was not found"
cmp -s k5.txt k6.txt || { diff k5.txt k6.txt | head -n 20 >&2; fail "randseed=42: --seed changed the results"; }
exit 0
