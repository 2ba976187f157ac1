#!/bin/sh
# check-layers.sh -- the includes of the sources, and the calls between
# the modules of src/, against ssdlab's layers.
#
# usage: tools/check-layers.sh [--allow FILE] [--objects DIR] [--sizes]
#
# Reads every #include of src/**, cli/, nbdkit/, fuzz/, bench/, tests/unit/, examples/ and
# include/ and prints one line per violation, sorted:
#
#   FILE: includes "HEADER": WHY
#
# The rules:
#  (a) a file of src/LAYER/ includes headers of its own folder or of lower
#      layers only, in the order
#          base < stats < nand < ftl < hdd < machine < trace < job < result < run
#          < report < methods < serve < sweep < api
#      (cli/, nbdkit/, fuzz/, bench/ and tests/unit/ stand above them all);
#  (b) a module's private header NAME_int.h is included only by the .c
#      files (and the other private headers) of its own folder;
#      tests/unit/FOLDER/ counts as inside src/FOLDER/;
#  (c) examples/*.c include nothing but <ssdlab.h> and the C library;
#  (d) the public header include/ssdlab.h includes only the C library, so
#      that it can be installed alone; that is also why any file may
#      include it (it brings no layer with it).
# A quoted include is looked up as the compiler does: beside the file,
# then in include/, src/ and tests/unit/ (the Makefile's -I order); one
# found nowhere is a violation too.
#
# With --objects DIR (the build directory: DIR/src/X/Y.o compiled from
# src/X/Y.c), the calls are checked too, from the objects' symbol tables
# (tools/layer-calls.sh, which says how), one line per violation:
#
#   A.c <-> B.c: a.c calls F, b.c calls G
#   FILE: calls F of DEF: upward, LOW is below HIGH
#
#  (e) no two files of different folders of src/ call each other (a
#      circle between modules that the includes may not show: a prototype
#      written in the .c file, a function put in an ops table);
#  (f) no file of src/ calls a function defined in a higher layer.
# make check-layers builds the library's objects and passes --objects.
#
# With --sizes, the house's proportions too:
#
#   FILE: N lines, above 2000
#   src/X/: N of the M lines of src/ (P%), above 25%
#
#  (g) no source file of src/, cli/ or nbdkit/ holds more than 2,000
#      lines (split it by what it does);
#  (h) no folder of src/ holds more than a quarter of src/'s lines (a
#      room that holds several concepts; give each its folder).
#
# Without --allow: exit 1 if there is any violation.  With --allow FILE
# (one violation per line, as printed; # comments): the violations listed
# there are known and counted, only new ones are printed and fail; listed
# ones that no longer occur are named so that the list can shrink.
set -eu
usage() { echo "usage: $0 [--allow FILE] [--objects DIR] [--sizes]" >&2; exit 2; }
allow=
objects=
sizes=0
while [ $# -ge 1 ]; do
	if [ "$1" = --sizes ]; then
		sizes=1
		shift
		continue
	fi
	[ $# -ge 2 ] || usage
	case $1 in
	--allow) allow=$2 ;;
	--objects) objects=$2 ;;
	*) usage ;;
	esac
	shift 2
done
allow_path=$allow
case $allow in ''|/*) ;; *) allow_path=$(pwd)/$allow ;; esac
[ -z "$allow" ] || [ -f "$allow_path" ] || { echo "$0: no file $allow" >&2; exit 2; }
case $objects in ''|/*) ;; *) objects=$(pwd)/$objects ;; esac
[ -z "$objects" ] || [ -d "$objects" ] || { echo "$0: no directory $objects" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

ORDER="base stats nand ftl hdd machine trace job result run report methods serve sweep api"
# the C library's headers an example may use: C11's and POSIX's basics
CLIB="assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h
limits.h locale.h math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h
stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h tgmath.h
threads.h time.h uchar.h wchar.h wctype.h strings.h unistd.h fcntl.h
sys/types.h sys/stat.h sys/time.h"

rank() { # rank LAYER: its place in ORDER from 1, 0 if not in it
	r=0
	for l in $ORDER; do
		r=$((r + 1))
		[ "$l" = "$1" ] && { echo $r; return; }
	done
	echo 0
}

# the folder a file counts as inside: src/X for src/X/... and tests/unit/X/...
home() {
	case $1 in
	src/*/*) echo "src/$(echo "$1" | cut -d/ -f2)" ;;
	tests/unit/*/*) echo "src/$(echo "$1" | cut -d/ -f3)" ;;
	*) dirname "$1" ;;
	esac
}

resolve() { # resolve FILE HEADER: the header's path from the top, or nothing
	d=$(dirname "$1")
	for dir in "$d" include src tests/unit; do
		if [ -f "$dir/$2" ]; then
			# normalise dir/../x
			echo "$dir/$2" | sed -e 's|^\./||' -e ':a' -e 's|[^/]*/\.\./||' -e 'ta'
			return
		fi
	done
}

check_file() { # check_file FILE: one line per violation on stdout
	f=$1
	grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$f" |
	sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"][^>"]*[>"]).*/\1/' |
	while IFS= read -r inc; do
		name=$(echo "$inc" | sed -E 's/^[<"](.*)[>"]$/\1/')
		case $inc in
		\<*)	# angle brackets: the system's headers, or <ssdlab.h>
			case $f in
			examples/*|include/*)
				[ "$name" = ssdlab.h ] && [ "${f#include/}" = "$f" ] && continue
				ok=0
				for h in $CLIB; do [ "$h" = "$name" ] && ok=1; done
				[ $ok = 1 ] && continue
				case $f in
				examples/*) echo "$f: includes $inc: an example includes only <ssdlab.h> and the C library" ;;
				*) echo "$f: includes $inc: the public header includes only the C library" ;;
				esac ;;
			esac
			continue ;;
		esac
		case $f in
		examples/*)
			echo "$f: includes $inc: an example includes only <ssdlab.h> and the C library"
			continue ;;
		include/*)
			echo "$f: includes $inc: the public header includes only the C library"
			continue ;;
		esac
		path=$(resolve "$f" "$name")
		if [ -z "$path" ]; then
			echo "$f: includes $inc: no such header beside it or in include/, src/, tests/unit/"
			continue
		fi
		# (b) private headers
		case $path in
		*_int.h)
			if [ "$(home "$f")" != "$(home "$path")" ]; then
				echo "$f: includes $inc: private header of $(home "$path")/ included from outside it"
			else
				case $f in
				*.c|*_int.h) ;;
				*) echo "$f: includes $inc: private header included by a public header (only .c files may)" ;;
				esac
			fi ;;
		esac
		# (a) the layer order, for files of src/
		case $f in src/*/*) ;; *) continue ;; esac
		case $path in src/*/*) ;; *) continue ;; esac
		from=$(echo "$f" | cut -d/ -f2)
		to=$(echo "$path" | cut -d/ -f2)
		[ "$from" = "$to" ] && continue
		rf=$(rank "$from")
		rt=$(rank "$to")
		if [ "$rf" = 0 ]; then
			echo "$f: includes $inc: src/$from/ is not a layer (base < stats < ... < api)"
		elif [ "$rt" = 0 ]; then
			echo "$f: includes $inc: src/$to/ is not a layer (base < stats < ... < api)"
		elif [ "$rt" -gt "$rf" ]; then
			echo "$f: includes $inc: upward, $from is below $to"
		fi
	done
}

files=$(find src cli nbdkit fuzz bench tests/unit examples include -type f \
	\( -name '*.c' -o -name '*.h' \) 2>/dev/null | LC_ALL=C sort)
found=$(for f in $files; do check_file "$f"; done | LC_ALL=C sort -u)
if [ -n "$objects" ]; then
	# (e) and (f); a missing object stops the check (exit 2)
	calls=$(sh tools/layer-calls.sh "$objects" $ORDER) || exit 2
	found=$(printf '%s\n%s\n' "$found" "$calls" | grep -v '^$' | LC_ALL=C sort -u || true)
fi
if [ "$sizes" = 1 ]; then
	# (g) and (h)
	big=$(find src cli nbdkit -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null |
	      LC_ALL=C sort | xargs wc -l | awk '$2 != "total" && $1 > 2000 {
		print $2 ": " $1 " lines, above 2000" }')
	total=$(find src -type f \( -name '*.c' -o -name '*.h' \) -exec cat {} + | wc -l)
	wide=$(for d in src/*/; do
		n=$(find "$d" -type f \( -name '*.c' -o -name '*.h' \) -exec cat {} + | wc -l)
		awk -v d="$d" -v n="$n" -v t="$total" 'BEGIN { if (t && 4 * n > t)
			printf "%s: %d of the %d lines of src/ (%.0f%%), above 25%%\n",
			       d, n, t, 100 * n / t }'
	done)
	found=$(printf '%s\n%s\n%s\n' "$found" "$big" "$wide" | grep -v '^$' | LC_ALL=C sort -u || true)
fi

if [ -z "$allow" ]; then
	[ -n "$found" ] && echo "$found"
	n=$(printf '%s' "$found" | grep -c . || true)
	echo "check-layers: $n violations"
	[ "$n" -eq 0 ]
	exit
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$found" | grep -v '^$' >"$tmp/found" || true
grep -v -e '^#' -e '^[[:space:]]*$' "$allow_path" | LC_ALL=C sort -u >"$tmp/known" || true
LC_ALL=C comm -23 "$tmp/found" "$tmp/known" >"$tmp/new"
LC_ALL=C comm -13 "$tmp/found" "$tmp/known" >"$tmp/gone"
nfound=$(wc -l <"$tmp/found")
nnew=$(wc -l <"$tmp/new")
cat "$tmp/new"
sed "s|^|no longer occurs (remove it from $allow): |" "$tmp/gone"
echo "check-layers: $((nfound - nnew)) known violations ($allow), $nnew new"
[ "$nnew" -eq 0 ]
