"""ssdlab.Result: what a run measured (ssdlab_result) -- each job's
figures, latency percentiles, the reports `ssdlab run` prints, and the
run's time series when it kept one."""
import json

from . import _args, _lib
from ._handle import Handle
from .frames import frame
from .values import OPS, Counters, DirStats, Health, Point, op_code

# fio's default percentiles (its normal report's clat list)
PERCENTILES = (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
               99.9, 99.95, 99.99)


class JobStats:
    """One reported job's figures over its measured window: name, error
    (0 or the SSDLAB_E* code that ended it) and errmsg, start_ns and
    runtime_ns; read, write and trim (ssdlab.DirStats); counters (the
    drive's work over the window), waf, health (at the job's end);
    percentile() / percentiles() of its completion latency; and, when the
    run kept a series, the job's own (series: its completions only, on
    the run's steps)."""

    def __init__(self, result, index, c):
        self._result = result
        self.index = index
        self.name = c.name.decode(errors="replace")
        self.error = c.error
        self.errmsg = c.errmsg.decode(errors="replace") if c.errmsg else ""
        self.start_ns = c.start_ns
        self.runtime_ns = c.runtime_ns
        self.read, self.write, self.trim = (DirStats._from_c(c.dir[d]) for d in range(3))
        self.counters = Counters._from_c(c.ctr)
        self.waf = c.waf
        self.health = Health._from_c(c.health)
        self._series = None

    @property
    def series(self):
        r = self._result
        h = r._ptr  # kept once read, but not once its Result is closed
        if self._series is None:
            pts = []
            c = _lib.CPoint()
            for i in range(_lib.lib.ssdlab_result_points(h)):
                _lib.check(_lib.lib.ssdlab_result_job_point(h, self.index, i, c),
                           what="point %d of job %s" % (i, self.name))
                pts.append(Point._from_c(c))
            self._series = Series(pts, r._step)
        return self._series

    def percentile(self, p, op="write"):
        """The p-th percentile (0 < p <= 100) of completion latency in one
        direction, ns, at fio's resolution (0 without I/O)."""
        h = self._result._ptr
        code = op_code(op)
        what = "percentile %r of job %s" % (p, self.name)
        p = _args.number("p", p)
        rc = _lib.lib.ssdlab_result_percentile(h, self.index, code, p)
        if rc == -1 and not 0 < p <= 100:  # the library's one refusal here
            raise _lib.Error(rc, "%s: p must be above 0 and at most 100" % what)
        return _lib.check(rc, what=what)

    def percentiles(self, op="write", ps=PERCENTILES):
        """{p: ns} for each p (fio's list by default)."""
        return {p: self.percentile(p, op) for p in ps}

    def row(self, ps=(50, 99, 99.9)):
        """A flat dict: name, error, runtime_s, waf, then per direction
        iops, bw_bytes, lat_mean_ns, lat_max_ns, lat_pP_ns, and the
        counters."""
        out = {"job": self.name, "error": self.error,
               "runtime_s": self.runtime_ns / 1e9, "waf": self.waf}
        for op in OPS:
            d = getattr(self, op)
            for k in DirStats._fields:
                out["%s_%s" % (op, k)] = getattr(d, k)
            for p in ps:
                out["%s_lat_p%g_ns" % (op, p)] = self.percentile(p, op)
        out.update(self.counters.as_dict())
        return out

    def __repr__(self):
        return "<ssdlab.JobStats %s: %.0f read IOPS, %.0f write IOPS, WAF %.3f>" % (
            self.name, self.read.iops, self.write.iops, self.waf)


class Series(list):
    """A run's time series: a list of ssdlab.Point, one per step.  .step_s
    the step in seconds; .to_dataframe() a pandas DataFrame (a list of
    dicts without pandas); .column(name) one column of it as a list
    ("write_iops", "read_bw_bytes", "t_s")."""

    def __init__(self, points, step_ns):
        super().__init__(points)
        self.step_s = step_ns / 1e9 if step_ns else None

    def rows(self):
        return [p.row() for p in self]

    def column(self, name):
        return [p.row()[name] for p in self]

    def to_dataframe(self):
        return frame(self.rows(), index="t_s")


class Result(Handle):
    """What a run measured.  jobs: a list of ssdlab.JobStats (a reporting
    group's jobs merged under group_reporting, as fio reports them);
    job(name); report(fmt) the report's
    text; json() the JSON report as a dict; series the run's time series
    (Device.run(series=...)); to_dataframe() one row per job."""
    _free = "ssdlab_result_free"
    _what = "Result"

    @classmethod
    def _adopt(cls, ptr, step_ns):
        r = cls()
        r._own(ptr)
        r._step = step_ns
        r._series = None
        return r

    @property
    def jobs(self):
        # made anew each time: a JobStats holds its Result (for its
        # percentiles), and a Result holding them would be a cycle that
        # keeps the handle until the garbage collector runs
        h = self._ptr
        out = []
        for i in range(_lib.lib.ssdlab_result_jobs(h)):
            c = _lib.CJobStats()
            _lib.check(_lib.lib.ssdlab_result_job(h, i, c), what="job %d" % i)
            out.append(JobStats(self, i, c))
        return out

    def job(self, name):
        """The job named `name` (ssdlab.JobStats)."""
        name = _args.text("name", name)
        for j in self.jobs:
            if j.name == name:
                return j
        raise _lib.Error(-8, "no job named %r (jobs: %s)" % (
            name, ", ".join(j.name for j in self.jobs)))

    def report(self, fmt="normal"):
        """The report as `ssdlab run --output-format=fmt` prints it
        (normal, json, json+, terse, or a comma list)."""
        h = self._ptr
        fmt = _args.text("fmt", fmt)
        return _lib.to_text(lambda f: _lib.lib.ssdlab_report(h, _lib.enc(fmt), f),
                            what="report format %r (normal, json, json+, terse, "
                            "or a comma list)" % fmt)

    def json(self):
        return json.loads(self.report("json"))

    @property
    def series(self):
        h = self._ptr  # kept once read, but not for a closed Result
        if self._series is None:
            pts = []
            c = _lib.CPoint()
            for i in range(_lib.lib.ssdlab_result_points(h)):
                _lib.check(_lib.lib.ssdlab_result_point(h, i, c), what="point %d" % i)
                pts.append(Point._from_c(c))
            self._series = Series(pts, self._step)
        return self._series

    def rows(self, ps=(50, 99, 99.9)):
        """One flat dict per job (JobStats.row)."""
        self._ptr
        return [j.row(ps) for j in self.jobs]

    def to_dataframe(self, ps=(50, 99, 99.9)):
        """One row per job (JobStats.row): a pandas DataFrame indexed by
        job name, or a list of dicts without pandas."""
        self._ptr
        return frame(self.rows(ps), index="job")
