"""Scalar helpers shared by the kernels (real and complex alike)."""
import numpy as np
from numba import njit, types
from numba.extending import overload

TINY64 = 2.2250738585072014e-308  # float64's smallest normal (LAPACK's sfmin in double)
TINY32 = 1.1754943508222875e-38  # float32's


def tiny_of(a):
    """The smallest normal number of the array ``a``'s precision (pure-Python stub; jitted,
    a constant of the array's type, so it costs the kernel no argument: each argument adds
    to numba's dispatch on every call)."""
    return float(np.finfo(a.dtype).tiny)


@overload(tiny_of)
def _tiny_of_overload(a):
    tiny = TINY32 if a.dtype in (types.float32, types.complex64) else TINY64
    return lambda a: tiny


@njit(cache=True, nogil=True)
def cabs1(x):
    """Pivot magnitude: ``|x|`` for real, ``|re| + |im|`` for complex (LAPACK's i?amax)."""
    return abs(x.real) + abs(x.imag)


def phase(x):
    """Sign of a diagonal entry as NumPy's slogdet takes it (pure-Python stub)."""
    if np.iscomplexobj(x):
        return x / abs(x)
    return -1.0 if x < 0 else 1.0


@overload(phase)
def _phase_overload(x):
    # NumPy's slogdet: a real entry contributes -1 when negative and +1 otherwise (so NaN
    # and +inf give +1); a complex entry contributes x / |x| (NaN for NaN or inf).
    if isinstance(x, types.Complex):
        def phase_complex(x):
            return x / abs(x)
        return phase_complex

    def phase_real(x):
        return -1.0 if x < 0 else 1.0
    return phase_real


@njit(cache=True, nogil=True, inline="always")
def swap_rows(x, i, p):
    """Swap rows ``i`` and ``p`` of the 2-D array ``x``."""
    for c in range(x.shape[1]):
        t = x[i, c]
        x[i, c] = x[p, c]
        x[p, c] = t


@njit(cache=True, nogil=True)
def abs2(x):
    """``|x|**2`` without a square root (real for complex x)."""
    return x.real * x.real + x.imag * x.imag


def recip(x):
    """``1 / x`` (pure-Python stub; the jitted version avoids complex division)."""
    return 1 / x


@overload(recip)
def _recip_overload(x):
    # numba's complex division (Smith's algorithm) branches on |re| >= |im|, which random
    # data mispredicts half the time. conj(x) / |x|**2 is as accurate (a few ulp) wherever
    # |x|**2 neither over- nor underflows; elsewhere, and for NaN/inf, the division.
    # (the range test and the in-range formula are pivot_ok's and recip_in_range's, which the
    # structure-of-arrays kernels use: the same bits either way)
    if isinstance(x, types.Complex):
        one = x(1)

        def recip_complex(x):
            if pivot_ok(x, 0.0):
                return recip_in_range(x)
            return one / x
        return recip_complex

    def recip_real(x):
        return recip_in_range(x)
    return recip_real


def pivot_ok(x, sfmin):
    """Whether ``recip_in_range(x)`` is exactly what the scalar kernels use for the pivot x
    (pure-Python stub)."""
    t = abs(x.real) + abs(x.imag)
    if isinstance(x, complex):
        return 1e-150 < t < 1e150
    return t >= sfmin


@overload(pivot_ok)
def _pivot_ok_overload(x, sfmin):
    # Real: getf2 multiplies by 1 / x where |x| >= sfmin (NaN: False). Complex: recip's
    # conj(x) / |x|**2 branch, |re| + |im| within (small, big) (which implies >= sfmin).
    if isinstance(x, types.Complex):
        big = 1e150 if x.underlying_float.bitwidth == 64 else 1e18
        small = 1 / big

        def pivot_ok_complex(x, sfmin):
            t = abs(x.real) + abs(x.imag)
            return (t > small) & (t < big)
        return pivot_ok_complex

    def pivot_ok_real(x, sfmin):
        return abs(x) >= sfmin
    return pivot_ok_real


def recip_in_range(x):
    """``recip(x)`` where ``pivot_ok(x)``, without a branch (pure-Python stub)."""
    return 1 / x


@overload(recip_in_range)
def _recip_in_range_overload(x):
    if isinstance(x, types.Complex):
        if x.underlying_float.bitwidth == 64:
            def recip_in_range_complex128(x):
                d = 1 / (x.real * x.real + x.imag * x.imag)
                return complex(x.real * d, -x.imag * d)
            return recip_in_range_complex128

        def recip_in_range_complex64(x):
            d = np.float32(1) / (x.real * x.real + x.imag * x.imag)
            return np.complex64(complex(x.real * d, -x.imag * d))
        return recip_in_range_complex64
    if x.bitwidth == 32:
        def recip_in_range_float32(x):
            return np.float32(1) / x
        return recip_in_range_float32

    def recip_in_range_real(x):
        return 1 / x
    return recip_in_range_real


def unit(d, ad):
    """``d / |d|`` given ``ad = |d| > 0``: NumPy's slogdet sign (pure-Python stub)."""
    return phase(d)


@overload(unit)
def _unit_overload(d, ad):
    if isinstance(d, types.Complex):
        def unit_complex(d, ad):
            return d * (1 / ad)  # one real division instead of a complex one
        return unit_complex

    def unit_real(d, ad):
        return -1.0 if d < 0 else 1.0
    return unit_real


def modulus(d):
    """``|d|`` where ``|re| + |im|`` of ``d`` is in slogdet's trusted range (stub)."""
    return abs(d)


@overload(modulus)
def _modulus_overload(d):
    if isinstance(d, types.Complex):
        def modulus_complex(d):
            return np.sqrt(abs2(d))  # safe in the trusted range; hypot is a libm call
        return modulus_complex

    def modulus_real(d):
        return abs(d)
    return modulus_real


@njit(cache=True, nogil=True, error_model="numpy")
def above_error(t, bound, under, rtol, utol):
    """Whether ``t = |re| + |im|`` of a closed-form det is above its rounding error: above
    ``rtol`` times the ``bound`` of its terms (``_gen_small._det_lines``), and above ``utol``
    times ``under``, the scale of the error of products that underflowed (that error is at
    most ``6 tiny eps under`` for complex products, so ``utol = 32 tiny`` keeps it below
    ``eps |d| / 5``). The one test det and slogdet share; no branches."""
    return (t > rtol * bound) & (t > utol * under)


@njit(cache=True, nogil=True, error_model="numpy")
def untrusted(d, bound, under, rtol, utol):
    """1 where the closed-form det ``d`` may not stand, else 0 (no branches): not
    `above_error`; subnormal (in double, where dets are computed: the LU that redoes it
    meets a subnormal pivot, and LAPACK's rounding decides); or not finite (``|re| + |im|``:
    no hypot call; it overflows only within a factor 2 of overflow, and then LU merely
    recomputes the element; an intermediate overflow leaves inf or NaN in ``d``).
    """
    t = cabs1(d)
    return (not above_error(t, bound, under, rtol, utol)) | (t < TINY64) | (t != t) | (t == np.inf)


@njit(cache=True, nogil=True, error_model="numpy")
def slog_store(d, bound, under, sign, logabs, b, lo, hi, rtol, utol):
    """Store slogdet's ``sign`` and ``|d|`` of the closed-form det ``d`` at ``b``, or -1 for
    ``|d|`` where it is not trusted (see _det.slogdet_gufunc and `untrusted`); returns 1
    there, else 0. No branches."""
    t = cabs1(d)
    ad = modulus(d)
    sign[b] = unit(d, ad)
    ok = (t >= lo) & (t <= hi) & above_error(t, bound, under, rtol, utol)
    logabs[b] = ad if ok else -1
    return not ok
