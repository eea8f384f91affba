"""NumPy's input pipeline and messages, in one place.

Every public function converts, validates and picks the compute and result dtypes with
these helpers (the same steps as ``numpy/linalg/_linalg.py``). They read only ``shape``,
``ndim`` and ``dtype``, so autodiff Boxes pass through them unchanged.
"""
import numpy as np

from .box import Box
from .errors import (
    ConvergenceError,
    LinAlgError,
    NotPositiveDefiniteError,
    SingularMatrixError,
)

# NumPy's exact texts: user code matches on them. Detail is appended, never prepended.
MESSAGES = {
    "singular": "Singular matrix",
    "singular_d": "Singular matrix",
    "not_pd": "Matrix is not positive definite",
    "eig_conv": "Eigenvalues did not converge",
    "svd_conv": "SVD did not converge",
    "lstsq_conv": "SVD did not converge in Linear Least Squares",
    "square": "Last 2 dimensions of the array must be square",
    "ndim_min2": "%d-dimensional array given. Array must be at least two-dimensional",
    "ndim_eq2": "%d-dimensional array given. Array must be two-dimensional",
    "nonfinite": "Array must not contain infs or NaNs",
    "uplo": "UPLO argument must be 'L' or 'U'",
    "dtype": "array type %s is unsupported in linalg",
    "tensorsolve": "Input arrays must satisfy the requirement \
            prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])",
    "qr_mode": "Unrecognized mode '%s'",
    "ufunc_cast": "Cannot cast ufunc %r input from %r to %r with casting rule 'same_kind'",
    "qr_full": "The 'full' option is deprecated in favor of 'reduced'.\n"
               "For backward compatibility let mode default.",
    "qr_economic": "The 'economic' option is deprecated.",
    "qr_fail": "Incorrect argument found while performing QR factorization",
    # linalgx's extra functions (torch.linalg semantics): no NumPy text to match.
    "core_mismatch": "%s: incompatible shapes %s and %s for the equation %s",
    "pivots_shape": "%s: expected pivots of shape %s.shape[:-1] == %s, got %s",
    "householder_dims": "householder_product: expected input (..., m, n) and tau (..., k) "
                        "with the same batch shape and m >= n >= k, got input %s and tau %s",
    "qr_complete_grad": "qr: mode='complete' with more rows than columns is not "
                        "differentiable (the extra columns of Q are arbitrary)",
    "pivots_dtype": "%s: pivots must be an integer array, got dtype %s",
    "phase_gauge": "%s: the eigenvectors of a complex matrix are defined only up to a phase "
                   "e^{i phi} per column, and the differentiated function depends on that "
                   "phase, so its derivative is ill-defined",
    "degenerate_split": "%s: the function depends both on the eigenvectors of repeated "
                        "eigenvalues and on those eigenvalues (as a matrix function "
                        "V f(w) V^H does); its derivative at an exactly degenerate spectrum "
                        "depends on how the eigenvalues split and is not computable from the "
                        "decomposition: use a dedicated op (matrix_exp) or differentiate "
                        "the eigenvalues and the eigenspace projectors separately",
    "degenerate_second_order": "%s: second derivatives at repeated eigenvalues (or singular "
                               "values) need the differentiated function's own second "
                               "derivative in the tied values (Lewis and Sendov 2001), which "
                               "the chain rule through the decomposition cannot see, so they "
                               "are not computed (PyTorch returns NaN there)",
    "degenerate_gauge": "%s: repeated eigenvalues have eigenvectors defined only up to a "
                        "rotation within their eigenspace, and the differentiated function "
                        "depends on that choice, so its derivative is ill-defined",
    # svd / norm / products family (NumPy's texts)
    "tol_rtol": "`tol` and `rtol` can't be both set.",
    "rtol_rcond": "`rtol` and `rcond` can't be both set.",
    "lstsq_dims": "Incompatible dimensions",
    "cond_empty": "cond is not defined on empty arrays",
    "norm_matrix_ord": "Invalid norm order for matrices.",
    "norm_vector_ord": "Invalid norm order '%s' for vectors",
    "norm_dup_axes": "Duplicate axes given.",
    "norm_ndim": "Improper number of dimensions to norm.",
    "norm_axis_type": "'axis' must be None, an integer or a tuple of integers",
    "multi_dot_few": "Expecting at least two arrays.",
    "power_exponent": "exponent must be an integer",
    "power_object_stack": "matrix_power not supported for stacks of object arrays",
    "outer_ndim": "Input arrays must be one-dimensional, but they are x1.ndim=%d and "
                  "x2.ndim=%d.",
    "cross_dim": "Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                 "%d and %d dimensional instead.",
    "transpose_ndim": "Input array must be at least 2-dimensional",
    "out_traced": "%s: out= is not supported on traced (differentiated) values",
    # svd family extras (linalgx's own texts)
    "svd_gauge": "svd: the loss depends on %s, which the SVD leaves arbitrary (gauge-dependent "
                 "part %.3g of cotangent scale %.3g), so its gradient is not defined",
    "vander_n": "N must be greater than 1.",
    "vander_dtype": "vander supports floating point, complex, and integer arrays, but got %s",
    # scipy.special's texts
    "multigammaln_d": "d should be a positive integer (dimension)",
    "multigammaln_a": "condition a ({}) > 0.5 * (d-1) ({}) not met",
}

_ERROR_CLASSES = {
    "singular": SingularMatrixError,
    "singular_d": SingularMatrixError,
    "not_pd": NotPositiveDefiniteError,
    "eig_conv": ConvergenceError,
    "svd_conv": ConvergenceError,
    "lstsq_conv": ConvergenceError,
}

# What a positive LAPACK-style status code means, per failure kind.
_INFO_DETAIL = {
    "singular": "U[{i},{i}] == 0",
    "singular_d": "D[{i},{i}] is zero or NaN",
    "not_pd": "leading minor of order {n} is not positive",
}


def _identity_wrap(x):
    return x


def makearray(a):
    """``numpy.linalg._makearray``: an ndarray view plus the wrapper that restores a subclass
    (np.matrix in, np.matrix out). Plain arrays, lists and Boxes get the identity."""
    if type(a) is np.ndarray or isinstance(a, Box):
        return a, _identity_wrap
    new = np.asarray(a)
    wrap = getattr(a, "__array_wrap__", None)
    if wrap is None or type(a) is type(new):
        return new, _identity_wrap

    def subclass_wrap(result):
        # a traced result (inside grad) has no subclass to restore
        return result if isinstance(result, Box) else wrap(result)
    return new, subclass_wrap


def is_complex_dtype(dtype):
    return dtype.kind == "c"


_COMMON_TYPE_CACHE = {}
# (compute dtype, result dtype) of inputs whose dtypes every gufunc signature can cast from
# (kinds in _ALWAYS_CASTABLE), so that a hit needs no casting check: keyed as
# _COMMON_TYPE_CACHE, by the dtype of one input (prepare_square) or the tuple of two
# (solve's preparation); filled through remember_castable
CASTABLE_TYPES = {}


def remember_castable(key, types):
    if len(CASTABLE_TYPES) < 256:
        CASTABLE_TYPES[key] = types


def pair_types(a, b, ufunc, signatures, *scalars):
    """``common_type(a, b)`` after NumPy's dtype check of ``ufunc`` (``signatures = (real,
    complex)``; ``scalars``: its trailing non-array operands), cached by the pair of dtypes
    (solve's and lstsq's preparation; callers on a hot path look up ``CASTABLE_TYPES[(a.dtype,
    b.dtype)]`` themselves first)."""
    key = a.dtype, b.dtype
    hit = CASTABLE_TYPES.get(key)
    if hit is not None:
        return hit
    t, result_t = common_type(a, b)
    if a.dtype.kind not in _ALWAYS_CASTABLE or b.dtype.kind not in _ALWAYS_CASTABLE:
        check_castable(ufunc, signatures[t.kind == "c"], a, b, *scalars)
    else:
        remember_castable(key, (t, result_t))
    return t, result_t


def common_type(*arrays):
    """NumPy's ``_commonType``: (compute dtype, result dtype).

    LAPACK routines compute in double or cdouble and cast back to single precision when every
    input was single precision; integer and bool inputs compute and return in double.
    float16 and longdouble raise ``TypeError`` as in NumPy.
    """
    # one array: keyed by its dtype; several: by the tuple (never equal to a dtype)
    n = len(arrays)
    if n == 1:
        key = arrays[0].dtype
    elif n == 2:
        key = (arrays[0].dtype, arrays[1].dtype)
    else:
        key = tuple(a.dtype for a in arrays)
    hit = _COMMON_TYPE_CACHE.get(key)
    if hit is None:
        hit = _common_type((key,) if n == 1 else key)
        if len(_COMMON_TYPE_CACHE) < 256:
            _COMMON_TYPE_CACHE[key] = hit
    return hit


def prepare_square(a, ufunc, signatures):
    """NumPy's pipeline for one ``(..., M, M)`` input, as one call (it runs on every call).

    ``makearray``, ``assert_stacked_square``, ``common_type`` and ``check_castable`` (with
    ``signatures = (real_signature, complex_signature)`` of ``ufunc``). Returns
    ``(a, wrap, compute_dtype, result_dtype)``. A plain ndarray keeps its dtype, as in
    NumPy: the LAPACK gufuncs cast it inside the call (given the compute signature), which
    is cheaper than a separate ``astype``; numba implementations call `as_compute`. A Box is
    cast here (autodiff rules see the compute dtype).
    """
    if type(a) is np.ndarray:
        wrap = _identity_wrap
    else:
        a, wrap = makearray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        assert_stacked_square(a)  # raises NumPy's error
    dt = a.dtype
    hit = CASTABLE_TYPES.get(dt)
    if hit is None:
        t, result_t = common_type(a)
        if dt.kind not in _ALWAYS_CASTABLE:
            check_castable(ufunc, signatures[t.kind == "c"], a)
        else:
            remember_castable(dt, (t, result_t))
    else:
        t, result_t = hit
    if dt is not t and type(a) is not np.ndarray:
        a = a.astype(t, copy=False)
    return a, wrap, t, result_t


_COMPUTE = (np.dtype(np.float64), np.dtype(np.complex128))  # native byte order only


def as_compute(*arrays):
    """The arrays in their common compute dtype (float64 or complex128, native byte order):
    for implementations that compute in the array's own dtype (the numba kernels, SciPy's
    LAPACK wrappers), given arrays that `prepare_square` left in the caller's dtype."""
    dt = arrays[0].dtype  # the hot path: arrays already in one compute dtype
    if dt is _COMPUTE[0] or dt is _COMPUTE[1]:
        if len(arrays) == 1:
            return arrays[0]
        if all(x.dtype is dt for x in arrays[1:]):
            return arrays
    t = common_type(*arrays)[0]
    out = tuple(a if a.dtype is t else a.astype(t) for a in arrays)
    return out[0] if len(out) == 1 else out


def _common_type(dtypes):
    result_double = False
    is_complex = False
    for dt in dtypes:
        if dt.kind in "fc":
            if dt.kind == "c":
                is_complex = True
            # compare scalar types: a byte-swapped '>f8' is still float64
            if dt.type in (np.float64, np.complex128):
                result_double = True
            elif dt.type not in (np.float32, np.complex64):
                raise TypeError(MESSAGES["dtype"] % (dt.name,))
        else:
            result_double = True
    if is_complex:
        return np.dtype(np.complex128), np.dtype(np.complex128 if result_double else np.complex64)
    return np.dtype(np.float64), np.dtype(np.float64 if result_double else np.float32)


_EPS = {}


def eps(dtype):
    """``np.finfo(dtype).eps``, cached (``np.finfo`` costs about 0.5 us per call)."""
    e = _EPS.get(dtype)
    if e is None:
        e = np.finfo(dtype).eps
        if len(_EPS) < 64:
            _EPS[dtype] = e
    return e


_REAL_DTYPE = {}


def real_dtype(dtype):
    """The real dtype of the same precision (complex128 -> float64)."""
    real = _REAL_DTYPE.get(dtype)
    if real is None:
        real = np.empty(0, dtype=dtype).real.dtype
        if len(_REAL_DTYPE) < 64:
            _REAL_DTYPE[dtype] = real
    return real


def assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(MESSAGES["ndim_min2"] % a.ndim)


def assert_2d(*arrays):
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(MESSAGES["ndim_eq2"] % a.ndim)


def assert_stacked_square(*arrays):
    assert_stacked_2d(*arrays)
    for a in arrays:
        m, n = a.shape[-2:]
        if m != n:
            raise LinAlgError(MESSAGES["square"])


def assert_finite(a, func):
    """NumPy's up-front check of eig/eigvals (``Array must not contain infs or NaNs``, raised
    by ``isfinite`` for object input as NumPy's is), naming the first failing element."""
    ok = np.isfinite(a)
    if ok.all():
        return
    batch = a.shape[:-2]
    index = int(np.flatnonzero(~ok.reshape(batch + (-1,)).all(axis=-1))[0]) if batch else None
    raise batch_error("nonfinite", func, batch, index)


def batch_error(kind, func, batch_shape, index=None, info=None):
    """The exception for a failed batch element: NumPy's text, then which element and why.

    ``index`` is the flat index of the failing element in ``batch_shape`` (None if unknown),
    ``info`` its positive status code (LAPACK convention: a 1-based pivot or minor order).
    """
    detail = []
    batch_index = None
    if index is not None and len(batch_shape) > 0:
        batch_index = tuple(int(i) for i in np.unravel_index(index, batch_shape))
        detail.append(f"batch element {batch_index} of batch shape {tuple(batch_shape)}")
    if info is not None and info > 0 and kind in _INFO_DETAIL:
        detail.append(_INFO_DETAIL[kind].format(i=info - 1, n=info))
    message = f"{MESSAGES[kind]} ({func}: {', '.join(detail)})" if detail else (
        f"{MESSAGES[kind]} ({func})")
    cls = _ERROR_CLASSES.get(kind, LinAlgError)
    if cls is LinAlgError:
        error = LinAlgError(message)
    else:
        error = cls(message, batch_index=batch_index, info=None if info is None else int(info))
    error.func = func  # errors.name_error renames it to the public function called
    return error


def raise_on_info(info, kind, func, batch_shape):
    """Raise for the first non-zero status code of a per-element ``info`` array."""
    info = np.asarray(info).reshape(-1)
    bad = np.flatnonzero(info)
    if bad.size:
        i = int(bad[0])
        raise batch_error(kind, func, batch_shape, i, int(info[i]))


def check_pivots(func, pivots, n, blocks=False):
    """Raise ``ValueError`` for pivots LAPACK's solvers would index out of bounds with.

    getrs (``blocks=False``) swaps row ``i`` with row ``pivots[i] - 1``: every pivot must
    lie in ``[1, n]``. sytrs/hetrs (``blocks=True``, lower storage) read a negative pivot as
    the first of a 2x2 block whose second pivot repeats it, and swap with row
    ``-pivots[i] - 1``: ``|pivot|`` in ``[1, n]``, and negative ones in equal pairs.
    """
    if pivots.size == 0:
        return
    low = -n if blocks else 1
    if not blocks and low <= pivots.min() and pivots.max() <= n:
        return  # the common case: two reductions, no temporaries
    bad = (pivots < low) | (pivots > n) | (pivots == 0)
    what = f"must lie in [1, {n}]" if not blocks else f"must be nonzero with |pivot| <= {n}"
    if blocks and not bad.any():
        # within each run of negative pivots, positions 0, 2, 4, ... begin a 2x2 block
        # whose second pivot (none past the end) must repeat the first
        k = np.arange(pivots.shape[-1])
        neg = pivots < 0
        run_start = np.maximum.accumulate(np.where(neg, -1, k), axis=-1) + 1
        first = neg & ((k - run_start) % 2 == 0)
        following = np.concatenate([pivots[..., 1:], np.zeros_like(pivots[..., :1])], -1)
        bad = first & (following != pivots)
        what = ("that is negative must be repeated by the next pivot (a 2x2 block in "
                "LAPACK's sytrf convention)")
    if bad.any():
        idx = tuple(int(i) for i in np.unravel_index(np.argmax(bad), bad.shape))
        raise ValueError(f"{func}: pivots{list(idx)} = {pivots[idx]}: a pivot {what}")


def check_numeric(func, *arrays):
    """``TypeError`` for object, str and datetime arrays, as NumPy's LAPACK gufuncs give (the
    torch-style extras cast with ``astype``, which would parse strings)."""
    for a in arrays:
        if a.dtype.kind not in _ALWAYS_CASTABLE:
            raise TypeError(f"{func}: array type {a.dtype} is unsupported in linalg")


def check_bool(func, **flags):
    """torch.linalg's boolean keywords (``upper=``, ``left=``, ...) refuse other types."""
    for name, value in flags.items():
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{func}: argument '{name}' must be bool, not "
                            f"{type(value).__name__}")


def check_uplo(UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError(MESSAGES["uplo"])
    return UPLO


_SIG_DTYPES = {"d": np.float64, "D": np.complex128, "f": np.float32, "F": np.complex64}


# bool, integer, float and complex inputs always pass the 'same_kind' cast to the compute
# dtype that common_type picked (float16/longdouble were refused there already)
_ALWAYS_CASTABLE = "biufc"


def check_castable(ufunc, signature, *arrays):
    """Raise NumPy's own TypeError where its gufunc would refuse an input's dtype.

    NumPy hands the original arrays to its LAPACK gufuncs, so an object, str or datetime input
    fails the 'same_kind' cast inside the ufunc (``Cannot cast ufunc 'det' input from
    dtype('O') ...``). Calling the same gufunc on empty stand-ins of the same dtypes
    reproduces that exact exception without computing anything. Scalar operands (lstsq's
    rcond) are passed through as they are.
    """
    for a in arrays:
        if not isinstance(a, np.ndarray) or a.dtype.kind in _ALWAYS_CASTABLE:
            continue
        compute = np.dtype(_SIG_DTYPES[signature[0]])
        if not isinstance(a, Box) and not np.can_cast(a.dtype, compute, "same_kind"):
            ufunc(*(np.empty((0,) * x.ndim, dtype=x.dtype) if isinstance(x, np.ndarray) else x
                    for x in arrays), signature=signature)
            raise TypeError(MESSAGES["ufunc_cast"] % (ufunc.__name__, a.dtype, compute))
