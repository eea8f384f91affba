"""One-sided Jacobi SVD for stacks of 2x2 and 3x3 matrices, held in registers.

The same algorithm as :mod:`._svd` (rotate pairs of rows until orthogonal; scale by a power
of two first) with the rows and the accumulated rotations as scalar locals, so a sweep is a
few dozen register operations with no loops or memory traffic. The converged rows are then
written to small work arrays and :func:`._svd.finish_kernel` sorts them and writes the
outputs, exactly as for larger matrices. Where a squared row norm falls below ``_svd.SAFE``
(squares underflow), the 2x2 kernel takes that rotation from rescaled rows
(``_svd.rotation_scaled``) and the 3x3 one hands the matrix to ``_svd.jacobi_kernel``, which
does so. Status codes as in :mod:`._svd`.
"""
import math

import numpy as np
from numba import njit, types
from numba.extending import overload

from ._svd import (
    QR_MIN,
    SAFE,
    fail_kernel,
    finish_kernel,
    jacobi_kernel,
    rotation,
    rotation_scaled,
    scale_exponent,
    svd_gufunc,
    wide,
)
from ._util import abs2


@njit(cache=True, nogil=True)
def _rot2(x0, x1, y0, y1, c, sp, sq):
    return c * x0 - sp * y0, c * x1 - sp * y1, sq * x0 + c * y0, sq * x1 + c * y1


@njit(cache=True, nogil=True)
def _rot3(x0, x1, x2, y0, y1, y2, c, sp, sq):
    return (c * x0 - sp * y0, c * x1 - sp * y1, c * x2 - sp * y2,
            sq * x0 + c * y0, sq * x1 + c * y1, sq * x2 + c * y2)


@njit(cache=True, nogil=True)
def _sq2(x0, x1):
    return abs2(wide(x0)) + abs2(wide(x1))


@njit(cache=True, nogil=True)
def _sq3(x0, x1, x2):
    return abs2(wide(x0)) + abs2(wide(x1)) + abs2(wide(x2))


@njit(cache=True, nogil=True)
def _gram3(x0, x1, x2, y0, y1, y2):
    return wide(x0) * np.conj(wide(y0)) + wide(x1) * np.conj(wide(y1)) + wide(x2) * np.conj(
        wide(y2))


@njit(cache=True, nogil=True)
def svd2_gufunc(a, u, s, vh, want_uv, tol, max_sweeps, info):
    """SVD of every row of the flat ``(N, 4)`` batch ``a``; arguments as ``svd_gufunc``."""
    b = np.empty(4, dtype=a.dtype)
    q = np.empty(4, dtype=a.dtype)
    d = np.empty(2, dtype=np.float64)
    order = np.empty(2, dtype=np.int64)
    perm = np.arange(2)
    z = a[0, 0] * 0
    for i in range(a.shape[0]):
        x = a[i]
        ui = u[i] if want_uv else u[0]
        vi = vh[i] if want_uv else vh[0]
        e = scale_exponent(x, 4)
        if e == -(1 << 30):
            fail_kernel(2, ui, s[i], vi, 2, 2, want_uv)
            info[i] = 1
            continue
        f = math.ldexp(1.0, -e // 2)
        g = math.ldexp(1.0, -e - (-e // 2))  # two factors: 2**-e alone may overflow
        b0, b1, b2, b3 = x[0] * f * g, x[1] * f * g, x[2] * f * g, x[3] * f * g
        q0, q1, q2, q3 = z + 1, z, z, z + 1
        st = 2
        for _ in range(max_sweeps):
            n0, n1 = _sq2(b0, b1), _sq2(b2, b3)
            if n0 >= SAFE and n1 >= SAFE:
                c, sp, sq, _ = rotation(n0, n1, wide(b0) * np.conj(wide(b2))
                                        + wide(b1) * np.conj(wide(b3)), tol)
            else:
                b[0], b[1], b[2], b[3] = b0, b1, b2, b3
                c, sp, sq = rotation_scaled(b, 0, 2, 2, tol)
            if c == 2.0:
                st = 0
                break
            b0, b1, b2, b3 = _rot2(b0, b1, b2, b3, c, sp, sq)
            if want_uv:
                q0, q1, q2, q3 = _rot2(q0, q1, q2, q3, c, sp, sq)
        b[0], b[1], b[2], b[3] = b0, b1, b2, b3
        q[0], q[1], q[2], q[3] = q0, q1, q2, q3
        finish_kernel(b, q, d, order, perm, 2, 2, e, ui, s[i], vi, 2, want_uv)
        info[i] = st


@njit(cache=True, nogil=True)
def svd3_gufunc(a, u, s, vh, want_uv, tol, max_sweeps, info):
    """SVD of every row of the flat ``(N, 9)`` batch ``a``; arguments as ``svd_gufunc``."""
    b = np.empty(9, dtype=a.dtype)
    q = np.empty(9, dtype=a.dtype)
    d = np.empty(3, dtype=np.float64)
    order = np.empty(3, dtype=np.int64)
    perm = np.arange(3)
    z = a[0, 0] * 0
    for i in range(a.shape[0]):
        x = a[i]
        ui = u[i] if want_uv else u[0]
        vi = vh[i] if want_uv else vh[0]
        e = scale_exponent(x, 9)
        if e == -(1 << 30):
            fail_kernel(3, ui, s[i], vi, 3, 3, want_uv)
            info[i] = 1
            continue
        f = math.ldexp(1.0, -e // 2)
        g = math.ldexp(1.0, -e - (-e // 2))  # two factors: 2**-e alone may overflow
        b0, b1, b2 = x[0] * f * g, x[1] * f * g, x[2] * f * g
        b3, b4, b5 = x[3] * f * g, x[4] * f * g, x[5] * f * g
        b6, b7, b8 = x[6] * f * g, x[7] * f * g, x[8] * f * g
        q0, q1, q2, q3, q4, q5, q6, q7, q8 = z + 1, z, z, z, z + 1, z, z, z, z + 1
        st = 2
        scaled = False
        for _ in range(max_sweeps):
            n0 = _sq3(b0, b1, b2)
            n1 = _sq3(b3, b4, b5)
            n2 = _sq3(b6, b7, b8)
            if min(n0, n1, n2) < SAFE:
                # squares underflow: the array kernel, whose rotations rescale such rows
                # (one check per sweep: a check per pair cost 12% of every 3x3 SVD)
                scaled = True
                break
            done = True
            c, sp, sq, _ = rotation(n0, n1, _gram3(b0, b1, b2, b3, b4, b5), tol)
            if c != 2.0:
                done = False
                b0, b1, b2, b3, b4, b5 = _rot3(b0, b1, b2, b3, b4, b5, c, sp, sq)
                if want_uv:
                    q0, q1, q2, q3, q4, q5 = _rot3(q0, q1, q2, q3, q4, q5, c, sp, sq)
                n0 = _sq3(b0, b1, b2)
                n1 = _sq3(b3, b4, b5)
            c, sp, sq, _ = rotation(n0, n2, _gram3(b0, b1, b2, b6, b7, b8), tol)
            if c != 2.0:
                done = False
                b0, b1, b2, b6, b7, b8 = _rot3(b0, b1, b2, b6, b7, b8, c, sp, sq)
                if want_uv:
                    q0, q1, q2, q6, q7, q8 = _rot3(q0, q1, q2, q6, q7, q8, c, sp, sq)
                n2 = _sq3(b6, b7, b8)
            c, sp, sq, _ = rotation(n1, n2, _gram3(b3, b4, b5, b6, b7, b8), tol)
            if c != 2.0:
                done = False
                b3, b4, b5, b6, b7, b8 = _rot3(b3, b4, b5, b6, b7, b8, c, sp, sq)
                if want_uv:
                    q3, q4, q5, q6, q7, q8 = _rot3(q3, q4, q5, q6, q7, q8, c, sp, sq)
            if done:
                st = 0
                break
        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8] = b0, b1, b2, b3, b4, b5, b6, b7, b8
        q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8] = q0, q1, q2, q3, q4, q5, q6, q7, q8
        if scaled:
            st = 0 if jacobi_kernel(b, 3, 3, q, d, want_uv, tol, max_sweeps) > 0 else 2
        finish_kernel(b, q, d, order, perm, 3, 3, e, ui, s[i], vi, 3, want_uv)
        info[i] = st


def _eps_of(s):
    """The machine epsilon of the real array ``s``'s dtype (pure-Python stub: jitted, a
    constant of its type rather than an argument numba's dispatch would type per call)."""
    return float(np.finfo(s.dtype).eps)


@overload(_eps_of)
def _eps_of_overload(s):
    eps = float(np.finfo(np.float32 if s.dtype == types.float32 else np.float64).eps)
    return lambda s: eps


@njit(cache=True, nogil=True)
def svd_stack(a, u, s, vh, want_uv, max_sweeps, info):
    """The kernels on a C-contiguous ``(count, n, n)`` stack or one ``(n, n)`` matrix,
    n >= 2 (registers for 2 and 3, ``_svd.svd_gufunc`` above), in one jitted call:
    ``s (..., n)``, ``u`` and ``vh`` of a's shape (any ``(1, n, n)`` arrays unless
    ``want_uv``), ``info (...)``; the tolerance of ``_svd.svd``. The caller reads the
    status codes (and linalgx the zero singular values) from the outputs."""
    n = a.shape[-1]
    count = a.size // (n * n)
    tol = _eps_of(s) * math.sqrt(n)
    af = a.reshape(count, n * n)
    sf = s.reshape(count, n)
    uf = u.reshape(u.size // (n * n), n * n)
    vf = vh.reshape(vh.size // (n * n), n * n)
    inf = info.reshape(count)
    if n == 2:
        svd2_gufunc(af, uf, sf, vf, want_uv, tol, max_sweeps, inf)
    elif n == 3:
        svd3_gufunc(af, uf, sf, vf, want_uv, tol, max_sweeps, inf)
    else:
        svd_gufunc(af, n, n, uf, sf, vf, n, want_uv, tol, max_sweeps, n >= QR_MIN, inf)
