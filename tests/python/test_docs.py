"""docs/python.md's examples run as written: its ```python blocks, in
order, as one session, in a scratch folder holding the tree's examples/
and presets/ (the files the blocks write stay there); and so does the
README's."""
import contextlib
import io
import os
import re
import shutil
import tempfile
import unittest

from common import TOP

def blocks(doc):
    with open(os.path.join(TOP, doc)) as f:
        text = f.read()
    return re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M)


class Docs(unittest.TestCase):
    def test_python_md_blocks_run(self):
        self.run_blocks("docs/python.md", 8)

    def test_readme_blocks_run(self):
        self.run_blocks("README.md", 1)

    def run_blocks(self, doc, least):
        found = blocks(doc)
        self.assertGreaterEqual(len(found), least)
        tmp = tempfile.mkdtemp()
        cwd = os.getcwd()
        try:
            for d in ("examples", "presets"):
                os.symlink(os.path.join(TOP, d), os.path.join(tmp, d))
            os.chdir(tmp)
            env = {"__name__": "__doc__"}
            for i, code in enumerate(found):
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    try:
                        exec(compile(code, "%s block %d" % (doc, i + 1), "exec"), env)
                    except Exception as e:
                        self.fail("%s block %d: %s: %s\n%s" % (
                            doc, i + 1, type(e).__name__, e, code))
                # what a block's comments say it prints, it prints (a
                # comment after print() that starts with a number)
                for want in re.findall(r"print\([^#\n]*\)\s*# ([0-9][\w. ]*|True|False|filled in [0-9.]+ s)$",
                                       code, re.M):
                    self.assertIn(want.strip(), out.getvalue(),
                                  "%s block %d" % (doc, i + 1))
        finally:
            os.chdir(cwd)
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
