"""What the Python tests share: the source tree, small drives and jobs."""
import os

import ssdlab

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# a fill then random writes into the full drive: GC, a WAF above 1
JOBTEXT = """[global]
bs=4k
[fill]
rw=write
bs=128k
[random]
stonewall
rw=randwrite
iodepth=16
io_size=100%
norandommap
"""


def built_jobs():
    """JOBTEXT, built in code."""
    return (ssdlab.Jobs().global_(bs="4k")
            .add("fill", rw="write", bs="128k")
            .add("random", stonewall=True, rw="randwrite", iodepth=16,
                 io_size="100%", norandommap=True))


def tiny(**keys):
    return ssdlab.Drive("tiny", **keys)
