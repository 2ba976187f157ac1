# Block mapping and the log-block hybrids (docs/mapping.md), from the
# command line: uniform random 4 KiB writes cost what the schemes' cost
# models say (the doc's table), a sequential pass afterwards is switch
# merges with almost no copy, the report counts merges by kind, and what
# the schemes do not model is refused with the key or the feature.
. "$TOP/tests/cli/lib.inc"
need python3
D="--drive tiny --set capacity=16m --set op=1 --set cell=slc"
waf() { # MAPPING LOGS MODEL TOLERANCE
	"$SSDLAB" run "$TOP/examples/mapping-random.fio" $D --set mapping=$1 \
		--set log_blocks=$2 --output-format=json >m.json ||
		fail "mapping=$1 log_blocks=$2: exit $?"
	python3 -c "
import json
s = json.load(open('m.json'))['jobs'][1]['ssdlab']
assert s['mapping'] == '$1', s['mapping']
dev = s['waf'] / $3 - 1
assert abs(dev) < $4, 'mapping=$1 L=$2: waf %.2f model %.2f' % (s['waf'], $3)
assert s['merges_full'] > 0 and s['gc_copied_pages'] > 0, s
" || fail "mapping=$1 log_blocks=$2 against the model"
}
# U = 16 blocks of Np = 256: block Np/(1+1/2U); bast 1+(1-L/U)Np;
# fast 1+U/(L-1+1/q), q ~ 1, plus the sequential log's partial merges
waf block 0 248.24 0.02
waf bast 4 193.0 0.02
waf bast 8 129.0 0.02
waf fast 2 9.0 0.08

# a sequential rewrite: switch merges, WAF 1, nothing copied
printf '[global]\ndirect=1\nsize=100%%\nbs=64k\n[a]\nrw=write\n[b]\nstonewall\nrw=write\n' >seq.fio
for m in block bast fast; do
	"$SSDLAB" run seq.fio $D --set mapping=$m >seq.txt || fail "seq $m"
	# 16 rows; block mapping's last merge stays open until idle time
	grep -Eq "mapping=$m, merges: switch=1[56] partial=0 full=0" seq.txt ||
		fail "mapping=$m: a sequential rewrite is not 16 switches: $(grep merges seq.txt)"
done
# page mapping's report says nothing of merges
"$SSDLAB" run seq.fio $D >seq.txt && ! grep -q "merges:" seq.txt ||
	fail "page mapping reports merges"

# refusals: the key, the combination
expect_err 2 "key 'slc_cache': mapping = bast does not model it" \
	"$SSDLAB" run seq.fio $D --set cell=tlc --set mapping=bast --set slc_cache=dynamic --set slc_cache_size=1m
expect_err 2 "key 'log_blocks': mapping = fast needs 103 spare rows" \
	"$SSDLAB" run seq.fio $D --set mapping=fast --set log_blocks=100
expect_err 1 "power cuts are modelled on page mapping only, and the drive has mapping = block" \
	"$SSDLAB" scenario run power-loss $D --set mapping=block --set cuts=2
