"""Runs the Python module's tests (tests/python/test_*.py, unittest)
against one build of the library, the way tests/run.sh reads the unit
tests: "ok NAME", "FAIL NAME" with its traceback, "skip NAME: reason"
per test, then "N passed, N failed, N skipped"; exit 1 when any failed.

    python3 tests/python/run.py [BUILD] [PATTERN]

BUILD (default build) is the build directory whose libssdlab.so the
tests load (SSDLAB_LIBRARY; PYTHONPATH gets the source tree's python/);
PATTERN keeps the tests whose name holds it.
"""
import glob
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(os.path.dirname(here))


class Result(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.passed = 0

    def addSuccess(self, test):
        self.passed += 1
        print("ok   %s" % test.id(), flush=True)

    def _fail(self, test, err):
        print("FAIL %s" % test.id())
        print("    " + self._exc_info_to_string(err, test).rstrip().replace("\n", "\n    "),
              flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._fail(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        self._fail(test, err)

    def addSubTest(self, test, subtest, err):
        # a failed subTest counts as its test's failure: named, with its
        # traceback, as a failed test is
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._fail(subtest, err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print("skip %s: %s" % (test.id(), reason), flush=True)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.passed += 1

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        print("FAIL %s: passed, expected to fail" % test.id(), flush=True)


def flat(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flat(t)
        else:
            yield t


def main(argv):
    build = argv[1] if len(argv) > 1 else "build"
    pattern = argv[2] if len(argv) > 2 else ""
    if not os.path.isabs(build):
        build = os.path.join(top, build)
    libs = sorted(glob.glob(os.path.join(build, "libssdlab.so.*.*.*")))
    if not libs:
        print("no libssdlab.so in %s (make shared)" % build)
        return 1
    os.environ["SSDLAB_LIBRARY"] = libs[-1]
    sys.path.insert(0, os.path.join(top, "python"))
    sys.path.insert(0, here)
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    tests = [t for t in flat(suite) if pattern in t.id()]
    res = Result()
    unittest.TestSuite(tests).run(res)
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    print("%d passed, %d failed, %d skipped" % (res.passed, failed, len(res.skipped)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
