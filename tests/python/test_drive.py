"""ssdlab.Drive: presets, drive files and keys; errors as ssdlab.Error."""
import math
import os
import tempfile
import unittest

import ssdlab

from common import TOP, tiny


class DriveTests(unittest.TestCase):
    def test_preset_and_keys(self):
        d = tiny()
        self.assertEqual(d.capacity, 64 << 20)
        self.assertGreater(d.physical_bytes, d.capacity)
        small = tiny(capacity="32m")
        self.assertEqual(small.capacity, 32 << 20)
        # more spare: the same flash holds less (op over a fixed geometry)
        a = ssdlab.Drive("tiny", {"op": 0.1})
        b = a.with_keys(op=0.4)
        self.assertEqual(b.keys, {"op": 0.4})
        self.assertEqual(a.as_dict()["op"], 0.1)
        self.assertEqual(b.as_dict()["op"], 0.4)
        self.assertGreater(d.memory(), 0)
        self.assertGreater(d.memory(verify=True), d.memory())

    def test_booleans_are_yes_and_no(self):
        self.assertIs(tiny(fdp=True, op=0.3).as_dict()["fdp"], True)
        self.assertIs(tiny(fdp=False).as_dict()["fdp"], False)

    def test_drive_file_round_trip(self):
        d = tiny(op=0.33, capacity="48m")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "mine.ini")
            with open(path, "w") as f:
                f.write(d.text())
            back = ssdlab.Drive(path)
            self.assertEqual(back.as_dict(), d.as_dict())
        self.assertEqual(ssdlab.Drive(os.path.join(TOP, "presets", "tiny.ini")).capacity,
                         64 << 20)

    def test_defaults(self):
        self.assertGreater(ssdlab.Drive().capacity, 0)

    def test_errors_carry_code_and_one_line(self):
        cases = [
            (lambda: ssdlab.Drive("no-such-drive"), "SSDLAB_ENOENT", "no-such-drive"),
            (lambda: tiny(no_such_key=1), "SSDLAB_ENOENT", "no_such_key"),
            (lambda: tiny(op="lots"), None, "op"),
            (lambda: ssdlab.Drive("/nonexistent/x.ini"), "SSDLAB_EIO", "x.ini"),
        ]
        for make, name, word in cases:
            with self.assertRaises(ssdlab.Error) as cm:
                make()
            e = cm.exception
            self.assertLess(e.code, 0)
            if name:
                self.assertEqual(e.name, name)
            self.assertIn(word, str(e))
            self.assertEqual(str(e), e.message)
            self.assertNotIn("\n", e.message)

    def test_close_once_and_use_after_close(self):
        d = tiny()
        d.close()
        d.close()
        with self.assertRaises(ssdlab.Error) as cm:
            d.capacity
        self.assertEqual(cm.exception.name, "SSDLAB_EINVAL")
        with tiny() as d2:
            self.assertEqual(d2.capacity, 64 << 20)
        with self.assertRaises(ssdlab.Error):
            d2.text()

    def test_repr(self):
        self.assertEqual(repr(tiny(op=0.2)), "ssdlab.Drive('tiny', op=0.2)")
        self.assertFalse(math.isnan(tiny().capacity))


if __name__ == "__main__":
    unittest.main()
