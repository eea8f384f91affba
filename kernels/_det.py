"""det and slogdet of stacks of matrices: closed forms for n <= 4, LU above.

The closed forms (cofactor expansions) are branch-free, so the batch loop vectorizes. Where
their answer cannot be trusted to agree with NumPy's LU-based one, the element is recomputed
by LU (``_lu.py``): when the closed-form det is exactly 0 (LU decides whether a pivot is
exactly zero), not finite (NaN/inf input, or an intermediate overflow), or, for slogdet,
below ``sqrt(tiny)`` (intermediate products may have underflowed).
"""
import math

import numpy as np
from numba import njit

from ._lu import det_lu_kernel, slogdet_lu_kernel
from ._util import phase


@njit(cache=True, nogil=True)
def det2_kernel(x):
    return x[0] * x[3] - x[1] * x[2]


@njit(cache=True, nogil=True)
def det3_kernel(x):
    return (x[0] * (x[4] * x[8] - x[5] * x[7])
            - x[1] * (x[3] * x[8] - x[5] * x[6])
            + x[2] * (x[3] * x[7] - x[4] * x[6]))


@njit(cache=True, nogil=True)
def det4_kernel(x):
    # Laplace expansion in the 2x2 minors of rows (0, 1) and rows (2, 3).
    s0 = x[0] * x[5] - x[1] * x[4]
    s1 = x[0] * x[6] - x[2] * x[4]
    s2 = x[0] * x[7] - x[3] * x[4]
    s3 = x[1] * x[6] - x[2] * x[5]
    s4 = x[1] * x[7] - x[3] * x[5]
    s5 = x[2] * x[7] - x[3] * x[6]
    c5 = x[10] * x[15] - x[11] * x[14]
    c4 = x[9] * x[15] - x[11] * x[13]
    c3 = x[9] * x[14] - x[10] * x[13]
    c2 = x[8] * x[15] - x[11] * x[12]
    c1 = x[8] * x[14] - x[10] * x[12]
    c0 = x[8] * x[13] - x[9] * x[12]
    return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0


@njit(cache=True, nogil=True)
def det_small_kernel(x, n):
    if n == 1:
        return x[0]
    if n == 2:
        return det2_kernel(x)
    if n == 3:
        return det3_kernel(x)
    return det4_kernel(x)


@njit(cache=True, nogil=True)
def det_gufunc(a, n, out):
    """``out[b] = det(a[b])`` for the flattened ``(N, n*n)`` stack ``a``."""
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    if n > 4:
        for b in range(a.shape[0]):
            out[b] = det_lu_kernel(a[b], n, w, piv)
        return
    # One branch-free pass, then a second pass over the few elements the closed form
    # cannot decide, so that the first loop stays vectorizable.
    redo = False
    for b in range(a.shape[0]):
        d = det_small_kernel(a[b], n)
        out[b] = d
        redo |= not (abs(d) > 0 and abs(d) < np.inf)
    if redo and n > 1:
        for b in range(a.shape[0]):
            d = out[b]
            if not (abs(d) > 0 and abs(d) < np.inf):
                out[b] = det_lu_kernel(a[b], n, w, piv)


@njit(cache=True, nogil=True)
def slogdet_gufunc(a, n, sign, logabs, tiny):
    """``sign[b], logabs[b] = slogdet(a[b])``; ``tiny`` is the dtype's smallest normal."""
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    lo = math.sqrt(tiny)
    for b in range(a.shape[0]):
        x = a[b]
        if n <= 4:
            d = det_small_kernel(x, n)
            ad = abs(d)
            if ad >= lo and ad < np.inf:
                sign[b] = phase(d)
                logabs[b] = np.log(ad)
                continue
        s, la = slogdet_lu_kernel(x, n, w, piv)
        sign[b] = s
        logabs[b] = la
