"""Arguments checked and converted before anything reaches the library.

ctypes converts what it is given as best it can: a float is truncated,
a negative int wraps round an unsigned type, an int wider than the C
type loses its top bits -- and a str fails only after the call, when a
message is built.  So every number a public method passes on is made
an int (or a float) here first, by its name:

  integer   an int, or anything with __index__ (numpy's integers); not a
            bool, a float, a str or None (ArgumentTypeError)
  seconds   a real number (int, float, numpy's), not a bool or a str
            (ArgumentTypeError), finite and 0 or more (ArgumentValueError)
  path      a str, bytes or os.PathLike (ArgumentTypeError)

Both errors are ssdlab.Error (SSDLAB_EINVAL) as well as TypeError or
ValueError, and name the argument.
"""
import math
import operator
import os

from ._lib import ArgumentTypeError, ArgumentValueError

INT64_MAX = 2 ** 63 - 1
UINT64_MAX = 2 ** 64 - 1
UINT32_MAX = 2 ** 32 - 1


def _kind(v):
    return "None" if v is None else "%s %r" % (type(v).__name__, v)


def integer(name, v):
    """v as an int, or ArgumentTypeError naming `name`."""
    if not isinstance(v, bool):
        try:
            return operator.index(v)
        except TypeError:
            pass
    raise ArgumentTypeError("%s must be an integer, not %s" % (name, _kind(v)))


def number(name, v):
    """v as a float (an int or a real number), or ArgumentTypeError."""
    if not isinstance(v, (bool, str, bytes)) and v is not None:
        try:
            return float(v)
        except (TypeError, ValueError, OverflowError):
            pass
    raise ArgumentTypeError("%s must be a number, not %s" % (name, _kind(v)))


def seconds(name, v):
    """A duration in seconds: a finite float, 0 or more."""
    f = number(name, v)
    if not math.isfinite(f) or f < 0:
        raise ArgumentValueError("%s=%r: a duration in seconds, finite and 0 or more"
                                 % (name, v))
    return f


def unsigned64(name, v):
    """An int of 0 .. 2**64 - 1 (a seed)."""
    i = integer(name, v)
    if not 0 <= i <= UINT64_MAX:
        raise ArgumentValueError("%s=%d: not in 0 .. 2**64 - 1" % (name, i))
    return i


def path(name, v):
    """A file's path as bytes for the library."""
    if isinstance(v, (str, bytes, os.PathLike)):
        return os.fsencode(v)
    raise ArgumentTypeError("%s must be a path (str, bytes or os.PathLike), not %s"
                            % (name, _kind(v)))


def mapping(name, v):
    """A dict of v (what dict() takes: a mapping or (key, value) pairs;
    None: empty)."""
    if v is None:
        return {}
    if not isinstance(v, (str, bytes)):
        try:
            return dict(v)
        except (TypeError, ValueError):
            pass
    raise ArgumentTypeError("%s must be a dict, not %s" % (name, _kind(v)))


def text(name, v, none=False):
    """A str (or None where `none`)."""
    if isinstance(v, str) or (none and v is None):
        return v
    raise ArgumentTypeError("%s must be a str%s, not %s" % (
        name, " or None" if none else "", _kind(v)))
