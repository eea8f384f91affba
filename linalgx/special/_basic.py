"""Elementary functions: expit, logit, sinc, entr, xlogy, xlog1py, exp2, expm1, log1p, round.

expit, sinc, xlogy, xlog1py, exp2, expm1 and log1p accept complex input; their rules use
PyTorch's convention for holomorphic functions (VJP = g * conj(f'(z))).
"""
import math

import numpy as np

from .._core.xputil import dtype_of
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["expit", "logit", "sinc", "entr", "xlogy", "xlog1py", "exp2", "expm1", "log1p",
           "round"]

_expit = ufunc_op("expit")
_logit = ufunc_op("logit")
_sinc = ufunc_op("sinc")
_entr = ufunc_op("entr")
_xlogy = ufunc_op("xlogy")
_xlog1py = ufunc_op("xlog1py")
_exp2 = ufunc_op("exp2")
_expm1 = ufunc_op("expm1")
_log1p = ufunc_op("log1p")
_round = ufunc_op("round")


def _d_expit(xp, out, x):
    # expit(x) expit(-x), not out (1 - out): 1 - out is 0 for x > 37 (and loses all
    # relative accuracy well before), where the derivative is e^-x
    return out * expit(-x)


def _d_logit(xp, out, x):
    return 1.0 / (x * (1.0 - x))


# sinc'(x) = x sum_m SINC_D[m] x^(2m), SINC_D[m] = (-1)^(m+1) 2 (m+1) pi^(2m+2) / (2m+3)!
# (computed with mpmath); for |x| < 1/2 the 13 terms are exact to below 1e-19 relative
_SINC_D = (-3.289868133696453, 3.2469697011334144, -1.1445109447325053, 0.2091827825412384,
           -0.023460810354558236, 0.001781145516372852, -9.766223126318933e-05,
           4.049947846619244e-06, -1.3148481279991994e-07, 3.4330769499642866e-09,
           -7.365893777096947e-11, 1.3217901389162318e-12, -2.013201508080888e-14)


def _cospi(xp, x):
    # cos(pi x) for real x with exact argument reduction: r = |x| mod 2 and 2 - r are exact,
    # and 1/2 - r is exact for r in [1/4, 1] (Sterbenz), so cos(pi x) keeps its relative
    # accuracy near its zeros and for large |x|
    a = xp.abs(x)
    r = a - 2.0 * xp.floor(0.5 * a)
    r = xp.where(r > 1.0, 2.0 - r, r)
    return xp.where(r < 0.25, xp.cos(math.pi * r), xp.sin(math.pi * (0.5 - r)))


def _d_sinc(xp, out, x):
    # (cos(pi x) - sinc(x)) / x for |x| >= 1/2; below, where the difference cancels (33%
    # error at 1e-8), its Taylor series
    small = xp.abs(x) < 0.5
    xs = xp.where(small, 0.5, x)              # each branch evaluated where it is finite
    xt = xp.where(small, x, 0.0)
    cos = xp.cos(math.pi * xs) if dtype_of(x).kind == "c" else _cospi(xp, xs)
    big = (cos - out) / xs
    x2 = xt * xt
    series = _SINC_D[-1]
    for c in _SINC_D[-2::-1]:
        series = series * x2 + c
    return xp.where(small, xt * series, big)


def _d_entr(xp, out, x):
    return -(1.0 + xp.log(x))


def _d_xlogy_x(xp, out, x, y):
    with np.errstate(divide="ignore"):  # at y = 0: log(0) = -inf, the derivative, as torch's
        return xp.log(y)


def _d_xlogy_y(xp, out, x, y):
    ys = xp.where(x == 0, 1.0, y)
    with np.errstate(divide="ignore"):  # x / 0 = +-inf for x != 0, as torch's
        return xp.where(x == 0, 0.0, x / ys)


def _d_xlog1py_x(xp, out, x, y):
    return xp.log1p(y)


def _d_xlog1py_y(xp, out, x, y):
    ys = xp.where(x == 0, 0.0, y)
    return xp.where(x == 0, 0.0, x / (1.0 + ys))


def _d_exp2(xp, out, x):
    return math.log(2.0) * out


def _d_expm1(xp, out, x):
    return xp.exp(x)   # not out + 1, which has out's absolute error (1.7e-4 relative at -30)


def _d_log1p(xp, out, x):
    return 1.0 / (1.0 + x)


def _d_round(xp, out, x):
    return xp.zeros_like(out)


def_elementwise_rules(_expit, _d_expit)
def_elementwise_rules(_logit, _d_logit)
def_elementwise_rules(_sinc, _d_sinc)
def_elementwise_rules(_entr, _d_entr)
def_elementwise_rules(_xlogy, _d_xlogy_x, _d_xlogy_y)
def_elementwise_rules(_xlog1py, _d_xlog1py_x, _d_xlog1py_y)
def_elementwise_rules(_exp2, _d_exp2)
def_elementwise_rules(_expm1, _d_expm1)
def_elementwise_rules(_log1p, _d_log1p)
def_elementwise_rules(_round, _d_round)


def _doc(name, what, deriv, example, value, complex_ok=False, extra="", notes="",
         returns="The function values, in the input's precision (float64 for integers)."):
    cplx = "Real or complex input." if complex_ok else "Real input."
    return f"""
    {what}

    Parameters
    ----------
    x : array_like
        {cplx}
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).{extra}

    Returns
    -------
    res : scalar or ndarray
        {returns}

    See Also
    --------
    scipy.special.{name}, torch.special.{name}

    Notes
    -----
    {notes}Autodiff: {deriv}

    Examples
    --------
    >>> from linalgx.special import {name}
    >>> {example}
    {value}
    """


def expit(x, out=None, **kwargs):
    return apply(_expit, (x,), out, kwargs)


def logit(x, out=None, *, eps=None, **kwargs):
    if eps is not None:
        x = np.clip(x, eps, 1.0 - eps)
    return apply(_logit, (x,), out, kwargs)


def sinc(x, out=None, **kwargs):
    return apply(_sinc, (x,), out, kwargs)


def entr(x, out=None, **kwargs):
    return apply(_entr, (x,), out, kwargs)


def xlogy(x, y, out=None, **kwargs):
    return apply(_xlogy, (x, y), out, kwargs)


def xlog1py(x, y, out=None, **kwargs):
    return apply(_xlog1py, (x, y), out, kwargs)


def exp2(x, out=None, **kwargs):
    return apply(_exp2, (x,), out, kwargs)


def expm1(x, out=None, **kwargs):
    return apply(_expm1, (x,), out, kwargs)


def log1p(x, out=None, **kwargs):
    return apply(_log1p, (x,), out, kwargs)


def round(x, out=None, *, decimals=0, **kwargs):
    if isinstance(decimals, (bool, np.bool_)) or not isinstance(decimals, (int, np.integer)):
        raise TypeError(f"linalgx.special.round: decimals must be an int, not "
                        f"{type(decimals).__name__}")
    if decimals:
        if isinstance(x, (list, tuple)):
            x = np.asarray(x)
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if out is not None and not (hasattr(out, "shape") and hasattr(out, "dtype")):
            raise TypeError("linalgx.special.round: return arrays must be of ArrayType")
        # torch's scaling: by 10**decimals for decimals > 0, through 10**-decimals otherwise
        # (x / 10 rounds differently from x * 0.1)
        if decimals > 0:
            scale = 10.0 ** decimals
            res = apply(_round, (x * scale,), None, kwargs) / scale
        else:
            scale = 10.0 ** -decimals
            res = apply(_round, (x / scale,), None, kwargs) * scale
        if out is not None:
            out[...] = res
            return out
        return res
    return apply(_round, (x,), out, kwargs)


expit.__doc__ = _doc("expit", "Logistic sigmoid ``1 / (1 + exp(-x))``.",
                     "holomorphic; ``d expit = expit(x) expit(-x) dx`` (accurate in both "
                     "tails).",
                     "float(expit(2.0))", "0.8807970779778823", complex_ok=True,
                     notes="Long double input goes to SciPy's long double loop.\n\n    ")
logit.__doc__ = _doc("logit", "Logit ``log(x / (1 - x))``, the inverse of :func:`expit`.",
                     "``d logit = dx / (x (1 - x))``.", "float(logit(0.25))",
                     "-1.0986122886681098",
                     notes="Long double input goes to SciPy's long double loop.\n\n    ",
                     extra="\n    eps : float, optional\n        torch.special.logit's clamp: "
                           "`x` is clipped to ``[eps, 1 - eps]`` first.")
sinc.__doc__ = _doc("sinc", "Normalized sinc ``sin(pi x) / (pi x)`` (NumPy's and torch's).",
                    "holomorphic; ``d sinc = (cos(pi x) - sinc(x)) / x dx``, its Taylor "
                    "series for\n    ``|x| < 1/2`` (0 at 0). The argument of the value and of "
                    "the real derivative's cosine is\n    reduced exactly, so large `x` keeps "
                    "relative accuracy.",
                    "float(sinc(0.5))", "0.6366197723675814", complex_ok=True,
                    returns="The function values, of NumPy's type for ``np.sinc(x)``: float16, "
                            "float32\n        and complex64 kept, float64 for bool and integers; "
                            "a plain ndarray\n        for np.matrix or MaskedArray input.",
                    notes="Long double input goes to ``np.sinc`` itself (which takes no ufunc "
                          "keywords:\n    only `out` and ``where`` are applied to its "
                          "result).\n\n    ")
entr.__doc__ = _doc("entr", "Elementwise entropy ``-x log(x)`` (0 at 0, -inf for x < 0).",
                    "``d entr = -(1 + log x) dx``.", "float(entr(0.5))",
                    "0.34657359027997264")
xlogy.__doc__ = _doc("xlogy", "``x * log(y)``, 0 where ``x == 0`` (unless `y` is NaN).",
                     "differentiable in both; ``d/dx = log y``, ``d/dy = x / y``.",
                     "float(xlogy(0.0, 0.0))", "0.0", complex_ok=True,
                     extra="\n    y : array_like\n        Second argument.")
xlog1py.__doc__ = _doc("xlog1py", "``x * log1p(y)``, 0 where ``x == 0`` (unless `y` is NaN).",
                       "differentiable in both; ``d/dx = log1p y``, ``d/dy = x / (1 + y)``.",
                       "float(xlog1py(2.0, 1e-20))", "2e-20", complex_ok=True,
                       extra="\n    y : array_like\n        Second argument.")
exp2.__doc__ = _doc("exp2", "``2**x``.", "holomorphic; ``d exp2 = log(2) exp2 dx``.",
                    "float(exp2(10.0))", "1024.0", complex_ok=True)
expm1.__doc__ = _doc("expm1", "``exp(x) - 1``, accurate for small `x`.",
                     "holomorphic; ``d expm1 = exp(x) dx``.", "float(expm1(1e-10))",
                     "1.00000000005e-10", complex_ok=True)
log1p.__doc__ = _doc("log1p", "``log(1 + x)``, accurate for small `x`.",
                     "holomorphic; ``d log1p = dx / (1 + x)``.", "float(log1p(1e-10))",
                     "9.999999999500001e-11", complex_ok=True)
round.__doc__ = _doc("round", "Round to the nearest integer, halfway cases to even.",
                     "the derivative is zero.", "float(round(2.5))", "2.0",
                     extra="\n    decimals : int, optional\n        torch.special.round's "
                           "decimals: round ``x * 10**decimals`` instead, then scale back.")
