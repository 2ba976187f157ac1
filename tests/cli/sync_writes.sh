# Sync writes (fio's sync=1: every write with FUA) and fsync complete only
# once their data is programmed, on every shape of drive: also where one
# 4 KiB write fills a whole write unit, which goes to the flash at once
# and is still programming when a plain write completes.
. "$TOP/tests/cli/lib.inc"
need python3
clat() { # JOBFILE DRIVE SETS...: mean write completion latency, ns
	f=$1; shift
	"$SSDLAB" run "$f" "$@" --output-format=json >r.json
	python3 -c 'import json; print(int(json.load(open("r.json"))["jobs"][0]["write"]["clat_ns"]["mean"]))'
}
for s in 0 1; do
	printf '[w]\nrw=randwrite\nbs=4k\niodepth=1\nsize=8m\nsync=%s\n' "$s" >sync$s.fio
done
printf '[w]\nrw=randwrite\nbs=4k\niodepth=1\nsize=8m\nfsync=1\n' >fsync.fio
for drive in "--drive tiny" "--drive default --set capacity=1g --set page_size=4k --set planes_per_die=1" \
	     "--drive default --set capacity=1g --set page_size=8k --set planes_per_die=1"; do
	# shellcheck disable=SC2086
	plain=$(clat sync0.fio $drive)
	# shellcheck disable=SC2086
	fua=$(clat sync1.fio $drive)
	[ "$fua" -gt $((plain * 2)) ] || fail "$drive: sync=1 write latency $fua ns, plain $plain ns"
	# shellcheck disable=SC2086
	"$SSDLAB" run fsync.fio $drive --output-format=json >r.json
	python3 - <<'PY' || fail "$drive: fsync latency"
import json
j = json.load(open("r.json"))["jobs"][0]
w, s = j["write"]["clat_ns"]["mean"], j["sync"]["lat_ns"]["mean"]
# each fsync waits for the page its write sent to the flash
assert s > 2 * w or s > 100000, (w, s)
PY
done
echo ok
