"""The ``lapack`` backend's plumbing: NumPy's own LAPACK gufuncs, bound at import.

NumPy's public ``numpy.linalg`` functions are captured here before anything (the conformance
runner) can replace them, so the lapack backend never recurses into linalgx. Errors from the
gufuncs are caught per call and re-raised with the failing batch element, which NumPy omits.
"""
import numpy as np
import numpy.linalg as _npl
from numpy.linalg import _umath_linalg as umath_linalg  # noqa: F401  (re-exported)

from .validate import batch_error

# numpy.linalg's public functions as they were when linalgx was imported.
ORIGINAL = {name: getattr(_npl, name) for name in _npl.__all__}


def _first_failed(out, batch_ndim):
    """Flat index of the first batch element NumPy's gufunc filled with NaN, or None."""
    if out.ndim == batch_ndim or out.size == 0:
        bad = np.isnan(out).reshape(-1)
    else:
        core = out.reshape(out.shape[:batch_ndim] + (-1,))
        bad = np.isnan(core).all(axis=-1).reshape(-1)
    idx = np.flatnonzero(bad)
    return int(idx[0]) if idx.size else None


def gufunc(ufunc, kind, func, *args, core_ndim=2, **kwargs):
    """Call a ``numpy.linalg._umath_linalg`` gufunc; raise LinAlgError naming the element.

    ``kind`` is the validate.MESSAGES key of the failure (``"singular"``, ``"not_pd"`` ...),
    ``core_ndim`` the number of core dimensions of the first argument.
    """
    failed = []

    def flag(*_):
        failed.append(True)

    with np.errstate(call=flag, invalid="call", over="ignore", divide="ignore",
                     under="ignore"):
        out = ufunc(*args, **kwargs)
    if failed:
        first = out[0] if isinstance(out, tuple) else out
        batch_shape = np.broadcast_shapes(*(np.shape(a)[:-core_ndim] for a in args[:1]))
        raise batch_error(kind, func, batch_shape, _first_failed(first, len(batch_shape)))
    return out
