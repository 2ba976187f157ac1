# The fuzz dictionary of job files is written from the option table:
# `ssdlab job doc --format=dict` names every option and alias of the
# table that ssdlab takes (those of `ssdlab job doc` outside "Not
# supported") and the words of their values, and fuzz/jobfile.dict and
# the job part of fuzz/sim.dict are what it prints (tools/fuzz-dicts.sh
# --check), so an option added to the table and not to the dictionaries
# fails here.  (tests/cli/man.sh checks the manual page the same way.)
. "$TOP/tests/cli/lib.inc"

"$SSDLAB" job doc --format=dict >dict.txt || fail "job doc --format=dict"
"$SSDLAB" job doc >doc.md
"$SSDLAB" job doc --format=md >doc2.md || fail "job doc --format=md"
cmp -s doc.md doc2.md || fail "--format=md is not the Markdown of job doc"
expect_err 2 "unknown format 'x'" "$SSDLAB" job doc --format=x

# the options of the doc's tables, up to "Not supported", are the
# dictionary's opt_ entries; the refused ones are not among them
awk '/^## Not supported/ { exit } /^\| `/ { print }' doc.md |
	cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`' | sort >doc-names.txt
sed -n 's/^opt_[A-Za-z0-9_]*="\(.*\)"$/\1/p' dict.txt | sort >dict-names.txt
[ "$(wc -l <doc-names.txt)" -gt 300 ] || fail "job doc: $(wc -l <doc-names.txt) options"
diff doc-names.txt dict-names.txt >&2 || fail "the dictionary's options are not the table's"
awk '/^## Not supported/ { on = 1 } on && /^\| `/ { print }' doc.md |
	cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`' >unsup.txt
[ -s unsup.txt ] || fail "no refused options in job doc"
! grep -xFf unsup.txt dict-names.txt || fail "refused options in the dictionary"
# every word of an OT_WORD row (rw_sequencer) and of a choice (cmd_type)
for w in sequential identical nvme bsg; do
	grep -q "^word_$w=\"$w\"\$" dict.txt || fail "no word $w"
done
# every entry is NAME="VALUE", as libFuzzer reads it
grep -v '^#' dict.txt | grep -v '^$' | grep -Ev '^[A-Za-z0-9_]+=".*"$' &&
	fail "a line of the dictionary is not an entry"

# the committed dictionaries are what the table gives
sh "$TOP/tools/fuzz-dicts.sh" --check "$SSDLAB" >out.txt 2>&1 ||
	{ cat out.txt >&2; fail "fuzz/jobfile.dict or fuzz/sim.dict is not the table's (tools/fuzz-dicts.sh)"; }
echo ok
