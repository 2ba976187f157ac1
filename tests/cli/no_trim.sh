# Drives without TRIM (trim = no: the preset intel-x25m-80g, as the X25-M
# G1 was, and any drive with --set trim=no, as the JMicron JMF602 of 2008
# was): a trim job is refused as a hard disk refuses it (fio's
# EOPNOTSUPP; the message names the drive and the key, for a trace's
# discard too), the layers above stop sending TRIM, the scenarios that
# need it refuse with the drive and the key, gc-states skips its after
# TRIM state and says so, power-loss sends reads instead.
. "$TOP/tests/cli/lib.inc"
need python3
js() { # FILE EXPR: a Python assertion on a JSON file (d)
	python3 -c "import json,sys; d=json.load(open('$1')); $2" ||
		fail "$1: $2"
}

# fio's trim jobs: err=95 (EOPNOTSUPP), the message names the command,
# the drive and the key
printf '[t]\nrw=randtrim\nbs=4k\nsize=1m\n' >t.fio
for d in "--drive intel-x25m-80g --set capacity=64m" \
	 "--drive silicon-power-32g --set capacity=64m --set trim=no" "--drive tiny --set trim=no"; do
	n=${d#--drive }; n=${n%% *}
	expect_err 1 "^ssdlab: job 't': trim command at offset [0-9]+, 4096 bytes: not supported: drive '$n' has no TRIM \(trim = no\)$" \
		"$SSDLAB" run t.fio $d
	expect_status 1 "$SSDLAB" run t.fio $d --output-format=json --output t.json
	js t.json "assert d['jobs'][0]['error'] == 95, d['jobs'][0]['error']"
done
# the same job on the drive with TRIM runs, and on the X25-M G1 given it
expect_status 0 "$SSDLAB" run t.fio --drive tiny
expect_status 0 "$SSDLAB" run t.fio --drive intel-x25m-80g --set capacity=64m --set trim=yes
# the preset says it, and drive show with it
"$SSDLAB" drive show --drive intel-x25m-80g >x25m.txt
grep -q '^trim  *= no ' x25m.txt || fail "drive show intel-x25m-80g: $(grep trim x25m.txt)"
# trimwrite and a verifying trim_percentage: the first TRIM ends the job
printf '[t]\nrw=trimwrite\nbs=4k\nsize=1m\n' >tw.fio
expect_err 1 "trim command .*not supported" "$SSDLAB" run tw.fio --drive tiny --set trim=no
# the page cache passes the refusal up; MFT above takes TRIM and sends none
expect_err 1 "trim command .*not supported" "$SSDLAB" run t.fio --drive tiny --set trim=no --set page_cache=8m
printf '[w]\nrw=randwrite\nbs=16k\ndirect=1\nsize=100%%\nio_size=300%%\n' >mw.fio
"$SSDLAB" run mw.fio --drive tiny --set trim=no --set mft=yes --output-format=json >mw.json
js mw.json "m = d['ssdlab']['machine']
assert d['jobs'][0]['error'] == 0 and m[0]['stats']['segment_trims'] == 0, m
assert m[1]['trim_cmds'] <= 1, m  # the one it refused"
"$SSDLAB" run mw.fio --drive tiny --set mft=yes --output-format=json >mwt.json
js mwt.json "assert d['ssdlab']['machine'][0]['stats']['segment_trims'] > 0"

# scenarios: those that are TRIM refuse before any work, in one line
# naming the drive and the key, and write nothing
for s in torture fill-idle trim-latency; do
	expect_err 2 "^ssdlab: scenario $s deletes with TRIM, and drive 'intel-x25m-80g' has none \(trim = no\)$" \
		"$SSDLAB" scenario run $s --drive intel-x25m-80g --out scn-$s
	[ ! -e scn-$s ] || fail "scenario $s on intel-x25m-80g wrote scn-$s: $(ls scn-$s)"
done
expect_err 2 "scenario torture deletes with TRIM, and drive 'tiny' has none \(trim = no\)" \
	"$SSDLAB" scenario run torture --drive tiny --set trim=no
# a trace with a discard ends at it, saying why (the replay job's error,
# as fio's EOPNOTSUPP ends the job)
printf 'fio version 3 iolog\n0 t add\n0 t open\n0 t write 0 65536\n1 t trim 0 65536\n2 t close\n' >d.log
expect_err 1 "^ssdlab: trace: the replay failed: trim command at offset 0, 65536 bytes: not supported: drive 'intel-x25m-80g' has no TRIM \(trim = no\)$" \
	"$SSDLAB" scenario run trace --drive intel-x25m-80g --set capacity=256m --set trace=d.log --set fill=0 --out tr
# gc-states: clean, after load, after idle; after TRIM skipped, and said
expect_status 0 "$SSDLAB" scenario run gc-states --drive tiny --set trim=no --set load=50% \
	--set probe=0.5 --set idle=60 --out gcs
grep -q "^  after TRIM   skipped: drive 'tiny' has no TRIM (trim = no)$" out.txt ||
	{ cat out.txt >&2; fail "gc-states: the skipped state"; }
js gcs/result.json "assert d['after_trim'] == {'skipped': \"drive 'tiny' has no TRIM (trim = no)\"}, d
assert all(d[k]['rand_write_iops'] > 0 for k in ('clean', 'after_load', 'after_idle'))"
[ "$(wc -l <gcs/gc-states.csv)" -eq 4 ] || fail "gc-states.csv: $(cat gcs/gc-states.csv)"
# power-loss: no TRIM sent, the share read, and said
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --set trim=no --set cuts=5 --out pl
grep -q "^  trims             none: drive 'tiny' has no TRIM (trim = no)" out.txt ||
	{ cat out.txt >&2; fail "power-loss: the note"; }
js pl/result.json "assert d['flushed_lost'] == 0 and d['trims'].startswith('none'), d"
# and on the X25-M G1 as it comes (firmware 8820: 8160's GC copies
# between host pages are outside the power-loss model, which says so)
expect_status 0 "$SSDLAB" scenario run power-loss --drive intel-x25m-80g-8820 --set capacity=256m \
	--set cuts=5 --out plx
grep -q "^  trims             none: drive 'intel-x25m-80g-8820' has no TRIM (trim = no)" out.txt ||
	{ cat out.txt >&2; fail "power-loss on intel-x25m-80g-8820: the note"; }
expect_err 1 "gc_copies = host" "$SSDLAB" scenario run power-loss --drive intel-x25m-80g \
	--set capacity=256m --set cuts=5
