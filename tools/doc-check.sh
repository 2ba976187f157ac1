#!/bin/sh
# tools/scenario-doc.sh -- the outputs shown in docs/scenarios.md, re-run.
#
#   tools/scenario-doc.sh --check [FILE.md]   exit 1, with a diff naming the
#                                             command, if a shown output differs
#   tools/scenario-doc.sh --update [FILE.md]  rewrite the shown outputs in place
#
# FILE.md defaults to docs/scenarios.md.  Run from anywhere; the commands run
# from the repository root with the built ./ssdlab (`make` first; `make
# doc-check` does both).
#
# What is checked.  Every untagged code block (a line "```" opening it) is
# the output of a command, and the paragraph just above it says which:
#
#   - a paragraph (the one above the block, blank lines between them
#     allowed) ending in ':' whose last `./ssdlab ...` span (in
#     backquotes) is the command: the block is its whole standard output.
#     The command is split as a shell would split it (no expansion) and run
#     without a shell; it must exit 0.
#   - the paragraph "Parameters:" under a heading "## NAME": the block is
#     NAME's part of `./ssdlab scenario list` (from the line "NAME" to the
#     next scenario's line).
#
# A block with a tag ("```sh", "```ini", ...) is an example, not an output,
# and is left alone.  An untagged block above which no command can be found
# is an error: every number shown must come from a command.
#
# Wall-clock figures cannot be reproduced and are never compared:
#
#   - in a block, a match of one of WALL_PATTERNS below (e.g. "Simulated in
#     6.1 s of wall time") is masked before the comparison; --update keeps
#     a block whose only differences are masked ones unchanged;
#   - the table of scenarios whose header has a column "wall time ...": its
#     last column is never compared; --update fills it for every scenario
#     NAME whose default command, `./ssdlab scenario run NAME --out
#     /tmp/scn/NAME`, is shown in the file, with the time that run took here
#     ("under 1 s" below one second);
#   - prose quotes no wall times: the doc gives them in that table only.
#
# Runs happen one at a time (the wall times are of a run alone).
exec python3 - "$0" "$@" <<'PY'
import difflib, os, re, shlex, subprocess, sys, time

WALL_PATTERNS = [
    (re.compile(r"Simulated in [0-9.]+ s of wall time"),
     "Simulated in <wall> s of wall time"),
]

def usage():
    sys.stderr.write("usage: tools/scenario-doc.sh --check|--update [FILE.md]\n")
    sys.exit(2)

script, args = sys.argv[1], sys.argv[2:]
if not args or args[0] not in ("--check", "--update") or len(args) > 2:
    usage()
mode = args[0]
top = os.path.abspath(os.path.join(os.path.dirname(script), ".."))
doc = os.path.abspath(args[1]) if len(args) == 2 else os.path.join(top, "docs", "scenarios.md")
os.chdir(top)
if not os.access("./ssdlab", os.X_OK):
    sys.stderr.write("scenario-doc: ./ssdlab is not built (run make)\n")
    sys.exit(2)
rel = os.path.relpath(doc, top)

with open(doc) as f:
    lines = f.read().split("\n")

def mask(text):
    for rx, rep in WALL_PATTERNS:
        text = rx.sub(rep, text)
    return text

CMD = re.compile(r"`(\./ssdlab(?: [^`]*)?)`")

# The blocks: (open line, close line, command, scenario list section or None).
blocks, errors = [], []
section, i = None, 0
while i < len(lines):
    line = lines[i]
    if line.startswith("## "):
        section = line[3:].strip()
    if not line.startswith("```"):
        i += 1
        continue
    j = i + 1
    while j < len(lines) and not lines[j].startswith("```"):
        j += 1
    if j == len(lines):
        errors.append("%s:%d: code block never closed" % (rel, i + 1))
        break
    if line.strip() == "```":
        e = i
        while e > 0 and not lines[e - 1].strip():
            e -= 1
        k = e - 1
        while k >= 0 and lines[k].strip():
            k -= 1
        para = " ".join(l.strip() for l in lines[k + 1:e])
        cmds = CMD.findall(para)
        if para == "Parameters:" and section:
            blocks.append((i, j, "./ssdlab scenario list", section))
        elif para.endswith(":") and cmds:
            blocks.append((i, j, cmds[-1], None))
        else:
            errors.append("%s:%d: output block without a command above it "
                          "(a paragraph ending in ':' with a `./ssdlab ...` span, "
                          "or \"Parameters:\")" % (rel, i + 1))
    i = j + 1

outputs, walls = {}, {}

def run(cmd):
    if cmd not in outputs:
        argv = shlex.split(cmd)
        t0 = time.monotonic()
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        walls[cmd] = time.monotonic() - t0
        if p.returncode != 0:
            outputs[cmd] = None
            errors.append("`%s` exited %d:\n%s" % (cmd, p.returncode, p.stderr.rstrip()))
        else:
            outputs[cmd] = p.stdout.rstrip("\n").split("\n")
        sys.stderr.write("scenario-doc: %-72s %6.1f s\n" % (cmd, walls[cmd]))
    return outputs[cmd]

def list_section(out, name):
    for a, l in enumerate(out):
        if l == name:
            b = a + 1
            while b < len(out) and out[b].startswith(" "):
                b += 1
            return out[a:b]
    return None

failed, replace = 0, []
for (i, j, cmd, name) in blocks:
    out = run(cmd)
    if out is None:
        failed += 1
        continue
    if name is not None:
        out = list_section(out, name)
        if out is None:
            errors.append("%s:%d: no scenario '%s' in `%s`" % (rel, i + 1, name, cmd))
            failed += 1
            continue
        what = "`%s`, the part of %s" % (cmd, name)
    else:
        what = "`%s`" % cmd
    shown = lines[i + 1:j]
    if [mask(l) for l in shown] == [mask(l) for l in out]:
        continue
    failed += 1
    replace.append((i, j, out))
    if mode == "--check":
        sys.stdout.write("%s:%d: the output of %s differs:\n" % (rel, i + 2, what))
        sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
            shown, out, "%s:%d (shown)" % (rel, i + 2), what + " (now)", lineterm=""))

# The wall-time column of the table of scenarios, from the default runs.
def wall_table(lines):
    new, col = list(lines), None
    for n, l in enumerate(lines):
        cells = [c.strip() for c in l.strip().strip("|").split("|")] if l.startswith("|") else None
        if cells is None:
            col = None
            continue
        if col is None and "wall time" in cells[-1]:
            col = len(cells) - 1
            continue
        if col is None:
            continue
        m = re.match(r"\[([a-z0-9-]+)\]", cells[0])
        cmd = m and "./ssdlab scenario run %s --out /tmp/scn/%s" % (m.group(1), m.group(1))
        if cmd in walls and outputs.get(cmd) is not None:
            w = walls[cmd]
            cells[col] = "under 1 s" if w < 1 else "%.1f s" % w
            new[n] = "| " + " | ".join(cells) + " |"
    return new

if mode == "--update":
    for (i, j, out) in reversed(replace):
        lines[i + 1:j] = out
    lines = wall_table(lines)
    with open(doc + ".tmp", "w") as f:
        f.write("\n".join(lines))
    os.replace(doc + ".tmp", doc)
    sys.stderr.write("scenario-doc: %d of %d blocks rewritten in %s\n"
                     % (len(replace), len(blocks), rel))
for e in errors:
    sys.stderr.write("scenario-doc: " + e + "\n")
if errors:
    sys.exit(1)
if mode == "--check":
    sys.stderr.write("scenario-doc: %d of %d blocks differ from their commands in %s\n"
                     % (failed, len(blocks), rel))
    sys.exit(1 if failed else 0)
PY
