"""matrix_exp: the matrix exponential (torch.linalg.matrix_exp), batched."""
import math

import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.lapack import attempt, quiet, umath_linalg
from .._core.op import Op

__all__ = ["matrix_exp"]

_matrix_exp = Op("matrix_exp")

# Al-Mohy & Higham, "A new scaling and squaring algorithm for the matrix exponential",
# SIAM J. Matrix Anal. Appl. 31 (2009), Algorithm 5.1 with exact 1-norms (as
# scipy.linalg.expm for small matrices). theta_m bounds ||A|| for a degree-m Pade
# approximant to be accurate to double-precision unit roundoff.
_THETA = ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1),
          (7, 9.504178996162932e-1), (9, 2.097847961257068e0))
_THETA_13 = 4.25
_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
        3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
         40840800., 960960., 16380., 182., 1.),
}
# 1 / |c_{2m+1}|: the leading coefficient of the Pade error series (2005 paper, (2.2) and (2.6))
_ELL_C = {3: 100800., 5: 10059033600., 7: 4487938430976000., 9: 5914384781877411840000.,
          13: 113250775606021113483283660800000000.}
_UNIT_ROUNDOFF = 2.0 ** -53


def _onenorm(x):
    return np.abs(x).sum(axis=-2).max(axis=-1)


def _abs_power_norm(a, p):
    """``||abs(A)^p||_1`` for a stack: ``max(1^T abs(A)^p)``, by p vector products, or for
    small matrices by binary powering (fewer, if larger, products: cheaper per call)."""
    absa = np.abs(a)
    n = a.shape[-1]
    if n > 16:
        w = np.ones(a.shape[:-2] + (1, n))
        for _ in range(p):
            w = w @ absa
        return w.max(axis=(-2, -1))
    result = None
    while p:
        if p & 1:
            result = absa if result is None else result @ absa
        p >>= 1
        if p:
            absa = absa @ absa
    return result.sum(axis=-2).max(axis=-1)


def _ell(a, m):
    """Extra squarings so that the Pade error bound, not just ||A||, meets u (their (5.1))."""
    power_norm = _abs_power_norm(a, 2 * m + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = power_norm / (_onenorm(a) * _ELL_C[m])
        value = np.ceil(np.log2(alpha / _UNIT_ROUNDOFF) / (2 * m))
    value = np.where(np.isfinite(value) & (power_norm > 0), np.maximum(value, 0), 0)
    return value.astype(np.intp)


def _pade(m, a, powers):
    """U, V with r_m(A) = (V - U)^-1 (V + U); powers = [I, A^2, A^4, ...]."""
    b = _PADE[m]
    if m == 13:
        ident, a2, a4, a6 = powers
        u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2)
                 + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * ident)
        v_ = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2
        return u, v_ + b[0] * ident
    half = (m + 1) // 2
    u = a @ sum(b[2 * j + 1] * powers[j] for j in range(half))
    return u, sum(b[2 * j] * powers[j] for j in range(half))


def _ell_single(a, m):
    """_ell for one matrix, with Python scalars."""
    power_norm = float(_abs_power_norm(a, 2 * m + 1))
    denom = float(_onenorm(a)) * _ELL_C[m]
    ratio = power_norm / denom / _UNIT_ROUNDOFF if denom > 0 else 0.0
    if not (ratio > 0 and math.isfinite(ratio)):  # (0 where the quotient underflows)
        return 0
    value = math.log2(ratio) / (2 * m)
    return max(math.ceil(value), 0) if math.isfinite(value) else 0


def _triangle(a):
    """Per matrix of a (k, n, n) stack: +1 upper triangular, -1 lower triangular (not
    diagonal), 0 neither."""
    upper = ~np.tril(a, -1).any(axis=(-2, -1))
    lower = ~np.triu(a, 1).any(axis=(-2, -1))
    return np.where(upper, 1, np.where(lower, -1, 0))


def _exp_divided_difference(l1, l2):
    """(exp(l2) - exp(l1)) / (l2 - l1), exp(l1) where l1 == l2 (Higham, "Functions of
    Matrices" (2008), (10.42): exp((l1 + l2)/2) sinh(d)/d with d = (l2 - l1)/2 where the
    difference quotient would cancel, |d| < 1)."""
    with np.errstate(all="ignore"):
        d = (l2 - l1) / 2
        near = np.abs(d) < 1
        safe = np.where(near & (d != 0), d, 1)
        close = np.exp((l1 + l2) / 2) * np.where(d == 0, 1, np.sinh(safe) / safe)
        far = (np.exp(l2) - np.exp(l1)) / np.where(near, 1, l2 - l1)
    return np.where(near, close, far)


def _square_triangular(x, a, s, side):
    """Al-Mohy & Higham's Code Fragment 2.1 (as scipy.linalg.expm): square the Pade result
    ``x`` of a triangular ``a * 2**-s`` s times, putting back the exactly known diagonal
    ``exp(diag(a) 2**-i)`` and first super- (side 1) or subdiagonal (side -1) after each
    squaring; the squarings alone lose accuracy where the diagonal is stiff (relative
    error 6e-13 for ``[[-1e4, 1], [0, -1]]``, 2e-16 this way). x: (k, n, n), s: (k,)."""
    diag_a = np.diagonal(a, axis1=-2, axis2=-1)
    off_a = np.diagonal(a, offset=side, axis1=-2, axis2=-1)
    n = a.shape[-1]
    rows, cols = np.arange(n), np.arange(n)
    off_rows, off_cols = (rows[:-1], cols[1:]) if side == 1 else (rows[1:], cols[:-1])
    scale = 2.0 ** -s[:, None]
    x[:, rows, cols] = np.exp(diag_a * scale)
    for i in range(int(s.max(initial=0))):
        sel = np.flatnonzero(s > i)
        x[sel] = x[sel] @ x[sel]
        scale = 2.0 ** -(s[sel] - i - 1)[:, None]
        lam = diag_a[sel] * scale
        x[sel[:, None], rows, cols] = np.exp(lam)
        with np.errstate(invalid="ignore"):  # a zero entry stays zero where exp overflows
            off = off_a[sel] * scale * _exp_divided_difference(lam[:, :-1], lam[:, 1:])
        x[sel[:, None], off_rows, off_cols] = np.where(off_a[sel] == 0, 0, off)
    return np.triu(x) if side == 1 else np.tril(x)


def _solve_pq(u, v_):
    """``(V - U)^{-1} (V + U)``, NaN for an element whose ``V - U`` is exactly singular (as
    scipy.linalg.expm and torch.linalg.matrix_exp give: only a matrix of huge norm whose
    powers vanish, such as ``1e30 * [[1, 1], [-1, -1]]``, gets there, its identity term
    lost to rounding)."""
    sig = "DD->D" if u.dtype.kind == "c" else "dd->d"
    p, q = v_ - u, v_ + u
    x = attempt(umath_linalg.solve, sig, p, q)
    return quiet(umath_linalg.solve, p, q, signature=sig) if x is None else x


def _diagonal(a):
    """Which matrices of a (k, n, n) stack are diagonal."""
    return np.count_nonzero(a, axis=(-2, -1)) == np.count_nonzero(
        np.diagonal(a, axis1=-2, axis2=-1), axis=-1)


def _exp_diagonal(a):
    """exp of a (k, n, n) stack of diagonal matrices: exact where the Pade path's powers
    of A would overflow (exp(diag(-1e200, 1)) is diag(0, e))."""
    out = np.zeros_like(a)
    idx = np.arange(a.shape[-1])
    out[:, idx, idx] = np.exp(np.diagonal(a, axis1=-2, axis2=-1))
    return out


def _expm_batch(a):
    """exp of each matrix of a finite (N, n, n) stack, degree and scaling per element."""
    diagonal = _diagonal(a)
    if diagonal.any():
        out = np.empty_like(a)
        out[diagonal] = _exp_diagonal(a[diagonal])
        if not diagonal.all():
            out[~diagonal] = _expm_batch(a[~diagonal])
        return out
    ident = np.eye(a.shape[-1], dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    d4 = _onenorm(a4) ** (1 / 4)
    d6 = _onenorm(a6) ** (1 / 6)
    degree = np.zeros(len(a), dtype=np.intp)
    out = np.empty_like(a)
    eta = np.maximum(d4, d6)
    a8 = None
    for m, theta in _THETA:
        if m == 7:
            a8 = a4 @ a4
            d8 = _onenorm(a8) ** (1 / 8)
            eta = np.maximum(d6, d8)
        cand = np.flatnonzero((degree == 0) & (eta <= theta))
        if cand.size:
            cand = cand[_ell(a[cand], m) == 0]
            degree[cand] = m
    for m, _ in _THETA:
        idx = np.flatnonzero(degree == m)
        if idx.size:
            powers = [ident, a2[idx], a4[idx], a6[idx]] + ([a8[idx]] if m == 9 else [])
            out[idx] = _solve_pq(*_pade(m, a[idx], powers[:(m + 1) // 2]))
    idx = np.flatnonzero(degree == 0)
    if idx.size == 0:
        return out
    eta5 = np.minimum(eta[idx], np.maximum(d8[idx], _onenorm(a4[idx] @ a6[idx]) ** (1 / 10)))
    over = ~np.isfinite(eta5)  # A's powers overflowed: exp(A) is NaN
    if over.any():
        out[idx[over]] = np.nan
        idx, eta5 = idx[~over], eta5[~over]
        if idx.size == 0:
            return out
    with np.errstate(divide="ignore"):
        s = np.where(eta5 > 0, np.maximum(np.ceil(np.log2(eta5 / _THETA_13)), 0), 0)
    s = s.astype(np.intp)
    scale = 2.0 ** -s[:, None, None]
    s = s + _ell(a[idx] * scale, 13)
    scale = 2.0 ** -s[:, None, None]
    x = _solve_pq(*_pade(13, a[idx] * scale, [ident, a2[idx] * scale ** 2,
                                              a4[idx] * scale ** 4, a6[idx] * scale ** 6]))
    side = _triangle(a[idx])
    for i in range(int(s.max(initial=0))):  # undo the scaling: square each element s times
        sel = np.flatnonzero((s > i) & (side == 0))
        x[sel] = x[sel] @ x[sel]
    for t in (1, -1):
        tri = np.flatnonzero((side == t) & (s > 0))
        if tri.size:
            x[tri] = _square_triangular(x[tri], a[idx][tri], s[tri], t)
    out[idx] = x
    return out


def _expm_single(a):
    """exp of one finite (n, n) matrix: _expm_batch's choices, with scalar bookkeeping
    (about 5x less per-call overhead on small matrices)."""
    if _diagonal(a[None])[0]:
        return _exp_diagonal(a[None])[0]
    ident = np.eye(a.shape[-1], dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    d6 = _onenorm(a6) ** (1 / 6)
    eta = max(_onenorm(a4) ** (1 / 4), d6)
    powers = [ident, a2, a4, a6]
    for m, theta in _THETA:
        if m == 7:
            powers.append(a4 @ a4)
            d8 = _onenorm(powers[4]) ** (1 / 8)
            eta = max(d6, d8)
        if eta <= theta and _ell_single(a, m) == 0:
            return _solve_pq(*_pade(m, a, powers[:(m + 1) // 2]))
    eta5 = min(eta, max(d8, _onenorm(a4 @ a6) ** (1 / 10)))
    if not math.isfinite(eta5):  # A's powers overflowed: so does exp(A) (as the batch path)
        return np.full(a.shape, np.nan, dtype=a.dtype)
    s = max(math.ceil(math.log2(eta5 / _THETA_13)), 0) if eta5 > 0 else 0
    s += _ell_single(a * 2.0 ** -s, 13)
    scale = 2.0 ** -s
    x = _solve_pq(*_pade(13, a * scale, [ident, a2 * scale ** 2, a4 * scale ** 4,
                                         a6 * scale ** 6]))
    side = int(_triangle(a[None])[0]) if s else 0
    if side:
        return _square_triangular(x[None], a[None], np.array([s]), side)[0]
    for _ in range(s):
        x = x @ x
    return x


@_matrix_exp.impl("lapack")
def _matrix_exp_lapack(a):
    n = a.shape[-1]
    if a.size == 0:
        return np.empty(a.shape, dtype=a.dtype)
    if n == 1:
        return np.exp(a)
    if a.ndim == 2:
        if not np.isfinite(a).all():
            return np.full(a.shape, np.nan, dtype=a.dtype)
        return _expm_single(a)
    flat = a.reshape((-1, n, n))
    out = np.full(flat.shape, np.nan, dtype=a.dtype)
    finite = np.flatnonzero(np.isfinite(flat).all(axis=(-2, -1)))
    if finite.size:
        out[finite] = _expm_batch(flat[finite])
    return out.reshape(a.shape)


# Largest orders the numba kernel (``kernels/_expm.py``: the same algorithm, element by
# element) serves. Measured here, NumPy path / numba (float64; scales 0.1 to 5, every
# degree): 20,000 3x3 3.2-4.9x (torch / numba 0.93-1.6x); 200 24x24 3.2-5.3x, 50 48x48
# 1.7-2.5x (the kernel's chunks on two threads); one 3x3 5-9x, one 32x32 1.4-2.0x, one
# 48x48 0.95-1.02x.
NUMBA_MAX_N = 48
SINGLE_MAX_N = 32
_matrix_exp.def_route(routing.order_router(NUMBA_MAX_N, single_max_n=SINGLE_MAX_N))


@_matrix_exp.impl("numba")
def _matrix_exp_numba(a):
    if not 1 < a.shape[-1] <= NUMBA_MAX_N or a.size == 0:
        return _matrix_exp_lapack(a)
    out, flag = routing.kernels_api().matrix_exp(a)
    routing.mark_loaded("matrix_exp")
    if flag.any():  # triangular with squarings, and the rare failures: the NumPy path
        return routing.redo_flagged(flag, out, _matrix_exp_lapack, (a,))
    return out


# -- autodiff rules ---------------------------------------------------------------------------
# The Frechet derivative L(A, E) is the upper-right block of exp([[A, E], [0, A]]) (Mathias
# 1996; Higham, "Functions of Matrices" (2008), Thm. 3.6; Al-Mohy & Higham, "Computing the
# Frechet derivative of the matrix exponential" (2009)). Its adjoint under Re<X, Y> is
# L(A^H, G), since exp(A)^H = exp(A^H). Both use matrix_exp itself, so they differentiate
# again for higher orders.
def _frechet(xp, a, e):
    n = a.shape[-1]
    a = xp.broadcast_to(a, e.shape)
    top = xp.concatenate([a, e], axis=-1)
    bottom = xp.concatenate([xp.zeros(e.shape, dtype=e.dtype, like=e), a], axis=-1)
    return _matrix_exp(xp.concatenate([top, bottom], axis=-2))[..., :n, n:]


@_matrix_exp.def_jvp
def _matrix_exp_jvp(xp, tangents, out, a):
    (t,) = tangents
    return _frechet(xp, a, t)


@_matrix_exp.def_vjp
def _matrix_exp_vjp(xp, g, out, a):
    return (_frechet(xp, xp.conj(xp.matrix_transpose(a)), g),)


def matrix_exp(A):
    """
    Compute the matrix exponential of a square matrix (or a stack of them).

    ``matrix_exp(A) = sum_k A**k / k!``, computed by scaling and squaring with Pade
    approximants (Al-Mohy and Higham 2009, the algorithm of ``scipy.linalg.expm``), with
    the Pade degree and the number of squarings chosen per matrix of the stack. For a
    triangular matrix the diagonal and first off-diagonal are recomputed exactly after
    each squaring (their Code Fragment 2.1), which keeps stiff triangular matrices
    accurate to a few ulp.

    Parameters
    ----------
    A : (..., M, M) array_like
        Square matrix or stack of square matrices.

    Returns
    -------
    expA : (..., M, M) ndarray or matrix
        The matrix exponentials, in the precision of `A` (float64 for integers). A matrix
        of order 2 or more with a NaN or inf entry gives all NaN (of order 1, the
        exponential of its entry, as torch). So does a matrix whose powers overflow, or
        whose Pade denominator is singular in rounding (huge nilpotent matrices), as
        ``scipy.linalg.expm``; a diagonal one's exponential is exact.

    Raises
    ------
    LinAlgError
        If `A` has fewer than two dimensions or is not square (never for its values).
    TypeError
        For float16, longdouble and other dtypes LAPACK does not support.

    See Also
    --------
    scipy.linalg.expm : The same for NumPy arrays, element by element.

    Notes
    -----
    An extra function with ``torch.linalg.matrix_exp``'s semantics (NumPy has none).
    Computed in double precision.

    Autodiff: differentiable in `A` to any order; the derivative in direction ``E`` is the
    upper-right block of ``matrix_exp([[A, E], [0, A]])``.

    References
    ----------
    .. [1] A. H. Al-Mohy and N. J. Higham, "A new scaling and squaring algorithm for the
           matrix exponential", SIAM J. Matrix Anal. Appl. 31(3):970-989, 2009.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.matrix_exp(np.zeros((2, 2)))
    array([[1., 0.],
           [0., 1.]])
    >>> t = np.pi / 2
    >>> np.round(LA.matrix_exp(np.array([[0., -t], [t, 0.]])), 12)
    array([[ 0., -1.],
           [ 1.,  0.]])
    """
    a, wrap = v.makearray(A)
    v.assert_stacked_square(a)
    v.check_numeric("matrix_exp", a)
    t, result_t = v.common_type(a)
    e = _matrix_exp(a.astype(t, copy=False) if a.dtype != t else a)
    e = e.astype(result_t, copy=False)
    return wrap(e) if isinstance(e, np.ndarray) else e
