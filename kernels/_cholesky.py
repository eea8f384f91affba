"""Cholesky factorization of stacks of Hermitian positive-definite matrices (any n).

LAPACK ``potf2``'s column order on the lower triangle: only that triangle is read (with
``upper=True`` the conjugate of the upper triangle, i.e. the factor of ``A^H``), and only the
real part of the diagonal. ``info = -(j + 1)`` at the first pivot ``d`` (the diagonal entry
less the squares to its left) that is not above ``rtol`` times its diagonal entry, or is
NaN: the leading minor of order j + 1 is not positive, or is to working precision, and the
caller has NumPy's LAPACK decide the element (whether rounding makes a semidefinite
matrix's pivot exactly 0, or what OpenBLAS's potrf does with NaN, is LAPACK's to say).
"""
import numpy as np
from numba import njit

from ._util import abs2, recip


@njit(cache=True, nogil=True, error_model="numpy")
def cholesky_kernel(x, n, w, upper, rtol):
    """Lower factor of the flat matrix ``x`` into the flat work buffer ``w``; returns info."""
    for j in range(n):
        for i in range(j, n):
            w[i * n + j] = np.conj(x[j * n + i]) if upper else x[i * n + j]
    for j in range(n):
        d = w[j * n + j].real
        h = d * rtol
        for c in range(j):
            d -= abs2(w[j * n + c])
        if not d > h:
            return -(j + 1)
        d = np.sqrt(d)
        w[j * n + j] = d
        rd = recip(d)  # potf2 scales the column by 1 / d
        for i in range(j + 1, n):
            s = w[i * n + j]
            for c in range(j):
                s -= w[i * n + c] * np.conj(w[j * n + c])
            w[i * n + j] = s * rd
    return 0


@njit(cache=True, nogil=True, error_model="numpy")
def cholesky_gufunc(a, n, out, info, upper, rtol):
    """``out[b]`` = lower (or, with ``upper``, upper) Cholesky factor of ``a[b]``."""
    w = np.empty(n * n, dtype=a.dtype)
    for b in range(a.shape[0]):
        st = cholesky_kernel(a[b], n, w, upper, rtol)
        info[b] = st
        if st == 0:
            y = out[b]
            for i in range(n):
                for j in range(n):
                    if upper:
                        y[i * n + j] = np.conj(w[j * n + i]) if j >= i else 0
                    else:
                        y[i * n + j] = w[i * n + j] if j <= i else 0
