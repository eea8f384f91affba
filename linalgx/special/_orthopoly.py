"""Orthogonal polynomials of integer degree: eval_chebyt, eval_chebyu, eval_sh_chebyt,
eval_sh_chebyu, eval_legendre, eval_laguerre, eval_hermite, eval_hermitenorm.

Derivatives in x (DLMF 18.9.19-18.9.23) are again polynomials: T_n' = n U_{n-1},
U_n' = 2 C^(2)_{n-1}, P_n' = C^(3/2)_{n-1}, d/dx C^(a)_n = 2a C^(a+1)_{n-1},
L^(a)_n' = -L^(a+1)_{n-1}, H_n' = 2n H_{n-1}, He_n' = n He_{n-1}; Gegenbauer C and
generalized Laguerre L are private ops here, so derivatives of every order exist.

At x = +-inf the polynomials take their limits (T_2(-inf) = inf, T_0(inf) = 1, L_3(inf) =
-inf); SciPy's loops answer NaN there for most degrees, and for some a wrong sign
(eval_chebyt(2.0, -inf) = -inf), so linalgx differs from SciPy at those points on purpose.
"""
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["eval_chebyt", "eval_chebyu", "eval_sh_chebyt", "eval_sh_chebyu", "eval_legendre",
           "eval_laguerre", "eval_hermite", "eval_hermitenorm"]

_chebyt = ufunc_op("eval_chebyt")
_chebyu = ufunc_op("eval_chebyu")
_sh_chebyt = ufunc_op("eval_sh_chebyt")
_sh_chebyu = ufunc_op("eval_sh_chebyu")
_legendre = ufunc_op("eval_legendre")
_laguerre = ufunc_op("eval_laguerre")
_hermite = ufunc_op("eval_hermite")
_hermitenorm = ufunc_op("eval_hermitenorm")
gegenbauer_op = ufunc_op("gegenbauer", cupy_name="eval_gegenbauer")
genlaguerre_op = ufunc_op("genlaguerre", cupy_name="eval_genlaguerre")


def _deg(n):
    # degrees are plain (never traced) data: integers for the int64 kernels; a non-integer
    # degree stays a float (SciPy's hypergeometric continuation, where the derivative
    # identities above hold as well)
    from ..kernels.special.ufuncs import noninteger  # loaded: the value was computed there
    if noninteger(n):
        return n
    if hasattr(n, "astype"):
        return n.astype("int64")
    return int(n)


def _d_gegenbauer(xp, out, n, alpha, x):
    return 2.0 * alpha * gegenbauer_op(_deg(n) - 1, alpha + 1.0, x)


def _d_genlaguerre(xp, out, n, alpha, x):
    return -genlaguerre_op(_deg(n) - 1, alpha + 1.0, x)


def _u_prime(xp, n, x):
    # d/dx U_n(x), with U_{-n-2} = -U_n and U_{-1} = 0
    m = xp.where(n < -1, -n - 2, n)
    sgn = xp.where(n < -1, -1.0, 1.0)
    return sgn * 2.0 * gegenbauer_op(_deg(m) - 1, 2.0, x)


def _d_chebyt(xp, out, n, x):
    m = xp.abs(n)
    return m * eval_chebyu(m - 1, x)


def _d_chebyu(xp, out, n, x):
    return _u_prime(xp, n, x)


def _d_sh_chebyt(xp, out, n, x):
    m = xp.abs(n)
    return 2.0 * m * eval_sh_chebyu(m - 1, x)


def _d_sh_chebyu(xp, out, n, x):
    return 2.0 * _u_prime(xp, n, 2.0 * x - 1.0)


def _d_legendre(xp, out, n, x):
    m = xp.where(n < 0, -n - 1, n)
    return gegenbauer_op(_deg(m) - 1, 1.5, x)


def _d_laguerre(xp, out, n, x):
    return -genlaguerre_op(_deg(n) - 1, 1.0, x)


def _d_hermite(xp, out, n, x):
    return 2.0 * n * eval_hermite(xp.maximum(n - 1, 0), x)


def _d_hermitenorm(xp, out, n, x):
    return n * eval_hermitenorm(xp.maximum(n - 1, 0), x)


def_elementwise_rules(gegenbauer_op, None, None, _d_gegenbauer)
def_elementwise_rules(genlaguerre_op, None, None, _d_genlaguerre)
def_elementwise_rules(_chebyt, None, _d_chebyt)
def_elementwise_rules(_chebyu, None, _d_chebyu)
def_elementwise_rules(_sh_chebyt, None, _d_sh_chebyt)
def_elementwise_rules(_sh_chebyu, None, _d_sh_chebyu)
def_elementwise_rules(_legendre, None, _d_legendre)
def_elementwise_rules(_laguerre, None, _d_laguerre)
def_elementwise_rules(_hermite, None, _d_hermite)
def_elementwise_rules(_hermitenorm, None, _d_hermitenorm)


def _doc(name, what, recurrence, deriv, value, x="0.3"):
    return f"""
    Evaluate the {what} at a point.

    Parameters
    ----------
    n : array_like
        Degree; integers select SciPy's integer-degree loop. A non-integer floating degree
        is evaluated by SciPy's hypergeometric continuation (``scipy.special.{name}``).
    x : array_like
        Point at which to evaluate the polynomial.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        The polynomial values.

    See Also
    --------
    scipy.special.{name}

    Notes
    -----
    {recurrence}

    Autodiff: differentiable in `x` ({deriv}); the degree is not differentiable.

    Examples
    --------
    >>> from linalgx.special import {name}
    >>> float({name}(3, {x}))
    {value}
    """


def eval_chebyt(n, x, out=None, **kwargs):
    return apply(_chebyt, (n, x), out, kwargs)


def eval_chebyu(n, x, out=None, **kwargs):
    return apply(_chebyu, (n, x), out, kwargs)


def eval_sh_chebyt(n, x, out=None, **kwargs):
    return apply(_sh_chebyt, (n, x), out, kwargs)


def eval_sh_chebyu(n, x, out=None, **kwargs):
    return apply(_sh_chebyu, (n, x), out, kwargs)


def eval_legendre(n, x, out=None, **kwargs):
    return apply(_legendre, (n, x), out, kwargs)


def eval_laguerre(n, x, out=None, **kwargs):
    return apply(_laguerre, (n, x), out, kwargs)


def eval_hermite(n, x, out=None, **kwargs):
    return apply(_hermite, (n, x), out, kwargs)


def eval_hermitenorm(n, x, out=None, **kwargs):
    return apply(_hermitenorm, (n, x), out, kwargs)


_CHEB = "Clenshaw-type three-term recurrence, as SciPy's integer-degree loop."
eval_chebyt.__doc__ = _doc("eval_chebyt", "Chebyshev polynomial of the first kind T_n",
                           _CHEB + " ``T_-n = T_n``.", "``T_n' = n U_{n-1}``",
                           "-0.792")
eval_chebyu.__doc__ = _doc("eval_chebyu", "Chebyshev polynomial of the second kind U_n",
                           _CHEB + " ``U_{-n-2} = -U_n``.", "``U_n' = 2 C^(2)_{n-1}``",
                           "-0.984")
eval_sh_chebyt.__doc__ = _doc("eval_sh_chebyt", "shifted Chebyshev polynomial T_n(2x-1)",
                              _CHEB, "chain rule through ``2x - 1``", "0.9440000000000001")
eval_sh_chebyu.__doc__ = _doc("eval_sh_chebyu", "shifted Chebyshev polynomial U_n(2x-1)",
                              _CHEB, "chain rule through ``2x - 1``", "1.088")
eval_legendre.__doc__ = _doc("eval_legendre", "Legendre polynomial P_n",
                             "Recurrence on the differences P_{k+1} - P_k (a power series for "
                             "``|x| < 1e-5``), as SciPy. ``P_{-n-1} = P_n``.",
                             "``P_n' = C^(3/2)_{n-1}``", "-0.3824999999999999")
eval_laguerre.__doc__ = _doc("eval_laguerre", "Laguerre polynomial L_n",
                             "Recurrence on the differences, as SciPy; 0 for ``n < 0``.",
                             "``L_n' = -L^(1)_{n-1}``", "0.23049999999999998")
eval_hermite.__doc__ = _doc("eval_hermite", "physicists' Hermite polynomial H_n",
                            "``H_n(x) = 2**(n/2) He_n(sqrt(2) x)``, as SciPy.",
                            "``H_n' = 2n H_{n-1}``", "-3.3840000000000003")
eval_hermitenorm.__doc__ = _doc("eval_hermitenorm", "probabilists' Hermite polynomial He_n",
                                "Backward three-term recurrence, as SciPy.",
                                "``He_n' = n He_{n-1}``", "-0.873")
