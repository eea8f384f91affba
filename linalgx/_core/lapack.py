"""The ``lapack`` backend's plumbing: NumPy's own LAPACK gufuncs, bound at import.

NumPy's public ``numpy.linalg`` functions are captured here before anything (the conformance
runner) can replace them, so the lapack backend never recurses into linalgx. Errors from the
gufuncs are caught per call and re-raised with the failing batch element, which NumPy omits.
"""
import cmath

import numpy as np
import numpy.linalg as _npl
from numpy.linalg import _umath_linalg as umath_linalg  # noqa: F401  (re-exported)

from .validate import batch_error

_add_reduce = np.add.reduce

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


def surely_finite(a):
    """True when every entry of ``a`` is finite, told by one sum (no NaN or inf in it).

    False means only "maybe not" (a non-finite entry, or a sum that overflowed): then run the
    precise check. This keeps linalgx's better-than-NumPy finiteness checks to one cheap
    reduction on the success path.
    """
    if a.size <= 64:
        # Python's own float sum is cheaper than a ufunc reduction on a few elements, and
        # never warns (inf - inf and overflow are silent)
        s = sum((a if a.ndim == 1 else a.ravel()).tolist())
    else:
        token = _set_state(_QUIET_STATE) if _QUIET_STATE is not None else None
        try:
            s = _add_reduce(a, axis=None)
        finally:
            if token is not None:
                _reset_state(token)
    return cmath.isfinite(s)


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


def attempt(ufunc, *args, **kwargs):
    """The gufunc's result, or None where it flagged a failed element (nothing is raised).

    For the ``*_ex`` functions: the success path costs one call; on failure, run the gufunc
    again with :func:`quiet` to get its NaN-filled output.
    """
    if _FAIL_STATE is None:
        out, failed = _flagging_fallback(ufunc, args, kwargs)
        return None if failed else out
    token = _set_state(_FAIL_STATE)
    try:
        return ufunc(*args, **kwargs)
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
            return ufunc(a, signature=signature)
        except _GufuncFailed:
            pass
        finally:
            _reset_state(token)
    return gufunc(ufunc, kind, func, a, signature=signature)


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
