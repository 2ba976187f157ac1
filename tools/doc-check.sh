#!/bin/sh
# tools/doc-check.sh -- the command outputs the docs show, re-run.
#
#   tools/doc-check.sh --check [FILE.md...]   exit 1, with a diff naming the
#                                             command, if a shown output differs
#   tools/doc-check.sh --update [FILE.md...]  rewrite the shown outputs in place
#
# The FILEs default to the docs that show outputs (DOCS below); run from
# anywhere; the commands run from the repository root with the built
# ./ssdlab (`make` first; `make doc-check` does both).
#
# What is checked.  Every untagged code block (a line "```" opening it) is
# the output of a command, and the paragraph just above it says which:
#
#   - a paragraph (the one above the block, blank lines between them
#     allowed) ending in ':' whose last `./ssdlab ...` span (in
#     backquotes) is the command: the block is its whole standard output.
#     The command is split as a shell would split it (no expansion) and run
#     without a shell; it must exit 0.  A paragraph ending in
#     "(an excerpt):" shows a part of it: the lines from the one that
#     starts as the block's first line does (up to its first digit).
#   - the paragraph "Parameters:" under a heading "## NAME": the block is
#     NAME's part of `./ssdlab scenario list` (from the line "NAME" to the
#     next scenario's line).
#
# A command with --markdown prints Markdown: its output is shown as it
# renders, not in a block -- the lines after such a paragraph, from its
# table's first row to the end of the paragraph after the table.
#
# A block with a tag ("```sh", "```ini", "```text"...) is an example, not an
# output, and is left alone.  An untagged block above which no command can
# be found is an error: every number shown must come from a command.
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
# Runs happen one at a time (the wall times are of a run alone), and a
# command shown twice runs once.  The default docs' commands take a few
# minutes together (the full calibration, the lifetime runs, the
# scenarios); docs whose figures come from runs of hours or from several
# runs put together in prose tables (docs/power-loss.md's) are not checked.
exec python3 - "$0" "$@" <<'PY'
import difflib, os, re, shlex, subprocess, sys, time

WALL_PATTERNS = [
    (re.compile(r"Simulated in [0-9.]+ s of wall time"),
     "Simulated in <wall> s of wall time"),
    (re.compile(r"^Wall: [0-9.]+ s$"), "Wall: <wall> s"),
]
DOCS = ["docs/scenarios.md", "docs/lifetime.md", "docs/calibration.md", "docs/accuracy.md",
        "docs/fill.md"]

def usage():
    sys.stderr.write("usage: tools/doc-check.sh --check|--update [FILE.md...]\n")
    sys.exit(2)

script, args = sys.argv[1], sys.argv[2:]
if not args or args[0] not in ("--check", "--update"):
    usage()
mode = args[0]
top = os.path.abspath(os.path.join(os.path.dirname(script), ".."))
docs = [os.path.abspath(a) for a in args[1:]] or [os.path.join(top, d) for d in DOCS]
os.chdir(top)
if not os.access("./ssdlab", os.X_OK):
    sys.stderr.write("doc-check: ./ssdlab is not built (run make)\n")
    sys.exit(2)

def mask(text):
    for rx, rep in WALL_PATTERNS:
        text = rx.sub(rep, text)
    return text

CMD = re.compile(r"`(\./ssdlab(?: [^`]*)?)`")
outputs, walls, errors = {}, {}, []

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
        sys.stderr.write("doc-check: %-72s %6.1f s\n" % (cmd, walls[cmd]))
    return outputs[cmd]

def list_section(out, name):
    for a, l in enumerate(out):
        if l == name:
            b = a + 1
            while b < len(out) and out[b].startswith(" "):
                b += 1
            return out[a:b]
    return None

def paragraph_above(lines, i):
    e = i
    while e > 0 and not lines[e - 1].strip():
        e -= 1
    k = e - 1
    while k >= 0 and lines[k].strip():
        k -= 1
    return " ".join(l.strip() for l in lines[k + 1:e])

def blocks_of(lines, rel):
    """(first, end, command, scenario section or None, kind) of each
    output: lines[first:end] is what is shown; kind is "whole",
    "excerpt" or "markdown"."""
    found, section, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip()
        if line.startswith("|") and i > 0 and not lines[i - 1].strip():
            para = paragraph_above(lines, i)
            cmds = CMD.findall(para)
            if para.endswith(":") and cmds and "--markdown" in cmds[-1].split():
                # the table, then the paragraph after it
                j = i
                while j < len(lines) and lines[j].startswith("|"):
                    j += 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                while j < len(lines) and lines[j].strip():
                    j += 1
                found.append((i, j, cmds[-1], None, "markdown"))
                i = j
                continue
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
            para = paragraph_above(lines, i)
            cmds = CMD.findall(para)
            if para == "Parameters:" and section:
                found.append((i + 1, j, "./ssdlab scenario list", section, "whole"))
            elif para.endswith("(an excerpt):") and cmds:
                found.append((i + 1, j, cmds[-1], None, "excerpt"))
            elif para.endswith(":") and cmds:
                found.append((i + 1, j, cmds[-1], None, "whole"))
            else:
                errors.append("%s:%d: output block without a command above it "
                              "(a paragraph ending in ':' with a `./ssdlab ...` span, "
                              "or \"Parameters:\")" % (rel, i + 1))
        i = j + 1
    return found

def excerpt(out, shown):
    """the lines of out from the one that starts as shown[0] does"""
    key = re.match(r"[^0-9]*", shown[0] if shown else "").group(0)
    for a, l in enumerate(out):
        if key and l.startswith(key):
            return out[a:a + len(shown)]
    return None

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

total_failed = total_blocks = 0
for doc in docs:
    rel = os.path.relpath(doc, top)
    with open(doc) as f:
        lines = f.read().split("\n")
    blocks = blocks_of(lines, rel)
    failed, replace = 0, []
    for (a, b, cmd, name, kind) in blocks:
        out = run(cmd)
        if out is None:
            failed += 1
            continue
        shown = lines[a:b]
        what = "`%s`" % cmd
        if name is not None:
            out = list_section(out, name)
            if out is None:
                errors.append("%s:%d: no scenario '%s' in `%s`" % (rel, a, name, cmd))
                failed += 1
                continue
            what = "`%s`, the part of %s" % (cmd, name)
        elif kind == "excerpt":
            part = excerpt(out, shown)
            if part is None:
                errors.append("%s:%d: no line of `%s` starts as the excerpt's first does"
                              % (rel, a + 1, cmd))
                failed += 1
                continue
            out, what = part, "`%s`, the excerpt" % cmd
        if [mask(l) for l in shown] == [mask(l) for l in out]:
            continue
        failed += 1
        replace.append((a, b, out))
        if mode == "--check":
            sys.stdout.write("%s:%d: the output of %s differs:\n" % (rel, a + 1, what))
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                shown, out, "%s:%d (shown)" % (rel, a + 1), what + " (now)", lineterm=""))
    if mode == "--update":
        for (a, b, out) in reversed(replace):
            lines[a:b] = out
        lines = wall_table(lines)
        with open(doc + ".tmp", "w") as f:
            f.write("\n".join(lines))
        os.replace(doc + ".tmp", doc)
        sys.stderr.write("doc-check: %d of %d outputs rewritten in %s\n"
                         % (len(replace), len(blocks), rel))
    elif failed:
        sys.stderr.write("doc-check: %d of %d outputs differ from their commands in %s\n"
                         % (failed, len(blocks), rel))
    total_failed += failed
    total_blocks += len(blocks)
for e in errors:
    sys.stderr.write("doc-check: " + e + "\n")
if errors:
    sys.exit(1)
if mode == "--check":
    sys.stderr.write("doc-check: %d of %d outputs differ from their commands\n"
                     % (total_failed, total_blocks))
    sys.exit(1 if total_failed else 0)
PY
