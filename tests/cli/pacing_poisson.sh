# rate_process=poisson: exponential gaps between I/Os, mean 1/rate_iops
# (the coefficient of variation of the gaps about 1), drawn from the
# job's random stream: the same seed gives the same arrivals.  linear
# spaces them evenly.
. "$TOP/tests/cli/lib.inc"
need python3

for p in poisson linear; do
	cat >$p.fio <<EOF
[$p]
rw=randwrite
bs=4k
iodepth=4
rate_iops=100
rate_process=$p
runtime=40
time_based
write_lat_log=$p
EOF
done
expect_status 0 "$SSDLAB" run poisson.fio --drive tiny --seed 7 --output-format=json --output p.json
mv poisson_lat.1.log a.log
expect_status 0 "$SSDLAB" run poisson.fio --drive tiny --seed 7
cmp -s a.log poisson_lat.1.log || fail "same seed, different arrivals"
expect_status 0 "$SSDLAB" run poisson.fio --drive tiny --seed 8
cmp -s a.log poisson_lat.1.log && fail "another seed, the same arrivals"
expect_status 0 "$SSDLAB" run linear.fio --drive tiny --seed 7

python3 - <<'PY'
import json, math
def gaps(path):
    t = [int(l.split(",")[0]) for l in open(path)]
    return [b - a for a, b in zip(t, t[1:])]
def cv(g):
    m = sum(g) / len(g)
    v = sum((x - m) ** 2 for x in g) / (len(g) - 1)
    return m, math.sqrt(v) / m
m, c = cv(gaps("a.log"))
print("poisson mean gap %.2f ms, cv %.3f" % (m, c))
assert abs(m - 10.0) < 0.5, m      # 100 IOPS: 10 ms
assert 0.9 < c < 1.1, c           # exponential: cv = 1
iops = json.load(open("p.json"))["jobs"][0]["write"]["iops"]
assert abs(iops - 100) < 5, iops
m, c = cv(gaps("linear_lat.1.log"))
print("linear mean gap %.2f ms, cv %.3f" % (m, c))
assert abs(m - 10.0) < 0.05 and c < 0.05, (m, c)
PY
