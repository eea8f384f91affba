"""erfcinv, the inverse of the complementary error function.

Kernel in ``kernels/special/explog.py``: Boost.Math's ``erfc_inv`` on :mod:`.erf`'s
``_erf_inv_imp`` (the rational approximations of SciPy's erfinv), SciPy's special values.
"""
import math

from ._ufunc import apply, def_elementwise_rules, exp_square, ufunc_op

__all__ = ["erfcinv"]

_erfcinv = ufunc_op("erfcinv")


def _d_erfcinv(xp, out, y):
    # 1 / erfc'(x) = -sqrt(pi)/2 exp(x**2) at x = erfcinv(y); exp_square keeps exp(x**2)
    # free of the rounding error of x**2 (x ~ 27 in the subnormal tail: 1500 ulp otherwise)
    return (-0.5 * math.sqrt(math.pi)) * exp_square(xp, out, 1)


def_elementwise_rules(_erfcinv, _d_erfcinv)


def erfcinv(y, out=None, **kwargs):
    """
    Inverse of the complementary error function.

    Parameters
    ----------
    y : array_like
        Real input in ``[0, 2]``.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``x`` with ``erfc(x) = y``, in the input's precision (float64 for integers);
        ``inf`` at 0, ``-inf`` at 2, ``-0.0`` at 1, NaN outside ``[0, 2]``.

    See Also
    --------
    scipy.special.erfcinv, erfinv, ndtri

    Notes
    -----
    Boost.Math's ``erfc_inv``: the rational approximations of ``erfinv`` evaluated in
    ``1 - y`` near the centre and in ``y`` (or ``2 - y``) in the tails, so the result keeps
    full relative accuracy for tiny and subnormal `y` (where SciPy's ``-ndtri(y / 2) /
    sqrt(2)`` loses the last bit of `y`, and gives ``inf`` at 5e-324).

    Autodiff: differentiable; the derivative is ``-sqrt(pi)/2 exp(erfcinv(y)**2)``, with
    the square's rounding error compensated.

    Examples
    --------
    >>> from linalgx.special import erfcinv
    >>> erfcinv(np.array([0.5, 1.5, 1e-300]))
    array([ 0.47693628, -0.47693628, 26.20946996])
    """
    return apply(_erfcinv, (y,), out, kwargs)
