"""ssdlab.Result: each job's figures, percentiles, reports, the run's
series and each job's; a Result outlives its Device."""
import json
import unittest

import ssdlab

from common import JOBTEXT, tiny


class ResultTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with ssdlab.Device(tiny(), seed=3) as dev:
            cls.res = dev.run(JOBTEXT, seed=11, series=0.25)
            cls.end = dev.now
        # the device is closed: the result keeps what it needs

    @classmethod
    def tearDownClass(cls):
        cls.res.close()

    def test_figures(self):
        fill, rnd = self.res.jobs
        self.assertEqual((fill.name, rnd.name), ("fill", "random"))
        self.assertEqual(self.res.job("random").row(), rnd.row())
        self.assertEqual(fill.write.bytes, 64 << 20)
        self.assertEqual(rnd.write.ios, (64 << 20) // 4096)
        self.assertEqual(fill.error, 0)
        self.assertEqual(fill.errmsg, "")
        self.assertAlmostEqual(fill.waf, 1.0, places=2)
        self.assertGreater(rnd.waf, 1.5)
        self.assertEqual(rnd.waf, rnd.counters.waf)
        self.assertGreater(rnd.counters.gc_copy_lp, 0)
        self.assertAlmostEqual(rnd.write.iops, rnd.write.ios / (rnd.runtime_ns / 1e9))
        self.assertEqual(rnd.read.ios, 0)
        self.assertGreater(rnd.health.erase_max, 0)
        with self.assertRaises(ssdlab.Error) as cm:
            self.res.job("nope")
        self.assertEqual(cm.exception.name, "SSDLAB_ENOENT")

    def test_percentiles(self):
        rnd = self.res.job("random")
        ps = rnd.percentiles()
        self.assertEqual(list(ps), list(ssdlab.PERCENTILES))
        vals = list(ps.values())
        self.assertEqual(vals, sorted(vals))
        self.assertGreater(ps[99.9], ps[50])
        self.assertLessEqual(ps[99.99], rnd.write.lat_max_ns * 1.02)
        self.assertEqual(rnd.percentile(99, "read"), 0)
        for bad in (0, 101, -1, float("nan")):
            with self.assertRaises(ssdlab.Error) as cm:
                rnd.percentile(bad)
            self.assertIn("percentile %r of job random: p must be above 0 and at most 100"
                          % bad, str(cm.exception))
        with self.assertRaises(ssdlab.Error):
            rnd.percentile(50, "sideways")

    def test_reports(self):
        text = self.res.report()
        self.assertIn("random: (groupid=", text)
        js = self.res.json()
        self.assertEqual([j["jobname"] for j in js["jobs"]], ["fill", "random"])
        self.assertEqual(js["jobs"][1]["write"]["total_ios"],
                         self.res.job("random").write.ios)
        self.assertEqual(json.loads(self.res.report("json")), js)
        self.assertIn("random", self.res.report("terse"))
        with self.assertRaises(ssdlab.Error) as cm:
            self.res.report("yaml")
        self.assertEqual(cm.exception.name, "SSDLAB_EPARSE")
        self.assertIn("report format 'yaml'", str(cm.exception))

    def test_series(self):
        s = self.res.series
        self.assertEqual(s.step_s, 0.25)
        self.assertEqual(len(s), -(-self.end // 250000000))
        self.assertEqual(sum(p.len_ns for p in s), self.end)
        for op in ("read", "write", "trim"):
            self.assertEqual(sum(getattr(p, op).ios for p in s),
                             sum(getattr(j, op).ios for j in self.res.jobs))
            self.assertEqual(sum(getattr(p, op).bytes for p in s),
                             sum(getattr(j, op).bytes for j in self.res.jobs))
        p = s[1]
        self.assertEqual(p.t_ns, 250000000)
        self.assertAlmostEqual(p.write.iops, p.write.ios / 0.25)
        row = p.row()
        self.assertEqual(row["t_s"], 0.5)
        self.assertEqual(row["write_iops"], p.write.iops)
        self.assertEqual(s.column("write_ios"), [q.write.ios for q in s])
        # the fill (128 KiB) is faster in MB/s than random 4 KiB writes
        fill_end = self.res.job("fill").runtime_ns
        first = s[0].write.bw_bytes
        last = s[-2].write.bw_bytes
        self.assertGreater(first, last)
        self.assertGreater(fill_end, 0)

    def test_each_job_has_its_own_series(self):
        s = self.res.series
        fill, rnd = self.res.jobs
        self.assertEqual(len(fill.series), len(s))
        self.assertEqual(fill.series.step_s, 0.25)
        for i, p in enumerate(s):
            # every completion is one job's: the jobs' points add up
            self.assertEqual(fill.series[i].t_ns, p.t_ns)
            self.assertEqual(fill.series[i].len_ns, p.len_ns)
            for op in ("read", "write", "trim"):
                self.assertEqual(getattr(fill.series[i], op).ios + getattr(rnd.series[i], op).ios,
                                 getattr(p, op).ios)
        for j in (fill, rnd):
            self.assertEqual(sum(p.write.ios for p in j.series), j.write.ios)
            self.assertEqual(sum(p.write.bytes for p in j.series), j.write.bytes)
        # stonewall: the random job starts when the fill has ended
        first_rnd = next(i for i, p in enumerate(rnd.series) if p.write.ios)
        last_fill = max(i for i, p in enumerate(fill.series) if p.write.ios)
        self.assertGreaterEqual(first_rnd, last_fill)
        self.assertEqual(rnd.series[0].write.ios, 0)
        self.assertEqual(rnd.series.column("write_ios"), [p.write.ios for p in rnd.series])

    def test_a_run_without_series(self):
        with ssdlab.Device(tiny()) as dev:
            with dev.run("[w]\nrw=write\nsize=1m\n") as r:
                self.assertEqual(len(r.series), 0)
                self.assertIsNone(r.series.step_s)
            for bad in (0, -1, float("inf"), float("nan")):
                with self.assertRaises(ssdlab.Error):
                    dev.run("[w]\nrw=write\nsize=1m\n", series=bad)

    def test_a_failed_job_has_its_error_and_the_run_goes_on(self):
        # latency_percentile=100: a completion over the target at depth 1
        # ends the job with ETIMEDOUT (fio's lat_fatal); the next job runs
        text = ("[w]\nrw=randwrite\nbs=4k\nio_size=300%\nlatency_target=1us\n"
                "latency_percentile=100\n[x]\nrw=write\nsize=1m\n")
        with ssdlab.Device(tiny()) as dev, dev.run(text) as res:
            w, x = res.jobs
            self.assertEqual(w.error, -12)
            self.assertIn("exceeds", w.errmsg)
            self.assertLess(w.write.bytes, 3 * dev.capacity)
            self.assertEqual((x.error, x.errmsg), (0, ""))
            self.assertEqual(x.write.bytes, 1 << 20)


if __name__ == "__main__":
    unittest.main()
