# The power-loss scenario on a zoned drive and on FDP drives
# (docs/power-loss.md, docs/zoned.md): flushed data survives every cut;
# without plp, writes no flush covered are lost at some cuts -- on the
# zoned drive the cuts rewind write pointers, and the host writes on
# where the drive says; with plp nothing acknowledged is lost and no
# write pointer goes back.  The FTL's checker runs at every cut (the
# FDP drives' isolation of their handles' data among its checks) and the
# drive holds each zone's state to the flash after every cut.  And from a
# snapshot of each.
. "$TOP/tests/cli/lib.inc"
need python3

z="--drive tiny --set mapping=zone --set page_size=16k --set capacity=256m --set write_buffer=1m --set cuts=200 --set check=8"
expect_status 0 "$SSDLAB" scenario run power-loss $z --out zno
cp out.txt zno.txt
expect_status 0 "$SSDLAB" scenario run power-loss $z --set plp=yes --out zplp
expect_status 0 "$SSDLAB" scenario run power-loss $z --set zone_units=1 \
	--set max_open_zones=3 --set max_active_zones=6 --set full=1 --out zlim
grep -q "^  zones             writes at the write pointers of 4 of 64 zones" zno.txt ||
	fail "zoned summary: $(cat zno.txt)"

f="--drive tiny --set page_size=16k --set capacity=256m --set fdp=yes --set fdp_handles=3 --set op=0.25 --set write_buffer=1m --set cuts=200 --set check=8"
expect_status 0 "$SSDLAB" scenario run power-loss $f --set fdp_isolation=persistent --out fper
expect_status 0 "$SSDLAB" scenario run power-loss $f --set fdp_isolation=initial --out fini
expect_status 0 "$SSDLAB" scenario run power-loss $f --set fdp_isolation=persistent --set plp=yes --out fplp

python3 - zno zplp zlim fper fini fplp <<'EOF2' || fail "the scenario's figures"
import json, sys
r = {d: json.load(open(d + "/result.json")) for d in sys.argv[1:]}
for d, x in r.items():
    assert x["cuts"] == 200 and x["flushed_lost"] == 0, (d, x)
    assert x["checks"] > 0, (d, x)
# without plp, acknowledged writes no flush covered are lost at some cuts
for d in ("zno", "zlim", "fper", "fini"):
    assert 0 < r[d]["unflushed_lost"] <= r[d]["at_risk_lp"], (d, r[d])
    assert r[d]["buffered_lp"] > 0 and r[d]["open_lp"] > 0, (d, r[d])
# with plp nothing acknowledged is lost
for d in ("zplp", "fplp"):
    assert r[d]["unflushed_lost"] == 0 and r[d]["lost_lp"] == 0, (d, r[d])
    assert r[d]["cuts_saved_by_plp"] == 200 and r[d]["at_risk_lp"] > 0, (d, r[d])
# the zones: rewound by the cuts without plp, never with; zones reset
# and written again as the host goes round them
for d in ("zno", "zlim"):
    assert r[d]["zoned"]["zones_rewound"] > 0 and r[d]["zoned"]["zone_resets"] > 0, r[d]
assert r["zplp"]["zoned"]["zones_rewound"] == 0, r["zplp"]
assert r["zlim"]["zoned"]["zones_written_at_once"] == 3, r["zlim"]
assert r["fper"]["fdp_handles"] == 3
EOF2

# paired pages are guarded on the unit's own write points only: refused
expect_err 1 "^ssdlab: power-loss: paired_pages = protected is modelled on drives without zones or FDP only" \
	"$SSDLAB" scenario run power-loss --drive tiny --set mapping=zone --set cell=mlc \
	--set paired_pages=protected --set cuts=2

# from a snapshot (docs/snapshots.md): the saved zones and handles go on,
# the fill resetting the zones it writes again
printf '[w]\nzonemode=zbd\ndirect=1\nrw=randwrite\nbs=4k\nio_size=20m\nmax_open_zones=3\n' >zj.fio
printf '[w]\nrw=randwrite\nbs=4k\nio_size=40m\n' >fj.fio
expect_status 0 "$SSDLAB" run zj.fio --drive tiny --set mapping=zone --save-snapshot z.snap --output zrun.txt
expect_status 0 "$SSDLAB" run fj.fio --drive tiny --set fdp=yes --set fdp_handles=3 --set op=0.25 \
	--set fdp_isolation=persistent --save-snapshot f.snap --output frun.txt
for s in z f; do
	expect_status 0 "$SSDLAB" scenario run power-loss --snapshot $s.snap --set cuts=50 --set check=8 --out snap$s
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["cuts"] == 50 and r["flushed_lost"] == 0 and r["checks"] > 0, r' \
		snap$s/result.json || fail "power-loss from the $s snapshot: $(cat out.txt)"
done
