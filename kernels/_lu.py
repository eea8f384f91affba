"""LU with partial pivoting for stacks of small matrices: det, slogdet, inv, solve.

Matrices arrive flattened, as a C-contiguous ``(N, n*n)`` array (``(N, n*k)`` for right-hand
sides): indexing a flat row with computed offsets keeps the generated loops simple (a batched
3x3 det over ``(N, 9)`` ran 4-8x faster than over ``(N, 3, 3)`` here). Each element is
factored in a small work buffer allocated once per call. The factorization follows LAPACK's
``getf2``: the first row whose pivot magnitude (``|re| + |im|`` for complex, like ``i?amax``)
is largest becomes the pivot row. A pivot that is not above ``rtol`` times the sum of the
moduli of the U entries above it (they bound the terms that were subtracted from it), or is
zero, subnormal or NaN, stops with ``info = -(j + 1)`` (1-based): the matrix is singular
to working precision (or holds NaN or inf), and the caller has NumPy's LAPACK redo that
element, because whether LAPACK's rounding lands on an exactly zero pivot (its "Singular
matrix") is not something a different order of operations can reproduce.
"""
import math

import numpy as np
from numba import njit

from ._util import TINY64, cabs1, phase, recip


@njit(cache=True, nogil=True, error_model="numpy")
def getrf_kernel(w, n, piv, sfmin, rtol):
    """Factor the row-major ``n x n`` matrix in ``w`` in place as P L U.

    Like LAPACK getf2, the column below a pivot is scaled by the pivot's reciprocal.

    Returns ``(info, nswaps)``: ``info = -(j + 1)`` at the first negligible pivot (see the
    module docstring; the factorization stops there), or at a subnormal one (``|pivot| <
    sfmin``, the dtype's smallest normal number, where getf2 divides instead and the
    subnormal arithmetic decides the inf/NaN pattern and even slogdet's sign: LAPACK's
    call), else 0; ``nswaps`` is the number of row interchanges.
    """
    nswaps = 0
    for j in range(n):
        p = j
        m = cabs1(w[j * n + j])
        for i in range(j + 1, n):
            t = cabs1(w[i * n + j])
            if t > m:
                m = t
                p = i
        piv[j] = p
        bound = 0.0
        for k in range(j):
            bound += cabs1(w[k * n + j])
        if not (m > bound * rtol and m >= sfmin):
            return -(j + 1), nswaps
        if p != j:
            nswaps += 1
            for k in range(n):
                tmp = w[j * n + k]
                w[j * n + k] = w[p * n + k]
                w[p * n + k] = tmp
        r = recip(w[j * n + j])
        for i in range(j + 1, n):
            l = w[i * n + j] * r
            w[i * n + j] = l
            for k in range(j + 1, n):
                w[i * n + k] -= l * w[j * n + k]
    return 0, nswaps


@njit(cache=True, nogil=True, error_model="numpy")
def getrs_kernel(w, n, piv, x, k):
    """Solve ``A X = B`` in place in the row-major ``n x k`` block ``x``, given getrf's factors."""
    for j in range(n):
        p = piv[j]
        if p != j:
            for c in range(k):
                tmp = x[j * k + c]
                x[j * k + c] = x[p * k + c]
                x[p * k + c] = tmp
    for j in range(n):
        for i in range(j + 1, n):
            l = w[i * n + j]
            for c in range(k):
                x[i * k + c] -= l * x[j * k + c]
    for j in range(n - 1, -1, -1):
        d = recip(w[j * n + j])  # OpenBLAS's triangular solves multiply by 1 / U[j, j] too
        for c in range(k):
            x[j * k + c] *= d
        for i in range(j):
            u = w[i * n + j]
            for c in range(k):
                x[i * k + c] -= u * x[j * k + c]


@njit(cache=True, nogil=True, error_model="numpy")
def slogdet_lu_kernel(a, n, w, piv, rtol):
    """``(sign, logabsdet)`` of the flat matrix ``a`` by LU, NumPy's way: the pivots' phases
    times the permutation's sign, and the sum of their log moduli. ``(NaN, NaN)`` where a
    pivot is negligible (see getrf_kernel): the caller has LAPACK redo the element."""
    for i in range(n * n):
        w[i] = a[i]
    info, nswaps = getrf_kernel(w, n, piv, TINY64, rtol)  # computed in double
    sign = w[0] * 0 + (1.0 if nswaps % 2 == 0 else -1.0)
    logabs = abs(w[0]) * 0
    if info != 0:
        return sign * np.nan, logabs + np.nan
    for j in range(n):
        u = w[j * n + j]
        sign = sign * phase(u)
        logabs += np.log(abs(u))
    return sign, logabs


@njit(cache=True, nogil=True, error_model="numpy")
def det_lu_kernel(a, n, w, piv, rtol):
    """det of the flat matrix ``a`` as the product of LU pivots; NaN where a pivot is
    negligible (see getrf_kernel): the caller has LAPACK redo the element.

    Where the running product under- or overflows although every pivot is finite and
    nonzero, falls back to ``sign * exp(logabsdet)`` as NumPy computes every det.
    """
    for i in range(n * n):
        w[i] = a[i]
    info, nswaps = getrf_kernel(w, n, piv, TINY64, rtol)  # computed in double
    if info != 0:
        return w[0] * np.nan
    d = w[0] * 0 + (1.0 if nswaps % 2 == 0 else -1.0)
    for j in range(n):
        d = d * w[j * n + j]
    ad = abs(d)
    if not (ad > 0 and ad < np.inf):  # complex overflow can also give NaN
        finite = True
        for j in range(n):
            if not np.isfinite(w[j * n + j]):
                finite = False
        if finite:
            sign, logabs = slogdet_lu_kernel(a, n, w, piv, rtol)
            d = sign * math.exp(logabs)
    return d


@njit(cache=True, nogil=True, error_model="numpy")
def inv_gufunc(a, n, out, info, sfmin, rtol):
    """``out[b] = inv(a[b])``; ``info[b] = -(j + 1)`` where pivot j is negligible (see
    getrf_kernel), and then ``out[b]`` is left unspecified (the caller redoes it)."""
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    for b in range(a.shape[0]):
        ab = a[b]
        for i in range(n * n):
            w[i] = ab[i]
        st, _ = getrf_kernel(w, n, piv, sfmin, rtol)
        info[b] = st
        if st == 0:
            x = out[b]
            for i in range(n * n):
                x[i] = 0
            for i in range(n):
                x[i * n + i] = 1
            getrs_kernel(w, n, piv, x, n)


@njit(cache=True, nogil=True, error_model="numpy")
def solve_gufunc(a, bb, n, k, out, info, sfmin, rtol):
    """``out[b] = solve(a[b], bb[b])`` for ``n x k`` right-hand sides; info as in inv."""
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    for b in range(a.shape[0]):
        ab = a[b]
        for i in range(n * n):
            w[i] = ab[i]
        st, _ = getrf_kernel(w, n, piv, sfmin, rtol)
        info[b] = st
        if st == 0:
            x = out[b]
            rhs = bb[b]
            for i in range(n * k):
                x[i] = rhs[i]
            getrs_kernel(w, n, piv, x, k)


@njit(cache=True, nogil=True, error_model="numpy")
def negligible_pivot(a, n, idx, info, rtol):
    """``info[b]`` = the order of the first negligible pivot (see getrf_kernel) in the LU
    of ``a[b]``, or n where there is none, for each ``b`` in ``idx``: the status reported
    for an element that LAPACK failed to factor."""
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    for t in range(idx.shape[0]):
        b = idx[t]
        ab = a[b]
        for i in range(n * n):
            w[i] = ab[i]
        st, _ = getrf_kernel(w, n, piv, TINY64, rtol)
        info[b] = -st if st < 0 else n
