"""det and slogdet of stacks of matrices: closed forms for n <= 4, LU above.

The closed forms (cofactor expansions, generated into ``_small`` and, computed in SIMD lanes,
``_soa``) are branch-free. Where their answer cannot be trusted to agree with NumPy's
LU-based one, the element is recomputed by LU (``_lu.py``):

- the closed-form det is not above ``rtol`` times the bound of its rounding error (the sum
  of the moduli of the products it is built from, inside the minors too): the matrix is
  singular to working precision (its terms cancelled, or, at rank n - 2 or less, are
  rounding residue themselves), and the rounding decides whether LAPACK's det is exactly 0
  or a product of residues (about eps**2 of the scale at rank n - 2);
- it is subnormal (LU then meets a subnormal pivot, and LAPACK's rounding decides);
- it is not finite (NaN/inf input, or an intermediate overflow);
- for slogdet, it is outside ``[16 sqrt(tiny), 1 / (16 sqrt(tiny))]`` (intermediate products
  may have under- or overflowed).

LU in turn gives NaN for an element with a negligible pivot, which the caller has NumPy's
LAPACK redo.
"""
import math

import numpy as np
from numba import njit

from . import _small, _soa
from ._lu import det_lu_kernel, slogdet_lu_kernel
from ._util import untrusted
from ._vmath import vlog


@njit(cache=True, nogil=True, error_model="numpy")
def det_gufunc(a, n, out, rtol):
    """``out[b] = det(a[b])`` for the flattened ``(N, n*n)`` stack ``a``; NaN for an
    element the caller must have LAPACK redo (see the module docstring)."""
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    if n > 4:
        for b in range(a.shape[0]):
            out[b] = det_lu_kernel(a[b], n, w, piv, rtol)
        return
    # One branch-free pass, then a second pass over the few elements the closed form
    # cannot decide.
    if n == 1:
        out[:] = a[:, 0]
        return
    if n == 2:
        redo = _soa.det2_pass(a, out, rtol)
    elif n == 3:
        redo = _soa.det3_pass(a, out, rtol)
    else:
        redo = _soa.det4_pass(a, out, rtol)
    if redo:
        for b in range(a.shape[0]):
            x = a[b]
            d, bound = (_small.det2_kernel(x) if n == 2 else
                        (_small.det3_kernel(x) if n == 3 else _small.det4_kernel(x)))
            if untrusted(d, bound, rtol):
                out[b] = det_lu_kernel(x, n, w, piv, rtol)


@njit(cache=True, nogil=True, error_model="numpy")
def slogdet_gufunc(a, n, sign, logabs, tiny, rtol):
    """``sign[b], logabs[b] = slogdet(a[b])``; ``tiny`` is the dtype's smallest normal.

    The closed form is trusted where ``|re| + |im|`` of its det lies in ``[lo, 1/lo]``,
    ``lo = 16 sqrt(tiny)``, and above ``rtol`` times the bound of its terms: there no
    product underflowed, ``sqrt(re**2 + im**2)`` neither under- nor overflows (so no hypot
    call is needed), and the matrix is not singular to working precision. A branch-free
    first pass stores ``|det|`` (or -1 where the closed form is not trusted); the second
    takes the logarithms and refactors the marked elements by LU (NaN for the caller to
    have LAPACK redo where LU finds a negligible pivot).
    """
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    lo = 16 * math.sqrt(tiny)
    hi = 1 / lo
    if n == 2:
        _soa.slogdet2_pass(a, sign, logabs, lo, hi, rtol)
    elif n == 3:
        _soa.slogdet3_pass(a, sign, logabs, lo, hi, rtol)
    elif n == 4:
        _soa.slogdet4_pass(a, sign, logabs, lo, hi, rtol)
    else:
        for b in range(a.shape[0]):
            sign[b], logabs[b] = slogdet_lu_kernel(a[b], n, w, piv, rtol)
        return
    # The logarithms in one vectorised loop (libm's log is an opaque call); an untrusted
    # element (-1) becomes NaN there, which a trusted |det| in [lo, hi] never does.
    redo = log_pass(logabs)
    if redo:
        for b in range(a.shape[0]):
            if logabs[b] != logabs[b]:
                sign[b], logabs[b] = slogdet_lu_kernel(a[b], n, w, piv, rtol)


@njit(cache=True, nogil=True, error_model="numpy")
def log_pass(x):
    """``x[:] = log(x)`` for x > 0 (float64 arithmetic, also for float32); the number of
    entries that were not positive (now NaN)."""
    bad = 0
    for b in range(x.shape[0]):
        v = np.float64(x[b])
        bad += not (v > 0)
        x[b] = vlog(v)
    return bad


@njit(cache=True, nogil=True, error_model="numpy")
def count_nan(x):
    """The number of NaN entries of the 1-d array ``x`` (real or complex): one pass, for
    the caller to skip its redo bookkeeping when nothing was marked."""
    c = 0
    for i in range(x.shape[0]):
        c += x[i] != x[i]
    return c


@njit(cache=True, nogil=True, error_model="numpy")
def count_nonfinite(x):
    """The number of entries of the 1-d array ``x`` that are inf or NaN (real or complex)."""
    c = 0
    for i in range(x.shape[0]):
        v = x[i]
        c += ~((abs(v.real) < np.inf) & (abs(v.imag) < np.inf))
    return c
