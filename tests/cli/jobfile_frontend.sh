# The job-file front end: options taken without effect are listed in the
# report (text and JSON), include files, ${VAR} and fio's reserved
# keywords, a job file on standard input, kb_base, timeout, and the
# "did you mean" rules.
. "$TOP/tests/cli/lib.inc"
need python3

run() { "$SSDLAB" run "$@" --drive tiny --set capacity=64m; }
json() { python3 -c "import json,sys; d=json.load(open('$1')); $2"; }

# ---- options taken without effect: listed, in text and JSON ----
cat >host.fio <<'EOF'
[global]
ioengine=libaio
direct=1
cpus_allowed=0-1
[a]
rw=randwrite
size=4m
gtod_reduce=1
refill_buffers
[b]
stonewall
rw=randread
size=4m
EOF
run host.fio >out.txt || { cat out.txt >&2; fail "host.fio did not run"; }
grep -q '^  ssdlab: options taken without effect: ioengine, direct, cpus_allowed, gtod_reduce, refill_buffers$' out.txt ||
	{ cat out.txt >&2; fail "text report: no-effect list of job a"; }
grep -q '^  ssdlab: options taken without effect: ioengine, direct, cpus_allowed$' out.txt ||
	{ cat out.txt >&2; fail "text report: no-effect list of job b"; }
! grep -q 'page cache' out.txt || fail "direct=1 must not mention the page cache"
run host.fio --output-format=json >out.json
json out.json "
a, b = d['jobs']
assert a['ssdlab']['options_without_effect'] == ['ioengine', 'direct', 'cpus_allowed', 'gtod_reduce', 'refill_buffers'], a['ssdlab']
assert b['ssdlab']['options_without_effect'] == ['ioengine', 'direct', 'cpus_allowed']
assert 'host_page_cache' not in a['ssdlab']"

# a job without any: an empty list, no text line
printf '[a]\nrw=randread\nsize=1m\n' >plain.fio
run plain.fio >out.txt
! grep -q 'without effect' out.txt || fail "plain job lists no-effect options"
run plain.fio --output-format=json >out.json
json out.json "assert d['jobs'][0]['ssdlab']['options_without_effect'] == []"

# direct=0 and buffered=1 run, and say that the machine has no page cache
for o in direct=0 buffered=1; do
	printf '[a]\nrw=write\nsize=1m\n%s\n' "$o" >buf.fio
	run buf.fio >out.txt || fail "$o refused"
	grep -q 'ssdlab: buffered I/O (direct=0): the machine has no host page cache (page_cache = 0), every I/O reaches the drive as with direct=1' out.txt ||
		{ cat out.txt >&2; fail "$o: no page-cache note"; }
	run buf.fio --output-format=json >out.json
	json out.json "assert 'no host page cache' in d['jobs'][0]['ssdlab']['host_page_cache']"
	# and every write reached the drive: 1 MiB = 256 host pages
	json out.json "assert d['jobs'][0]['ssdlab']['host_pages_written'] == 256"
done

# values are still checked
printf '[a]\nhipri=perhaps\n' >bad.fio
expect_err 2 "bad\.fio:2: option 'hipri': 'perhaps' is not a boolean" run bad.fio
printf '[a]\nnice=40\n' >bad.fio
expect_err 2 "bad\.fio:2: option 'nice': .*accepted: integer -20\.\.19" run bad.fio

# ---- include ----
mkdir -p sub
printf 'iodepth=4\ninclude deeper.fio\n' >sub/inc.fio
printf 'bs=8k\n' >sub/deeper.fio
printf '[a]\nrw=randread\nsize=1m\ninclude sub/inc.fio\n' >top.fio
mkdir elsewhere
(cd elsewhere && "$SSDLAB" run ../top.fio --drive tiny --output-format=json >../out.json) ||
	fail "nested relative include failed"
json out.json "
j = d['jobs'][0]
assert j['latency_depth'] == 4 and j['read']['total_ios'] == 128, (j['latency_depth'], j['read']['total_ios'])"
# [global] options in an include apply to every job
printf 'bs=16k\n' >g.fio
printf '[global]\ninclude g.fio\n[a]\nsize=1m\n[b]\nsize=1m\n' >gtop.fio
run gtop.fio --output-format=json >out.json
json out.json "assert [j['read']['total_ios'] for j in d['jobs']] == [64, 64]"
# a missing file: names the including file and line
printf '[a]\nsize=1m\n\ninclude nope.fio\n' >miss.fio
expect_err 2 "miss\.fio:4: include 'nope\.fio': cannot open" run miss.fio
# an error inside an included file names that file and its line
printf 'iodepth=4\nbs=4q\n' >sub/bad.fio
printf '[a]\ninclude sub/bad.fio\n' >ibad.fio
expect_err 2 "sub/bad\.fio:2: option 'bs'" run ibad.fio
# a job-level check about an option from an include names it too
printf 'size=2g\n' >sub/big.fio
printf '[a]\ninclude sub/big.fio\n' >ibig.fio
expect_err 2 "sub/big\.fio:1: option 'size'.*beyond the volume" run ibig.fio
# cycles and depth
printf 'include cyc2.fio\n' >cyc1.fio
printf 'include cyc1.fio\n' >cyc2.fio
printf '[a]\ninclude cyc1.fio\n' >cyc.fio
expect_err 2 "cyc2\.fio:1: include 'cyc1\.fio': include cycle" run cyc.fio
printf '[a]\ninclude self.fio\n' >self.fio
expect_err 2 "self\.fio:2: include 'self\.fio': include cycle" run self.fio
i=0
while [ $i -lt 20 ]; do printf 'include d%d.fio\n' $((i + 1)) >d$i.fio; i=$((i + 1)); done
printf 'bs=4k\n' >d20.fio
printf '[a]\ninclude d0.fio\n' >deep.fio
expect_err 2 "d15\.fio:1: include 'd16\.fio': includes nested deeper than 16" run deep.fio
# sections are not allowed in an included file (fio refuses them too)
printf '[b]\nbs=4k\n' >sect.fio
printf '[a]\ninclude sect.fio\n' >isect.fio
expect_err 2 "sect\.fio:1: section header '\[b\]' in an included file" run isect.fio

# ---- ${VAR} and reserved keywords ----
printf '[a]\nrw=randread\nsize=${SSDLAB_T_SIZE}\nbs=${SSDLAB_T_BS}\n' >env.fio
SSDLAB_T_SIZE=2m SSDLAB_T_BS=8k run env.fio --output-format=json >out.json
json out.json "r = d['jobs'][0]['read']; assert r['io_bytes'] == 2097152 and r['total_ios'] == 256, r"
expect_err 2 "env\.fio:3: option 'size': empty value; \\$\{SSDLAB_T_SIZE\} is not set" \
	env -u SSDLAB_T_SIZE "$SSDLAB" run env.fio --drive tiny
page=$(getconf PAGESIZE)
ncpus=$(getconf _NPROCESSORS_ONLN)
printf '[a]\nrw=randread\nbs=$pagesize\nsize=64*$pagesize\nnumjobs=$ncpus\n' >kw.fio
run kw.fio --output-format=json >out.json
json out.json "
assert len(d['jobs']) == $ncpus, len(d['jobs'])
for j in d['jobs']:
    assert j['read']['io_bytes'] == 64 * $page and j['read']['total_ios'] == 64, j['read']"
printf '[a]\nsize=(2*4m)\niodepth=(1+2*3)\n' >ar.fio
run ar.fio --output-format=json >out.json
json out.json "
j = d['jobs'][0]
assert j['read']['io_bytes'] == 8388608 and j['latency_depth'] == 7, j['read']['io_bytes']"
printf '[a]\nsize=1m\ntime_based\nruntime=(2000000)\n' >ar2.fio
run ar2.fio --output-format=json >out.json
json out.json "j = d['jobs'][0]; assert 1990 <= j['job_runtime'] <= 2010, j['job_runtime']"

# ---- standard input ----
printf '[a]\nrw=randwrite\nsize=1m\n' | run - >out.txt || fail "run - failed"
grep -q 'jobs=<stdin>' out.txt || { cat out.txt >&2; fail "stdin not named <stdin>"; }
grep -q 'WRITE: bw=' out.txt || fail "stdin job did not write"
printf '[a]\nbogus_opt=1\n' >in.txt
set +e
"$SSDLAB" run - --drive tiny <in.txt >/dev/null 2>err.txt
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "^ssdlab: <stdin>:2: unknown option 'bogus_opt'" err.txt ||
	{ cat err.txt >&2; fail "stdin error does not name <stdin>"; }

# ---- kb_base changes sizes; timeout is runtime ----
printf '[a]\nrw=write\nsize=4096k\nkb_base=1000\n' >kb.fio
run kb.fio --output-format=json >out.json
json out.json "j = d['jobs'][0]; assert j['write']['io_bytes'] == 4096000, j['write']['io_bytes']"
printf '[a]\nrw=write\nsize=4096k\n' >kb2.fio
run kb2.fio --output-format=json >out.json
json out.json "j = d['jobs'][0]; assert j['write']['io_bytes'] == 4194304"
printf '[a]\nrw=randread\nsize=1m\ntime_based\ntimeout=2\n' >to.fio
run to.fio --output-format=json >out.json
json out.json "j = d['jobs'][0]; assert 1990 <= j['job_runtime'] <= 2010, j['job_runtime']"

# ---- did you mean: plausible only ----
printf '[a]\niodpeth=4\n' >typo.fio
expect_err 2 "did you mean 'iodepth'" run typo.fio
printf '[a]\nzz=4\n' >short.fio
expect_err 2 "unknown option 'zz' \(accepted: see docs/jobfiles\.md\)" run short.fio
printf '[a]\nwibble=4\n' >far.fio
expect_err 2 "unknown option 'wibble' \(accepted: see docs/jobfiles\.md\)" run far.fio
expect_err 2 "unknown key 'ab'.*see" "$SSDLAB" drive show tiny --set ab=1
! grep -q 'did you mean' err.txt || fail "a 2-letter drive key got a suggestion"
expect_err 2 "did you mean 'channels'" "$SSDLAB" drive show tiny --set chanels=2
# ---- time_based without a runtime: fio warns and runs without it ----
printf '[a]\nrw=write\nsize=2m\ntime_based\n' >tb.fio
run tb.fio --output-format=json >out.json
json out.json "
j = d['jobs'][0]
assert j['write']['io_bytes'] == 2097152, j['write']['io_bytes']
assert 'time_based' in j['ssdlab']['options_without_effect'], j['ssdlab']['options_without_effect']
assert j['ssdlab']['time_based_without_runtime'].startswith('fio: time_based requires a runtime/timeout setting ('), j['ssdlab']"
# fio's warning, repeated in the job's notes (it was taken without a word
# of why); a job with its runtime has none
run tb.fio >out.txt
grep -qx "  ssdlab: fio: time_based requires a runtime/timeout setting (fio's warning; the job ran as without time_based, as fio's does)" out.txt ||
	{ cat out.txt >&2; fail "no fio warning of time_based without runtime"; }
printf '[a]\nrw=write\nsize=2m\ntime_based\nruntime=10ms\n' >tbr.fio
run tbr.fio >out.txt
! grep -q "time_based requires" out.txt || fail "a warning of time_based with a runtime"

echo ok
