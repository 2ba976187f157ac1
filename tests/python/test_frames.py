"""Tables: pandas DataFrames where pandas is installed (skipped, with
the reason, where it is not), lists of dicts without it -- and the
module imports and works without pandas."""
import os
import subprocess
import sys
import unittest

import ssdlab

from common import JOBTEXT, TOP, tiny

try:
    import pandas
except ImportError:
    pandas = None


def result():
    with ssdlab.Device(tiny(), seed=3) as dev:
        return dev.run(JOBTEXT, seed=11, series=0.5)


class WithPandas(unittest.TestCase):
    @unittest.skipIf(pandas is None, "pandas is not installed (python3-pandas)")
    def test_dataframes(self):
        self.assertTrue(ssdlab.have_pandas())
        with result() as res:
            df = res.to_dataframe()
            self.assertIsInstance(df, pandas.DataFrame)
            self.assertEqual(list(df.index), ["fill", "random"])
            self.assertEqual(df.loc["random", "write_ios"], res.job("random").write.ios)
            self.assertEqual(df.loc["random", "waf"], res.job("random").waf)
            self.assertIn("write_lat_p99_ns", df.columns)
            self.assertIn("gc_copy_lp", df.columns)
            s = res.series.to_dataframe()
            self.assertIsInstance(s, pandas.DataFrame)
            self.assertEqual(len(s), len(res.series))
            self.assertEqual(s.index.name, "t_s")
            self.assertEqual(int(s["write_ios"].sum()),
                             sum(j.write.ios for j in res.jobs))
            self.assertEqual(list(s["write_iops"]), res.series.column("write_iops"))


class WithoutPandas(unittest.TestCase):
    def test_lists_of_dicts_without_pandas(self):
        # a fresh interpreter where `import pandas` fails
        code = (
            "import sys; sys.modules['pandas'] = None\n"
            "import ssdlab\n"
            "assert not ssdlab.have_pandas()\n"
            "with ssdlab.Device(ssdlab.Drive('tiny')) as dev:\n"
            "    res = dev.run('[w]\\nrw=write\\nbs=64k\\nsize=4m\\n', series=0.01)\n"
            "rows = res.to_dataframe()\n"
            "assert isinstance(rows, list) and rows[0]['job'] == 'w', rows\n"
            "assert rows[0]['write_bytes'] == 4 << 20\n"
            "pts = res.series.to_dataframe()\n"
            "assert isinstance(pts, list) and len(pts) == len(res.series) > 1\n"
            "assert sum(p['write_bytes'] for p in pts) == 4 << 20\n"
            "print('ok')\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=TOP,
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout, "ok\n")


if __name__ == "__main__":
    unittest.main()
