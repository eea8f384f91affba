"""det and slogdet of stacks of matrices: closed forms for n <= 4, LU above.

The closed forms (cofactor expansions) are branch-free, so the batch loop vectorizes. Where
their answer cannot be trusted to agree with NumPy's LU-based one, the element is recomputed
by LU (``_lu.py``):

- the closed-form det is not above ``rtol`` times the sum of the moduli of the terms it
  adds up: they cancelled, the matrix is singular to working precision, and the rounding
  decides whether LAPACK's det is exactly 0;
- it is not finite (NaN/inf input, or an intermediate overflow);
- for slogdet, it is outside ``[16 sqrt(tiny), 1 / (16 sqrt(tiny))]`` (intermediate products
  may have under- or overflowed).

LU in turn gives NaN for an element with a negligible pivot, which the caller has NumPy's
LAPACK redo. A matrix of rank n - 2 or less with inexact entries can escape the first test
(every term is then rounding residue and nothing cancels); its det is then a tiny number
where LAPACK's may be exactly 0.
"""
import math

import numpy as np
from numba import njit, types
from numba.extending import overload

from ._lu import det_lu_kernel, slogdet_lu_kernel
from ._util import abs2, cabs1, phase
from ._vmath import vlog


def unit(d, ad):
    """``d / |d|`` given ``ad = |d| > 0``: NumPy's slogdet sign (pure-Python stub)."""
    return phase(d)


@overload(unit)
def _unit_overload(d, ad):
    if isinstance(d, types.Complex):
        def unit_complex(d, ad):
            return d * (1 / ad)  # one real division instead of a complex one
        return unit_complex

    def unit_real(d, ad):
        return -1.0 if d < 0 else 1.0
    return unit_real


def modulus(d):
    """``|d|`` where ``|re| + |im|`` of ``d`` is in slogdet's trusted range (stub)."""
    return abs(d)


@overload(modulus)
def _modulus_overload(d):
    if isinstance(d, types.Complex):
        def modulus_complex(d):
            return np.sqrt(abs2(d))  # safe in the trusted range; hypot is a libm call
        return modulus_complex

    def modulus_real(d):
        return abs(d)
    return modulus_real


@njit(cache=True, nogil=True)
def det2_kernel(x):
    """``(det, bound)``: the 2x2 det and the sum of the moduli (``|re| + |im|``) of the
    terms it adds up, the scale of its rounding error."""
    t0 = x[0] * x[3]
    t1 = x[1] * x[2]
    return t0 - t1, cabs1(t0) + cabs1(t1)


@njit(cache=True, nogil=True)
def det3_kernel(x):
    """``(det, bound)`` of a 3x3 matrix by expansion along the first row; as det2_kernel."""
    t0 = x[0] * (x[4] * x[8] - x[5] * x[7])
    t1 = x[1] * (x[3] * x[8] - x[5] * x[6])
    t2 = x[2] * (x[3] * x[7] - x[4] * x[6])
    return t0 - t1 + t2, cabs1(t0) + cabs1(t1) + cabs1(t2)


@njit(cache=True, nogil=True)
def det4_kernel(x):
    """``(det, bound)`` of a 4x4 matrix by the Laplace expansion in the 2x2 minors of rows
    (0, 1) and rows (2, 3); as det2_kernel."""
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
    t0, t1, t2 = s0 * c5, s1 * c4, s2 * c3
    t3, t4, t5 = s3 * c2, s4 * c1, s5 * c0
    return (t0 - t1 + t2 + t3 - t4 + t5,
            cabs1(t0) + cabs1(t1) + cabs1(t2) + cabs1(t3) + cabs1(t4) + cabs1(t5))


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
    # cannot decide. A separate loop per n keeps the first pass vectorizable (with n a
    # runtime value inside it, LLVM vectorized nothing: 8 ns instead of 2 ns per 3x3).
    if n == 1:
        out[:] = a[:, 0]
        return
    if n == 2:
        redo = det2_pass(a, out, rtol)
    elif n == 3:
        redo = det3_pass(a, out, rtol)
    else:
        redo = det4_pass(a, out, rtol)
    if redo:
        for b in range(a.shape[0]):
            x = a[b]
            d, bound = det2_kernel(x) if n == 2 else (det3_kernel(x) if n == 3 else
                                                        det4_kernel(x))
            if untrusted(d, bound, rtol):
                out[b] = det_lu_kernel(x, n, w, piv, rtol)


@njit(cache=True, nogil=True, error_model="numpy")
def untrusted(d, bound, rtol):
    """1 where the closed-form det ``d`` may not stand, else 0: not above ``rtol`` times the
    ``bound`` of its terms, or not finite (``|re| + |im|``: no hypot call; it overflows only
    within a factor 2 of overflow, and then LU merely recomputes the element); no
    branches."""
    t = cabs1(d)
    return (t <= rtol * bound) | (t != t) | (t == np.inf)


@njit(cache=True, nogil=True, error_model="numpy")
def det2_pass(a, out, rtol):
    redo = 0
    for b in range(a.shape[0]):
        d, bound = det2_kernel(a[b])
        out[b] = d
        redo += untrusted(d, bound, rtol)
    return redo


@njit(cache=True, nogil=True, error_model="numpy")
def det3_pass(a, out, rtol):
    redo = 0
    for b in range(a.shape[0]):
        d, bound = det3_kernel(a[b])
        out[b] = d
        redo += untrusted(d, bound, rtol)
    return redo


@njit(cache=True, nogil=True, error_model="numpy")
def det4_pass(a, out, rtol):
    redo = 0
    for b in range(a.shape[0]):
        d, bound = det4_kernel(a[b])
        out[b] = d
        redo += untrusted(d, bound, rtol)
    return redo


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
        slog2_pass(a, sign, logabs, lo, hi, rtol)
    elif n == 3:
        slog3_pass(a, sign, logabs, lo, hi, rtol)
    elif n == 4:
        slog4_pass(a, sign, logabs, lo, hi, rtol)
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
def slog_store(det_bound, sign, logabs, b, lo, hi, rtol):
    d, bound = det_bound
    t = cabs1(d)
    ad = modulus(d)
    sign[b] = unit(d, ad)
    logabs[b] = ad if (t >= lo) & (t <= hi) & (t > rtol * bound) else -1


@njit(cache=True, nogil=True, error_model="numpy")
def slog2_pass(a, sign, logabs, lo, hi, rtol):
    for b in range(a.shape[0]):
        slog_store(det2_kernel(a[b]), sign, logabs, b, lo, hi, rtol)


@njit(cache=True, nogil=True, error_model="numpy")
def slog3_pass(a, sign, logabs, lo, hi, rtol):
    for b in range(a.shape[0]):
        slog_store(det3_kernel(a[b]), sign, logabs, b, lo, hi, rtol)


@njit(cache=True, nogil=True, error_model="numpy")
def slog4_pass(a, sign, logabs, lo, hi, rtol):
    for b in range(a.shape[0]):
        slog_store(det4_kernel(a[b]), sign, logabs, b, lo, hi, rtol)


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
