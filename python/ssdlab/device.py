"""ssdlab.Device: a simulated drive (ssdlab_dev) -- commands at
simulated times, idle time, counters, health, snapshots, runs."""
from . import _args, _lib
from ._handle import Handle, new_ptr
from .jobs import Jobs
from .result import Result
from .values import Counters, Health, Zone, Zoned, op_code

FUA = 0x100
DIRECT = 0x200
APPEND = 0x400
ZONE_ACTIONS = {"close": 1, "finish": 2, "open": 3, "reset": 4, "offline": 5,
                "zrwa_flush": 0x11}


EINVAL = -1
PLACEMENT_MAX = 0xfffe  # (h + 1) << 16 in the op's top 16 bits


def _offset(name, v):
    """A byte offset: an int of 0 or more (the library's is unsigned: a
    negative one would wrap to a huge one)."""
    v = _args.integer(name, v)
    if v < 0:
        raise _lib.Error(EINVAL, "%s %d: negative" % (name, v))
    return v


def _length(v):
    """A command's length in bytes: 0 .. 2**32 - 1 (a wider one would lose
    its top bits on the way: a write of 4 GiB + 4 KiB would write 4 KiB)."""
    v = _args.integer("length", v)
    if v < 0:
        raise _lib.Error(EINVAL, "length %d: negative" % v)
    if v > _args.UINT32_MAX:
        raise _lib.Error(EINVAL, "length %d: above the %d bytes one command takes"
                         % (v, _args.UINT32_MAX))
    return v


def _time(name, v):
    """A simulated time in ns: an int the library's int64_t holds."""
    v = _args.integer(name, v)
    if not -_args.INT64_MAX - 1 <= v <= _args.INT64_MAX:
        raise _lib.Error(EINVAL, "%s=%d ns: past the largest time, %d ns"
                         % (name, v, _args.INT64_MAX))
    return v


def _signed32(flags):
    return flags - (1 << 32) if flags >= 1 << 31 else flags


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
        seed = _args.unsigned64("seed", seed)
        drive = _a_drive(drive)
        p = new_ptr()
        _lib.check(_lib.lib.ssdlab_dev_open(drive._ptr, seed, p),
                   what="Device(%r)" % (drive,))
        self._own(p.value)

    @classmethod
    def load(cls, path, drive=None):
        """The drive saved in `path` by save(), going on as it would have
        (`drive`, if given, must be the drive in the file)."""
        path = _args.path("path", path)
        if drive is not None and not isinstance(drive, _drive_module().Drive):
            raise _lib.ArgumentTypeError("drive must be an ssdlab.Drive or None, not %s %r"
                                         % (type(drive).__name__, drive))
        dev = cls.__new__(cls)
        Handle.__init__(dev)
        p = new_ptr()
        err = _lib.errbuf()
        _lib.check(_lib.lib.ssdlab_dev_load(
            path, drive._ptr if drive is not None else None, p,
            err, _lib.ERRBUF), err)
        dev._own(p.value)
        return dev

    def save(self, path):
        """Write the drive's whole state to `path` (docs/snapshots.md)."""
        h = self._ptr
        path = _args.path("path", path)
        err = _lib.errbuf()
        _lib.check(_lib.lib.ssdlab_dev_save(h, path, err, _lib.ERRBUF), err)

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
        h = self._ptr
        code = op_code(op)
        offset = _offset("offset", offset)
        length = _length(length)
        t = self._t(t)
        flags = code | (FUA if fua else 0) | (DIRECT if direct else 0)
        if placement is not None:
            pid = _args.integer("placement", placement)
            if not 0 <= pid <= PLACEMENT_MAX:
                raise _lib.ArgumentValueError(
                    "placement=%d: a placement identifier is 0 .. %d" % (pid, PLACEMENT_MAX))
            flags |= (pid + 1) << 16
        name = ("read", "write", "trim")[code]
        what = "%s of %d bytes at offset %d at t=%d ns" % (name, length, offset, t)
        if offset + length > _args.UINT64_MAX:  # past any capacity
            raise _lib.Error(EINVAL, "%s: %s" % (what, self._past(offset, length)))
        rc = _lib.lib.ssdlab_submit(h, _signed32(flags), offset, length, t)
        if rc == EINVAL:
            why = []
            if length == 0:
                why.append("length 0: a command takes 1 byte or more")
            if offset + length > self.capacity:
                why.append(self._past(offset, length))
            if fua and code != 1:
                why.append("FUA on a %s: only a write takes it" % name)
            self._refused(rc, what, why, t)
        return _lib.check(rc, what=what)

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
        h = self._ptr
        i = _args.integer("i", i)
        z = _lib.CZone()
        zn = self.zoned
        if zn is None:
            why = "the drive is not zoned"
        elif not 0 <= i < zn.nzones:
            why = "no such zone: the drive has zones 0 .. %d" % (zn.nzones - 1)
        else:
            _lib.check(_lib.lib.ssdlab_zone_report(h, i, z), what="zone %d" % i)
            return Zone._from_c(z)
        # what the library answers for both (a zone it cannot name)
        raise _lib.Error(EINVAL, "zone %d: %s" % (i, why))

    def zone_send(self, action, offset, t=None, all=False, zrwaa=False):
        """Zone Management Send: action ("open", "close", "finish",
        "reset", "offline", "zrwa_flush") on the zone that starts at
        offset, or on every zone it selects with all=True; zrwaa=True
        gives an opened zone a random write area.  Its completion time."""
        h = self._ptr
        if not isinstance(action, str):
            raise _lib.ArgumentTypeError("action must be a str, not %s %r"
                                         % (type(action).__name__, action))
        if action not in ZONE_ACTIONS:
            raise _lib.Error(-1, "zone action %r: not one of %s" % (
                action, ", ".join(ZONE_ACTIONS)))
        offset = _offset("offset", offset)
        if offset > _args.UINT64_MAX:
            raise _lib.Error(EINVAL, "zone %s: %s" % (action, self._past(offset, 0)))
        t = self._t(t)
        flags = (1 if all else 0) | (2 if zrwaa else 0)
        rc = _lib.lib.ssdlab_zone_send(h, ZONE_ACTIONS[action], offset, flags, t)
        what = "zone %s at offset %d at t=%d ns" % (action, offset, t)
        if rc == EINVAL:
            self._refused(rc, what, [], t)
        return _lib.check(rc, what=what)

    def append(self, zone_start, length, t=None):
        """Zone Append to the zone that starts at zone_start: (its
        completion time, the byte offset it was written at)."""
        h = self._ptr
        zone_start = _offset("zone_start", zone_start)
        length = _length(length)
        t = self._t(t)
        what = "zone append of %d bytes to the zone at %d at t=%d ns" % (
            length, zone_start, t)
        if zone_start + length > _args.UINT64_MAX:
            raise _lib.Error(EINVAL, "%s: %s" % (what, self._past(zone_start, length)))
        rc = _lib.lib.ssdlab_submit(h, 1 | APPEND, zone_start, length, t)
        if rc == EINVAL:
            why = []
            if self.zoned is None:
                why.append("the drive is not zoned")
            if length == 0:
                why.append("length 0: a command takes 1 byte or more")
            if zone_start + length > self.capacity:
                why.append(self._past(zone_start, length))
            self._refused(rc, what, why, t)
        done = _lib.check(rc, what=what)
        return done, _lib.lib.ssdlab_append_offset(h)

    def flush(self, t=None):
        """Make every write so far durable; the flush's completion time."""
        h = self._ptr
        t = self._t(t)
        rc = _lib.lib.ssdlab_flush(h, t)
        if rc == EINVAL:
            self._refused(rc, "flush at t=%d ns" % t, [], t)
        return _lib.check(rc, what="flush at t=%d ns" % t)

    def idle(self, until=None, seconds=None):
        """Leave the drive idle until time `until` (ns), or for `seconds`
        from now: its background work (GC, folding, TRIM) runs.  An
        `until` at or before .now does nothing; `seconds` is 0 or more.
        The drive's time now after it."""
        h = self._ptr
        if until is not None and seconds is not None:
            raise _lib.ArgumentTypeError("idle: until or seconds, not both")
        if until is None:
            s = _args.seconds("seconds", 0 if seconds is None else seconds)
            until = self.now + s * 1e9
            if until < _args.INT64_MAX:
                until = self.now + int(round(s * 1e9))
            else:
                raise _lib.ArgumentValueError("seconds=%r: past the largest time, %d ns"
                                              % (seconds, _args.INT64_MAX))
        until = _time("until", until)
        _lib.check(_lib.lib.ssdlab_idle(h, until), what="idle until t=%d ns" % until)
        return self.now

    # ---- state ----

    def counters(self):
        """What the drive did since it was made (ssdlab.Counters)."""
        h = self._ptr
        c = _lib.CCounters()
        _lib.check(_lib.lib.ssdlab_counters(h, c), what="counters")
        return Counters._from_c(c)

    @property
    def waf(self):
        """Write amplification since the drive was made (NaN before the
        host wrote)."""
        return self.counters().waf

    def health(self):
        """The drive's health (ssdlab.Health)."""
        p = self._ptr
        h = _lib.CHealth()
        _lib.check(_lib.lib.ssdlab_health(p, h), what="health")
        return Health._from_c(h)

    # ---- runs ----

    def run(self, jobs, seed=1, series=None):
        """Run a workload (a Jobs, or fio job text) from the drive's time
        now; an ssdlab.Result.  series: keep the run's time series with
        points of that many seconds (1: one a second; Result.series).

        A run that fails raises ssdlab.Error; when it got as far as
        starting a job, the error's .result holds what it measured."""
        h = self._ptr
        if isinstance(jobs, str):
            jobs = Jobs(jobs)
        elif not isinstance(jobs, Jobs):
            raise _lib.ArgumentTypeError("jobs must be an ssdlab.Jobs or job text (str), "
                                         "not %s %r" % (type(jobs).__name__, jobs))
        seed = _args.unsigned64("seed", seed)
        step = None
        if series is not None:
            s = _args.number("series", series)
            if not s * 1e9 >= 1 or s * 1e9 > _args.INT64_MAX:
                raise _lib.ArgumentValueError(
                    "series=%r: a step in seconds, finite and 1 ns or more" % (series,))
            step = int(round(s * 1e9))
        with jobs._make(self.capacity) as w:
            p = new_ptr()
            err = _lib.errbuf()
            if step is None:
                rc = _lib.lib.ssdlab_run(h, w._ptr, seed, p, err, _lib.ERRBUF)
            else:
                rc = _lib.lib.ssdlab_run_series(h, w._ptr, seed, step,
                                                p, err, _lib.ERRBUF)
            res = Result._adopt(p.value, step) if p.value else None
        try:
            _lib.check(rc, err)
        except _lib.Error as e:
            e.result = res
            raise
        return res

    # ---- arguments and refusals ----

    def _t(self, t):
        """A command's time: .now when None."""
        return self.now if t is None else _time("t", t)

    def _past(self, offset, length):
        return "offset %d + %d past the capacity %d" % (offset, length, self.capacity)

    def _refused(self, rc, what, why, t):
        """Raise the library's SSDLAB_EINVAL for a command with what was
        wrong: `why`, the reasons found in its arguments, else its time
        (the one rule left: no earlier than the drive's last command,
        which is never after .now)."""
        if not why and t < self.now:
            why = ["t=%d ns before the drive's last command (its time now: %d ns)"
                   % (t, self.now)]
        raise _lib.Error(rc, "%s: %s" % (what, "; ".join(why) if why else
                                         _lib.strerror(rc)))


def _drive_module():
    from . import drive
    return drive


def _a_drive(drive):
    """A Drive, or one made from a preset's name or a drive file's path."""
    Drive = _drive_module().Drive
    if isinstance(drive, Drive):
        return drive
    if isinstance(drive, str) or hasattr(drive, "__fspath__"):
        return Drive(drive)
    raise _lib.ArgumentTypeError("drive must be an ssdlab.Drive, a preset's name or a "
                                 "drive file's path, not %s %r" % (type(drive).__name__, drive))
