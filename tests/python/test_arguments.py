"""Arguments checked and converted before anything reaches the library:
every number a public method passes on is an int (an int or anything
with __index__, as numpy's integers) or, for seconds, a real number; a
str, a float where an int is meant, a bool or None is an
ssdlab.ArgumentTypeError (an ssdlab.Error and a TypeError) naming the
argument, and the drive has not changed.  Durations and steps are
finite and not negative (ssdlab.ArgumentValueError, also a
ValueError)."""
import math
import os
import tempfile
import unittest

import ssdlab

from common import tiny

KIB = 1024


class Index:
    """An integer that is not an int, as numpy's are: it has __index__."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


NOT_INTS = ["0", 8192.9, 4096.0, None, True, b"0", [0]]


class Arguments(unittest.TestCase):
    def setUp(self):
        self.dev = ssdlab.Device(tiny(), seed=1)
        self.dev.write(0, 4 * KIB, 1000)

    def tearDown(self):
        self.dev.close()

    def unchanged(self, call, exc, word):
        """call raises exc naming `word`, and the drive is as it was."""
        before, now = self.dev.counters(), self.dev.now
        with self.assertRaises(exc) as cm:
            call()
        e = cm.exception
        self.assertIsInstance(e, ssdlab.Error)
        self.assertEqual(e.name, "SSDLAB_EINVAL")
        self.assertIn(word, str(e))
        self.assertEqual(self.dev.counters(), before, str(e))
        self.assertEqual(self.dev.now, now, str(e))
        return e

    def test_a_str_offset_is_refused_before_the_write(self):
        # it used to write, then fail while building its message
        e = self.unchanged(lambda: self.dev.write("0", "4096"), TypeError, "offset")
        self.assertIn("'0'", str(e))
        self.assertEqual(self.dev.counters().host_write_lp, 1)

    def test_floats_are_not_truncated(self):
        self.unchanged(lambda: self.dev.write(8192.9, 4096), TypeError, "offset")
        self.unchanged(lambda: self.dev.write(8192, 4096.7), TypeError, "length")
        self.unchanged(lambda: self.dev.write(8192, 4096, 2e6), TypeError, "t")

    def test_every_integer_argument(self):
        dev = self.dev
        calls = {
            "offset": lambda v: dev.read(v, 4096),
            "length": lambda v: dev.trim(0, v),
            "t": lambda v: dev.write(0, 4096, v),
            "placement": lambda v: dev.write(0, 4096, placement=v),
            "t ": lambda v: dev.flush(v),
            "until": lambda v: dev.idle(until=v),
            "offset ": lambda v: dev.zone_send("reset", v),
            "t  ": lambda v: dev.zone_send("reset", 0, v),
            "zone_start": lambda v: dev.append(v, 4096),
            "length ": lambda v: dev.append(0, v),
            "i": lambda v: dev.zone(v),
            "op": lambda v: dev.submit(v, 0, 4096),
        }
        optional = ("t", "placement", "until")  # None: the default
        for name, call in calls.items():
            for v in NOT_INTS:
                if name == "op" and isinstance(v, (str, bytes)):
                    continue  # names, or a wrong one: test_device
                if name.strip() in optional and v is None:
                    continue
                with self.subTest(name=name, value=v):
                    self.unchanged(lambda: call(v), TypeError, name.strip())

    def test_integers_that_are_not_ints(self):
        dev = self.dev
        t = dev.write(Index(8192), Index(4096), Index(dev.now))
        self.assertGreater(t, 0)
        self.assertEqual(dev.counters().host_write_lp, 2)
        self.assertEqual(dev.submit(Index(0), 0, 4096) > 0, True)
        t = dev.now + 10
        dev.idle(until=Index(t))
        self.assertEqual(dev.now, t)
        with ssdlab.Device(tiny(), seed=Index(3)) as d2:
            self.assertEqual(d2.capacity, 64 << 20)

    def test_values_the_c_types_cannot_carry(self):
        dev = self.dev
        # a negative offset wrapped round to a huge one
        e = self.unchanged(lambda: dev.write(-4096, 4096), ssdlab.Error, "offset -4096")
        self.assertIn("negative", str(e))
        self.unchanged(lambda: dev.write(0, -1), ssdlab.Error, "length -1")
        # a length past 32 bits lost its top bits: 4 KiB written
        self.unchanged(lambda: dev.write(0, 2 ** 32 + 4096), ssdlab.Error, "4294971392")
        self.unchanged(lambda: dev.write(2 ** 64 - 4096, 8192), ssdlab.Error, "capacity")
        self.unchanged(lambda: dev.write(0, 4096, 2 ** 63), ssdlab.Error, "t=")
        self.unchanged(lambda: dev.write(0, 4096, placement=-1), ValueError, "placement")
        self.unchanged(lambda: dev.write(0, 4096, placement=2 ** 16), ValueError,
                       "placement")
        self.unchanged(lambda: dev.zone(-1), ssdlab.Error, "zone -1")
        self.unchanged(lambda: dev.zone(2 ** 32), ssdlab.Error, "zone 4294967296")
        for seed in (-1, 2 ** 64):
            with self.assertRaises(ValueError):
                ssdlab.Device(tiny(), seed=seed)
            with self.assertRaises(ValueError):
                dev.run("[w]\nrw=write\nsize=64k\n", seed=seed)

    def test_durations_and_steps(self):
        dev = self.dev
        for bad in (-1, -1e-9, math.nan, math.inf, -math.inf):
            with self.subTest(seconds=bad):
                self.unchanged(lambda: dev.idle(seconds=bad), ValueError, "seconds")
        for bad in ("1", None, True):
            if bad is None:
                continue  # idle(seconds=None): no time at all
            self.unchanged(lambda: dev.idle(seconds=bad), TypeError, "seconds")
        self.unchanged(lambda: dev.idle(seconds=1e300), ValueError, "seconds")
        self.unchanged(lambda: dev.idle(until=dev.now + 10, seconds=1), TypeError,
                       "not both")
        self.assertEqual(dev.idle(seconds=0), dev.now)
        now = dev.now
        self.assertEqual(dev.idle(seconds=0.5), now + 500000000)
        for bad in (0, -1, math.nan, math.inf, 1e-10):
            with self.subTest(series=bad):
                self.unchanged(lambda: dev.run("[w]\nrw=write\nsize=64k\n", series=bad),
                               ValueError, "series")
        self.unchanged(lambda: dev.run("[w]\nrw=write\nsize=64k\n", series="1"),
                       TypeError, "series")

    def test_other_arguments(self):
        dev = self.dev
        self.unchanged(lambda: dev.run(b"[w]\nrw=write\n"), TypeError, "jobs")
        self.unchanged(lambda: dev.run("[w]\nrw=write\nsize=64k\n", seed="1"),
                       TypeError, "seed")
        self.unchanged(lambda: dev.zone_send(4, 0), TypeError, "action")
        self.unchanged(lambda: dev.save(3), TypeError, "path")
        with self.assertRaises(TypeError):
            ssdlab.Device(3)
        with self.assertRaises(TypeError):
            ssdlab.Device.load(3)
        with self.assertRaises(TypeError):
            ssdlab.Device.load("x.snap", drive="tiny")
        with self.assertRaises(TypeError):
            ssdlab.Drive(64)
        with self.assertRaises(TypeError):
            ssdlab.Drive("tiny", 0.3)
        self.assertEqual(ssdlab.Drive("tiny", [("op", 0.3)]).keys, {"op": 0.3})
        with self.assertRaises(TypeError):
            tiny().with_keys("op=0.3")
        with self.assertRaises(TypeError):
            ssdlab.Jobs().add("w", "rw=write")
        self.assertIn("rw=write", ssdlab.Jobs().add("w", {"rw": "write"}).text())
        with self.assertRaises(TypeError):
            ssdlab.Jobs(b"[w]\n")
        with self.assertRaises(TypeError):
            ssdlab.Jobs.file(None)
        for bad in ("1m", 1e6, None):
            with self.assertRaises(TypeError):
                ssdlab.Jobs("[w]\nrw=write\n").check(bad)
        with self.assertRaises(TypeError):
            ssdlab.strerror("-1")
        self.assertEqual(ssdlab.strerror(Index(-8)), ssdlab.strerror(-8))
        res = dev.run("[w]\nrw=write\nsize=64k\n")
        job = res.jobs[0]
        for bad in ("99", None, True):
            with self.assertRaises(TypeError):
                job.percentile(bad)
        self.assertEqual(job.percentile(Index(50)), job.percentile(50))
        with self.assertRaises(TypeError):
            res.report(1)
        with self.assertRaises(TypeError):
            res.job(0)
        res.close()

    def test_a_path_like_drive_and_snapshot(self):
        import pathlib
        from common import TOP
        with ssdlab.Device(pathlib.Path(TOP, "presets", "tiny.ini")) as d2:
            self.assertEqual(d2.capacity, 64 << 20)
            with tempfile.TemporaryDirectory() as tmp:
                p = pathlib.Path(tmp, "d.snap")
                d2.save(p)
                with ssdlab.Device.load(p) as back:
                    self.assertEqual(back.now, d2.now)
                self.assertTrue(os.path.exists(os.fsencode(p)))


if __name__ == "__main__":
    unittest.main()
