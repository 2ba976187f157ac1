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


if __name__ == "__main__":
    unittest.main()
