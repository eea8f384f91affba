"""Products: matmul, outer, cross, tensordot, vecdot and multi_dot.

Plain arrays take NumPy's own operations (exact dtypes, subclasses and errors). Traced
values (autodiff Boxes) go through linalgx's differentiable primitives (``_core.basic``:
matmul, tensordot, sums, ...), so these need no rules of their own.
"""
import numpy as np

from .._core import validate as v
from .._core.box import Box

__all__ = ["matmul", "outer", "cross", "tensordot", "vecdot", "multi_dot"]


def _traced(*xs):
    for x in xs:
        if isinstance(x, Box):
            return True
    return False


def _xp():
    from .._core import basic
    return basic


def _arr(x):
    return x if isinstance(x, Box) else np.asanyarray(x)

def matmul(x1, x2, /):
    """
    Computes the matrix product.

    Parameters
    ----------
    x1 : array_like
        The first input array.
    x2 : array_like
        The second input array.

    Returns
    -------
    out : ndarray
        The matrix product of the inputs; a scalar only when both are 1-D.

    Raises
    ------
    ValueError
        If the last dimension of `x1` differs from the second-to-last of `x2`, or a
        scalar is passed.

    See Also
    --------
    numpy.matmul

    Notes
    -----
    Autodiff: differentiable in both arguments (Giles 2008): ``d(AB) = dA B + A dB``,
    cotangents ``G B^H`` and ``A^H G`` summed over broadcast batch axes.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.matmul(np.array([[1, 0], [0, 1]]), np.array([[4, 1], [2, 2]]))
    array([[4, 1],
           [2, 2]])
    """
    if isinstance(x1, Box) or isinstance(x2, Box):
        return _xp().matmul(_arr(x1), _arr(x2))
    return np.matmul(x1, x2)


def outer(x1, x2, /):
    """
    Compute the outer product of two vectors.

    Parameters
    ----------
    x1 : (M,) array_like
        One-dimensional input array.
    x2 : (N,) array_like
        One-dimensional input array.

    Returns
    -------
    out : (M, N) ndarray
        ``out[i, j] = x1[i] * x2[j]``.

    Raises
    ------
    ValueError
        If an input is not one-dimensional.

    See Also
    --------
    numpy.outer

    Notes
    -----
    Autodiff: differentiable in both arguments.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.outer(np.arange(3), np.arange(3))
    array([[0, 0, 0],
           [0, 1, 2],
           [0, 2, 4]])
    """
    if type(x1) is np.ndarray and type(x2) is np.ndarray and x1.ndim == 1 and x2.ndim == 1:
        return np.multiply(x1[:, None], x2[None, :])  # np.outer's own computation
    x1, x2 = _arr(x1), _arr(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(v.MESSAGES["outer_ndim"] % (x1.ndim, x2.ndim))
    if _traced(x1, x2):
        return _xp().outer(x1, x2)
    return np.outer(x1, x2, out=None)


def cross(x1, x2, /, *, axis=-1):
    """
    Returns the cross product of 3-element vectors.

    Parameters
    ----------
    x1 : array_like
        The first input array.
    x2 : array_like
        The second input array, broadcast against `x1` in the other axes.
    axis : int, optional
        The axis of `x1` and `x2` holding the vectors. Default: ``-1``.

    Returns
    -------
    out : ndarray
        The cross products, the vectors along `axis`.

    Raises
    ------
    ValueError
        If the vectors do not have 3 elements.

    See Also
    --------
    numpy.cross

    Notes
    -----
    Autodiff: differentiable in both arguments.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.cross(np.array([1, 2, 3]), np.array([4, 5, 6]))
    array([-3,  6, -3])
    """
    x1, x2 = _arr(x1), _arr(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(v.MESSAGES["cross_dim"] % (x1.shape[axis], x2.shape[axis]))
    if not _traced(x1, x2):
        return np.cross(x1, x2, axis=axis)
    xp = _xp()
    a, b = xp.moveaxis(x1, axis, -1), xp.moveaxis(x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    c = xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return xp.moveaxis(c, -1, axis)


def tensordot(x1, x2, /, *, axes=2):
    """
    Compute the tensor dot product along specified axes.

    Parameters
    ----------
    x1, x2 : array_like
        Tensors to "dot".
    axes : int or (2,) array_like
        An integer N sums over the last N axes of `x1` and the first N of `x2`; a pair
        of sequences names the axes of each to sum over. Default 2.

    Returns
    -------
    output : ndarray
        The tensor dot product of the inputs.

    Raises
    ------
    ValueError
        If the summed axes do not match in length.

    See Also
    --------
    numpy.tensordot

    Notes
    -----
    Autodiff: differentiable in both arguments.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> x = np.arange(6).reshape((2, 3))
    >>> int(LA.tensordot(x, x))
    55
    """
    if isinstance(x1, Box) or isinstance(x2, Box):
        return _xp().tensordot(_arr(x1), _arr(x2), axes)
    return np.tensordot(x1, x2, axes=axes)

def vecdot(x1, x2, /, *, axis=-1):
    r"""
    Computes the vector dot product ``sum(conj(x1) * x2, axis)``.

    Parameters
    ----------
    x1 : array_like
        First input array (conjugated).
    x2 : array_like
        Second input array.
    axis : int, optional
        Axis over which to compute the dot product. Default: ``-1``.

    Returns
    -------
    output : ndarray
        The vector dot products, broadcast over the other axes.

    Raises
    ------
    ValueError
        If the vectors differ in length or the other axes do not broadcast.

    See Also
    --------
    numpy.vecdot

    Notes
    -----
    Autodiff: differentiable in both arguments.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> v = np.array([[0., 5., 0.], [0., 0., 10.], [0., 6., 8.]])
    >>> LA.vecdot(v, np.array([0., 0.6, 0.8]))
    array([ 3.,  8., 10.])
    """
    if not (isinstance(x1, Box) or isinstance(x2, Box)):
        return np.vecdot(x1, x2, axis=axis)
    xp = _xp()
    a, b = xp.moveaxis(_arr(x1), axis, -1), xp.moveaxis(_arr(x2), axis, -1)
    if a.shape[-1] != b.shape[-1]:
        np.vecdot(np.empty(a.shape[-1:]), np.empty(b.shape[-1:]))  # NumPy's core-dim error
    return xp.sum(xp.conj(a) * b, axis=-1)


# -- multi_dot ---------------------------------------------------------------------------------
def _chain_order(arrays):
    """Optimal parenthesization (Cormen, "Introduction to Algorithms", 15.2)."""
    n = len(arrays)
    p = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    m = np.zeros((n, n), dtype=np.double)
    s = np.empty((n, n), dtype=np.intp)
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i, j] = np.inf
            for k in range(i, j):
                q = m[i, k] + m[k + 1, j] + p[i] * p[k + 1] * p[j + 1]
                if q < m[i, j]:
                    m[i, j] = q
                    s[i, j] = k
    return s


def _chain(dot, arrays, order, i, j, out=None):
    if i == j:
        return arrays[i]
    return dot(_chain(dot, arrays, order, i, order[i, j]),
               _chain(dot, arrays, order, order[i, j] + 1, j), out=out)


def _traced_dot(a, b, out=None):
    if out is not None:
        raise TypeError(v.MESSAGES["out_traced"] % "multi_dot")
    return _xp().dot(a, b)


def multi_dot(arrays, *, out=None):
    """
    Compute the dot product of two or more arrays in the cheapest evaluation order.

    If the first argument is 1-D it is treated as a row vector, if the last is 1-D as a
    column vector; the others must be 2-D.

    Parameters
    ----------
    arrays : sequence of array_like
        The arrays to multiply.
    out : ndarray, optional
        Output argument: C-contiguous, of the dtype and shape ``dot`` would return.

    Returns
    -------
    output : ndarray
        The dot product of the supplied arrays.

    Raises
    ------
    ValueError
        For fewer than two arrays.
    LinAlgError
        If an inner array is not 2-D.

    See Also
    --------
    numpy.linalg.multi_dot

    Notes
    -----
    The order minimizes the scalar multiplications, by the dynamic program of Cormen
    et al. (closed form for three arrays), as NumPy does.

    Autodiff: differentiable in every array (not with `out`).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> A, B, C = np.ones((10, 100)), np.ones((100, 5)), np.ones((5, 50))
    >>> float(LA.multi_dot([A, B, C])[0, 0])
    500.0
    """
    n = len(arrays)
    if n < 2:
        raise ValueError(v.MESSAGES["multi_dot_few"])
    dot = _traced_dot if _traced(*arrays) else np.dot
    if n == 2:
        return dot(*(arrays if dot is np.dot else [_arr(a) for a in arrays]), out=out)
    arrays = [_arr(a) for a in arrays]
    ndim_first, ndim_last = arrays[0].ndim, arrays[-1].ndim
    if ndim_first == 1:
        a = arrays[0]
        arrays[0] = a.reshape((1, -1)) if isinstance(a, Box) else np.atleast_2d(a)
    if ndim_last == 1:
        a = arrays[-1]
        arrays[-1] = a.reshape((-1, 1)) if isinstance(a, Box) else np.atleast_2d(a).T
    v.assert_2d(*arrays)
    if n == 3:
        a, b, c = arrays
        a0, a1b0 = a.shape
        b1c0, c1 = c.shape
        cost1 = a0 * b1c0 * (a1b0 + c1)  # (AB)C
        cost2 = a1b0 * c1 * (a0 + b1c0)  # A(BC)
        result = (dot(dot(a, b), c, out=out) if cost1 < cost2 else dot(a, dot(b, c), out=out))
    else:
        result = _chain(dot, arrays, _chain_order(arrays), 0, n - 1, out=out)
    if ndim_first == 1 and ndim_last == 1:
        return result[0, 0]
    if ndim_first == 1 or ndim_last == 1:
        return result.ravel()
    return result
