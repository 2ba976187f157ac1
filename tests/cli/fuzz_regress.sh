# The fuzz targets (fuzz/, docs/reliability.md) over every committed
# input: the seed corpora and the inputs that once found a defect
# (fuzz/regress/TARGET), without libFuzzer; each target checks its
# properties and aborts on a violation.  The dictionaries name every job
# option and drive key ssdlab takes.
. "$TOP/tests/cli/lib.inc"
dir=$(dirname "$SSDLAB")
for t in jobfile drive trace serve sim snapshot sweep; do
	bin="$dir/fuzz_regress_$t"
	[ -x "$bin" ] || fail "$bin was not built"
	set -- "$TOP"/fuzz/corpus/$t/*
	[ -e "$1" ] || fail "no seed corpus for $t"
	if ls "$TOP"/fuzz/regress/$t/* >/dev/null 2>&1; then
		set -- "$@" "$TOP"/fuzz/regress/$t/*
	fi
	"$bin" "$@" >out.txt 2>&1 || { cat out.txt >&2; fail "fuzz target $t on its committed inputs"; }
	grep -q "^$# inputs$" out.txt || fail "$t: $(cat out.txt)"
done
# the names in the first column of a doc's tables, up to the heading
# $1 (none: all)
names() {
	awk -v stop="$1" 'stop != "" && index($0, stop) == 1 { exit } /^\| `/ { print }' |
		cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`'
}
"$SSDLAB" job doc | names '## Not supported' >options.txt
"$SSDLAB" drive doc | names '' >keys.txt
[ "$(wc -l <options.txt)" -gt 300 ] || fail "job doc: $(wc -l <options.txt) options"
[ "$(wc -l <keys.txt)" -gt 60 ] || fail "drive doc: $(wc -l <keys.txt) keys"
for pair in options.txt:jobfile options.txt:sim keys.txt:drive keys.txt:sim; do
	dict="$TOP/fuzz/${pair#*:}.dict"
	sed -n 's/^[A-Za-z0-9_]*="\(.*\)"$/\1/p' "$dict" >words.txt
	missing=$(grep -vxFf words.txt "${pair%%:*}" | tr '\n' ' ')
	[ -z "$missing" ] || fail "fuzz/${pair#*:}.dict lacks $missing"
done
echo ok
