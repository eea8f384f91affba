"""svd and svdvals: the singular value decomposition, its op and its rules."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.box import Box
from .._core.lapack import check_workspace, gufunc1, surely_finite, umath_linalg
from .._core.op import Op
from .._core.results import SVDResult
from .._core.xputil import ns, unbox_all
from ._eig import degenerate_mask, refuse_second_order

__all__ = ["svd", "svdvals"]

_svd = Op("svd", nout=3)
_svd.def_route(routing.square_router("svd"))
_svdvals = Op("svdvals")
_svdvals.def_route(routing.square_router("svdvals"))

# The numba kernels (one-sided Jacobi) take square matrices up to this order and rectangular
# ones up to _NUMBA_MAX_RECT on each side; larger ones, where Jacobi's O(sweeps n^3) loses to
# LAPACK's bidiagonalization anyway (and completing a full U of a tall matrix vector by vector
# would cost O(m^3)), go to LAPACK, as do dtypes other than bool, integer, float and complex
# (object, str), for which the gufunc raises NumPy's casting TypeError.
_NUMBA_MAX_N = 64
_NUMBA_MAX_RECT = 16


def _numba_takes(a):
    m, n = a.shape[-2:]
    if a.dtype.kind not in "biufc":
        return False
    return n <= _NUMBA_MAX_N if m == n else max(m, n) <= _NUMBA_MAX_RECT

# Relative size of the gauge-dependent part of a cotangent above which the SVD VJP raises
# (PyTorch's svd_backward uses allclose(..., rtol=1e-2, atol=1e-2); this one is relative to
# the cotangent's own scale, so rescaling a loss never hides a phase dependence).
_GAUGE_RTOL = 1e-4


def _svd_gesdd(a, full_matrices):
    """One large finite matrix through SciPy's ?gesdd (NumPy's driver, SciPy's build).

    Called on ``a`` itself (copied to Fortran order), not on the free view ``a.T``: the
    factors of a.T are as valid but their singular vectors' signs differ from NumPy's, and
    on ``a`` they come out as NumPy's (to rounding). U and V^H are returned C-ordered, as
    NumPy's; the three copies cost under 1% of the call at n = 1000.
    """
    from scipy.linalg import get_lapack_funcs

    u, s, vh, info = get_lapack_funcs("gesdd", (a,))(
        a, compute_uv=1, full_matrices=int(full_matrices), overwrite_a=0)
    v.raise_on_info(info, "svd_conv", "svd", ())
    return np.ascontiguousarray(u), s, np.ascontiguousarray(vh)


@_svd.impl("lapack")
def _svd_lapack(a, full_matrices=True):
    # NaN / inf: NumPy's gufunc, whose answer (an error) gesdd does not promise
    if a.ndim == 2 and routing.large_driver("svd", a) == "scipy_gesdd" and surely_finite(a):
        return _svd_gesdd(a, full_matrices)
    ufunc = umath_linalg.svd_f if full_matrices else umath_linalg.svd_s
    sig = "D->DdD" if a.dtype.kind == "c" else "d->ddd"
    check_workspace(a, "svd")
    return gufunc1(ufunc, sig, a, "svd_conv", "svd")


@_svdvals.impl("lapack")
def _svdvals_lapack(a):
    sig = "D->d" if a.dtype.kind == "c" else "d->d"
    check_workspace(a, "svd")
    return gufunc1(umath_linalg.svd, sig, a, "svd_conv", "svd")


def _numba_fix_up(a, info, u, s, vh, full_matrices):
    """Act on the kernel's status codes as the LAPACK gufunc would, in place.

    NaN in an element raises NumPy's error naming it (inf alone leaves that element NaN, as
    in NumPy). LAPACK recomputes the rare element Jacobi did not converge on, and every
    element with an exactly zero singular value: Jacobi finds those exactly, LAPACK returns
    rounding noise (``cond(ones((2, 2)))`` is 4.8e16 in NumPy, not inf; ``matrix_norm(x, -2)``
    of a singular integer matrix is 1.2e-16), and the drop-in promise is NumPy's answer.
    """
    k = s.shape[-1]
    failed = np.count_nonzero(info)
    if not failed and (k == 0 or np.count_nonzero(s[..., -1]) == s.size // k):
        return  # the common case: two counts (a reduction costs about 1.5 us a call)
    flat = info.reshape(-1)
    if failed:
        bad = np.flatnonzero(flat == 1)
        if bad.size:
            nan = np.isnan(a.reshape((-1,) + a.shape[-2:])[bad]).any(axis=(-1, -2))
            if nan.any():
                raise v.batch_error("svd_conv", "svd", a.shape[:-2], int(bad[np.argmax(nan)]))
    if k == 0:
        return
    sf = s.reshape(-1, k)
    redo = np.flatnonzero((flat == 2) | (sf[:, -1] == 0))
    if redo.size:
        a2 = a.reshape((-1,) + a.shape[-2:])[redo]
        if u is None:
            sf[redo] = _svdvals_lapack(a2)
        else:
            uf = u.reshape((-1,) + u.shape[-2:])
            vf = vh.reshape((-1,) + vh.shape[-2:])
            uf[redo], sf[redo], vf[redo] = _svd_lapack(a2, full_matrices)


@_svd.impl("numba")
def _svd_numba(a, full_matrices=True):
    if not _numba_takes(a):
        return _svd_lapack(a, full_matrices)
    a = v.as_compute(a)
    u, s, vh, info = routing.kernels_api().svd(a, True, full_matrices)
    routing.mark_loaded("svd")
    _numba_fix_up(a, info, u, s, vh, full_matrices)
    return u, s, vh


@_svdvals.impl("numba")
def _svdvals_numba(a):
    if not _numba_takes(a):
        return _svdvals_lapack(a)
    a = v.as_compute(a)
    _, s, _, info = routing.kernels_api().svd(a, False)
    routing.mark_loaded("svdvals")
    _numba_fix_up(a, info, None, s, None, False)
    return s


# -- autodiff rules ---------------------------------------------------------------------------
# Townsend, "Differentiating the singular value decomposition" (2016), in the form of PyTorch's
# linalg_svd_jvp / svd_backward (FunctionsManual.cpp). With dP = U^H dA V, E_jk = s_k^2 - s_j^2
# (1 on the diagonal) and sym(X) = X + X^H:
#   dS = Re diag(dP),  dU = U (sym(dX S) / E + i Im diag(dP) / 2S) + (I - UU^H) dA V S^-1,
#   dVh = (-sym(S dX) / E + i Im diag(dP) / 2S) Vh + S^-1 U^H dA (I - VV^H),  dX = dP - diag(dS).
# The phase gauge (U, V) -> (U L, V L), L = diag(e^{i phi}), is fixed by Re diag(U^H dU) = 0.
# full_matrices: the extra columns U_p of U (rows of Vh) are fixed up to a rotation; we take
# dU_p = -U (dU^H U_p), which keeps [U, U_p] unitary to first order (PyTorch returns zeros), and
# fold their cotangent back into U's in the VJP. Assumes distinct nonzero singular values.
def _mH(xp, x):
    return xp.conj(xp.matrix_transpose(x))


def _diag_embed(xp, d):
    n = d.shape[-1]
    return xp.expand_dims(d, -1) * xp.eye(n, dtype=d.dtype, like=d)


def _gap_matrix(xp, s):
    """(E, skip): E[i, j] = s_j^2 - s_i^2 where it is divided by; skip marks the diagonal and
    degenerate pairs (see `_eig.degenerate_mask`), whose eigenvector term is set to zero."""
    skip = degenerate_mask(s)
    s2 = s * s
    e = xp.expand_dims(s2, -2) - xp.expand_dims(s2, -1)
    return xp.where(skip, 1, e), skip


def _degenerate_part(xp, k, s, skip):
    """K_ij / (2 (s_i + s_j)) off the diagonal (0 where s_i + s_j == 0 or on the diagonal)."""
    if isinstance(k, int):
        return 0
    ssum = xp.expand_dims(s, -2) + xp.expand_dims(s, -1)
    off = skip & ~ns(unbox_all(s)).eye(s.shape[-1], dtype=bool) & (unbox_all(ssum) > 0)
    return xp.where(off, k / (2 * xp.where(off, ssum, 1)), 0)


def _reduced(u, vh, full_matrices):
    k = min(u.shape[-2], vh.shape[-1])
    if not full_matrices:
        return u, vh
    return u[..., :, :k], vh[..., :k, :]


@_svd.def_jvp
def _svd_jvp(xp, tangents, out, a, full_matrices=True):
    (da,) = tangents
    u_full, s, vh_full = out
    refuse_second_order(s, "svd", a)
    m, n = a.shape[-2:]
    u, vh = _reduced(u_full, vh_full, full_matrices)
    cplx = v.is_complex_dtype(u.dtype)
    vv = _mH(xp, vh)
    dp = _mH(xp, u) @ da @ vv
    ds = xp.diagonal(dp, 0, -2, -1)
    if cplx:
        ds = xp.real(ds)
    dx = dp - _diag_embed(xp, ds)
    e, skip = _gap_matrix(xp, s)
    s_row, s_col = xp.expand_dims(s, -2), xp.expand_dims(s, -1)
    # N / (s_j^2 - s_i^2) = H / (2 (s_j - s_i)) + K / (2 (s_i + s_j)): on degenerate pairs the
    # first part is the arbitrary rotation of the subspace (set to zero) and the second part,
    # with K = dx - dx^H, stays (Townsend 2016, eq. 14 split into its two halves).
    deg = _degenerate_part(xp, dx - _mH(xp, dx), s, skip)
    du_inner = xp.where(skip, deg, (dx * s_row + _mH(xp, dx * s_row)) / e)
    dvh_inner = xp.where(skip, deg, -(dx * s_col + _mH(xp, dx * s_col)) / e)
    if cplx:
        phase = _diag_embed(xp, xp.diagonal(dx, 0, -2, -1) / (2 * s))
        du_inner = du_inner + phase
        dvh_inner = dvh_inner + phase
    du = u @ du_inner
    dvh = dvh_inner @ vh
    if m > n:
        davs = da @ (vv / s_row)
        du = du + davs - u @ (_mH(xp, u) @ davs)
        if full_matrices:
            up = u_full[..., :, n:]
            du = xp.concatenate([du, -(u @ (_mH(xp, du) @ up))], axis=-1)
    elif m < n:
        suda = (_mH(xp, u) / s_col) @ da
        dvh = dvh + suda - (suda @ vv) @ vh
        if full_matrices:
            vhp = vh_full[..., m:, :]
            dvh = xp.concatenate([dvh, -((vhp @ _mH(xp, dvh)) @ vh)], axis=-2)
    return du, ds, dvh


def _value_max(x):
    x = unbox_all(x)
    return float(abs(x).max()) if x is not None and x.size else 0.0


def _check_gauge(residual, scale, what):
    """Raise if a cotangent depends on what the SVD leaves arbitrary (see _GAUGE_RTOL)."""
    r = _value_max(residual)
    if r > _GAUGE_RTOL * scale:
        raise ValueError(v.MESSAGES["svd_gauge"] % (what, r, scale))


def _check_split(x, gs, pair):
    """Refuse the 0/0 limit on a degenerate pair (see `_eig._check_split`): a loss invariant
    under rotating a degenerate singular subspace only because s_i == s_j (U f(S) Vh) also
    depends on those singular values, and its derivative there is not computable."""
    if gs is None:
        return
    x, g = unbox_all(x), unbox_all(gs)
    mod = ns(x)
    herm = mod.abs(x + mod.conj(mod.swapaxes(x, -1, -2)))
    uses_s = (mod.abs(g)[..., :, None] + mod.abs(g)[..., None, :]) > 0
    if float(mod.where(pair & uses_s, herm, 0).max()) > 1e-2 * max(1.0, float(herm.max())):
        raise ValueError(v.MESSAGES["degenerate_split"].replace("eigen", "singular ") % "svd")


def _skew_value(x):
    return x - x.conj().swapaxes(-1, -2)


def _mh_value(x):
    return unbox_all(x).conj().swapaxes(-1, -2)


@_svd.def_vjp
def _svd_vjp(xp, g, out, a, full_matrices=True):
    gu, gs, gvh = g
    u_full, s, vh_full = out
    refuse_second_order(s, "svd", gu, gs, gvh)
    m, n = a.shape[-2:]
    u, vh = _reduced(u_full, vh_full, full_matrices)
    k = s.shape[-1]
    if full_matrices and gu is not None:
        gu, gup = gu[..., :, :k], gu[..., :, k:]
        if m > n:
            # the loss may see U_p only through the subspace: U_p^H gU_p must be Hermitian
            up = u_full[..., :, k:]
            _check_gauge(_skew_value(_mh_value(up) @ unbox_all(gup)),
                         _value_max(gup), "the complement columns of U")
            gu = gu - up @ (_mH(xp, gup) @ u)
    if full_matrices and gvh is not None:
        gvh, gvhp = gvh[..., :k, :], gvh[..., k:, :]
        if m < n:
            vhp = vh_full[..., k:, :]
            _check_gauge(_skew_value(unbox_all(vhp) @ _mh_value(gvhp)),
                         _value_max(gvhp), "the complement rows of Vh")
            gvh = gvh - vh @ (_mH(xp, gvhp) @ vhp)
    if gu is None and gvh is None:
        if gs is None:
            return (None,)
        return ((u * xp.expand_dims(gs, -2)) @ vh,)
    vv = _mH(xp, vh)
    s_row, s_col = xp.expand_dims(s, -2), xp.expand_dims(s, -1)
    ret = 0
    diag_u = diag_v = uhgu = vhgv = 0
    raw = []
    if gu is not None:
        uhgu = _mH(xp, u) @ gu
        raw.append(uhgu)
        uhgu = uhgu - _mH(xp, uhgu)
        ret = uhgu * s_row
        diag_u = xp.diagonal(uhgu, 0, -2, -1)
    if gvh is not None:
        vhgv = vh @ _mH(xp, gvh)
        raw.append(vhgv)
        vhgv = vhgv - _mH(xp, vhgv)
        ret = ret + s_col * vhgv
        diag_v = xp.diagonal(vhgv, 0, -2, -1)
    e, skip = _gap_matrix(xp, s)
    if not isinstance(ret, int):
        # a loss invariant under the rotation (U_S, V_S) -> (U_S Q, V_S Q) of a degenerate
        # singular subspace feeds zeros into these entries; anything else depends on the basis
        off = skip & ~ns(unbox_all(s)).eye(s.shape[-1], dtype=bool)
        if off.any():
            _check_gauge(ns(unbox_all(s)).where(off, unbox_all(ret), 0),
                         _value_max(gu) + _value_max(gvh),
                         "the basis of a degenerate singular subspace")
            for r in raw:
                _check_split(r, gs, off)
        ret = xp.where(skip, _degenerate_part(xp, uhgu - vhgv, s, skip), ret / e)
    if v.is_complex_dtype(u.dtype):
        # the loss must not see the phases: Im diag(U^H gU) + Im diag(V^H gV) == 0. The
        # phase term below is the adjoint of the JVP's gauge Re diag(U^H dU) = 0.
        _check_gauge((unbox_all(diag_u) + unbox_all(diag_v)).imag, _value_max(gu) + _value_max(gvh),
                     "the phases of the singular vectors")
        ret = ret + _diag_embed(xp, (diag_u - diag_v) / (4 * s))
    if gs is not None:
        ret = ret + _diag_embed(xp, gs)
    if m > n and gu is not None:
        gus = gu / s_row
        ga = (u @ ret + gus - u @ (_mH(xp, u) @ gus)) @ vh
    elif m < n and gvh is not None:
        sgvh = gvh / s_col
        ga = u @ (ret @ vh + sgvh - (sgvh @ vv) @ vh)
    else:
        ga = u @ ret @ vh
    return (ga,)


@_svdvals.def_jvp
def _svdvals_jvp(xp, tangents, out, a):
    (da,) = tangents
    refuse_second_order(out, "svdvals", a)
    u, _, vh = _svd(a, full_matrices=False)
    ds = xp.sum(xp.conj(u) * (da @ _mH(xp, vh)), axis=-2)
    return xp.real(ds) if v.is_complex_dtype(u.dtype) else ds


@_svdvals.def_vjp
def _svdvals_vjp(xp, g, out, a):
    refuse_second_order(out, "svdvals", g)
    u, _, vh = _svd(a, full_matrices=False)
    return ((u * xp.expand_dims(g, -2)) @ vh,)


# -- helpers ------------------------------------------------------------------------------------
def _check_finite(a, kind, func):
    """Raise NumPy's convergence error, naming the element, for inf as NumPy does for NaN."""
    a = unbox_all(a)
    if a.dtype.kind not in "fc" or surely_finite(a):
        return
    ok = np.isfinite(a)
    if ok.all():
        return
    batch = a.shape[:-2]
    bad = ~ok.reshape(batch + (-1,)).all(axis=-1)
    raise v.batch_error(kind, func, batch, int(np.flatnonzero(bad.reshape(-1))[0]))


def _to_compute(a, t):
    # plain arrays go to the gufunc as they are (it casts with NumPy's own rules and errors)
    return a.astype(t) if isinstance(a, Box) and a.dtype != t else a


def _singular_values(a, check_finite):
    """svd(a, compute_uv=False) without the Hermitian branch; norm and cond skip the inf check
    (NumPy gives NaN singular values, hence ``cond(inf) == inf``)."""
    v.assert_stacked_2d(a)
    t, result_t = v.common_type(a)
    if check_finite:
        _check_finite(a, "svd_conv", "svd")
    s = _svdvals.call1(_to_compute(a, t))
    if result_t is not t:
        s = s.astype(v.real_dtype(result_t), copy=False)
    return s


def _permutation(idx, dtype):
    """One-hot (..., n, n) matrices P with (x @ P)[..., j] == x[..., idx[..., j]]."""
    n = idx.shape[-1]
    return (idx[..., None, :] == np.arange(n)[:, None]).astype(dtype)


def _svd_hermitian(a, wrap, compute_uv):
    from . import eigh, eigvalsh
    if not compute_uv:
        s = abs(eigvalsh(a))
        if not isinstance(s, Box):
            return np.sort(s)[..., ::-1]
        order = np.argsort(unbox_all(s))[..., ::-1]
        return (s[..., None, :] @ _permutation(order, s.dtype))[..., 0, :]
    s, u = eigh(a)
    sgn = np.copysign(1.0, unbox_all(s))  # avoid a zero sign
    s = abs(s)
    sidx = np.argsort(unbox_all(s))[..., ::-1]
    sgn = np.take_along_axis(sgn, sidx, axis=-1)
    if isinstance(s, Box) or isinstance(u, Box):
        perm = _permutation(sidx, s.dtype)
        s = (s[..., None, :] @ perm)[..., 0, :]
        u = u @ perm.astype(u.dtype)
    else:
        s = np.take_along_axis(s, sidx, axis=-1)
        u = np.take_along_axis(u, sidx[..., None, :], axis=-1)
    # singular values are unsigned, move the sign into v
    vt = (u * sgn[..., None, :]).swapaxes(-1, -2).conjugate()
    return SVDResult(wrap(u), s, wrap(vt))


# -- public functions -------------------------------------------------------------------------
def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """
    Singular Value Decomposition.

    When `a` is a 2D array and ``full_matrices=False``, it is factorized as
    ``u @ np.diag(s) @ vh = (u * s) @ vh``, where `u` and the Hermitian transpose of `vh`
    have orthonormal columns and `s` holds `a`'s singular values in descending order.
    Stacks of matrices are decomposed element by element.

    Parameters
    ----------
    a : (..., M, N) array_like
        A real or complex array with ``a.ndim >= 2``.
    full_matrices : bool, optional
        If True (default), `u` and `vh` have the shapes ``(..., M, M)`` and
        ``(..., N, N)``. Otherwise ``(..., M, K)`` and ``(..., K, N)``, ``K = min(M, N)``.
    compute_uv : bool, optional
        Whether to compute `u` and `vh` in addition to `s`. True by default.
    hermitian : bool, optional
        If True, `a` is assumed to be Hermitian (symmetric if real-valued) and the
        decomposition is computed from ``eigh``. Defaults to False.

    Returns
    -------
    U : { (..., M, M), (..., M, K) } ndarray or matrix
        Unitary array(s). Only returned when `compute_uv` is True.
    S : (..., K) ndarray
        The singular values, sorted in descending order, in the real dtype of `a`'s
        precision.
    Vh : { (..., N, N), (..., K, N) } ndarray or matrix
        Unitary array(s). Only returned when `compute_uv` is True.

    Raises
    ------
    LinAlgError
        If `a` has fewer than two dimensions, or the SVD does not converge. NaN **and
        inf** entries raise ``SVD did not converge`` (NumPy returns NaN factors for inf);
        for a stack the message names the failing batch element.
    TypeError
        For float16, longdouble and other dtypes LAPACK does not support.

    See Also
    --------
    svdvals : The singular values only.
    numpy.linalg.svd
    scipy.linalg.svd

    Notes
    -----
    When `compute_uv` is True the result is an ``SVDResult`` named tuple (NumPy's class)
    with the attributes `U`, `S` and `Vh`. Computed in double precision and returned in
    the precision of the input: with LAPACK ``gesdd``, or, for stacks of small matrices
    where measured faster, with numba kernels running one-sided Jacobi (Hestenes, with de
    Rijk's pivoting), which is at least as accurate (Demmel & Veselic 1992). An `a` that is
    an ``np.matrix`` gives `U` and `Vh` of that type.

    Autodiff: differentiable in `a` (Townsend 2016; PyTorch's ``svd_backward``) where the
    singular values are distinct and nonzero. For complex input the singular vectors are
    defined only up to a phase each, and with ``full_matrices=True`` the extra columns of
    `U` (rows of `Vh`) only up to a rotation; a loss that depends on these raises
    ``ValueError`` in reverse mode.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[3., 0.], [4., 5.]])
    >>> U, S, Vh = LA.svd(a)
    >>> S**2
    array([45.,  5.])
    >>> np.allclose(U @ np.diag(S) @ Vh, a)
    True
    >>> LA.svd(np.zeros((2, 3, 4)), full_matrices=False).U.shape
    (2, 3, 3)
    """
    a, wrap = v.makearray(a)
    if hermitian:
        return _svd_hermitian(a, wrap, compute_uv)
    if not compute_uv:
        return _singular_values(a, check_finite=True)
    v.assert_stacked_2d(a)
    t, result_t = v.common_type(a)
    _check_finite(a, "svd_conv", "svd")
    u, s, vh = _svd.call1(_to_compute(a, t), full_matrices=bool(full_matrices))
    if result_t is not t:
        u = u.astype(result_t, copy=False)
        s = s.astype(v.real_dtype(result_t), copy=False)
        vh = vh.astype(result_t, copy=False)
    return SVDResult(wrap(u), s, wrap(vh))


def svdvals(x, /):
    """
    The singular values of a matrix (or a stack of matrices) ``x``.

    The same as ``svd(x, compute_uv=False, hermitian=False)``.

    Parameters
    ----------
    x : (..., M, N) array_like
        Input array whose last two dimensions are the matrices.

    Returns
    -------
    out : (..., K) ndarray
        The singular values of each matrix in descending order, ``K = min(M, N)``.

    Raises
    ------
    LinAlgError
        If `x` has fewer than two dimensions, contains NaN or inf, or the SVD does not
        converge.

    See Also
    --------
    svd
    numpy.linalg.svdvals

    Notes
    -----
    Autodiff: differentiable in `x` where the singular values are distinct and nonzero;
    ``d s = Re diag(U^H dx V)``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.svdvals(np.array([[3., 0.], [4., 5.]])) ** 2
    array([45.,  5.])
    """
    return svd(x, compute_uv=False, hermitian=False)
