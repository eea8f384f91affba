"""det and slogdet of stacks of matrices: closed forms for n <= 4, LU above.

The closed forms (cofactor expansions, generated into ``_small`` and, computed in SIMD lanes,
``_soa``) are branch-free. Where their answer cannot be trusted to be as accurate as
NumPy's LU-based one, the element is recomputed by LU (``_lu.py``):

- the closed-form det is not above ``ACCURATE`` times the bound of its rounding error (the
  sum of the moduli of the products it is built from, inside the minors too). Its relative
  error is then about eps times bound / |det|, while LU's is about eps times the condition
  number, which can be far smaller (singular values 1, 1e-5, 1e-10: 1e-6 against 1e-1).
  Below ``rtol`` the matrix is singular to working precision, and the rounding decides
  whether LAPACK's det is exactly 0 or a product of residues (about eps**2 of the scale at
  rank n - 2);
- it is not above ``32 tiny`` times the scale of the products that underflowed
  (``_util.untrusted``): a matrix with entries from 1e-240 to 1e277 can lose every digit
  that way;
- it is subnormal (LU then meets a subnormal pivot, and LAPACK's rounding decides);
- it is not finite (NaN/inf input, or an intermediate overflow);
- for slogdet, it is outside ``[16 sqrt(tiny), 1 / (16 sqrt(tiny))]`` (the modulus of a
  complex det is taken without hypot).

The first pass marks those elements (det: NaN; slogdet: -1 for ``|det|``), so that the
second touches only them. LU in turn gives NaN for an element with a negligible pivot,
which the caller has NumPy's LAPACK redo.
"""
import math

import numpy as np
from numba import njit

from . import _soa
from ._lu import det_lu_kernel, slogdet_lu_kernel
from ._util import tiny_of
from ._vmath import vlog

# A closed-form det stands where it is above ACCURATE times its bound (for 2x2 too: ad - bc
# lost up to 70x more than LU's pivoted form on near-singular matrices). On
# 3,000 random 3x3 matrices with singular values from 1 down to 1e-12 (and rows scaled),
# against exact dets: between 2**-10 and 1e-2 the closed form's largest relative error was
# 7.8e-14 and NumPy's 9.4e-14; between 1e-5 and 2**-10, 7.8e-12 against 6.4e-12 (median 4x
# NumPy's); further down it falls behind (1e-10..1e-7: 7.7e-7 against 6.4e-7, median 80x;
# below: 2e-3 against 6e-5). About 0.1% (3x3) and 0.24% (4x4) of Gaussian matrices fall
# below 2**-10 and are redone by LU.
ACCURATE = 2.0 ** -10


@njit(cache=True, nogil=True, error_model="numpy")
def det_gufunc(a, n, out, rtol):
    """``out[b] = det(a[b])`` for the flattened ``(N, n*n)`` stack ``a``; NaN for an
    element the caller must have LAPACK redo (see the module docstring). ``rtol`` is the
    negligible-pivot threshold."""
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    if n > 4:
        for b in range(a.shape[0]):
            out[b] = det_lu_kernel(a[b], n, w, piv, rtol)
        return
    if n == 1:
        out[:] = a[:, 0]
        return
    # One branch-free pass, then LU for the elements it marked (NaN), in the blocks it lists.
    utol = 32 * tiny_of(a)
    count = a.shape[0]
    blocks = np.empty(count // _soa.LANES + 1, dtype=np.intp)
    if n == 2:
        nb = _soa.det2_pass(a, out, max(rtol, ACCURATE), utol, blocks)
    elif n == 3:
        nb = _soa.det3_pass(a, out, max(rtol, ACCURATE), utol, blocks)
    else:
        nb = _soa.det4_pass(a, out, max(rtol, ACCURATE), utol, blocks)
    for i in range(nb):
        for b in range(blocks[i], min(blocks[i] + _soa.LANES, count)):
            if out[b] != out[b]:
                out[b] = det_lu_kernel(a[b], n, w, piv, rtol)


@njit(cache=True, nogil=True, error_model="numpy")
def slogdet_gufunc(a, n, sign, logabs, tiny, rtol):
    """``sign[b], logabs[b] = slogdet(a[b])``; ``tiny`` is the dtype's smallest normal.

    The closed form is trusted where ``|re| + |im|`` of its det lies in ``[lo, 1/lo]``,
    ``lo = 16 sqrt(tiny)`` (there ``sqrt(re**2 + im**2)`` neither under- nor overflows, so
    no hypot call is needed) and passes the tests of ``_util.untrusted``. A branch-free
    first pass stores ``|det|`` (or -1 where the closed form is not trusted); the second
    takes the logarithms, and LU refactors the marked elements (NaN for the caller to have
    LAPACK redo where LU finds a negligible pivot).
    """
    w = np.empty(n * n, dtype=a.dtype)
    piv = np.empty(n, dtype=np.intp)
    if n == 1 or n > 4:
        for b in range(a.shape[0]):
            sign[b], logabs[b] = slogdet_lu_kernel(a[b], n, w, piv, rtol)
        return
    lo = 16 * math.sqrt(tiny)
    hi = 1 / lo
    utol = 32 * tiny
    count = a.shape[0]
    blocks = np.empty(count // _soa.LANES + 1, dtype=np.intp)
    if n == 2:
        nb = _soa.slogdet2_pass(a, sign, logabs, lo, hi, max(rtol, ACCURATE), utol, blocks)
    elif n == 3:
        nb = _soa.slogdet3_pass(a, sign, logabs, lo, hi, max(rtol, ACCURATE), utol, blocks)
    else:
        nb = _soa.slogdet4_pass(a, sign, logabs, lo, hi, max(rtol, ACCURATE), utol, blocks)
    # The logarithms in one vectorised loop (libm's log is an opaque call); a marked
    # element (-1) becomes NaN there, which a trusted |det| in [lo, hi] never does.
    log_pass(logabs)
    for i in range(nb):
        for b in range(blocks[i], min(blocks[i] + _soa.LANES, count)):
            if logabs[b] != logabs[b]:
                sign[b], logabs[b] = slogdet_lu_kernel(a[b], n, w, piv, rtol)


@njit(cache=True, nogil=True, error_model="numpy")
def log_pass(x):
    """``x[:] = log(x)`` (float64 arithmetic, also for float32); NaN where x < 0."""
    for b in range(x.shape[0]):
        x[b] = vlog(np.float64(x[b]))


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
