"""The library's figures as Python values: a drive's counters, its
health, a job's figures per direction, a point of a run's series.
Plain read-only records (named tuples), built from the C structs field
by field; a list of them becomes a table with ssdlab.frame()."""
import operator
from collections import namedtuple

from . import _lib

OPS = ("read", "write", "trim")
OP_CODES = {"read": 0, "write": 1, "trim": 2}


def op_code(op):
    """0, 1 or 2 for "read", "write", "trim" (or the number itself)."""
    if isinstance(op, str):
        code = OP_CODES.get(op)
    elif isinstance(op, bool) or not hasattr(type(op), "__index__"):
        raise _lib.ArgumentTypeError("op must be \"read\", \"write\", \"trim\" or "
                                     "0, 1, 2, not %s %r" % (type(op).__name__, op))
    else:
        code = operator.index(op)
    if code not in (0, 1, 2):
        raise _lib.Error(-1, "op %r: not one of read, write, trim" % (op,))
    return code


class Counters(namedtuple("Counters", _lib.COUNTER_FIELDS)):
    """What the drive did (struct ssdlab_counters): lp are 4 KiB logical
    pages, nand_* NAND pages or blocks.  `after - before` is a period's
    counters; .waf its write amplification (NaN when the host wrote
    nothing: the library's one definition)."""
    __slots__ = ()

    @classmethod
    def _from_c(cls, c):
        return cls(*(getattr(c, n) for n in _lib.COUNTER_FIELDS))

    def _to_c(self):
        return _lib.CCounters(*self)

    def __sub__(self, other):
        if not isinstance(other, Counters):
            return NotImplemented
        out = _lib.CCounters()
        _lib.lib.ssdlab_counters_sub(self._to_c(), other._to_c(), out)
        return Counters._from_c(out)

    @property
    def waf(self):
        return _lib.lib.ssdlab_waf(self._to_c())

    def as_dict(self):
        return dict(self._asdict())


_HEALTH = [n for n, _ in _lib.CHealth._fields_]


class Health(namedtuple("Health", _HEALTH)):
    """The drive's health, SMART-like (struct ssdlab_health); erase_hist
    is a tuple of ssdlab.WEAR_BINS counts, read_only a bool."""
    __slots__ = ()

    @classmethod
    def _from_c(cls, c):
        v = {n: getattr(c, n) for n in _HEALTH}
        v["erase_hist"] = tuple(c.erase_hist)
        v["read_only"] = bool(c.read_only)
        return cls(**v)

    def as_dict(self):
        return dict(self._asdict())


class DirStats(namedtuple("DirStats", "ios bytes iops bw_bytes lat_mean_ns lat_max_ns")):
    """One direction of a job (struct ssdlab_dir_stats): I/Os and bytes,
    their rates per simulated second, mean and largest completion
    latency in ns."""
    __slots__ = ()

    @classmethod
    def _from_c(cls, c):
        return cls(c.ios, c.bytes, c.iops, c.bw_bytes, c.lat_mean_ns, c.lat_max_ns)


class Point(namedtuple("Point", "t_ns len_ns read write trim")):
    """A step of a run's series (struct ssdlab_point): its start (ns since
    the run began) and length, and per direction a DirStats of what
    completed in it (lat_max_ns the largest latency of the step)."""
    __slots__ = ()

    @classmethod
    def _from_c(cls, c):
        dirs = [DirStats(c.ios[d], c.bytes[d], c.iops[d], c.bw_bytes[d],
                         c.lat_mean_ns[d], c.lat_max_ns[d]) for d in range(3)]
        return cls(c.t_ns, c.len_ns, *dirs)

    def row(self):
        """A flat dict: t_s (the step's end, seconds, as fio's logs stamp
        it), then read_iops, write_iops, ..., trim_lat_max_ns."""
        out = {"t_s": (self.t_ns + self.len_ns) / 1e9, "len_s": self.len_ns / 1e9}
        for op in OPS:
            for k, v in getattr(self, op)._asdict().items():
                out["%s_%s" % (op, k)] = v
        return out


class Zoned(namedtuple("Zoned", [n for n, _ in _lib.CZoned._fields_])):
    """A zoned drive's namespace (struct ssdlab_zoned): zone_size and
    zone_cap in bytes, nzones, max_open and max_active (0: no limit),
    lba (logical block bytes), max_append (bytes)."""
    __slots__ = ()


ZONE_STATES = {0x1: "empty", 0x2: "implicitly_opened", 0x3: "explicitly_opened",
               0x4: "closed", 0xd: "read_only", 0xe: "full", 0xf: "offline"}


class Zone(namedtuple("Zone", "start cap wp written state finished_by_controller")):
    """One zone's descriptor (struct ssdlab_zone): start, cap, wp (None
    when the zone has no write pointer) and written in bytes; state a
    name ("empty", "implicitly_opened", "full"...)."""
    __slots__ = ()

    @classmethod
    def _from_c(cls, c):
        return cls(c.start, c.cap, None if c.wp == 2 ** 64 - 1 else c.wp, c.written,
                   ZONE_STATES.get(c.state, c.state), bool(c.finished_by_controller))
