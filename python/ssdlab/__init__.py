"""ssdlab: a simulated flash SSD, from Python (docs/python.md).

A ctypes binding of the C library libssdlab.so (include/ssdlab.h):

    import ssdlab
    drive = ssdlab.Drive("tiny", op=0.28)
    with ssdlab.Device(drive, seed=1) as dev:
        res = dev.run("[w]\\nrw=randwrite\\nbs=4k\\nio_size=200%\\n")
        print(res.jobs[0].write.iops, res.jobs[0].waf, dev.health())

Every object that holds a C handle (Drive, Device, Result) frees it
once: close(), a `with` block, or garbage collection.  Every failure is
an ssdlab.Error carrying the library's code and its one-line message;
an argument of the wrong type or value is refused before it reaches the
library, with an Error that is also a TypeError or a ValueError.
"""
from ._lib import ArgumentTypeError, ArgumentValueError, Error, LIBRARY, WEAR_BINS
from ._lib import lib as _clib
from ._lib import strerror as _lib_strerror
from .device import Device
from .drive import Drive
from .frames import frame, have_pandas
from .jobs import Jobs
from .result import PERCENTILES, JobStats, Result, Series
from .values import Counters, DirStats, Health, Point, Zone, Zoned

__all__ = ["Error", "ArgumentTypeError", "ArgumentValueError", "Drive", "Device", "Jobs", "Result", "JobStats",
           "Series", "Counters", "Health", "DirStats", "Point", "Zone",
           "Zoned", "frame", "memory_available",
           "have_pandas", "strerror", "library_version", "LIBRARY",
           "WEAR_BINS", "PERCENTILES", "__version__"]


def strerror(code):
    """The library's description of an SSDLAB_E* code."""
    from ._args import integer
    return _lib_strerror(integer("code", code))


def library_version():
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return _clib.ssdlab_version().decode()


def memory_available():
    """Bytes this process may still take (what Device() checks a drive's
    memory against), or None when the system says nothing."""
    import ctypes
    v = ctypes.c_uint64()
    return v.value if _clib.ssdlab_memory_available(ctypes.byref(v)) == 0 else None


__version__ = library_version()
