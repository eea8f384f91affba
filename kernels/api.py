"""Python-level entry points to the kernels: any layout and batch shape in, NumPy arrays out.

Each function takes a ``(..., n, n)`` stack in any memory layout (Fortran order, negative
strides, read-only, non-native byte order), converts it ONCE to a C-contiguous, aligned,
writeable array of the native compute dtype, views it as ``(N, n*n)``, runs the kernel and
reshapes back. The compute dtype is the input's (float32, float64, complex64 or complex128;
other dtypes raise ``TypeError``: the caller picks the compute dtype). Inputs are never
modified. Failures are reported as LAPACK-style status codes in ``info`` arrays of the batch
shape (``int32``; 0 = success, ``i > 0`` = ``U[i-1, i-1] == 0`` for LU or the leading minor
of order ``i`` not positive for Cholesky), and the failed elements of ``inv``/``solve``/
``cholesky`` results are filled with NaN. Nothing here raises for singular input.

The kernels are serial and release the GIL (``nogil=True``), so calls from several threads
run concurrently and safely. A large batch is split into chunks run on a few threads
(``_parallel.run``; bitwise the same result as one serial call): :data:`PARALLEL_WORK` sets
where that starts to pay.

This module imports numba, so importing it is the expensive part of a first call (about
0.4 s even with cached kernels). It must not import linalgx: after a successful first call,
the caller (linalgx's numba implementations) records that the kernel is loaded with
``linalgx._core.routing.mark_loaded(op_name)``, so routing stops charging the start-up.
"""
import math

import numpy as np

from . import _cache

_cache.check()

from . import _cholesky, _det, _lu, _parallel, _small, _soa  # noqa: E402

__all__ = ["inv", "det", "slogdet", "solve", "cholesky", "eigh", "svd"]

_SUPPORTED = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


def _native(dtype):
    if dtype in _SUPPORTED:  # the common case: already native
        return dtype
    dtype = np.dtype(dtype).newbyteorder("=")
    if dtype not in _SUPPORTED:
        raise TypeError(f"linalgx.kernels: unsupported dtype {dtype}; "
                        "expected float32, float64, complex64 or complex128")
    return dtype


def _prepare(a, dtype):
    """The one conversion at the boundary: C-contiguous, aligned, writeable, native dtype.

    Writeable and aligned matter because numba compiles a separate specialization for
    read-only or unaligned arrays.
    """
    f = a.flags
    if a.dtype != dtype or not (f.c_contiguous and f.aligned and f.writeable):
        a = np.array(a, dtype=dtype, order="C", copy=True)
    return a


def _square(a, dtype=None):
    a = np.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expected a (..., n, n) stack, got shape {a.shape}")
    dtype = _native(a.dtype if dtype is None else dtype)
    batch = a.shape[:-2]
    n = a.shape[-1]
    return a, dtype, batch, n, math.prod(batch)


# A second thread should pay once one call's serial work exceeds about 0.5 ms (a warm pool
# wakes in tens of microseconds; a cold vCPU takes milliseconds, and the calling thread then
# simply takes every chunk itself). The work of one element is counted as n**3 (weighted by
# op and dtype below): 22,000 3x3 float64 inverses, 7,400 complex ones, 1,200 8x8 ones. The
# dev machine was loaded (load average 5 on 2 CPUs) while this was written, so the threshold
# is an estimate from serial timings, to be confirmed on an idle machine.
PARALLEL_WORK = 600_000
_WEIGHT = {"det": 0.5, "slogdet": 1.0, "inv": 1.0, "solve": 0.7, "cholesky": 0.5}


def _min_count(op, n, dtype):
    w = _WEIGHT[op] * n ** 3 * (3 if dtype.kind == "c" else 1)
    return max(2, int(PARALLEL_WORK / w))


_SPLIT = {}  # (op, n, dtype) -> (min_count, grain): keeps small calls' overhead at ~0.3 us


def _run(op, kernel, args, count, n, dtype):
    key = (op, n, dtype)
    split = _SPLIT.get(key)
    if split is None:
        split = _SPLIT[key] = (_min_count(op, n, dtype), max(1, 256 // n ** 2))
    if count < split[0]:
        kernel(*args)
    else:
        _parallel.run(kernel, args, count, split[0], grain=split[1])


# From these orders on, LAPACK (NumPy's gufuncs, run on chunks of the batch in the pool's
# threads; they release the GIL) beats the numba LU kernels per matrix (measured, float64 and
# complex128). OpenBLAS factors and solves single-threaded while m * n < 10000, so below
# _LAPACK_UNTIL no BLAS thread pool nests inside these threads.
_LAPACK_FROM = {"inv": 24, "solve": 16}
_LAPACK_UNTIL = 99


def _lapack_kernel(ufunc, sig, sfmin):
    """A chunk kernel ``(*inputs, out, info)`` calling a NumPy linalg gufunc; ``info`` from
    getrf for the elements the gufunc NaN-filled (a zero pivot, or NaN in the input)."""
    def kernel(*args):
        *ins, out, info = args
        with np.errstate(all="ignore"):
            ufunc(*ins, out=out, signature=sig)
        count = out.shape[0]
        first = out.reshape(count, -1)[:, 0] if out.size else out.reshape(count, 0)
        idx = np.flatnonzero(first != first)
        if idx.size:
            n = ins[0].shape[-1]
            _lu.getrf_info_gufunc(ins[0].reshape(count, n * n), n, idx, info, sfmin)
    return kernel


def _use_lapack(op, n, k=0):
    return _LAPACK_FROM[op] <= n <= _LAPACK_UNTIL and k * n < 10_000


def _lapack(op, ins, out, info, count, n, dtype):
    from numpy.linalg import _umath_linalg as um
    sig = dtype.char * len(ins) + "->" + dtype.char
    _run(op, _lapack_kernel(getattr(um, op), sig, _sfmin(dtype)), (*ins, out, info), count, n,
         dtype)


_TINY = {t: float(np.finfo(t).tiny) for t in _SUPPORTED}  # a float: fast to type


def _sfmin(dtype):
    """LAPACK's sfmin (the smallest normal number) of the dtype's precision."""
    return _TINY[dtype]


def _fill_failed(out, info):
    if np.count_nonzero(info):
        out[info > 0] = np.nan if out.dtype.kind == "f" else complex(np.nan, np.nan)


def inv(a):
    """Inverse of every matrix of a ``(..., n, n)`` stack.

    Returns ``(out, info)``: ``out`` of a's shape and dtype (NaN where ``info > 0``), and
    ``info`` of the batch shape (int32, LAPACK getrf's convention).
    """
    a, dtype, batch, n, count = _square(a)
    out = np.empty(a.shape, dtype=dtype)
    info = np.zeros(batch, dtype=np.int32)
    if count == 0 or n == 0:
        return out, info
    af = _prepare(a, dtype).reshape(count, n * n)
    of = out.reshape(count, n * n)
    inf = info.reshape(count)
    if n == 1:
        inf[:] = af[:, 0] == 0
        np.divide(1, af, out=of, where=af != 0)
    elif n <= 4:
        _run("inv", getattr(_soa, f"inv{n}_soa"), (af, of, inf, _sfmin(dtype)), count, n,
             dtype)
    elif _use_lapack("inv", n):
        _lapack("inv", (af.reshape(count, n, n),), of.reshape(count, n, n), inf, count, n,
                dtype)
    else:
        _run("inv", _lu.inv_gufunc, (af, n, of, inf, _sfmin(dtype)), count, n, dtype)
    _fill_failed(out, info)
    return out, info


def solve(a, b):
    """Solve ``a x = b`` for a ``(..., n, n)`` stack ``a`` and ``(..., n, k)`` stack ``b``.

    The batch dimensions must already agree (the caller broadcasts them and applies NumPy's
    vector-``b`` rule). The compute dtype is the common type of ``a`` and ``b``. Returns
    ``(x, info)``: ``x`` of b's shape (NaN where ``info > 0``), ``info`` as in :func:`inv`.
    """
    a = np.asarray(a)
    b = np.asarray(b)
    dtype = np.result_type(a.dtype.newbyteorder("="), b.dtype.newbyteorder("="))
    a, dtype, batch, n, count = _square(a, dtype)
    if b.ndim != a.ndim or b.shape[:-1] != a.shape[:-1]:
        raise ValueError(f"solve: b of shape {b.shape} does not match a of shape {a.shape}")
    k = b.shape[-1]
    x = np.empty(b.shape, dtype=dtype)
    info = np.zeros(batch, dtype=np.int32)
    if count == 0 or n == 0:
        return x, info
    af = _prepare(a, dtype).reshape(count, n * n)
    bf = _prepare(b, dtype).reshape(count, n * k)
    xf = x.reshape(count, n * k)
    inf = info.reshape(count)
    if n == 1:
        inf[:] = af[:, 0] == 0
        np.divide(bf, af, out=xf, where=af != 0)
    elif 2 <= n <= 4 and k == 1:
        _run("solve", getattr(_soa, f"solve{n}_soa"), (af, bf, xf, inf, _sfmin(dtype)), count,
             n, dtype)
    elif 2 <= n <= 4 and k > 0:
        _run("solve", getattr(_small, f"solve{n}_gufunc"), (af, bf, k, xf, inf, _sfmin(dtype)),
             count, n, dtype)
    elif k > 0 and _use_lapack("solve", n, k):
        _lapack("solve", (af.reshape(count, n, n), bf.reshape(count, n, k)),
                xf.reshape(count, n, k), inf, count, n, dtype)
    else:
        # k == 0 too: a singular matrix still fails, as in LAPACK gesv.
        _run("solve", _lu.solve_gufunc, (af, bf, n, k, xf, inf, _sfmin(dtype)), count, n,
             dtype)
    _fill_failed(x, info)
    return x, info


def det(a):
    """Determinant of every matrix of a ``(..., n, n)`` stack, shape ``(...)``, a's dtype.

    An exactly singular element (a zero LU pivot) gives 0; an element whose result comes
    out NaN (inf or NaN in the input) is redone by NumPy's LAPACK gufunc, whose +-inf / NaN
    it then carries. A single matrix gives a 0-d array (the caller converts it to a scalar).
    ``det`` of ``0 x 0`` is 1.
    """
    a, dtype, batch, n, count = _square(a)
    out = np.empty(batch, dtype=dtype)
    if n == 0:
        out[...] = 1
        return out
    if count == 0:
        return out
    af = _prepare(a, dtype).reshape(count, n * n)
    _run("det", _det.det_gufunc, (af, n, out.reshape(count)), count, n, dtype)
    _nonfinite_by_lapack("det", af, n, (out.reshape(count),), dtype)
    return out


def _nonfinite_by_lapack(op, af, n, outs, dtype):
    """Redo the elements whose result came out NaN with NumPy's LAPACK gufunc: with inf or
    NaN in the input the kernels' arithmetic (reciprocal pivots, closed forms) gives NaN
    where LAPACK's order of operations gives +-inf or another sign, and NumPy's answer is
    the reference. One pass over the (small) results when nothing failed."""
    bad = np.isnan(outs[0])
    for o in outs[1:]:
        bad |= np.isnan(o)
    idx = np.flatnonzero(bad)
    if idx.size == 0:
        return
    from numpy.linalg import _umath_linalg as um
    sig = {"det": "D->D", "slogdet": "D->Dd"} if dtype.kind == "c" else {"det": "d->d",
                                                                          "slogdet": "d->dd"}
    res = getattr(um, op)(af[idx].reshape(idx.size, n, n).astype(
        np.complex128 if dtype.kind == "c" else np.float64), signature=sig[op])
    for o, r in zip(outs, res if isinstance(res, tuple) else (res,)):
        o[idx] = r


def slogdet(a):
    """``(sign, logabsdet)`` of every matrix of a stack, NumPy's LU semantics.

    ``sign`` has a's dtype (a unit complex number for complex input; for real input +-1,
    NumPy's for NaN), ``logabsdet`` the real dtype of the same precision. A singular element
    gives ``(0, -inf)``; ``0 x 0`` gives ``(1, 0)``; NaN results are redone as in `det`.
    """
    a, dtype, batch, n, count = _square(a)
    real = np.empty(0, dtype=dtype).real.dtype
    sign = np.empty(batch, dtype=dtype)
    logabs = np.empty(batch, dtype=real)
    if n == 0:
        sign[...] = 1
        logabs[...] = 0
        return sign, logabs
    if count == 0:
        return sign, logabs
    af = _prepare(a, dtype).reshape(count, n * n)
    _run("slogdet", _det.slogdet_gufunc, (af, n, sign.reshape(count), logabs.reshape(count),
                                          _sfmin(real)), count, n, dtype)
    _nonfinite_by_lapack("slogdet", af, n, (sign.reshape(count), logabs.reshape(count)),
                         dtype)
    return sign, logabs


def cholesky(a, upper=False):
    """Cholesky factor of every matrix of a stack of Hermitian positive-definite matrices.

    Reads only the lower triangle (``upper=True``: only the upper one, returning the upper
    factor ``U`` with ``A = U^H U``), like LAPACK potrf, and only the real part of the
    diagonal. Returns ``(factor, info)``: the factor with zeros in the other triangle (NaN
    where ``info > 0``), ``info`` of the batch shape, ``i > 0`` when the leading minor of
    order ``i`` is not positive (a NaN counts as not positive).
    """
    a, dtype, batch, n, count = _square(a)
    out = np.empty(a.shape, dtype=dtype)
    info = np.zeros(batch, dtype=np.int32)
    if count == 0 or n == 0:
        return out, info
    af = _prepare(a, dtype).reshape(count, n * n)
    of = out.reshape(count, n * n)
    inf = info.reshape(count)
    upper = bool(upper)
    if n == 1:
        d = af.real
        inf[:] = ~(d[:, 0] > 0)
        of[:] = np.sqrt(np.where(d > 0, d, 0))
    elif 2 <= n <= 4:
        _run("cholesky", getattr(_small, f"cholesky{n}_gufunc"), (af, of, inf, upper), count, n,
             dtype)
    else:
        _run("cholesky", _cholesky.cholesky_gufunc, (af, n, of, inf, upper), count, n, dtype)
    _fill_failed(out, info)
    return out, info


# Defined in their own modules (which use this module's boundary helpers above).
from ._eigh import eigh  # noqa: E402
from ._svd import svd  # noqa: E402
