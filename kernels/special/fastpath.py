"""Dispatch to the vectorised loops of :mod:`.fast`, threaded over chunks for large arrays.

:func:`call` takes the fast path only for what the loops handle exactly as the ufunc would:
plain ``ndarray`` inputs of one shape and one native float dtype (float64 or float32, no
promotion), all C-contiguous or all Fortran-contiguous, aligned, not empty, not 0-d, with no
keyword other than ``out`` (an ndarray of the result's dtype, shape and layout, not
overlapping an input unless the loop allows it). Everything else returns ``NotImplemented``
and goes through the ufunc.

Arrays of at least :data:`PARALLEL_MIN` elements are split into chunks (boundaries on
64-element multiples) run on the kernels' thread pool (:mod:`linalgx.kernels._parallel`:
concurrent callers, fork-safe, ``LINALGX_NUM_THREADS`` / ``_parallel.limit``); results are
identical for any number of threads because every element is computed independently with
the same operations.
"""
import numpy as np

from .. import _parallel
from . import fast

PARALLEL_MIN = 1 << 19
NAMES = frozenset(fast.LOOPS)


def _flat(a):
    return a.reshape(-1, order="F" if not a.flags.c_contiguous else "C")


def _usable(a, dtype, shape, order):
    return (type(a) is np.ndarray and a.dtype == dtype and a.shape == shape
            and a.flags.aligned and a.flags[order])


def call(name, args, kwargs):
    """Evaluate ``name`` on the fast path, or return ``NotImplemented``."""
    loop, nin, rereads = fast.LOOPS[name]
    if len(args) != nin or (kwargs and set(kwargs) != {"out"}):
        return NotImplemented
    a0 = args[0]
    if type(a0) is not np.ndarray or a0.ndim == 0 or a0.size == 0:
        return NotImplemented
    dtype = a0.dtype
    if dtype.char not in "fd" or not dtype.isnative:
        return NotImplemented
    order = "C_CONTIGUOUS" if a0.flags.c_contiguous else "F_CONTIGUOUS"
    if not all(_usable(a, dtype, a0.shape, order) for a in args):
        return NotImplemented
    out = kwargs.get("out") if kwargs else None
    if isinstance(out, tuple):
        if len(out) != 1:
            return NotImplemented
        out = out[0]
    if out is None:
        res = np.empty_like(a0)
    else:
        if not (_usable(out, dtype, a0.shape, order) and out.flags.writeable):
            return NotImplemented
        for a in args:
            same = (a.__array_interface__["data"][0] == out.__array_interface__["data"][0])
            if np.may_share_memory(a, out) and (rereads or not same):
                return NotImplemented
        res = out
    flats = [_flat(a) for a in args] + [_flat(res)]
    _parallel.run(loop, flats, flats[0].shape[0], PARALLEL_MIN, grain=64)
    return res
