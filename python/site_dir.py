"""Prints the directory under PREFIX that this Python imports packages
from -- where `make install` puts the ssdlab package:

    python3 python/site_dir.py PREFIX

Debian's python3 searches PREFIX/lib/python3.X/dist-packages for
PREFIX /usr/local (and /usr/lib/python3/dist-packages for /usr); other
builds of Python PREFIX/lib/python3.X/site-packages (sysconfig's
purelib).  The first of those this interpreter has on sys.path, else
the one its kind would search (then set PYTHONPATH to it).
"""
import os
import sys
import sysconfig


def site_dir(prefix):
    prefix = os.path.abspath(prefix)
    ver = "python%d.%d" % sys.version_info[:2]
    purelib = sysconfig.get_path("purelib", "posix_prefix",
                                 vars={"base": prefix, "platbase": prefix})
    debian = [os.path.join(prefix, "lib", ver, "dist-packages"),
              os.path.join(prefix, "lib", "python3", "dist-packages")]
    if prefix == "/usr":
        debian.reverse()
    path = [os.path.abspath(p) for p in sys.path if p]
    for d in [purelib] + debian:
        if d in path:
            return d
    if any(p.endswith("dist-packages") for p in path):
        return debian[0]
    return purelib


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: site_dir.py PREFIX")
    print(site_dir(sys.argv[1]))
