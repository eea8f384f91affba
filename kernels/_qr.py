"""Householder QR of stacks of small matrices, one jitted loop over the stack: LAPACK's
unblocked ``?geqr2`` (the factorization) and ``?org2r`` / ``?ung2r`` (forming Q), which are
what ``?geqrf`` / ``?orgqr`` run for matrices this small.

The reflectors follow ``?larfg``: ``H = I - tau v v^H`` with ``v[0] = 1``, ``beta = -sign(Re
alpha) * ||(alpha, x)||`` (so R's diagonal is real and its signs are LAPACK's, hence
NumPy's), ``tau = (beta - alpha) / beta`` and ``tau = 0`` (``H = I``) where the column below
the diagonal is zero and ``alpha`` real. A column whose norm is below
``safmin = tiny / eps`` is rescaled first, as ``?larfg`` does. ``?larf``'s trimming of
trailing zeros in ``v`` and of all-zero columns is kept, so that inf and NaN spread as in
LAPACK. The factorization works on the transposed matrix (LAPACK's column-major
order: every reflector and every column it updates is contiguous).
"""
import math

import numpy as np
from numba import njit, types
from numba.extending import overload


def _scalar(like, re, im):
    """``re + i im`` in the kind of ``like`` (real: ``re``) (pure-Python stub)."""
    return complex(re, im) if isinstance(like, complex) else re


@overload(_scalar)
def _scalar_overload(like, re, im):
    if isinstance(like, types.Complex):
        return lambda like, re, im: complex(re, im)
    return lambda like, re, im: re


@njit(cache=True, nogil=True, error_model="numpy")
def _norm_below(w, i, j, m):
    """2-norm of ``w[j, i+1:m]``, scaled against overflow and underflow (as ?nrm2)."""
    scale = 0.0
    for r in range(i + 1, m):
        scale = max(scale, abs(w[j, r].real), abs(w[j, r].imag))
    if scale == 0.0 or not math.isfinite(scale):
        return scale
    s = 0.0
    for r in range(i + 1, m):
        re = w[j, r].real / scale
        im = w[j, r].imag / scale
        s += re * re + im * im
    return scale * math.sqrt(s)


@njit(cache=True, nogil=True, error_model="numpy")
def _lapy3(x, y, z):
    """``sqrt(x**2 + y**2 + z**2)`` without unnecessary overflow (LAPACK ``?lapy3``)."""
    x, y, z = abs(x), abs(y), abs(z)
    big = max(x, y, z)
    if big == 0.0 or not big <= 1.7976931348623157e308:
        return x + y + z
    return big * math.sqrt((x / big) ** 2 + (y / big) ** 2 + (z / big) ** 2)


@njit(cache=True, nogil=True, error_model="numpy")
def _householder(w, i, j, safmin):
    """LAPACK ``?larfg`` on ``(w[j, i], w[j, i+1:])`` in place: ``w[j, i]`` becomes beta and
    the entries below it the reflector's ``v[1:]``; returns tau."""
    m = w.shape[1]
    alpha = w[j, i]
    xnorm = _norm_below(w, i, j, m)
    alphr = float(alpha.real)
    alphi = float(alpha.imag)
    if xnorm == 0.0 and alphi == 0.0:
        return _scalar(alpha, 0.0, 0.0)
    beta = -math.copysign(_lapy3(alphr, alphi, xnorm), alphr)
    knt = 0
    if abs(beta) < safmin:
        rsafmn = 1.0 / safmin
        while True:
            knt += 1
            for r in range(i + 1, m):
                w[j, r] *= rsafmn
            beta *= rsafmn
            alphi *= rsafmn
            alphr *= rsafmn
            if abs(beta) >= safmin or knt >= 20:
                break
        xnorm = _norm_below(w, i, j, m)
        beta = -math.copysign(_lapy3(alphr, alphi, xnorm), alphr)
    tau = _scalar(alpha, (beta - alphr) / beta, -alphi / beta)
    scal = 1.0 / (_scalar(alpha, alphr, alphi) - beta)
    for r in range(i + 1, m):
        w[j, r] *= scal
    for _ in range(knt):
        beta *= safmin
    w[j, i] = beta
    return tau


@njit(cache=True, nogil=True, error_model="numpy")
def _apply_left(w, i, j, tau, c0, c1):
    """``w[c0:c1, i:] := H w[c0:c1, i:]`` for ``H = I - tau v v^H``, ``v = [1, w[j, i+1:]]``
    (LAPACK ``?larf``, side 'L', with its trimming: rows past v's last nonzero and
    columns past the last one that is nonzero in those rows are left alone)."""
    if tau == 0:
        return
    m = w.shape[1]
    lastv = m - 1
    while lastv > i and w[j, lastv] == 0:
        lastv -= 1
    lastc = c1 - 1
    while lastc >= c0:
        nonzero = False
        for r in range(i, lastv + 1):
            if w[lastc, r] != 0:
                nonzero = True
                break
        if nonzero:
            break
        lastc -= 1
    for c in range(c0, lastc + 1):
        s = w[c, i]
        for r in range(i + 1, lastv + 1):
            s += w[j, r].conjugate() * w[c, r]
        s *= tau
        w[c, i] -= s
        for r in range(i + 1, lastv + 1):
            w[c, r] -= w[j, r] * s


def _is_complex(x):
    """Whether ``x`` is a complex number (pure-Python stub)."""
    return isinstance(x, complex)


@overload(_is_complex)
def _is_complex_overload(x):
    flag = isinstance(x, types.Complex)
    return lambda x: flag


@njit(cache=True, nogil=True, error_model="numpy")
def _rounding_decides(w, i, m, stol):
    """Whether the reflector of column i (i >= 1: its entries are computed, not given) is
    one that rounding chooses. beta takes the sign of Re(alpha), and tau = 0 where the
    entries below the diagonal and Im(alpha) are exactly zero; where these are within
    ``stol`` of the column's norm, an exact zero in one order of operations is a rounding
    residue in another (integer-valued matrices meet this often), and LAPACK's R row and Q
    column can have the other sign. (Structural zeros decide nothing: a real column's last
    entry has none below it.)"""
    alpha = w[i, i]
    alphr = float(alpha.real)
    alphi = float(alpha.imag)
    xnorm = _norm_below(w, i, i, m)
    scale = _lapy3(alphr, alphi, xnorm)
    if scale == 0.0:
        return False  # an exactly zero column: `_geqr2`'s dependence test decides
    tol = stol * scale
    if abs(alphr) <= tol:
        return True
    if xnorm <= tol and abs(alphi) <= tol:
        return i + 1 < m or _is_complex(alpha)
    return False


@njit(cache=True, nogil=True, error_model="numpy")
def _geqr2(w, tau, safmin, rtol, stol, norms):
    """``?geqr2`` on ``w`` (column-major, see `qr_stack`); True where a reflector's
    direction or sign is decided by rounding, where LAPACK's rounding gives another
    (equally valid) Q: a column whose part on and below the diagonal is not above ``rtol``
    times its original norm (that norm not 0), or see `_rounding_decides`."""
    n, m = w.shape
    k = min(m, n)
    for j in range(k):
        norms[j] = _norm_below(w[j:j + 1], -1, 0, m)
    near = False
    for i in range(k):
        if i and not near:
            near = _rounding_decides(w, i, m, stol)
        t = _householder(w, i, i, safmin)
        tau[i] = t
        if abs(w[i, i]) <= rtol * norms[i] and norms[i] > 0:
            near = True
        if i < n - 1:
            _apply_left(w, i, i, t.conjugate(), i + 1, n)  # H(i)^H, as ?geqr2
    return near


@njit(cache=True, nogil=True, error_model="numpy")
def _org2r(q, tau, k):
    """LAPACK ``?org2r`` / ``?ung2r`` in place: the first ``k`` columns of ``q`` (m, ncols)
    hold reflectors; ``q`` becomes the first ncols columns of ``H(0) ... H(k-1)``."""
    ncols, m = q.shape
    zero = np.zeros(1, dtype=q.dtype)[0]
    for j in range(k, ncols):
        for r in range(m):
            q[j, r] = zero
        q[j, j] = zero + 1
    for i in range(k - 1, -1, -1):
        t = tau[i]
        if i < ncols - 1:
            _apply_left(q, i, i, t, i + 1, ncols)
        for r in range(i + 1, m):
            q[i, r] *= -t
        q[i, i] = 1 - t
        for r in range(i):
            q[i, r] = zero


@njit(cache=True, nogil=True, error_model="numpy")
def qr_stack(h, tau, q, r, want_q, want_r, safmin, rtol, stol, near):
    """For each element: ``h[e]``, the transpose of a matrix A (``(n, m)``: A's columns in
    rows, LAPACK's column-major order), is factored in place as ``?geqrf`` leaves A (R on
    and above the diagonal, the reflectors below), with ``tau[e]``. With ``want_r``,
    ``r[e]`` (rows, n) receives R (zero below the diagonal and in rows past min(m, n));
    with ``want_q``, ``q[e]`` (m, columns) receives Q's first columns. ``safmin`` is
    ``tiny / eps`` of the dtype (``?larfg``'s rescaling threshold); ``near[e]`` is set
    where `_geqr2` found a reflector that rounding decides (``rtol``, ``stol``: see there)."""
    n, m = h.shape[1], h.shape[2]
    k = min(m, n)
    zero = np.zeros(1, dtype=h.dtype)[0]
    ncols = q.shape[2]
    work = np.empty((ncols if want_q else 0, m), dtype=h.dtype)
    norms = np.empty(k)
    for e in range(h.shape[0]):
        w = h[e]
        near[e] = _geqr2(w, tau[e], safmin, rtol, stol, norms)
        if want_r:
            re = r[e]
            for i in range(re.shape[0]):
                for j in range(n):
                    re[i, j] = w[j, i] if j >= i and i < k else zero
        if want_q:
            for j in range(ncols):
                for i in range(m):
                    work[j, i] = w[j, i] if j < k else zero
            _org2r(work, tau[e], k)
            qe = q[e]
            for i in range(m):
                for j in range(ncols):
                    qe[i, j] = work[j, i]


@njit(cache=True, nogil=True, error_model="numpy")
def org2r_stack(q, tau):
    """``q[e]``, the transpose of an ``(m, ncols)`` matrix whose first ``tau.shape[1]``
    columns hold reflectors, becomes (the transpose of) the first ncols columns of their
    product, in place (``householder_product``)."""
    k = tau.shape[1]
    for e in range(q.shape[0]):
        _org2r(q[e], tau[e], k)
