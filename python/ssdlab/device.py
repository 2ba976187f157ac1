"""ssdlab.Device: a simulated drive (ssdlab_dev) -- commands at
simulated times, idle time, counters, health, snapshots, runs."""
import math

from . import _lib
from ._handle import Handle, new_ptr
from .jobs import Jobs
from .result import Result
from .values import Counters, Health, Zone, Zoned, op_code

FUA = 0x100
DIRECT = 0x200
APPEND = 0x400
ZONE_ACTIONS = {"close": 1, "finish": 2, "open": 3, "reset": 4, "offline": 5,
                "zrwa_flush": 0x11}


def _ns(t):
    return int(t)


class Device(Handle):
    """A drive built from a Drive, fresh from the factory (every block
    erased); `seed` drives everything random in the flash.

    Times are simulated nanoseconds since the drive was made (ints).  A
    command's time t defaults to the drive's time now (.now): issued
    right after everything before it completed.  Each command returns
    its completion time.
    """
    _free = "ssdlab_dev_close"
    _what = "Device"

    def __init__(self, drive, seed=1):
        super().__init__()
        if isinstance(drive, str):
            drive = _drive_module().Drive(drive)
        p = new_ptr()
        _lib.check(_lib.lib.ssdlab_dev_open(drive._ptr, int(seed), p),
                   what="Device(%r)" % (drive,))
        self._own(p.value)

    @classmethod
    def load(cls, path, drive=None):
        """The drive saved in `path` by save(), going on as it would have
        (`drive`, if given, must be the drive in the file)."""
        dev = cls.__new__(cls)
        Handle.__init__(dev)
        p = new_ptr()
        err = _lib.errbuf()
        _lib.check(_lib.lib.ssdlab_dev_load(
            _lib.enc(path), drive._ptr if drive is not None else None, p,
            err, _lib.ERRBUF), err)
        dev._own(p.value)
        return dev

    def save(self, path):
        """Write the drive's whole state to `path` (docs/snapshots.md)."""
        err = _lib.errbuf()
        _lib.check(_lib.lib.ssdlab_dev_save(self._ptr, _lib.enc(path), err,
                                            _lib.ERRBUF), err)

    @property
    def capacity(self):
        return _lib.lib.ssdlab_dev_capacity(self._ptr)

    @property
    def now(self):
        """The time the drive has reached, ns: the next command may come."""
        return _lib.lib.ssdlab_now(self._ptr)

    # ---- commands ----

    def submit(self, op, offset, length, t=None, fua=False, direct=False,
               placement=None):
        """Submit read/write/trim of [offset, offset + length) bytes at
        time t; its completion time.  fua: Force Unit Access (writes);
        direct: bypass a machine's page cache; placement: an FDP reclaim
        unit handle (writes)."""
        code = op_code(op)
        flags = code | (FUA if fua else 0) | (DIRECT if direct else 0)
        if placement is not None:
            flags |= (int(placement) + 1) << 16
        t = self.now if t is None else _ns(t)
        rc = _lib.lib.ssdlab_submit(self._ptr, flags, int(offset), int(length), t)
        return _lib.check(rc, what="%s of %d bytes at offset %d at t=%d ns" % (
            ("read", "write", "trim")[code], length, offset, t))

    def read(self, offset, length, t=None, **kw):
        return self.submit("read", offset, length, t, **kw)

    def write(self, offset, length, t=None, **kw):
        return self.submit("write", offset, length, t, **kw)

    def trim(self, offset, length, t=None, **kw):
        return self.submit("trim", offset, length, t, **kw)

    # ---- zoned drives (docs/zoned.md) ----

    @property
    def zoned(self):
        """A zoned drive's namespace (ssdlab.Zoned), or None."""
        z = _lib.CZoned()
        if _lib.lib.ssdlab_zoned(self._ptr, z) != 1:
            return None
        return Zoned(*(getattr(z, n) for n, _ in _lib.CZoned._fields_))

    def zone(self, i):
        """Report Zones for zone i (ssdlab.Zone)."""
        z = _lib.CZone()
        _lib.check(_lib.lib.ssdlab_zone_report(self._ptr, int(i), z),
                   what="zone %d" % i)
        return Zone._from_c(z)

    def zone_send(self, action, offset, t=None, all=False, zrwaa=False):
        """Zone Management Send: action ("open", "close", "finish",
        "reset", "offline", "zrwa_flush") on the zone that starts at
        offset, or on every zone it selects with all=True; zrwaa=True
        gives an opened zone a random write area.  Its completion time."""
        if action not in ZONE_ACTIONS:
            raise _lib.Error(-1, "zone action %r: not one of %s" % (
                action, ", ".join(ZONE_ACTIONS)))
        t = self.now if t is None else _ns(t)
        flags = (1 if all else 0) | (2 if zrwaa else 0)
        rc = _lib.lib.ssdlab_zone_send(self._ptr, ZONE_ACTIONS[action], int(offset),
                                       flags, t)
        return _lib.check(rc, what="zone %s at offset %d at t=%d ns" % (action, offset, t))

    def append(self, zone_start, length, t=None):
        """Zone Append to the zone that starts at zone_start: (its
        completion time, the byte offset it was written at)."""
        t = self.now if t is None else _ns(t)
        rc = _lib.lib.ssdlab_submit(self._ptr, 1 | APPEND, int(zone_start),
                                    int(length), t)
        done = _lib.check(rc, what="zone append of %d bytes to the zone at %d at t=%d ns"
                          % (length, zone_start, t))
        return done, _lib.lib.ssdlab_append_offset(self._ptr)

    def flush(self, t=None):
        """Make every write so far durable; the flush's completion time."""
        t = self.now if t is None else _ns(t)
        return _lib.check(_lib.lib.ssdlab_flush(self._ptr, t),
                          what="flush at t=%d ns" % t)

    def idle(self, until=None, seconds=None):
        """Leave the drive idle until time `until` (ns), or for `seconds`
        from now: its background work (GC, folding, TRIM) runs."""
        if until is None:
            until = self.now + int(round((seconds or 0) * 1e9))
        _lib.check(_lib.lib.ssdlab_idle(self._ptr, _ns(until)),
                   what="idle until t=%d ns" % until)
        return self.now

    # ---- state ----

    def counters(self):
        """What the drive did since it was made (ssdlab.Counters)."""
        c = _lib.CCounters()
        _lib.check(_lib.lib.ssdlab_counters(self._ptr, c), what="counters")
        return Counters._from_c(c)

    @property
    def waf(self):
        """Write amplification since the drive was made (NaN before the
        host wrote)."""
        return self.counters().waf

    def health(self):
        """The drive's health (ssdlab.Health)."""
        h = _lib.CHealth()
        _lib.check(_lib.lib.ssdlab_health(self._ptr, h), what="health")
        return Health._from_c(h)

    # ---- runs ----

    def run(self, jobs, seed=1, series=None):
        """Run a workload (a Jobs, or fio job text) from the drive's time
        now; an ssdlab.Result.  series: keep the run's time series with
        points of that many seconds (1: one a second; Result.series).

        A run that fails raises ssdlab.Error; when it got as far as
        starting a job, the error's .result holds what it measured."""
        if isinstance(jobs, str):
            jobs = Jobs(jobs)
        step = None
        if series is not None:
            if not math.isfinite(float(series)) or not float(series) * 1e9 >= 1:
                raise _lib.Error(-1, "series=%r: a step in seconds, 1 ns or more" % (series,))
            step = int(round(float(series) * 1e9))
        with jobs._make(self.capacity) as w:
            p = new_ptr()
            err = _lib.errbuf()
            if step is None:
                rc = _lib.lib.ssdlab_run(self._ptr, w._ptr, int(seed), p, err,
                                         _lib.ERRBUF)
            else:
                rc = _lib.lib.ssdlab_run_series(self._ptr, w._ptr, int(seed), step,
                                                p, err, _lib.ERRBUF)
            res = Result._adopt(p.value, step) if p.value else None
        try:
            _lib.check(rc, err)
        except _lib.Error as e:
            e.result = res
            raise
        return res


def _drive_module():
    from . import drive
    return drive
