"""Matrix views: trace, diagonal and matrix_transpose over the last two axes.

Plain arrays take NumPy's own functions (views where NumPy returns views); traced values
go through linalgx's differentiable (linear) primitives.
"""
import numpy as np

from .._core import validate as v
from .._core.box import Box
from ._products import _xp

__all__ = ["trace", "diagonal", "matrix_transpose"]


def trace(x, /, *, offset=0, dtype=None):
    """
    Returns the sum along the diagonals of a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : (..., M, N) array_like
        Input array whose innermost two dimensions form the matrices.
    offset : int, optional
        Offset of the diagonal from the main diagonal (positive: above).
    dtype : dtype, optional
        Data type of the returned array.

    Returns
    -------
    out : (...) ndarray
        The traces.

    See Also
    --------
    numpy.trace

    Notes
    -----
    Autodiff: differentiable (linear) in `x`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.trace(np.arange(8).reshape((2, 2, 2)))
    array([ 3, 11])
    """
    if type(x) is np.ndarray:  # np.trace's own call, without its Python layers
        return x.trace(offset, -2, -1, dtype)
    if isinstance(x, Box):
        return _xp().trace(x, offset, -2, -1, dtype)
    return np.trace(x, offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    """
    Returns specified diagonals of a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : (..., M, N) array_like
        Input array whose innermost two dimensions form the matrices.
    offset : int, optional
        Offset of the diagonal from the main diagonal (positive: above).

    Returns
    -------
    out : (..., min(M, N)) ndarray
        The diagonals, a read-only view as NumPy's.

    See Also
    --------
    numpy.diagonal

    Notes
    -----
    Autodiff: differentiable (linear) in `x`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.diagonal(np.arange(9).reshape((3, 3)), offset=1)
    array([1, 5])
    """
    if type(x) is np.ndarray:  # np.diagonal's own call, without its Python layers
        return x.diagonal(offset, -2, -1)
    if isinstance(x, Box):
        return _xp().diagonal(x, offset, -2, -1)
    return np.diagonal(x, offset, axis1=-2, axis2=-1)


def matrix_transpose(x, /):
    """
    Transposes a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : (..., M, N) array_like
        Input array with ``x.ndim >= 2``.

    Returns
    -------
    out : (..., N, M) ndarray
        The transposed matrices (a view).

    Raises
    ------
    ValueError
        If `x` has fewer than two dimensions.

    See Also
    --------
    numpy.matrix_transpose

    Notes
    -----
    Autodiff: differentiable (linear) in `x`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.matrix_transpose(np.array([[1, 2], [3, 4]]))
    array([[1, 3],
           [2, 4]])
    """
    if type(x) is np.ndarray and x.ndim >= 2:  # np.matrix_transpose's own call
        return x.swapaxes(-1, -2)
    if not isinstance(x, Box):
        return np.matrix_transpose(x)
    if x.ndim < 2:
        raise ValueError(v.MESSAGES["transpose_ndim"])
    return _xp().matrix_transpose(x)
