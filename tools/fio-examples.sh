#!/bin/sh
# How many of fio's own example job files run unchanged on ssdlab.
#
#   tools/fio-examples.sh [--markdown FILE] [DIR]
#
# DIR is the examples/ folder of a fio source tree (default:
# $FIO_SRC/examples, FIO_SRC defaulting to ./fio), from
#
#   git clone https://github.com/axboe/fio
#
# Each *.fio file runs with `ssdlab run FILE --drive D`, in a scratch
# directory (logs land there), with standard input empty and a wall-clock
# limit of $FIO_EXAMPLES_TIMEOUT seconds (default 180).  D is `tiny` first;
# a file refused only because its sizes do not fit that drive is tried
# again on `default` and then on the largest flash preset (`ssdlab
# drives`).  A file for a zoned device (zonemode=zbd without a zonesize:
# the zones are the device's) is tried on the same drives made zoned
# (`--set mapping=zone`, docs/zoned.md); a file whose writes carry
# placement identifiers (fdp=1, dataplacement) on the same drives with
# flexible data placement (`--set fdp=yes`, docs/fdp.md), where they can
# take its handles.
# Some examples take values from the environment, as fio's users must
# give them (`FIO_DIR=/mnt/gpu fio libcufile-cufile.fio`): the variables
# in EXAMPLE_ENV below are set for every run, to the kind of value each
# example's comments ask for, and listed in the Markdown.
# It prints one line per file -- "ok FILE (drive)", "refused FILE: the
# first error line" or "timeout FILE (drive)" -- and a summary; with
# --markdown FILE it also writes that summary and the remaining refusals
# as Markdown (docs/fio-examples.md; `make fio-examples`).
# Exit status 0 whatever the count; 2 for a usage error.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
SSDLAB=${SSDLAB:-$here/ssdlab}
limit=${FIO_EXAMPLES_TIMEOUT:-180}
md=
dir=
while [ $# -gt 0 ]; do
	case $1 in
	--markdown) [ $# -ge 2 ] || { echo "fio-examples.sh: --markdown needs a file" >&2; exit 2; }
		md=$2; shift 2 ;;
	--markdown=*) md=${1#--markdown=}; shift ;;
	-h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "fio-examples.sh: unknown option '$1'; see 'tools/fio-examples.sh --help'" >&2; exit 2 ;;
	*) [ -z "$dir" ] || { echo "fio-examples.sh: more than one folder: '$1'" >&2; exit 2; }
		dir=$1; shift ;;
	esac
done
[ -n "$dir" ] || dir=${FIO_SRC:-fio}/examples
if [ ! -d "$dir" ]; then
	echo "fio-examples.sh: no folder '$dir' (clone fio: git clone https://github.com/axboe/fio, then pass its examples/ folder)" >&2
	exit 2
fi
[ -x "$SSDLAB" ] || { echo "fio-examples.sh: no ssdlab binary at '$SSDLAB' (run make)" >&2; exit 2; }
dir=$(cd "$dir" && pwd)

# the presets to try, smallest first: tiny, default, then the largest
largest=$("$SSDLAB" drives 2>/dev/null | awk 'NR > 1 && $5 != "hdd" {
	v = $2; u = $3; m = (u == "TiB") ? 1024 * 1024 : (u == "GiB") ? 1024 : (u == "MiB") ? 1 : 0
	if (v * m > best) { best = v * m; name = $1 } } END { print name }')
drives="tiny default"
[ -n "$largest" ] && [ "$largest" != default ] && drives="$drives $largest"

# The drive keys of a mode: zoned, fdp, or none.
mode_keys() {
	case $1 in
	zoned) echo "--set mapping=zone" ;;
	fdp) echo "--set fdp=yes" ;;
	esac
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT INT TERM
# The environment fio's examples expect (see the header).
EXAMPLE_ENV="FIO_DIR=$scratch/run FIO_BS=4k FIO_IODEPTH=8 FIO_RW=randread
POOL=pool CONT=container GPU_DEV_IDS=0 S3_ID=id S3_KEY=key SSE_KEY=key
STORAGE_CLASS=STANDARD SWIFT_id=id uri=nbd://localhost"
results=$scratch/results
: >"$results"
total=0 ok=0
for f in "$dir"/*.fio; do
	[ -e "$f" ] || continue
	name=$(basename "$f")
	total=$((total + 1))
	status=refused msg= used= mode=
	for d in $drives; do
		while :; do
			rm -rf "$scratch/run"
			mkdir "$scratch/run"
			# shellcheck disable=SC2086
			(cd "$scratch/run" && env $EXAMPLE_ENV timeout "$limit" \
				"$SSDLAB" run "$f" --drive "$d" $(mode_keys "$mode") \
				</dev/null >/dev/null 2>"$scratch/err")
			rc=$?
			used=$d${mode:+, $mode}
			if [ $rc -eq 0 ]; then
				status=ok
				break 2
			fi
			if [ $rc -eq 124 ]; then
				status=timeout
				msg="no result within ${limit} s of wall time on $used"
				break 2
			fi
			msg=$(head -n 1 "$scratch/err" | sed "s|^ssdlab: ||; s|$dir/||g")
			[ -n "$msg" ] || msg="exit status $rc"
			case $msg in
			*"beyond the drive capacity"*|*"beyond the volume's capacity"*|\
			*"is not inside the drive"*|*"larger than the drive"*|\
			*"do not fit on the drive"*|*"past the end of the drive"*|\
			*"is smaller than zone size"*|*"key 'fdp_handles'"*)
				continue 2 ;; # the next, larger drive
			*"zone size is mandatory"*|*"which has no zone size"*)
				# a zoned device's job: this drive again, zoned
				if [ -z "$mode" ]; then
					mode=zoned
					continue
				fi ;;
			*"the drive does not place data"*)
				# a job with placement: this drive with FDP
				if [ -z "$mode" ]; then
					mode=fdp
					continue
				fi ;;
			esac
			break 2
		done
	done
	case $status in
	ok) ok=$((ok + 1)); echo "ok       $name ($used)" ;;
	timeout) echo "timeout  $name ($used)" ;;
	*) echo "refused  $name: $msg" ;;
	esac
	printf '%s\t%s\t%s\t%s\n' "$status" "$name" "$used" "$msg" >>"$results"
done
on() { awk -F '\t' -v d="$1" '$1 == "ok" && $3 == d' "$results" | wc -l | tr -d ' '; }
counts=
for d in $drives; do counts="$counts${counts:+, }$d: $(on "$d")"; done
for m in zoned fdp; do
	for d in $drives; do
		n=$(on "$d, $m")
		[ "$n" -eq 0 ] || counts="$counts, $d $m: $n"
	done
done
summary="$ok of $total example job files run unchanged ($counts)"
echo "$summary"

if [ -n "$md" ]; then
	rev=$(git -C "$dir" describe --tags --always 2>/dev/null || :)
	at=
	[ -n "$rev" ] && at=", fio tree at \`$rev\`"
	{
		echo "# fio's example job files on ssdlab"
		echo
		echo "<!-- Generated by tools/fio-examples.sh (make fio-examples); do not edit. -->"
		echo
		echo "fio ships about a hundred example job files (\`examples/\` of"
		echo "\`git clone https://github.com/axboe/fio\`).  \`tools/fio-examples.sh\`"
		echo "runs each, unchanged, with \`ssdlab run\` on the \`tiny\` drive, and"
		echo "retries a file whose sizes do not fit on \`default\` and then on the"
		echo "largest flash preset; a job file for a zoned device (\`zonemode=zbd\`"
		echo "without a \`zonesize\`) runs on the same drives made zoned"
		echo "(\`--set mapping=zone\`, docs/zoned.md), and one whose writes carry"
		echo "placement identifiers (\`fdp=1\`) on the same drives with flexible"
		echo "data placement (\`--set fdp=yes\`, docs/fdp.md).  Each run has ${limit} s of"
		echo "wall time.  Re-run it with"
		echo "\`make fio-examples FIO_SRC=/path/to/fio\`."
		echo
		echo "**$summary**$at."
		echo
		echo "Examples that read values from the environment run with the"
		echo "variables their comments ask for, set as fio's user would set them:"
		echo
		echo "    $(echo $EXAMPLE_ENV | sed "s|$scratch|SCRATCH|")"
		echo
		echo "A refusal is an option or value ssdlab does not support (yet), or"
		echo "an example that fio itself could not run as it stands: a placeholder"
		echo "to fill in (\`port=[port]\`), a drive larger than any preset."
		echo
		echo "## Not running unchanged"
		echo
		echo "| File | Result | First error |"
		echo "|---|---|---|"
		awk -F '\t' '$1 != "ok" { m = $4; gsub(/\|/, "\\|", m); printf "| `%s` | %s | %s |\n", $2, $1, m }' "$results"
		echo
		echo "## Running unchanged"
		echo
		awk -F '\t' '$1 == "ok" { printf "%s`%s` (%s)", n++ ? ", " : "", $2, $3 } END { if (n) print "." }' "$results"
	} >"$md"
	echo "wrote $md"
fi
exit 0
