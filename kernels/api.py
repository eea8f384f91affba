"""Python-level entry points to the kernels: any layout and batch shape in, NumPy arrays out.

Each function takes a ``(..., n, n)`` stack in any memory layout (Fortran order, negative
strides, read-only, non-native byte order), converts it ONCE to a C-contiguous, aligned,
writeable array of the native compute dtype, views it as ``(N, n*n)``, runs the kernel and
reshapes back. The compute dtype is the input's (float32, float64, complex64 or complex128;
other dtypes raise ``TypeError``: the caller picks the compute dtype). Inputs are never
modified. Failures are reported as LAPACK-style status codes in ``info`` arrays of the batch
shape (``int32``; 0 = success, ``i > 0``: the element is singular, or for Cholesky its
leading minor of order ``i`` is not positive), and the failed elements of ``inv``/``solve``/
``cholesky`` results are filled with NaN. Nothing here raises for singular input.

Which elements fail is NumPy's decision, not the kernels': an element whose factorization
meets a pivot that is negligible against the terms it was computed from (singular to
working precision), NaN or inf is redone by NumPy's own LAPACK gufunc, whose result
(NaN-filled where LAPACK's factorization hit an exactly zero or non-positive pivot) and
failure it then carries. For such an element ``i`` is LAPACK's own status (SciPy's getrf
or potrf on the element, in double precision; the kernels' first negligible pivot in the
rare case where that LAPACK build does not fail). det and slogdet do the same for the
elements they mark NaN.

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

from . import _det, _expm, _ldl, _lu, _lu_stack, _parallel, _qr, _soa, _stack  # noqa: E402

__all__ = ["inv", "det", "slogdet", "solve", "cholesky", "eigh", "svd", "lu_factor",
           "lu_solve", "solve_triangular", "qr", "householder_product", "ldl_factor",
           "ldl_solve", "matrix_exp"]

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


def _repeated_axes(*arrays):
    """The arrays cut to length 1 along every batch axis on which all of them repeat one
    element (stride 0, as ``np.broadcast_to`` makes), or None when there is no such axis.

    The kernels take C-contiguous stacks; converting a broadcast stack would write out every
    repeat (``det(broadcast_to(eye(12), (10**8, 12, 12)))`` asked for 107 GiB, where NumPy's
    gufunc loops over the zero stride). Each distinct matrix is computed once instead, and
    `_repeat` writes the results out to the full batch shape.
    """
    first = arrays[0]
    nb = first.ndim - 2
    cut = [first.shape[i] > 1 and all(x.strides[i] == 0 for x in arrays) for i in range(nb)]
    if not any(cut):
        return None
    idx = tuple(slice(0, 1) if c else slice(None) for c in cut)
    return [x[idx] for x in arrays]


def _repeat(batch, *results):
    """Each result (of a cut stack, see `_repeated_axes`; None passes through) as a new
    array of the full ``batch`` shape."""
    out = []
    for r in results:
        if r is not None:
            full = np.empty(batch + r.shape[len(batch):], dtype=r.dtype)
            full[...] = r
            r = full
        out.append(r)
    return out


def _batch_order(*arrays):
    """The permutation of the batch axes (a list) that puts them in the inputs' memory order
    as NumPy's gufuncs see it, or None where that is C order (always for C-contiguous
    inputs and fewer than two batch axes).

    NumPy's gufuncs allocate their outputs with the batch axes in the order its iterator
    chooses from all inputs' strides (an F-ordered ``(p, q, n, n)`` stack gives results
    whose batch axes are F-ordered, each matrix C-ordered). The iterator's choice is read
    off an elementwise ufunc on a view of at most two elements per batch axis (the same
    strides), which allocates its output by the same rule."""
    first = arrays[0]
    nb = first.ndim - 2
    if nb < 2 or all(x.flags.c_contiguous for x in arrays) \
            or not all(x.shape[-1] and x.shape[-2] for x in arrays):
        return None
    views = [x[(slice(0, 2),) * nb + (0, 0)] for x in arrays]
    strides = (np.positive(views[0]) if len(views) == 1 else np.add(*views)).strides
    perm = sorted(range(nb), key=lambda i: -strides[i])
    return None if perm == list(range(nb)) else perm


def _in_order(perm, fn, arrays, *args):
    """``fn(*arrays, *args)`` computed on C-contiguous copies of the arrays with their batch
    axes permuted by ``perm`` (see `_batch_order`), and each batch-shaped result permuted
    back: NumPy's output layout, one copy of the input as the kernels make anyway."""
    nb = len(perm)
    moved = [np.ascontiguousarray(x.transpose(perm + list(range(nb, x.ndim))))
             for x in arrays]
    res = fn(*moved, *args)
    back = [int(i) for i in np.argsort(perm)]

    def restore(r):
        return r if r is None else r.transpose(back + list(range(nb, r.ndim)))
    return tuple(restore(r) for r in res) if isinstance(res, tuple) else restore(res)


def _rectangular(a):
    """``(a, dtype, batch, m, n, count)`` for a ``(..., m, n)`` stack (any supported dtype)."""
    a = np.asarray(a)
    if a.ndim < 2:
        raise ValueError(f"expected a (..., m, n) stack, got shape {a.shape}")
    m, n = a.shape[-2:]
    return a, _native(a.dtype), a.shape[:-2], m, n, math.prod(a.shape[:-2])


def _square(a, dtype=None):
    a = np.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expected a (..., n, n) stack, got shape {a.shape}")
    dtype = _native(a.dtype if dtype is None else dtype)
    batch = a.shape[:-2]
    n = a.shape[-1]
    return a, dtype, batch, n, math.prod(batch)


# Below this much work (count * n**3) a call is serial for every op and dtype (see
# _min_count), and a C-contiguous native (count, n, n) stack goes to its ``_stack`` entry
# point in one jitted call: on a batch of ten 3x3 matrices the general path's Python
# bookkeeping cost about 5 us against the kernels' 50 ns.
_SERIAL_WORK = 200_000


def _entry(n, dtype):
    """The stack kernels for matrices of order n: compiled for that n where
    ``_stack.FIXED_N`` holds it for this dtype's kind (its loops unrolled), the generic
    ones otherwise."""
    return _stack.fixed(n) if n in _stack.FIXED_N[dtype.kind] else _stack


def _small_stack(a, matrix=False):
    """``(count, n, (entry, rtol, tiny))`` for a stack the ``_stack`` entry points take as it
    is (a C-contiguous, aligned, writeable ``(count, n, n)`` ndarray of a supported native
    dtype, count >= 1, n >= 1, small enough to run serially), with its order's kernels
    (`_entry`), `_rtol` and tiny from one lookup; else None: the general path. With
    ``matrix=True`` (for kernels that take one ``(n, n)`` matrix as well) a 2-D ``a`` is a
    stack of one."""
    if type(a) is not np.ndarray or a.ndim != 3 and (a.ndim != 2 or not matrix) \
            or not a.flags.carray:
        return None
    shape = a.shape
    n = shape[-1]
    count = shape[0] if len(shape) == 3 else 1
    if n != shape[-2] or not count or count * n * n * n >= _SERIAL_WORK:
        return None
    key = (a.dtype, n)
    plan = _PLANS.get(key)
    if plan is None:
        dtype = a.dtype
        if dtype not in _SUPPORTED or not n:
            return None
        plan = _PLANS[key] = (_entry(n, dtype), _rtol(dtype, n), _TINY[dtype])
    return count, n, plan


def placeholder(dtype, n):
    """A ``(1, n, n)`` array of ``dtype`` standing in for an output that is not computed
    (eigenvectors, singular vectors): the kernels never write it."""
    key = (dtype, n)
    x = _PLACEHOLDERS.get(key)
    if x is None:
        x = _PLACEHOLDERS[key] = np.zeros((1, n, n), dtype=dtype)
    return x


_PLACEHOLDERS = {}

# (dtype, n) -> `_small_stack`'s plan; n < 59 (the cube root of _SERIAL_WORK) bounds it.
# On a batch of ten 2x2 matrices the three lookups it replaces cost a tenth of the call.
_PLANS = {}


# A second thread should pay once one call's serial work exceeds about 0.5 ms (a warm pool
# wakes in tens of microseconds; a cold vCPU takes milliseconds, and the calling thread then
# simply takes every chunk itself). The work of one element is counted as n**3 (weighted by
# op and dtype below): 22,000 3x3 float64 inverses, 7,400 complex ones, 1,200 8x8 ones. The
# dev machine was loaded (load average 5 on 2 CPUs) while this was written, so the threshold
# is an estimate from serial timings, to be confirmed on an idle machine.
PARALLEL_WORK = 600_000
_WEIGHT = {"det": 0.5, "slogdet": 1.0, "inv": 1.0, "solve": 0.7, "cholesky": 0.5,
           "lu_factor": 0.5, "lu_solve": 0.3, "solve_triangular": 0.2, "qr": 4.0,
           "householder_product": 2.0, "ldl_factor": 0.5, "ldl_solve": 0.3,
           "matrix_exp": 16.0}


def _min_count(op, n, dtype):
    w = _WEIGHT[op] * n ** 3 * (3 if dtype.kind == "c" else 1)
    return max(2, int(PARALLEL_WORK / w))


_SPLIT = {}  # (op, n, dtype) -> (min_count, grain): keeps small calls' overhead at ~0.3 us


def _grain(n):
    """Chunk boundaries for order n: about 256 entries, rounded up to whole blocks of
    ``_soa.LANES`` matrices. A chunk's last partial block runs the scalar kernels, whose
    rounding can differ from the block code's by an ulp (seen for complex 3x3 slogdet after
    a recompile), so chunks cut the batch only where a serial call's blocks end: the bits
    then do not depend on the thread count."""
    return -(-max(1, 256 // n ** 2) // _soa.LANES) * _soa.LANES


def _run(op, kernel, args, count, n, dtype, batched=None):
    key = (op, n, dtype)
    split = _SPLIT.get(key)
    if split is None:
        split = _SPLIT[key] = (_min_count(op, n, dtype), _grain(n))
    if count < split[0]:
        kernel(*args)
    else:
        _parallel.run(kernel, args, count, split[0], batched=batched, grain=split[1])


# From these orders on, LAPACK (NumPy's gufuncs, run on chunks of the batch in the pool's
# threads; they release the GIL) beats the numba LU kernels per matrix (measured, float64 and
# complex128). OpenBLAS factors and solves single-threaded while m * n < 10000, so below
# _LAPACK_UNTIL no BLAS thread pool nests inside these threads.
_LAPACK_FROM = {"inv": 24, "solve": 16}
_LAPACK_UNTIL = 99


def _lapack_kernel(ufunc, sig, rtol):
    """A chunk kernel ``(*inputs, out, info)`` calling a NumPy linalg gufunc; ``info`` > 0
    for the elements whose factorization failed in LAPACK."""
    def kernel(*args):
        *ins, out, info = args
        failed = _gufunc_failures(ufunc, sig, ins, out)
        if failed is not None:
            idx = np.flatnonzero(failed)
            n = ins[0].shape[-1]
            _lu.negligible_pivot(ins[0].reshape(-1, n * n), n, idx, info, rtol)
            _lapack_status(ufunc.__name__, ins[0][idx], info, idx)
    return kernel


def _use_lapack(op, n, k=0):
    return _LAPACK_FROM[op] <= n <= _LAPACK_UNTIL and k * n < 10_000


def _lapack(op, ins, out, info, count, n, dtype):
    from numpy.linalg import _umath_linalg as um
    sig = _wide(dtype).char * len(ins) + "->" + _wide(dtype).char
    _run(op, _lapack_kernel(getattr(um, op), sig, _rtol(dtype, n)), (*ins, out, info), count,
         n, dtype)


_TINY = {t: float(np.finfo(t).tiny) for t in _SUPPORTED}  # a float: fast to type
_EPS = {t: float(np.finfo(t).eps) for t in _SUPPORTED}
_REAL = {t: np.empty(0, dtype=t).real.dtype for t in _SUPPORTED}


def _sfmin(dtype):
    """LAPACK's sfmin (the smallest normal number) of the dtype's precision."""
    return _TINY[dtype]


def _rtol(dtype, n):
    """The kernels' negligible-pivot threshold, relative to the terms a pivot (or a closed
    form det) was summed from: an exactly singular matrix leaves rounding residue of a few
    eps times them (at most 5 eps of the largest entry in a fuzz of rank-deficient integer
    matrices, n = 3..10, where LAPACK found an exact zero)."""
    return 32 * n * _EPS[dtype]


def _wide(dtype):
    """NumPy's computing dtype for its linalg gufuncs: double precision (single-precision
    input is computed in double and the result cast back, as numpy.linalg does)."""
    return np.dtype(np.complex128 if dtype.kind == "c" else np.float64)


def _gufunc_failures(ufunc, sig, ins, out):
    """Run NumPy's gufunc ``ufunc(*ins, out=out)`` and tell which elements failed.

    NumPy's gufuncs NaN-fill a failed element and raise the floating-point "invalid" flag
    once per call. Returns None when the flag stayed clear, else a boolean mask over the
    elements: an all-NaN result from finite input is a failure; an all-NaN (or empty)
    result from NaN, inf or subnormal input (complex LAPACK can give an all-NaN inverse of
    ``[[1e-310]]`` without failing) is rerun alone to read the flag.
    """
    hit = []

    def note(*_):
        hit.append(True)

    with np.errstate(all="ignore", invalid="call", call=note):
        ufunc(*ins, out=out, signature=sig)
    if not hit:
        return None
    m = out.shape[0]
    flat = out.reshape(m, -1)
    nan_out = np.isnan(flat).all(axis=1) if flat.shape[1] else np.ones(m, dtype=bool)
    finite_in = np.ones(m, dtype=bool)
    for x in ins:
        x = x.reshape(m, -1)
        finite_in &= np.isfinite(x).all(axis=1)
        tiny = np.finfo(x.dtype).tiny
        for part in (x.real, x.imag) if x.dtype.kind == "c" else (x,):
            finite_in &= ~((np.abs(part) < tiny) & (part != 0)).any(axis=1)
    failed = nan_out & finite_in
    if flat.shape[1] == 0:
        failed[:] = False
    for i in np.flatnonzero(nan_out & ~failed):
        hit.clear()
        with np.errstate(all="ignore", invalid="call", call=note):
            ufunc(*(x[i:i + 1] for x in ins), out=out[i:i + 1], signature=sig)
        failed[i] = bool(hit)
    return failed


def _lapack_status(name, a, info, idx):
    """``info[idx[j]]`` = LAPACK's own status for the failed element whose matrix is
    ``a[j]``: getrf's (``U[i-1, i-1] == 0``) for inv and solve, potrf's (the leading minor of
    order i is not positive) for Cholesky, as torch's ``*_ex`` and linalgx's lapack backend
    report it, in double precision as NumPy's gufunc computed. Where that LAPACK build does
    not fail, ``info`` keeps the kernels' negligible pivot."""
    from scipy.linalg import lapack

    a = a.astype(_wide(a.dtype), copy=False)
    if name.startswith("cholesky"):
        potrf = lapack.get_lapack_funcs("potrf", dtype=a.dtype)
        codes = [potrf(m, lower=int(name == "cholesky_lo"))[1] for m in a]
    else:
        getrf = lapack.get_lapack_funcs("getrf", dtype=a.dtype)
        codes = [getrf(m)[2] for m in a]
    for i, code in zip(idx, codes):
        if code > 0:
            info[i] = code


def _settle(name, ins, out, info, dtype, nan_diagonal_fails=False):
    """Finish a call: redo the elements the kernels gave up on (``info < 0``) with NumPy's
    gufunc ``name``, which gives them NumPy's result and, where LAPACK failed,
    ``info = -info`` (else 0); then NaN-fill the failed elements. ``ins`` and ``out`` are
    the call's ``(count, ...)`` core-shaped arrays. One pass over ``info`` when nothing
    failed.

    ``nan_diagonal_fails`` (Cholesky): a redone factor with NaN on its diagonal fails too,
    at the first such entry, as in reference LAPACK's potrf (OpenBLAS's does not test for
    NaN and returns a partly NaN factor; linalgx's lapack backend applies the same rule).
    """
    if not np.count_nonzero(info):
        return
    idx = np.flatnonzero(info < 0)
    if idx.size:
        from numpy.linalg import _umath_linalg as um
        wide = _wide(dtype)
        sig = wide.char * len(ins) + "->" + wide.char
        res = np.empty((idx.size,) + out.shape[1:], dtype=wide)
        sub = [x[idx] for x in ins]
        failed = _gufunc_failures(getattr(um, name), sig, sub, res)
        out[idx] = res
        info[idx] = 0 if failed is None else np.where(failed, -info[idx], 0)
        if failed is not None:
            _lapack_status(name, sub[0][failed], info, idx[failed])
        if nan_diagonal_fails:
            bad = np.isnan(np.diagonal(res, axis1=-2, axis2=-1))
            info[idx] = np.where((info[idx] == 0) & bad.any(axis=-1), bad.argmax(axis=-1) + 1,
                                 info[idx])
    out[info > 0] = np.nan if out.dtype.kind == "f" else complex(np.nan, np.nan)


def _divide_1x1(num, af, out, info, dtype):
    """``out = num / af`` for a stack of 1x1 matrices ``af`` of shape ``(count, 1)``. A zero,
    subnormal, infinite or NaN element is left to `_settle` (``info = -1``): LAPACK takes
    the reciprocal of a subnormal pivot (inf where the quotient is finite) and NumPy's
    gufunc gives NaN for some of these, so they get its answer, without warnings. So does
    an element whose quotient is not finite (an overflow, or inf/NaN in ``num``): complex
    LAPACK gives NaN + NaN j where ``np.divide`` gives inf, and NumPy's linalg does not
    report the overflow."""
    d = af[:, 0]
    with np.errstate(all="ignore"):  # as numpy.linalg: no over/underflow is reported
        mag = np.abs(d.real) + np.abs(d.imag) if dtype.kind == "c" else np.abs(d)
        ok = (mag >= _sfmin(dtype)) & (mag < np.inf)
        np.divide(num, af, out=out, where=ok[:, None])
    ok &= np.isfinite(out).all(axis=1)
    info[:] = np.where(ok, 0, -1)


def inv(a):
    """Inverse of every matrix of a ``(..., n, n)`` stack.

    Returns ``(out, info)``: ``out`` of a's shape and dtype (NaN where ``info > 0``), and
    ``info`` of the batch shape (int32, LAPACK getrf's convention).
    """
    small = _small_stack(a)
    if small is not None and 2 <= small[1] < _LAPACK_FROM["inv"]:
        count, n, (entry, rtol, tiny) = small
        dtype = a.dtype
        out = np.empty_like(a)
        info = np.zeros(count, dtype=np.int32)
        if entry.inv_stack(a, n, out, info, tiny, rtol):
            _settle("inv", (a,), out, info, dtype)
        return out, info
    a, dtype, batch, n, count = _square(a)
    cut = _repeated_axes(a) if count > 1 and n else None
    if cut is not None:
        return tuple(_repeat(batch, *inv(*cut)))
    perm = _batch_order(a)
    if perm is not None:
        return _in_order(perm, inv, (a,))
    out = np.empty(a.shape, dtype=dtype)
    info = np.zeros(batch, dtype=np.int32)
    if count == 0 or n == 0:
        return out, info
    af = _prepare(a, dtype).reshape(count, n * n)
    of = out.reshape(count, n * n)
    inf = info.reshape(count)
    if n == 1:
        _divide_1x1(1, af, of, inf, dtype)
    elif _use_lapack("inv", n):
        _lapack("inv", (af.reshape(count, n, n),), of.reshape(count, n, n), inf, count, n,
                dtype)
    else:
        _run("inv", _entry(n, dtype).inv_stack,
             (af.reshape(count, n, n), n, of.reshape(count, n, n), inf, _sfmin(dtype),
              _rtol(dtype, n)), count, n, dtype)
    _settle("inv", (af.reshape(count, n, n),), out.reshape(count, n, n), inf, dtype)
    return out, info


def solve(a, b):
    """Solve ``a x = b`` for a ``(..., n, n)`` stack ``a`` and ``(..., n, k)`` stack ``b``.

    The batch dimensions must already agree (the caller broadcasts them and applies NumPy's
    vector-``b`` rule). The compute dtype is the common type of ``a`` and ``b``. Returns
    ``(x, info)``: ``x`` of b's shape (NaN where ``info > 0``), ``info`` as in :func:`inv`.
    """
    small = _small_stack(a)
    if small is not None and 2 <= small[1] < _LAPACK_FROM["solve"] and type(b) is np.ndarray \
            and b.dtype is a.dtype and b.ndim == 3 and b.flags.carray \
            and b.shape[:2] == small[:2]:
        count, n, (entry, rtol, tiny) = small
        dtype = a.dtype
        x = np.empty_like(b)
        info = np.zeros(count, dtype=np.int32)
        if entry.solve_stack(a, b, n, x, info, tiny, rtol):
            _settle("solve", (a, b), x, info, dtype)
        return x, info
    a = np.asarray(a)
    b = np.asarray(b)
    dtype = np.result_type(a.dtype.newbyteorder("="), b.dtype.newbyteorder("="))
    a, dtype, batch, n, count = _square(a, dtype)
    if b.ndim != a.ndim or b.shape[:-1] != a.shape[:-1]:
        raise ValueError(f"solve: b of shape {b.shape} does not match a of shape {a.shape}")
    cut = _repeated_axes(a, b) if count > 1 and n else None
    if cut is not None:
        return tuple(_repeat(batch, *solve(*cut)))
    perm = _batch_order(a, b)
    if perm is not None:
        return _in_order(perm, solve, (a, b))
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
        _divide_1x1(bf, af, xf, inf, dtype)
    elif k > 0 and _use_lapack("solve", n, k):
        _lapack("solve", (af.reshape(count, n, n), bf.reshape(count, n, k)),
                xf.reshape(count, n, k), inf, count, n, dtype)
    else:
        _run("solve", _entry(n, dtype).solve_stack,
             (af.reshape(count, n, n), bf.reshape(count, n, k), n, xf.reshape(count, n, k),
              inf, _sfmin(dtype), _rtol(dtype, n)), count, n, dtype)
    _settle("solve", (af.reshape(count, n, n), bf.reshape(count, n, k)),
            x.reshape(count, n, k), inf, dtype)
    return x, info


def det(a):
    """Determinant of every matrix of a ``(..., n, n)`` stack, shape ``(...)``, a's dtype.

    An element that is singular to working precision, or holds inf or NaN, is redone by
    NumPy's LAPACK gufunc (0 where LAPACK meets an exactly zero pivot, its +-inf / NaN). A
    single matrix gives a 0-d array (the caller converts it to a scalar). ``det`` of
    ``0 x 0`` is 1.
    """
    small = _small_stack(a)
    if small is not None:
        count, n, (entry, rtol, _) = small
        out = np.empty(count, dtype=a.dtype)
        if entry.det_stack(a, n, out, rtol):
            _nonfinite_by_lapack("det", a.reshape(count, n * n), n, (out,), a.dtype)
        return out
    a, dtype, batch, n, count = _square(a)
    cut = _repeated_axes(a) if count > 1 and n else None
    if cut is not None:
        return _repeat(batch, det(*cut))[0]
    perm = _batch_order(a)
    if perm is not None:
        return _in_order(perm, det, (a,))
    out = np.empty(batch, dtype=dtype)
    if n == 0:
        out[...] = 1
        return out
    if count == 0:
        return out
    af = _prepare(a, dtype).reshape(count, n * n)
    _run("det", _entry(n, dtype).det_gufunc, (af, n, out.reshape(count), _rtol(dtype, n)),
         count, n, dtype)
    _nonfinite_by_lapack("det", af, n, (out.reshape(count),), dtype)
    return out


def _nonfinite_by_lapack(op, af, n, outs, dtype):
    """Redo the elements whose result came out NaN with NumPy's LAPACK gufunc: those the
    kernels marked (singular to working precision, where LAPACK's rounding decides between
    an exact 0 and a tiny det), and those with inf or NaN in the input, where the kernels'
    arithmetic (reciprocal pivots, closed forms) gives NaN where LAPACK's order of
    operations gives +-inf or another sign. A det that is inf is redone too: NumPy takes
    every det as ``sign * exp(logabsdet)`` (complex: whose sign ``d / |d|`` is NaN there),
    and its gufunc reports the overflow as a RuntimeWarning under the caller's errstate.
    One pass over the (small) results when nothing was marked."""
    # one numba pass per output first: NumPy's isnan + flatnonzero below cost about 3 us on
    # a batch of 16 (and a pass more over a large batch) when, as almost always, none is NaN
    if op == "det":
        marked = _det.count_nonfinite(outs[0])
    else:
        marked = _det.count_nan(outs[0]) + _det.count_nan(outs[1])
    if not marked:
        return
    bad = np.isnan(outs[0]) if op != "det" else ~np.isfinite(outs[0])
    for o in outs[1:]:
        bad |= np.isnan(o)
    idx = np.flatnonzero(bad)
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
    small = _small_stack(a)
    if small is not None:
        count, n, (entry, rtol, tiny) = small
        dtype = a.dtype
        sign = np.empty(count, dtype=dtype)
        logabs = np.empty(count, dtype=_REAL[dtype])
        if entry.slogdet_stack(a, n, sign, logabs, tiny, rtol):
            _nonfinite_by_lapack("slogdet", a.reshape(count, n * n), n, (sign, logabs), dtype)
        return sign, logabs
    a, dtype, batch, n, count = _square(a)
    cut = _repeated_axes(a) if count > 1 and n else None
    if cut is not None:
        return tuple(_repeat(batch, *slogdet(*cut)))
    perm = _batch_order(a)
    if perm is not None:
        return _in_order(perm, slogdet, (a,))
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
    _run("slogdet", _entry(n, dtype).slogdet_gufunc, (af, n, sign.reshape(count),
                                                logabs.reshape(count), _sfmin(real),
                                                _rtol(dtype, n)), count, n, dtype)
    _nonfinite_by_lapack("slogdet", af, n, (sign.reshape(count), logabs.reshape(count)),
                         dtype)
    return sign, logabs


def cholesky(a, upper=False):
    """Cholesky factor of every matrix of a stack of Hermitian positive-definite matrices.

    Reads only the lower triangle (``upper=True``: only the upper one, returning the upper
    factor ``U`` with ``A = U^H U``), like LAPACK potrf, and only the real part of the
    diagonal. Returns ``(factor, info)``: the factor with zeros in the other triangle (NaN
    where ``info > 0``), ``info`` of the batch shape, ``i > 0`` when the leading minor of
    order ``i`` is not positive (decided by NumPy's LAPACK for an element whose pivot is
    negligible against its diagonal entry, non-positive or NaN; a NaN on the diagonal of
    LAPACK's factor fails as in reference LAPACK).
    """
    small = _small_stack(a)
    if small is not None and small[1] >= 2:
        count, n, (entry, rtol, _) = small
        dtype = a.dtype
        out = np.empty_like(a)
        info = np.zeros(count, dtype=np.int32)
        if entry.cholesky_stack(a, n, out, info, bool(upper), rtol):
            _settle("cholesky_up" if upper else "cholesky_lo", (a,), out, info, dtype,
                    nan_diagonal_fails=True)
        return out, info
    a, dtype, batch, n, count = _square(a)
    cut = _repeated_axes(a) if count > 1 and n else None
    if cut is not None:
        return tuple(_repeat(batch, *cholesky(*cut, upper)))
    perm = _batch_order(a)
    if perm is not None:
        return _in_order(perm, cholesky, (a,), upper)
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
        inf[:] = np.where(d[:, 0] > 0, 0, -1)
        of[:] = np.sqrt(np.where(d > 0, d, 0))
    else:
        _run("cholesky", _entry(n, dtype).cholesky_stack, (af.reshape(count, n, n), n,
                                                    of.reshape(count, n, n), inf, upper,
                                                    _rtol(dtype, n)), count, n, dtype)
    _settle("cholesky_up" if upper else "cholesky_lo", (af.reshape(count, n, n),),
            out.reshape(count, n, n), inf, dtype, nan_diagonal_fails=True)
    return out, info


def lu_factor(a):
    """LU factorization with partial pivoting of every ``(m, n)`` matrix of a stack, LAPACK
    ``?getf2``'s algorithm and semantics (see ``_lu_stack``).

    Returns ``(lu, piv, info)``: ``lu`` of ``a``'s shape (``L`` below the diagonal, its unit
    diagonal not stored, ``U`` on and above), ``piv`` of shape ``(..., min(m, n))`` (int32,
    1-based row interchanges) and ``info`` of the batch shape (int32: the 1-based index of
    the first exactly zero pivot, 0 if none).
    """
    a, dtype, batch, m, n, count = _rectangular(a)
    k = min(m, n)
    lu = np.array(a, dtype=dtype, order="C", copy=True)
    piv = np.empty(batch + (k,), dtype=np.int32)
    info = np.zeros(batch, dtype=np.int32)
    if lu.size == 0:
        piv[...] = np.arange(1, k + 1, dtype=np.int32)
        return lu, piv, info
    near = np.zeros(count, dtype=np.bool_)
    flat = lu.reshape(count, m, n), piv.reshape(count, k), info.reshape(count)
    _run("lu_factor", _lu_stack.getf2_stack, (*flat, near, _rtol(dtype, max(m, n))), count,
         max(m, n), dtype)
    idx = np.flatnonzero(near)
    if idx.size:  # singular to working precision: LAPACK decides (see _lu_stack)
        from scipy.linalg import lapack
        getrf = lapack.get_lapack_funcs("getrf", dtype=dtype)
        src = a.reshape(count, m, n)
        for e in idx.tolist():
            flat[0][e], p, flat[2][e] = getrf(src[e])
            flat[1][e] = p + 1
    return lu, piv, info


def _stacked_solve(a, b, name):
    """``(a, x, count)``: ``a`` as a C-contiguous ``(count, n, n)`` stack and a C-contiguous
    copy ``x`` of the ``(count, n, k)`` right-hand sides, in one native compute dtype."""
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.ndim != a.ndim \
            or b.shape[:-1] != a.shape[:-1]:
        raise ValueError(f"{name}: expected (..., n, n) and (..., n, k) stacks of one batch "
                         f"shape, got shapes {a.shape} and {b.shape}")
    dtype = _native(a.dtype if a.dtype == b.dtype else np.result_type(a.dtype, b.dtype))
    count = math.prod(a.shape[:-2])
    n, k = b.shape[-2:]
    x = np.array(b, dtype=dtype, order="C", copy=True)
    return _prepare(a, dtype).reshape(count, n, n), x, count


def lu_solve(lu, piv, b, trans=0):
    """``op(A)^{-1} b`` for every element of a stack, given `lu_factor`'s ``(lu, piv)`` of
    ``A`` (LAPACK ``?getrs``); ``trans`` 0, 1 or 2 for ``A``, ``A^T`` or ``A^H``. ``b`` is
    ``(..., n, k)`` of ``lu``'s batch shape. No singularity check: a zero ``U[i, i]`` gives
    inf or NaN. Raises ``ValueError`` for a pivot outside ``1..n``."""
    lu_, x, count = _stacked_solve(lu, b, "lu_solve")
    n, k = x.shape[-2:]
    piv = np.ascontiguousarray(piv, dtype=np.int32)
    if piv.shape != np.shape(lu)[:-1]:
        raise ValueError(f"lu_solve: pivots of shape {piv.shape} for LU of shape "
                         f"{np.shape(lu)}")
    if x.size == 0 or count == 0:
        return x
    bad = np.zeros(count, dtype=np.int8)
    kernel = _lu_stack.getrs_stack
    if trans == 0 and k == 1 and n <= _lu_stack.FIXED_MAX_N and x.dtype.kind == "f":
        kernel = _stack.fixed(n).getrs_one
    _run("lu_solve", kernel, (lu_, piv.reshape(count, n), x.reshape(count, n, k), int(trans),
                              bad), count, n, x.dtype)
    if np.count_nonzero(bad):
        raise ValueError(f"lu_solve: pivots of batch element {int(np.flatnonzero(bad)[0])} "
                         f"are not all in 1..{n}")
    return x


def solve_triangular(a, b, upper, unit=False, trans=0):
    """``op(T)^{-1} b`` for every element of a stack (BLAS ``?trsm``, left side), ``T`` the
    upper or lower triangle of ``a`` (a unit diagonal where ``unit``); ``trans`` as in
    `lu_solve`. No singularity check."""
    a_, x, count = _stacked_solve(a, b, "solve_triangular")
    n, k = x.shape[-2:]
    if x.size == 0 or count == 0:
        return x
    _run("solve_triangular", _lu_stack.trsm_stack, (a_, x.reshape(count, n, k), bool(upper),
                                                    bool(unit), int(trans)), count, n, x.dtype)
    return x


def _safmin(dtype):
    """``?larfg``'s rescaling threshold ``tiny / eps`` for a dtype's precision."""
    return _TINY[dtype] / _EPS[dtype]


# A column whose remaining norm falls to this fraction of its norm makes Q's column a
# function of rounding, to about eps / _QR_RTOL relative (by itemsize of the real part).
_QR_RTOL = {8: 1e-3, 4: 1e-2}


def qr(a, mode="reduced"):
    """Householder QR of every ``(m, n)`` matrix of a stack (LAPACK ``?geqrf`` and
    ``?orgqr``'s unblocked algorithms, see ``_qr``), in a's (supported) dtype.

    ``mode``: ``"reduced"`` gives ``(q, r)`` of shapes ``(..., m, k)`` and ``(..., k, n)``,
    ``k = min(m, n)``; ``"complete"`` ``(..., m, m)`` and ``(..., m, n)``; ``"r"`` r alone
    (``(..., k, n)``); ``"raw"`` ``(h, tau)``: ``h`` of shape ``(..., n, m)``, the transpose
    of the factored matrix (R on and above its diagonal, the reflectors below, as NumPy's
    ``mode='raw'``), and ``tau`` of shape ``(..., k)``. ``a`` is never modified.

    Returns ``(result, near)``: ``near`` (bool, the batch shape) marks the elements with a
    column that depends on the others to within ``_QR_RTOL``, or a reflector whose sign
    rounding decides (see ``_qr._geqr2``): the caller has LAPACK redo them, so that Q and
    R are NumPy's.
    """
    a, dtype, batch, m, n, count = _rectangular(a)
    k = min(m, n)
    h = np.array(np.swapaxes(a, -1, -2), dtype=dtype, order="C", copy=True)
    tau = np.empty(batch + (k,), dtype=dtype)
    want_q = mode in ("reduced", "complete")
    want_r = mode != "raw"
    rows = m if mode == "complete" else k
    none = np.empty((0, 0, 0), dtype=dtype)
    q = np.empty(batch + (m, rows), dtype=dtype) if want_q else None
    r = np.empty(batch + (rows, n), dtype=dtype) if want_r else None
    near = np.zeros(batch, dtype=np.bool_)
    if count and m and n:
        _run("qr", _qr.qr_stack,
             (h.reshape(count, n, m), tau.reshape(count, k),
              none if q is None else q.reshape(count, m, rows),
              none if r is None else r.reshape(count, rows, n), want_q, want_r,
              _safmin(dtype), _QR_RTOL[dtype.itemsize // (2 if dtype.kind == "c" else 1)],
              32 * (m + n) * _EPS[dtype], near.reshape(count)), count, max(m, n), dtype)
    elif want_q:  # no reflectors: the identity's columns
        q[...] = np.eye(m, rows, dtype=dtype)
        if want_r:
            r[...] = 0
    if mode == "raw":
        return (h, tau), near
    return ((q, r) if want_q else r), near


def householder_product(a, tau):
    """The first n columns of ``H(0) ... H(k-1)`` for every element of a stack (LAPACK
    ``?orgqr``'s unblocked algorithm): ``a`` of shape ``(..., m, n)``, ``m >= n``, holds the
    reflectors' vectors below its diagonal (as ``?geqrf`` leaves them), ``tau`` of shape
    ``(..., k)``, ``k <= n``, their scalings; batch shapes already equal. Returns a new
    ``(..., m, n)`` array in the common (supported) dtype of ``a`` and ``tau``."""
    a, tau = np.asarray(a), np.asarray(tau)
    dtype = _native(np.result_type(a.dtype, tau.dtype))
    batch = a.shape[:-2]
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    if n > m or k > n or tau.shape[:-1] != batch:
        raise ValueError(f"householder_product: reflectors of shape {a.shape} and scalings "
                         f"of shape {tau.shape}")
    count = math.prod(batch)
    qt = np.array(np.swapaxes(a, -1, -2), dtype=dtype, order="C", copy=True)
    if count and m and n:
        _run("householder_product", _qr.org2r_stack,
             (qt.reshape(count, n, m), np.array(tau, dtype=dtype, order="C").reshape(count, k)),
             count, m, dtype)
    return np.ascontiguousarray(np.swapaxes(qt, -1, -2))


def ldl_factor(a, hermitian=False):
    """Bunch-Kaufman LDL^T (LDL^H with ``hermitian`` for complex input) of every ``(n, n)``
    matrix of a stack from its lower triangle, LAPACK ``?sytf2`` / ``?hetf2``'s algorithm
    (see ``_ldl``). ``a`` is never modified.

    Returns ``(ld, piv, info, near)``: ``ld`` of ``a``'s shape, each matrix column-major
    (as ``?sytrf`` leaves it; ``L`` and ``D`` in LAPACK's compact lower form, the strict
    upper triangle zero), ``piv`` ``(..., n)`` int32 (LAPACK's 1-based pivots), ``info``
    of the batch shape (int32, LAPACK's), and ``near`` (bool, the batch shape): the
    elements where rounding could have chosen a pivot, which the caller has LAPACK redo.
    """
    a, dtype, batch, n, count = _square(a)
    w = np.array(np.swapaxes(a, -1, -2), dtype=dtype, order="C", copy=True)
    piv = np.empty(batch + (n,), dtype=np.int32)
    info = np.zeros(batch, dtype=np.int32)
    near = np.zeros(batch, dtype=np.bool_)
    if count and n:
        _run("ldl_factor", _ldl.sytf2_stack,
             (w.reshape(count, n, n), piv.reshape(count, n), info.reshape(count),
              near.reshape(count), bool(hermitian) and dtype.kind == "c",
              _rtol(dtype, n), 4 * n * _TINY[dtype] * _EPS[dtype]), count, n, dtype)
    return np.swapaxes(w, -1, -2), piv, info, near


def ldl_solve(ld, piv, b, hermitian=False):
    """``A^{-1} b`` for every element of a stack from `ldl_factor`'s ``(ld, piv)`` of ``A``
    (LAPACK ``?sytrs`` / ``?hetrs``): ``ld`` ``(..., n, n)`` and ``piv`` ``(..., n)`` of one
    batch shape, which broadcasts against that of ``b`` ``(..., n, k)``; each distinct
    factor is read where it is (a factor shared by many right-hand sides is not copied).
    Returns ``(x, bad)``: ``bad`` (int8, the broadcast batch shape) is 1 for the elements
    with an exactly singular block of ``D`` or a solution that overflowed, whose ``x`` the
    caller has LAPACK give (its inf/NaN), and 2 for those whose pivots ``?sytrs`` could not
    read (out of range, or a negative one not repeated by the next: see
    ``_ldl._pivots_ok``)."""
    ld, b = np.asarray(ld), np.asarray(b)
    if ld.ndim < 2 or ld.shape[-1] != ld.shape[-2] or np.shape(piv) != ld.shape[:-1] \
            or b.ndim < 2 or b.shape[-2] != ld.shape[-1]:
        raise ValueError(f"ldl_solve: expected (..., n, n), (..., n) and (..., n, k) stacks, "
                         f"got shapes {ld.shape}, {np.shape(piv)} and {b.shape}")
    dtype = _native(np.result_type(ld.dtype, b.dtype))
    n, k = b.shape[-2:]
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    count = math.prod(batch)
    nld = math.prod(ld.shape[:-2])
    # which factor each right-hand side uses: its index in ld's own (unbroadcast) stack
    which = np.broadcast_to(np.arange(nld).reshape(ld.shape[:-2]), batch).reshape(count)
    w = _prepare(np.swapaxes(ld, -1, -2), dtype)  # no copy for ldl_factor's column-major LD
    x = np.array(np.broadcast_to(b, batch + (n, k)), dtype=dtype, order="C", copy=True)
    bad = np.zeros(batch, dtype=np.int8)
    if count and n and k:
        _run("ldl_solve", _ldl.sytrs_stack,
             (w.reshape(nld, n, n), np.ascontiguousarray(piv, dtype=np.int32).reshape(nld, n),
              which, x.reshape(count, n, k), bool(hermitian) and dtype.kind == "c",
              bad.reshape(count)), count, n, dtype, batched=(2, 3, 5))
    return x, bad


def matrix_exp(a):
    """The matrix exponential of every ``(n, n)`` matrix of a stack (see ``_expm``), in a's
    (supported) dtype; all NaN for a matrix with a NaN or inf entry. Returns ``(out,
    flag)``: ``flag`` (int8, the batch shape) marks the elements the caller computes
    itself (triangular matrices that need squarings, powers of A that overflow, a Pade
    denominator singular to working precision, a result that is not finite)."""
    a, dtype, batch, n, count = _square(a)
    out = np.empty(batch + (n, n), dtype=dtype)
    flag = np.zeros(batch, dtype=np.int8)
    if count and n:
        _run("matrix_exp", _expm.expm_stack, (_prepare(a, dtype).reshape(count, n, n),
                                              out.reshape(count, n, n), flag.reshape(count)),
             count, n, dtype)
    return out, flag


# Defined in their own modules (which use this module's boundary helpers above).
from ._eigh import eigh  # noqa: E402
from ._svd import svd  # noqa: E402
