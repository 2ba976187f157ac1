#!/usr/bin/env python3
"""waf_vs_op.py -- write amplification against the spare fraction.

Sweeps the drive key `op` (over-provisioning: the share of the flash
the host does not see) on a small drive: for each value a fresh drive
is filled sequentially, then written at random in 4 KiB blocks, twice
its capacity over; the WAF is measured over the random writes.  Prints
a table of op -> WAF, and plots WAF against op into a PNG when
matplotlib is installed (else says the plot was skipped).

    python3 waf_vs_op.py [--drive tiny] [--ops 0.07,0.1,...] [--png FILE]

Needs the ssdlab Python package (`make install`; docs/python.md).
"""
import argparse
import sys

import ssdlab

OPS = (0.07, 0.1, 0.15, 0.2, 0.28, 0.4, 0.5)


def workload():
    """A sequential fill, then random 4 KiB writes over twice the drive."""
    return (ssdlab.Jobs()
            .add("fill", rw="write", bs="128k", iodepth=4)
            .add("random", stonewall=True, rw="randwrite", bs="4k",
                 iodepth=32, io_size="200%", norandommap=True))


def measure(drive, op, seed):
    """(WAF of the random writes, GC copies, write IOPS) at this op."""
    with ssdlab.Device(ssdlab.Drive(drive, op=op), seed=seed) as dev:
        with dev.run(workload(), seed=seed) as res:
            rnd = res.job("random")
            return rnd.waf, rnd.counters.gc_copy_lp, rnd.write.iops


def plot(rows, path, drive):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: skipped the plot (python3-matplotlib)")
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([r[0] for r in rows], [r[1] for r in rows], "o-")
    ax.set_xlabel("spare fraction (op)")
    ax.set_ylabel("write amplification")
    ax.set_title("random 4 KiB writes, drive %s" % drive)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print("plot: %s" % path)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--drive", default="tiny", help="preset or drive file (tiny)")
    ap.add_argument("--ops", default=",".join(map(str, OPS)),
                    help="op values, comma separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--png", default="waf_vs_op.png", help="the plot's file")
    a = ap.parse_args(argv)
    try:
        ops = [float(x) for x in a.ops.split(",")]
    except ValueError:
        ap.error("--ops %r: not comma-separated numbers" % a.ops)
    rows = []
    print("%6s %8s %12s %10s" % ("op", "WAF", "GC copies", "IOPS"))
    for op in ops:
        try:
            waf, copies, iops = measure(a.drive, op, a.seed)
        except ssdlab.Error as e:
            print("waf_vs_op: op=%g: %s" % (op, e), file=sys.stderr)
            return 1
        rows.append((op, waf, copies, iops))
        print("%6.3f %8.3f %12d %10.0f" % (op, waf, copies, iops), flush=True)
    plot(rows, a.png, a.drive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
