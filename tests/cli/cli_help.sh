# Help and usage errors: a scenario's --help shows its parameters; a
# usage error points to the help of the command it was made in, with no
# doubled parentheses.
. "$TOP/tests/cli/lib.inc"

"$SSDLAB" scenario run slc-cache --help >out.txt 2>err.txt || fail "scenario run NAME --help failed"
[ ! -s err.txt ] || fail "scenario run NAME --help wrote to stderr"
head -n 1 out.txt | grep -q '^usage: ssdlab scenario run slc-cache' || { cat out.txt >&2; fail "no usage line"; }
for p in size bs iodepth interval drop hold; do
	grep -Eq "^    $p +=" out.txt || { cat out.txt >&2; fail "slc-cache --help lacks parameter $p"; }
done
# --help before the name works too
"$SSDLAB" scenario run --help steady-state >out.txt || fail "--help before the name"
grep -q '^usage: ssdlab scenario run steady-state' out.txt || fail "--help before the name: wrong text"
# without a name: the general scenario help
"$SSDLAB" scenario run --help >out.txt || fail "scenario run --help"
grep -q '^usage: ssdlab scenario list' out.txt || fail "scenario run --help: general help"

# usage errors name the command's help
expect_err 2 "unknown option '--bogus'; see 'ssdlab run --help'$" "$SSDLAB" run --bogus
expect_err 2 "run needs a job file.*; see 'ssdlab run --help'$" "$SSDLAB" run
expect_err 2 "; see 'ssdlab drive --help'$" "$SSDLAB" drive frob
expect_err 2 "unknown scenario 'nope' \(accepted: steady-state, .*\); see 'ssdlab scenario --help'$" \
	"$SSDLAB" scenario run nope
expect_err 2 "; see 'ssdlab life --help'$" "$SSDLAB" life --bogus
expect_err 2 "unknown command 'frob'; see 'ssdlab --help'$" "$SSDLAB" frob
expect_err 2 "'sise' is neither a parameter of scenario slc-cache nor a drive key \(accepted parameters: size, bs, .*\); see 'ssdlab scenario run slc-cache --help'$" \
	"$SSDLAB" scenario run slc-cache --drive tiny --set sise=1 --out o

# no message has doubled or nested parentheses
for args in "run --bogus" "drive frob" "scenario frob" "scenario run nope"; do
	set +e
	"$SSDLAB" $args >/dev/null 2>err.txt
	set -e
	! grep -q '((\|))\|) (' err.txt || { cat err.txt >&2; fail "doubled parentheses: $args"; }
done
printf '[a]\nsize=3000\n' >p.fio
set +e
"$SSDLAB" run p.fio --drive tiny 2>err.txt
set -e
grep -q "size" err.txt && ! grep -q '(.*(.*).*)\|) (' err.txt || { cat err.txt >&2; fail "nested parentheses in a job error"; }
echo ok
