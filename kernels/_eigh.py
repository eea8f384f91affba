"""Eigenvalues and eigenvectors of stacks of small Hermitian (real symmetric) matrices.

Cyclic Jacobi: each step annihilates one off-diagonal pair ``(p, q)`` by a plane rotation,
the symmetric Schur decomposition of the 2x2 block (Golub & Van Loan, *Matrix
Computations*, 3rd ed., section 8.4.2, Algorithm 8.4.1 ``sym.schur2``; 4th ed. 8.5.2). A
complex Hermitian block ``[[a, r e], [r conj(e), d]]`` with ``|e| = 1`` is first made real by
the phase ``diag(1, conj(e))`` (Forsythe & Henrici, "The cyclic Jacobi method for computing
the principal values of a complex matrix", Trans. AMS 94, 1960), so the rotation is
``G = [[c, s e], [-s conj(e), c]]``. Rotations are skipped where the pair is negligible,
``|a_pq| <= eps sqrt(|a_pp a_qq|)`` (Demmel & Veselic, "Jacobi's method is more accurate than
QR", SIAM J. Matrix Anal. Appl. 13, 1992: this keeps the relative accuracy of graded
matrices) or ``|a_pq| <= eps**2 max|a_ij|`` (a floor that makes the iteration stop on
clusters of eigenvalues near zero); a sweep with no rotation ends the iteration (Rutishauser,
"The Jacobi method for real symmetric matrices", Numer. Math. 9, 1966). The 2x2 case is one
rotation (exact to rounding) in scalars. For n >= 3 a batch runs in blocks of 32 matrices
laid out structure-of-arrays (entry ``(i, j)`` of every matrix of the block contiguous, real
and imaginary parts apart, upper triangle only): each step (the rotation parameters, the
update of two rows and columns of A, of two columns of V) is one loop over the 32 lanes,
which LLVM compiles to SIMD instructions, where one matrix at a time would be a serial chain
of square roots and divisions (2-3x slower at n = 3). A block sweeps until none of its lanes
rotates (lanes whose pair is negligible get the identity), and a pair that no lane rotates
is skipped. Eigenvectors are accumulated, transposed, only when asked for.

Every element is first scaled by a power of two (exact) when its largest entry is outside
``[lo, hi]``, so that squares in the rotation neither overflow nor underflow (1e300 and
1e-300 matrices work). Eigenvalues come out ascending (a compare-exchange network over the
lanes) with the eigenvector columns permuted alike. Measured against LAPACK (NumPy's
syevd/heevd) on a 2-core machine: about 5-10x faster for stacks of 2x2 to 4x4, 1.5-2x at
16x16 (real); the crossover is near n = 40 (real) and 15 (complex) with eigenvectors, 20 and
13 without.

Only the triangle LAPACK reads is read (lower, or upper with ``upper=True``) and only the
real part of the diagonal. ``info`` is 0 on success and 1 where the read triangle holds an
inf or NaN or the iteration did not converge in ``max_sweeps`` sweeps; those elements are
filled with NaN.
"""
import math

import numpy as np
from numba import njit, types, uint64
from numba.extending import overload

from . import _parallel
from ._util import abs2

PARALLEL_WORK = 100_000

__all__ = ["eigh", "MAX_SWEEPS"]

MAX_SWEEPS = 60  # quadratic convergence needs ~4 sweeps for n = 3, ~10 for n = 32

_JIT = dict(cache=True, nogil=True, error_model="numpy")


@njit(**_JIT)
def _rotation(app, aqq, apq, g2):
    """``(c, se, tr)`` of the rotation annihilating ``a_pq`` (``g2 = |a_pq|**2 > 0``).

    ``se = s e`` with ``e = a_pq / |a_pq|``; the new diagonal is ``(a_pp - tr, a_qq + tr)``.
    ``t = tan(theta)`` is the smaller root of ``t**2 + 2 tau t - 1 = 0``,
    ``tau = (a_qq - a_pp) / (2 |a_pq|)``: with ``h = a_qq - a_pp``, ``rr = sqrt(h**2 +
    4 |a_pq|**2)`` and ``dd = |h| + rr``, ``t = sign(h) 2 |a_pq| / dd``, ``1 + t**2 =
    2 rr / dd`` so ``c = sqrt(dd / (2 rr))``, ``s e = t c e = sign(h) 2 c a_pq / dd`` and
    ``tr = t |a_pq| = sign(h) 2 |a_pq|**2 / dd``: two square roots and two divisions, no
    overflow (entries are scaled) and no cancellation.
    """
    h = aqq - app
    rr = math.sqrt(h * h + 4.0 * g2)
    dd = abs(h) + rr
    c = math.sqrt(dd / (2.0 * rr))
    f = 2.0 / dd
    if h < 0:
        f = -f
    return c, (f * c) * apq, f * g2


@njit(**_JIT)
def _amax(m, t):
    """``max(m, t)`` for ``t >= 0`` that turns a NaN into inf (Python's max drops it)."""
    if t <= m:
        return m
    return t if t == t else np.inf


@njit(**_JIT)
def _amax_c(m, z):
    """`_amax` over the real and imaginary parts of ``z``."""
    return _amax(_amax(m, abs(z.real)), abs(z.imag))


@njit(**_JIT)
def _scale(m, lo, hi):
    """``(sc, inv)``: a power of two bringing the largest entry ``m`` near 1, when needed
    (both representable: a subnormal ``m`` is brought to ``[2**-74, 2**-73)`` at least, a
    huge one to ``[1/2, 2)``)."""
    if m < lo or m > hi:
        e = min(max(math.frexp(m)[1], -1000), 1023)
        return math.ldexp(1.0, -e), math.ldexp(1.0, e)
    return 1.0, 1.0


@njit(**_JIT)
def eigh2_gufunc(a, w, v, info, upper, compute_v, eps, lo, hi):
    """Stacked 2x2: one rotation, ``(N, 4)`` in, ``w (N, 2)``, ``v (N, 4)``, ``info (N,)``."""
    for b in range(a.shape[0]):
        x = a[b]
        d0 = x[0].real
        d1 = x[3].real
        u = x[1] if upper else np.conj(x[2])
        m = _amax_c(_amax(_amax(0.0, abs(d0)), abs(d1)), u)
        if not m < np.inf:
            info[b] = 1
            continue
        info[b] = 0
        sc, inv = _scale(m, lo, hi)
        d0 *= sc
        d1 *= sc
        u = u * sc
        m *= sc
        c = 1.0
        se = u * 0
        g2 = abs2(u)
        floor = eps * eps * m
        if g2 > floor * floor and g2 > eps * eps * abs(d0 * d1):
            c, se, tr = _rotation(d0, d1, u, g2)
            d0 -= tr
            d1 += tr
        # V = G = [[c, se], [-conj(se), c]]; swap the columns if the eigenvalues are not
        # ascending
        v00, v01, v10, v11 = c + se * 0, se, -np.conj(se), c + se * 0
        if d1 < d0:
            d0, d1 = d1, d0
            v00, v01 = v01, v00
            v10, v11 = v11, v10
        w[b, 0] = d0 * inv
        w[b, 1] = d1 * inv
        if compute_v:
            y = v[b]
            y[0] = v00
            y[1] = v01
            y[2] = v10
            y[3] = v11


@njit(inline="always", **_JIT)
def _load_block(a, b0, nb, n, upper, ur, ui, bsize, eps, lo, hi, floor2, inv, m, ok):
    """Matrices ``b0 .. b0 + nb`` into the lanes: the read triangle as the upper triangle
    ``U[j, i] = A[j, i]`` (``ui`` is None for real input), each lane scaled by a power of
    two when its largest entry is outside ``[lo, hi]``; a lane holding inf or NaN (and the
    unused lanes of the last block) is zeroed and flagged in ``ok``."""
    for l in range(bsize):
        b = (b0 + min(l, nb - 1)) * n * n
        for i in range(n):
            ur[uint64((i * n + i) * bsize + l)] = a[uint64(b + i * n + i)].real
            for j in range(i):
                z = a[uint64(b + j * n + i)] if upper else np.conj(a[uint64(b + i * n + j)])
                ur[uint64((j * n + i) * bsize + l)] = z.real
                if ui is not None:
                    ui[uint64((j * n + i) * bsize + l)] = z.imag
    for l in range(uint64(bsize)):
        m[l] = 0.0
        ok[l] = True
    for i in range(n):
        for j in range(i, n):
            o = uint64((i * n + j) * bsize)
            for l in range(uint64(bsize)):
                t = abs(ur[o + l])
                if ui is not None:
                    t = max(t, abs(ui[o + l]))
                ok[l] &= t < np.inf
                m[l] = t if t > m[l] else m[l]
    for l in range(bsize):
        if not ok[l] or l >= nb:
            ok[l] = False
            m[l] = 0.0
            for i in range(n):
                for j in range(i, n):
                    ur[(i * n + j) * bsize + l] = 0
                    if ui is not None:
                        ui[(i * n + j) * bsize + l] = 0
        sc, inv[l] = _scale(m[l], lo, hi)
        if sc != 1.0:
            m[l] *= sc
            for i in range(n):
                for j in range(i, n):
                    ur[(i * n + j) * bsize + l] *= sc
                    if ui is not None:
                        ui[(i * n + j) * bsize + l] *= sc
        f = eps * eps * m[l]
        floor2[l] = f * f


@njit(inline="always", **_JIT)
def _sort_block(n, ur, vr, vi, bsize, compute_v, swp):
    """Ascending diagonals in every lane, V's columns (rows of the stored V^T) alike:
    odd-even transposition sort (n rounds of neighbour compare-exchanges), branch-free and
    vectorized over the lanes."""
    for rnd in range(n):
        for i in range(rnd % 2, n - 1, 2):
            o1 = uint64((i * n + i) * bsize)
            o2 = uint64(((i + 1) * n + i + 1) * bsize)
            for l in range(uint64(bsize)):
                x = ur[o1 + l]
                y = ur[o2 + l]
                sw = y < x
                ur[o1 + l] = y if sw else x
                ur[o2 + l] = x if sw else y
                swp[l] = sw
            if compute_v:
                for k in range(n):
                    p1 = uint64((i * n + k) * bsize)
                    p2 = uint64(((i + 1) * n + k) * bsize)
                    for l in range(uint64(bsize)):
                        x = vr[p1 + l]
                        y = vr[p2 + l]
                        vr[p1 + l] = y if swp[l] else x
                        vr[p2 + l] = x if swp[l] else y
                        if vi is not None:
                            x = vi[p1 + l]
                            y = vi[p2 + l]
                            vi[p1 + l] = y if swp[l] else x
                            vi[p2 + l] = x if swp[l] else y


@njit(inline="always", **_JIT)
def _lane_rotations(ur, ui, ipp, iqq, ipq, bsize, floor2, tol2, cs, sr, si, lane_rot):
    """The rotation of every lane for the pair at offsets ``ipp, iqq, ipq`` (the identity
    where the pair is negligible): one loop over the lanes, which LLVM vectorizes. Offsets
    and lanes are unsigned so that the indexing stays affine (numba wraps negative signed
    indices), and buffers are passed whole (a slice costs two atomic reference counts).
    Returns the number of lanes that rotate."""
    nrot = 0
    for l in range(uint64(bsize)):
        app = ur[ipp + l]
        aqq = ur[iqq + l]
        g2 = ur[ipq + l] * ur[ipq + l]
        if ui is not None:
            g2 += ui[ipq + l] * ui[ipq + l]
        rot = (g2 > floor2[l]) & (g2 > tol2 * abs(app * aqq))
        g2s = g2 if rot else 1.0
        h = aqq - app
        rr = math.sqrt(h * h + 4.0 * g2s)
        dd = abs(h) + rr
        c = math.sqrt(dd / (2.0 * rr))
        f = 2.0 / dd
        f = -f if h < 0 else f
        f = f if rot else 0.0
        c = c if rot else 1.0
        tr = f * g2
        f *= c
        ur[ipp + l] = app - tr
        ur[iqq + l] = aqq + tr
        cs[l] = c
        sr[l] = f * ur[ipq + l]
        ur[ipq + l] = 0
        if ui is not None:
            si[l] = f * ui[ipq + l]
            ui[ipq + l] = 0
        lane_rot[l] |= rot
        nrot += rot
    return nrot


@njit(inline="always", **_JIT)
def _apply(xr, xi, i1, s1, i2, s2, bsize, cs, sr, si):
    """Column form ``x' = c x - conj(se) y``, ``y' = se x + c y`` on the lanes at offsets
    ``i1`` (x) and ``i2`` (y); imaginary parts are stored times ``s1``, ``s2`` (-1 where the
    upper triangle holds the conjugate of the entry)."""
    for l in range(uint64(bsize)):
        c = cs[l]
        a = xr[i1 + l]
        b = xr[i2 + l]
        if xi is None:
            xr[i1 + l] = c * a - sr[l] * b
            xr[i2 + l] = sr[l] * a + c * b
        else:
            ai = s1 * xi[i1 + l]
            bi = s2 * xi[i2 + l]
            xr[i1 + l] = c * a - (sr[l] * b + si[l] * bi)
            xi[i1 + l] = s1 * (c * ai - (sr[l] * bi - si[l] * b))
            xr[i2 + l] = sr[l] * a - si[l] * ai + c * b
            xi[i2 + l] = s2 * (sr[l] * ai + si[l] * a + c * bi)


@njit(**_JIT)
def eigh_block_gufunc(a, n, w, v, info, upper, compute_v, eps, lo, hi, max_sweeps, bsize,
                      ui, vi, si):
    """Stacked ``n x n`` cyclic Jacobi, ``bsize`` matrices at a time in structure-of-arrays
    lanes (``U[(i*n + j)*bsize + lane]``, real and imaginary parts apart), so that every
    rotation step is one vectorized loop over the lanes; a block iterates until no lane
    rotates. Negligible pairs get the identity rotation. ``ui, vi`` (``n*n*bsize``) and
    ``si`` (``bsize``): work buffers of the imaginary parts, None for real input (numba
    then compiles the real kernel without them)."""
    nn = n * n
    rt = w.dtype
    # two allocations, not ten: each costs about 40 ns, a tenth of a single 3x3's call
    work = np.zeros((2 * nn + 4) * bsize, dtype=rt)
    ur = work[:nn * bsize]
    vr = work[nn * bsize:2 * nn * bsize]
    floor2 = work[2 * nn * bsize:(2 * nn + 1) * bsize]
    m = work[(2 * nn + 1) * bsize:(2 * nn + 2) * bsize]
    cs = work[(2 * nn + 2) * bsize:(2 * nn + 3) * bsize]
    sr = work[(2 * nn + 3) * bsize:]
    inv = np.empty(bsize)
    flags = np.zeros(3 * bsize, dtype=np.bool_)
    ok = flags[:bsize]
    lane_rot = flags[bsize:2 * bsize]
    swp = flags[2 * bsize:]
    a1 = a.reshape(a.size)
    w1 = w.reshape(w.size)
    v1 = v.reshape(v.size)
    tol2 = eps * eps
    for b0 in range(0, a.shape[0], bsize):
        nb = min(bsize, a.shape[0] - b0)
        _load_block(a1, b0, nb, n, upper, ur, ui, bsize, eps, lo, hi, floor2, inv, m, ok)
        if compute_v:
            vr[:] = 0
            for i in range(n):
                vr[(i * n + i) * bsize:(i * n + i + 1) * bsize] = 1
            if vi is not None:
                vi[:] = 0
        converged = False
        for _ in range(max_sweeps):
            for l in range(bsize):
                lane_rot[l] = False
            for p in range(n - 1):
                for q in range(p + 1, n):
                    ipq = uint64((p * n + q) * bsize)
                    if _lane_rotations(ur, ui, uint64((p * n + p) * bsize),
                                       uint64((q * n + q) * bsize), ipq, bsize, floor2, tol2,
                                       cs, sr, si, lane_rot) == 0:
                        continue
                    for k in range(n):
                        if k == p or k == q:
                            continue
                        i1 = uint64(((k * n + p) if k < p else (p * n + k)) * bsize)
                        i2 = uint64(((k * n + q) if k < q else (q * n + k)) * bsize)
                        _apply(ur, ui, i1, 1.0 if k < p else -1.0, i2, 1.0 if k < q else -1.0,
                               bsize, cs, sr, si)
                    if compute_v:
                        for k in range(n):
                            _apply(vr, vi, uint64((p * n + k) * bsize), 1.0,
                                   uint64((q * n + k) * bsize), 1.0, bsize, cs, sr, si)
            if not lane_rot.any():
                converged = True
                break
        _sort_block(n, ur, vr, vi, bsize, compute_v, swp)
        for l in range(nb):
            b = b0 + l
            if not ok[l] or not converged and lane_rot[l]:
                info[b] = 1
                continue
            info[b] = 0
            for j in range(n):
                w1[uint64(b * n + j)] = ur[uint64((j * n + j) * bsize + l)] * inv[l]
            if compute_v:
                for k in range(n):
                    for j in range(n):
                        src = uint64((j * n + k) * bsize + l)
                        dst = uint64(b * nn + k * n + j)
                        if vi is None:
                            v1[dst] = vr[src]
                        else:
                            v1[dst] = complex(vr[src], vi[src])


def _lane_work(a, size, bsize):
    """The work buffers of the imaginary parts ``(ui, vi, si)`` for complex ``a``, None for
    real (pure-Python stub of the jitted overload)."""
    if a.dtype.kind != "c":
        return None, None, None
    real = a.real.dtype
    return np.zeros(size, real), np.zeros(size, real), np.zeros(bsize, real)


@overload(_lane_work)
def _lane_work_overload(a, size, bsize):
    if isinstance(a.dtype, types.Complex):
        real = a.dtype.underlying_float

        def work_complex(a, size, bsize):
            return np.zeros(size, real), np.zeros(size, real), np.zeros(bsize, real)
        return work_complex
    return lambda a, size, bsize: (None, None, None)


def _params_of(w):
    """`_params` of the real array ``w``'s dtype (pure-Python stub: jitted, three constants
    of its type, not arguments, which would each add to numba's dispatch per call)."""
    return _params(w.dtype)


@overload(_params_of)
def _params_of_overload(w):
    eps, lo, hi = _params(np.dtype(str(w.dtype)))
    return lambda w: (eps, lo, hi)


@njit(**_JIT)
def eigh_stack(a, w, v, info, upper, compute_v, max_sweeps):
    """The kernels on a C-contiguous ``(count, n, n)`` stack or one ``(n, n)`` matrix,
    n >= 2, in one jitted call: ``w (..., n)``, ``v`` of a's shape (any ``(1, n, n)`` array
    unless ``compute_v``), ``info (...)``. Returns whether an element needs the caller's
    attention: a failure (``info`` 1, not yet NaN-filled) or an infinite eigenvalue. On one
    or ten 3x3 matrices the general path's Python bookkeeping (views, closures, the thread
    pool's decision, a 15-argument dispatch, the checks) cost 7 us against 0.1 us of
    arithmetic."""
    n = a.shape[-1]
    count = a.size // (n * n)
    eps, lo, hi = _params_of(w)
    af = a.reshape(count, n * n)
    wf = w.reshape(count, n)
    vf = v.reshape(v.size // (n * n), n * n)
    inf = info.reshape(count)
    if n == 2:
        eigh2_gufunc(af, wf, vf, inf, upper, compute_v, eps, lo, hi)
    else:
        bsize = 1
        while bsize < count and bsize < 32:  # `_block_size`
            bsize *= 2
        ui, vi, si = _lane_work(a, n * n * bsize, bsize)
        eigh_block_gufunc(af, n, wf, vf, inf, upper, compute_v, eps, lo, hi, max_sweeps,
                          bsize, ui, vi, si)
    return attention(inf, wf)


@njit(**_JIT)
def attention(info, w):
    """Whether an element of the ``(count, n)`` result failed or has an infinite eigenvalue."""
    n = w.shape[1]
    for b in range(w.shape[0]):
        # ascending: the ends tell whether every eigenvalue is finite
        if info[b] != 0 or not (abs(w[b, 0]) < np.inf and abs(w[b, n - 1]) < np.inf):
            return True
    return False


_PARAMS = {}


def _block_size(n, count):
    """Matrices per block: 32 lanes (16 to 64 measured alike for n = 3, 4, 16), fewer for a
    small batch."""
    return min(32, 1 << max(0, (count - 1).bit_length()))


def _params(dtype):
    """``(eps, lo, hi)`` of a compute dtype: squares of entries in ``[lo, hi]`` (and of the
    floor ``eps**2 * max|a_ij|``) neither overflow nor underflow."""
    p = _PARAMS.get(dtype)
    if p is None:
        f = np.finfo(dtype)
        eps = float(f.eps)
        p = _PARAMS[dtype] = (eps, math.sqrt(float(f.tiny)) / (eps * eps) * 4,
                              math.sqrt(float(f.max)) / 8)
    return p


def eigh(a, upper=False, compute_v=True):
    """Eigenvalues (ascending) and eigenvectors of every matrix of a Hermitian stack.

    Parameters
    ----------
    a : (..., n, n) array_like
        float32, float64, complex64 or complex128 (computed in that precision), any layout;
        only the lower triangle (``upper=True``: the upper one) and the real part of the
        diagonal are read.
    upper, compute_v : bool
        Read the upper triangle instead of the lower one; compute the eigenvectors too.

    Returns
    -------
    w : (..., n) ndarray
        Eigenvalues in ascending order, real dtype of a's precision.
    v : (..., n, n) ndarray or None
        Orthonormal eigenvectors in columns, a's dtype (None unless ``compute_v``).
    info : (...) ndarray of int32
        0 on success; 1 where the read triangle holds an inf or NaN or Jacobi did not
        converge in ``MAX_SWEEPS`` sweeps (those elements are NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from linalgx.kernels import _eigh
    >>> w, v, info = _eigh.eigh(np.array([[2., 1.], [1., 2.]]))
    >>> w, info
    (array([1., 3.]), array(0, dtype=int32))
    """
    small = api._small_stack(a, matrix=True)
    if small is not None and small[1] >= 2:
        count, n, _ = small
        dtype = a.dtype
        if count * n ** 3 * (3 if dtype.kind == "c" else 1) < PARALLEL_WORK:  # serial
            w = np.empty(a.shape[:-1], dtype=api._REAL[dtype])
            v = np.empty_like(a) if compute_v else None
            info = np.zeros(a.shape[:-2], dtype=np.int32)
            if eigh_stack(a, w, api.placeholder(dtype, n) if v is None else v, info,
                          bool(upper), v is not None, MAX_SWEEPS):
                _settle(a.reshape(count, n, n), w.reshape(count, n),
                        None if v is None else v.reshape(count, n, n), info.reshape(count),
                        upper)
            return w, v, info
    a, dtype, batch, n, count = api._square(a)
    cut = api._repeated_axes(a) if count > 1 and n else None
    if cut is not None:
        return tuple(api._repeat(batch, *eigh(*cut, upper, compute_v)))
    perm = api._batch_order(a)
    if perm is not None:
        return api._in_order(perm, eigh, (a,), upper, compute_v)
    real = np.empty(0, dtype=dtype).real.dtype
    w = np.empty(batch + (n,), dtype=real)
    v = np.empty(a.shape, dtype=dtype) if compute_v else None
    info = np.zeros(batch, dtype=np.int32)
    if count == 0 or n == 0:
        return w, v, info
    af = api._prepare(a, dtype).reshape(count, n * n)
    wf = w.reshape(count, n)
    vf = v.reshape(count, n * n) if compute_v else np.empty((1, 1), dtype=dtype)
    inf = info.reshape(count)
    upper = bool(upper)
    compute_v = bool(compute_v)
    eps, lo, hi = _params(dtype)
    if n == 1:
        d = af[:, 0].real
        wf[:, 0] = d
        inf[:] = ~np.isfinite(d)
        if compute_v:
            vf[:] = 1
    elif n == 2:
        def kernel(af, wf, vf, inf):
            eigh2_gufunc(af, wf, vf, inf, upper, compute_v, eps, lo, hi)
    else:
        bsize = _block_size(n, count)

        def kernel(af, wf, vf, inf):  # work buffers per call: chunks run concurrently
            ui = vi = si = None
            if dtype.kind == "c":
                ui = np.zeros(n * n * bsize, dtype=real)
                vi = np.zeros(n * n * bsize, dtype=real)
                si = np.zeros(bsize, dtype=real)
            eigh_block_gufunc(af, n, wf, vf, inf, upper, compute_v, eps, lo, hi, MAX_SWEEPS,
                              bsize, ui, vi, si)
    if n > 1:
        # a second thread pays from about 0.5 ms of serial work (about 5 ns * n**3 per
        # real matrix, measured at n = 3, 4, 16; complex costs about 3x)
        min_count = max(2, PARALLEL_WORK // (n ** 3 * (3 if dtype.kind == "c" else 1)))
        _parallel.run(kernel, (af, wf, vf, inf), count, min_count,
                      batched=(0, 1, 2, 3) if compute_v else (0, 1, 3), grain=32)
    if attention(inf, wf):
        _settle(af.reshape(count, n, n), wf, v.reshape(count, n, n) if compute_v else None,
                inf, upper)
    return w, v, info


def _settle(a, w, v, info, upper):
    """Act on what `attention` found, in place on the ``(count, n, n)`` stack's outputs (v
    None: eigenvalues only): NaN in the failed elements; an element with an infinite
    eigenvalue is redone by NumPy's LAPACK gufunc. Jacobi's rotation formulas overflow on
    entries within a factor of 2 of the overflow threshold, where LAPACK scales the matrix
    first; LAPACK's own answer may be inf. A redone element LAPACK fails on fails."""
    bad = info > 0
    if bad.any():
        w[bad] = np.nan
        if v is not None:
            v[bad] = np.nan if v.dtype.kind == "f" else complex(np.nan, np.nan)
    idx = np.flatnonzero(np.isinf(w).any(axis=1))
    if not idx.size:
        return
    from numpy.linalg import _umath_linalg as um
    wide = "D" if a.dtype.kind == "c" else "d"
    with np.errstate(all="ignore"):
        if v is not None:
            ufunc = um.eigh_up if upper else um.eigh_lo
            w[idx], v[idx] = ufunc(a[idx], signature=wide + "->d" + wide)
        else:
            ufunc = um.eigvalsh_up if upper else um.eigvalsh_lo
            w[idx] = ufunc(a[idx], signature=wide + "->d")
    failed = idx[np.isnan(w[idx]).any(axis=1)]
    info[failed] = 1


from . import api  # noqa: E402  (at the end: api imports this module)
