"""det and slogdet."""

import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.box import Box
from .._core.errors import warn
from .._core.lapack import umath_linalg
from .._core.op import Op
from .._core.results import SlogdetResult
from ._inv import inv

__all__ = ["det", "slogdet"]

_det = Op("det")
_det.def_route(routing.square_router("det"))
_slogdet = Op("slogdet", nout=2)
_slogdet.def_route(routing.square_router("slogdet"))


_DET_SIGS = ("d->d", "D->D")
_SLOGDET_SIGS = ("d->dd", "D->Dd")


def _det_getrf(a):
    """One large matrix through SciPy's ?getrf, then NumPy's formula: the sign (phase) of
    the pivots times exp(sum log|u_ii|); an exactly zero pivot gives 0. Returns ``(det,
    finite)``, ``finite`` telling whether every pivot was finite."""
    from scipy.linalg import get_lapack_funcs

    # det(a) = det(a.T), and a.T of a C-ordered a is already in LAPACK's Fortran order
    lu, piv, info = get_lapack_funcs("getrf", (a,))(a.T, overwrite_a=0)
    if info > 0:
        return a.dtype.type(0), True
    d = np.diagonal(lu)
    swaps = np.count_nonzero(piv != np.arange(piv.size))
    with np.errstate(all="ignore"):
        absd = np.abs(d)
        phase = (d / absd).prod() if a.dtype.kind == "c" else np.sign(d).prod()
        det = (-phase if swaps % 2 else phase) * np.exp(np.log(absd).sum())
    return a.dtype.type(det), bool(np.isfinite(absd).all())


@_det.impl("lapack")
def _det_lapack(a):
    if a.ndim == 2 and routing.large_driver("det", a) == "scipy_getrf":
        d, finite = _det_getrf(a)
        # NumPy's gufunc: NaN from LAPACK's arithmetic on NaN input sets "invalid"; a
        # product that overflows "overflow"; an inf pivot (inf input) passes silently
        if np.isnan(d):
            _report_fp("invalid")
        elif np.isinf(d) and finite:
            _report_fp("overflow")
        return d
    # No errstate: NumPy's det warns "invalid value encountered in det" for NaN input.
    return umath_linalg.det(a, signature="D->D" if a.dtype.kind == "c" else "d->d")


_FPE_FLAGS = {"overflow": 2, "invalid": 8}   # NumPy's FPE_OVERFLOW, FPE_INVALID


def _report_fp(kind):
    """Report a NaN ("invalid") or overflowed det as NumPy's det gufunc does, under the
    caller's ``np.errstate`` (the getrf route computes its det outside any ufunc)."""
    mode = np.geterr()["over" if kind == "overflow" else kind]
    msg = f"{kind} value encountered in det" if kind == "invalid" else f"{kind} encountered in det"
    if mode == "warn":
        warn(msg, RuntimeWarning)
    elif mode == "raise":
        raise FloatingPointError(msg)
    elif mode == "call":
        np.geterrcall()(kind, _FPE_FLAGS[kind])
    elif mode == "print":
        print(f"Warning: {msg}")
    elif mode == "log":
        np.geterrcall().write(f"Warning: {msg}\n")


@_det.impl("numba")
def _det_numba(a):
    api = routing.kernels_api()
    out = api.det(v.as_compute(a))
    routing.mark_loaded("det")
    return out[()] if out.ndim == 0 else out  # a NumPy scalar for one matrix, as LAPACK's


@_slogdet.impl("lapack")
def _slogdet_lapack(a):
    return umath_linalg.slogdet(a, signature="D->Dd" if a.dtype.kind == "c" else "d->dd")


@_slogdet.impl("numba")
def _slogdet_numba(a):
    api = routing.kernels_api()
    sign, logabsdet = api.slogdet(v.as_compute(a))
    routing.mark_loaded("slogdet")
    if sign.ndim == 0:  # NumPy scalars for one matrix, as LAPACK's
        return sign[()], logabsdet[()]
    return sign, logabsdet


def _cast(r, dtype):
    """``r.astype(dtype, copy=False)``; a NumPy scalar is converted by its type, the same
    C cast (and overflow warning) at a fraction of ``astype``'s cost on a scalar."""
    if type(r) is np.ndarray or isinstance(r, Box):
        return r.astype(dtype, copy=False)
    return dtype.type(r)


def _adjugate(xp, a):
    """adj(A), exact also for singular A, from the SVD ``A = U diag(s) Vh``.

    ``adj(A) = adj(Vh) adj(diag(s)) adj(U) = det(U) det(Vh) Vh^H diag(s_hat) U^H`` with
    ``s_hat_i = prod_{j != i} s_j`` (a product without division), so a rank-(n-1) matrix
    gets its nonzero adjugate as gradient and rank <= n-2 gets zero (PyTorch's
    ``linalg_det_backward`` uses the same SVD formulation for singular inputs).
    """
    from .. import linalg as LA
    u, s, vh = LA.svd(a)
    n = s.shape[-1]
    eye = xp.eye(n, dtype=bool, like=s)
    s_hat = xp.prod(xp.where(eye, 1.0, xp.expand_dims(s, -2)), axis=-1)
    alpha = det(u) * det(vh)
    vh_h = xp.conj(xp.matrix_transpose(vh))
    u_h = xp.conj(xp.matrix_transpose(u))
    return xp.expand_dims(alpha, (-2, -1)) * ((vh_h * xp.expand_dims(s_hat, -2)) @ u_h)


# Giles (2008), "An extended collection of matrix derivative results for forward and reverse
# mode AD", section 2.2.4: d det(A) = tr(adj(A) dA); the VJP is g * adj(A)^H (PyTorch's
# complex convention).
@_det.def_jvp
def _det_jvp(xp, tangents, out, a):
    (t,) = tangents
    adj = _adjugate(xp, a)
    return xp.sum(xp.matrix_transpose(adj) * t, axis=(-2, -1))


@_det.def_vjp
def _det_vjp(xp, g, out, a):
    adj_h = xp.conj(xp.matrix_transpose(_adjugate(xp, a)))
    return (xp.expand_dims(g, (-2, -1)) * adj_h,)


# With tau = tr(A^{-1} dA) = d log det(A) (Giles 2008): d logabsdet = Re(tau) and
# d sign = sign * i Im(tau) (zero for real A). Singular A has logabsdet = -inf and no
# derivative; the rules then propagate inf/NaN like PyTorch's slogdet_backward.
@_slogdet.def_jvp
def _slogdet_jvp(xp, tangents, out, a):
    (t,) = tangents
    sign = out[0]
    tau = xp.sum(xp.matrix_transpose(inv(a)) * t, axis=(-2, -1))
    if a.dtype.kind != "c":
        return None, tau
    return sign * (1j * xp.imag(tau)), xp.real(tau)


@_slogdet.def_vjp
def _slogdet_vjp(xp, g, out, a):
    g_sign, g_logabs = g
    sign = out[0]
    # Re<g_l, Re tau> + Re<g_s, i sign Im tau> = Re(conj(c) tau), c = g_l + i Im(g_s conj(sign))
    c = None
    if g_logabs is not None:
        c = g_logabs
    if g_sign is not None and a.dtype.kind == "c":
        c_sign = 1j * xp.imag(g_sign * xp.conj(sign))
        c = c_sign if c is None else c + c_sign
    if c is None:
        return (xp.zeros_like(a),)
    inv_h = xp.conj(xp.matrix_transpose(inv(a)))
    return (xp.expand_dims(c, (-2, -1)) * inv_h,)


def slogdet(a):
    """
    Compute the sign and (natural) logarithm of the determinant of an array.

    If an array has a very small or very large determinant, then a call to
    `det` may overflow or underflow. This routine is more robust against such
    issues, because it computes the logarithm of the determinant rather than
    the determinant itself.

    Parameters
    ----------
    a : (..., M, M) array_like
        Input array, has to be a square 2-D array.

    Returns
    -------
    A namedtuple with the following attributes:

    sign : (...) array_like
        A number representing the sign of the determinant. For a real matrix,
        this is 1, 0, or -1. For a complex matrix, this is a complex number
        with absolute value 1 (i.e., it is on the unit circle), or else 0.
    logabsdet : (...) array_like
        The natural log of the absolute value of the determinant.

    If the determinant is zero, then `sign` will be 0 and `logabsdet`
    will be -inf. In all cases, the determinant is equal to
    ``sign * np.exp(logabsdet)``.

    See Also
    --------
    det
    numpy.linalg.slogdet

    Notes
    -----
    The determinant is computed via LU factorization (LAPACK ``getrf`` or
    linalgx's numba kernels for stacks of small matrices).

    Autodiff: differentiable in `a` where the determinant is nonzero;
    ``d logabsdet = Re tr(inv(A) dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> sign, logabsdet = LA.slogdet(np.array([[1., 2.], [3., 4.]]))
    >>> float(sign), round(float(logabsdet), 6)
    (-1.0, 0.693147)
    >>> sign, logabsdet = LA.slogdet(np.eye(500) * 0.1)
    >>> float(sign), round(float(logabsdet), 4)
    (1.0, -1151.2925)
    """
    a, _, t, result_t = v.prepare_square(a, umath_linalg.slogdet, _SLOGDET_SIGS)
    sign, logdet = _slogdet.call1(a)
    if result_t is not t:
        sign = _cast(sign, result_t)
        logdet = _cast(logdet, v.real_dtype(result_t))
    return SlogdetResult(sign, logdet)


def det(a):
    """
    Compute the determinant of an array.

    Parameters
    ----------
    a : (..., M, M) array_like
        Input array to compute determinants for.

    Returns
    -------
    det : (...) array_like
        Determinant of `a`: a NumPy scalar for a single matrix.

    See Also
    --------
    slogdet : Another way to represent the determinant, more suitable
      for large matrices where underflow/overflow may occur.
    numpy.linalg.det

    Notes
    -----
    The determinant is computed via LU factorization (LAPACK ``getrf`` or
    linalgx's numba kernels for stacks of small matrices). ``det`` of a
    ``0 x 0`` matrix is 1.

    Autodiff: differentiable in `a` everywhere, singular matrices included:
    the gradient is the conjugate adjugate ``g * adj(A)^H``, computed through the SVD.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1, 2], [3, 4]])
    >>> round(float(LA.det(a)), 6)
    -2.0
    >>> a = np.array([[[1, 2], [3, 4]], [[1, 2], [2, 1]], [[1, 3], [3, 1]]])
    >>> LA.det(a)
    array([-2., -3., -8.])
    """
    a, _, t, result_t = v.prepare_square(a, umath_linalg.det, _DET_SIGS)
    r = _det.call1(a)
    if result_t is not t:
        r = _cast(r, result_t)
    return r
