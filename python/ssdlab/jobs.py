"""ssdlab.Jobs: a workload -- fio job text, a job file, or jobs built in
code section by section -- kept as a recipe and made into the library's
ssdlab_jobs for a device's capacity when it runs (percentages and
default sizes resolve against the drive that runs them)."""
import os

from . import _args, _lib
from ._handle import Handle, new_ptr


def option_value(v):
    """(include it, the value a job file would write: None for a bare
    key).  True / None: the bare key ("norandommap"); False: left out."""
    if v is True or v is None:
        return True, None
    if v is False:
        return False, None
    return True, str(v)


class Jobs:
    """A workload.

    Jobs(text)                 fio job text ("[w]\\nrw=randwrite\\n...")
    Jobs.file(path)            a job file (its includes relative to it)
    Jobs()                     empty, to build in code:
      .global_(bs="4k")          begin a [global] section with options
      .add("fill", rw="write")   begin a job section [fill] with options
      .set("iodepth", 16)        one more option of the current section

    Option values as a job file writes them (numbers and "4k" alike);
    True or None is a bare key (norandommap=True), False leaves it out;
    a dict gives options whose names are not Python names.  Nothing is
    checked until check() or a run: then a bad option raises
    ssdlab.Error with the job file's line or the section and option.
    """

    def __init__(self, text=None, name=None):
        _args.text("text", text, none=True)
        _args.text("name", name, none=True)
        self.name = name
        self._text = text
        self._path = None
        self._sections = []  # [kind, name, [(key, value)]]

    @classmethod
    def file(cls, path, name=None):
        _args.path("path", path)
        path = os.fsdecode(path)
        j = cls(name=name if name is not None else path)
        j._path = path
        return j

    def _building(self):
        if self._text is not None or self._path is not None:
            raise _lib.Error(-1, "Jobs: made from job text, not built in code")

    def global_(self, options=None, **kw):
        """Begin a [global] section (it applies to the jobs after it)."""
        self._building()
        self._sections.append(["global", None, []])
        return self._opts(options, kw)

    def add(self, name, options=None, **kw):
        """Begin the job section [name]."""
        self._building()
        self._sections.append(["job", str(name), []])
        return self._opts(options, kw)

    def set(self, key, value=True):
        """Set one option of the current section."""
        return self._opts({key: value}, {})

    def _opts(self, options, kw):
        if not self._sections:
            raise _lib.Error(-1, "Jobs: an option before the first section "
                             "(global_() or add() first)")
        for k, v in list(_args.mapping("options", options).items()) + list(kw.items()):
            keep, val = option_value(v)
            if keep:
                self._sections[-1][2].append((str(k), val))
        return self

    def text(self):
        """The workload as a job file (for the built ones: what it reads
        as; for a job file: its path's text)."""
        if self._text is not None:
            return self._text
        if self._path is not None:
            try:
                with open(self._path) as f:
                    return f.read()
            except OSError as e:  # as the library says it: SSDLAB_EIO
                raise _lib.Error(-3, "%s: cannot open job file: %s" % (
                    self._path, e.strerror or e)) from None
        out = []
        for kind, name, opts in self._sections:
            out.append("[global]" if kind == "global" else "[%s]" % name)
            out += [k if v is None else "%s=%s" % (k, v) for k, v in opts]
        return "\n".join(out) + "\n"

    def _make(self, capacity):
        """The library's workload for `capacity` bytes (a CJobs)."""
        return CJobs(self, capacity)

    def check(self, capacity):
        """Parse and check it for a drive of `capacity` bytes: the number of
        job sections, or ssdlab.Error."""
        with self._make(_capacity(capacity)) as w:
            return _lib.lib.ssdlab_jobs_count(w._ptr)

    def __repr__(self):
        if self._path is not None:
            return "ssdlab.Jobs.file(%r)" % self._path
        return "ssdlab.Jobs(%r)" % self.text()


def _capacity(v):
    """A drive's capacity in bytes: an int the library's uint64_t holds
    (a negative one would wrap to a huge one)."""
    v = _args.integer("capacity", v)
    if not 0 <= v <= _args.UINT64_MAX:
        raise _lib.Error(-1, "Jobs for a drive of %d bytes: not a capacity "
                         "(0 .. 2**64 - 1)" % v)
    return v


class CJobs(Handle):
    """An ssdlab_jobs made from a Jobs, ended (checked)."""
    _free = "ssdlab_jobs_free"
    _what = "Jobs"

    def __init__(self, jobs, capacity):
        super().__init__()
        p = new_ptr()
        name = jobs.name if jobs.name is not None else None
        capacity = _capacity(capacity)
        rc = _lib.lib.ssdlab_jobs_new(_lib.enc(name), capacity, p)
        if rc == -1 and capacity < 4096:  # the library's one refusal here
            raise _lib.Error(rc, "Jobs for a drive of %d bytes: a drive of 4 KiB "
                             "or more" % capacity)
        _lib.check(rc, what="Jobs for a drive of %d bytes" % capacity)
        self._own(p.value)
        err = _lib.errbuf()
        h = self._ptr
        if jobs._path is not None:
            _lib.check(_lib.lib.ssdlab_jobs_parse_file(
                h, _lib.enc(jobs._path), err, _lib.ERRBUF), err)
        elif jobs._text is not None:
            _lib.check(_lib.lib.ssdlab_jobs_parse(
                h, _lib.enc(jobs._text), err, _lib.ERRBUF), err)
        else:
            # errors stick: ssdlab_jobs_end reports the first
            for kind, sname, opts in jobs._sections:
                if kind == "global":
                    _lib.lib.ssdlab_jobs_global(h)
                else:
                    _lib.lib.ssdlab_jobs_add(h, _lib.enc(sname))
                for k, v in opts:
                    _lib.lib.ssdlab_jobs_set(h, _lib.enc(k), _lib.enc(v))
        _lib.check(_lib.lib.ssdlab_jobs_end(h, err, _lib.ERRBUF), err)
