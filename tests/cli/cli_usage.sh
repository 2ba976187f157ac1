# Usage: every command answers --help with its usage on stdout and exit 0;
# a mistake on the command line exits 2 with one line on stderr; --version.
. "$TOP/tests/cli/lib.inc"

# help on stdout, nothing on stderr, exit 0
help_ok() {
	set +e
	"$SSDLAB" "$@" >out.txt 2>err.txt
	got=$?
	set -e
	[ "$got" -eq 0 ] || { cat out.txt err.txt >&2; fail "exit $got, wanted 0: ssdlab $*"; }
	[ ! -s err.txt ] || { cat err.txt >&2; fail "help wrote to stderr: ssdlab $*"; }
	head -n 1 out.txt | grep -q '^usage: ssdlab' ||
		{ cat out.txt >&2; fail "no usage line: ssdlab $*"; }
}

# top level
for h in --help -h help; do
	help_ok "$h"
	for c in run drives 'drive show' 'drive doc' 'job doc' accuracy --version; do
		grep -q "ssdlab $c" out.txt || fail "top-level $h does not mention '$c'"
	done
done

# each command
help_ok run --help
for o in --drive --set --seed --output-format --output --check; do
	grep -q -- "$o" out.txt || fail "run --help does not mention $o"
done
help_ok run -h
help_ok run j.fio --help      # --help wins wherever it is
help_ok drives --help
help_ok drive --help
grep -q 'drive show' out.txt || fail "drive --help: no 'drive show'"
grep -q 'drive doc' out.txt || fail "drive --help: no 'drive doc'"
help_ok drive show --help
help_ok job --help
help_ok accuracy --help
grep -q -- '--quick' out.txt || fail "accuracy --help does not mention --quick"

# --version
expect_status 0 "$SSDLAB" --version
grep -Eq '^ssdlab [0-9]+\.[0-9]+\.[0-9]+$' out.txt || { cat out.txt >&2; fail "--version"; }
[ "$(wc -l <out.txt)" -eq 1 ] || fail "--version: one line"

# unknown commands and options: exit 2, one line on stderr naming them
expect_err 2 "unknown command 'frob'" "$SSDLAB" frob
expect_err 2 "'--frob'" "$SSDLAB" --frob
printf '[w]\nrw=write\nsize=1m\n' >j.fio
expect_err 2 "unknown option '--frob'" "$SSDLAB" run j.fio --frob
expect_err 2 "unknown option '--frob'" "$SSDLAB" run --frob j.fio
expect_err 2 "unknown option '--frob'" "$SSDLAB" drive show tiny --frob
expect_err 2 "unknown option '--frob'" "$SSDLAB" accuracy --frob
expect_err 2 "unknown drive command 'frob'" "$SSDLAB" drive frob
expect_err 2 "'extra'" "$SSDLAB" drives extra
expect_err 2 "job doc" "$SSDLAB" job frob
expect_err 2 "job doc" "$SSDLAB" job

# missing arguments
expect_err 2 "run needs a job file" "$SSDLAB" run
expect_err 2 "run needs a job file" "$SSDLAB" run --drive tiny --seed 3
# several job files run one after another (docs/snapshots.md); standard
# input is read once
expect_err 2 "standard input \\('-'\\) can be read once" "$SSDLAB" run - j.fio -
expect_err 2 "drive show needs" "$SSDLAB" drive show
expect_err 2 "drive" "$SSDLAB" drive
for o in --drive --set --seed --output-format --output --check; do
	expect_err 2 "'$o' needs a value" "$SSDLAB" run j.fio "$o"
done
expect_err 2 "'--seed' needs a value" "$SSDLAB" accuracy --seed
expect_err 2 "'--seed' needs a number, got 'x'" "$SSDLAB" run j.fio --seed x
expect_err 2 "'--seed' needs a number" "$SSDLAB" run j.fio --seed=-1
expect_err 2 "'--check' needs a number" "$SSDLAB" run j.fio --check=abc
expect_err 2 "cannot open job file" "$SSDLAB" run nosuch.fio --drive tiny

# the docs commands print Markdown
expect_status 0 "$SSDLAB" drive doc
head -n 1 out.txt | grep -q '^# ' || fail "drive doc: no Markdown title"
expect_status 0 "$SSDLAB" job doc
head -n 1 out.txt | grep -q '^# ' || fail "job doc: no Markdown title"
exit 0
