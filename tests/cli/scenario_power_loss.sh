# The power-loss scenario on the tiny drive with 16 KiB pages and a
# write buffer: without plp, acknowledged data that no flush covered is
# lost at some cuts and flushed data never is; with plp nothing is lost;
# with plp whose energy cannot save the buffer, losses come back.  The
# same seed gives the same figures; the promise is checked page by page.
. "$TOP/tests/cli/lib.inc"
need python3

base="--drive tiny --set page_size=16k --set capacity=256m --set write_buffer=1m --set cuts=300"
expect_status 0 "$SSDLAB" scenario run power-loss $base --out noplp
cp out.txt noplp.txt
expect_status 0 "$SSDLAB" scenario run power-loss $base --set plp=yes --out plp
expect_status 0 "$SSDLAB" scenario run power-loss $base --set plp=yes --set plp_hold_up=1us --out weak
expect_status 0 "$SSDLAB" scenario run power-loss $base --set power_recovery=scan --out scan
expect_status 0 "$SSDLAB" scenario run power-loss $base --out again
for f in result.json power-loss.csv power-loss.gp; do
	[ -s "noplp/$f" ] || fail "no noplp/$f"
done
cmp -s noplp/result.json again/result.json || fail "the same seed gave other figures"
grep -q "flushed_lost      0 pages" noplp.txt || fail "summary: $(cat noplp.txt)"
python3 - noplp/result.json plp/result.json weak/result.json scan/result.json noplp/power-loss.csv <<'EOF' || fail "the scenario's figures"
import csv, json, sys
no, yes, weak, scan = (json.load(open(p)) for p in sys.argv[1:5])
for r in (no, yes, weak, scan):
    assert r["cuts"] == 300, r
    assert r["flushed_lost"] == 0, r
# data at risk is lost only without protection
assert no["buffered_lp"] > 0 and no["open_lp"] > 0
assert no["unflushed_lost"] > 0 and no["unflushed_lost"] <= no["at_risk_lp"], no
assert yes["unflushed_lost"] == 0 and yes["lost_lp"] == 0 and yes["cuts_saved_by_plp"] == 300, yes
assert weak["cuts_saved_by_plp"] == 0 and weak["unflushed_lost"] > 0, weak
# a full scan reads every programmed page: slower than the summary pages
assert scan["recovery_ms"]["p50"] > 5 * no["recovery_ms"]["p50"], (scan["recovery_ms"], no["recovery_ms"])
rows = list(csv.DictReader(open(sys.argv[5])))
assert len(rows) == 300
assert sum(int(r["unflushed_lost"]) for r in rows) == no["unflushed_lost"]
assert all(int(r["flushed_lost"]) == 0 for r in rows)
assert all(float(r["recovery_ms"]) > 0 for r in rows)
EOF
# A drive that GC copies data into its open pages and cleans its victims
# at random, found by the soak (tools/soak.py): a page whose only durable
# copy the model's schedule erased after the cut, its content kept in a
# register at recovery, was lost at the next cut though a FUA had synced
# it.  Recovery now writes such a page again.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 1000149 --out soak146 \
	--set cuts=20 --set capacity=48m --set page_size=16k --set pages_per_block=64 \
	--set channels=2 --set dies_per_channel=1 --set cell=qlc --set op=0.28 \
	--set gc_policy=random --set gc_pacing=no --set trim_mode=immediate \
	--set slc_cache=static --set slc_cache_size=512k --set qd=32 --set bs=8k \
	--set write_pct=50 --set trim_pct=10 --set fua_pct=20 --set flush_every=0 \
	--set interval=0.2 --set check=16
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0 and r["checks"] > 0, r' \
	soak146/result.json || fail "the soak's case: $(cat out.txt)"
# Another of the soak's: an SLC-cache block erased as soon as its data was
# all overwritten lost a FUA'd page whose overwrite was still in flight.
# A block is now erased only once the writes that superseded its data are
# programmed.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 2000026 --out soak20 \
	--set cuts=50 --set capacity=32m --set pages_per_block=32 --set channels=2 \
	--set dies_per_channel=1 --set planes_per_die=1 --set multiplane=no --set op=0.28 --set gc_pacing=no \
	--set wl_dynamic=no --set wl_static=no --set trim_mode=deferred --set slc_cache=static \
	--set slc_cache_size=2m --set power_recovery=scan --set bs=8k --set write_pct=90 \
	--set trim_pct=5 --set fua_pct=20 --set flush_every=512 --set interval=20 --set check=4
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0 and r["checks"] > 0, r' \
	soak20/result.json || fail "the soak's second case: $(cat out.txt)"
# And a third: a synced page trimmed (not flushed), its block erased by
# GC, came back older than its synced content at the cut.  The controller
# now commits its TRIM journal before it erases data a TRIM unmapped.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 3000056 --out soak47 \
	--set cuts=20 --set capacity=32m --set pages_per_block=32 --set channels=1 \
	--set dies_per_channel=1 --set planes_per_die=2 --set multiplane=no --set cell=qlc \
	--set op=0.07 --set wl_static=no --set write_buffer=1m --set write_pct=90 \
	--set trim_pct=10 --set fua_pct=0 --set flush_every=512 --set interval=60 \
	--set bs=8k --set check=1024
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0, r' \
	soak47/result.json || fail "the soak's third case: $(cat out.txt)"
# And a fourth: the open page programmed before an erase (the rule
# above) was not waited for by the next flush, which then completed
# before a page it covered was programmed.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 4000015 --out soak3 \
	--set cuts=20 --set capacity=128m --set page_size=16k --set pages_per_block=32 \
	--set channels=2 --set dies_per_channel=1 --set planes_per_die=2 --set cell=slc \
	--set op=0.50 --set gc_policy=random --set gc_pacing=no --set wl_dynamic=no \
	--set trim_mode=deferred --set write_buffer=16k --set power_recovery=scan \
	--set write_pct=50 --set fua_pct=20 --set flush_every=8 --set interval=1 --set check=64
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0, r' \
	soak3/result.json || fail "the soak's fourth case: $(cat out.txt)"
# And a fifth: a drive wearing out (read-only) could not write again what
# survived, and lost it; recovery's writes now go on on a read-only drive,
# and the scenario ends cleanly where the drive wore out.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 5000023 --out soak8 \
	--set cuts=20 --set capacity=32m --set page_size=16k --set pages_per_block=128 \
	--set channels=1 --set dies_per_channel=1 --set planes_per_die=2 --set multiplane=no \
	--set cell=qlc --set op=0.50 --set gc_policy=fifo --set gc_pacing=no --set trim_mode=deferred \
	--set pe_cycles=2 --set qd=2 --set bs=64k --set write_pct=50 --set trim_pct=0 \
	--set fua_pct=20 --set flush_every=0 --set interval=1 --set check=256
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0 and r["wore_out"] == 1, r' \
	soak8/result.json || fail "the soak's fifth case: $(cat out.txt)"
grep -q "then the drive wore out" out.txt || fail "wear-out not said: $(cat out.txt)"
# And a sixth: at the end of its life a drive may have no room left to
# write again an older copy in a block the model has erased since the
# cut; a copy where it still lies is mapped again, and what cannot be
# placed is counted apart (undefined, as after a failed write), never as a
# flushed loss.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 6000412 --out soak394 \
	--set cuts=20 --set capacity=96m --set pages_per_block=32 --set channels=2 \
	--set dies_per_channel=1 --set planes_per_die=1 --set multiplane=no --set cell=qlc \
	--set op=0.10 --set gc_policy=random --set gc_pacing=no --set wl_dynamic=no \
	--set trim_mode=deferred --set slc_cache=dynamic --set slc_cache_size=1m \
	--set write_buffer=16k --set pe_cycles=20 --set bs=64k --set write_pct=90 \
	--set fua_pct=0 --set interval=10 --set check=64
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0 and r["wore_out"] == 1 and r["unplaced_lp"] > 0, r' \
	soak394/result.json || fail "the soak's sixth case: $(cat out.txt)"
# And a seventh: mapping a copy again where it lies must not fill its
# unit past what the unit may hold (the checker caught it).
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 7000159 --out soak138 \
	--set cuts=20 --set page_size=16k --set pages_per_block=32 --set channels=4 \
	--set dies_per_channel=2 --set planes_per_die=1 --set op=0.28 --set gc_pacing=yes \
	--set trim_mode=immediate --set slc_cache=static --set slc_cache_size=512k \
	--set bs=4k --set write_pct=90 --set trim_pct=0 --set fua_pct=20 --set flush_every=512 \
	--set interval=1 --set check=1024
# And an eighth: a write of a page the write buffer had given the FTL
# whole, while that page waited in DRAM for its register, replaced the
# data in DRAM even when the load into the register had already begun:
# a FUA write then completed before its own data could have been loaded
# and programmed (the checker caught it).  The new data now replaces the
# old only if it is in DRAM before the load begins.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 7000029 --out soak8w \
	--set cuts=20 --set capacity=96m --set page_size=4k --set pages_per_block=128 \
	--set channels=2 --set dies_per_channel=1 --set planes_per_die=2 --set multiplane=no \
	--set cell=slc --set op=0.28 --set gc_policy=cost-benefit --set wl_static=yes \
	--set write_buffer=16k --set plp=yes --set plp_hold_up=1us --set paired_pages=protected \
	--set qd=1 --set bs=4k --set write_pct=50 --set trim_pct=5 --set fua_pct=20 \
	--set flush_every=0 --set interval=10 --set check=1024

# bad parameters: one line naming the scenario, exit 2
expect_status 2 "$SSDLAB" scenario run power-loss --drive tiny --set bs=6k --out bad
grep -q "power-loss: " out.txt || fail "bad bs: $(cat out.txt)"
# Out of range, not whole or not finite, a number is refused before the
# run, naming the parameter and what it accepts (a user trial found
# qd=4294967304 run as qd=8, flush_every=-1 as 0 and cuts=1.5 as 1 cut).
pl_bad() { pat=$1; shift; expect_err 2 "^ssdlab: $pat\$" "$SSDLAB" scenario run power-loss \
	--drive tiny --out bad "$@"; }
pl_bad "scenario power-loss: parameter 'qd': 4294967304 is out of range \(1 to 256\)" --set qd=4294967304
pl_bad "scenario power-loss: parameter 'qd': 0 is out of range \(1 to 256\)" --set qd=0
pl_bad "scenario power-loss: parameter 'qd': 257 is out of range \(1 to 256\)" --set qd=257
pl_bad "scenario power-loss: parameter 'qd': '1.7' is not a whole number" --set qd=1.7
pl_bad "scenario power-loss: parameter 'qd': 'nan' is not a finite number" --set qd=nan
pl_bad "scenario power-loss: parameter 'qd': 'inf' is not a finite number" --set qd=inf
pl_bad "scenario power-loss: parameter 'flush_every': -1 is out of range \(0 to 4294967295\)" --set flush_every=-1
pl_bad "scenario power-loss: parameter 'cuts': '1.5' is not a whole number" --set cuts=1.5
pl_bad "scenario power-loss: parameter 'cuts': 0 is out of range \(1 to 10000000\)" --set cuts=0
pl_bad "scenario power-loss: parameter 'write_pct': 101 is out of range \(0 to 100\)" --set write_pct=101
pl_bad "scenario power-loss: parameter 'fua_pct': -5 is out of range \(0 to 100\)" --set fua_pct=-5
pl_bad "scenario power-loss: parameter 'check': '0.5' is not a whole number" --set check=0.5
# what involves several parameters, or the drive, says which
pl_bad "power-loss: write_pct 100 \+ trim_pct 5 > 100 \(the rest of the commands are reads\)" --set write_pct=100
pl_bad "power-loss: bs 3072 is not a multiple of 4 KiB" --set bs=3072
pl_bad "power-loss: bs 128k is more than 64 KiB" --set bs=128k
pl_bad "power-loss: fill 200% is more than the capacity" --set fill=200%
pl_bad "power-loss: interval must be more than 0" --set interval=0
# the ends of the ranges still run
for v in "qd=1" "qd=256" "write_pct=95 --set trim_pct=5" "flush_every=0 --set fua_pct=100 --set trim_pct=0"; do
	# shellcheck disable=SC2086
	expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --set cuts=3 --set $v --out edge
	grep -q "flushed_lost      0 pages" out.txt || fail "$v: $(cat out.txt)"
done
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["cuts"] == 3 and r["parameters"]["fua_pct"] == "100", r' \
	edge/result.json || fail "the edge run: $(cat out.txt)"
# A chart with an empty series (one cut; no unflushed data with FUA
# only) draws without gnuplot's "empty range" warnings on the console.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --set cuts=1 --out one
! grep -qi "warning" out.txt || fail "gnuplot's warning shown: $(cat out.txt)"
have gnuplot || skip_part "gnuplot is not installed: the chart of an empty series is not drawn"
# PLP whose hold-up is far below a millisecond: the summary shows it in
# a unit that has its digits, not as 0.000 ms.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --set cuts=5 --set plp=yes \
	--set plp_hold_up=1ns --out hold1ns
grep -q "of the 1 ns the energy gives" out.txt || fail "plp hold-up: $(cat out.txt)"
# a machine with host layers is refused
expect_status 1 "$SSDLAB" scenario run power-loss --drive tiny --set page_cache=64m --out bad
grep -q "bare SSD" out.txt || fail "a machine: $(cat out.txt)"

# Paired pages (tiny is TLC, three pages to a wordline): a cut during an
# upper page's program takes the lower pages with it.  Unprotected, that
# loses flushed data too (what the controller does not guard); protected,
# flushes, FUA writes and erases wait for their wordlines, padded, and no
# flushed page is lost; independent is the model without pairing.
pp="--drive tiny --set page_size=16k --set capacity=256m --set cuts=200 --set check=64"
for m in independent unprotected protected; do
	expect_status 0 "$SSDLAB" scenario run power-loss $pp --set paired_pages=$m --out pp-$m
	cp out.txt pp-$m.txt
done
grep -q "paired pages unprotected" pp-unprotected.txt || fail "summary: $(cat pp-unprotected.txt)"
python3 - pp-independent/result.json pp-unprotected/result.json pp-protected/result.json <<'EOF' || fail "paired pages"
import json, sys
ind, unp, pro = (json.load(open(p)) for p in sys.argv[1:4])
assert ind["paired_pages"] == "independent" and ind["paired_lp"] == 0, ind
assert ind["flushed_lost"] == 0 and pro["flushed_lost"] == 0, (ind, pro)
assert unp["paired_lp"] > 0 and pro["paired_lp"] > 0, (unp, pro)
assert unp["flushed_lost"] > 0, unp
# the guard's price: padding to complete the wordlines
assert pro["pad_lp"] > 2 * ind["pad_lp"], (pro["pad_lp"], ind["pad_lp"])
assert pro["checks"] > 0
EOF
# with plp the stored energy finishes the programs under way: nothing lost
expect_status 0 "$SSDLAB" scenario run power-loss $pp --set paired_pages=unprotected --set plp=yes --out pp-plp
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0 and r["unflushed_lost"] == 0 and r["paired_lp"] == 0, r' \
	pp-plp/result.json || fail "paired pages with plp: $(cat out.txt)"
# Protected with 4 KiB pages: a recovery left a page mapped to a GC copy
# in a lower page of the GC write point's open wordline and struck off
# the other copies of that write, though the victim still held one; a
# cut during the wordline's upper page then took the copy the map named,
# and the flushed page read as zeros (2 pages on this seed).  A copy
# supersedes the others only once its wordline is complete.
expect_status 0 "$SSDLAB" scenario run power-loss --drive tiny --seed 1 --set page_size=4k \
	--set cuts=200 --set check=64 --set paired_pages=protected --out pp-4k
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["flushed_lost"] == 0 and r["paired_lp"] > 0 and r["checks"] > 0, r' \
	pp-4k/result.json || fail "paired pages protected, 4 KiB pages: $(cat out.txt)"
# what the power-loss model does not track is refused, naming the key
expect_err 1 "power cuts are modelled with GC copies in a write point of their own, and the drive has gc_copies = host" \
	"$SSDLAB" scenario run power-loss --drive tiny --set gc_copies=host --set cuts=2
echo ok
