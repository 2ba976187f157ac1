#!/usr/bin/env python3
"""Write the manual page ssdlab(1) to standard output.

usage: tools/man.py [PATH/TO/ssdlab]

Everything on the page comes from the binary itself, so the page cannot
drift from the tool: `ssdlab --help` and `ssdlab COMMAND --help` give
NAME, SYNOPSIS, DESCRIPTION, COMMANDS and EXIT STATUS; `ssdlab drive doc`
and `ssdlab job doc` (the Markdown of docs/options.md and docs/jobfiles.md,
printed from the option tables) give DRIVE KEYS and JOB OPTIONS;
`ssdlab scenario list` the scenarios.  The help texts are laid out in a
fixed shape (usage lines, paragraphs, option lines "  --opt ARG   text"
with continuation lines under the text), which is all this reads.

The date on the page is $SOURCE_DATE_EPOCH's, else the last commit's
(a build of the same tree writes the same page), else none.
"""
import os
import re
import subprocess
import sys
import time

SSDLAB = sys.argv[1] if len(sys.argv) > 1 else "./ssdlab"


def run(*args):
    return subprocess.run([SSDLAB, *args], check=True, capture_output=True,
                          text=True).stdout


# ---- roff text ----

def esc(s):
    """Plain text to roff: backslashes, and dashes that start an option
    or a negative number are minus signs (\\-), as man pages write them."""
    s = s.replace("\\", "\\e")
    s = re.sub(r"(?<![\w])-", r"\\-", s)
    return s


def line(s):
    """A text line that cannot be taken for a request."""
    return "\\&" + s if s[:1] in (".", "'") else s


def md(s):
    """A Markdown span to roff: `code` and **bold** in bold, links as
    their text, the rest escaped."""
    out = []
    pos = 0
    for m in re.finditer(r"`([^`]*)`|\*\*(.+?)\*\*|\[([^\]]*)\]\([^)]*\)", s):
        out.append(esc(s[pos:m.start()]))
        if m.group(1) is not None:
            out.append("\\fB" + esc(m.group(1)) + "\\fR")
        elif m.group(2) is not None:
            out.append("\\fB" + esc(m.group(2)) + "\\fR")
        else:
            out.append(esc(m.group(3)))
        pos = m.end()
    out.append(esc(s[pos:]))
    return "".join(out)


def bold_opt(spec):
    """'--drive NAME|FILE.ini' -> bold option, italic argument."""
    parts = spec.split(None, 1)
    s = "\\fB" + esc(parts[0]) + "\\fR"
    if len(parts) > 1:
        s += " \\fI" + esc(parts[1]) + "\\fR"
    return s


# ---- the help texts ----

OPT_RE = re.compile(r"^  (-\S.*?|ssdlab(?: \S+)*?(?: \S+)?)(?:\s{2,}(\S.*))?$")


def split_help(text):
    """A help text -> (usage lines, body lines)."""
    lines = text.rstrip("\n").split("\n")
    usage = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("usage: "):
            usage.append(ln[len("usage: "):].strip())
        elif usage and ln.startswith(" ") and ln.strip().startswith("ssdlab"):
            usage.append(ln.strip())
        elif usage and ln.startswith(" ") and ln.strip().startswith("["):
            usage[-1] += " " + ln.strip()
        else:
            break
        i += 1
    return usage, lines[i:]


def body_roff(lines, labels=()):
    """Help body -> roff: paragraphs, and option or command lists
    ("  --opt ARG   text" with continuation lines) as .TP items; so are
    lines "LABEL:  text" for the subcommand words in labels."""
    out = []
    para = []
    item = None  # [spec, [text...]]
    text_col = 0

    def flush():
        nonlocal para, item
        if para:
            out.append(".PP")
            out.extend(line(esc(p)) for p in para)
            para = []
        if item:
            out.append(".TP")
            out.append(bold_opt(item[0]) if item[0].startswith("-")
                       else "\\fB" + esc(item[0]) + "\\fR")
            out.extend(line(esc(t)) for t in item[1])
            item = None

    for ln in lines:
        if not ln.strip():
            flush()
            continue
        m = re.match(r"^  (\S(?:\S| (?! ))*)(\s{2,})(\S.*)$", ln)
        indent = len(ln) - len(ln.lstrip())
        if item and indent >= 10 and indent >= text_col - 2:
            item[1].append(ln.strip())
            continue
        if m and (m.group(1).startswith("-") or m.group(1).startswith("ssdlab")):
            flush()
            item = [m.group(1), [m.group(3)]]
            text_col = m.start(3)
            continue
        lm = re.match(r"^(\w+):\s+(\S.*)$", ln)
        if lm and lm.group(1) in labels:
            flush()
            item = [lm.group(1), [lm.group(2)]]
            text_col = lm.start(2)
            continue
        if item:
            flush()
        para.append(ln.strip())
    flush()
    return out


def synopsis_line(u):
    """'ssdlab run JOB.fio [options]' -> command words bold, rest roman."""
    words = u.split()
    n = 1
    while n < len(words) and re.fullmatch(r"[a-z][a-z|]*", words[n]):
        n += 1
    head = " ".join(words[:n])
    rest = " ".join(words[n:])
    return "\\fB" + esc(head) + "\\fR" + (" " + esc(rest) if rest else "")


# ---- the Markdown references ----

def md_sections(text):
    """Markdown -> list of (level, heading, lines)."""
    secs = [(0, "", [])]
    for ln in text.split("\n"):
        m = re.match(r"^(#+) (.*)$", ln)
        if m:
            secs.append((len(m.group(1)), m.group(2), []))
        else:
            secs[-1][2].append(ln)
    return secs


def md_paragraphs(lines):
    paras, cur = [], []
    for ln in lines:
        if ln.startswith("<!--"):
            continue
        if not ln.strip():
            if cur:
                paras.append(" ".join(cur))
            cur = []
        else:
            cur.append(ln.strip())
    if cur:
        paras.append(" ".join(cur))
    return [p for p in paras if not p.startswith("|")]


def md_table(lines):
    """Rows of the first Markdown table in lines (header row skipped)."""
    rows = []
    for ln in lines:
        if not ln.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in ln.strip().strip("|").split(" | ")]
        if set(ln.replace("|", "").strip()) <= set("-: "):
            continue
        rows.append(cells)
    return rows[1:]


def names(cell):
    """'`rw`, `readwrite`' -> ['rw', 'readwrite']."""
    return re.findall(r"`([^`]+)`", cell)


def drive_keys(doc):
    out = []
    secs = md_sections(doc)
    intro = [p for p in md_paragraphs(secs[1][2])
             if not p.startswith("Generated")]
    for p in intro:
        out += [".PP", line(md(p))]
    for lvl, head, lines in secs:
        if head == "Keys":
            for key, typ, dflt, rng, unit, meaning in md_table(lines):
                out.append(".TP")
                out.append("\\fB" + esc(names(key)[0]) + "\\fR")
                out.append(line(md(meaning)))
                out.append(".br")
                out.append(line(md("%s, default %s; range: %s; unit: %s."
                                   % (typ, dflt, rng, unit))))
    out += more(secs, "ssdlab drive doc", "docs/options.md", {"Keys"})
    return out


def more(secs, cmd, path, skip):
    """A pointer to the sections of a reference the page leaves out."""
    heads = [h for lvl, h, _ in secs if lvl == 2 and h not in skip]
    if not heads:
        return []
    return [".PP", "More in \\fB%s\\fR (%s): %s." % (esc(cmd), esc(path),
                                                   md("; ".join(heads)))]


def job_options(doc):
    out = []
    secs = md_sections(doc)
    for p in md_paragraphs(secs[1][2]):
        out += [".PP", line(md(p))]
    for lvl, head, lines in secs:
        if head == "Supported options":
            for opt, value, dflt, meaning in md_table(lines):
                out.append(".TP")
                out.append(", ".join("\\fB" + esc(n) + "\\fR"
                                     for n in names(opt)))
                out.append(line(md(meaning)))
                out.append(".br")
                out.append(line(md("Value: %s; default: %s." % (value, dflt))))
        elif head.startswith("Accepted"):
            out.append(".SS \"Accepted without effect on a simulated drive\"")
            for p in md_paragraphs(lines)[:1]:
                out += [".PP", line(md(p))]
        elif lvl == 3:
            rows = md_table(lines)
            if rows:
                out.append(".TP")
                out.append("\\fI" + esc(head) + "\\fR")
                out.append(line(", ".join("\\fB" + esc(n) + "\\fR"
                                          for r in rows for n in names(r[0]))))
        elif head == "Not supported":
            out.append(".SS \"Not supported\"")
            for p in md_paragraphs(lines):
                out += [".PP", line(md(p))]
            for opt, why in md_table(lines):
                out.append(".TP")
                out.append("\\fB" + esc(names(opt)[0]) + "\\fR")
                out.append(line(md(why)))
    out += more(secs, "ssdlab job doc", "docs/jobfiles.md",
                {"Supported options", "Not supported"}
                | {h for _, h, _ in secs if h.startswith("Accepted")})
    return out


def scenarios(text):
    out = []
    for ln in text.split("\n"):
        if ln and not ln.startswith(" "):
            out += [".TP", "\\fB" + esc(ln.strip()) + "\\fR"]
        elif ln.startswith("  ") and not ln.startswith("   "):
            out.append(line(esc(ln.strip())))
    return out


def page_date():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        try:
            epoch = subprocess.run(["git", "-C", top, "log", "-1", "--format=%ct"],
                                   check=True, capture_output=True,
                                   text=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            epoch = ""
    if not epoch:
        return ""
    return time.strftime("%Y-%m-%d", time.gmtime(int(epoch)))


def main():
    version = run("--version").split()[-1]
    main_usage, main_body = split_help(run("--help"))
    commands = []
    for ln in main_body:
        m = re.match(r"^  ssdlab (\w+)", ln)
        if m and m.group(1) not in commands:
            commands.append(m.group(1))
    helps = {c: split_help(run(c, "--help")) for c in commands}

    tagline = main_body[0].strip()
    out = [
        '.\\" ssdlab(1), written by tools/man.py from the --help texts and the',
        '.\\" option tables (`ssdlab drive doc`, `ssdlab job doc`); do not edit.',
        '.TH SSDLAB 1 "%s" "ssdlab %s" "User Commands"' % (page_date(), version),
        '.\\" option names are not hyphenated',
        ".nh",
        ".SH NAME",
        "ssdlab \\- " + esc(tagline[0].lower() + tagline[1:].rstrip(".")),
        ".SH SYNOPSIS",
        ".nf",
    ]
    out += [synopsis_line(u) for u in main_usage]
    for c in commands:
        out += [synopsis_line(u) for u in helps[c][0]]
    out.append("\\fBssdlab \\-\\-version\\fR")
    out += [".fi", ".SH DESCRIPTION"]
    out += [".PP", line(esc(tagline))]
    out += body_roff(main_body[1:])
    out += [".PP",
            "Drives are described by the keys under \\fBDRIVE KEYS\\fR, in "
            "a preset or an INI file; workloads are fio job files with the "
            "options under \\fBJOB OPTIONS\\fR.  Times in job files are "
            "simulated time."]
    out.append(".SH COMMANDS")
    for c in commands:
        usage, body = helps[c]
        out.append('.SS "%s"' % esc(usage[0] if usage else "ssdlab " + c))
        for u in usage[1:]:
            out += [".br", synopsis_line(u)]
        words = {w for u in usage for w in u.split()[2:3]}
        out += body_roff(body, words)
        if c == "scenario":
            out += [".PP", "The scenarios (\\fBssdlab scenario list\\fR "
                    "shows their parameters):"]
            out += scenarios(run("scenario", "list"))
    out.append(".SH DRIVE KEYS")
    out += drive_keys(run("drive", "doc"))
    out.append(".SH JOB OPTIONS")
    out += job_options(run("job", "doc"))

    out.append(".SH EXIT STATUS")
    status = None
    for c in commands:
        text = " ".join(ln.strip() for ln in helps[c][1])
        m = re.search(r"Exit status: (.*?\.)(?:\s|$)", text)
        if m:
            status = m.group(1)
    out += [".PP", "\\fBssdlab run\\fR: " +
            line(esc(status or "0 on success, 1 on failure, "
                     "2 for a usage or input error."))]
    out += [".PP", "The other commands exit the same way: 0 on success, 1 "
            "when what they ran failed, 2 for a usage or input error."]

    out += [".SH ENVIRONMENT",
            ".TP", "\\fBSSDLAB_PRESETS\\fR",
            "The directory of the drive presets, instead of the one below.",
            ".SH FILES",
            ".TP", "\\fIpresets/\\fR, \\fI../share/ssdlab/presets/\\fR",
            "The drive presets \\fINAME\\fR.ini, looked up in that order "
            "beside the directory of the ssdlab binary: a source tree's "
            "presets, or an installed ssdlab's "
            "\\fIPREFIX\\fR/share/ssdlab/presets "
            "(\\fBssdlab drives\\fR lists them).",
            ".TP", "\\fIssdlab\\-out/NAME/\\fR",
            "What \\fBssdlab scenario run\\fR \\fINAME\\fR writes: "
            "result.json, CSV series and plots.",
            ".TP", "\\fIssdlab\\-demo/\\fR",
            "What the demo (\\fBssdlab\\fR without a command) writes.",
            ".SH SEE ALSO",
            ".BR fio (1),",
            ".BR gnuplot (1),",
            ".BR nbdkit (1),",
            ".BR nbdkit\\-tls (1),",
            ".BR pkg\\-config (1)",
            ".PP",
            "The library: \\fI#include <ssdlab.h>\\fR, "
            "\\fBpkg\\-config \\-\\-cflags \\-\\-libs ssdlab\\fR.",
            ".PP",
            "In the source tree: README.md, docs/options.md, docs/jobfiles.md, "
            "docs/design.md."]
    # a heading starts a paragraph itself: a .PP or .br right after one is
    # dropped (mandoc -Tlint warns of it, and man ignores it)
    page = []
    for l in out:
        if l in (".PP", ".br") and page and page[-1].startswith((".SH", ".SS")):
            continue
        page.append(l)
    sys.stdout.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
