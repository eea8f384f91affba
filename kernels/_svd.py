"""Singular value decomposition of stacks of small matrices by one-sided Jacobi (Hestenes).

Each ``m x n`` matrix (``m <= n``; the boundary transposes taller ones) arrives as a flat
row of a C-contiguous ``(N, m*n)`` array. Its rows are rotated pairwise until they are
mutually orthogonal: ``B = Q A`` with ``Q`` unitary (the product of the rotations), so
``A = Q^H B``, the singular values are the row norms of ``B``, ``U = Q^H`` and the rows of
``Vh`` are the normalized rows of ``B``. Rows are contiguous, so every inner loop is a
unit-stride loop over one or two rows.

Numerics (Demmel & Veselic, "Jacobi's method is more accurate than QR", SIAM J. Matrix Anal.
Appl. 13 (1992); de Rijk, "A one-sided Jacobi algorithm for computing the singular value
decomposition on a vector computer", SIAM J. Sci. Stat. Comput. 10 (1989); LAPACK ``gesvj``):

- a pair of rows is rotated when ``|<b_i, b_j>| > tol ||b_i|| ||b_j||``; the sweep loop stops
  after a sweep without rotations, so the rows of ``Vh`` are orthonormal to about ``tol``
  whatever the singular values' sizes (the source of Jacobi's high relative accuracy);
- the rotation is Rutishauser's (the smaller of the two angles), on ``(b_i, p b_j)`` with the
  phase ``p = <b_i, b_j> / |<b_i, b_j>|`` for complex rows;
- de Rijk's pivoting: before the pairs of row ``i``, the remaining row of largest (running)
  norm is swapped into place, which speeds convergence and nearly sorts the result;
- the matrix is first scaled by a power of two so its largest entry lies in [0.5, 1): exact,
  and keeps 1e300 and 1e-300 inputs away from overflow and underflow;
- Gram entries and norms are summed in double (single-precision input too), and a pair with a
  row whose squared norm is below ``SAFE`` (rows graded by more than about 1e145, e.g.
  ``[[1, 1], [0, 1e-160]]``, whose squares underflow) gets its rotation from rows rescaled
  by powers of two (`rotation_scaled`; LAPACK ``gesvj`` rescales the same way). Without it
  such rows stopped rotating while still far from orthogonal (``Vh`` orthonormal to 4e-3);
- from ``QR_MIN`` rows on, Jacobi runs on the ``R`` of a column-pivoted Householder QR
  (Drmac & Veselic 2008), whose rows are closer to orthogonal: fewer sweeps;
- rows of ``Vh`` for zero singular values (and the ``n - m`` extra rows of a full ``Vh``) are
  completed to an orthonormal basis by twice-orthogonalized unit vectors.

Status codes: ``info = 1`` when the matrix holds NaN or inf (every output NaN), ``info = 2``
when the rows were not orthogonal after ``max_sweeps`` sweeps (the outputs hold the last
iterate).
"""
import math

import numpy as np
from numba import njit, types
from numba.extending import overload

from . import _parallel
from ._util import abs2

# reassociation lets LLVM vectorize the dot products; no finite-math flags (inf/NaN stay IEEE)
_FAST = {"reassoc", "contract", "nsz"}

# Below this squared row norm (in double) the plain sums lose digits to subnormal squares and
# products: with both squared norms above it, a Gram entry's underflow error (at most n times
# the smallest subnormal) is below eps * tol * ||b_i|| ||b_j|| for n up to 2**10.
SAFE = 2.0 ** -960


def wide(x):
    """``x`` in double precision (complex128 for complex): where Gram entries are summed
    (pure-Python stub; the jitted versions are a no-op for double input)."""
    return np.complex128(x) if np.iscomplexobj(x) else np.float64(x)


@overload(wide)
def _wide_overload(x):
    if x in (types.float64, types.complex128):
        return lambda x: x
    if isinstance(x, types.Complex):
        return lambda x: np.complex128(x)
    return lambda x: np.float64(x)


@njit(cache=True, nogil=True, fastmath=_FAST)
def _dot(b, io, jo, n):
    """``<b_i, b_j>`` of the rows starting at offsets io and jo, in double."""
    gamma = wide(b[io]) * 0
    for k in range(n):
        gamma += wide(b[io + k]) * np.conj(wide(b[jo + k]))
    return gamma


@njit(cache=True, nogil=True)
def rotation(alpha, beta, gamma, tol):
    """Rutishauser's rotation ``(c, s p, s conj(p), t |gamma|)`` making two rows with Gram
    entries ``alpha, beta, gamma`` orthogonal (their squared norms become ``alpha - t|gamma|``
    and ``beta + t|gamma|``); ``c = 2`` when they already are (to ``tol``)."""
    g = abs(gamma)
    if g == 0 or not g > tol * math.sqrt(alpha) * math.sqrt(beta):
        return 2.0, gamma * 0, gamma * 0, 0.0
    t = _tangent((beta - alpha) / (2.0 * g))
    c = 1.0 / math.sqrt(1.0 + t * t)
    s = c * t
    ph = gamma / g
    return c, s * ph, s * np.conj(ph), t * g


@njit(cache=True, nogil=True)
def _tangent(zeta):
    """Rutishauser's ``t = sign(zeta) / (|zeta| + sqrt(1 + zeta**2))``, the tangent of the
    smaller rotation angle (``1 / (2 zeta)`` where ``zeta**2`` would overflow)."""
    if abs(zeta) > 1e150:
        return 0.5 / zeta
    t = 1.0 / (abs(zeta) + math.sqrt(1.0 + zeta * zeta))
    return -t if zeta < 0 else t


@njit(cache=True, nogil=True)
def _row_exponent(b, io, n):
    """``e`` with every ``|re|``, ``|im|`` of row ``b_i`` below ``2**e``; None for a zero row."""
    amax = 0.0
    for k in range(n):
        x = wide(b[io + k])
        amax = max(amax, max(abs(x.real), abs(x.imag)))
    if amax == 0:
        return None
    return math.frexp(amax)[1]


@njit(cache=True, nogil=True)
def rotation_scaled(b, io, jo, n, tol):
    """`rotation` for rows ``b_i``, ``b_j`` (offsets io, jo; length n) whose squares may
    underflow: from the rows scaled by ``2**-e_i`` and ``2**-e_j`` (exact), with the powers of
    two put back into the rotation's parameter analytically. Returns ``(c, sp, sq)``, ``c = 2``
    where the rows are orthogonal to ``tol`` or one is zero."""
    z = wide(b[io]) * 0
    ei = _row_exponent(b, io, n)
    ej = _row_exponent(b, jo, n)
    if ei is None or ej is None:
        return 2.0, z, z
    # two factors each: 2**-e alone overflows for a row of subnormals
    fi, gi = math.ldexp(1.0, -ei // 2), math.ldexp(1.0, -ei - (-ei // 2))
    fj, gj = math.ldexp(1.0, -ej // 2), math.ldexp(1.0, -ej - (-ej // 2))
    alpha = 0.0
    beta = 0.0
    gamma = z
    for k in range(n):
        x = wide(b[io + k]) * fi * gi
        y = wide(b[jo + k]) * fj * gj
        alpha += abs2(x)
        beta += abs2(y)
        gamma += x * np.conj(y)
    g = abs(gamma)
    if g == 0 or not g > tol * math.sqrt(alpha) * math.sqrt(beta):
        return 2.0, z, z
    # the true alpha, beta, |gamma| are alpha 4**ei, beta 4**ej, g 2**(ei + ej)
    d = ej - ei
    if abs(d) <= 500:
        r = math.ldexp(1.0, d)
        t = _tangent((beta * r - alpha / r) / (2.0 * g))
    elif d < 0:  # |zeta| > 1e148: t = 1 / (2 zeta), without forming zeta
        r = math.ldexp(1.0, d)
        t = g * r / (beta * r * r - alpha)
    else:
        r = math.ldexp(1.0, -d)
        t = g * r / (beta - alpha * r * r)
    c = 1.0 / math.sqrt(1.0 + t * t)
    s = c * t
    ph = gamma / g
    return c, s * ph, s * np.conj(ph)


@njit(cache=True, nogil=True, fastmath=_FAST)
def _rotate(b, io, jo, n, c, sp, sq):
    """``b_i, b_j = c b_i - sp b_j, sq b_i + c b_j`` (sq = conj(sp))."""
    for k in range(n):
        x = b[io + k]
        y = b[jo + k]
        b[io + k] = c * x - sp * y
        b[jo + k] = sq * x + c * y


@njit(cache=True, nogil=True)
def _swap(b, io, jo, n):
    for k in range(n):
        t = b[io + k]
        b[io + k] = b[jo + k]
        b[jo + k] = t


@njit(cache=True, nogil=True, fastmath=_FAST)
def _norm2(b, io, n):
    """``||b_i||**2`` summed in double (digits lost to subnormal squares below SAFE)."""
    t = 0.0
    for k in range(n):
        t += abs2(wide(b[io + k]))
    return t


@njit(cache=True, nogil=True)
def row_norm(b, io, n):
    """``||b_i||`` in double, to full precision down to the smallest subnormal row."""
    t = _norm2(b, io, n)
    return math.sqrt(t) if t >= SAFE else _row_norm_scaled(b, io, n)


@njit(cache=True, nogil=True)
def _row_norm_scaled(b, io, n):
    e = _row_exponent(b, io, n)
    if e is None:
        return 0.0
    f, g = math.ldexp(1.0, -e // 2), math.ldexp(1.0, -e - (-e // 2))
    t = 0.0
    for k in range(n):
        t += abs2(wide(b[io + k]) * f * g)
    return math.ldexp(math.sqrt(t), e)


@njit(cache=True, nogil=True)
def jacobi_kernel(b, m, n, q, d, want_q, tol, max_sweeps):
    """Orthogonalize the rows of the flat ``m x n`` matrix ``b`` in place.

    ``q`` (``m x m``) receives the same rotations when ``want_q``; ``d`` is a double work
    array of ``m`` running squared row norms. Returns the number of sweeps used, or -1 if the rows
    were still not orthogonal after ``max_sweeps``.
    """
    for sweep in range(max_sweeps):
        for i in range(m):
            d[i] = _norm2(b, i * n, n)
        rotated = False
        for i in range(m - 1):
            # de Rijk: the largest remaining row first
            p = i
            for j in range(i + 1, m):
                if d[j] > d[p]:
                    p = j
            if p != i:
                _swap(b, i * n, p * n, n)
                if want_q:
                    _swap(q, i * m, p * m, m)
                t = d[i]
                d[i] = d[p]
                d[p] = t
            for j in range(i + 1, m):
                alpha = d[i]
                beta = d[j]
                safe = alpha >= SAFE and beta >= SAFE
                if safe:
                    c, sp, sq, tg = rotation(alpha, beta, _dot(b, i * n, j * n, n), tol)
                else:
                    c, sp, sq = rotation_scaled(b, i * n, j * n, n, tol)
                if c == 2.0:
                    continue
                rotated = True
                _rotate(b, i * n, j * n, n, c, sp, sq)
                if want_q:
                    _rotate(q, i * m, j * m, m, c, sp, sq)
                # the updated norms (de Rijk; gesvj), recomputed where cancellation could
                # have cost them more than a bit
                if safe:
                    d[i] = alpha - tg
                    d[j] = beta + tg
                if not safe or d[i] < 0.5 * alpha:
                    d[i] = _norm2(b, i * n, n)
                if not safe or d[j] < 0.5 * beta:
                    d[j] = _norm2(b, j * n, n)
        if not rotated:
            return sweep + 1
    return -1


@njit(cache=True, nogil=True)
def _complete(vh, start, k, n):
    """Fill rows ``start..k-1`` of the flat ``k x n`` matrix ``vh`` (rows ``0..start-1``
    orthonormal) with unit vectors orthogonal to all previous rows."""
    for r in range(start, k):
        # the unit vector e_c with the largest component outside the span: ||w_c||^2 =
        # 1 - sum_j |vh_j[c]|^2 for orthonormal rows
        best = 0
        bestw = -1.0
        for c in range(n):
            w = 1.0
            for j in range(r):
                w -= abs2(vh[j * n + c])
            if w > bestw:
                bestw = w
                best = c
        ro = r * n
        for c in range(n):
            vh[ro + c] = 0
        vh[ro + best] = 1
        for _ in range(2):  # twice is enough (Kahan, Parlett)
            for j in range(r):
                h = vh[ro + 0] * 0
                for c in range(n):
                    h += vh[ro + c] * np.conj(vh[j * n + c])
                for c in range(n):
                    vh[ro + c] -= h * vh[j * n + c]
        nrm = math.sqrt(_norm2(vh, ro, n))
        for c in range(n):
            vh[ro + c] /= nrm


@njit(cache=True, nogil=True)
def qrcp_kernel(b, m, n, q, want_q, perm, v, w, cn):
    """Householder QR with column pivoting of the flat ``m x n`` matrix ``b`` (``m <= n``),
    in place: ``b P = Q R`` leaves ``R`` in ``b``, ``Q^H`` applied to the rows of ``q``
    (when ``want_q``) and the column order in ``perm``. ``v``, ``w``, ``cn``: work arrays of
    sizes m, n, n.

    The rows of ``R`` are much closer to orthogonal than those of ``A`` (column pivoting
    grades them), so Jacobi on them converges in fewer sweeps (Drmac & Veselic, "New fast
    and accurate Jacobi SVD algorithm", SIAM J. Matrix Anal. Appl. 29 (2008)).
    """
    for c in range(n):
        perm[c] = c
    for j in range(m - 1):
        for c in range(j, n):
            cn[c] = 0.0
        for i in range(j, m):
            for c in range(j, n):
                cn[c] += abs2(b[i * n + c])
        p = j
        for c in range(j + 1, n):
            if cn[c] > cn[p]:
                p = c
        # The rest is negligible (b is scaled to entries of order 1 by scale_into): stop
        # here, before tau = 1/(nrm (nrm + |alpha|)) overflows on a rank-deficient matrix
        # (ones((12, 12)) gave inf singular values). Stopping early is exact: Jacobi
        # orthogonalizes whatever rows remain, it only converges in more sweeps.
        if not cn[p] > 1e-150:
            break
        if p != j:
            for i in range(m):
                t = b[i * n + j]
                b[i * n + j] = b[i * n + p]
                b[i * n + p] = t
            k = perm[j]
            perm[j] = perm[p]
            perm[p] = k
        nrm = math.sqrt(cn[p])
        alpha = b[j * n + j]
        aa = abs(alpha)
        ph = alpha * 0 + 1
        if aa > 0:
            ph = alpha / aa
        # H = I - tau v v^H with v = x + ph nrm e_1 maps x to -ph nrm e_1
        tau = 1.0 / (nrm * (nrm + aa))
        v[j] = ph * (aa + nrm)
        for i in range(j + 1, m):
            v[i] = b[i * n + j]
        _reflect(b, n, j, m, j, n, v, w, tau)
        b[j * n + j] = -ph * nrm
        for i in range(j + 1, m):
            b[i * n + j] = 0
        if want_q:
            _reflect(q, m, j, m, 0, m, v, w, tau)


@njit(cache=True, nogil=True, fastmath=_FAST)
def _reflect(x, ld, r0, r1, c0, c1, v, w, tau):
    """Rows r0..r1-1, columns c0..c1-1 of the flat matrix x (row length ld) times
    ``I - tau v v^H`` from the left: two passes of contiguous row operations."""
    for c in range(c0, c1):
        w[c] = 0
    for i in range(r0, r1):
        cv = np.conj(v[i])
        for c in range(c0, c1):
            w[c] += cv * x[i * ld + c]
    for i in range(r0, r1):
        t = tau * v[i]
        for c in range(c0, c1):
            x[i * ld + c] -= t * w[c]


@njit(cache=True, nogil=True)
def svd_kernel(a, m, n, b, q, d, order, perm, v, w, cn, u, s, vh, k_full, want_uv, tol,
               max_sweeps, precondition):
    """SVD of the flat ``m x n`` matrix ``a`` (``m <= n``), one-sided Jacobi on its rows.

    Writes ``s`` (``m``, descending) and, with ``want_uv``, ``u`` (``m x m``) and ``vh``
    (``k_full x n``, ``k_full`` = m or n). ``b``, ``q``, ``d`` and ``order`` are work
    arrays of sizes ``m*n``, ``m*m``, ``m``, ``m``; ``perm``, ``v``, ``w``, ``cn`` those
    of `qrcp_kernel`, used when ``precondition``. Returns the status code (module doc).
    """
    e = scale_exponent(a, m * n)
    if e == -(1 << 30):
        fail_kernel(m, u, s, vh, k_full, n, want_uv)
        return 1
    scale_into(a, b, m * n, e)
    if want_uv:
        for i in range(m * m):
            q[i] = 0
        for i in range(m):
            q[i * m + i] = 1
    if precondition:
        qrcp_kernel(b, m, n, q, want_uv, perm, v, w, cn)
    else:
        for c in range(n):
            perm[c] = c
    used = jacobi_kernel(b, m, n, q, d, want_uv, tol, max_sweeps)
    finish_kernel(b, q, d, order, perm, m, n, e, u, s, vh, k_full, want_uv)
    return 0 if used > 0 else 2


@njit(cache=True, nogil=True)
def finish_kernel(b, q, d, order, perm, m, n, e, u, s, vh, k_full, want_uv):
    """Write ``s`` (times ``2**e``), ``u`` and ``vh`` from the converged rows ``b`` and the
    accumulated rotations ``q``, sorted by descending row norm; column ``c`` of ``b`` is
    column ``perm[c]`` of ``vh``."""
    for i in range(m):
        d[i] = row_norm(b, i * n, n)
        order[i] = i
    for i in range(m):  # selection sort, descending (de Rijk leaves it nearly sorted)
        p = i
        for j in range(i + 1, m):
            if d[order[j]] > d[order[p]]:
                p = j
        t = order[i]
        order[i] = order[p]
        order[p] = t
    nonzero = m
    for i in range(m):
        r = order[i]
        s[i] = math.ldexp(d[r], e)
        if d[r] == 0 and nonzero == m:
            nonzero = i
    if want_uv:
        for i in range(m):
            r = order[i]
            for c in range(m):
                u[c * m + i] = np.conj(q[r * m + c])
            if i < nonzero:
                # below 2**-1000 the reciprocal of a row norm may overflow: scale up first
                f = 1.0 if d[r] > 1e-300 else 2.0 ** 600
                inv = 1.0 / (d[r] * f)
                for c in range(n):
                    vh[i * n + perm[c]] = (b[r * n + c] * f) * inv
        if nonzero < k_full:
            _complete(vh, nonzero, k_full, n)


@njit(cache=True, nogil=True)
def fail_kernel(m, u, s, vh, k_full, n, want_uv):
    """NaN-fill the outputs of a non-finite matrix."""
    for i in range(m):
        s[i] = np.nan
    if want_uv:
        for i in range(m * m):
            u[i] = np.nan
        for i in range(k_full * n):
            vh[i] = np.nan


@njit(cache=True, nogil=True)
def scale_into(a, b, size, e):
    """``b = a * 2**-e``, exactly (two factors where ``2**-e`` alone would overflow)."""
    f = math.ldexp(1.0, -e // 2)
    g = math.ldexp(1.0, -e - (-e // 2))
    for i in range(size):
        b[i] = a[i] * f * g


@njit(cache=True, nogil=True)
def scale_exponent(a, size):
    """``e`` with ``max |a| < 2**e`` (0 for a zero matrix), or -1 << 30 for NaN/inf."""
    amax = 0.0
    for i in range(size):
        t = abs(a[i])
        if t > amax:
            amax = t
        elif not t <= amax:  # NaN
            return -(1 << 30)
    if amax == np.inf:
        return -(1 << 30)
    if amax == 0:
        return 0
    return math.frexp(amax)[1]


@njit(cache=True, nogil=True)
def svd_gufunc(a, m, n, u, s, vh, k_full, want_uv, tol, max_sweeps, precondition, info):
    """``svd_kernel`` over every row of the flat batch ``a`` (``(N, m*n)``)."""
    b = np.empty(m * n, dtype=a.dtype)
    q = np.empty(m * m, dtype=a.dtype)
    d = np.empty(m, dtype=np.float64)
    order = np.empty(m, dtype=np.int64)
    perm = np.empty(n, dtype=np.int64)
    v = np.empty(m, dtype=a.dtype)
    w = np.empty(n, dtype=a.dtype)
    cn = np.empty(n, dtype=s.dtype)
    for i in range(a.shape[0]):
        ui = u[i] if want_uv else u[0]
        vi = vh[i] if want_uv else vh[0]
        info[i] = svd_kernel(a[i], m, n, b, q, d, order, perm, v, w, cn, ui, s[i], vi, k_full,
                             want_uv, tol, max_sweeps, precondition)


# -- the boundary ---------------------------------------------------------------------------
_REAL = {np.dtype(t).char: (np.dtype(t).type(0).real.dtype, float(np.finfo(t).eps))
         for t in (np.float32, np.float64, np.complex64, np.complex128)}
MAX_SWEEPS = 40
PARALLEL_WORK = 12_000
# from this many rows on, Jacobi runs on the R of a pivoted QR (fewer sweeps; measured)
QR_MIN = 8


def svd(a, compute_uv=True, full_matrices=True):
    """SVD of every matrix of a ``(..., m, n)`` stack, in a's (supported) dtype.

    Returns ``(u, s, vh, info)``: ``s`` of shape ``(..., k)``, ``k = min(m, n)``, descending,
    in the real dtype of a's precision; ``u`` ``(..., m, m)`` and ``vh`` ``(..., n, n)``
    (``full_matrices``) or ``(..., m, k)`` and ``(..., k, n)``, both None unless
    ``compute_uv``; ``info`` of the batch shape (int32): 0 on success, 1 where the matrix
    holds NaN or inf (its outputs are NaN), 2 where Jacobi did not converge. Any layout and
    byte order in; ``a`` is never modified.
    """
    small = api._small_stack(a, matrix=True)
    if small is not None and small[1] >= 2:
        count, n, _ = small
        dtype = a.dtype
        if count * n ** 3 * (3 if dtype.kind == "c" else 1) < PARALLEL_WORK:  # serial
            s = np.empty(a.shape[:-1], dtype=_REAL[dtype.char][0])
            info = np.zeros(a.shape[:-2], dtype=np.int32)
            if compute_uv:
                u = np.empty_like(a)
                vh = np.empty_like(a)
                _svd_small.svd_stack(a, u, s, vh, True, MAX_SWEEPS, info)
                return u, s, vh, info
            none = api.placeholder(dtype, n)
            _svd_small.svd_stack(a, none, s, none, False, MAX_SWEEPS, info)
            return None, s, None, info
    a = np.asarray(a)
    if a.ndim < 2:
        raise ValueError(f"expected a (..., m, n) stack, got shape {a.shape}")
    cut = api._repeated_axes(a) if a.size else None
    if cut is not None:
        return tuple(api._repeat(a.shape[:-2], *svd(*cut, compute_uv, full_matrices)))
    perm = api._batch_order(a)
    if perm is not None:
        return api._in_order(perm, svd, (a,), compute_uv, full_matrices)
    dtype = api._native(a.dtype)
    real, eps = _REAL[dtype.char]
    batch = a.shape[:-2]
    m, n = a.shape[-2:]
    k = min(m, n)
    count = math.prod(batch)
    full = bool(full_matrices)
    uv = bool(compute_uv)
    s = np.empty(batch + (k,), dtype=real)
    info = np.zeros(batch, dtype=np.int32)
    if count == 0 or k == 0:
        u = vh = None
        if uv:  # LAPACK's answer for k == 0: identity factors for the empty side
            u = np.empty(batch + (m, m if full else k), dtype=dtype)
            vh = np.empty(batch + (n if full else k, n), dtype=dtype)
            u[...] = np.eye(*u.shape[-2:], dtype=dtype)
            vh[...] = np.eye(*vh.shape[-2:], dtype=dtype)
        return u, s, vh, info
    tall = m > n
    if tall:  # A = U S Vh  <=>  A^H = V S U^H: orthogonalize the rows of A^H
        a = np.conj(np.swapaxes(a, -1, -2)) if dtype.kind == "c" else np.swapaxes(a, -1, -2)
        m, n = n, m
    k_full = n if full else m
    x = api._prepare(a, dtype).reshape(count, m * n)
    if uv:  # the factors of the wide (m <= n) problem
        uu = np.empty(batch + (m, m), dtype=dtype)
        vv = np.empty(batch + (k_full, n), dtype=dtype)
        uf, vf = uu.reshape(count, m * m), vv.reshape(count, k_full * n)
    else:
        uf = vf = np.empty((1, 1), dtype=dtype)
    tol = eps * math.sqrt(n)
    sf, inf = s.reshape(count, k), info.reshape(count)
    if m == n and n in (2, 3):
        small = _svd_small.svd2_gufunc if n == 2 else _svd_small.svd3_gufunc

        def kernel(x, uf, sf, vf, inf):
            small(x, uf, sf, vf, uv, tol, MAX_SWEEPS, inf)
    else:
        def kernel(x, uf, sf, vf, inf):  # svd_gufunc allocates its work arrays per call
            svd_gufunc(x, m, n, uf, sf, vf, k_full, uv, tol, MAX_SWEEPS, m >= QR_MIN, inf)
    # a second thread pays from about 0.5 ms of serial work (about 40 ns * m * n * max(m, n)
    # per real matrix, measured at 3x3; complex costs about 3x)
    min_count = max(2, PARALLEL_WORK // (m * n * n * (3 if dtype.kind == "c" else 1)))
    _parallel.run(kernel, (x, uf, sf, vf, inf), count, min_count,
                  batched=(0, 1, 2, 3, 4) if uv else (0, 2, 4))
    if not uv:
        return None, s, None, info
    if tall:  # U = (Vh of A^H)^H, Vh = (U of A^H)^H
        u = np.ascontiguousarray(np.swapaxes(vv, -1, -2))
        vh = np.ascontiguousarray(np.swapaxes(uu, -1, -2))
        if dtype.kind == "c":
            np.conjugate(u, out=u)
            np.conjugate(vh, out=vh)
        return u, s, vh, info
    return uu, s, vv, info


# at the end: api and _svd_small import this module
from . import _svd_small, api  # noqa: E402
