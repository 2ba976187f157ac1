"""ssdlab.Device: commands at simulated times, idle, counters, WAF,
health, snapshots."""
import math
import os
import tempfile
import unittest

import ssdlab

from common import tiny

KIB = 1024


class DeviceTests(unittest.TestCase):
    def setUp(self):
        self.dev = ssdlab.Device(tiny(), seed=1)

    def tearDown(self):
        self.dev.close()

    def test_commands_complete_after_they_start(self):
        dev = self.dev
        self.assertEqual(dev.now, 0)
        self.assertEqual(dev.capacity, 64 << 20)
        t = dev.write(0, 128 * KIB, 0)
        self.assertGreater(t, 0)
        r = dev.read(0, 4 * KIB, t)
        self.assertGreater(r, t)
        # a later command at the drive's time now by default
        w = dev.write(128 * KIB, 4 * KIB)
        self.assertGreaterEqual(w, r)
        f = dev.flush()
        self.assertGreaterEqual(f, w)
        tr = dev.trim(0, 64 * KIB)
        self.assertGreaterEqual(tr, f)
        c = dev.counters()
        self.assertEqual(c.host_write_lp, 33)
        self.assertEqual(c.host_read_lp, 1)
        self.assertEqual(c.host_trim_lp, 16)
        self.assertEqual(c.flushes, 1)
        self.assertEqual(dev.now, tr)

    def test_fua_and_placement(self):
        t = self.dev.write(0, 4 * KIB, 0)
        fua = self.dev.write(4 * KIB, 4 * KIB, t, fua=True)
        self.assertGreater(fua - t, 100000)  # waits for its program
        with ssdlab.Device(tiny(fdp=True, fdp_handles=4, op=0.3)) as dev:
            dev.write(0, 4 * KIB, 0, placement=3)
            with self.assertRaises(ssdlab.Error) as cm:
                dev.write(4 * KIB, 4 * KIB, placement=9)
            self.assertEqual(cm.exception.name, "SSDLAB_FDP_EPID")

    def test_bad_commands_raise(self):
        dev = self.dev
        dev.write(0, 4 * KIB, 1000000)
        for call, word in [
            (lambda: dev.write(0, 4 * KIB, 0), "t=0"),          # before the last
            (lambda: dev.read(dev.capacity, 4 * KIB), "offset"),  # outside
            (lambda: dev.write(0, 0), "write of 0 bytes"),
            (lambda: dev.submit("erase", 0, 4096), "erase"),
            (lambda: dev.read(0, 4096, fua=True), "read"),
        ]:
            with self.assertRaises(ssdlab.Error) as cm:
                call()
            self.assertEqual(cm.exception.code, -1)
            self.assertIn(word, str(cm.exception))

    def test_refusals_say_what_was_wrong(self):
        # the library's SSDLAB_EINVAL, with what was wrong in the message
        # (ssdlab_submit has no message of its own: "invalid argument")
        dev = self.dev
        cap = dev.capacity
        t = dev.write(0, 4 * KIB, 10)
        last = dev.now
        for call, msg in [
            (lambda: dev.write(cap, 4 * KIB, last),
             "write of 4096 bytes at offset %d at t=%d ns: offset %d + 4096 past the "
             "capacity %d" % (cap, last, cap, cap)),
            (lambda: dev.read(cap - 4096, 8192, last), "offset %d + 8192 past the capacity %d"
             % (cap - 4096, cap)),
            (lambda: dev.write(-4096, 4 * KIB), "offset -4096: negative"),
            (lambda: dev.write(8192, 4 * KIB, 5),
             "write of 4096 bytes at offset 8192 at t=5 ns: t=5 ns before the drive's "
             "last command (its time now: %d ns)" % last),
            (lambda: dev.flush(-1), "flush at t=-1 ns: t=-1 ns before the drive's last "
             "command"),
            (lambda: dev.trim(0, 0, last), "length 0"),
            (lambda: dev.read(0, 4096, fua=True), "FUA on a read"),
            (lambda: dev.append(0, 4096), "the drive is not zoned"),
            (lambda: dev.zone(0), "zone 0: the drive is not zoned"),
        ]:
            with self.assertRaises(ssdlab.Error) as cm:
                call()
            self.assertEqual(cm.exception.name, "SSDLAB_EINVAL")
            self.assertIn(msg, str(cm.exception))
            self.assertNotIn("invalid argument", str(cm.exception))
        self.assertEqual(dev.now, last)
        self.assertGreater(t, 10)
        with ssdlab.Device(tiny(mapping="zone")) as zdev:
            zdev.write(0, 4 * KIB, 100)
            for call, msg in [
                (lambda: zdev.zone(64), "zone 64: no such zone: the drive has zones 0 .. 63"),
                (lambda: zdev.zone_send("reset", 0, 5), "zone reset at offset 0 at t=5 ns: "
                 "t=5 ns before the drive's last command"),
                (lambda: zdev.append(0, 4096, 5), "t=5 ns before"),
            ]:
                with self.assertRaises(ssdlab.Error) as cm:
                    call()
                self.assertEqual(cm.exception.name, "SSDLAB_EINVAL")
                self.assertIn(msg, str(cm.exception))

    def test_waf_counters_and_health(self):
        dev = self.dev
        self.assertTrue(math.isnan(dev.waf))
        cap = dev.capacity
        t = 0
        for off in range(0, cap, 128 * KIB):
            t = dev.write(off, 128 * KIB, t)
        filled = dev.counters()
        self.assertAlmostEqual(filled.waf, 1.0, places=2)
        # random overwrites of a full drive: GC
        import random
        rnd = random.Random(3)
        for _ in range(20000):
            t = dev.write(rnd.randrange(cap // 4096) * 4096, 4096, t)
        period = dev.counters() - filled
        self.assertEqual(period.host_write_lp, 20000)
        self.assertGreater(period.gc_copy_lp, 0)
        self.assertGreater(period.waf, 1.2)
        self.assertEqual(period.waf,
                         (period.nand_prog_lp * 4096) / period.host_write_bytes)
        h = dev.health()
        self.assertGreater(h.erase_max, 0)
        self.assertEqual(len(h.erase_hist), ssdlab.WEAR_BINS)
        self.assertIs(h.read_only, False)
        self.assertEqual(h.host_bytes_written, dev.counters().host_write_bytes)
        before = dev.now
        self.assertEqual(dev.idle(seconds=2), before + 2000000000)

    def test_snapshot_goes_on_as_the_saved_drive(self):
        dev = self.dev
        t = 0
        for off in range(0, 8 << 20, 64 * KIB):
            t = dev.write(off, 64 * KIB, t)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "d.snap")
            dev.save(path)
            with ssdlab.Device.load(path, tiny()) as back:
                self.assertEqual(back.now, dev.now)
                self.assertEqual(back.counters(), dev.counters())
                self.assertEqual(back.write(0, 4 * KIB), dev.write(0, 4 * KIB))
            with self.assertRaises(ssdlab.Error) as cm:
                ssdlab.Device.load(path, tiny(op=0.4))
            self.assertIn("op", str(cm.exception))
            with self.assertRaises(ssdlab.Error) as cm:
                ssdlab.Device.load(os.path.join(tmp, "none.snap"))
            self.assertEqual(cm.exception.name, "SSDLAB_EIO")

    def test_zoned_drive(self):
        self.assertIsNone(self.dev.zoned)
        with self.assertRaises(ssdlab.Error) as cm:
            self.dev.zone_send("reset", 0)
        self.assertEqual(cm.exception.name, "SSDLAB_EUNSUP")
        with ssdlab.Device(tiny(mapping="zone", max_open_zones=2)) as dev:
            z = dev.zoned
            self.assertEqual((z.nzones, z.zone_size, z.max_open, z.lba),
                             (64, 1 << 20, 2, 4096))
            t = dev.write(0, 64 * KIB, 0)
            with self.assertRaises(ssdlab.Error) as cm:
                dev.write(0, 4 * KIB, t)     # not at the write pointer
            self.assertEqual(cm.exception.name, "SSDLAB_ZNS_EWRITE")
            self.assertIn("write pointer", str(cm.exception))
            t, where = dev.append(0, 8 * KIB, t)
            self.assertEqual(where, 64 * KIB)
            zd = dev.zone(0)
            self.assertEqual((zd.state, zd.wp, zd.written, zd.cap),
                             ("implicitly_opened", 72 * KIB, 72 * KIB, 1 << 20))
            t = dev.zone_send("finish", 0, t)
            self.assertEqual(dev.zone(0).state, "full")
            self.assertIsNone(dev.zone(0).wp)
            with self.assertRaises(ssdlab.Error) as cm:
                dev.zone_send("open", 0)
            self.assertEqual(cm.exception.name, "SSDLAB_ZNS_ETRANSITION")
            dev.zone_send("reset", 0, all=True)
            self.assertEqual(dev.zone(0).state, "empty")
            with self.assertRaises(ssdlab.Error):
                dev.zone(64)
            with self.assertRaises(ssdlab.Error):
                dev.zone_send("explode", 0)

    def test_memory(self):
        m = ssdlab.memory_available()
        self.assertTrue(m is None or m > 0)

    def test_device_from_a_preset_name(self):
        with ssdlab.Device("tiny") as dev:
            self.assertEqual(dev.capacity, 64 << 20)


if __name__ == "__main__":
    unittest.main()
