"""The ``lapack`` backend's plumbing: NumPy's own LAPACK gufuncs, bound at import.

NumPy's public ``numpy.linalg`` functions are captured here before anything (the conformance
runner) can replace them, so the lapack backend never recurses into linalgx. Errors from the
gufuncs are caught per call and re-raised with the failing batch element, which NumPy omits.
"""
import cmath
import contextlib
import math
import os
import threading

import numpy as np
import numpy.linalg as _npl
from numpy.linalg import _umath_linalg as umath_linalg  # noqa: F401  (re-exported)

from .validate import batch_error

_add_reduce = np.add.reduce
_vdot = np.vdot

# numpy.linalg's public functions as they were when linalgx was imported.
ORIGINAL = {name: getattr(_npl, name) for name in _npl.__all__}


class _GufuncFailed(Exception):
    """Raised from NumPy's floating-point error callback: a linalg gufunc flagged a failure."""


def _raise_failed(err, flag):
    raise _GufuncFailed


# ``with np.errstate(...)`` builds a new error-state object on every entry (about 1.5 us, as
# much as a whole 3x3 inverse). The objects are immutable, so they are built once here and
# installed with the same ContextVar set/reset that ``errstate.__enter__/__exit__`` perform
# (thread- and asyncio-safe in the same way). NumPy's linalg gufuncs clear the FP flags their
# arithmetic raised and set ``invalid`` only for a failure, so ``invalid='call'`` is exactly
# "this call failed" (NumPy's own linalg uses the same errstate).
try:
    from numpy._core.umath import _extobj_contextvar, _make_extobj

    _FAIL_STATE = _make_extobj(call=_raise_failed, invalid="call", over="ignore",
                               divide="ignore", under="ignore")
    _QUIET_STATE = _make_extobj(all="ignore")
    _set_state = _extobj_contextvar.set
    _reset_state = _extobj_contextvar.reset
except (ImportError, TypeError):  # a NumPy without these internals: the public, slower way
    _FAIL_STATE = _QUIET_STATE = None


def quiet(ufunc, *args, **kwargs):
    """Call a gufunc with every floating-point error ignored (``np.errstate(all='ignore')``)."""
    if _QUIET_STATE is None:
        with np.errstate(all="ignore"):
            return ufunc(*args, **kwargs)
    token = _set_state(_QUIET_STATE)
    try:
        return ufunc(*args, **kwargs)
    finally:
        _reset_state(token)


# Up to this many entries OpenBLAS runs ?dot on the calling thread. Above, its threads run
# it and then spin for about 0.1 s before sleeping, and the SciPy LAPACK call that often
# follows a check (another OpenBLAS, with threads of its own) competes with them for the
# cores: measured here, 1000x1000 gesdd took 266 ms after a vdot of its input against 214 ms
# after np.add.reduce, getrf 24 ms against 17.5 ms. NumPy's own reduction is single-threaded.
_BLAS_SERIAL = 8192


def surely_finite(a):
    """True when every entry of ``a`` is finite, told by one reduction (no NaN or inf in it).

    False means only "maybe not" (a non-finite entry, or a sum that overflowed): then run the
    precise check. This keeps linalgx's better-than-NumPy finiteness checks to one cheap
    reduction on the success path.
    """
    size = a.size
    if size <= 16 and (size <= 9 or a.dtype.kind != "c"):
        # one small matrix (3x3, 4x4 real): Python's float sum of ``tolist()`` is cheaper than
        # the BLAS call below (0.29 against 0.53 us for a 3x3 here; complex up to 9 entries)
        return cmath.isfinite(sum(a.ravel().tolist()))
    flags = a.flags
    if size <= _BLAS_SERIAL and a.dtype.char in "fdFD" \
            and (flags.c_contiguous or flags.f_contiguous):
        # sum |a_i|^2 through BLAS ?dot (no copy for either order, since vdot ravels in C
        # order and a.T of an F-ordered array is C-ordered): 0.5 us for a stack of ten 2x2
        # (a Python sum of ``tolist()`` took 0.8 us, 1.7 us complex). BLAS sets no NumPy FP
        # flags, so nothing warns; an entry beyond ~1e154 overflows the square and only
        # sends the caller to its precise check.
        return cmath.isfinite(_vdot(a, a) if flags.c_contiguous else _vdot(a.T, a.T))
    if size <= 64:
        # Python's own float sum is cheaper than a ufunc reduction on a few elements, and
        # never warns (inf - inf and overflow are silent)
        s = sum((a if a.ndim == 1 else a.ravel()).tolist())
    else:
        if 0 in a.strides:
            # a broadcast view: its distinct entries only (np.broadcast_to of one number to
            # 10**12 entries had been summed in full before NumPy's gufunc ran out of memory)
            a = a[tuple(slice(0, 1) if st == 0 else slice(None) for st in a.strides)]
        token = _set_state(_QUIET_STATE) if _QUIET_STATE is not None else None
        try:
            s = _add_reduce(a, axis=None)
        finally:
            if token is not None:
                _reset_state(token)
    return cmath.isfinite(s)


def all_finite(a):
    """Whether every entry of ``a`` is finite: `surely_finite`'s one reduction, and the
    precise (and quiet) ``isfinite`` pass only where that cannot tell."""
    return surely_finite(a) or bool(np.isfinite(a).all())


def _physical_memory():
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


_MEMORY = _physical_memory()
# Inputs of at most this many entries need no workspace check (one size test per call: the
# full check cost 0.19 us of every svd)
_FITS = float("inf") if _MEMORY is None else _MEMORY // 16


def check_workspace(a, func):
    """MemoryError, before NumPy's gesdd/gelsd gufuncs are called, where copying one
    ``(m, n)`` matrix of ``a`` in double precision alone would exceed the machine's memory:
    those gufuncs print ``init_gesdd failed init`` to stdout before their bare MemoryError."""
    if a.size <= _FITS:
        return
    m, n = a.shape[-2:]
    need = m * n * (16 if a.dtype.kind == "c" else 8)
    if need > _MEMORY:
        error = MemoryError(f"Unable to allocate {need / 2**30:.1f} GiB for one {m}x{n} "
                            f"matrix of the input of shape {a.shape} ({func})")
        error.func = func  # errors.name_error names the public function instead
        raise error


# The workspace sizes LAPACK's queries ask for, by (routine, n, query arguments)
_WORKSPACE = {}


def _workspace_size(size):
    # single-precision routines return their size as a float32, rounded (down, too) above
    # 2**24: one ulp more, as scipy.linalg's _compute_lwork adds
    size = float(np.real(size))
    if size >= 2**24:
        size *= 1 + 2.0**-23
    return max(1, math.ceil(size))


def optimal_workspace(wrapper, kind, n, names, **query):
    """Workspace keyword arguments (``{"lwork": ..., "liwork": ...}``) for ``wrapper``,
    SciPy's wrapper of the LAPACK routine ``kind`` (e.g. ``"heevr"``; its precision from the
    wrapper's typecode) at order ``n``, from the routine's ``_lwork`` query called with
    ``query``; ``names`` are the query's outputs in order (less ``info``).

    SciPy's wrappers default to LAPACK's minimum workspace, with which the blocked
    reductions (?sytrd/?hetrd in the eigensolvers, ?sytrf) run unblocked: complex eigvalsh
    at n = 2000 took 1.42 s through ?heevr against 1.06 s with the queried size. Empty
    (the wrapper's minimum) if the query fails.
    """
    routine = wrapper.typecode + kind
    key = (routine, n, tuple(sorted(query.items())))
    sizes = _WORKSPACE.get(key)
    if sizes is None:
        from scipy.linalg import lapack as scipy_lapack

        out = getattr(scipy_lapack, routine + "_lwork")(n, **query)
        if out[-1] != 0:
            return {}
        sizes = {name: _workspace_size(size) for name, size in zip(names, out)}
        if len(_WORKSPACE) > 64:
            _WORKSPACE.clear()
        _WORKSPACE[key] = sizes
    return sizes


def _first_failed(out, batch_ndim):
    """Flat index of the first batch element NumPy's gufunc filled with NaN, or None."""
    if out.ndim == batch_ndim or out.size == 0:
        bad = np.isnan(out).reshape(-1)
    else:
        core = out.reshape(out.shape[:batch_ndim] + (-1,))
        bad = np.isnan(core).all(axis=-1).reshape(-1)
    idx = np.flatnonzero(bad)
    return int(idx[0]) if idx.size else None


def _flagging_fallback(ufunc, args, kwargs):
    failed = []

    def flag(*_):
        failed.append(True)

    with np.errstate(call=flag, invalid="call", over="ignore", divide="ignore", under="ignore"):
        out = ufunc(*args, **kwargs)
    return out, bool(failed)


def attempt(ufunc, signature, a, b=None):
    """``ufunc(a[, b], signature=signature)``, or None where it flagged a failed element
    (nothing is raised).

    For the ``*_ex`` functions and ``solve``: the success path costs one call; on failure,
    run the gufunc again with :func:`quiet` to get its NaN-filled output.
    """
    args = (a,) if b is None else (a, b)
    if _FAIL_STATE is None:
        out, failed = _flagging_fallback(ufunc, args, {"signature": signature})
        return None if failed else out
    token = _set_state(_FAIL_STATE)
    try:
        if a.ndim > 2 and a.size * CHUNK_N[1] >= CHUNK_WORK and _worth_chunks(a):
            out = _chunked(ufunc, args, {"signature": signature})
            if out is not None:
                return out
        return ufunc(*args, signature=signature)
    except _GufuncFailed:
        return None
    finally:
        _reset_state(token)


def gufunc1(ufunc, signature, a, kind, func):
    """``gufunc(ufunc, kind, func, a, signature=signature)`` for the common one-input call,
    without packing and unpacking variable arguments (this runs on every call)."""
    if _FAIL_STATE is not None:
        token = _set_state(_FAIL_STATE)
        try:
            # (the size test first: it turns small stacks away without a call)
            if a.ndim > 2 and a.size * CHUNK_N[1] >= CHUNK_WORK and _worth_chunks(a):
                out = _chunked(ufunc, (a,), {"signature": signature})
                if out is not None:
                    return out
            return ufunc(a, signature=signature)
        except _GufuncFailed:
            pass
        finally:
            _reset_state(token)
    return gufunc(ufunc, kind, func, a, signature=signature)


# -- stacks of mid-size matrices ------------------------------------------------------------
# NumPy's gufuncs loop over a stack serially, and one 16x16 or 64x64 matrix is too small for
# BLAS threads to pay (worse: with BLAS threads nested in chunk threads, 2,000 64x64 eigh took
# 1.9x NumPy's time here). So from CHUNK_WORK (n**3 summed over the stack) on, the stack is
# cut into chunks that the kernels' thread pool runs through the same gufunc, with BLAS pinned
# to one thread meanwhile (threadpoolctl): 1.6-2.2x faster than NumPy on 2 CPUs for inv, eigh
# and svd at 16x16 and 64x64 (benchmarks/__main__.py rows). Up to n = 64 OpenBLAS gives
# bitwise the same result with one or two threads, so the answer does not depend on the path.
CHUNK_N = (8, 64)
CHUNK_WORK = 4_000_000


def _worth_chunks(a):
    n = a.shape[-1]
    if not CHUNK_N[0] <= n <= CHUNK_N[1] or a.shape[-2] != n:
        return False
    return a.size * n >= CHUNK_WORK


class _OneBlasThread:
    """Pin BLAS to one thread while any caller is inside (reference-counted, so concurrent
    callers do not restore each other's limits too early); None without threadpoolctl."""

    def __init__(self):
        self._lock = threading.Lock()
        self._users = 0
        self._limiter = None
        self._controller = None

    @contextlib.contextmanager
    def __call__(self):
        with self._lock:
            if self._users == 0:
                if self._controller is None:
                    from threadpoolctl import ThreadpoolController
                    self._controller = ThreadpoolController()
                self._limiter = self._controller.limit(limits=1, user_api="blas")
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    self._limiter.restore_original_limits()
                    self._limiter = None


_one_blas_thread = _OneBlasThread()
if hasattr(os, "register_at_fork"):  # a child must not inherit a lock held by a parent thread
    os.register_at_fork(after_in_child=lambda: _one_blas_thread.__init__())


def _chunked(ufunc, args, kwargs):
    """The gufunc over the stack in parallel chunks, or None where that does not apply (one
    thread allowed now, batch shapes that differ or broadcast). Raises _GufuncFailed when
    any element failed (the caller then takes the serial path)."""
    from ..kernels import _parallel  # no numba: the pool is plain Python threads

    if _parallel.num_threads() < 2:
        return None
    batch = args[0].shape[:-2]
    if any(x.ndim != len(batch) + 2 or x.shape[:-2] != batch for x in args):
        return None
    flat = [x.reshape((-1,) + x.shape[-2:]) for x in args]
    count = flat[0].shape[0]
    first = quiet(ufunc, *[x[:1] for x in flat], **kwargs)  # the outputs' shapes and dtypes
    first = first if isinstance(first, tuple) else (first,)
    outs = [np.empty((count,) + f.shape[1:], dtype=f.dtype) for f in first]
    nin = len(flat)

    def kernel(*arrays):
        token = _set_state(_FAIL_STATE)  # each pool thread has its own error state
        try:
            ufunc(*arrays[:nin], out=tuple(arrays[nin:]), **kwargs)
        finally:
            _reset_state(token)

    with _one_blas_thread():
        _parallel.run(kernel, (*flat, *outs), count, 2, grain=1)
    outs = [o.reshape(batch + o.shape[1:]) for o in outs]
    return tuple(outs) if len(outs) > 1 else outs[0]


def gufunc(ufunc, kind, func, *args, core_ndim=2, **kwargs):
    """Call a ``numpy.linalg._umath_linalg`` gufunc; raise LinAlgError naming the element.

    ``kind`` is the validate.MESSAGES key of the failure (``"singular"``, ``"not_pd"`` ...),
    ``core_ndim`` the number of core dimensions of the first argument. A failed call runs
    again quietly to find the NaN-filled element to name (for ``qr_r_raw``, which writes into
    its input, that second run sees the overwritten input: the error is still raised).
    """
    if _FAIL_STATE is None:
        out, failed = _flagging_fallback(ufunc, args, kwargs)
        if not failed:
            return out
    else:
        token = _set_state(_FAIL_STATE)
        try:
            return ufunc(*args, **kwargs)
        except _GufuncFailed:
            pass
        finally:
            _reset_state(token)
        # the failure path only: run again, quietly, to see which elements were NaN-filled
        out = quiet(ufunc, *args, **kwargs)
    first = out[0] if isinstance(out, tuple) else out
    batch_shape = np.broadcast_shapes(*(np.shape(a)[:-core_ndim] for a in args[:1]))
    raise batch_error(kind, func, batch_shape, _first_failed(first, len(batch_shape)))
