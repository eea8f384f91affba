"""The kernels of a ``(count, n, n)`` stack, chosen for n inside one jitted call.

``api`` runs every stack of inv, solve and Cholesky through these entry points (the chunks
of a large batch in the thread pool, a small C-contiguous stack directly), so which kernel
serves which n is decided here only. Each returns how many elements were marked
(``info != 0``, or a NaN result of det/slogdet): on a batch of ten 3x3 matrices, about 50 ns
of arithmetic, ``api``'s Python bookkeeping around the kernels (views reshaped in Python, a
second dispatch to count what was marked) had cost about 5 us, more than NumPy's LAPACK
gufunc takes for the whole call, so the small-stack path does that bookkeeping only when
the count is not 0.

Every entry point takes the order ``n`` of the ``(count, n, n)`` stack as an argument (it
equals ``a.shape[1]``) so that :func:`fixed` can compile the same code with ``n`` a
constant.
"""
import threading
import types

from numba import njit

from . import _cholesky, _det, _lu, _lu_stack, _small, _soa


@njit(cache=True, nogil=True)
def _count_nonzero(info):
    c = 0
    for i in range(info.shape[0]):
        c += info[i] != 0
    return c


@njit(cache=True, nogil=True, error_model="numpy")
def det_stack(a, n, out, rtol):
    """``out = det(a)`` for the ``(count, n, n)`` stack; returns how many were marked."""
    count = a.shape[0]
    _det.det_gufunc(a.reshape(count, n * n), n, out, rtol)
    return _det.count_nonfinite(out)


@njit(cache=True, nogil=True, error_model="numpy")
def slogdet_stack(a, n, sign, logabs, tiny, rtol):
    """``sign, logabs = slogdet(a)``; returns how many were marked (NaN)."""
    count = a.shape[0]
    _det.slogdet_gufunc(a.reshape(count, n * n), n, sign, logabs, tiny, rtol)
    return _det.count_nan(sign) + _det.count_nan(logabs)


@njit(cache=True, nogil=True, error_model="numpy")
def inv_stack(a, n, out, info, sfmin, rtol):
    """``out = inv(a)`` for n >= 2 (LU kernels, SoA blocks for n <= 4); returns the number
    of nonzero ``info``."""
    count = a.shape[0]
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
def solve_stack(a, b, n, x, info, sfmin, rtol):
    """``x = solve(a, b)`` for n >= 2 and ``(count, n, k)`` right-hand sides; returns the
    number of nonzero ``info``. With k == 0 a singular matrix still fails, as in gesv."""
    count, k = b.shape[0], b.shape[2]
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
def cholesky_stack(a, n, out, info, upper, rtol):
    """``out = cholesky(a)`` for n >= 2; returns the number of nonzero ``info``."""
    count = a.shape[0]
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


# The LU and Cholesky loops of _lu and _cholesky run to a bound n known only at run time.
# Compiled with n a constant (the thin closures below: LLVM inlines the generic kernels
# into them and unrolls the loops) they ran, on stacks of 1000 matrices here, 1.5-3x
# faster for real orders 5..16 (det 8x8 float64: 348 -> 168 us; cholesky 1.25-2.3x) and
# 1.3-1.8x for complex orders 10..16; complex orders 5..9 ran slower that way (det 0.56-0.8x,
# solve 0.62-0.84x; 8 alone gained), so complex stays generic below 10. Per dtype kind.
# Each order is compiled on its first use (about 1-2 s per op and dtype) and cached on
# disk: numba keys a closure's cache entry on the values it captures, here only N.
FIXED_N = {"f": range(5, 17), "c": range(10, 17)}
_fixed = {}
_fixed_lock = threading.Lock()


def fixed(n):
    """The entry points of this module (and ``det_gufunc``/``slogdet_gufunc``, and
    ``_lu_stack.getrs_one`` as ``getrs_one``, with ``getrs_stack``'s arguments) compiled
    for matrices of order ``n`` (any dtype; :data:`FIXED_N` says where that is faster);
    the same signatures, the ``n`` argument then ignored."""
    entries = _fixed.get(n)
    if entries is None:
        with _fixed_lock:
            entries = _fixed.get(n)
            if entries is None:
                entries = _fixed[n] = _build(n)
    return entries


def _build(N):
    jit = njit(cache=True, nogil=True, error_model="numpy")

    @jit
    def det_stack_n(a, n, out, rtol):
        return det_stack(a, N, out, rtol)

    @jit
    def slogdet_stack_n(a, n, sign, logabs, tiny, rtol):
        return slogdet_stack(a, N, sign, logabs, tiny, rtol)

    @jit
    def inv_stack_n(a, n, out, info, sfmin, rtol):
        return inv_stack(a, N, out, info, sfmin, rtol)

    @jit
    def solve_stack_n(a, b, n, x, info, sfmin, rtol):
        return solve_stack(a, b, N, x, info, sfmin, rtol)

    @jit
    def cholesky_stack_n(a, n, out, info, upper, rtol):
        return cholesky_stack(a, N, out, info, upper, rtol)

    @jit
    def det_gufunc_n(a, n, out, rtol):
        _det.det_gufunc(a, N, out, rtol)

    @jit
    def slogdet_gufunc_n(a, n, sign, logabs, tiny, rtol):
        _det.slogdet_gufunc(a, N, sign, logabs, tiny, rtol)

    @jit
    def getrs_one_n(lu, piv, x, trans, bad):  # getrs_stack's arguments (trans is 0)
        _lu_stack.getrs_one(lu, piv, x, bad, N)

    return types.SimpleNamespace(
        det_stack=det_stack_n, slogdet_stack=slogdet_stack_n, inv_stack=inv_stack_n,
        solve_stack=solve_stack_n, cholesky_stack=cholesky_stack_n, det_gufunc=det_gufunc_n,
        slogdet_gufunc=slogdet_gufunc_n, getrs_one=getrs_one_n)


# the generic entries under the names fixed() gives them, for the callers' one lookup
det_gufunc = _det.det_gufunc
slogdet_gufunc = _det.slogdet_gufunc
