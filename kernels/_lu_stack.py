"""LAPACK's LU factorization and triangular solves for stacks of small matrices, one jitted
loop over the stack: ``lu_factor`` (``?getf2``), ``lu_solve`` (``?getrs``) and
``solve_triangular`` (``?trsm`` with ``side='L'``).

The factorization follows LAPACK's semantics to the end: an exactly zero pivot is recorded
in ``info`` (1-based, the first one), the column below it is left unscaled and the
factorization goes on. Whether a matrix that is singular to working precision meets an
exact zero depends on the order of the rounding (OpenBLAS's ``getrf`` finds one in
``[[1, 2, 3], [4, 5, 6], [7, 8, 9]]``, this loop a pivot of 1e-16), so, as for det and inv
(``_lu.getrf_kernel``), elements with a negligible pivot are flagged and the caller has
LAPACK redo them: which matrices are singular stays LAPACK's decision. The
triangular solves check nothing: a zero diagonal gives inf or NaN, as BLAS ``?trsm`` does.

Stacks arrive as C-contiguous ``(count, m, n)`` arrays and are overwritten in place (the
caller passes copies). ``trans`` selects ``op(A)``: 0 for ``A``, 1 for ``A^T``, 2 for
``A^H``.
"""
import numpy as np
from numba import njit, types
from numba.extending import overload

from ._util import cabs1, recip, swap_rows, tiny_of


@njit(cache=True, nogil=True, error_model="numpy")
def _getf2(w, piv, sfmin, rtol):
    """Factor the ``(m, n)`` matrix ``w`` in place as ``P L U`` (LAPACK ``?getf2``); ``piv``
    receives the 1-based interchanges. Returns ``(info, near)``: the 1-based index of the
    first exactly zero pivot, or 0; and whether some pivot was negligible (as in
    ``_lu.getrf_kernel``: not above ``rtol`` times the moduli of the U entries above it, or
    subnormal, or NaN), where whether LAPACK's rounding lands on an exact zero is not
    something this order of operations reproduces."""
    m, n = w.shape
    info = 0
    near = False
    for j in range(min(m, n)):
        # i?amax: the first row of largest |re| + |im|
        jp = j
        big = cabs1(w[j, j])
        for i in range(j + 1, m):
            t = cabs1(w[i, j])
            if t > big:
                big = t
                jp = i
        piv[j] = jp + 1
        bound = 0.0
        for k in range(j):
            bound += cabs1(w[k, j])
        if not (big > bound * rtol and big >= sfmin):
            near = True
        if w[jp, j] != 0:
            if jp != j:
                for c in range(n):
                    tmp = w[j, c]
                    w[j, c] = w[jp, c]
                    w[jp, c] = tmp
            d = w[j, j]
            if abs(d) >= sfmin:
                r = recip(d)
                for i in range(j + 1, m):
                    w[i, j] *= r
            else:  # a subnormal pivot: its reciprocal would overflow
                for i in range(j + 1, m):
                    w[i, j] /= d
        elif info == 0:
            info = j + 1
        # the rank-1 update of the trailing block. ?ger leaves a column untouched where row j
        # is zero, so an inf or NaN below the pivot does not spread into it: the same here,
        # with a branch-free (vectorized) row update wherever the multiplier is finite, since
        # l * 0 is then an exact zero
        for i in range(j + 1, m):
            l = w[i, j]
            if np.isfinite(l):
                for c in range(j + 1, n):
                    w[i, c] -= l * w[j, c]
            else:
                for c in range(j + 1, n):
                    u = w[j, c]
                    if u != 0:
                        w[i, c] -= l * u
    return info, near


@njit(cache=True, nogil=True, error_model="numpy")
def getf2_stack(lu, piv, info, near, rtol):
    """``lu[e], piv[e], info[e] = getf2(lu[e])`` for each element of the stack, in place;
    ``near[e] = 1`` where a pivot was negligible (see `_getf2`)."""
    sfmin = tiny_of(lu)
    for e in range(lu.shape[0]):
        info[e], flag = _getf2(lu[e], piv[e], sfmin, rtol)
        near[e] = flag


@njit(cache=True, nogil=True, error_model="numpy")
def _op(a, t, trans):
    """``t = op(a)`` for ``trans`` 1 (transpose) or 2 (conjugate transpose), row-major: the
    solves below then read rows, whatever ``trans``."""
    n = a.shape[0]
    for i in range(n):
        for j in range(n):
            t[i, j] = a[j, i] if trans == 1 else a[j, i].conjugate()


def _by_zero(a):
    """``a / 0`` as OpenBLAS's ?trsm gives it (pure-Python stub)."""
    return a / 0.0


@overload(_by_zero)
def _by_zero_overload(a):
    if isinstance(a, types.Complex):
        # ztrsm's reciprocal of a zero diagonal is NaN + NaN i, and so is every product with
        # it (numba's own complex division would raise ZeroDivisionError)
        nan = a(complex(np.nan, np.nan))
        return lambda a: nan
    return lambda a: a / 0.0  # +-inf, or NaN for 0 / 0, as dtrsm's a * (1 / 0)


@njit(cache=True, nogil=True, error_model="numpy")
def _div(a, d):
    """``a / d``, with BLAS's inf or NaN for ``d == 0``."""
    if d == 0:
        return _by_zero(a)
    return a / d


@njit(cache=True, nogil=True, error_model="numpy")
def _trsm(t, x, lower, unit):
    """Overwrite the ``(n, k)`` block ``x`` with ``T^{-1} x``, ``T`` the lower or upper
    triangle of ``t`` (with a unit diagonal where ``unit``). Like OpenBLAS, no entry is
    skipped, so an inf or NaN in the triangle reaches every solution entry below it."""
    n, k = x.shape
    if k < 4:
        # a few columns: each solution entry as one dot product, its sum kept in a register
        for c in range(k):
            for s in range(n):
                i = s if lower else n - 1 - s
                lo, hi = (0, i) if lower else (i + 1, n)
                acc = x[i, c]
                for j in range(lo, hi):
                    acc -= t[i, j] * x[j, c]
                x[i, c] = acc if unit else _div(acc, t[i, i])
        return
    # many columns: row updates along x's contiguous rows (vectorized)
    for s in range(n):
        i = s if lower else n - 1 - s
        lo, hi = (0, i) if lower else (i + 1, n)
        for j in range(lo, hi):
            tij = t[i, j]
            for c in range(k):
                x[i, c] -= tij * x[j, c]
        if not unit:
            d = t[i, i]
            for c in range(k):
                x[i, c] = _div(x[i, c], d)


@njit(cache=True, nogil=True, error_model="numpy")
def trsm_stack(a, x, upper, unit, trans):
    """``x[e] = op(T[e])^{-1} x[e]`` for each element, in place, ``T`` the upper or lower
    triangle of ``a[e]`` (with a unit diagonal where ``unit``)."""
    n = a.shape[1]
    t = np.empty((n, n), dtype=a.dtype)
    for e in range(x.shape[0]):
        if trans == 0:
            _trsm(a[e], x[e], not upper, unit)
        else:  # op(T) is lower triangular for an upper T
            _op(a[e], t, trans)
            _trsm(t, x[e], upper, unit)


@njit(cache=True, nogil=True, error_model="numpy")
def getrs_stack(lu, piv, x, trans, bad):
    """``x[e] = op(A[e])^{-1} x[e]`` given ``lu_factor``'s ``(lu, piv)`` of each ``A[e] = P L
    U`` (LAPACK ``?getrs``), in place. An element whose pivots are not all in ``1..n`` is
    left as it is, with ``bad[e] = 1``."""
    n = lu.shape[1]
    t = np.empty((n, n), dtype=lu.dtype)
    for e in range(x.shape[0]):
        w, p, b = lu[e], piv[e], x[e]
        ok = True
        for i in range(n):
            if not 1 <= p[i] <= n:
                ok = False
        if not ok:
            bad[e] = 1
            continue
        if trans == 0:  # A x = P L U x = b
            for i in range(n):
                if p[i] - 1 != i:
                    swap_rows(b, i, p[i] - 1)
            _trsm(w, b, True, True)
            _trsm(w, b, False, False)
        else:  # op(A) = op(U) op(L) P^T, op(U) lower and op(L) unit upper in op(lu)
            _op(w, t, trans)
            _trsm(t, b, True, False)
            _trsm(t, b, False, True)
            for i in range(n - 1, -1, -1):
                if p[i] - 1 != i:
                    swap_rows(b, i, p[i] - 1)


# lu_solve of many small real systems with one right-hand side spends its time in loop
# bookkeeping: compiled with the order a constant (``_stack.fixed(n).getrs_one``) and the row
# interchanges without a branch, this kernel ran 17x faster than `getrs_stack` at order 2
# here, 8x at 3, 6x at 4, 2.9x at 8, 2x at 12 and 1.1x at 16.
FIXED_MAX_N = 12


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def getrs_one(lu, piv, x, bad, n):
    """`getrs_stack` for real ``lu``, ``trans == 0`` and one right-hand side (``x`` of
    shape ``(count, n, 1)``), with the order ``n`` an argument, so that ``_stack.fixed``
    can compile it with ``n`` a constant. The same operations in the same order as `_trsm`'s,
    hence the same bits; a zero diagonal divides to inf or NaN as ``_div`` does for real
    input. (A further branch in the loop, such as ``_div``'s, a conditional row swap or
    a loop over several right-hand sides, stopped LLVM from optimizing it: 8x slower at
    order 2.)"""
    for e in range(x.shape[0]):
        w, p, b = lu[e], piv[e], x[e]
        ok = True
        for i in range(n):
            if p[i] < 1 or p[i] > n:
                ok = False
        if not ok:
            bad[e] = 1
            continue
        for i in range(n):
            q = p[i] - 1
            t = b[q, 0]  # unconditionally (a swap with itself when q == i): no branch
            b[q, 0] = b[i, 0]
            b[i, 0] = t
        for i in range(n):  # L y = P b, L unit lower
            acc = b[i, 0]
            for j in range(i):
                acc -= w[i, j] * b[j, 0]
            b[i, 0] = acc
        for s in range(n):  # U x = y
            i = n - 1 - s
            acc = b[i, 0]
            for j in range(i + 1, n):
                acc -= w[i, j] * b[j, 0]
            b[i, 0] = acc / w[i, i]
