"""lstsq: least-squares solution of a linear system."""
import numpy as np

from .._core import validate as v
from .._core.box import Box
from .._core.lapack import check_workspace, gufunc, umath_linalg
from .._core.op import Op
from .._core.xputil import ndim_of
from ._eig import refuse_second_order
from ._svd import _check_finite, _mH, _svd

__all__ = ["lstsq"]

# (x, residuals, rank, singular values); b is always 2-D here, rank carries no derivative.
_lstsq = Op("lstsq", nout=4)


@_lstsq.impl("lapack")
def _lstsq_lapack(a, b, rcond):
    m, n_rhs = b.shape[-2:]
    sig = "DDd->Ddid" if a.dtype.kind == "c" or b.dtype.kind == "c" else "ddd->ddid"
    if n_rhs == 0:
        # LAPACK can't handle n_rhs = 0, so allocate one more column (NumPy's workaround)
        b = np.zeros(b.shape[:-2] + (m, n_rhs + 1), dtype=b.dtype)
    check_workspace(a, "lstsq")
    x, resids, rank, s = gufunc(umath_linalg.lstsq, "lstsq_conv", "lstsq", a, b, rcond,
                                signature=sig)
    if m == 0:
        x[...] = 0
    if n_rhs == 0:
        x = x[..., :n_rhs]
        resids = resids[..., :n_rhs]
    return x, resids, rank, s


# -- autodiff rules ---------------------------------------------------------------------------
# x = A^+ b with A^+ the pseudo-inverse truncated at rcond (gelsd's rank decision). Golub &
# Pereyra (1973) for d(A^+), as collected by Giles (2008), with r = b - A x:
#   dx = -A^+ dA x + A^+ A^+^H dA^H r + (I - A^+ A) dA^H A^+^H x + A^+ db.
# Residuals (m > n, full rank): d|r_j|^2 = 2 Re r_j^H (db - dA x)_j, as A^H r = 0.
# Valid where the rank does not change.
def _pinv_of(a, rcond):
    from ._pinv import pinv
    return pinv(a, rcond=rcond)


def _sv_tangent(xp, da, a):
    u, _, vh = _svd(a, full_matrices=False)
    ds = xp.sum(xp.conj(u) * (da @ _mH(xp, vh)), axis=-2)
    return xp.real(ds) if v.is_complex_dtype(u.dtype) else ds


@_lstsq.def_jvp
def _lstsq_jvp(xp, tangents, out, a, b, rcond):
    da, db = tangents
    x = out[0]
    p = _pinv_of(a, rcond)
    r = b - a @ x
    dx = 0
    dr = 0
    ds = None
    if da is not None:
        dah = _mH(xp, da)
        dx = -(p @ (da @ x)) + p @ (_mH(xp, p) @ (dah @ r))
        w = dah @ (_mH(xp, p) @ x)
        dx = dx + w - p @ (a @ w)
        dr = -(da @ x)
        ds = _sv_tangent(xp, da, a)
    if db is not None:
        dx = dx + p @ db
        dr = dr + db
    dres = 2 * xp.real(xp.sum(xp.conj(r) * dr, axis=-2))
    return dx, dres, None, ds


@_lstsq.def_vjp
def _lstsq_vjp(xp, g, out, a, b, rcond):
    gx, gres, _, gs = g
    x = out[0]
    p = _pinv_of(a, rcond)
    ph = _mH(xp, p)
    r = b - a @ x
    ga = gb = 0
    if gx is not None:
        gxh = _mH(xp, gx)
        xh = _mH(xp, x)
        ga = -(ph @ (gx @ xh)) + (r @ (gxh @ p)) @ ph
        ga = ga + (ph @ x) @ (gxh - (gxh @ p) @ a)
        gb = ph @ gx
    if gres is not None:
        w = 2 * r * xp.expand_dims(gres, -2)
        gb = gb + w
        ga = ga - w @ _mH(xp, x)
    if gs is not None:
        refuse_second_order(out[3], "lstsq", gs)
        u, _, vh = _svd(a, full_matrices=False)
        ga = ga + (u * xp.expand_dims(gs, -2)) @ vh
    batch = next(gi.shape[:gi.ndim - ndim_of(o)] for gi, o in zip(g, out) if gi is not None)

    def zeros(x):
        return xp.zeros(batch + x.shape, dtype=x.dtype, like=x)

    return (zeros(a) if isinstance(ga, int) else ga, zeros(b) if isinstance(gb, int) else gb)


def lstsq(a, b, rcond=None):
    r"""
    Return the least-squares solution to a linear matrix equation.

    Computes the vector `x` that approximately solves ``a @ x = b``, minimizing the
    2-norm ``|b - a @ x|``. If `a` is square and of full rank, `x` is (up to round-off)
    the exact solution. Several right-hand sides may be given as the columns of `b`.

    Parameters
    ----------
    a : (M, N) array_like
        "Coefficient" matrix.
    b : {(M,), (M, K)} array_like
        Ordinate or "dependent variable" values.
    rcond : float, optional
        Cut-off ratio for small singular values of `a`: singular values less than or
        equal to ``rcond * largest_singular_value`` are treated as zero. Default: machine
        precision (of float64) times ``max(M, N)``.

    Returns
    -------
    x : {(N,), (N, K)} ndarray
        Least-squares solution, in the shape of `b`.
    residuals : {(1,), (K,), (0,)} ndarray
        Squared Euclidean 2-norm of each column of ``b - a @ x``. Empty unless
        ``M > N`` and `a` has full rank.
    rank : numpy.int32
        Rank of `a`.
    s : (min(M, N),) ndarray
        Singular values of `a`.

    Raises
    ------
    LinAlgError
        If `a` or `b` is not two-dimensional (`b` may be 1-D), if their first dimensions
        differ (``Incompatible dimensions``), or if the computation does not converge.
        NaN or inf in `a` raise ``SVD did not converge in Linear Least Squares`` without
        LAPACK printing to stdout, as it does for NumPy.

    See Also
    --------
    numpy.linalg.lstsq
    scipy.linalg.lstsq

    Notes
    -----
    A plain tuple is returned, as by NumPy. If `b` is an ``np.matrix``, `x` and
    `residuals` are matrices.

    Autodiff: `x`, `residuals` and `s` are differentiable in `a` and `b` (Golub and
    Pereyra's derivative of the pseudo-inverse) where the rank does not change.

    Examples
    --------
    Fit a line ``y = m x + c`` through four points:

    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> x = np.array([0., 1., 2., 3.])
    >>> y = np.array([-1., 0.2, 0.9, 2.1])
    >>> A = np.vstack([x, np.ones(len(x))]).T
    >>> (m, c), residuals, rank, s = LA.lstsq(A, y)
    >>> print(f"{m:.2f} {c:.2f}", rank)
    1.00 -0.95 2
    """
    a, _ = v.makearray(a)
    b, wrap = v.makearray(b)
    is_1d = b.ndim == 1
    if is_1d:
        b = b[:, np.newaxis]
    v.assert_2d(a, b)
    m, n = a.shape[-2:]
    m2, n_rhs = b.shape[-2:]
    if m != m2:
        raise v.LinAlgError(v.MESSAGES["lstsq_dims"])
    hit = v.CASTABLE_TYPES.get((a.dtype, b.dtype))  # the common case without a call
    t, result_t = hit if hit is not None else v.pair_types(
        a, b, umath_linalg.lstsq, ("ddd->ddid", "DDd->Ddid"), rcond)
    result_real_t = v.real_dtype(result_t)
    if rcond is None:
        rcond = v.eps(t) * max(n, m)
    _check_finite(a, "lstsq_conv", "lstsq")
    if isinstance(a, Box) or isinstance(b, Box):
        a = a.astype(t) if a.dtype != t else a
        b = b.astype(t) if b.dtype != t else b
    x, resids, rank, s = _lstsq.call(a, b, rcond=rcond)
    if is_1d:
        x = x.squeeze(axis=-1)
    if rank != n or m <= n:
        resids = np.array([], result_real_t)
    s = s.astype(result_real_t, copy=False)
    resids = resids.astype(result_real_t, copy=False)
    x = x.astype(result_t, copy=True)
    if not isinstance(x, Box):
        x = wrap(x)
    if not isinstance(resids, Box):
        resids = wrap(resids)
    return x, resids, rank, s
