"""Branch-free float64 helpers that LLVM can vectorise: bit casts and ``log``.

``log`` is fdlibm's ``e_log.c`` scheme (within 1 ulp) with the exponent taken from the bits
and its special values (0, subnormals, inf, NaN, negatives) selected in, so a loop calling it
compiles to SIMD code where libm's ``log`` is an opaque call. Used by the vectorised special
functions (``special/fast.py``) and by slogdet.
"""
from numba import njit, types
from numba.extending import intrinsic

# inlined at numba IR level: a call LLVM declines to inline would stop the loop vectoriser
ijit = njit(cache=True, nogil=True, error_model="numpy", inline="always")
INF = float("inf")
NAN = float("nan")


@intrinsic
def _f2i(typingctx, x):
    # reinterpret the bits of a float64 as an int64 (an LLVM bitcast, vectorisable)
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], context.get_value_type(types.int64))
    return types.int64(types.float64), codegen


@intrinsic
def _i2f(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], context.get_value_type(types.float64))
    return types.float64(types.int64), codegen


_LN2_HI = 6.93147180369123816490e-01  # fdlibm's split of log(2): k * _LN2_HI is exact
_LN2_LO = 1.90821492927058770002e-10
_LG1 = 6.666666666666735130e-01       # fdlibm e_log.c's minimax coefficients
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01
_TINY = 2.2250738585072014e-308       # smallest normal double
_HUGE = 1.7976931348623157e308
_SQRT1_2 = 0.70710678118654752440


@ijit
def _log_core(x, c):
    # log(x) + c for x > 0 finite and |c| small (fdlibm e_log.c / s_log1p.c), within 1 ulp
    sub = x < _TINY
    xs = x * 18014398509481984.0 if sub else x   # 2**54 lifts subnormals
    bits = _f2i(xs)
    k = (bits >> 52) - (1077 if sub else 1023)
    m = bits & 0x000FFFFFFFFFFFFF
    i = (m + 0x00095F6400000000) & 0x0010000000000000   # mantissa > sqrt(2)?
    f = _i2f(m | (i ^ 0x3FF0000000000000)) - 1.0         # in [sqrt(1/2) - 1, sqrt(2) - 1)
    k = k + (i >> 52)
    hfsq = 0.5 * f * f
    s = f / (2.0 + f)
    dk = float(k)
    z = s * s
    w = z * z
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    r = t2 + t1
    return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + (dk * _LN2_LO + c))) - f)


@ijit
def vlog(x):
    """log(x) within 1 ulp, branch-free, for every double."""
    res = _log_core(x, 0.0)
    res = -INF if x == 0.0 else res
    res = NAN if x < 0.0 else res
    return x if not (x <= _HUGE) else res   # +inf and NaN


@ijit
def vlog1p(u):
    """log1p(u) for u >= -1 within 1 ulp: log(1 + u) with the rounding of 1 + u added back."""
    w = 1.0 + u
    res = _log_core(w, (u - (w - 1.0)) / w)
    res = -INF if w == 0.0 else res
    return u if w == 1.0 else res
