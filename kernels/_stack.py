"""The kernels of a ``(count, n, n)`` stack, chosen for n inside one jitted call.

``api`` runs every stack of inv, solve and Cholesky through these entry points (the chunks
of a large batch in the thread pool, a small C-contiguous stack directly), so which kernel
serves which n is decided here only. Each returns how many elements were marked
(``info != 0``, or a NaN result of det/slogdet): on a batch of ten 3x3 matrices, about 50 ns
of arithmetic, ``api``'s Python bookkeeping around the kernels (views reshaped in Python, a
second dispatch to count what was marked) had cost about 5 us, more than NumPy's LAPACK
gufunc takes for the whole call, so the small-stack path does that bookkeeping only when
the count is not 0.
"""
from numba import njit

from . import _cholesky, _det, _lu, _small, _soa


@njit(cache=True, nogil=True)
def _count_nonzero(info):
    c = 0
    for i in range(info.shape[0]):
        c += info[i] != 0
    return c


@njit(cache=True, nogil=True, error_model="numpy")
def det_stack(a, out, rtol):
    """``out = det(a)`` for the ``(count, n, n)`` stack; returns how many were marked."""
    count, n = a.shape[0], a.shape[1]
    _det.det_gufunc(a.reshape(count, n * n), n, out, rtol)
    return _det.count_nonfinite(out)


@njit(cache=True, nogil=True, error_model="numpy")
def slogdet_stack(a, sign, logabs, tiny, rtol):
    """``sign, logabs = slogdet(a)``; returns how many were marked (NaN)."""
    count, n = a.shape[0], a.shape[1]
    _det.slogdet_gufunc(a.reshape(count, n * n), n, sign, logabs, tiny, rtol)
    return _det.count_nan(sign) + _det.count_nan(logabs)


@njit(cache=True, nogil=True, error_model="numpy")
def inv_stack(a, out, info, sfmin, rtol):
    """``out = inv(a)`` for n >= 2 (LU kernels, SoA blocks for n <= 4); returns the number
    of nonzero ``info``."""
    count, n = a.shape[0], a.shape[1]
    af = a.reshape(count, n * n)
    of = out.reshape(count, n * n)
    if n == 2:
        _soa.inv2_soa(af, of, info, sfmin, rtol)
    elif n == 3:
        _soa.inv3_soa(af, of, info, sfmin, rtol)
    elif n == 4:
        _soa.inv4_soa(af, of, info, sfmin, rtol)
    else:
        _lu.inv_gufunc(af, n, of, info, sfmin, rtol)
    return _count_nonzero(info)


@njit(cache=True, nogil=True, error_model="numpy")
def solve_stack(a, b, x, info, sfmin, rtol):
    """``x = solve(a, b)`` for n >= 2 and ``(count, n, k)`` right-hand sides; returns the
    number of nonzero ``info``. With k == 0 a singular matrix still fails, as in gesv."""
    count, n, k = b.shape[0], b.shape[1], b.shape[2]
    af = a.reshape(count, n * n)
    bf = b.reshape(count, n * k)
    xf = x.reshape(count, n * k)
    if k == 1 and n == 2:
        _soa.solve2_soa(af, bf, xf, info, sfmin, rtol)
    elif k == 1 and n == 3:
        _soa.solve3_soa(af, bf, xf, info, sfmin, rtol)
    elif k == 1 and n == 4:
        _soa.solve4_soa(af, bf, xf, info, sfmin, rtol)
    elif k > 1 and n == 2:
        _small.solve2_gufunc(af, bf, k, xf, info, sfmin, rtol)
    elif k > 1 and n == 3:
        _small.solve3_gufunc(af, bf, k, xf, info, sfmin, rtol)
    elif k > 1 and n == 4:
        _small.solve4_gufunc(af, bf, k, xf, info, sfmin, rtol)
    else:
        _lu.solve_gufunc(af, bf, n, k, xf, info, sfmin, rtol)
    return _count_nonzero(info)


@njit(cache=True, nogil=True, error_model="numpy")
def cholesky_stack(a, out, info, upper, rtol):
    """``out = cholesky(a)`` for n >= 2; returns the number of nonzero ``info``."""
    count, n = a.shape[0], a.shape[1]
    af = a.reshape(count, n * n)
    of = out.reshape(count, n * n)
    if n == 2:
        _small.cholesky2_gufunc(af, of, info, upper, rtol)
    elif n == 3:
        _small.cholesky3_gufunc(af, of, info, upper, rtol)
    elif n == 4:
        _small.cholesky4_gufunc(af, of, info, upper, rtol)
    else:
        _cholesky.cholesky_gufunc(af, n, of, info, upper, rtol)
    return _count_nonzero(info)
