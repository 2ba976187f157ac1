# The manual page: tools/man.py writes ssdlab(1) from the binary's --help
# texts and option tables; it renders without a warning (groff -ww, and
# mandoc -Tlint where installed) and names every drive key and every job
# option of the tables (docs/options.md, docs/jobfiles.md).
. "$TOP/tests/cli/lib.inc"

need groff python3
python3 "$TOP/tools/man.py" "$SSDLAB" >ssdlab.1 || fail "tools/man.py failed"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS 'DRIVE KEYS' 'JOB OPTIONS' \
	 'EXIT STATUS' FILES 'SEE ALSO'; do
	grep -q "^\.SH \"*$s\"*\$" ssdlab.1 || fail "no section $s"
done
grep -q '^\.BR fio (1)' ssdlab.1 || fail "SEE ALSO lacks fio(1)"

groff -man -Tutf8 -ww -z ssdlab.1 2>warn.txt || fail "groff failed"
[ ! -s warn.txt ] || { cat warn.txt >&2; fail "groff warns"; }
if have mandoc; then
	# the date comes from the last commit; a tree without one has none
	mandoc -Tlint -W warning ssdlab.1 >lint.txt 2>&1 ||
		{ cat lint.txt >&2; fail "mandoc -Tlint warns"; }
else
	skip_part "mandoc is not installed: no mandoc -Tlint"
fi

# every name of the tables, as a word of the rendered page
groff -man -Tascii -P-cbou ssdlab.1 2>/dev/null >page.txt
"$SSDLAB" drive doc >options.md
"$SSDLAB" job doc >jobfiles.md
python3 - <<'EOF2' || fail "names missing from the page"
import re, sys
page = open("page.txt").read()
words = set(re.findall(r"[A-Za-z0-9_][A-Za-z0-9_+-]*", page))
def table_names(path, only=None):
    names, section = [], None
    for ln in open(path):
        m = re.match(r"^#+ (.*)", ln)
        if m:
            section = m.group(1).strip()
        elif ln.startswith("| `") and (only is None or section == only):
            names += re.findall(r"`([^`]+)`", ln.split(" | ")[0])
    return names
keys = table_names("options.md", "Keys")
opts = table_names("jobfiles.md")
assert len(keys) > 40 and len(opts) > 250, (len(keys), len(opts))
missing = [n for n in keys + opts if n not in words]
for n in missing:
    print("missing:", n, file=sys.stderr)
sys.exit(1 if missing else 0)
EOF2
