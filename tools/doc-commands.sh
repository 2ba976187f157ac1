#!/bin/sh
# tools/doc-commands.sh -- every shell command the docs show, run as written.
#
#   tools/doc-commands.sh [--fast] [--ssdlab PATH] [--list] [FILE.md...]
#
# The commands are the lines of the ```sh blocks of README.md and
# docs/*.md (or of the FILEs given): a line ending in '\' goes on to the
# next, a line that is only a comment is none.  Each file's commands run
# in order in one bash session -- a server one block starts in the
# background serves the next block's clients, as the reader's shell would
# -- in a scratch folder of their own, where ./ssdlab, ssdlab (on the
# PATH), examples/, presets/, python/ and build/ are the tree's, and the
# files the docs name as the reader's own (job.fio, my.ini, replay.fio,
# disk.img) are small stand-ins; /tmp/ in a command is the scratch
# folder's tmp/, so that runs of this check, and the reader's own
# servers, never meet.  A command passes when it exits 0.  At the end of each file its mounts are
# unmounted and its background jobs ended.
#
# A command that cannot run here is on the skip list below (RULES), with
# the reason; one that runs for long is marked slow there and run only
# without --fast.  tests/cli/doc_commands.sh runs --fast in `make test`;
# the whole list is `make doc-check`'s.  --list prints what would run,
# what is slow and what is skipped, and why, without running anything.
#
# Prints "ok", "FAIL" (with the end of the command's output), "slow" or
# "skip" per command, then "N ran, N failed, N skipped"; exits 1 when a
# command failed, 2 on a usage error.
exec python3 - "$0" "$@" <<'PY'
import glob, os, re, shutil, signal, subprocess, sys, tempfile

# (file, command regex, kind, reason): the first rule whose file is the
# command's file (or None) and whose regex matches (re.search) decides.
# kind "skip": never run here; "slow": run only without --fast; with
# "-block" ("slow-block"), the rule matches a block's first command and
# decides for every command of the block (a server and its clients).
RULES = [
    ("README.md", r"^make demo$", "skip",
     "builds in the tree and installs gnuplot as root; tests/cli/slow_demo.sh runs the demo"),
    ("README.md", r"^make test$", "skip", "the test suite, which runs this check"),
    ("README.md", r"^make (un)?install PREFIX=\$HOME", "skip",
     "installs into the home folder; tests/cli/install.sh installs and uninstalls under a PREFIX of its own"),
    ("docs/python.md", r"^make install( PREFIX=\$HOME/ssdlab)?$", "skip-block",
     "installs, as root or into the home folder; tests/cli/install.sh installs under a PREFIX of its own, "
     "imports the package from there and runs examples/python/waf_vs_op.py"),
    ("README.md", r"^cc (-static )?prog\.c", "skip",
     "a program of the reader's against the installed library; tests/cli/install.sh builds examples/*.c so"),
    (None, r"^make bench$|^(ROUNDS|CAPACITY)=\S+ (make bench|bench/)|^build/simbench", "skip",
     "the benchmark, minutes of both cores (BENCHMARKS.md)"),
    (None, r"^\./ssdlab serve --socket /tmp/ssd\.sock --clock fast$", "skip",
     "a server in the foreground: it runs until stopped (tests/cli/serve.sh)"),
    (None, r"^\./ssdlab serve --power-cuts --power-log lost\.csv --socket /tmp/ssd\.sock$", "skip",
     "a server in the foreground: it runs until stopped (tests/cli/serve_power.sh)"),
    ("docs/serve.md", r"^nbdkit -U /tmp/ssd\.sock ", "skip",
     "nbdkit in the foreground: it serves until stopped (tests/cli/serve.sh runs the plugin under nbdkit)"),
    ("docs/serve.md", r"^ssdlab serve --ip 0\.0\.0\.0 --tls=require --tls-certificates srv", "skip-block",
     "needs a CA and certificates made with certtool (nbdkit-tls(1)); "
     "tests/cli/serve_tls.sh makes them and runs these clients"),
    ("docs/serve.md", r"^(mount -o loop|cp -r /usr/share/doc /mnt|fstrim -v /mnt|umount /mnt)", "skip",
     "mounts on the machine's /mnt as root; tests/cli/serve.sh mounts, fills and fstrims in a folder of its own"),
    ("docs/serve.md", r"^(qemu-img convert -O raw -n debian\.qcow2|qemu-system-x86_64)", "skip",
     "a virtual machine's disk image and KVM"),
    ("README.md", r"^\./ssdlab trace convert --from msr prxy_0\.csv|^\./ssdlab trace stat prxy_0|"
     r"^\./ssdlab scenario run trace --set trace=prxy_0", "skip",
     "an MSR Cambridge trace, downloaded by the reader (docs/traces.md); tests/cli/traces_tools.sh converts a sample of each format"),
    # long runs: `make doc-check` only
    ("docs/snapshots.md", r"^\./ssdlab run job\.fio --drive samsung-470-256g --precondition sequential", "slow-block",
     "a 256 GB drive filled end to end, then runs from it: about 15 s"),
    (None, r"^\./ssdlab accuracy( --set capacity=4g --set dies_per_channel=2)?$", "slow", "12 s and more"),
    (None, r"^\./ssdlab calibrate( --markdown| --drive intel-760p-128g --drive crucial-m4-256g| --drive my\.ini .*|"
     r" --fill sequential)?$",
     "slow", "about 40 s"),
    (None, r"^\./ssdlab scenario run (steady-state|gc-states|torture)\b", "slow",
     "a scenario on a full-size drive"),
    (None, r"^\./ssdlab life( --daily 50g| --drive presets/slc\.ini .*| --job examples/steady-state\.fio|"
     r" --accelerated --drive default| --output-format=json)?$", "slow", "the default drive's WAF measured"),
    ("docs/mft.md", r"^ssdlab life --drive silicon-power-32g --set capacity=4g +#", "slow",
     "a block-mapped drive's WAF of ~1,000 measured: 90 s"),
    (None, r"^ssdlab life --drive silicon-power-32g --set mft=yes$", "slow",
     "a 32 GB drive's WAF measured through MFT"),
    (None, r"^\./ssdlab run examples/steady-state\.fio", "slow", "a full-size drive preconditioned"),
    ("docs/fill.md", r"^\./ssdlab run job\.fio --drive crucial-m4-256g --precondition dircopy", "slow",
     "a 256 GB drive filled by a directory copy"),
    ("README.md", r"^fio --ioengine=nbd .*--size=1g", "slow", "1 GiB of random writes at the real clock"),
]

# the reader's own files, as small stand-ins
FIXTURES = {
    "job.fio": "[w]\nrw=randwrite\nbs=4k\nsize=16m\niodepth=8\n",
    "replay.fio": "[replay]\nread_iolog=examples/traces/sample.iolog.gz\niodepth=32\n",
    "my.ini": None,         # a copy of presets/intel-760p-128g.ini
    "disk.img": b"\1" * (1 << 20),
}

def usage():
    sys.stderr.write("usage: tools/doc-commands.sh [--fast] [--ssdlab PATH] [--list] [FILE.md...]\n")
    sys.exit(2)

script, args = sys.argv[1], sys.argv[2:]
top = os.path.abspath(os.path.join(os.path.dirname(script), ".."))
fast = listing = False
ssdlab = os.path.join(top, "ssdlab")
files = []
while args:
    a = args.pop(0)
    if a == "--fast":
        fast = True
    elif a == "--list":
        listing = True
    elif a == "--ssdlab" and args:
        ssdlab = os.path.abspath(args.pop(0))
    elif a.startswith("-"):
        usage()
    else:
        files.append(os.path.relpath(os.path.abspath(a), top))
if not files:
    files = ["README.md"] + sorted(os.path.relpath(p, top) for p in glob.glob(os.path.join(top, "docs", "*.md")))
if not listing and not os.access(ssdlab, os.X_OK):
    sys.stderr.write("doc-commands: %s is not built (run make)\n" % ssdlab)
    sys.exit(2)

def strip_comment(cmd):
    """cmd without a trailing '# comment' (outside quotes)"""
    q = None
    for i, c in enumerate(cmd):
        if q:
            if c == q:
                q = None
            elif c == "\\" and q == '"':
                continue
        elif c in "'\"":
            q = c
        elif c == "#" and (i == 0 or cmd[i - 1] in " \t"):
            return cmd[:i].rstrip()
    return cmd.rstrip()

def commands(path):
    """(line, command, block number) of each ```sh block of path"""
    out, lines = [], open(os.path.join(top, path)).read().split("\n")
    i = block = 0
    while i < len(lines):
        if lines[i].strip() != "```sh":
            i += 1
            continue
        i += 1
        block += 1
        while i < len(lines) and not lines[i].startswith("```"):
            start, text = i + 1, lines[i]
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text + "\n" + lines[i]
            i += 1
            cmd = strip_comment(text)
            if cmd:
                out.append((start, cmd, block))
    return out

def flat(cmd):
    """cmd on one line (a continued line joined with one space)"""
    return re.sub(r"\\\n\s*", " ", cmd)

def rule(path, cmd, first):
    """the kind and reason of cmd, whose block's first command is first"""
    for f, rx, kind, why in RULES:
        if (f is None or f == path) and kind.endswith("-block") and re.search(rx, flat(first)):
            return kind[:-len("-block")], why
    for f, rx, kind, why in RULES:
        if (f is None or f == path) and not kind.endswith("-block") and re.search(rx, flat(cmd)):
            return kind, why
    return "run", ""

def setup(scratch):
    os.makedirs(os.path.join(scratch, "tmp"))
    os.makedirs(os.path.join(scratch, "bin"))
    os.symlink(ssdlab, os.path.join(scratch, "ssdlab"))
    os.symlink(ssdlab, os.path.join(scratch, "bin", "ssdlab"))
    for d in ("examples", "presets", "tools", "bench", "python"):
        os.symlink(os.path.join(top, d), os.path.join(scratch, d))
    # build/: the tree's, with the plugin beside the ssdlab under test
    bdir = os.path.dirname(ssdlab)
    os.symlink(os.path.join(top, "build") if bdir == top else bdir, os.path.join(scratch, "build"))
    for name, data in FIXTURES.items():
        p = os.path.join(scratch, name)
        if data is None:
            shutil.copy(os.path.join(top, "presets", "intel-760p-128g.ini"), p)
        else:
            with open(p, "wb") as f:
                f.write(data if isinstance(data, bytes) else data.encode())

def session(path, cmds, scratch):
    """the bash script that runs cmds (those to run) in order"""
    log = os.path.join(scratch, "log")
    os.makedirs(log)
    tmp = os.path.join(scratch, "tmp") + "/"
    s = ["cd %s || exit 2" % scratch, "export PATH=%s/bin:$PATH" % scratch,
         "__cleanup() {",
         # mounts under the scratch folder, innermost first, then the jobs
         "  for m in $(awk -v d=%s '$2 ~ \"^\" d { print $2 }' /proc/mounts | sort -r); do" % scratch,
         "    fusermount3 -u \"$m\" 2>/dev/null || umount -l \"$m\" 2>/dev/null",
         "  done",
         "  for p in $(jobs -p); do kill -9 $p 2>/dev/null; done",
         "}",
         "trap __cleanup EXIT",
         "__t() { date +%s%N; }"]
    for n, (line, cmd) in enumerate(cmds):
        c = cmd.replace("/tmp/", tmp)
        out = os.path.join(log, "%d" % n)
        if c.endswith("&") and not c.endswith("&&"):
            s.append("%s >%s 2>&1 &" % (c[:-1].rstrip(), out))
            s.append("echo \"%d 0 0\" >>%s/status" % (n, log))
        else:
            s.append("__s=$(__t)")
            s.append("{ %s\n} >%s 2>&1 </dev/null" % (c, out))
            s.append("echo \"%d $? $(( ($(__t) - __s) / 1000000 ))\" >>%s/status" % (n, log))
    return "\n".join(s) + "\n"

# a file's session stops after this many seconds (a server that never
# listens would keep an `until` waiting)
LIMIT, LIMIT_FAST = 1800, 300

def unmount(scratch):
    """what a stopped session left mounted under scratch"""
    try:
        mounts = [l.split()[1] for l in open("/proc/mounts") if l.split()[1].startswith(scratch)]
    except OSError:
        return
    for m in sorted(mounts, reverse=True):
        for cmd in (["fusermount3", "-u", m], ["umount", "-l", m]):
            try:
                if subprocess.run(cmd, stderr=subprocess.DEVNULL).returncode == 0:
                    break
            except OSError:
                pass

ran = failed = skipped = 0
for path in files:
    cmds = commands(path)
    if not cmds:
        continue
    todo = []
    first = {}
    for line, cmd, block in cmds:
        first.setdefault(block, cmd)
        kind, why = rule(path, cmd, first[block])
        what = "%s:%d: %s" % (path, line, flat(cmd))
        if kind == "skip" or (kind == "slow" and fast):
            skipped += 1
            print("%s %s: %s" % ("skip" if kind == "skip" else "slow", what, why))
        elif listing:
            print("run  %s%s" % (what, " (slow: %s)" % why if kind == "slow" else ""))
        else:
            todo.append((line, cmd, what))
    if listing or not todo:
        continue
    scratch = tempfile.mkdtemp(prefix="doc-")
    try:
        setup(scratch)
        text = session(path, [(l, c) for l, c, w in todo], scratch)
        with open(os.path.join(scratch, "session.sh"), "w") as f:
            f.write(text)
        p = subprocess.Popen(["bash", os.path.join(scratch, "session.sh")],
                             stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            p.wait(timeout=LIMIT_FAST if fast else LIMIT)
        except subprocess.TimeoutExpired:
            # the session and what it started: TERM (bash's EXIT trap
            # unmounts), then KILL
            print("FAIL %s: still running after %d s, stopped" % (path, LIMIT_FAST if fast else LIMIT))
            failed += 1
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
                try:
                    os.killpg(p.pid, sig)
                    p.wait(timeout=wait)
                    break
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
        status = {}
        if os.path.exists(os.path.join(scratch, "log", "status")):
            for l in open(os.path.join(scratch, "log", "status")):
                n, rc, secs = l.split()
                status[int(n)] = (int(rc), int(secs) / 1000)
        for n, (line, cmd, what) in enumerate(todo):
            ran += 1
            rc, secs = status.get(n, (-1, 0))
            if rc == 0:
                print("ok   %s (%.1f s)" % (what, secs))
                continue
            failed += 1
            print("FAIL %s (%s)" % (what, "exit %d" % rc if rc >= 0 else "never ran"))
            try:
                tail = open(os.path.join(scratch, "log", "%d" % n), errors="replace").read().split("\n")
                for l in tail[-12:]:
                    if l:
                        print("    " + l)
            except OSError:
                pass
        sys.stdout.flush()
    finally:
        unmount(scratch)
        shutil.rmtree(scratch, ignore_errors=True)
print("%d ran, %d failed, %d skipped" % (ran, failed, skipped))
sys.exit(1 if failed else 0)
PY
