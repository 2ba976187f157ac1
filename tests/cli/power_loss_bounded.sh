# A power cut's work is bounded by what it can touch (the pages in
# flight, the open blocks, the TRIMs not yet durable), not by the size of
# the drive; the scenario's full=1 rebuilds from every block and checks
# every page at every cut.  Both must give the same outputs byte for
# byte: on random drives (the soak's draw, every case run both ways) and
# on the drives where they once differed -- copies of one write that a
# cut left behind (a GC the cut interrupted; a GC copy that the
# recovery's own rewrite superseded), which a later rebuild from every
# block found and the bounded one did not, and a durable copy a later
# program took with its wordline.
. "$TOP/tests/cli/lib.inc"
need python3

python3 "$TOP/tools/soak.py" "$SSDLAB" --ops 1e6 --seed 11 --cuts 20 --compare-full \
	>soak.txt 2>&1 || fail "soak --compare-full: $(tail -n 5 soak.txt)"
grep -q "^soak: [1-9][0-9]* cases" soak.txt || fail "no case ran: $(tail -n 3 soak.txt)"

same() {
	expect_status 0 "$SSDLAB" scenario run power-loss "$@" --set full=0 --out b
	cp out.txt b.txt
	expect_status 0 "$SSDLAB" scenario run power-loss "$@" --set full=1 --out f
	sed 's#/f/#/b/#; s# f/# b/#' out.txt | cmp -s - b.txt || fail "summaries differ: $*"
	cmp -s b/power-loss.csv f/power-loss.csv || fail "power-loss.csv differs: $*"
	python3 - b/result.json f/result.json <<'PY' || fail "result.json differs: $*"
import json, sys
b, f = (json.load(open(p)) for p in sys.argv[1:3])
assert b["parameters"].pop("full") == "0" and f["parameters"].pop("full") == "1"
assert b == f, [k for k in b if b[k] != f.get(k)]
PY
	rm -rf b f
}
# the defaults, on tiny
same --drive tiny
# a GC copy the recovery's rewrite superseded (static SLC cache, queued TRIM)
same --drive tiny --seed 22000068 --set cuts=60 --set capacity=32m --set page_size=4k \
	--set pages_per_block=64 --set channels=2 --set dies_per_channel=1 --set planes_per_die=1 \
	--set multiplane=no --set cell=qlc --set op=0.50 --set gc_policy=random --set gc_pacing=no \
	--set trim_mode=background --set slc_cache=static --set slc_cache_size=1m --set plp=yes \
	--set plp_hold_up=1us --set qd=32 --set bs=64k --set write_pct=90 --set trim_pct=5 \
	--set fua_pct=20 --set flush_every=0 --set interval=0.01
# the newest durable copy known of a page taken by a program under way in
# its wordline (paired pages unprotected): only every block can tell
# what survives then
same --drive tiny --seed 32000133 --set cuts=60 --set capacity=32m --set page_size=16k \
	--set pages_per_block=32 --set channels=1 --set dies_per_channel=2 --set planes_per_die=1 \
	--set multiplane=yes --set cell=qlc --set op=0.28 --set gc_policy=greedy --set gc_pacing=yes \
	--set wl_dynamic=yes --set wl_static=yes --set paired_pages=unprotected --set qd=8 --set bs=8k \
	--set write_pct=90 --set trim_pct=0 --set fua_pct=20 --set flush_every=0 --set interval=60
# the full option is a number 0 or 1
expect_status 2 "$SSDLAB" scenario run power-loss --drive tiny --set full=2 --out bad
