"""Combinatorics: comb, perm, factorial, factorial2.

SciPy's Python functions, mirrored: the same signatures, validation (messages included),
exact integer results (Python ints, or int/object arrays for ``factorial(..., exact=True)``)
and floating results, whose values come from this package's kernels: the binomial
coefficient (xsf ``binom``, ``kernels/special/combinatorics.py``, private to ``comb``),
:func:`poch` and :func:`gamma`/:func:`rgamma`.

The floating results are differentiable where they are smooth (``exact=True`` results are
integers and are not): ``comb`` through the binomial coefficient's partials
``binom (psi(N + 1) - psi(N - k + 1))`` and ``binom (psi(N - k + 1) - psi(k + 1))`` (and
their limits where a reciprocal gamma function vanishes), ``perm`` through ``poch(N - k + 1,
k)``'s, with the psi differences summed without cancellation (the recurrence up to 10, then
the asymptotic series term by term: ``psi(N + 1) - psi(N - 2)`` is 3e-12 at N = 1e12, the
plain difference of two values ~27.6 would keep 3 digits); ``factorial`` and ``factorial2``
through :func:`gamma`. The parts SciPy sets to a constant (``N < 0``, ``k > N``, ``n < 0``
with ``extend='zero'``, ...) have derivative 0: under a transform they are evaluated at
placeholder arguments, so that no NaN of the unused values reaches a derivative.
"""
import math
import warnings

import numpy as np

from .._core import basic as _xp
from .._core.box import Box
from .._core.xputil import unbox_all
from ._gamma import digamma
from ._gammafn import gamma, poch, rgamma
from ._ufunc import def_elementwise_rules, ufunc_op

__all__ = ["comb", "perm", "factorial", "factorial2"]

_binom = ufunc_op("comb_binom", cupy_name="binom")
# perm's poch(N - k + 1, k): SciPy's kernel, with partials whose psi differences do not
# cancel for N >> k (poch's own rules difference two psi values)
_perm_poch = ufunc_op("perm_poch", kernel="poch", cupy_name="poch")

# B_2j / (2j): psi(x) ~ log(x) - 1/(2x) - sum_j B_2j / (2j x**2j)
_PSI_ASY = np.array([1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12,
                     -3617 / 8160])
_SHIFT_TO = 10.0


def _plain(x):
    return np.asarray(unbox_all(x))


def _nonpos_int(v):
    with np.errstate(invalid="ignore"):
        return (v <= 0) & (v == np.floor(v))


def _psi_diff(xp, b, d):
    """psi(b + d) - psi(b) without the cancellation of the difference (its size is ~d/b,
    the psi values' ~log(b)): for b, b + d >= 1, both shifted to >= 10 by the recurrence
    (its terms d / ((b + j)(b + d + j)) exact to rounding), then the asymptotic series,
    differenced term by term (log1p(d/y), y**-2j expm1(-2j log1p(d/y))). Elsewhere the
    plain difference."""
    bv, dv = _plain(b), _plain(d)
    with np.errstate(invalid="ignore"):
        lo = np.minimum(bv, bv + dv)
        ok = np.isfinite(lo) & (lo >= 1.0)
        shift = np.where(ok, np.maximum(np.ceil(_SHIFT_TO - lo), 0.0), 0.0)
    bs = xp.where(ok, b, 10.0)
    ds = xp.where(ok, d, 1.0)
    acc = 0.0
    for j in range(int(shift.max()) if shift.size else 0):
        term = ds / ((bs + j) * (bs + ds + j))
        acc = acc + xp.where(j < shift, term, 0.0)
    y = bs + shift
    t = ds / y
    l1 = xp.log1p(t)
    asy = l1 + 0.5 * ds / (y * (y + ds))
    y2 = 1.0 / (y * y)
    yp = y2
    for j, c in enumerate(_PSI_ASY, start=1):
        asy = asy - c * yp * xp.expm1(-2.0 * j * l1)
        yp = yp * y2
    res = acc + asy
    if np.all(ok):
        return res
    bp = xp.where(ok, 0.5, b)
    dp = xp.where(ok, 0.5, d)
    return xp.where(ok, res, digamma(bp + dp) - digamma(bp))


def _d_binom(xp, out, n, k, wrt):
    """d binom(n, k) / d n (wrt 0) or d k (wrt 1). Where neither 1/Gamma vanishes:
    binom times differences of psi (``psi(n + 1) - psi(n - k + 1)``, ``psi(n - k + 1) -
    psi(k + 1)``, by :func:`_psi_diff`). Where 1/Gamma(n - k + 1) does, at n - k + 1 = -j
    (binom = 0 near there up to that factor): d/dn = -d/dk = (-1)**j j! / poch(n + 1, j + 1);
    where 1/Gamma(k + 1) does, at k + 1 = -j: d/dk = (-1)**j j! / poch(n + 1, j + 1), d/dn
    = 0; where both do, 0; NaN at the negative integers n (binom's NaN)."""
    nv, kv = _plain(n), _plain(k)
    with np.errstate(invalid="ignore"):
        a = _nonpos_int(nv - kv + 1)
        b = _nonpos_int(kv + 1)
        c = _nonpos_int(nv + 1)
    regular = ~(a | b | c)
    ns = xp.where(regular, n, 0.5)
    ks = xp.where(regular, k, 0.25)
    if wrt == 0:
        res = out * _psi_diff(xp, ns - ks + 1.0, ks)
    else:
        res = out * _psi_diff(xp, ks + 1.0, ns - 2.0 * ks)
    for sel, j, sign in ((a & ~b & ~c, kv - nv - 1, 1.0 if wrt == 0 else -1.0),
                         (b & ~a & ~c, -(kv + 1), 0.0 if wrt == 0 else 1.0)):
        if not np.any(sel) or sign == 0.0:
            if np.any(sel):
                res = xp.where(sel, 0.0, res)
            continue
        j = np.where(sel, j, 0.0)
        fact = np.asarray(gamma(j + 1.0)) * (1.0 - 2.0 * (j - 2.0 * np.floor(0.5 * j)))
        nn = xp.where(sel, n, 0.5)
        res = xp.where(sel, sign * fact / poch(nn + 1.0, j + 1.0), res)
    both = a & b & ~c
    if np.any(both):
        res = xp.where(both, 0.0, res)
    if np.any(c):
        res = xp.where(c, np.nan, res)
    return res


def _d_perm_a(xp, out, a, m):
    # d/da poch(a, m) = poch (psi(a + m) - psi(a)); perm evaluates it for a >= 1 only
    return out * _psi_diff(xp, a, m)


def _d_perm_m(xp, out, a, m):
    return out * digamma(a + m)


def _quiet(rule):
    def wrapped(xp, out, *args):
        with np.errstate(all="ignore"):
            return rule(xp, out, *args)
    wrapped.__name__ = wrapped.__qualname__ = rule.__name__
    return wrapped


def_elementwise_rules(_binom, _quiet(lambda xp, out, n, k: _d_binom(xp, out, n, k, 0)),
                      _quiet(lambda xp, out, n, k: _d_binom(xp, out, n, k, 1)))
def_elementwise_rules(_perm_poch, _quiet(_d_perm_a), _quiet(_d_perm_m))


def _traced(*args):
    return any(isinstance(a, Box) for a in args)


def _set(vals, cond, fill):
    """SciPy's ``vals[cond] = fill`` (an array) or ``np.float64(fill)`` (a scalar where
    cond holds); for traced values the same by ``where`` (fill is a constant)."""
    if isinstance(vals, Box):
        return _xp.where(cond, fill, vals) if np.any(cond) else vals
    if isinstance(vals, np.ndarray):
        vals[cond] = fill
        return vals
    if cond:
        return np.float64(fill)
    return vals


def _asarray(x):
    return x if isinstance(x, Box) else np.asarray(x)


def _comb_int(N, k):
    # SciPy's _comb_int (Cython): exact, 0 outside 0 <= k <= N
    N = int(N)
    k = int(k)
    if k > N or N < 0 or k < 0:
        return 0
    return math.comb(N, k)


def comb(N, k, *, exact=False, repetition=False):
    """
    The number of combinations of N things taken k at a time ("N choose k").

    Parameters
    ----------
    N : int, ndarray
        Number of things.
    k : int, ndarray
        Number of elements taken.
    exact : bool, optional
        For integers, if `exact` is False, then floating point precision is used,
        otherwise the result is computed exactly.
    repetition : bool, optional
        If `repetition` is True, then the number of combinations with repetition is
        computed.

    Returns
    -------
    val : int, float, ndarray
        The total number of combinations: a Python int for ``exact=True``, else a NumPy
        float (the binomial coefficient's loop type: float32 for float32, float16 and
        small integer input) or array.

    Raises
    ------
    ValueError
        With ``exact=True``, for non-integer `N` or `k` (SciPy's message).

    See Also
    --------
    scipy.special.comb, perm, factorial

    Notes
    -----
    As SciPy: if ``N < 0`` or ``k < 0`` or (without repetition) ``k > N``, 0 is returned;
    with repetition, ``comb(N + k - 1, k)`` (1 for ``k = 0``, ``N >= 0``). Array arguments
    are accepted only for ``exact=False``. The floating values are xsf's ``binom``
    (bitwise SciPy's).

    Autodiff: ``exact=False`` is differentiable in `N` and `k`: the binomial
    coefficient's partials ``binom (psi(N + 1) - psi(N - k + 1))`` and ``binom
    (psi(N - k + 1) - psi(k + 1))``; 0 where the value is set to 0.

    Examples
    --------
    >>> from linalgx.special import comb
    >>> comb(np.array([10, 10]), np.array([3, 4]))
    array([120., 210.])
    >>> comb(10, 3, exact=True)
    120
    >>> comb(10, 3, exact=True, repetition=True)
    220
    >>> comb(100, 50, exact=True)
    100891344545564193334812497256
    """
    if repetition:
        # C(n, 0) with repetition is 1 for n >= 0 (comb(-1, 0) would give 0)
        if exact:
            if k == 0 and int(N) == N and N >= 0:
                return 1
        else:
            k, N = _asarray(k), _asarray(N)
            with np.errstate(invalid="ignore"):
                cond = (_plain(k) == 0) & (_plain(N) >= 0)
            if _traced(N, k) and np.any(cond):
                # binom(N - 1, 0) = 1 there already, and its derivative is the smooth
                # function's; but at N = 0 (binom(-1, 0) is NaN) a constant 1
                zero = cond & (_plain(N) == 0)
                N, k = _xp.where(zero, 2.0, N), _xp.where(zero, 0.5, k)
                vals = _binom(N + k - 1, k)
                one = vals - _plain(vals) + 1.0         # exactly 1, binom's derivative
                return _xp.where(zero, 1.0, _xp.where(cond, one, vals))
            vals = _binom(N + k - 1, k)
            return _set(vals, cond, 1.0)
        return comb(N + k - 1, k, exact=exact)
    if exact:
        if int(N) == N and int(k) == k:
            return _comb_int(N, k)
        raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
    k, N = _asarray(k), _asarray(N)
    kv, nv = _plain(k), _plain(N)
    with np.errstate(invalid="ignore"):
        cond = (kv <= nv) & (nv >= 0) & (kv >= 0)
    if _traced(N, k) and not np.all(cond):
        N, k = _xp.where(cond, N, 2.0), _xp.where(cond, k, 1.0)
    vals = _binom(N, k)
    return _set(vals, ~cond, 0.0)


def perm(N, k, exact=False):
    """
    Permutations of N things taken k at a time, i.e., k-permutations of N.

    Parameters
    ----------
    N : int, ndarray
        Number of things.
    k : int, ndarray
        Number of elements taken.
    exact : bool, optional
        If True, the answer is computed exactly with Python integers (`N` and `k` must be
        scalar integers); otherwise a floating point value by :func:`poch`.

    Returns
    -------
    val : int, float, ndarray
        ``N! / (N - k)!``: a Python int for ``exact=True``, else a NumPy float or array.

    Raises
    ------
    ValueError
        With ``exact=True``, for array or non-integer arguments (SciPy's messages).

    See Also
    --------
    scipy.special.perm, comb, poch

    Notes
    -----
    As SciPy: if ``k > N``, ``N < 0`` or ``k < 0``, 0 is returned; the floating values are
    ``poch(N - k + 1, k)``.

    Autodiff: ``exact=False`` is differentiable in `N` and `k` (:func:`poch`'s partials);
    0 where the value is set to 0.

    Examples
    --------
    >>> from linalgx.special import perm
    >>> perm(np.array([10, 10]), np.array([3, 4]))
    array([ 720., 5040.])
    >>> perm(10, 3, exact=True)
    720
    """
    if exact:
        N = np.squeeze(N)[()]   # size-1 arrays are accepted, as SciPy
        k = np.squeeze(k)[()]
        if not (np.isscalar(N) and np.isscalar(k)):
            raise ValueError("`N` and `k` must be scalar integers with `exact=True`.")
        floor_n, floor_k = int(N), int(k)
        if not (floor_n == N and floor_k == k):
            raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
        if (k > N) or (N < 0) or (k < 0):
            return 0
        return math.perm(floor_n, floor_k)
    k, N = _asarray(k), _asarray(N)
    kv, nv = _plain(k), _plain(N)
    with np.errstate(invalid="ignore"):
        cond = (kv <= nv) & (nv >= 0) & (kv >= 0)
    if _traced(N, k) and not np.all(cond):
        N, k = _xp.where(cond, N, 2.0), _xp.where(cond, k, 1.0)
    vals = _perm_poch(N - k + 1, k)
    return _set(vals, ~cond, 0.0)


# -- factorial, factorial2 (SciPy's _factorialx_wrapper and helpers) ------------------------
# the last n whose multifactorial fits in int64 / int32
_LIMITS_64BITS = {1: 20, 2: 33, 3: 44, 4: 54, 5: 65, 6: 74, 7: 84, 8: 93, 9: 101}
_LIMITS_32BITS = {1: 12, 2: 19, 3: 25, 4: 31, 5: 37, 6: 43, 7: 47, 8: 51, 9: 56}
_KINDS = {"i": np.integer, "f": np.floating, "c": np.complexfloating, "n": np.number}


def _is_subdtype(dtype, dtypes):
    dtypes = dtypes if isinstance(dtypes, list) else [dtypes]
    return any(np.issubdtype(dtype, _KINDS.get(d, d)) for d in dtypes)


def _range_prod(lo, hi, k=1):
    """lo (lo + k) ... hi for numbers spaced k apart, counting down from hi (hi! / (lo-1)!
    for k = 1), as products of halves."""
    if lo == 1 and k == 1:
        return math.factorial(hi)
    if lo + k < hi:
        mid = (hi + lo) // 2
        if k > 1:
            mid = mid - ((mid - hi) % k)     # a multiple of k away from hi
        return _range_prod(lo, mid, k) * _range_prod(mid + k, hi, k)
    if lo + k == hi:
        return lo * hi
    return hi


def _factorialx_array_exact(n, k=1):
    """The exact multifactorials of an integer array: each lane (residue mod k) built
    incrementally over its sorted distinct values; int64, int or object results."""
    un = np.unique(n)
    if k in _LIMITS_64BITS:
        if un[-1] > _LIMITS_64BITS[k]:
            dt = object
        elif un[-1] > _LIMITS_32BITS[k]:
            dt = np.int64
        else:
            dt = np.dtype("long")
    else:
        dt = object
    out = np.empty_like(n, dtype=dt)
    un = un[un > 1]
    out[n < 2] = 1
    out[n < 0] = 0
    for lane in range(0, k):
        ul = un[(un % k) == lane] if k > 1 else un
        if ul.size:
            val = _range_prod(1, int(ul[0]), k=k)
            out[n == ul[0]] = val
            for i in range(len(ul) - 1):
                prev = ul[i]
                current = ul[i + 1]
                val *= _range_prod(int(prev + 1), int(current), k=k)
                out[n == current] = val
    return out


def _gamma1p(vals):
    # gamma(n + 1), NaN (not inf) at n = -1 for real input, as SciPy
    res = gamma(vals + 1)
    if isinstance(res, Box):
        v = _plain(vals)
        if v.dtype.kind != "c" and np.any(v == -1):
            res = _xp.where(v == -1, np.nan, res)
        return res
    if isinstance(res, np.ndarray):
        if not _is_subdtype(vals.dtype, "c"):
            res[vals == -1] = np.nan
    elif np.isinf(res) and vals == -1:
        res = np.float64("nan")
    return res


def _scaled(result, c):
    # SciPy's in-place ``result *= c`` (the product at c's precision, cast back)
    if isinstance(result, Box):
        dt = result.dtype
        return _xp.astype(result * c, dt)
    result *= c
    return result


def _approx_core(n, k, extend):
    """The multifactorial by the gamma function (SciPy's _factorialx_approx_core)."""
    if k == 1:
        result = _gamma1p(n)
        if isinstance(n, np.ndarray):
            result = np.array(result)       # a 0-d array stays one
        return result
    if extend == "complex":
        p_dtype = complex if (_is_subdtype(type(k), "c") or k < 0) else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            if isinstance(n, Box):
                result = _xp.power(float(k), n / k) * _gamma1p(n / k)
            else:
                result = np.power(k, n / k, dtype=p_dtype) * _gamma1p(n / k)
            result = _scaled(result, rgamma(1 / k + 1) / np.power(k, 1 / k, dtype=p_dtype))
        if isinstance(n, np.ndarray):
            result = np.array(result)
        return result
    # extend='zero' with an integer k > 0: the residue classes mod k
    n_mod_k = n % k
    if not isinstance(n, np.ndarray):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return (np.power(k, (n - n_mod_k) / k)
                    * gamma(n / k + 1) / gamma(n_mod_k / k + 1) * max(n_mod_k, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = np.power(k, n / k) * gamma(n / k + 1)

    def corr(k, r):
        return np.power(k, -r / k) / gamma(r / k + 1) * r

    for r in np.unique(n_mod_k):
        if r == 0:
            continue
        result[n_mod_k == r] *= corr(k, int(r))
    return result


def _array_approx(n, k, extend):
    if extend == "complex":
        return _approx_core(n, k=k, extend=extend)
    if isinstance(n, Box):
        # n >= 0 by the gamma function, 0 below, NaN kept (placeholders keep the other
        # branch finite, also under nested differentiation)
        v = _plain(n)
        with np.errstate(invalid="ignore"):
            cond = v >= 0
        res = _approx_core(_xp.where(cond, n, 0.0), k=k, extend=extend)
        res = _xp.where(cond, _xp.astype(res, np.float64), 0.0)
        # NaN in, NaN out (and a NaN derivative)
        nan = np.isnan(v)
        return _xp.where(nan, n * np.where(nan, np.nan, 0.0), res) if np.any(nan) else res
    result = np.zeros(n.shape)
    np.place(result, np.isnan(n), np.nan)
    cond = n >= 0
    n_to_compute = np.extract(cond, n)
    np.place(result, cond, _approx_core(n_to_compute, k=k, extend=extend))
    return result


def _factorialx_wrapper(fname, n, k, exact, extend):
    if extend not in ("zero", "complex"):
        raise ValueError(
            f"argument `extend` must be either 'zero' or 'complex', received: {extend}")
    if exact and extend == "complex":
        raise ValueError("Incompatible options: `exact=True` and `extend='complex'`")
    msg_unsup = "Unsupported data type for {vname} in {fname}: {dtype}\n"
    if fname == "factorial":
        msg_unsup += ("Permitted data types are integers and floating point numbers, "
                      "as well as complex numbers if `extend='complex' is passed.")
    else:
        msg_unsup += ("Permitted data types are integers, as well as floating point "
                      "numbers and complex numbers if `extend='complex' is passed.")
    msg_exact_not_possible = "`exact=True` only supports integers, cannot use data type {dtype}"
    msg_needs_complex = (
        "In order to use non-integer arguments, you must opt into this by passing "
        "`extend='complex'`. Note that this changes the result for all negative "
        "arguments (which by default return 0).")
    if fname == "factorial2":
        msg_needs_complex += (" Additionally, it will rescale the values of the double"
                              " factorial at even integers by a factor of sqrt(2/pi).")
    # factorial takes floats with extend='zero' too
    types_requiring_complex = "c" if fname == "factorial" else ["f", "c"]

    if not isinstance(n, (np.ndarray, Box)) and np.ndim(n) == 0:
        # scalars (0-d arrays are arrays below)
        if not _is_subdtype(type(n), ["i", "f", "c", type(None)]):
            raise ValueError(msg_unsup.format(vname="`n`", fname=fname, dtype=type(n)))
        if _is_subdtype(type(n), types_requiring_complex) and extend != "complex":
            raise ValueError(msg_needs_complex)
        if n is None or np.isnan(n):
            complexify = (extend == "complex") and _is_subdtype(type(n), "c")
            return np.complex128("nan+nanj") if complexify else np.float64("nan")
        if extend == "zero" and n < 0:
            return 0 if exact else np.float64(0)
        if n in {0, 1}:
            return 1 if exact else np.float64(1)
        if exact and _is_subdtype(type(n), "i"):
            return _range_prod(1, int(n), k=k)
        if exact:
            raise ValueError(msg_exact_not_possible.format(dtype=type(n)))
        return _approx_core(n, k=k, extend=extend)

    if not isinstance(n, Box):
        n = np.asarray(n)
    if not _is_subdtype(n.dtype, ["i", "f", "c"]):
        raise ValueError(msg_unsup.format(vname="`n`", fname=fname, dtype=n.dtype))
    if _is_subdtype(n.dtype, types_requiring_complex) and extend != "complex":
        raise ValueError(msg_needs_complex)
    if exact and _is_subdtype(n.dtype, ["f"]):
        raise ValueError(msg_exact_not_possible.format(dtype=n.dtype))
    if n.size == 0:
        return n            # empty arrays come back unchanged
    if exact:
        if isinstance(n, Box):
            raise TypeError("linalgx.special: exact=True gives integers, which are not "
                            "differentiable")
        return _factorialx_array_exact(n, k=k)
    return _array_approx(n, k=k, extend=extend)


def factorial(n, exact=False, extend="zero"):
    """
    The factorial of a number or array of numbers.

    ``n! = n (n - 1) (n - 2) ... 1`` for non-negative integers; ``Gamma(n + 1)`` otherwise.

    Parameters
    ----------
    n : int or float or complex (or array_like thereof)
        Input values. Complex values require ``extend='complex'``.
    exact : bool, optional
        If True, compute exactly with integer arithmetic (integer input only), otherwise
        approximate with the gamma function. Default False.
    extend : {'zero', 'complex'}, optional
        ``'zero'`` (default): ``n < 0`` gives 0. ``'complex'``: the gamma function's
        extension ``Gamma(n + 1)`` everywhere (NaN at -1).

    Returns
    -------
    nf : int or float or complex or ndarray
        Python int for a scalar with ``exact=True``; an int64 (``long``) or object array
        for arrays with ``exact=True``; otherwise float64 (for ``extend='zero'`` arrays
        and scalars), or the gamma function's type for ``extend='complex'``.

    Raises
    ------
    ValueError
        For unsupported types and options, as SciPy (same messages).

    See Also
    --------
    scipy.special.factorial, factorial2, gamma

    Notes
    -----
    SciPy's algorithm: the exact array case computes the factorial of the largest input
    once, the others on the way; the approximation is :func:`gamma` ``(n + 1)``.

    Autodiff: ``exact=False`` is differentiable in `n`: ``gamma(n + 1) digamma(n + 1)``
    for ``n >= 0`` (and everywhere with ``extend='complex'``), 0 for ``n < 0`` with
    ``extend='zero'``.

    Examples
    --------
    >>> from linalgx.special import factorial
    >>> arr = np.array([3, 4, 5])
    >>> factorial(arr, exact=False)
    array([  6.,  24., 120.])
    >>> factorial(arr, exact=True)
    array([  6,  24, 120])
    >>> factorial(5, exact=True)
    120
    >>> factorial(np.array([-1.0, 0.5, 2.5]))
    array([0.        , 0.88622693, 3.32335097])
    """
    return _factorialx_wrapper("factorial", n, k=1, exact=exact, extend=extend)


def factorial2(n, exact=False, extend="zero"):
    """
    Double factorial, ``n!! = n (n - 2) (n - 4) ...``.

    It is approximated as ``2**(n/2) Gamma(n/2 + 1)`` for even and ``2**(n/2)
    Gamma(n/2 + 1) sqrt(2/pi)`` for odd `n`; the odd formula is the complex extension.

    Parameters
    ----------
    n : int or float or complex (or array_like thereof)
        Input values. Non-integer values require ``extend='complex'``.
    exact : bool, optional
        If True, compute exactly with integer arithmetic, otherwise approximate.
        Default False.
    extend : {'zero', 'complex'}, optional
        ``'zero'`` (default): ``n < 0`` gives 0. ``'complex'``: the complex extension
        ``2**(n/2) Gamma(n/2 + 1) sqrt(2/pi)`` everywhere (which also rescales the even
        integers by ``sqrt(2/pi)``).

    Returns
    -------
    nf : int or float or complex or ndarray
        As :func:`factorial`.

    Raises
    ------
    ValueError
        For unsupported types and options, as SciPy (same messages).

    See Also
    --------
    scipy.special.factorial2, factorial

    Notes
    -----
    SciPy's algorithm, with this package's :func:`gamma` and :func:`rgamma`.

    Autodiff: with ``extend='complex'`` (floating input) and ``exact=False``,
    differentiable in `n`: ``n!! (log(2) + digamma(n/2 + 1)) / 2``. Integer input (the
    only input ``extend='zero'`` takes) has no derivative.

    Examples
    --------
    >>> from linalgx.special import factorial2
    >>> float(factorial2(7, exact=False))
    105.00000000000001
    >>> factorial2(7, exact=True)
    105
    >>> factorial2(np.array([-1, 0, 1, 6]), exact=True)
    array([ 0,  1,  1, 48])
    """
    return _factorialx_wrapper("factorial2", n, k=2, exact=exact, extend=extend)
