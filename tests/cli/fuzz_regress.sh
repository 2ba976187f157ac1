# The fuzz targets (fuzz/, docs/reliability.md) over every committed
# input: the seed corpora and the inputs that once found a defect
# (fuzz/regress/TARGET), without libFuzzer; each target checks its
# properties and aborts on a violation.
. "$TOP/tests/cli/lib.inc"
dir=$(dirname "$SSDLAB")
for t in jobfile drive trace serve sim; do
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
echo ok
