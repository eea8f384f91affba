"""cholesky and cholesky_ex."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.lapack import attempt, gufunc1, quiet, surely_finite, umath_linalg
from .._core.op import Op
from .._core.results import CholeskyExResult
from .._core.xputil import unbox_all
from ._inv import failed_elements
from ._triangular import solve_triangular

__all__ = ["cholesky", "cholesky_ex"]

_cholesky = Op("cholesky")
_cholesky.def_route(routing.square_router("cholesky"))
_cholesky_ex = Op("cholesky_ex", nout=2)
_cholesky_ex.def_route(routing.square_router("cholesky"))


def _ufunc(upper):
    return umath_linalg.cholesky_up if upper else umath_linalg.cholesky_lo


def _diagonal_has_nan(out):
    """A cheap filter for `_nan_diagonal_info`: False where no factor has a NaN on its
    diagonal (the common case); True where one may (then `_nan_diagonal_info` decides).

    Only the last diagonal entry of each factor is read: a NaN reaching the diagonal at
    row i enters every later row through the recurrence (L[k, i] = (...) / L[i, i], then
    L[k, k]^2 = a[k, k] - sum_j |L[k, j]|^2), and with it L[n-1, n-1], in the unblocked and
    the blocked (trsm + syrk) algorithms alike.
    """
    n = out.shape[-1]
    if n == 0:
        return False
    if out.ndim == 2:
        last = out[-1, -1]
        return last != last
    last = out[..., -1, -1]
    if out.size <= 64 * n * n:
        # diagonal entries are >= 0, +inf or NaN: the sum is NaN iff one is (a Python sum of
        # a few entries is cheaper than any ufunc reduction)
        s = sum((last if last.ndim == 1 else last.ravel()).tolist())
        return s != s
    return not surely_finite(last)


def _nan_diagonal_info(out):
    """1 + index of the first NaN on each factor's diagonal (0 if none).

    OpenBLAS's potrf does not test for NaN (reference LAPACK does): a NaN read from the
    input reaches the factor's diagonal, and counts as a non-positive leading minor.
    """
    bad = np.isnan(np.diagonal(out, axis1=-2, axis2=-1))
    if bad.shape[-1] == 0:
        return np.zeros(bad.shape[:-1], dtype=np.int32)
    return np.where(bad.any(axis=-1), bad.argmax(axis=-1) + 1, 0).astype(np.int32)


def _cholesky_potrf(a, upper):
    """One large matrix through SciPy's ?potrf (its OpenBLAS build measured faster here)."""
    from scipy.linalg import get_lapack_funcs

    # LAPACK wants Fortran order: factor a.T (a free view of a C-ordered a) in the other
    # triangle, and c.T is the factor asked for. For real a, a.T = a; for Hermitian a,
    # a.T = conj(a) = U^H U gives a = U^T conj(U), so L = U^T again. Same triangle of a read.
    potrf = get_lapack_funcs("potrf", (a,))
    c, info = potrf(a.T, lower=upper, clean=1, overwrite_a=0)
    c = c.T
    if info > 0 or (info == 0 and _diagonal_has_nan(c)):
        v.raise_on_info(info if info > 0 else _nan_diagonal_info(c), "not_pd", "cholesky", ())
    return c


@_cholesky.impl("lapack")
def _cholesky_lapack(a, upper):
    if a.ndim == 2 and routing.large_driver("cholesky", a) == "scipy_potrf":
        return _cholesky_potrf(a, upper)
    out = gufunc1(umath_linalg.cholesky_up if upper else umath_linalg.cholesky_lo,
                  "D->D" if a.dtype.kind == "c" else "d->d", a, "not_pd", "cholesky")
    if _diagonal_has_nan(out):
        v.raise_on_info(_nan_diagonal_info(out), "not_pd", "cholesky", a.shape[:-2])
    return out


@_cholesky.impl("numba")
def _cholesky_numba(a, upper):
    api = routing.kernels_api()
    out, info = api.cholesky(v.as_compute(a), upper=upper)
    routing.mark_loaded("cholesky")
    if np.count_nonzero(info):
        v.raise_on_info(info, "not_pd", "cholesky", a.shape[:-2])
    return out


@_cholesky_ex.impl("lapack")
def _cholesky_ex_lapack(a, upper):
    sig = "D->D" if a.dtype.kind == "c" else "d->d"
    batch = a.shape[:-2]
    out = attempt(_ufunc(upper), sig, a)
    if out is not None and not _diagonal_has_nan(out):  # no element failed
        return out, np.zeros(batch, dtype=np.int32)
    if out is None:
        out = quiet(_ufunc(upper), a, signature=sig)
    from scipy.linalg import lapack
    a = v.as_compute(a)
    info = _nan_diagonal_info(out)
    failed = failed_elements(out, batch)
    if failed.any():  # NumPy NaN-fills a failed element: ask potrf for the minor's order
        potrf = lapack.get_lapack_funcs("potrf", dtype=a.dtype)
        for idx in np.ndindex(failed.shape):  # () for a single matrix
            if failed[idx]:
                code = potrf(a[idx], lower=int(not upper))[1]
                if code > 0:
                    info[idx] = code
    out[info > 0] = complex(np.nan, np.nan) if out.dtype.kind == "c" else np.nan
    return out, info


@_cholesky_ex.impl("numba")
def _cholesky_ex_numba(a, upper):
    api = routing.kernels_api()
    out, info = api.cholesky(v.as_compute(a), upper=upper)
    routing.mark_loaded("cholesky")
    return out, info


def _mh(xp, x):
    return xp.conj(xp.matrix_transpose(x))


def _diag_embed(xp, d):
    return xp.expand_dims(d, -1) * xp.eye(d.shape[-1], like=d)


def _hermitian_from_triangle(xp, x, upper):
    """The Hermitian matrix LAPACK sees: one strict triangle, its mirror, the real diagonal."""
    s = xp.triu(x, 1) if upper else xp.tril(x, -1)
    d = xp.real(xp.diagonal(x, axis1=-2, axis2=-1))
    return s + _mh(xp, s) + _diag_embed(xp, d)


def _triangle_adjoint(xp, g, upper):
    """Adjoint of ``_hermitian_from_triangle`` under Re<a, b>: the gradient lands only on the
    entries that are read (one triangle and the real part of the diagonal)."""
    tri = (lambda x: xp.triu(x, 1)) if upper else (lambda x: xp.tril(x, -1))
    d = xp.real(xp.diagonal(g, axis1=-2, axis2=-1))
    return tri(g) + tri(_mh(xp, g)) + _diag_embed(xp, d)


def _phi(xp, x):
    """Lower triangle with the diagonal halved (Murray 2016's Phi)."""
    return xp.tril(x, -1) + 0.5 * _diag_embed(xp, xp.diagonal(x, axis1=-2, axis2=-1))


# Murray (2016), "Differentiation of the Cholesky decomposition", and Seeger et al. (2017),
# "Auto-differentiating linear algebra": with A = L L^H,
#   dL = L Phi(L^{-1} dA L^{-H}),
#   A_bar = L^{-H} S L^{-1},  S = (X + tril(X, -1)^H) / 2,  X = tril(L^H L_bar)
# (PyTorch's cholesky_backward). NumPy reads only one triangle of `a` (and the real part of
# the diagonal), so dA is that triangle mirrored and A_bar is projected back onto it.
@_cholesky.def_jvp
def _cholesky_jvp(xp, tangents, out, a, upper):
    (t,) = tangents
    low = _mh(xp, out) if upper else out
    da = _hermitian_from_triangle(xp, t, upper)
    y = solve_triangular(low, da, upper=False)
    y = solve_triangular(_mh(xp, low), y, upper=True, left=False)
    dl = low @ _phi(xp, y)
    return _mh(xp, dl) if upper else dl


@_cholesky.def_vjp
def _cholesky_vjp(xp, g, out, a, upper):
    low = _mh(xp, out) if upper else out
    gl = _mh(xp, g) if upper else g
    x = xp.tril(_mh(xp, low) @ gl)
    s = 0.5 * (x + _mh(xp, xp.tril(x, -1)))
    s = solve_triangular(_mh(xp, low), s, upper=True)
    s = solve_triangular(low, s, upper=False, left=False)
    return (_triangle_adjoint(xp, s, upper),)


@_cholesky_ex.def_jvp
def _cholesky_ex_jvp(xp, tangents, out, a, upper):
    return _cholesky_jvp(xp, tangents, out[0], a, upper), None


@_cholesky_ex.def_vjp
def _cholesky_ex_vjp(xp, g, out, a, upper):
    if g[0] is None:  # only the integer status has a cotangent: it carries no derivative
        return (xp.zeros_like(a),)
    return _cholesky_vjp(xp, g[0], out[0], a, upper)


_SIGS = ("d->d", "D->D")


def cholesky(a, /, *, upper=False):
    """
    Cholesky decomposition.

    Return the lower or upper Cholesky decomposition, ``L * L.H`` or
    ``U.H * U``, of the square matrix ``a``, where ``L`` is lower-triangular,
    ``U`` is upper-triangular, and ``.H`` is the conjugate transpose operator
    (which is the ordinary transpose if ``a`` is real-valued). ``a`` must be
    Hermitian (symmetric if real-valued) and positive-definite. No checking is
    performed to verify whether ``a`` is Hermitian or not. In addition, only
    the lower or upper-triangular and diagonal elements of ``a`` are used.
    Only ``L`` or ``U`` is actually returned.

    Parameters
    ----------
    a : (..., M, M) array_like
        Hermitian (symmetric if all elements are real), positive-definite
        input matrix.
    upper : bool
        If ``True``, the result must be the upper-triangular Cholesky factor.
        If ``False``, the result must be the lower-triangular Cholesky factor.
        Default: ``False``.

    Returns
    -------
    L : (..., M, M) array_like
        Lower or upper-triangular Cholesky factor of `a`. Returns a matrix
        object if `a` is a matrix object.

    Raises
    ------
    LinAlgError
       If the decomposition fails, for example, if `a` is not
       positive-definite. Unlike NumPy on OpenBLAS, a NaN in the triangle that
       is read also raises. For a stack, the message names the failing batch
       element and the order of the failing leading minor.

    See Also
    --------
    cholesky_ex : the same, returning a per-element status instead of raising.
    numpy.linalg.cholesky

    Notes
    -----
    Autodiff: differentiable in the triangle of `a` that is read (Murray 2016).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> A = np.array([[1, -2j], [2j, 5]])
    >>> LA.cholesky(A)
    array([[1.+0.j, 0.+0.j],
           [0.+2.j, 1.+0.j]])
    >>> LA.cholesky(A, upper=True)
    array([[1.+0.j, 0.-2.j],
           [0.+0.j, 1.+0.j]])
    """
    a, wrap, t, result_t = v.prepare_square(a, _ufunc(upper), _SIGS)
    r = _cholesky.call1(a, upper=bool(upper))
    if result_t is not t:
        r = r.astype(result_t, copy=False)
    return wrap(r)


def cholesky_ex(a, *, upper=False, check_errors=False):
    """
    Cholesky decomposition with a per-element status instead of an exception.

    Parameters
    ----------
    a : (..., M, M) array_like
        Hermitian positive-definite matrices; only one triangle is read.
    upper : bool, optional
        Return the upper factor ``U`` with ``a = U^H U`` instead of ``L``.
    check_errors : bool, optional
        Raise `cholesky`'s exception for the first element that is not positive
        definite instead (torch's keyword). Default False.

    Returns
    -------
    A namedtuple ``CholeskyExResult`` with the attributes:

    L : (..., M, M) ndarray
        The factors; an element that is not positive definite holds NaN.
    info : (...) ndarray of int32
        0 where the factorization succeeded, ``i > 0`` where the leading minor
        of order ``i`` is not positive (a NaN counts as not positive), as
        torch.linalg.cholesky_ex.

    Raises
    ------
    LinAlgError
        For a non-square or lower-than-2-D input; for a matrix that is not positive
        definite only with ``check_errors=True``.

    See Also
    --------
    cholesky

    Notes
    -----
    Autodiff: as `cholesky` for `L`; `info` is not differentiable.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.stack([np.eye(2), -np.eye(2)])
    >>> L, info = LA.cholesky_ex(a)
    >>> info
    array([0, 1], dtype=int32)
    """
    v.check_bool("cholesky_ex", upper=upper, check_errors=check_errors)
    a, wrap, t, result_t = v.prepare_square(a, _ufunc(upper), _SIGS)
    r, info = _cholesky_ex.call1(a, upper=bool(upper))
    info = unbox_all(info)
    if check_errors:
        v.raise_on_info(info, "not_pd", "cholesky_ex", info.shape)
    if result_t is not t:
        r = r.astype(result_t, copy=False)
    return CholeskyExResult(wrap(r), info)
