#!/bin/sh
# layer-calls.sh -- the calls between the modules of src/ against ssdlab's
# layers, read from the compiled objects; tools/check-layers.sh runs it.
#
# usage: tools/layer-calls.sh OBJDIR LAYER...
#
# The includes (what check-layers.sh reads in the sources) are not the whole
# story: an extern prototype in a .c file, or a function put in an ops table
# through a declaration outside its header, links two modules without an
# #include saying so.  The linker's view is exact: the symbol table of
# OBJDIR/src/X/Y.o (built from src/X/Y.c) names what the file defines (T,
# D, ...) and what it takes from elsewhere (U).  A U is a call or an
# address taken (a function put in a table, a table used) -- both bind the
# file to the one that defines the symbol.  Static functions have no
# symbol; they cannot be reached from another file anyway.
#
# Prints one line per violation, sorted:
#
#   A.c <-> B.c: a.c calls F..., b.c calls G...
#	two files of different folders of src/ that call each other (a
#	circle between modules, whatever the layer order says);
#   FILE: calls F of DEF: upward, LOW is below HIGH
#	a file of a lower layer calling a function defined in a higher one
#	(LAYER... is the order, bottom first, as check-layers.sh has it).
# A data symbol (an ops table, a list) reads "uses" instead of "calls".
# Exits 2 when an object is missing: build the library first (make
# check-layers does).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OBJDIR LAYER..." >&2; exit 2; }
objdir=$1
shift
order="$*"
case $objdir in /*) ;; *) objdir=$(pwd)/$objdir ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one line per symbol: FILE TYPE NAME, the files in order, their names sorted
for f in $(find src -mindepth 2 -maxdepth 2 -type f -name '*.c' | LC_ALL=C sort); do
	o=$objdir/${f%.c}.o
	[ -f "$o" ] || { echo "$0: no object $o for $f (build the library first)" >&2; exit 2; }
	LC_ALL=C nm -P "$o" | awk -v f="$f" 'NF >= 2 { print f, $2, $1 }' | LC_ALL=C sort -k3,3 >>"$tmp/syms"
done
[ -f "$tmp/syms" ] || exit 0

awk -v order="$order" '
function folder(f) { split(f, p, "/"); return p[2] }
function base(f) { n = split(f, p, "/"); return p[n] }
function rank(l,   i) { for (i = 1; i <= nlayers; i++) if (layers[i] == l) return i; return 0 }
# "x", "x and y", "x, y and z"
function join(s, n,   r, i) {
	r = s[1]
	for (i = 2; i <= n; i++) r = r (i == n ? " and " : ", ") s[i]
	return r
}
# what file a takes from file b: "a.c calls f and g and uses t"
function takes(a, b,   k, i, nf, nd, fs, ds, r) {
	k = a SUBSEP b
	nf = split(fns[k], fs, " ")
	nd = split(data[k], ds, " ")
	r = base(a)
	if (nf) r = r " calls " join(fs, nf)
	if (nd) r = r (nf ? " and" : "") " uses " join(ds, nd)
	return r
}
BEGIN { nlayers = split(order, layers, " ") }
$2 ~ /^[TWi]$/ { def[$3] = $1; isfn[$3] = 1; next }
$2 ~ /^[DBRCGSV]$/ { def[$3] = $1; next }
$2 ~ /^[Uwv]$/ { nref++; rfile[nref] = $1; rsym[nref] = $3 }
END {
	for (i = 1; i <= nref; i++) {
		a = rfile[i]; s = rsym[i]
		if (!(s in def)) continue	# the C library, a sanitizer
		b = def[s]
		fa = folder(a); fb = folder(b)
		if (fa == fb) continue
		k = a SUBSEP b
		if (isfn[s]) fns[k] = fns[k] " " s; else data[k] = data[k] " " s
		pairs[k] = 1
		ra = rank(fa); rb = rank(fb)
		if (ra && rb && ra < rb)
			printf "%s: %s %s of %s: upward, %s is below %s\n", a,
			    isfn[s] ? "calls" : "uses", s, b, fa, fb
	}
	for (k in pairs) {
		split(k, ab, SUBSEP)
		a = ab[1]; b = ab[2]
		if (a < b && ((b SUBSEP a) in pairs))
			printf "%s <-> %s: %s, %s\n", a, b, takes(a, b), takes(b, a)
	}
}' "$tmp/syms" | LC_ALL=C sort -u
