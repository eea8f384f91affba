"""Bunch-Kaufman LDL^T / LDL^H factorization and solves for stacks of small matrices, one
jitted loop over the stack: LAPACK's unblocked ``?sytf2`` / ``?hetf2`` (what ``?sytrf``
runs for matrices of order up to its block size, 64) and ``?sytrs`` / ``?hetrs``, lower
triangle only (torch.linalg's and ``linalgx.linalg.ldl_factor``'s form).

Each matrix is held transposed, as LAPACK's column-major storage: ``w[j, i]`` is ``A[i, j]``
for ``i >= j``, so every column of the lower triangle that a step reads or updates is a
contiguous row of ``w``. Real and complex symmetric matrices follow ``?sytf2`` (complex
pivots measured by ``|re| + |im|``), Hermitian ones ``?hetf2`` (real diagonal, ``D``'s 2x2
blocks and the updates in LAPACK's Hermitian form).

Which pivot a step takes is a comparison of magnitudes, and after the first step those
magnitudes carry rounding (OpenBLAS's updates fuse multiply-adds where these loops do not):
where two of them are within that rounding of each other (two candidates for the largest
entry of a column, or a side of one of Bunch and Kaufman's tests; see `_sytf2`), or a column
is negligible (a zero pivot is LAPACK's decision, as in ``_lu_stack``), the element is
flagged and the caller has LAPACK redo it, so that the pivots, hence ``L`` and
``D``, are LAPACK's. The first step's comparisons are of the input's own entries and are
exact on both sides.
"""
import math

import numpy as np
from numba import njit

from ._util import cabs1, swap_rows

ALPHA = (1.0 + math.sqrt(17.0)) / 8.0  # Bunch and Kaufman's growth bound


@njit(cache=True, nogil=True, inline="always")
def _close(x, y, rtol, atol):
    """Whether rounding could order ``x`` and ``y`` (both >= 0) the other way."""
    return abs(x - y) <= rtol * max(x, y) + atol


@njit(cache=True, nogil=True, inline="always")
def _cj(x, herm):
    return x.conjugate() if herm else x


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _diag_mag(x, herm):
    """``?hetf2``'s ``|Re x|`` or ``?sytf2``'s ``|re| + |im|``."""
    return abs(x.real) if herm else cabs1(x)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _interchange(w, k, kk, kp, kstep, herm):
    """Swap rows and columns ``kk`` and ``kp`` of the trailing block ``A[k:, k:]`` (lower
    triangle; Hermitian: the moved off-diagonal entries conjugated, diagonals made real)."""
    n = w.shape[0]
    for i in range(kp + 1, n):
        t = w[kk, i]
        w[kk, i] = w[kp, i]
        w[kp, i] = t
    for j in range(kk + 1, kp):  # column kk's part above row kp <-> row kp's part
        t = _cj(w[kk, j], herm)
        w[kk, j] = _cj(w[j, kp], herm)
        w[j, kp] = t
    if herm:
        w[kk, kp] = w[kk, kp].conjugate()
        r = w[kk, kk].real
        w[kk, kk] = w[kp, kp].real
        w[kp, kp] = r
    else:
        t = w[kk, kk]
        w[kk, kk] = w[kp, kp]
        w[kp, kp] = t
    if kstep == 2:
        if herm:
            w[k, k] = w[k, k].real
        t = w[k, k + 1]
        w[k, k + 1] = w[k, kp]
        w[k, kp] = t


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _update1(w, k, herm):
    """The rank-1 update of ``A[k+1:, k+1:]`` by the 1x1 pivot ``A[k, k]`` (``?syr`` /
    ``?her`` with ``-1/d``), then column k scaled to ``L``'s. Returns the largest updated
    magnitude (``|re| + |im|``)."""
    n = w.shape[0]
    big = 0.0
    if herm:
        r1 = 1.0 / w[k, k].real
        for j in range(k + 1, n):
            xj = w[k, j]
            if xj != 0:
                temp = -r1 * xj.conjugate()
                w[j, j] = w[j, j].real + (xj * temp).real
                for i in range(j + 1, n):
                    w[j, i] += w[k, i] * temp
            else:
                w[j, j] = w[j, j].real
            for i in range(j, n):
                big = max(big, cabs1(w[j, i]))
        for i in range(k + 1, n):
            w[k, i] *= r1
        return big
    d11 = 1 / w[k, k]
    for j in range(k + 1, n):
        xj = w[k, j]
        if xj != 0:
            temp = -d11 * xj
            for i in range(j, n):
                w[j, i] += w[k, i] * temp
        for i in range(j, n):
            big = max(big, cabs1(w[j, i]))
    for i in range(k + 1, n):
        w[k, i] *= d11
    return big


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _update2(w, k, herm):
    """The rank-2 update of ``A[k+2:, k+2:]`` by the 2x2 pivot block at ``k``, columns k and
    k+1 becoming ``L``'s (``?sytf2`` / ``?hetf2``'s formulas). Returns the largest updated
    magnitude, or -1 where the block is singular in working precision (the caller flags the
    element)."""
    n = w.shape[0]
    big = 0.0
    if herm:
        a21 = w[k, k + 1]
        d = math.hypot(a21.real, a21.imag)
        d11 = w[k + 1, k + 1].real / d
        d22 = w[k, k].real / d
        den = d11 * d22 - 1.0
        if den == 0:
            return -1.0
        tt = 1.0 / den
        d21 = a21 / d
        d = tt / d
        for j in range(k + 2, n):
            ajk = w[k, j]
            ajk1 = w[k + 1, j]
            wk = d * (d11 * ajk - d21 * ajk1)
            wkp1 = d * (d22 * ajk1 - d21.conjugate() * ajk)
            cwk = wk.conjugate()
            cwkp1 = wkp1.conjugate()
            for i in range(j, n):
                w[j, i] = w[j, i] - w[k, i] * cwk - w[k + 1, i] * cwkp1
            w[k, j] = wk
            w[k + 1, j] = wkp1
            w[j, j] = w[j, j].real
            for i in range(j, n):
                big = max(big, cabs1(w[j, i]))
        return big
    d21 = w[k, k + 1]
    d11 = w[k + 1, k + 1] / d21
    d22 = w[k, k] / d21
    den = d11 * d22 - 1
    if den == 0:
        return -1.0
    d21 = (1 / den) / d21
    for j in range(k + 2, n):
        ajk = w[k, j]
        ajk1 = w[k + 1, j]
        wk = d21 * (d11 * ajk - ajk1)
        wkp1 = d21 * (d22 * ajk1 - ajk)
        for i in range(j, n):
            w[j, i] = w[j, i] - w[k, i] * wk - w[k + 1, i] * wkp1
            big = max(big, cabs1(w[j, i]))
        w[k, j] = wk
        w[k + 1, j] = wkp1
    return big


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _sytf2(w, piv, herm, rtol, ufl):
    """Factor one matrix in place (see the module docstring for ``w``'s layout); ``piv``
    receives LAPACK's 1-based pivots. Returns ``(info, near)``: the 1-based index of the
    first zero column (LAPACK's ``info``), or 0; and whether rounding could have decided a
    pivot (the caller has LAPACK redo the element).

    After the first step every magnitude carries the rounding of the updates that formed
    it, absolute and of the order of the terms they added: each term is at most
    ``1/ALPHA`` times the largest entry of the matrix it updated, so two magnitudes are a
    tie to within ``rtol`` times the largest entry seen so far over ``ALPHA`` (plus ``ufl``
    for the absolute rounding of subnormal results), however much they cancelled."""
    n = w.shape[0]
    seen = 0.0
    for j in range(n):
        for i in range(j, n):
            seen = max(seen, cabs1(w[j, i]))
    info = 0
    near = False
    k = 0
    while k < n:
        later = k > 0  # its magnitudes carry rounding
        atol = rtol * seen / ALPHA + ufl
        kstep = 1
        absakk = _diag_mag(w[k, k], herm)
        imax = k
        colmax = 0.0
        second = 0.0
        if k < n - 1:  # i?amax: the first largest |re| + |im| below the diagonal
            imax = k + 1
            colmax = cabs1(w[k, k + 1])
            for i in range(k + 2, n):
                t = cabs1(w[k, i])
                if t > colmax:
                    second = colmax
                    colmax = t
                    imax = i
                elif t > second:
                    second = t
        big = max(absakk, colmax)
        if later and big <= atol:
            near = True
        if big == 0.0 or absakk != absakk:
            if info == 0:
                info = k + 1
            kp = k
            if herm:
                w[k, k] = w[k, k].real
        else:
            if absakk >= ALPHA * colmax:
                kp = k
                near |= later and _close(absakk, ALPHA * colmax, rtol, atol)
            else:
                near |= later and (_close(absakk, ALPHA * colmax, rtol, atol)
                                   or _close(second, colmax, rtol, atol))
                rowmax = 0.0
                for j in range(k, imax):
                    rowmax = max(rowmax, cabs1(w[j, imax]))
                for i in range(imax + 1, n):
                    rowmax = max(rowmax, cabs1(w[imax, i]))
                bound = ALPHA * colmax * (colmax / rowmax)
                aii = _diag_mag(w[imax, imax], herm)
                near |= later and (_close(absakk, bound, rtol, atol)
                                   or _close(aii, ALPHA * rowmax, rtol, atol))
                if absakk >= bound:
                    kp = k
                elif aii >= ALPHA * rowmax:
                    kp = imax
                else:
                    kp = imax
                    kstep = 2
            kk = k + kstep - 1
            if kp != kk:
                _interchange(w, k, kk, kp, kstep, herm)
            elif herm:
                w[k, k] = w[k, k].real
                if kstep == 2:
                    w[k + 1, k + 1] = w[k + 1, k + 1].real
            if kstep == 1:
                if k < n - 1:
                    seen = max(seen, _update1(w, k, herm))
            elif k < n - 2:
                grown = _update2(w, k, herm)
                if grown < 0:
                    near = True
                seen = max(seen, grown)
        if kstep == 1:
            piv[k] = kp + 1
        else:
            piv[k] = piv[k + 1] = -(kp + 1)
        k += kstep
    for j in range(n):
        for i in range(j, n):
            if not np.isfinite(w[j, i]):
                near = True  # overflow: LAPACK's inf/NaN pattern is its own
        for i in range(j):
            w[j, i] = 0  # A's strict upper triangle, zero as in torch's LD
    return info, near


@njit(cache=True, nogil=True, error_model="numpy")
def sytf2_stack(w, piv, info, near, herm, rtol, ufl):
    """`_sytf2` on each ``w[e]`` of a ``(count, n, n)`` stack, in place."""
    for e in range(w.shape[0]):
        info[e], flag = _sytf2(w[e], piv[e], herm, rtol, ufl)
        near[e] = flag


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _sytrs(w, p, b, herm):
    """``b = A^{-1} b`` in place from `_sytf2`'s ``(w, p)`` (LAPACK ``?sytrs`` / ``?hetrs``,
    lower). Returns False, leaving ``b`` partly solved, where a pivot block of ``D`` is
    exactly singular (the caller has LAPACK give its inf/NaN)."""
    n, nrhs = b.shape
    k = 0
    while k < n:  # L D y = P b
        if p[k] > 0:
            kp = p[k] - 1
            if kp != k:
                swap_rows(b, k, kp)
            for i in range(k + 1, n):
                lik = w[k, i]
                for c in range(nrhs):
                    b[i, c] -= lik * b[k, c]
            d = w[k, k].real if herm else w[k, k]
            if d == 0:
                return False
            s = 1 / d  # ?sytrs: ONE / A(K, K)
            for c in range(nrhs):
                b[k, c] *= s
            k += 1
        else:
            kp = -p[k] - 1
            if kp != k + 1:
                swap_rows(b, k + 1, kp)
            for i in range(k + 2, n):
                l0 = w[k, i]
                l1 = w[k + 1, i]
                for c in range(nrhs):
                    b[i, c] = b[i, c] - l0 * b[k, c] - l1 * b[k + 1, c]
            akm1k = w[k, k + 1]
            if akm1k == 0:
                return False
            conj_k = _cj(akm1k, herm)
            akm1 = w[k, k] / conj_k
            ak = w[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            if denom == 0:
                return False
            for c in range(nrhs):
                bkm1 = b[k, c] / conj_k
                bk = b[k + 1, c] / akm1k
                b[k, c] = (ak * bkm1 - bk) / denom
                b[k + 1, c] = (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T x = y (L^H for Hermitian), then the interchanges back
        for i in range(k + 1, n):
            lik = _cj(w[k, i], herm)
            for c in range(nrhs):
                b[k, c] -= lik * b[i, c]
        step = 1
        if p[k] < 0:
            for i in range(k + 1, n):
                lik = _cj(w[k - 1, i], herm)
                for c in range(nrhs):
                    b[k - 1, c] -= lik * b[i, c]
            step = 2
        kp = abs(p[k]) - 1
        if kp != k:
            swap_rows(b, k, kp)
        k -= step
    return True


@njit(cache=True, nogil=True, inline="always")
def _pivots_ok(p):
    """Whether ``?sytrs`` can read the pivots ``p`` (lower): each in ``[1, n]`` in modulus,
    a negative one beginning a 2x2 block whose second pivot repeats it."""
    n = p.shape[0]
    k = 0
    while k < n:
        q = p[k]
        if q == 0 or q > n or q < -n:
            return False
        if q < 0:
            if k + 1 == n or p[k + 1] != q:
                return False
            k += 2
        else:
            k += 1
    return True


@njit(cache=True, nogil=True, error_model="numpy")
def sytrs_stack(w, piv, which, b, herm, bad):
    """`_sytrs` on each right-hand side ``b[e]``, in place, with the factor ``w[which[e]]``
    and its pivots; ``bad[e]`` 1 where a block of ``D`` is singular or the solution
    overflowed (LAPACK's inf/NaN pattern is its own), 2 where the pivots are not
    ``?sytrf``'s kind (``b[e]`` untouched)."""
    for e in range(b.shape[0]):
        f = which[e]
        if not _pivots_ok(piv[f]):
            bad[e] = 2
        elif not _sytrs(w[f], piv[f], b[e], herm):
            bad[e] = 1
        else:
            for i in range(b.shape[1]):
                for c in range(b.shape[2]):
                    if not np.isfinite(b[e, i, c]):
                        bad[e] = 1
