"""Every handle freed exactly once: close() twice, `with`, collection,
objects freed in any order (a Result outlives its Device and its Jobs,
a Device its Drive), use after close an ssdlab.Error.  The library's
frees are counted through a wrapper."""
import gc
import unittest

import ssdlab
from ssdlab import _lib

from common import tiny


class Counting:
    """Wraps the library: counts calls of its free functions by handle."""
    FREES = ("ssdlab_drive_free", "ssdlab_dev_close", "ssdlab_jobs_free",
             "ssdlab_result_free")

    def __init__(self, lib):
        self.lib = lib
        self.freed = {}

    def __getattr__(self, name):
        f = getattr(self.lib, name)
        if name not in self.FREES:
            return f

        def free(h):
            self.freed.setdefault(name, []).append(h)
            return f(h)
        return free


class Ownership(unittest.TestCase):
    def setUp(self):
        gc.collect()  # what earlier tests left
        self.real = _lib.lib
        self.count = _lib.lib = Counting(self.real)

    def tearDown(self):
        _lib.lib = self.real

    def freed(self, name):
        return self.count.freed.get(name, [])

    def test_each_handle_freed_once(self):
        d = tiny()
        dev = ssdlab.Device(d)
        res = dev.run("[w]\nrw=write\nsize=1m\n")
        # the run's ssdlab_jobs is freed as the run ends (the result keeps
        # its own reference inside the library)
        self.assertEqual(len(self.freed("ssdlab_jobs_free")), 1)
        d.close()
        dev.close()
        dev.close()
        # a result outlives its device and drive
        self.assertEqual(res.jobs[0].write.bytes, 1 << 20)
        self.assertIn("w: (groupid", res.report())
        res.close()
        res.close()
        del res, dev, d
        gc.collect()
        for name in ("ssdlab_drive_free", "ssdlab_dev_close", "ssdlab_result_free"):
            hs = self.freed(name)
            self.assertEqual(len(hs), 1, name)
            self.assertTrue(hs[0])

    def test_collected_objects_free_their_handles(self):
        def make():
            dev = ssdlab.Device(tiny())
            dev.run("[w]\nrw=write\nsize=1m\n")
        make()  # freed as it returns: no cycles hold a handle
        for name in ("ssdlab_drive_free", "ssdlab_dev_close", "ssdlab_result_free",
                     "ssdlab_jobs_free"):
            self.assertEqual(len(self.freed(name)), 1, name)

    def test_with_blocks_and_failed_constructors(self):
        with tiny() as d, ssdlab.Device(d) as dev:
            pass
        self.assertEqual(len(self.freed("ssdlab_drive_free")), 1)
        self.assertEqual(len(self.freed("ssdlab_dev_close")), 1)
        with self.assertRaises(ssdlab.Error):
            dev.write(0, 4096)
        with self.assertRaises(ssdlab.Error):
            dev.now
        # a drive whose key fails is freed too, once
        with self.assertRaises(ssdlab.Error):
            tiny(op="x")
        gc.collect()
        self.assertEqual(len(self.freed("ssdlab_drive_free")), 2)
        # jobs that fail to parse are freed as the error is raised
        with self.assertRaises(ssdlab.Error):
            ssdlab.Jobs("[w]\nrw=x\n").check(1 << 20)
        self.assertEqual(len(self.freed("ssdlab_jobs_free")), 1)


# each public method or property of the classes that own a handle, with
# arguments it would take on an open object
CALLS = {
    ssdlab.Drive: {
        "capacity": None, "physical_bytes": None, "memory": (), "text": (),
        "as_dict": (), "with_keys": ({"op": 0.3},), "__enter__": (),
    },
    ssdlab.Device: {
        "capacity": None, "now": None, "submit": ("write", 0, 4096),
        "read": (0, 4096), "write": (0, 4096), "trim": (0, 4096),
        "zoned": None, "zone": (0,), "zone_send": ("reset", 0),
        "append": (0, 4096), "flush": (), "idle": (), "counters": (),
        "waf": None, "health": (), "run": ("[w]\nrw=write\nsize=64k\n",),
        "save": ("closed.snap",), "load": None, "__enter__": (),
    },
    ssdlab.Result: {
        "jobs": None, "job": ("w",), "report": (), "json": (), "series": None,
        "rows": (), "to_dataframe": (), "__enter__": (),
    },
}


class Closed(unittest.TestCase):
    def closed(self, obj, calls):
        """Every public method and property of obj raises Error, "used after
        close()"; a new one must be added to CALLS."""
        public = {n for n in dir(type(obj)) if not n.startswith("_")} - {"close"}
        self.assertEqual(public - set(calls), set(), "not in CALLS")
        for name, args in calls.items():
            if name == "load":
                continue  # a classmethod: no handle of its own
            with self.subTest(cls=type(obj).__name__, name=name):
                with self.assertRaises(ssdlab.Error) as cm:
                    v = getattr(obj, name)
                    if args is not None:
                        v(*args)
                self.assertEqual(cm.exception.name, "SSDLAB_EINVAL")
                self.assertIn("used after close()", str(cm.exception))
        obj.close()  # still nothing

    def test_every_method_of_a_closed_object_raises(self):
        d = tiny()
        dev = ssdlab.Device(d)
        res = dev.run("[w]\nrw=write\nsize=1m\n", series=0.001)
        self.assertGreater(len(res.series), 0)  # read once, then kept
        job = res.jobs[0]
        self.assertEqual(len(job.series), len(res.series))
        for obj in (d, dev, res):
            obj.close()
            self.closed(obj, CALLS[type(obj)])
        # a job's figures were read; its percentiles need the Result
        self.assertEqual(job.write.bytes, 1 << 20)
        for call in (lambda: job.percentile(99), lambda: job.series):
            with self.assertRaises(ssdlab.Error) as cm:
                call()
            self.assertIn("Result: used after close()", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
