# The iometer scenario on a small drive with short points: per-pattern
# points for every request size in result.json, the CSV with one row per
# size, the gnuplot scripts (and plots when gnuplot is installed); bad
# parameters are one-line errors.
. "$TOP/tests/cli/lib.inc"

expect_status 0 "$SSDLAB" scenario list
grep -q '^iometer$' out.txt || fail "list: iometer"

drive="--drive tiny --set capacity=16m --set op=0.5"
# shellcheck disable=SC2086
expect_status 0 "$SSDLAB" scenario run iometer $drive --set point=0.01 \
	--set bs_max=64k --out io
grep -q 'iometer on tiny: 8 request sizes x 5 patterns' out.txt || fail "summary header"
grep -q '4 KiB IOPS: random read' out.txt || fail "summary 4 KiB line"
[ -s io/result.json ] || fail "no result.json"
for k in fill_mbps rand_read_4k_iops rand_write_4k_iops mix_4k_iops \
	seq_read_max_mbps seq_write_max_mbps lat_max_us patterns rand_read \
	seq_read rand_write seq_write mix bs iops mbps lat_mean_us; do
	grep -q "\"$k\" :" io/result.json || { cat io/result.json; fail "no $k"; }
done
# 8 sizes x 5 patterns
[ "$(grep -c '"bs" :' io/result.json)" -eq 40 ] || fail "wanted 40 points"
[ -s io/iometer.csv ] || fail "no CSV"
head -n 1 io/iometer.csv | grep -q '^bs,rand_read_iops,rand_read_mbps,rand_read_lat_mean_us,rand_read_lat_max_us,seq_read_iops' \
	|| fail "CSV header"
[ "$(wc -l <io/iometer.csv)" -eq 9 ] || fail "CSV: wanted a header and 8 rows"
sed -n 2p io/iometer.csv | grep -q '^512,' || fail "CSV: first size 512"
sed -n 9p io/iometer.csv | grep -q '^65536,' || fail "CSV: last size 64k"
# every measured rate is positive
awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i <= 0) exit 1 }' io/iometer.csv \
	|| fail "CSV: a zero measurement"
for p in iometer-mbps iometer-latency; do
	[ -s io/$p.gp ] || fail "no $p.gp"
	if have gnuplot; then
		[ -s io/$p.png ] || fail "no $p.png"
		[ -s io/$p.svg ] || fail "no $p.svg"
	else
		skip_part "gnuplot is not installed: no plots drawn to check"
	fi
done

# errors: one line, exit 2
expect_err 2 "parameter 'point'" "$SSDLAB" scenario run iometer --drive tiny --set point=soon
expect_err 2 "iometer: bs_min 3k is not a power of two >= 512" "$SSDLAB" scenario run iometer --drive tiny --set bs_min=3k
expect_err 2 "parameter 'rwmixread': 101 is out of range \(0 to 100\)" "$SSDLAB" scenario run iometer --drive tiny --set rwmixread=101
expect_err 2 "parameter 'rwmixread': '70.5' is not a whole number" "$SSDLAB" scenario run iometer --drive tiny --set rwmixread=70.5
expect_err 2 "parameter 'iodepth': 0 is out of range \(1 to 65536\)" "$SSDLAB" scenario run iometer --drive tiny --set iodepth=0
