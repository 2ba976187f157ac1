# fio's data placement options (docs/fdp.md, "fio's options"): fdp=1,
# dataplacement, plids, plid_select, dp_scheme.  Every bad value and every
# mismatch with the drive fails in one line naming the option (exit 2 as
# the job is read, 1 when the drive is looked at); fio's own example job
# files run on a drive with FDP; the choice is deterministic.
. "$TOP/tests/cli/lib.inc"
F="--set fdp=yes --set op=0.3 --set fdp_handles=4"
job() { printf '[w]\nrw=randwrite\nbs=4k\nio_size=1m\n%b' "$1" >j.fio; }

# as the job is read: fio's words where fio has them
job 'fdp=1\nplids=x\n'
expect_err 2 "^ssdlab: j.fio:6: option 'plids': 'x' is not an identifier or a range of them" "$SSDLAB" run j.fio --drive tiny $F
job 'fdp=1\nplids=3-1\n'
expect_err 2 "^ssdlab: j.fio:6: option 'plids': range '3-1' ends before it starts" "$SSDLAB" run j.fio --drive tiny $F
job 'fdp=1\nplids=70000\n'
expect_err 2 "^ssdlab: j.fio:6: option 'plids': Placement IDs cannot exceed 0xFFFF" "$SSDLAB" run j.fio --drive tiny $F
job 'fdp=1\nfdp_pli=0-200\n'
expect_err 2 "^ssdlab: j.fio:6: option 'fdp_pli': only 128 IDs supported" "$SSDLAB" run j.fio --drive tiny $F
job 'dataplacement=streams\n'
expect_err 2 "^ssdlab: j.fio:5: option 'dataplacement': fio: stream IDs must be provided for dataplacement=streams" "$SSDLAB" run j.fio --drive tiny $F
job 'fdp=1\ndata_placement=streams\nplids=1\n'
expect_err 2 "^ssdlab: j.fio:5: option 'fdp': fio: fdp=1 is not compatible with dataplacement=\\{streams, none\\}" "$SSDLAB" run j.fio --drive tiny $F
job 'fdp=1\nplid_select=scheme\n'
expect_err 2 "^ssdlab: j.fio:6: option 'plid_select': scheme needs a scheme file" "$SSDLAB" run j.fio --drive tiny $F
job 'fdp=1\nfdp_pli_select=bogus\n'
expect_err 2 "^ssdlab: j.fio:6: option 'fdp_pli_select': unknown value 'bogus' \\(accepted: random, roundrobin, scheme\\)" "$SSDLAB" run j.fio --drive tiny $F
job 'fdp=1\nplid_select=scheme\ndp_scheme=nope\n'
expect_err 2 "^ssdlab: j.fio:7: option 'dp_scheme': fio: ruh scheme failed to open scheme file nope: No such file or directory" "$SSDLAB" run j.fio --drive tiny $F
printf '0,1048576,1\n\nhello\n' >bad.txt
job 'fdp=1\nplid_select=scheme\ndp_scheme=bad.txt\n'
expect_err 2 "^ssdlab: j.fio:7: option 'dp_scheme': bad.txt:3: 'hello' is not START,END,PLID" "$SSDLAB" run j.fio --drive tiny $F
awk 'BEGIN { for (i = 0; i < 33; i++) print i * 4096 "," (i + 1) * 4096 ",1" }' >many.txt
job 'fdp=1\nplid_select=scheme\ndp_scheme=many.txt\n'
expect_err 2 "^ssdlab: j.fio:7: option 'dp_scheme': many.txt:33: more than 32 scheme entries" "$SSDLAB" run j.fio --drive tiny $F

# against the drive: before the first command
job 'fdp=1\n'
expect_err 1 "^ssdlab: job 'w': dataplacement=fdp: the drive does not place data" "$SSDLAB" run j.fio --drive tiny
job 'fdp=1\nplids=0,4\n'
expect_err 1 "^ssdlab: job 'w': option 'plids': fio: for w PID index 4 must be smaller than 4$" "$SSDLAB" run j.fio --drive tiny $F
job 'dataplacement=streams\nplids=1,9\n'
expect_err 1 "^ssdlab: job 'w': option 'plids': stream 9 is not one the drive has \\(its handles take streams 0\\.\\.3\\)" "$SSDLAB" run j.fio --drive tiny $F
printf '0, 1048576 ,1\n1048576,2097152,7\n' >s7.txt
job 'fdp=1\nplid_select=scheme\ndp_scheme=s7.txt\n'
expect_err 1 "^ssdlab: job 'w': option 'dp_scheme': entry 2's placement identifier 7 is not one the drive has \\(it lists 4\\)" "$SSDLAB" run j.fio --drive tiny $F

# what runs; the same run twice is the same run, random included
for opts in 'fdp=1\n' 'fdp=1\nplids=1-3\n' 'fdp=1\nplids=0,2\nplid_select=random\n' \
	'dataplacement=streams\nplids=1,3\n' 'dataplacement=fdp\nplid_select=scheme\ndp_scheme=s1.txt\n'; do
	printf '0,16777216,1\n16777216,33554432,2\n' >s1.txt
	job "$opts"
	expect_status 0 "$SSDLAB" run j.fio --drive tiny $F --output-format=terse
	cp out.txt a.txt
	expect_status 0 "$SSDLAB" run j.fio --drive tiny $F --output-format=terse
	cmp -s a.txt out.txt || fail "two runs of '$opts' differ"
done
# fdp=0 runs on a drive without FDP
job 'fdp=0\n'
expect_status 0 "$SSDLAB" run j.fio --drive tiny

# each write lands where its identifier says: the drive's usage per
# handle (host pages written) shows it
usage() { # job text, drive keys... -> "h0 h1 h2 h3"
	printf '%b' "$1" >u.fio
	shift
	"$SSDLAB" run u.fio --drive tiny "$@" --output-format=json --output u.json ||
		fail "run: exit $?"
	python3 -c 'import json; u = json.load(open("u.json"))["jobs"][-1]["ssdlab"]["fdp"]["handle_usage"]; print(" ".join(str(h["host_pages_written"]) for h in u))'
}
w='[w]\nrw=randwrite\nbs=4k\nio_size=4m\n'
got=$(usage "${w}fdp=1\nplids=1,3\n" $F)
[ "$got" = "0 512 0 512" ] || fail "plids=1,3 in turn: $got"
got=$(usage "${w}dataplacement=streams\nplids=2\n" $F)
[ "$got" = "0 0 1024 0" ] || fail "stream 2: $got"
got=$(usage "${w}fdp=1\nplids=0,2\nplid_select=random\n" $F)
echo "$got" | awk '{ exit !($2 == 0 && $4 == 0 && $1 + $3 == 1024 && $1 > 400 && $3 > 400) }' ||
	fail "random over 0 and 2: $got"
# the scheme by offset: 16 MiB to handle 1, the next 16 to 2, the rest
# to the default handle 0
printf '0,16777216,1\n16777216,33554432,2\n' >s1.txt
got=$(usage '[w]\nrw=write\nbs=64k\nsize=48m\nfdp=1\nplid_select=scheme\ndp_scheme=s1.txt\n' $F)
[ "$got" = "4096 4096 4096 0" ] || fail "scheme: $got"
# two reclaim groups: the list holds each handle in both, in turn
got=$(usage "${w}fdp=1\n" --set fdp=yes --set op=0.3 --set fdp_handles=2 --set fdp_groups=2)
[ "$got" = "512 512" ] || fail "two groups: $got"
