#!/usr/bin/env python3
"""Property test: random valid drives under random workloads.

Each case draws a drive (the geometry classes of the presets, page sizes,
SLC cache modes, write buffer, map cache, TRIM modes, wear leveling, GC
policies, pacing, sometimes a low endurance) and a job file of one to
three stonewalled jobs (sequential and random writes, reads, trims and
mixes, 512 B to 1 MiB, numjobs 1-8, queue depths, idle gaps, fsync and
sync writes), runs it with the invariant checker on -- the maps and
books, and the timing model: no die, unit or channel runs two operations
at once or is busier than the time that passed, no completion precedes
its submission, no command is faster than its flash work, the runner's
clock never goes back (docs/design.md, "Invariants") -- and asserts:

  - the drive is accepted, or refused with one line naming a key;
  - no invariant check fails (the case's message quotes the checker);
  - the run ends with exit status 0, or 1 only because the drive wore
    out (read-only with bad blocks or failed programs): never read-only
    while its spare is intact, never another error;
  - every job's report is complete (fio's keys and the ssdlab section);
  - write amplification stays within what the workload allows: padding
    and read-modify-write factors times the worst case of GC for the
    spare the GC works with (1 / spare fraction, the blocks the FTL keeps
    free not counted), with a margin;
  - a zoned or FDP drive also goes through ten power cuts of the
    power-loss scenario (a random workload, plp on or off, the checker at
    every cut -- zones' write pointers against the flash, the handles'
    isolation): no flushed write is lost, and with plp that saved every
    cut nothing acknowledged is.

Usage: tools/proptest.py SSDLAB [--cases N] [--seed S] [--keep DIR]
A failing case prints its drive settings and job file, and the command
that reproduces it.  `make proptest` runs thousands of cases.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

SIZES = ["512", "1k", "2k", "3k", "4k", "6k", "8k", "16k", "64k", "128k", "1m"]


def draw_drive(r):
    s = {}
    s["capacity"] = r.choice(["32m", "48m", "64m", "96m", "128m"])
    s["page_size"] = r.choice(["4k", "4k", "8k", "16k"])
    s["pages_per_block"] = str(r.choice([32, 64, 128]))
    s["channels"] = str(r.choice([1, 2, 4]))
    s["dies_per_channel"] = str(r.choice([1, 2]))
    s["planes_per_die"] = str(r.choice([1, 2]))
    s["multiplane"] = r.choice(["yes", "no"])
    s["cell"] = r.choice(["slc", "mlc", "tlc", "tlc", "qlc"])
    s["op"] = "%.2f" % r.choice([0.07, 0.1, 0.15, 0.28, 0.5])
    s["gc_policy"] = r.choice(["greedy", "greedy", "cost-benefit", "fifo", "random"])
    s["gc_pacing"] = r.choice(["yes", "no"])
    s["wl_dynamic"] = r.choice(["yes", "no"])
    s["wl_static"] = r.choice(["yes", "no"])
    s["trim_mode"] = r.choice(["immediate", "background", "deferred"])
    s["gc_copies"] = r.choice(["own", "own", "own", "host"])
    if s["cell"] != "slc" and r.random() < 0.4:
        s["slc_cache"] = r.choice(["static", "dynamic"])
        s["slc_cache_size"] = r.choice(["512k", "1m", "2m"])
        if s["slc_cache"] == "static":
            s["op"] = "%.2f" % max(float(s["op"]), 0.28)
    if r.random() < 0.3:
        s["write_buffer"] = r.choice(["16k", "64k", "1m"])
    if r.random() < 0.2:
        s["map_cache"] = r.choice(["16k", "64k"])
    if r.random() < 0.1:
        s["pe_cycles"] = str(r.choice([2, 5, 20]))
    if r.random() < 0.2:
        # block mapping and the log-block hybrids (docs/mapping.md): no
        # SLC cache, map cache or queued TRIM there
        s["mapping"] = r.choice(["block", "bast", "fast"])
        for k in ("slc_cache", "slc_cache_size", "map_cache"):
            s.pop(k, None)
        s["trim_mode"] = "immediate"
        s["op"] = "%.2f" % max(float(s["op"]), 0.28)
        if s["mapping"] != "block" and r.random() < 0.5:
            s["log_blocks"] = str(r.choice([1, 2, 4]))
    elif r.random() < 0.1 and "slc_cache" not in s and "map_cache" not in s:
        # a zoned drive (docs/zoned.md): its jobs are fio's zoned mode
        s["mapping"] = "zone"
        s["trim_mode"] = "immediate"
        if r.random() < 0.5:
            s["zone_units"] = "1"
        if r.random() < 0.5:
            s["max_open_zones"] = str(r.choice([2, 4, 8]))
        if r.random() < 0.3:
            s["zone_finish"] = "mark"
    elif (r.random() < 0.15 and "slc_cache" not in s
          and s["gc_copies"] == "own"):
        # flexible data placement (docs/fdp.md): the handles' open blocks
        # come out of the spare
        s["fdp"] = "yes"
        s["fdp_handles"] = str(r.choice([1, 2, 4]))
        s["fdp_isolation"] = r.choice(["initial", "persistent"])
        if (int(s["channels"]) * int(s["dies_per_channel"])) % 2 == 0 \
                and r.random() < 0.4:
            s["fdp_groups"] = "2"   # reclaim groups: half the units each
        s["op"] = "%.2f" % max(float(s["op"]), 0.28)
    return s


def row_slots(drive):
    """4 KiB slots in a row of block mapping: a block on every unit."""
    page = size_bytes(drive["page_size"]) // 4096
    planes = int(drive["planes_per_die"])
    units = int(drive["channels"]) * int(drive["dies_per_channel"]) * planes
    return page * int(drive["pages_per_block"]) * units


def draw_job(r, name, first):
    rw = r.choice(["write", "write", "randwrite", "randwrite", "randrw",
                   "rw", "read", "randread", "trim", "randtrim"])
    lines = ["[%s]" % name]
    if not first:
        lines.append("stonewall")
    lines.append("rw=" + rw)
    lines.append("bs=" + r.choice(SIZES))
    lines.append("iodepth=%d" % r.choice([1, 1, 4, 8, 32]))
    nj = r.choice([1, 1, 1, 2, 3, 4, 8])
    if nj > 1:
        lines.append("numjobs=%d" % nj)
        if r.random() < 0.5:
            lines.append("group_reporting")
    size = r.choice([100, 100, 50, 25])
    lines.append("size=%d%%" % size)
    if size < 100 and r.random() < 0.5:
        lines.append("offset=%d%%" % r.choice([0, 25, 50]))
    if rw not in ("read", "randread"):
        lines.append("io_size=%d%%" % r.choice([50, 100, 150, 200]))
    if rw.startswith("rand") and r.random() < 0.6:
        lines.append("norandommap")
    if "rw" in rw:
        lines.append("rwmixread=%d" % r.choice([10, 30, 50, 70]))
    if r.random() < 0.15:
        lines.append("thinktime=%d" % r.choice([100, 1000, 50000]))
        lines.append("thinktime_blocks=%d" % r.choice([1, 16, 256]))
    if "write" in rw or rw in ("rw", "randrw"):
        x = r.random()
        if x < 0.1:
            lines.append("sync=1")
        elif x < 0.2:
            lines.append("fsync=%d" % r.choice([1, 4, 32]))
    return "\n".join(lines) + "\n"


def draw_zbd_job(r, name, first):
    """A job of fio's zoned mode (docs/fio-zoned.md): writes at the write
    pointers, full zones reset when chosen again, reads below them."""
    rw = r.choice(["write", "randwrite", "randwrite", "read", "randread",
                   "randrw"])
    lines = ["[%s]" % name, "zonemode=zbd", "direct=1"]
    if not first:
        lines.append("stonewall")
    lines.append("rw=" + rw)
    lines.append("bs=" + r.choice(["4k", "8k", "16k", "64k", "128k"]))
    lines.append("iodepth=%d" % r.choice([1, 1, 4, 8]))
    if r.random() < 0.3:
        lines.append("numjobs=%d" % r.choice([2, 4]))
    if rw != "read" and rw != "randread":
        lines.append("io_size=%d%%" % r.choice([50, 100, 200]))
    if r.random() < 0.3 and "write" in rw:
        lines.append("zone_reset_threshold=0.%d" % r.choice([3, 5, 7]))
        lines.append("zone_reset_frequency=0.%d" % r.choice([1, 2, 5]))
    if r.random() < 0.3 and rw in ("read", "randread"):
        lines.append("read_beyond_wp=1")
    if "rw" in rw:
        lines.append("rwmixread=%d" % r.choice([30, 50, 70]))
    return "\n".join(lines) + "\n"


def size_bytes(v):
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    return int(v[:-1]) * mult[v[-1]] if v[-1] in mult else int(v)


def effective_spare(ssdlab, drive):
    """Spare fraction GC works with: the physical flash less the blocks
    the FTL keeps free (gc_fg_blocks + 2 per unit) and the user capacity,
    over the physical flash less those blocks (from `drive show`)."""
    args = [ssdlab, "drive", "show", "tiny"]
    for k, v in drive.items():
        args += ["--set", "%s=%s" % (k, v)]
    text = subprocess.run(args, capture_output=True, text=True).stdout
    vals = {}
    for line in text.splitlines():
        f = line.lstrip("# ").split()
        if len(f) >= 3 and f[1] == "=":
            vals[f[0]] = f[2]
    bpp = int(vals["blocks_per_plane"])
    planes = int(drive["planes_per_die"])
    row = (size_bytes(drive["page_size"]) * int(drive["pages_per_block"]) *
           int(drive["channels"]) * int(drive["dies_per_channel"]) * planes)
    extra = 0
    if drive.get("fdp") == "yes":  # the handles' open blocks
        extra = (int(drive["fdp_handles"]) - 1) * (
            2 if drive["fdp_isolation"] == "persistent" else 1)
    usable = (bpp - int(vals.get("gc_fg_blocks", "2")) - 2 - extra) * row
    cap = size_bytes(drive["capacity"])
    return max(usable - cap, row) / usable


def waf_bound(drive, jobtext, spare):
    """Worst WAF the workload allows on this drive."""
    gc = 1.0 / spare
    if drive.get("mapping", "page") != "page":
        gc = row_slots(drive)   # a merge of a whole row per host page
    if drive.get("slc_cache"):
        gc *= 2          # the cache's blocks come out of the spare
    page = size_bytes(drive["page_size"])
    if drive["multiplane"] == "yes":
        page *= int(drive["planes_per_die"])
    slots = page // 4096
    if drive.get("map_cache"):
        gc += slots      # a dirty map page written back per page, at worst
    worst = 1.0
    for job in jobtext.split("\n["):
        rmw, pad = 1.0, 1.0
        for line in job.splitlines():
            if line.startswith("bs="):
                bs = size_bytes(line[3:])
                if bs % 4096:
                    # pages touched per byte, unaligned streams at worst
                    rmw = (bs // 4096 + 2) * 4096 / bs
            if line == "sync=1" or line.startswith("fsync="):
                pad = float(slots) * 1.5   # a page per flush, at worst
        worst = max(worst, rmw * pad)
    return worst * gc * 1.5 + 1


FIO_KEYS = ["jobname", "error", "read", "write", "trim", "job_runtime", "ssdlab"]
SSDLAB_KEYS = ["waf", "health", "nand_pages_programmed", "blocks_erased",
               "gc_copied_pages", "free_blocks", "erase_count"]


def run_case(ssdlab, r, idx, tmp):
    drive = draw_drive(r)
    njobs = r.choice([1, 1, 2, 3])
    draw = draw_zbd_job if drive.get("mapping") == "zone" else draw_job
    text = "".join(draw(r, "j%d" % i, i == 0) for i in range(njobs))
    if drive.get("fdp") == "yes" and r.random() < 0.7:
        # fio's placement options (docs/fdp.md): every job's writes
        # carry identifiers of the drive's list
        text = text.replace("\n[", "\n\n[")
        text = "[global]\nfdp=1\nplid_select=%s\n%s\n" % (
            r.choice(["roundrobin", "random"]), text)
    job = os.path.join(tmp, "case.fio")
    out = os.path.join(tmp, "case.json")
    with open(job, "w") as f:
        f.write(text)
    args = [ssdlab, "run", job, "--drive", "tiny", "--check", "64",
            "--seed", str(idx + 1), "--output-format=json", "--output", out]
    for k, v in drive.items():
        args += ["--set", "%s=%s" % (k, v)]
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    where = "case %d: %s\n--- job file:\n%s---" % (idx, " ".join(args[1:]), text)
    err = p.stderr.strip()
    if p.returncode == 2:
        # a drive refused: one line, naming a key
        if len(err.splitlines()) != 1 or "ssdlab:" not in err:
            return "refusal is not one line: %r\n%s" % (err, where), "refused"
        return None, "refused"
    if p.returncode not in (0, 1):
        return "exit %d: %s\n%s" % (p.returncode, err, where), "failed"
    if "invariant check failed" in err:
        return "%s\n%s" % (err, where), "failed"
    try:
        d = json.load(open(out))
    except Exception as e:  # noqa: BLE001 - any failure is the finding
        return "no report (%s): %s\n%s" % (e, err, where), "failed"
    worn = False
    for j in d["jobs"]:
        msg = j.get("ssdlab", {}).get("error_message", "")
        if "invariant check failed" in msg:
            return "job %s: %s\n%s" % (j.get("jobname"), msg, where), "failed"
        for k in FIO_KEYS:
            if k not in j:
                return "job %s lacks %s\n%s" % (j.get("jobname"), k, where), "failed"
        s = j["ssdlab"]
        for k in SSDLAB_KEYS:
            if k not in s:
                return "job %s lacks ssdlab.%s\n%s" % (j["jobname"], k, where), "failed"
        h = s["health"]
        if h["read_only"]:
            if not (h["bad_blocks"] > 0 or s.get("program_failures", 0) > 0):
                return ("read-only with the spare intact (waf %s)\n%s"
                        % (s["waf"], where)), "failed"
            worn = True
        waf = s["waf"]
        if isinstance(waf, (int, float)) and not h["read_only"]:
            bound = waf_bound(drive, text, effective_spare(ssdlab, drive))
            if waf > bound:
                return "job %s: waf %.2f above %.2f\n%s" % (
                    j["jobname"], waf, bound, where), "failed"
    if p.returncode == 1 and not worn:
        return "exit 1 without wear-out: %s\n%s" % (err, where), "failed"
    if p.returncode == 1 and "read-only" not in err:
        return "exit 1: %s\n%s" % (err, where), "failed"
    if drive.get("mapping") == "zone" or drive.get("fdp") == "yes":
        msg = power_case(ssdlab, r, idx, tmp, drive)
        if msg:
            return msg, "failed"
    return None, "worn" if worn else "ok"


def power_case(ssdlab, r, idx, tmp, drive):
    """Power cuts on a zoned or FDP drive (docs/power-loss.md): the
    power-loss scenario, the checker at every cut, a random workload;
    no flushed write lost, nothing acknowledged with plp."""
    plp = r.choice(["no", "yes"])
    params = {"cuts": 10, "plp": plp, "check": 64,
              "qd": r.choice([1, 8, 32]), "bs": r.choice(["4k", "8k", "64k"]),
              "fua_pct": r.choice([0, 5, 20]),
              "flush_every": r.choice([0, 8, 64, 512]),
              "interval": r.choice(["0.01", "1", "10"]),
              "power_recovery": r.choice(["summary", "scan"])}
    if drive.get("mapping") == "zone" and drive["page_size"] != "4k":
        # a zone pads its open page at every flush and FUA write, into
        # blocks of the reserve until the zone's reset (docs/zoned.md):
        # a host that syncs every few 4 KiB writes uses the reserve up
        params["fua_pct"] = 0
        params["flush_every"] = r.choice([0, 64, 512])
    out = os.path.join(tmp, "power")
    args = [ssdlab, "scenario", "run", "power-loss", "--drive", "tiny",
            "--seed", str(idx + 1), "--out", out]
    for k, v in list(drive.items()) + list(params.items()):
        args += ["--set", "%s=%s" % (k, v)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    where = "case %d (power cuts): %s" % (idx, " ".join(args[1:]))
    err = p.stderr.strip()
    if p.returncode == 1 and "wore out" in err:
        return None
    if p.returncode == 1 and "paired_pages" in err and drive.get("paired_pages"):
        return None
    if p.returncode != 0:
        return "exit %d: %s\n%s" % (p.returncode, err, where)
    res = json.load(open(os.path.join(out, "result.json")))
    if res["flushed_lost"]:
        return "%d flushed pages lost: %s\n%s" % (
            res["flushed_lost"], res.get("first_flushed_loss"), where)
    if plp == "yes" and res["cuts_saved_by_plp"] == res["cuts"] and res["lost_lp"]:
        return "plp saved every cut, %d pages lost\n%s" % (res["lost_lp"], where)
    if not res["checks"] and res["cuts"]:
        return "the checker never ran\n%s" % where
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ssdlab")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    r = random.Random(a.seed)
    counts = {}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.cases):
            msg, kind = run_case(a.ssdlab, r, i, tmp)
            counts[kind] = counts.get(kind, 0) + 1
            if msg:
                failures += 1
                print("FAIL " + msg)
                if failures >= 5:
                    break
    print("cases: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    if counts.get("refused", 0) > a.cases // 2:
        print("FAIL: most drives were refused; the generator is off")
        failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
