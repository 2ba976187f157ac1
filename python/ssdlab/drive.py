"""ssdlab.Drive: a drive's configuration (ssdlab_drive) -- a preset or
drive file, keys set as `ssdlab run --set` does, finished."""
import json
import os

from . import _args, _lib
from ._handle import Handle, new_ptr


def key_value(v):
    """A drive key's value as the drive file would write it."""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


class Drive(Handle):
    """A finished drive configuration.

    Drive()                          the built-in defaults
    Drive("tiny")                    a preset (presets/NAME.ini)
    Drive("my-drive.ini")            a drive file (a name with '/' or .ini)
    Drive("tiny", op=0.3, fdp=True)  keys set over it (True/False: yes/no)
    Drive("tiny", {"capacity": "1g"})  the same from a dict

    `presets` is the presets directory (default: $SSDLAB_PRESETS, else
    those installed with the module, else the source tree's).  A bad
    name, key or value raises ssdlab.Error naming it.
    """
    _free = "ssdlab_drive_free"
    _what = "Drive"

    def __init__(self, name=None, keys=None, *, presets=None, **kw):
        super().__init__()
        if name is not None:
            _args.path("name", name)  # a preset's name or a drive file's path
        if presets is not None:
            _args.path("presets", presets)
        self.name = name
        self.keys = _args.mapping("keys", keys)
        self.keys.update(kw)
        self.presets = presets
        p = new_ptr()
        _lib.check(_lib.lib.ssdlab_drive_new(p), what="Drive")
        self._own(p.value)
        err = _lib.errbuf()
        if name is not None:
            pdir = presets
            if pdir is None and not os.environ.get("SSDLAB_PRESETS"):
                pdir = _lib.PRESETS
            _lib.check(_lib.lib.ssdlab_drive_load(
                self._ptr, _lib.enc(name), _lib.enc(pdir), err, _lib.ERRBUF), err)
        for k, v in self.keys.items():
            _lib.check(_lib.lib.ssdlab_drive_set(
                self._ptr, _lib.enc(k), _lib.enc(key_value(v)), err, _lib.ERRBUF), err)
        _lib.check(_lib.lib.ssdlab_drive_finish(self._ptr, err, _lib.ERRBUF), err)

    def with_keys(self, keys=None, **kw):
        """A new Drive: this one's name and keys, and these over them."""
        self._ptr  # a closed Drive makes none
        k = dict(self.keys)
        k.update(_args.mapping("keys", keys))
        k.update(kw)
        return Drive(self.name, k, presets=self.presets)

    @property
    def capacity(self):
        """Bytes the host sees."""
        return _lib.lib.ssdlab_drive_capacity(self._ptr)

    @property
    def physical_bytes(self):
        """Bytes of raw NAND (0 for a hard disk)."""
        return _lib.lib.ssdlab_drive_physical_bytes(self._ptr)

    def memory(self, verify=False):
        """Bytes simulating it takes (with verify: jobs that verify data)."""
        h = self._ptr
        return _lib.lib.ssdlab_drive_memory(h, 1 if verify else 0)

    def text(self):
        """Every key with its value, as a drive file (`ssdlab drive show`)."""
        h = self._ptr
        return _lib.to_text(lambda f: _lib.lib.ssdlab_drive_print(h, f), what="Drive.text()")

    def as_dict(self):
        """Every key with its value, as a dict (the JSON form)."""
        h = self._ptr
        return json.loads(_lib.to_text(lambda f: _lib.lib.ssdlab_drive_json(h, f),
                                       what="Drive.as_dict()"))

    def __repr__(self):
        args = [repr(self.name)] if self.name is not None else []
        args += ["%s=%r" % kv for kv in self.keys.items()]
        return "ssdlab.Drive(%s)" % ", ".join(args)
