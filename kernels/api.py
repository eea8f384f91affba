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
run concurrently and safely.

This module imports numba, so importing it is the expensive part of a first call (about
0.4 s even with cached kernels). It must not import linalgx: after a successful first call,
the caller (linalgx's numba implementations) records that the kernel is loaded with
``linalgx._core.routing.mark_loaded(op_name)``, so routing stops charging the start-up.
"""
import math

import numpy as np

from . import _cache

_cache.check()

from . import _cholesky, _det, _lu, _small  # noqa: E402

__all__ = ["inv", "det", "slogdet", "solve", "cholesky"]

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
        getattr(_small, f"inv{n}_gufunc")(af, of, inf)
    else:
        _lu.inv_gufunc(af, n, of, inf)
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
    elif 2 <= n <= 4 and k > 0:
        getattr(_small, f"solve{n}_gufunc")(af, bf, k, xf, inf)
    else:
        # k == 0 too: a singular matrix still fails, as in LAPACK gesv.
        _lu.solve_gufunc(af, bf, n, k, xf, inf)
    _fill_failed(x, info)
    return x, info


def det(a):
    """Determinant of every matrix of a ``(..., n, n)`` stack, shape ``(...)``, a's dtype.

    An exactly singular element (a zero LU pivot) gives 0; NaN and inf propagate. A single
    matrix gives a 0-d array (the caller converts it to a scalar). ``det`` of ``0 x 0`` is 1.
    """
    a, dtype, batch, n, count = _square(a)
    out = np.empty(batch, dtype=dtype)
    if n == 0:
        out[...] = 1
        return out
    if count == 0:
        return out
    _det.det_gufunc(_prepare(a, dtype).reshape(count, n * n), n, out.reshape(count))
    return out


def slogdet(a):
    """``(sign, logabsdet)`` of every matrix of a stack, NumPy's LU semantics.

    ``sign`` has a's dtype (a unit complex number for complex input; for real input +-1,
    +1 for NaN), ``logabsdet`` the real dtype of the same precision. A singular element
    gives ``(0, -inf)``; ``0 x 0`` gives ``(1, 0)``.
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
    _det.slogdet_gufunc(_prepare(a, dtype).reshape(count, n * n), n, sign.reshape(count),
                        logabs.reshape(count), np.finfo(real).tiny)
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
        getattr(_small, f"cholesky{n}_gufunc")(af, of, inf, upper)
    else:
        _cholesky.cholesky_gufunc(af, n, of, inf, upper)
    _fill_failed(out, info)
    return out, info
