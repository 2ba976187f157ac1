#!/usr/bin/env python3
"""Soak: a billion simulated host commands across random drives and
workloads, with the invariant checker on, every page verified after
every power cut.

Each case draws a drive as the property test does (tools/proptest.py:
geometry classes, page sizes, cell types, spare, GC policies and pacing,
wear leveling, TRIM modes, SLC cache, write buffer, map cache, zoned and
FDP drives, sometimes a low endurance that wears the drive out), power-loss protection on or
off, a recovery model and what a cut does to paired pages (independent,
protected, unprotected), and a workload for the power-loss scenario
(queue depth, request size, the mix, FUA, how often it flushes, how long
between cuts), and runs `ssdlab scenario run power-loss` on it with the
FTL's invariant checker after every few GC victims and at every cut.
It asserts, per case:

  - the run ends with exit status 0 (a drive that wears out ends its
    case early, cleanly, and says so);
  - no flushed or FUA write is ever lost (flushed_lost == 0), except
    on a drive whose controller leaves paired pages unprotected: there
    a cut during an upper-page program takes flushed data in the lower
    pages, which is what that model shows (counted, reported);
  - with plp whose energy covers the save, nothing acknowledged is lost;
  - the invariant checker ran and never failed (a failure ends the run
    with its message);
  - with --compare-full, the same case run with full=1 (every block read
    and every page checked at every cut) gives byte for byte the same
    result.json (apart from the parameter itself) and power-loss.csv:
    the bounded work of a cut misses nothing.

Cases run until --ops host commands have been simulated.  A failing case
prints its command line (which reproduces it) and the soak exits 1.

Usage: tools/soak.py SSDLAB [--ops N] [--seed S] [--cuts C] [--keep DIR]
                     [--compare-full]
docs/reliability.md records the last result.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proptest import draw_drive  # noqa: E402


def draw_case(r):
    drive = draw_drive(r)
    # the power-loss model tracks page-mapped write points with GC copies
    # apart from the host's, and zoned drives (block mapping is refused
    # with a message)
    drive["gc_copies"] = "own"
    if drive.get("mapping") != "zone":
        for k in ("mapping", "log_blocks"):
            drive.pop(k, None)
    drive["plp"] = r.choice(["no", "yes"])
    drive["power_recovery"] = r.choice(["summary", "summary", "scan"])
    if drive["plp"] == "yes" and r.random() < 0.2:
        drive["plp_hold_up"] = r.choice(["1us", "100us"])  # too small: loses
    params = {
        "qd": r.choice([1, 2, 8, 8, 32]),
        "bs": "%dk" % (4 * r.choice([1, 1, 1, 2, 4, 16])),
        "write_pct": r.choice([50, 70, 90]),
        "trim_pct": r.choice([0, 5, 10]),
        "fua_pct": r.choice([0, 5, 20]),
        "flush_every": r.choice([0, 8, 64, 512]),
        "interval": r.choice(["0.01", "1", "10", "60", "60"]),
        "fill": r.choice(["100%", "100%", "50%"]),
        "check": r.choice([64, 256, 1024]),
    }
    # drawn last, so that the draws above stay what they were
    drive["paired_pages"] = r.choice(["independent", "independent", "protected",
                                      "protected", "unprotected"])
    if drive.get("mapping") == "zone" or drive.get("fdp") == "yes":
        # paired pages are guarded on the unit's own write points only
        drive["paired_pages"] = "independent"
    if drive.get("mapping") == "zone" and drive["page_size"] != "4k":
        # every flush and FUA write pads each open zone's page, into the
        # reserve until the zone fills (docs/zoned.md)
        params["fua_pct"] = 0
        params["flush_every"] = r.choice([0, 64, 512])
    return drive, params


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ssdlab")
    ap.add_argument("--ops", type=float, default=1e9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cuts", type=int, default=20, help="power cuts per case")
    ap.add_argument("--keep", help="keep every case's output here")
    ap.add_argument("--compare-full", action="store_true",
                    help="run every case again with full=1: the outputs must match")
    a = ap.parse_args()
    total = cuts = checks = cases = lost = worn = plp_cases = paired_lost = 0
    t0 = time.time()
    base = a.keep or tempfile.mkdtemp(prefix="ssdlab-soak-")
    while total < a.ops:
        r = random.Random(a.seed * 1000003 + cases)
        drive, params = draw_case(r)
        out = os.path.join(base, "case%d" % cases)
        cmd = [a.ssdlab, "scenario", "run", "power-loss", "--drive", "tiny",
               "--seed", str(a.seed * 1000003 + cases), "--out", out,
               "--set", "cuts=%d" % a.cuts]
        for k, v in list(drive.items()) + list(params.items()):
            cmd += ["--set", "%s=%s" % (k, v)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        line = " ".join(cmd)
        if not a.keep and p.returncode in (1, 2) and os.path.isdir(out) and (
                "wore out before the first cut" in p.stderr or
                (p.returncode == 2 and "key" in p.stderr)):
            shutil.rmtree(out)
        if p.returncode == 2 and p.stdout == "" and "key" in p.stderr:
            cases += 1  # a drive the model refuses with a message: not a case
            continue
        if p.returncode == 1 and "wore out before the first cut" in p.stderr:
            cases += 1  # endurance so low the fill used it up: not a case
            worn += 1
            continue
        if p.returncode != 0:
            print("FAIL (exit %d): %s\n%s" % (p.returncode, line, p.stderr), file=sys.stderr)
            return 1
        res = json.load(open(os.path.join(out, "result.json")))
        if a.compare_full:
            full_out = out + "-full"
            q = subprocess.run([x if x != out else full_out for x in cmd] +
                               ["--set", "full=1"], capture_output=True, text=True)
            res_full = (json.load(open(os.path.join(full_out, "result.json")))
                        if q.returncode == 0 else None)
            same = (q.returncode == 0 and q.stdout.replace(full_out, out) == p.stdout and
                    {k: v for k, v in res_full.items() if k != "parameters"} ==
                    {k: v for k, v in res.items() if k != "parameters"} and
                    open(os.path.join(full_out, "power-loss.csv")).read() ==
                    open(os.path.join(out, "power-loss.csv")).read())
            if not same:
                print("FAIL (full=1 differs, exit %d %s): %s" %
                      (q.returncode, q.stderr.strip(), line), file=sys.stderr)
                return 1
            if not a.keep:
                shutil.rmtree(full_out)
        # an unprotected controller may lose flushed data to paired pages
        # (the model's finding, counted); nothing else may
        exposed = (drive["paired_pages"] == "unprotected" and
                   res["cuts_saved_by_plp"] < res["cuts"])
        if exposed:
            paired_lost += res["flushed_lost"]
        elif res["flushed_lost"] != 0:
            print("FAIL (flushed_lost %d: %s): %s" % (res["flushed_lost"],
                  res.get("first_flushed_loss"), line), file=sys.stderr)
            return 1
        if res["cuts_saved_by_plp"] == res["cuts"] and res["unflushed_lost"]:
            print("FAIL (plp saved every cut, %d pages lost): %s" %
                  (res["unflushed_lost"], line), file=sys.stderr)
            return 1
        if res.get("unplaced_lp") and not res.get("wore_out"):
            print("FAIL (%d pages unplaced on a drive with room): %s" %
                  (res["unplaced_lp"], line), file=sys.stderr)
            return 1
        if res["checks"] < 1:
            print("FAIL (the checker never ran): %s" % line, file=sys.stderr)
            return 1
        total += res["commands"]
        cuts += res["cuts"]
        checks += res["checks"]
        lost += res["unflushed_lost"]
        worn += bool(res.get("wore_out"))
        plp_cases += drive["plp"] == "yes"
        cases += 1
        if not a.keep:
            shutil.rmtree(out)
        print("case %d: %d commands, %d cuts, %d checks, unflushed_lost %d%s "
              "(total %.3g of %.3g commands, %.0f s)" %
              (cases - 1, res["commands"], res["cuts"], res["checks"],
               res["unflushed_lost"], ", wore out" if res.get("wore_out") else "",
               total, a.ops, time.time() - t0), flush=True)
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    print("soak: %d cases (%d with plp, %d wore out), %d host commands, %d power cuts, "
          "%d invariant checks, flushed_lost 0 (%d on unprotected paired pages), "
          "unflushed_lost %d, %.0f s" %
          (cases, plp_cases, worn, total, cuts, checks, paired_lost, lost,
           time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
