# Mistakes on the `run` command line, or a job that does not fit the
# drive: exit 2, one line on stderr saying what is wrong, and no run.
. "$TOP/tests/cli/lib.inc"

printf '[w]\nrw=randwrite\nbs=4k\nsize=4m\n' >j.fio

# --set without '=' (and with an empty key)
expect_err 2 "KEY=VALUE.*'capacity'" "$SSDLAB" run j.fio --drive tiny --set capacity
expect_err 2 "KEY=VALUE.*'=1'" "$SSDLAB" run j.fio --drive tiny --set =1
expect_err 2 "KEY=VALUE" "$SSDLAB" run j.fio --drive tiny --set=op
# --set of a key that does not exist: the key is named
expect_err 2 "unknown key 'capcity'" "$SSDLAB" run j.fio --drive tiny --set capcity=1g
expect_err 2 "unknown key 'frobnicate'" "$SSDLAB" run j.fio --drive tiny --set frobnicate=1
expect_err 2 "set: key 'op'" "$SSDLAB" run j.fio --drive tiny --set op=lots

# --output that cannot be written: nothing runs, nothing is written
expect_err 2 "cannot write 'nodir/out\.json'" \
	"$SSDLAB" run j.fio --drive tiny --output nodir/out.json
[ ! -e nodir ] || fail "--output created a directory"
mkdir adir
expect_err 2 "cannot write 'adir'" "$SSDLAB" run j.fio --drive tiny --output adir
expect_err 2 "cannot write '/nonexistent/x'" \
	"$SSDLAB" run j.fio --drive tiny --output-format=json --output /nonexistent/x

# a job larger than the drive: file, line and the key
printf '[big]\nrw=write\nbs=4k\nsize=128m\n' >big.fio
expect_err 2 "big\.fio:4: option 'size'.*capacity" "$SSDLAB" run big.fio --drive tiny
printf '[off]\nrw=write\noffset=60m\nsize=8m\n' >off.fio
expect_err 2 "off\.fio:4: option 'size'.*capacity" "$SSDLAB" run off.fio --drive tiny
# ... which fits a larger drive
expect_status 0 "$SSDLAB" run big.fio --drive tiny --set capacity=128m
# the capacity that counts is the one after --set
expect_err 2 "option 'size'.*capacity 96 MiB" "$SSDLAB" run big.fio --drive tiny --set capacity=96m

# --output-format other than normal or json, both spellings
expect_err 2 "output-format.*'xml'" "$SSDLAB" run j.fio --drive tiny --output-format=xml
expect_err 2 "output-format.*'xml'" "$SSDLAB" run j.fio --drive tiny --output-format xml
expect_err 2 "output-format.*''" "$SSDLAB" run j.fio --drive tiny --output-format=
# a bad format is found before anything is written
expect_err 2 "output-format" "$SSDLAB" run j.fio --drive tiny --output o.txt --output-format=xml
[ ! -e o.txt ] || fail "--output-format=xml: the output file was created"

# a drive that does not exist
expect_err 2 "unknown drive 'nosuch'" "$SSDLAB" run j.fio --drive nosuch
expect_err 2 "missing\.ini" "$SSDLAB" run j.fio --drive missing.ini
exit 0
