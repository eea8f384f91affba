"""Dispatch to the vectorised loops of :mod:`.fast`, threaded over chunks for large arrays.

:func:`call` takes the fast path only for what the loops handle exactly as the ufunc would:
plain ``ndarray`` inputs of one shape and one native float dtype (float64 or float32, no
promotion), all C-contiguous or all Fortran-contiguous, aligned, not empty, not 0-d, with no
keyword other than ``out`` (an ndarray of the result's dtype, shape and layout, not
overlapping an input unless the loop allows it). Everything else returns ``NotImplemented``
and goes through the ufunc.

Arrays of at least :data:`PARALLEL_MIN` elements are split into one chunk per thread (chunk
boundaries on 64-element multiples), the first chunk computed by the calling thread and the
others by a shared pool of Python threads running the ``nogil`` loops; results are identical
for any number of threads because every element is computed independently with the same
operations. The thread count is numba's (``NUMBA_NUM_THREADS`` / ``numba.set_num_threads``);
a forked child starts a fresh pool.
"""
import os
import threading

import numpy as np

from . import fast

PARALLEL_MIN = 1 << 19
NAMES = frozenset(fast.LOOPS)

_pool = None
_pool_size = 0
_pool_lock = threading.Lock()


def _reset_after_fork():
    global _pool, _pool_size, _pool_lock
    _pool, _pool_size, _pool_lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def num_threads():
    """Threads used for large arrays: numba's setting (1 forces serial loops)."""
    import numba
    from numba.np.ufunc import parallel

    if parallel._is_initialized:
        return numba.get_num_threads()
    return int(numba.config.NUMBA_NUM_THREADS)


def _get_pool(workers):
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size < workers:
            from concurrent.futures import ThreadPoolExecutor
            _pool = ThreadPoolExecutor(max_workers=workers,
                                       thread_name_prefix="linalgx-special")
            _pool_size = workers
        return _pool


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
    n = flats[0].shape[0]
    nthreads = num_threads() if n >= PARALLEL_MIN else 1
    if nthreads <= 1:
        loop(*flats)
        return res
    step = -(-n // nthreads)
    step = -(-step // 64) * 64
    bounds = [(i, min(i + step, n)) for i in range(0, n, step)]
    pool = _get_pool(len(bounds) - 1)
    futures = [pool.submit(loop, *[f[lo:hi] for f in flats]) for lo, hi in bounds[1:]]
    lo, hi = bounds[0]
    try:
        loop(*[f[lo:hi] for f in flats])
    finally:
        for fut in futures:
            fut.result()
    return res
