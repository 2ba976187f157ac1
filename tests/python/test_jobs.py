"""ssdlab.Jobs and Device.run: fio job text, job files and jobs built in
code run the same; a bad option is an ssdlab.Error naming it."""
import os
import tempfile
import unittest

import ssdlab

from common import JOBTEXT, built_jobs, tiny


def run(jobs, seed=11, **kw):
    with ssdlab.Device(tiny(), seed=3) as dev:
        return dev.run(jobs, seed=seed, **kw)


class JobsTests(unittest.TestCase):
    def test_built_text_and_file_run_the_same(self):
        built = built_jobs()
        self.assertEqual(built.text(), JOBTEXT.replace("stonewall\n", "stonewall\n"))
        self.assertEqual(built.check(64 << 20), 2)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "w.fio")
            with open(path, "w") as f:
                f.write(JOBTEXT)
            results = [run(built), run(ssdlab.Jobs(JOBTEXT)), run(JOBTEXT),
                       run(ssdlab.Jobs.file(path))]
        rows = [r.rows() for r in results]
        for other in rows[1:]:
            self.assertEqual(other, rows[0])
        for r in results:
            r.close()

    def test_seed_changes_random_jobs_only(self):
        a = run(JOBTEXT, seed=1)
        b = run(JOBTEXT, seed=2)
        self.assertEqual(a.job("fill").write, b.job("fill").write)
        self.assertNotEqual(a.job("random").counters, b.job("random").counters)
        # deterministic: the same seed, the same figures
        self.assertEqual(run(JOBTEXT, seed=1).rows(), a.rows())

    def test_options_as_values(self):
        j = ssdlab.Jobs().add("w", {"rw": "randwrite", "bs": 8192}, size="1m",
                              norandommap=None, time_based=False)
        self.assertEqual(j.text(), "[w]\nrw=randwrite\nbs=8192\nsize=1m\nnorandommap\n")
        j.set("iodepth", 4)
        self.assertTrue(j.text().endswith("iodepth=4\n"))
        res = run(j)
        self.assertEqual(res.jobs[0].write.bytes, 1 << 20)

    def test_errors_name_the_option(self):
        cases = [
            (ssdlab.Jobs("[w]\nrw=sideways\n"), "rw"),
            (ssdlab.Jobs("[w]\nno_such_option=1\n"), "no_such_option"),
            (ssdlab.Jobs().add("w", rw="write", bs="huge"), "bs"),
            (ssdlab.Jobs.file("/nonexistent/w.fio"), "w.fio"),
        ]
        for jobs, word in cases:
            with self.assertRaises(ssdlab.Error) as cm:
                jobs.check(64 << 20)
            self.assertIn(word, str(cm.exception))
            self.assertNotIn("\n", str(cm.exception))
            self.assertLess(cm.exception.code, 0)
            with ssdlab.Device(tiny()) as dev:
                with self.assertRaises(ssdlab.Error):
                    dev.run(jobs)
                self.assertEqual(dev.now, 0)  # nothing ran
        with self.assertRaises(ssdlab.Error):
            ssdlab.Jobs().set("rw", "write")  # no section yet
        with self.assertRaises(ssdlab.Error):
            ssdlab.Jobs("[w]\n").add("x")     # text, not built

    def test_what_the_library_refuses_is_named(self):
        # a job file's text, read by the module: the library's code for it
        missing = ssdlab.Jobs.file("/nonexistent/w.fio")
        with self.assertRaises(ssdlab.Error) as cm:
            missing.text()
        self.assertIn("/nonexistent/w.fio", str(cm.exception))
        self.assertEqual(cm.exception.name, "SSDLAB_EIO")
        for cap, word in ((100, "a drive of 4 KiB or more"), (-1, "not a capacity")):
            with self.assertRaises(ssdlab.Error) as cm:
                ssdlab.Jobs("[w]\nrw=write\n").check(cap)
            self.assertEqual(cm.exception.name, "SSDLAB_EINVAL")
            self.assertIn("Jobs for a drive of %d bytes: %s" % (cap, word), str(cm.exception))

    def test_jobs_resolve_against_the_running_drive(self):
        j = ssdlab.Jobs("[w]\nrw=write\nbs=128k\nsize=50%\n")
        for cap in ("32m", "64m"):
            with ssdlab.Device(tiny(capacity=cap)) as dev:
                res = dev.run(j)
                self.assertEqual(res.jobs[0].write.bytes, dev.capacity // 2)


if __name__ == "__main__":
    unittest.main()
