"""The ctypes mirrors against include/ssdlab.h: each struct's fields, in
order, with their types and array lengths; each bound function's
argument count; the error codes.  A change to the header that the module
does not follow fails here."""
import ctypes
import os
import re
import unittest

import ssdlab
from ssdlab import _lib

from common import TOP

HEADER = os.path.join(TOP, "include", "ssdlab.h")
CTYPES = {"uint64_t": ctypes.c_uint64, "int64_t": ctypes.c_int64,
          "uint32_t": ctypes.c_uint32, "int": ctypes.c_int,
          "double": ctypes.c_double, "const char *": ctypes.c_char_p}


def header():
    with open(HEADER) as f:
        text = f.read()
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def struct_fields(text, name):
    """[(field, C type, array length or None)] of struct `name`."""
    m = re.search(r"struct %s \{(.*?)\};" % name, text, re.S)
    assert m, "struct %s not in the header" % name
    out = []
    for decl in m.group(1).split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        if decl.startswith("const char *"):
            ctype, names = "const char *", decl[len("const char *"):]
        else:
            dm = re.match(r"(struct \w+|\w+) (.*)$", decl)
            ctype, names = dm.group(1), dm.group(2)
        for n in names.split(","):
            n = n.strip()
            am = re.match(r"(\w+)\[(\w+)\]$", n)
            if am:
                dim = am.group(2)
                dim = {"SSDLAB_WEAR_BINS": ssdlab.WEAR_BINS}.get(dim, dim)
                out.append((am.group(1), ctype, int(dim)))
            else:
                out.append((n, ctype, None))
    return out


class ABI(unittest.TestCase):
    def check_struct(self, cname, cls, nested=None):
        text = header()
        want = struct_fields(text, cname)
        got = cls._fields_
        self.assertEqual([f[0] for f in want], [f[0] for f in got], cname)
        for (name, ctype, dim), (_, t) in zip(want, got):
            if dim is not None:
                self.assertEqual(t._length_, dim, "%s.%s" % (cname, name))
                t = t._type_
            if ctype.startswith("struct "):
                self.assertIs(t, nested[ctype[7:]], "%s.%s" % (cname, name))
            else:
                self.assertIs(t, CTYPES[ctype], "%s.%s: %s" % (cname, name, ctype))

    def test_structs_match_the_header(self):
        nested = {"ssdlab_dir_stats": _lib.CDirStats, "ssdlab_counters": _lib.CCounters,
                  "ssdlab_health": _lib.CHealth}
        self.check_struct("ssdlab_counters", _lib.CCounters)
        self.check_struct("ssdlab_health", _lib.CHealth)
        self.check_struct("ssdlab_dir_stats", _lib.CDirStats)
        self.check_struct("ssdlab_job_stats", _lib.CJobStats, nested)
        self.check_struct("ssdlab_point", _lib.CPoint)
        self.check_struct("ssdlab_zoned", _lib.CZoned)
        self.check_struct("ssdlab_zone", _lib.CZone)

    def test_bound_functions_take_the_header_arguments(self):
        text = " ".join(header().split())
        for name, (_, args) in _lib._protos.items():
            m = re.search(r"SSDLAB_API [^;(]*\b%s\(([^)]*)\);" % name, text)
            self.assertTrue(m, "%s not declared in ssdlab.h" % name)
            params = m.group(1).strip()
            n = 0 if params in ("", "void") else params.count(",") + 1
            self.assertEqual(len(args), n, name)

    def test_error_codes_match_the_header(self):
        text = header()
        m = re.search(r"enum \{(.*?SSDLAB_OK.*?)\};", text, re.S)
        codes = {}
        for name, val in re.findall(r"(SSDLAB_\w+) = (-?(?:0x)?[0-9a-f]+)", m.group(1)):
            codes[int(val, 0)] = name
        self.assertEqual(codes, _lib.CODES)

    def test_version_is_the_header_one(self):
        text = header()
        parts = [re.search(r"#define SSDLAB_VERSION_%s (\d+)" % p, text).group(1)
                 for p in ("MAJOR", "MINOR", "PATCH")]
        self.assertEqual(ssdlab.library_version(), ".".join(parts))
        self.assertEqual(ssdlab.__version__, ".".join(parts))


if __name__ == "__main__":
    unittest.main()
