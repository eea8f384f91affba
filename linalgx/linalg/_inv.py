"""inv, inv_ex and tensorinv."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.lapack import gufunc, umath_linalg
from .._core.op import Op

__all__ = ["inv", "inv_ex", "tensorinv"]

_inv = Op("inv")
_inv.def_route(routing.square_router("inv"))


@_inv.impl("lapack")
def _inv_lapack(a):
    return gufunc(umath_linalg.inv, "singular", "inv", a)


@_inv.impl("numba")
def _inv_numba(a):
    from ..kernels import dispatch as kd
    out, info = kd.inv(a)
    v.raise_on_info(info, "singular", "inv", a.shape[:-2])
    return out


@_inv.def_jvp
def _inv_jvp(xp, tangents, out, a):
    (t,) = tangents
    return -(out @ t @ out)


@_inv.def_vjp
def _inv_vjp(xp, g, out, a):
    out_h = xp.conj(xp.matrix_transpose(out))
    return (-(out_h @ g @ out_h),)


def inv(a):
    """
    Compute the inverse of a matrix.

    Given a square matrix `a`, return the matrix `ainv` satisfying
    ``a @ ainv = ainv @ a = eye(a.shape[0])``.

    Parameters
    ----------
    a : (..., M, M) array_like
        Matrix to be inverted.

    Returns
    -------
    ainv : (..., M, M) ndarray or matrix
        Inverse of the matrix `a`.

    Raises
    ------
    LinAlgError
        If `a` is not square or inversion fails. For a stack, the message names the
        failing batch element (``SingularMatrixError.batch_index``).

    See Also
    --------
    inv_ex : the same, returning a per-element status instead of raising.
    numpy.linalg.inv

    Notes
    -----
    Stacks of small matrices run on numba kernels where measured faster than LAPACK.

    Autodiff: differentiable in `a`; ``d(inv(A)) = -inv(A) dA inv(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1., 2.], [3., 4.]])
    >>> LA.inv(a)
    array([[-2. ,  1. ],
           [ 1.5, -0.5]])
    """
    a, wrap = v.makearray(a)
    v.assert_stacked_square(a)
    t, result_t = v.common_type(a)
    ainv = _inv(a.astype(t, copy=False))
    return wrap(ainv.astype(result_t, copy=False))


def inv_ex(a):
    """
    Inverse of a (stacked) matrix with a per-element status instead of an exception.

    Parameters
    ----------
    a : (..., M, M) array_like
        Matrices to be inverted.

    Returns
    -------
    inverse : (..., M, M) ndarray
        The inverses; an element whose matrix is singular holds NaN.
    info : (...) ndarray of int32
        0 where the inversion succeeded, ``i > 0`` where ``U[i-1, i-1]`` of the LU
        factorization is exactly zero (torch.linalg.inv_ex's convention).

    Raises
    ------
    LinAlgError
        Only for a non-square or lower-than-2-D input, never for a singular matrix.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.stack([np.eye(2), np.zeros((2, 2))])
    >>> inverse, info = LA.inv_ex(a)
    >>> info
    array([0, 1], dtype=int32)
    """
    a, _ = v.makearray(a)
    v.assert_stacked_square(a)
    t, result_t = v.common_type(a)
    from ..kernels import dispatch as kd
    from .._core.box import Box
    if isinstance(a, Box):
        raise TypeError("inv_ex: use inv inside differentiated code")
    out, info = kd.inv(np.asarray(a, dtype=t))
    return out.astype(result_t, copy=False), info


def tensorinv(a, ind=2):
    """
    Compute the 'inverse' of an N-dimensional array.

    The result is an inverse for `a` relative to the tensordot operation
    ``tensordot(a, b, ind)``, i. e., up to floating-point accuracy,
    ``tensordot(tensorinv(a), a, ind)`` is the "identity" tensor for the
    tensordot operation.

    Parameters
    ----------
    a : array_like
        Tensor to 'invert'. Its shape must be 'square', i. e.,
        ``prod(a.shape[:ind]) == prod(a.shape[ind:])``.
    ind : int, optional
        Number of first indices that are involved in the inverse sum.
        Must be a positive integer, default is 2.

    Returns
    -------
    b : ndarray
        `a`'s tensordot inverse, shape ``a.shape[ind:] + a.shape[:ind]``.

    Raises
    ------
    LinAlgError
        If `a` is singular or not 'square' (in the above sense).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.eye(4 * 6).reshape((4, 6, 8, 3))
    >>> LA.tensorinv(a, ind=2).shape
    (8, 3, 4, 6)
    """
    a, wrap = v.makearray(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    oldshape = a.shape
    prod = 1
    invshape = oldshape[ind:] + oldshape[:ind]
    for k in oldshape[ind:]:
        prod *= k
    a = a.reshape(prod, -1)
    ia = inv(a)
    return wrap(ia.reshape(*invshape))
