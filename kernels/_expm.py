"""The matrix exponential of stacks of small matrices, one jitted loop over the stack:
``linalgx.linalg.matrix_exp``'s algorithm (Al-Mohy and Higham's scaling and squaring,
2009, Algorithm 5.1 with exact 1-norms, as ``scipy.linalg.expm``), element by element.

For each matrix: the Pade degree m in (3, 5, 7, 9) whose bound theta_m the norms
``||A^k||^(1/k)`` meet and whose error term ``||abs(A)^(2m+1)||`` needs no extra squaring
(their ell function), else degree 13 with s squarings. ``r_m(A) = (V - U)^{-1} (V + U)``
is solved by LU with partial pivoting. The caller computes in float64 / complex128. An
element is flagged (``flag[e] = 1``) and left for the caller's NumPy path
where that path does something this loop does not: a triangular matrix that needs squarings
(the exact diagonal and first off-diagonal are put back after each squaring, Code Fragment
2.1), an exactly singular ``V - U``, powers of A that overflow, or a result that is not
finite.
"""
import math

import numpy as np
from numba import njit, types
from numba.extending import overload

from ._util import cabs1, swap_rows

# theta_m for m = 3, 5, 7, 9 and 13; 1 / |c_{2m+1}|, the Pade error series' leading
# coefficient (their (2.2), (2.6)); see linalgx/linalg/_matfuncs.py
_DEGREES = (3, 5, 7, 9)
_THETA = (1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1,
          2.097847961257068e0)
_THETA_13 = 4.25
_ELL_C = (100800., 10059033600., 4487938430976000., 5914384781877411840000.,
          113250775606021113483283660800000000.)
_UNIT_ROUNDOFF = 2.0 ** -53
_B = np.zeros((5, 14))
for _row, _coeffs in enumerate((
        (120., 60., 12., 1.),
        (30240., 15120., 3360., 420., 30., 1.),
        (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
        (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
         3960., 90., 1.),
        (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
         40840800., 960960., 16380., 182., 1.))):
    _B[_row, :len(_coeffs)] = _coeffs


def _mod(x):
    """``|x|`` (pure-Python stub)."""
    return abs(x)


@overload(_mod)
def _mod_overload(x):
    # sqrt(re^2 + im^2) rather than hypot's scaling (a third of a complex 3x3's time): these
    # moduli only choose the degree and the squarings, and one that overflows (entries
    # beyond 1e154) makes a non-finite norm, which sends the element to the NumPy path or
    # leaves the degree choice as ell's guard takes it
    if isinstance(x, types.Complex):
        return lambda x: math.sqrt(x.real * x.real + x.imag * x.imag)
    return lambda x: abs(x)


@njit(cache=True, nogil=True, inline="always")
def _mm(x, y, out):
    """``out = x @ y`` (out distinct from both)."""
    n = x.shape[0]
    for i in range(n):
        for j in range(n):
            out[i, j] = 0
        for k in range(n):
            xik = x[i, k]
            for j in range(n):
                out[i, j] += xik * y[k, j]


@njit(cache=True, nogil=True)
def _onenorm(x):
    """``||x||_1``; NaN if a column sum is (which ``max`` alone would drop)."""
    n = x.shape[0]
    best = 0.0
    for j in range(n):
        s = 0.0
        for i in range(n):
            s += _mod(x[i, j])
        if s != s:
            return s
        best = max(best, s)
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def _ell(a, m_index, absa, w, t):
    """Extra squarings so that the Pade error bound, not just ||A||, meets u (their (5.1)).
    ``||abs(A)^(2m+1)||_1 = max(1^T abs(A)^(2m+1))`` by 2m+1 vector-matrix products
    (``absa`` (n, n), ``w`` and ``t`` (n,) real work space)."""
    n = a.shape[0]
    for i in range(n):
        w[i] = 1.0
        for j in range(n):
            absa[i, j] = _mod(a[i, j])
    m = _DEGREES[m_index] if m_index < 4 else 13
    for _ in range(2 * m + 1):
        for j in range(n):
            t[j] = 0.0
        for i in range(n):
            wi = w[i]
            for j in range(n):
                t[j] += wi * absa[i, j]
        for j in range(n):
            w[j] = t[j]
    power_norm = 0.0
    for j in range(n):
        power_norm = max(power_norm, w[j])
    denom = _onenorm(a) * _ELL_C[m_index]
    ratio = power_norm / denom / _UNIT_ROUNDOFF if denom > 0 else 0.0
    if not (ratio > 0 and math.isfinite(ratio)):
        return 0
    value = math.log2(ratio) / (2 * m)
    return max(math.ceil(value), 0) if math.isfinite(value) else 0


@njit(cache=True, nogil=True, error_model="numpy")
def _solve_pq(u, v, x):
    """``x = (v - u)^{-1} (v + u)`` by LU with partial pivoting; ``u`` is overwritten.
    False where ``v - u`` is singular to working precision (a pivot within rounding of zero:
    the caller's NumPy path, where LAPACK decides, gives NaN for an exactly singular one)."""
    n = u.shape[0]
    big_entry = 0.0
    for i in range(n):
        for j in range(n):
            d = v[i, j] - u[i, j]
            x[i, j] = v[i, j] + u[i, j]
            u[i, j] = d
            big_entry = max(big_entry, cabs1(d))
    negligible = 32 * n * 2.220446049250313e-16 * big_entry
    for k in range(n):
        p = k
        big = cabs1(u[k, k])  # LAPACK's pivot measure
        for i in range(k + 1, n):
            if cabs1(u[i, k]) > big:
                big = cabs1(u[i, k])
                p = i
        if not big > negligible:
            return False
        if p != k:
            swap_rows(u, k, p)
            swap_rows(x, k, p)
        r = 1 / u[k, k]
        for i in range(k + 1, n):
            l = u[i, k] * r
            if l != 0:
                for j in range(k + 1, n):
                    u[i, j] -= l * u[k, j]
                for j in range(n):
                    x[i, j] -= l * x[k, j]
    for k in range(n - 1, -1, -1):
        for j in range(n):
            s = x[k, j]
            for i in range(k + 1, n):
                s -= u[k, i] * x[i, j]
            x[k, j] = s / u[k, k]
    return True


@njit(cache=True, nogil=True)
def _triangular(a):
    n = a.shape[0]
    upper = True
    lower = True
    for i in range(n):
        for j in range(n):
            if a[i, j] != 0:
                if i > j:
                    upper = False
                elif i < j:
                    lower = False
    return upper or lower


@njit(cache=True, nogil=True, error_model="numpy")
def _expm(a, out, w, absa, wv):
    """exp(a) into ``out``; ``w`` (8, n, n), ``absa`` (n, n) and ``wv`` (2, n) are work
    space. Returns False where the caller's NumPy path must compute it (see the module
    docstring)."""
    n = a.shape[0]
    diagonal = True
    for i in range(n):
        for j in range(n):
            if i != j and a[i, j] != 0:
                diagonal = False
    if diagonal:  # exact, also where the powers below would overflow
        for i in range(n):
            for j in range(n):
                out[i, j] = np.exp(a[i, i]) if i == j else 0
        return True
    a2, a4, a6, a8, u, v, tmp, sa = w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
    _mm(a, a, a2)
    _mm(a2, a2, a4)
    _mm(a4, a2, a6)
    d4 = _onenorm(a4) ** (1 / 4)
    d6 = _onenorm(a6) ** (1 / 6)
    if not (math.isfinite(d4) and math.isfinite(d6)):  # powers overflowed (inf or NaN)
        return False
    eta = max(d4, d6)
    d8 = 0.0
    for mi in range(4):
        m = _DEGREES[mi]
        if m == 7:
            _mm(a4, a4, a8)
            d8 = _onenorm(a8) ** (1 / 8)
            if not math.isfinite(d8):
                return False
            eta = max(d6, d8)
        if eta <= _THETA[mi] and _ell(a, mi, absa, wv[0], wv[1]) == 0:
            half = (m + 1) // 2
            for i in range(n):
                for j in range(n):
                    su = _B[mi, 1] if i == j else 0.0  # b1 I + b3 A^2 + b5 A^4 + ...
                    sv = _B[mi, 0] if i == j else 0.0
                    for k in range(1, half):
                        pk = a2 if k == 1 else a4 if k == 2 else a6 if k == 3 else a8
                        su += _B[mi, 2 * k + 1] * pk[i, j]
                        sv += _B[mi, 2 * k] * pk[i, j]
                    tmp[i, j] = su
                    v[i, j] = sv
            _mm(a, tmp, u)
            return _solve_pq(u, v, out)
    _mm(a4, a6, tmp)
    eta5 = min(eta, max(d8, _onenorm(tmp) ** (1 / 10)))
    if not math.isfinite(eta5):  # A's powers overflowed: the caller's NaN
        return False
    s = max(math.ceil(math.log2(eta5 / _THETA_13)), 0) if eta5 > 0 else 0
    scale = 2.0 ** -s
    for i in range(n):
        for j in range(n):
            sa[i, j] = a[i, j] * scale
    s += _ell(sa, 4, absa, wv[0], wv[1])
    if s and _triangular(a):
        return False
    scale = 2.0 ** -s
    c1, c2, c3 = scale ** 2, scale ** 4, scale ** 6
    b = _B[4]
    for i in range(n):
        for j in range(n):
            sa[i, j] = a[i, j] * scale
            x2, x4, x6 = a2[i, j] * c1, a4[i, j] * c2, a6[i, j] * c3
            a2[i, j], a4[i, j], a6[i, j] = x2, x4, x6
            tmp[i, j] = b[13] * x6 + b[11] * x4 + b[9] * x2  # u's inner sum
            a8[i, j] = b[12] * x6 + b[10] * x4 + b[8] * x2  # v's inner sum
    _mm(a6, tmp, u)
    _mm(a6, a8, v)
    for i in range(n):
        for j in range(n):
            di = 1.0 if i == j else 0.0
            u[i, j] += b[7] * a6[i, j] + b[5] * a4[i, j] + b[3] * a2[i, j] + b[1] * di
            v[i, j] += b[6] * a6[i, j] + b[4] * a4[i, j] + b[2] * a2[i, j] + b[0] * di
    _mm(sa, u, tmp)
    if not _solve_pq(tmp, v, out):
        return False
    for _ in range(s):
        _mm(out, out, tmp)
        for i in range(n):
            for j in range(n):
                out[i, j] = tmp[i, j]
    return True


@njit(cache=True, nogil=True, error_model="numpy")
def expm_stack(a, out, flag):
    """`_expm` of each ``a[e]`` into ``out[e]`` (all NaN for a matrix with a NaN or inf
    entry, as the NumPy path); ``flag[e] = 1`` for the elements left to the caller, and for
    results that are not finite."""
    n = a.shape[1]
    w = np.empty((8, n, n), dtype=a.dtype)
    absa = np.empty((n, n), dtype=np.float64)
    wv = np.empty((2, n), dtype=np.float64)
    for e in range(a.shape[0]):
        finite = True
        for i in range(n):
            for j in range(n):
                if not np.isfinite(a[e, i, j]):
                    finite = False
        if not finite:
            out[e, :, :] = np.nan
            continue
        ok = _expm(a[e], out[e], w, absa, wv)
        if ok:
            for i in range(n):
                for j in range(n):
                    if not np.isfinite(out[e, i, j]):
                        ok = False
        if not ok:
            flag[e] = 1
