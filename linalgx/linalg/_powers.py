"""Powers: matrix_power, and the extra vander (torch.linalg.vander)."""
import operator

import numpy as np

from .._core import validate as v
from .._core.box import Box
from .._core.lapack import all_finite
from .._core.op import Op
from .._core.xputil import ns
from ._products import _arr, matmul

__all__ = ["matrix_power", "vander"]


def matrix_power(a, n):
    """
    Raise a square matrix to the (integer) power `n`.

    Positive powers are computed by repeated squarings and multiplications; ``n == 0``
    gives the identity, and ``n < 0`` the inverse raised to ``abs(n)``.

    Parameters
    ----------
    a : (..., M, M) array_like
        Matrix to be "powered".
    n : int
        The exponent: any integer, positive, negative or zero.

    Returns
    -------
    a**n : (..., M, M) ndarray or matrix object
        The same shape and type as `a`. For ``n >= 0`` the dtype of `a` (integers wrap
        around on overflow, as in NumPy); for ``n < 0`` floating point.

    Raises
    ------
    LinAlgError
        For non-square matrices, or (for negative powers) singular ones.
    TypeError
        If `n` is not an integer (``exponent must be an integer``).

    See Also
    --------
    numpy.linalg.matrix_power

    Notes
    -----
    ``matrix_power(a, 1)`` returns `a` itself, as NumPy does.

    Autodiff: differentiable in `a` (through `matmul` and `inv`).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> i = np.array([[0, 1], [-1, 0]])
    >>> LA.matrix_power(i, 3)
    array([[ 0, -1],
           [ 1,  0]])
    >>> LA.matrix_power(i, -3)
    array([[ 0.,  1.],
           [-1.,  0.]])
    """
    a = _arr(a)
    v.assert_stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError(v.MESSAGES["power_exponent"]) from e
    if a.dtype.kind != "O":
        fmatmul = matmul if isinstance(a, Box) else np.matmul
    elif a.ndim == 2:
        fmatmul = np.dot
    else:
        raise NotImplementedError(v.MESSAGES["power_object_stack"])
    if n == 0:
        if isinstance(a, Box):
            return np.broadcast_to(np.eye(a.shape[-2], dtype=a.dtype), a.shape).copy()
        a = np.empty_like(a)
        a[...] = np.eye(a.shape[-2], dtype=a.dtype)
        return a
    elif n < 0:
        from ._inv import inv
        a = inv(a)
        n = abs(n)
    if n == 1:
        return a
    elif n == 2:
        return fmatmul(a, a)
    elif n == 3:
        return fmatmul(fmatmul(a, a), a)
    # binary decomposition: square `z` through the bits of n, multiply into the result
    z = result = None
    while n > 0:
        z = a if z is None else fmatmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else fmatmul(result, z)
    return result


# -- vander -----------------------------------------------------------------------------------
_vander = Op("vander")


@_vander.impl("any")
def _vander_any(x, N):
    xpn = np if type(x) is np.ndarray else ns(x)
    out = xpn.empty(x.shape + (N,), dtype=x.dtype)
    out[..., 0] = 1
    if xpn is np and x.size >= 32 and N > 2 and x.dtype.kind in "fiu":
        # numpy.vander's products (x**k = x**(k-1) * x, the same roundoff), a column at a
        # time: NumPy's accumulate along each short row made 20,000 x 3 take 1.07 ms, this
        # 0.07 ms. Its warnings are the accumulate's, so an overflow is redone by it.
        # (Not complex: the multiply loop's vectorised complex product can round otherwise
        # than the accumulate's.)
        out[..., 1] = x
        with np.errstate(over="ignore", invalid="ignore"):
            for k in range(2, N):
                np.multiply(out[..., k - 1], x, out=out[..., k])
        if x.dtype.kind != "f" or all_finite(out[..., N - 1]):
            return out
    out[..., 1:] = x[..., None]
    if xpn is np:  # numpy.vander's own accumulation, for identical roundoff
        np.multiply.accumulate(out[..., 1:], axis=-1, out=out[..., 1:])
        return out
    return xpn.cumprod(out, axis=-1, dtype=x.dtype)


def _vander_slopes(out, N):
    """d/dx of x**j for every column: ``out @ S`` with the shift S[j-1, j] = j."""
    xpn = ns(out)
    shift = xpn.diag(xpn.arange(1, N).astype(out.dtype), k=1)
    return out @ shift


@_vander.def_jvp
def _vander_jvp(xp, tangents, out, x, N):
    (t,) = tangents
    return xp.expand_dims(t, -1) * _vander_slopes(out, N)


@_vander.def_vjp
def _vander_vjp(xp, g, out, x, N):
    return (xp.sum(xp.conj(_vander_slopes(out, N)) * g, axis=-1),)


def vander(x, N=None):
    """
    Generates a Vandermonde matrix with increasing powers (torch.linalg.vander).

    ``vander(x)[..., i, j] == x[..., i] ** j`` for ``j = 0, ..., N - 1``.

    Parameters
    ----------
    x : (..., n) array_like
        The points, batched over leading dimensions; a 0-d `x` counts as ``(1,)``.
    N : int, optional
        Number of columns. Default ``x.shape[-1]``.

    Returns
    -------
    out : (..., n, N) ndarray
        The Vandermonde matrices, in the dtype of `x`; integers are promoted to int64 (as
        by torch and ``numpy.vander``; uint64 gives float64, NumPy's promotion of uint64
        with int64) and wrap around on overflow.

    Raises
    ------
    ValueError
        If ``N <= 1`` (``N must be greater than 1.``).
    TypeError
        For dtypes other than integer, floating point and complex (bool included).

    See Also
    --------
    numpy.vander : One 1-D input, decreasing powers by default.

    Notes
    -----
    Powers are accumulated by repeated multiplication, as in ``numpy.vander``.

    Autodiff: differentiable in `x`; ``d x**j = j x**(j-1) dx``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.vander(np.array([1, 2, 3, 5]))
    array([[  1,   1,   1,   1],
           [  1,   2,   4,   8],
           [  1,   3,   9,  27],
           [  1,   5,  25, 125]])
    >>> LA.vander(np.ones((2, 3)), N=2).shape
    (2, 3, 2)
    """
    if not isinstance(x, Box):
        x = np.asarray(x)
    if x.dtype.kind not in "iufc":
        raise TypeError(v.MESSAGES["vander_dtype"] % x.dtype)
    if x.ndim == 0:
        x = x.reshape((1,))
    if x.dtype.kind in "iu":  # torch and numpy.vander accumulate integer powers in int64
        x = x.astype(np.promote_types(x.dtype, np.int64))
    n = x.shape[-1] if N is None else operator.index(N)
    if n <= 1:
        raise ValueError(v.MESSAGES["vander_n"])
    return _vander(x, N=n)
