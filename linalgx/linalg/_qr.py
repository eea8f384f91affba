"""qr and householder_product."""

import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.errors import warn
from .._core.lapack import all_finite, gufunc, surely_finite, umath_linalg
from .._core.op import Op
from .._core.results import QRResult
from .._core.xputil import ns
from ._triangular import solve_triangular, triu_np

__all__ = ["qr", "householder_product"]

_qr = Op("qr", nout=2)
_qr_r = Op("qr_r")
_qr_raw = Op("qr_raw", nout=2)
_householder_product = Op("householder_product")


def _sig(t, n_in):
    c = "D" if t.kind == "c" else "d"
    return c * n_in + "->" + c


def _geqrf(a):
    """(h, tau): LAPACK geqrf's compact factor in (..., M, N) layout, on a copy of `a`."""
    h = np.array(a, copy=True)  # NumPy's qr_r_raw gufunc overwrites its input
    tau = gufunc(umath_linalg.qr_r_raw, "qr_fail", "qr", h, signature=_sig(a.dtype, 1))
    return h, tau


@_qr.impl("lapack")
def _qr_lapack(a, complete):
    m, n = a.shape[-2:]
    h, tau = _geqrf(a)
    ufunc = umath_linalg.qr_complete if complete else umath_linalg.qr_reduced
    q = gufunc(ufunc, "qr_fail", "qr", h, tau, signature=_sig(a.dtype, 2))
    return q, triu_np(h[..., :m if complete else min(m, n), :])


@_qr_r.impl("lapack")
def _qr_r_lapack(a):
    m, n = a.shape[-2:]
    h, _ = _geqrf(a)
    return triu_np(h[..., :min(m, n), :])


@_qr_raw.impl("lapack")
def _qr_raw_lapack(a):
    return _geqrf(a)


# Largest order the numba kernels serve, stacks and single matrices alike. Measured here,
# float64 / complex128, NumPy's time over the numba kernel's (both single-threaded): 20,000
# 3x3 2.3 / 1.7, 2,000 8x8 1.8 / 1.7, 500 16x16 1.2 / 1.1, 100 32x32 0.64 / 0.61; one 8x8
# 4.4 / 4.1, one 16x16 2.8 / 2.2, one 32x32 1.1 / 0.9.
NUMBA_MAX_N = 16
for _op in (_qr, _qr_r, _qr_raw, _householder_product):
    _op.def_route(routing.order_router(NUMBA_MAX_N, single_max_n=NUMBA_MAX_N))


def _numba_qr(a, mode):
    """The numba kernels (``kernels/_qr.py``) for finite C-contiguous input up to
    ``NUMBA_MAX_N``, else None: the caller takes the LAPACK path, which also gives NumPy's
    inf/NaN pattern and, for other layouts, NumPy's result layouts (R and the raw factor
    follow the input's memory order, Q and tau its batch order).

    Elements with a reflector that rounding decides (a (nearly) dependent column, or a sign
    that a rounding residue sets) are redone by LAPACK: Q and R are then NumPy's, not
    another valid factorization."""
    if max(a.shape[-2:]) > NUMBA_MAX_N or a.size == 0 or not a.flags.c_contiguous \
            or not all_finite(a):
        return None
    out, near = routing.kernels_api().qr(a, mode)
    routing.mark_loaded("qr")
    if near.any():
        m, n = a.shape[-2:]
        idx = np.flatnonzero(near)
        sub = a.reshape(-1, m, n)[idx]
        if mode == "raw":
            h, tau = _geqrf(sub)
            redo = (np.swapaxes(h, -1, -2), tau)
        elif mode == "r":
            redo = (_qr_r_lapack(sub),)
        else:
            redo = _qr_lapack(sub, mode == "complete")
        for o, x in zip(out if isinstance(out, tuple) else (out,), redo):
            o.reshape((-1,) + o.shape[-2 if o.ndim > near.ndim + 1 else -1:])[idx] = x
    return out


@_qr.impl("numba")
def _qr_numba(a, complete):
    out = _numba_qr(a, "complete" if complete else "reduced")
    return _qr_lapack(a, complete) if out is None else out


@_qr_r.impl("numba")
def _qr_r_numba(a):
    out = _numba_qr(a, "r")
    return _qr_r_lapack(a) if out is None else out


@_qr_raw.impl("numba")
def _qr_raw_numba(a):
    out = _numba_qr(a, "raw")
    if out is None:
        return _qr_raw_lapack(a)
    h, tau = out
    # _geqrf's C-ordered (..., M, N) layout: qr(mode='raw') returns its transposed view, as
    # NumPy's does
    return np.ascontiguousarray(np.swapaxes(h, -1, -2)), tau


def _no_raw_derivative(xp, *args, **params):
    # the Householder data of mode='raw'/'economic' is differentiable in principle, but no
    # rule is written: refuse rather than silently return a zero derivative
    raise NotImplementedError("qr: modes 'raw' and 'economic' are not differentiable; use "
                              "mode='reduced', 'complete' or 'r'")


_qr_raw.def_jvp(_no_raw_derivative)
_qr_raw.def_vjp(_no_raw_derivative)


@_householder_product.impl("lapack")
def _householder_product_lapack(a, tau):
    # orgqr with K < N reflectors equals orgqr with N reflectors whose extra tau are 0
    # (H_i = I), which is what NumPy's batched qr_reduced gufunc computes.
    n = a.shape[-1]
    k = tau.shape[-1]
    if k < n:
        tau = np.concatenate([tau, np.zeros(tau.shape[:-1] + (n - k,), dtype=tau.dtype)], -1)
    return gufunc(umath_linalg.qr_reduced, "qr_fail", "householder_product", a, tau,
                  signature=_sig(a.dtype, 2))


@_householder_product.impl("numba")
def _householder_product_numba(a, tau):
    if max(a.shape[-2:]) > NUMBA_MAX_N or a.size == 0 or tau.shape[:-1] != a.shape[:-2] \
            or not (a.flags.c_contiguous and tau.flags.c_contiguous) \
            or not (surely_finite(a) and surely_finite(tau)):
        return _householder_product_lapack(a, tau)
    out = routing.kernels_api().householder_product(a, tau)
    routing.mark_loaded("householder_product")
    return out


def _mh(xp, x):
    return xp.conj(xp.matrix_transpose(x))


def _diag_embed(xp, d):
    return xp.expand_dims(d, -1) * xp.eye(d.shape[-1], like=d)


def _upper_hermitian(xp, c):
    """strict_triu(C + C^H) + diag(Re C): the upper-triangular part U of C = Omega + U with
    Omega skew-Hermitian, U upper with a real diagonal (R's diagonal is real in LAPACK)."""
    return xp.triu(c + _mh(xp, c), 1) + _diag_embed(xp, xp.real(
        xp.diagonal(c, axis1=-2, axis2=-1)))


def _upper_hermitian_adjoint(xp, g):
    s = xp.triu(g, 1)
    return s + _mh(xp, s) + _diag_embed(xp, xp.real(xp.diagonal(g, axis1=-2, axis2=-1)))


# QR derivatives: Walter & Lehmann (2018), "Algorithmic differentiation of linear algebra
# functions with application in optimum experimental design"; Roberts, Roberts & Sanchez
# (2020); PyTorch's linalg_qr_jvp / linalg_qr_backward. With A = QR (M >= N):
#   C = Q^H dA R^{-1},  U = strict_triu(C + C^H) + diag(Re C),  dR = U R,  dQ = dA R^{-1} - Q U,
#   A_bar = (Q_bar + Q N) R^{-H},  N = sym_upper(R_bar R^H - Q^H Q_bar).
# For M < N, A = Q [R1 R2] is the square case on the first M columns plus
# dR2 = Q^H dA2 - (C - U) R2. mode='complete' with M > N is not differentiable.
def _qr_jvp_core(xp, t, q, r):
    m, n = q.shape[-2], r.shape[-1]
    k = min(m, n)
    x = solve_triangular(r[..., :, :k], t[..., :, :k], upper=True, left=False)
    c = _mh(xp, q) @ x
    u = _upper_hermitian(xp, c)
    dq = x - q @ u
    dr = u @ r[..., :, :k]
    if n > m:
        dr2 = _mh(xp, q) @ t[..., :, m:] - (c - u) @ r[..., :, m:]
        dr = xp.concatenate([dr, dr2], axis=-1)
    return dq, dr


def _qr_vjp_core(xp, gq, gr, q, r):
    m, n = q.shape[-2], r.shape[-1]
    k = min(m, n)
    r1 = r[..., :, :k]
    qh_gq = None if gq is None else _mh(xp, q) @ gq
    inner = None
    if gr is not None:
        inner = gr[..., :, :k] @ _mh(xp, r1)
        if n > m:  # K = Q^H Q_bar - R2_bar R2^H replaces Q^H Q_bar below
            corr = gr[..., :, m:] @ _mh(xp, r[..., :, m:])
            qh_gq = -corr if qh_gq is None else qh_gq - corr
    if qh_gq is not None:
        inner = -qh_gq if inner is None else inner - qh_gq
    b = q @ _upper_hermitian_adjoint(xp, inner)
    if n > m:
        if qh_gq is not None:
            b = b + q @ qh_gq
    elif gq is not None:
        b = b + gq
    ga = solve_triangular(_mh(xp, r1), b, upper=False, left=False)
    if n > m:
        if gr is None:
            gy = xp.zeros(ga.shape[:-1] + (n - m,), dtype=ga.dtype, like=ga)
        else:
            gy = q @ gr[..., :, m:]
        ga = xp.concatenate([ga, gy], axis=-1)
    return ga


@_qr.def_jvp
def _qr_jvp(xp, tangents, out, a, complete):
    if complete:
        raise NotImplementedError(v.MESSAGES["qr_complete_grad"])
    (t,) = tangents
    return _qr_jvp_core(xp, t, out[0], out[1])


@_qr.def_vjp
def _qr_vjp(xp, g, out, a, complete):
    if complete:
        raise NotImplementedError(v.MESSAGES["qr_complete_grad"])
    return (_qr_vjp_core(xp, g[0], g[1], out[0], out[1]),)


@_qr_r.def_jvp
def _qr_r_jvp(xp, tangents, out, a):
    q, r = _qr(a, complete=False)
    return _qr_jvp_core(xp, tangents[0], q, r)[1]


@_qr_r.def_vjp
def _qr_r_vjp(xp, g, out, a):
    q, r = _qr(a, complete=False)
    return (_qr_vjp_core(xp, None, g, q, r),)


# householder_product(A, tau) = H_1 ... H_k I_{M,N}, H_i = I - tau_i v_i v_i^H with
# v_i = e_i + A[i+1:, i] (LAPACK orgqr). The derivative follows the product rule over the
# reflectors (PyTorch's householder_product_backward): with P_i = H_1 ... H_{i-1} and
# S_i = H_{i+1} ... H_k I_{M,N},
#   dQ = sum_i P_i dH_i S_i,  dH_i = -(dtau_i v v^H + tau_i (dv v^H + v dv^H));
# with G_i = P_i^H Q_bar S_i^H: tau_bar_i = -v^H G_i v and
#   v_bar_i = -(conj(tau_i) G_i v + tau_i G_i^H v), kept on the rows below i.
def _reflector_data(xp, a, tau):
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    rows = ns(a).arange(m)
    eye = xp.eye(m, dtype=a.dtype, like=a)
    vs, hs = [], []
    for i in range(k):
        v_i = xp.where(rows > i, a[..., :, i], xp.where(rows == i, 1, 0))
        v_i = xp.expand_dims(v_i, -1)
        vs.append(v_i)
        hs.append(eye - xp.expand_dims(tau[..., i:i + 1], -1) * (v_i @ _mh(xp, v_i)))
    prefix = [eye]
    for h in hs[:-1]:
        prefix.append(prefix[-1] @ h)
    suffix = [eye[:, :n]]
    for h in hs[:0:-1]:
        suffix.append(h @ suffix[-1])
    return rows, vs, prefix, suffix[::-1]


@_householder_product.def_jvp
def _householder_product_jvp(xp, tangents, out, a, tau):
    ta, ttau = tangents
    rows, vs, prefix, suffix = _reflector_data(xp, a, tau)
    dq = None
    for i, v_i in enumerate(vs):
        v_h = _mh(xp, v_i)
        dh = None
        if ttau is not None:
            dh = -(xp.expand_dims(ttau[..., i:i + 1], -1) * (v_i @ v_h))
        if ta is not None:
            dv = xp.expand_dims(xp.where(rows > i, ta[..., :, i], 0), -1)
            t_i = xp.expand_dims(tau[..., i:i + 1], -1)
            part = -(t_i * (dv @ v_h + v_i @ _mh(xp, dv)))
            dh = part if dh is None else dh + part
        term = prefix[i] @ dh @ suffix[i]
        dq = term if dq is None else dq + term
    return dq


@_householder_product.def_vjp
def _householder_product_vjp(xp, g, out, a, tau):
    rows, vs, prefix, suffix = _reflector_data(xp, a, tau)
    n = a.shape[-1]
    zero = xp.zeros_like(g[..., :, 0])
    cols, gtaus = [], []
    for i, v_i in enumerate(vs):
        gi = _mh(xp, prefix[i]) @ g @ _mh(xp, suffix[i])
        t_i = xp.expand_dims(tau[..., i:i + 1], -1)
        gtaus.append(-(_mh(xp, v_i) @ gi @ v_i)[..., 0, 0])
        gv = -(xp.conj(t_i) * (gi @ v_i) + t_i * (_mh(xp, gi) @ v_i))
        cols.append(xp.where(rows > i, gv[..., :, 0], 0))
    cols += [zero] * (n - len(vs))
    ga = xp.stack(cols, axis=-1) if cols else xp.zeros_like(g)
    if gtaus:
        gtau = xp.stack(gtaus, axis=-1)
    else:
        gtau = xp.zeros(g.shape[:-2] + (0,), dtype=g.dtype, like=g)
    return ga, gtau


def qr(a, mode='reduced'):
    """
    Compute the qr factorization of a matrix.

    Factor the matrix `a` as *qr*, where `q` is orthonormal and `r` is
    upper-triangular.

    Parameters
    ----------
    a : array_like, shape (..., M, N)
        An array-like object with the dimensionality of at least 2.
    mode : {'reduced', 'complete', 'r', 'raw'}, optional, default: 'reduced'
        If K = min(M, N), then

        * 'reduced'  : returns Q, R with dimensions (..., M, K), (..., K, N)
        * 'complete' : returns Q, R with dimensions (..., M, M), (..., M, N)
        * 'r'        : returns R only with dimensions (..., K, N)
        * 'raw'      : returns h, tau with dimensions (..., N, M), (..., K,)

        The deprecated 'full' (an alias of 'reduced') and 'economic' modes,
        and their first letters, are accepted with a DeprecationWarning, as in
        NumPy.

    Returns
    -------
    Q : ndarray of float or complex, optional
        A matrix with orthonormal columns. When mode = 'complete' the
        result is an orthogonal/unitary matrix depending on whether or not
        a is real/complex.
    R : ndarray of float or complex, optional
        The upper-triangular matrix or a stack of upper-triangular
        matrices if the number of dimensions in the input array is greater
        than 2.
    (h, tau) : ndarrays of np.double or np.cdouble, optional
        The array h contains the Householder reflectors that generate q
        along with r. The tau array contains scaling factors for the
        reflectors.

    Raises
    ------
    LinAlgError
        If factoring fails.

    See Also
    --------
    householder_product : Q from the 'raw' Householder data.
    numpy.linalg.qr

    Notes
    -----
    As in NumPy, any input that ``astype`` converts to a float (object, str,
    datetime arrays) is accepted. When mode is 'reduced' or 'complete', the
    result is a namedtuple with the attributes ``Q`` and ``R``; subclasses of
    `ndarray` are preserved except for the 'raw' mode.

    Autodiff: differentiable in `a` for the modes 'reduced', 'r', and
    'complete' when ``M <= N``. The derivative is infinite where `a` is rank
    deficient.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[0, 1], [1, 1], [1, 1], [2, 1]])
    >>> Q, R = LA.qr(a)
    >>> np.allclose(Q @ R, a)
    True
    >>> Q.shape, R.shape
    ((4, 2), (2, 2))
    >>> LA.qr(a, mode='r').shape
    (2, 2)
    """
    if mode not in ('reduced', 'complete', 'r', 'raw'):
        if mode in ('f', 'full'):
            warn(v.MESSAGES["qr_full"], DeprecationWarning)
            mode = 'reduced'
        elif mode in ('e', 'economic'):
            warn(v.MESSAGES["qr_economic"], DeprecationWarning)
            mode = 'economic'
        else:
            raise ValueError(v.MESSAGES["qr_mode"] % (mode,))

    a, wrap = v.makearray(a)
    v.assert_stacked_2d(a)
    m, n = a.shape[-2:]
    t, result_t = v.common_type(a)
    a = a.astype(t, copy=False)

    if mode == 'r':
        return wrap(_qr_r.call1(a).astype(result_t, copy=False))
    if mode in ('raw', 'economic'):
        h, tau = _qr_raw(a)
        if mode == 'economic':
            return wrap(h.astype(result_t, copy=False))
        q = np.swapaxes(h, -1, -2).astype(result_t, copy=False)
        return wrap(q), tau.astype(result_t, copy=False)
    q, r = _qr.call1(a, complete=mode == 'complete' and m > n)
    if result_t is not t:
        q = q.astype(result_t, copy=False)
        r = r.astype(result_t, copy=False)
    return QRResult(wrap(q), wrap(r))


def householder_product(A, tau):
    """
    The first N columns of the product of Householder reflectors (LAPACK orgqr / ungqr).

    Parameters
    ----------
    A : (..., M, N) array_like
        Column ``i`` below the diagonal holds the tail of the Householder
        vector ``v_i = e_i + A[i+1:, i]`` (the 'raw' output of `qr`, transposed
        back). The diagonal and upper triangle are not read.
    tau : (..., K) array_like
        The reflector scales, ``K <= N <= M``; batch dimensions equal to `A`'s.

    Returns
    -------
    Q : (..., M, N) ndarray
        ``(H_1 H_2 ... H_K)[:, :N]`` with ``H_i = I - tau_i v_i v_i^H``.

    Raises
    ------
    LinAlgError
        If `A` is less than 2-D.
    ValueError
        If the shapes do not satisfy ``M >= N >= K`` with equal batch shapes.

    See Also
    --------
    qr, scipy.linalg.lapack.dorgqr

    Notes
    -----
    torch.linalg.householder_product's semantics, with NumPy's dtype rules.

    Autodiff: differentiable in `A` and `tau`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1., 2.], [3., 4.], [5., 6.]])
    >>> h, tau = LA.qr(a, mode='raw')
    >>> Q = LA.householder_product(h.T, tau)
    >>> np.allclose(Q, LA.qr(a).Q)
    True
    """
    A, wrap = v.makearray(A)
    tau = v.makearray(tau)[0]
    v.assert_stacked_2d(A)
    m, n = A.shape[-2:]
    if tau.ndim < 1 or not m >= n >= tau.shape[-1] or tau.shape[:-1] != A.shape[:-2]:
        raise ValueError(v.MESSAGES["householder_dims"] % (A.shape, tau.shape))
    v.check_numeric("householder_product", A, tau)
    t, result_t = v.common_type(A, tau)
    q = _householder_product(A.astype(t, copy=False), tau.astype(t, copy=False))
    return wrap(q.astype(result_t, copy=False))
