"""torch.special's names that SciPy spells differently, so that code written for
``torch.special`` ports by changing the import.

The polynomial functions take ``(input, n)`` in torch's order and follow torch's conventions:
a floating degree is truncated to an integer and a negative degree gives 0.
"""
import numpy as np

from ._bessel import _spherical_jn, i0, i1, j0, j1, k0, k0e, k1, k1e, y0, y1
from ._orthopoly import gegenbauer_op, genlaguerre_op
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
           "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
           "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
           "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
           "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
           "laguerre_polynomial_l", "legendre_polynomial_p"]

bessel_j0 = j0
bessel_j1 = j1
bessel_y0 = y0
bessel_y1 = y1
modified_bessel_i0 = i0
modified_bessel_i1 = i1
modified_bessel_k0 = k0
modified_bessel_k1 = k1
scaled_modified_bessel_k0 = k0e
scaled_modified_bessel_k1 = k1e


def spherical_bessel_j0(input, *, out=None):
    """
    Spherical Bessel function of the first kind of order 0, ``sin(x) / x``.

    Parameters
    ----------
    input : array_like
        Real argument.
    out : ndarray, optional
        Optional output array.

    Returns
    -------
    res : scalar or ndarray
        ``j_0(input)`` (1 at 0); float32 for float32 input (as torch), float64 otherwise.

    See Also
    --------
    spherical_jn, torch.special.spherical_bessel_j0

    Notes
    -----
    Autodiff: differentiable; ``d j_0 = -j_1 dx``.

    Examples
    --------
    >>> from linalgx.special import spherical_bessel_j0
    >>> float(spherical_bessel_j0(1.0))
    0.8414709848078965
    """
    if isinstance(input, (list, tuple)):
        input = np.asarray(input)
    res = apply(_spherical_jn, (np.int64(0), input), out)
    # the kernel's only loop is (int64, float64) -> float64; torch keeps float32
    dt = getattr(input, "dtype", None)
    if out is None and dt is not None and not isinstance(dt, np.dtype):
        dt = np.asarray(input).dtype  # another library's array (a torch tensor)
    if out is None and dt == np.float32:
        if isinstance(res, np.ndarray) or np.isscalar(res):
            res = res.astype(np.float32)
        else:  # the input type's own array, as NumPy's ufunc wrapped it
            res = input.__array_wrap__(np.asarray(res).astype(np.float32))
    return res


_NAMES = {
    "chebyshev_polynomial_t": ("t_chebyshev_t", "Chebyshev polynomial of the first kind T_n"),
    "chebyshev_polynomial_u": ("t_chebyshev_u", "Chebyshev polynomial of the second kind U_n"),
    "chebyshev_polynomial_v": ("t_chebyshev_v", "Chebyshev polynomial of the third kind V_n"),
    "chebyshev_polynomial_w": ("t_chebyshev_w", "Chebyshev polynomial of the fourth kind W_n"),
    "shifted_chebyshev_polynomial_t": ("t_sh_chebyshev_t", "shifted Chebyshev T_n(2x-1)"),
    "shifted_chebyshev_polynomial_u": ("t_sh_chebyshev_u", "shifted Chebyshev U_n(2x-1)"),
    "shifted_chebyshev_polynomial_v": ("t_sh_chebyshev_v", "shifted Chebyshev V_n(2x-1)"),
    "shifted_chebyshev_polynomial_w": ("t_sh_chebyshev_w", "shifted Chebyshev W_n(2x-1)"),
    "hermite_polynomial_h": ("t_hermite_h", "physicists' Hermite polynomial H_n"),
    "hermite_polynomial_he": ("t_hermite_he", "probabilists' Hermite polynomial He_n"),
    "laguerre_polynomial_l": ("t_laguerre_l", "Laguerre polynomial L_n"),
    "legendre_polynomial_p": ("t_legendre_p", "Legendre polynomial P_n"),
}
_OPS = {name: ufunc_op(name, kernel=kernel) for name, (kernel, _) in _NAMES.items()}


def _k(xp, n):
    # torch's degree: truncated to an integer
    k = xp.trunc(n)
    return k.astype("int64") if hasattr(k, "astype") else int(k)


def _c2(k, x):
    return gegenbauer_op(k, 2.0, x)


def _d_t(xp, out, x, n):
    k = _k(xp, n)
    return k * _OPS["chebyshev_polynomial_u"](x, k - 1)


def _d_u(xp, out, x, n):
    return 2.0 * _c2(_k(xp, n) - 1, x)


def _d_v(xp, out, x, n):
    k = _k(xp, n)
    return 2.0 * (_c2(k - 1, x) - _c2(k - 2, x))


def _d_w(xp, out, x, n):
    k = _k(xp, n)
    return 2.0 * (_c2(k - 1, x) + _c2(k - 2, x))


def _shifted(d):
    def d_shifted(xp, out, x, n):
        return 2.0 * d(xp, out, 2.0 * x - 1.0, n)
    d_shifted.__name__ = d_shifted.__qualname__ = f"{d.__name__}_shifted"
    return d_shifted


def _d_h(xp, out, x, n):
    k = _k(xp, n)
    prev = _OPS["hermite_polynomial_h"](x, xp.maximum(k - 1, 0))
    return xp.where(k > 0, 2.0 * k * prev, 0.0)


def _d_he(xp, out, x, n):
    k = _k(xp, n)
    prev = _OPS["hermite_polynomial_he"](x, xp.maximum(k - 1, 0))
    return xp.where(k > 0, k * prev, 0.0)


def _d_l(xp, out, x, n):
    return -genlaguerre_op(_k(xp, n) - 1, 1.0, x)


def _d_p(xp, out, x, n):
    return gegenbauer_op(_k(xp, n) - 1, 1.5, x)


_RULES = {"chebyshev_polynomial_t": _d_t, "chebyshev_polynomial_u": _d_u,
          "chebyshev_polynomial_v": _d_v, "chebyshev_polynomial_w": _d_w,
          "shifted_chebyshev_polynomial_t": _shifted(_d_t),
          "shifted_chebyshev_polynomial_u": _shifted(_d_u),
          "shifted_chebyshev_polynomial_v": _shifted(_d_v),
          "shifted_chebyshev_polynomial_w": _shifted(_d_w),
          "hermite_polynomial_h": _d_h, "hermite_polynomial_he": _d_he,
          "laguerre_polynomial_l": _d_l, "legendre_polynomial_p": _d_p}
for _name, _d in _RULES.items():
    def_elementwise_rules(_OPS[_name], _d, None)


_EXAMPLE = {"chebyshev_polynomial_t": -0.5, "chebyshev_polynomial_u": 0.0,
            "chebyshev_polynomial_v": -1.0, "chebyshev_polynomial_w": 1.0,
            "shifted_chebyshev_polynomial_t": -1.0, "shifted_chebyshev_polynomial_u": -1.0,
            "shifted_chebyshev_polynomial_v": -1.0, "shifted_chebyshev_polynomial_w": -1.0,
            "hermite_polynomial_h": -0.9999999999999998, "hermite_polynomial_he": -0.75,
            "laguerre_polynomial_l": 0.125, "legendre_polynomial_p": -0.125}


def _doc(name, what):
    return f"""
    {what[0].upper() + what[1:]} (torch.special.{name}).

    Parameters
    ----------
    input : array_like
        Point(s) at which to evaluate.
    n : array_like
        Degree; a floating degree is truncated, a negative one gives 0 (torch's rules).
    out : ndarray, optional
        Optional output array.

    Returns
    -------
    res : scalar or ndarray
        The polynomial values.

    See Also
    --------
    torch.special.{name}

    Notes
    -----
    Three-term recurrence. Autodiff: differentiable in `input` (the derivative is again a
    polynomial, through Gegenbauer or generalized Laguerre polynomials); not in `n`.

    Examples
    --------
    >>> from linalgx.special import {name}
    >>> float({name}(0.5, 2))
    {_EXAMPLE[name]}
    """


def chebyshev_polynomial_t(input, n, *, out=None):
    return apply(_OPS["chebyshev_polynomial_t"], (input, n), out)


def chebyshev_polynomial_u(input, n, *, out=None):
    return apply(_OPS["chebyshev_polynomial_u"], (input, n), out)


def chebyshev_polynomial_v(input, n, *, out=None):
    return apply(_OPS["chebyshev_polynomial_v"], (input, n), out)


def chebyshev_polynomial_w(input, n, *, out=None):
    return apply(_OPS["chebyshev_polynomial_w"], (input, n), out)


def shifted_chebyshev_polynomial_t(input, n, *, out=None):
    return apply(_OPS["shifted_chebyshev_polynomial_t"], (input, n), out)


def shifted_chebyshev_polynomial_u(input, n, *, out=None):
    return apply(_OPS["shifted_chebyshev_polynomial_u"], (input, n), out)


def shifted_chebyshev_polynomial_v(input, n, *, out=None):
    return apply(_OPS["shifted_chebyshev_polynomial_v"], (input, n), out)


def shifted_chebyshev_polynomial_w(input, n, *, out=None):
    return apply(_OPS["shifted_chebyshev_polynomial_w"], (input, n), out)


def hermite_polynomial_h(input, n, *, out=None):
    return apply(_OPS["hermite_polynomial_h"], (input, n), out)


def hermite_polynomial_he(input, n, *, out=None):
    return apply(_OPS["hermite_polynomial_he"], (input, n), out)


def laguerre_polynomial_l(input, n, *, out=None):
    return apply(_OPS["laguerre_polynomial_l"], (input, n), out)


def legendre_polynomial_p(input, n, *, out=None):
    return apply(_OPS["legendre_polynomial_p"], (input, n), out)


for _name, (_, _what) in _NAMES.items():
    globals()[_name].__doc__ = _doc(_name, _what)
