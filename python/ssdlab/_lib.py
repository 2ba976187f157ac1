"""The C library, loaded with ctypes: where libssdlab.so is found, the
prototypes of include/ssdlab.h's functions and the mirrors of its
structs, and the one exception class.

The library is looked for, in this order:

1. $SSDLAB_LIBRARY, a path to libssdlab.so (an explicit choice wins:
   a build tree's library under an installed module);
2. the library `make install` installed beside this module (its path
   is written into _config.py at install time);
3. the build tree this module sits in (python/ssdlab/ of a source tree:
   build/libssdlab.so.VERSION), for use without installing;
4. the linker's search path (ctypes.util.find_library).

The structs must match the header field for field:
tests/python/test_abi.py reads include/ssdlab.h and compares.
"""
import ctypes
import ctypes.util
import glob
import os

__all__ = ["Error", "ArgumentTypeError", "ArgumentValueError", "lib", "libc", "LIBRARY", "PRESETS", "check", "ERRBUF"]

# the real folder: a source tree's python/ reached through a link still
# finds its build/
_here = os.path.dirname(os.path.realpath(__file__))


def _installed():
    try:
        from . import _config
    except ImportError:
        return None, None
    return getattr(_config, "LIBRARY", None), getattr(_config, "PRESETS", None)


def _in_tree():
    top = os.path.dirname(os.path.dirname(_here))
    build = os.path.join(top, "build")
    if not os.path.isfile(os.path.join(top, "include", "ssdlab.h")):
        return None
    found = sorted(glob.glob(os.path.join(build, "libssdlab.so.*.*.*")))
    return found[-1] if found else None


def _find():
    """(path, presets directory or None, where it came from)."""
    tried = []
    env = os.environ.get("SSDLAB_LIBRARY")
    if env:
        return env, None, "$SSDLAB_LIBRARY"
    tried.append("$SSDLAB_LIBRARY (not set)")
    path, presets = _installed()
    if path and os.path.exists(path):
        return path, presets, "the installed module"
    tried.append(path and "the installed library %s" % path or
                 "an installed library (this module was not installed)")
    path = _in_tree()
    if path:
        return path, None, "the build tree"
    tried.append("build/libssdlab.so.* of a source tree")
    path = ctypes.util.find_library("ssdlab")
    if path:
        return path, None, "the linker's search path"
    tried.append("the linker's search path")
    raise ImportError("ssdlab: libssdlab.so not found; tried " +
                      ", ".join(tried) +
                      " (make install, or set SSDLAB_LIBRARY to its path)")


LIBRARY, PRESETS, SOURCE = _find()
try:
    lib = ctypes.CDLL(LIBRARY)
except OSError as e:
    raise ImportError("ssdlab: cannot load %s (from %s): %s" %
                      (LIBRARY, SOURCE, e)) from None
# the C library itself: FILE streams in memory for the reports
libc = ctypes.CDLL(None)

# ---- errors ----

CODES = {
    0: "SSDLAB_OK", -1: "SSDLAB_EINVAL", -2: "SSDLAB_ENOMEM",
    -3: "SSDLAB_EIO", -4: "SSDLAB_ERANGE", -5: "SSDLAB_ENOSPC",
    -6: "SSDLAB_EROFS", -7: "SSDLAB_EPARSE", -8: "SSDLAB_ENOENT",
    -9: "SSDLAB_EUNSUP", -10: "SSDLAB_ESTATE", -11: "SSDLAB_EILSEQ",
    -12: "SSDLAB_ETIMEDOUT",
    -0x1002: "SSDLAB_ZNS_EFIELD", -0x2002: "SSDLAB_FDP_EPID",
    -0x11b6: "SSDLAB_ZNS_EZONEOP", -0x11b7: "SSDLAB_ZNS_ENOZRWA",
    -0x1080: "SSDLAB_ZNS_ERANGE", -0x11b8: "SSDLAB_ZNS_EBOUNDARY",
    -0x11b9: "SSDLAB_ZNS_EFULL", -0x11ba: "SSDLAB_ZNS_EREADONLY",
    -0x11bb: "SSDLAB_ZNS_EOFFLINE", -0x11bc: "SSDLAB_ZNS_EWRITE",
    -0x11bd: "SSDLAB_ZNS_EMAXACTIVE", -0x11be: "SSDLAB_ZNS_EMAXOPEN",
    -0x11bf: "SSDLAB_ZNS_ETRANSITION",
}


class Error(Exception):
    """What the library refused or failed: `code` is its negative
    SSDLAB_E* code, `name` that code's name ("SSDLAB_ENOENT"), `message`
    one line naming where and what is wrong (str(e) is the message)."""

    def __init__(self, code, message=None):
        self.code = int(code)
        self.name = CODES.get(self.code, "SSDLAB_E%d" % -self.code)
        self.message = message or strerror(self.code)
        self.result = None  # a run's partial ssdlab.Result (Device.run)
        super().__init__(self.message)


Error.__module__ = "ssdlab"


class ArgumentTypeError(Error, TypeError):
    """An argument of the wrong type (a str or a float for an offset, None
    for a length), refused before anything reaches the library: an
    ssdlab.Error (SSDLAB_EINVAL) that is also a TypeError."""

    def __init__(self, message):
        super().__init__(-1, message)


class ArgumentValueError(Error, ValueError):
    """A value no call could take (a negative or non-finite duration, a
    seed below 0), refused before anything reaches the library: an
    ssdlab.Error (SSDLAB_EINVAL) that is also a ValueError."""

    def __init__(self, message):
        super().__init__(-1, message)


ArgumentTypeError.__module__ = ArgumentValueError.__module__ = "ssdlab"


def strerror(code):
    return lib.ssdlab_strerror(int(code)).decode()


ERRBUF = 1024


def errbuf():
    return ctypes.create_string_buffer(ERRBUF)


def check(rc, err=None, what=None):
    """Raise Error for a negative rc; the message from err (a buffer the
    call filled), else `what` and the code's description."""
    if rc >= 0:
        return rc
    msg = err.value.decode(errors="replace") if err is not None else ""
    if not msg:
        msg = strerror(rc)
        if what:
            msg = "%s: %s" % (what, msg)
    raise Error(rc, msg.splitlines()[0] if msg else None)


# ---- structs (include/ssdlab.h) ----

u64, i64, u32, dbl, cint = (ctypes.c_uint64, ctypes.c_int64, ctypes.c_uint32,
                            ctypes.c_double, ctypes.c_int)

COUNTER_FIELDS = [
    "host_read_lp", "host_write_lp", "host_trim_lp", "host_write_bytes",
    "host_unmapped_read_lp", "nand_read", "nand_prog", "nand_erase",
    "nand_prog_lp", "gc_copy_lp", "gc_bg_copy_lp", "fold_copy_lp",
    "wl_copy_lp", "gc_victims", "pad_lp", "flushes", "slc_write_lp",
    "map_read", "map_write", "rmw_read_lp", "read_retry", "read_ahead_lp",
    "read_ahead_hit_lp", "buffer_hits", "erase_fail", "prog_fail",
    "ro_reject",
]


class CCounters(ctypes.Structure):
    _fields_ = [(n, u64) for n in COUNTER_FIELDS]


WEAR_BINS = 16


class CHealth(ctypes.Structure):
    _fields_ = [
        ("percentage_used", dbl), ("max_wear_pct", dbl),
        ("available_spare", dbl), ("spare_blocks", u64),
        ("bad_blocks", u64), ("erase_failures", u64),
        ("program_failures", u64), ("read_only", cint),
        ("host_bytes_written", u64), ("host_bytes_read", u64),
        ("nand_bytes_written", u64), ("slc_cache_bytes", u64),
        ("erase_min", u32), ("erase_max", u32), ("erase_mean", dbl),
        ("erase_hist_lo", u32), ("erase_hist_width", u32),
        ("erase_hist", u64 * WEAR_BINS), ("free_blocks", u64),
    ]


class CDirStats(ctypes.Structure):
    _fields_ = [("ios", u64), ("bytes", u64), ("iops", dbl),
                ("bw_bytes", dbl), ("lat_mean_ns", dbl), ("lat_max_ns", dbl)]


class CJobStats(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p), ("error", cint),
        ("errmsg", ctypes.c_char_p), ("start_ns", i64),
        ("runtime_ns", i64), ("dir", CDirStats * 3), ("ctr", CCounters),
        ("waf", dbl), ("health", CHealth),
    ]


class CPoint(ctypes.Structure):
    _fields_ = [
        ("t_ns", i64), ("len_ns", i64), ("ios", u64 * 3),
        ("bytes", u64 * 3), ("iops", dbl * 3), ("bw_bytes", dbl * 3),
        ("lat_mean_ns", dbl * 3), ("lat_max_ns", dbl * 3),
    ]


class CZoned(ctypes.Structure):
    _fields_ = [("zone_size", u64), ("zone_cap", u64), ("nzones", u32),
                ("max_open", u32), ("max_active", u32), ("lba", u32),
                ("max_append", u64)]


class CZone(ctypes.Structure):
    _fields_ = [("start", u64), ("cap", u64), ("wp", u64), ("written", u64),
                ("state", cint), ("finished_by_controller", cint)]


# ---- prototypes ----

P = ctypes.c_void_p
PP = ctypes.POINTER(ctypes.c_void_p)
S = ctypes.c_char_p
SZ = ctypes.c_size_t
_protos = {
    "ssdlab_version": (S, []),
    "ssdlab_strerror": (S, [cint]),
    "ssdlab_drive_new": (cint, [PP]),
    "ssdlab_drive_load": (cint, [P, S, S, S, SZ]),
    "ssdlab_drive_set": (cint, [P, S, S, S, SZ]),
    "ssdlab_drive_finish": (cint, [P, S, SZ]),
    "ssdlab_drive_capacity": (u64, [P]),
    "ssdlab_drive_physical_bytes": (u64, [P]),
    "ssdlab_drive_print": (cint, [P, P]),
    "ssdlab_drive_json": (cint, [P, P]),
    "ssdlab_drive_free": (None, [P]),
    "ssdlab_drive_memory": (u64, [P, ctypes.c_uint]),
    "ssdlab_dev_open": (cint, [P, u64, PP]),
    "ssdlab_dev_close": (None, [P]),
    "ssdlab_dev_save": (cint, [P, S, S, SZ]),
    "ssdlab_dev_load": (cint, [S, P, PP, S, SZ]),
    "ssdlab_dev_capacity": (u64, [P]),
    "ssdlab_submit": (i64, [P, cint, u64, u32, i64]),
    "ssdlab_flush": (i64, [P, i64]),
    "ssdlab_zoned": (cint, [P, ctypes.POINTER(CZoned)]),
    "ssdlab_zone_send": (i64, [P, cint, u64, cint, i64]),
    "ssdlab_zone_report": (cint, [P, u32, ctypes.POINTER(CZone)]),
    "ssdlab_append_offset": (u64, [P]),
    "ssdlab_memory_available": (cint, [ctypes.POINTER(u64)]),
    "ssdlab_idle": (cint, [P, i64]),
    "ssdlab_now": (i64, [P]),
    "ssdlab_counters": (cint, [P, ctypes.POINTER(CCounters)]),
    "ssdlab_counters_sub": (None, [ctypes.POINTER(CCounters)] * 3),
    "ssdlab_waf": (dbl, [ctypes.POINTER(CCounters)]),
    "ssdlab_health": (cint, [P, ctypes.POINTER(CHealth)]),
    "ssdlab_jobs_new": (cint, [S, u64, PP]),
    "ssdlab_jobs_parse": (cint, [P, S, S, SZ]),
    "ssdlab_jobs_parse_file": (cint, [P, S, S, SZ]),
    "ssdlab_jobs_global": (cint, [P]),
    "ssdlab_jobs_add": (cint, [P, S]),
    "ssdlab_jobs_set": (cint, [P, S, S]),
    "ssdlab_jobs_end": (cint, [P, S, SZ]),
    "ssdlab_jobs_count": (cint, [P]),
    "ssdlab_jobs_free": (None, [P]),
    "ssdlab_run": (cint, [P, P, u64, PP, S, SZ]),
    "ssdlab_run_series": (cint, [P, P, u64, i64, PP, S, SZ]),
    "ssdlab_result_points": (cint, [P]),
    "ssdlab_result_point": (cint, [P, cint, ctypes.POINTER(CPoint)]),
    "ssdlab_result_job_point": (cint, [P, cint, cint, ctypes.POINTER(CPoint)]),
    "ssdlab_result_jobs": (cint, [P]),
    "ssdlab_result_job": (cint, [P, cint, ctypes.POINTER(CJobStats)]),
    "ssdlab_result_percentile": (i64, [P, cint, cint, dbl]),
    "ssdlab_report": (cint, [P, S, P]),
    "ssdlab_result_free": (None, [P]),
}
for _name, (_res, _args) in _protos.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

libc.open_memstream.restype = P
libc.open_memstream.argtypes = [PP, ctypes.POINTER(SZ)]
libc.fclose.restype = cint
libc.fclose.argtypes = [P]
libc.free.restype = None
libc.free.argtypes = [P]


def to_text(write, what=None):
    """Call write(FILE *) on a stream in memory; its text (raises Error
    when write returns a negative code, its message led by `what`)."""
    buf = ctypes.c_void_p()
    size = SZ()
    f = libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
    if not f:
        raise Error(-2, "open_memstream: out of memory")
    try:
        rc = write(f)
    finally:
        libc.fclose(f)
        text = ctypes.string_at(buf.value, size.value).decode(
            errors="replace") if buf.value else ""
        libc.free(buf)
    check(rc, what=what)
    return text


def enc(s):
    return None if s is None else os.fsencode(s) if isinstance(s, os.PathLike) \
        else str(s).encode()
