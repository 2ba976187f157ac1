#!/bin/sh
# tools/fuzz-dicts.sh -- the fuzz dictionaries of job files, written from
# the option table.
#
#   tools/fuzz-dicts.sh [--check] [PATH/TO/ssdlab]
#
# fuzz/jobfile.dict is what `ssdlab job doc --format=dict` prints (every
# option and alias of src/job/job_opts.c that ssdlab takes, the words of
# their values, values in fio's units, the job-file syntax); the job part
# of fuzz/sim.dict, from its line "# job options" to its end, is the same
# entries (the part before, the drive's, is fuzz/drive.dict's and stays
# as it is).  Without --check both files are rewritten; with --check
# nothing is written, and the exit status is 1, with a diff, if either
# differs from what the table gives (tests/cli/jobfile_dict.sh).  The
# binary defaults to the repository's ./ssdlab (`make` first).
set -eu
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
[ $# -le 1 ] || { echo "usage: tools/fuzz-dicts.sh [--check] [PATH/TO/ssdlab]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/ssdlab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" job doc --format=dict >"$tmp/jobfile.dict"
grep -q '^opt_rw="rw"$' "$tmp/jobfile.dict" ||
	{ echo "fuzz-dicts: $bin printed no job options" >&2; exit 1; }
grep -q '^# job options' "$top/fuzz/sim.dict" ||
	{ echo "fuzz-dicts: fuzz/sim.dict has no line '# job options'" >&2; exit 1; }
{
	sed -n '/^# job options/q;p' "$top/fuzz/sim.dict"
	echo "# job options: fuzz/jobfile.dict's entries (tools/fuzz-dicts.sh)"
	sed -n '/^opt_/,$p' "$tmp/jobfile.dict"
} >"$tmp/sim.dict"

rc=0
for d in jobfile sim; do
	if [ $check = 1 ]; then
		diff -u "$top/fuzz/$d.dict" "$tmp/$d.dict" >&2 ||
			{ echo "fuzz/$d.dict differs from the option table: run tools/fuzz-dicts.sh" >&2; rc=1; }
	else
		cp "$tmp/$d.dict" "$top/fuzz/$d.dict"
	fi
done
exit $rc
