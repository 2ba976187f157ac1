"""Ownership of a C object: a Python object holds one handle and frees
it exactly once, with the library's matching free function -- by
close(), at the end of a `with` block, or when the object is collected,
whichever comes first.  After close() every method raises Error
(SSDLAB_EINVAL, "used after close()") -- each method takes ._ptr
before anything else -- except close() itself, which does nothing."""
import ctypes

from . import _lib


class Handle:
    _free = None  # the library's free function, by name
    _what = "object"

    def __init__(self):
        self._h = None

    def _own(self, ptr):
        self._h = ptr

    @property
    def _ptr(self):
        if not self._h:
            raise _lib.Error(-1, "%s: used after close()" % self._what)
        return self._h

    def close(self):
        """Free the C object now (once; later calls do nothing)."""
        h, self._h = self._h, None
        if h:
            getattr(_lib.lib, self._free)(h)

    def __enter__(self):
        self._ptr  # a closed object is not entered either
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        # at interpreter exit the module may be gone already
        try:
            self.close()
        except Exception:
            pass


def new_ptr():
    return ctypes.c_void_p()
