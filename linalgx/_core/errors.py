"""Exception classes: NumPy's public classes, or subclasses of them.

``LinAlgError`` *is* ``numpy.linalg.LinAlgError`` so existing ``except`` clauses keep
working. The subclasses carry which batch element failed and the kernel's status code.
"""
from numpy.linalg import LinAlgError

__all__ = ["LinAlgError", "SingularMatrixError", "NotPositiveDefiniteError", "ConvergenceError"]


class _BatchedLinAlgError(LinAlgError):
    """A LinAlgError that knows which element of a stacked input failed."""

    def __init__(self, message, batch_index=None, info=None):
        super().__init__(message)
        self.batch_index = batch_index
        self.info = info


class SingularMatrixError(_BatchedLinAlgError):
    """Raised for an exactly singular matrix (a zero pivot).

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> a = np.stack([np.eye(2), np.zeros((2, 2))])
    >>> try:
    ...     linalgx.linalg.inv(a)
    ... except np.linalg.LinAlgError as e:
    ...     print(type(e).__name__, e.batch_index)
    SingularMatrixError (1,)
    """


class NotPositiveDefiniteError(_BatchedLinAlgError):
    """Raised when a Cholesky factorization meets a non-positive pivot.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> try:
    ...     linalgx.linalg.cholesky(-np.eye(2))
    ... except linalgx.NotPositiveDefiniteError as e:
    ...     print(str(e).startswith("Matrix is not positive definite"))
    True
    """


class ConvergenceError(_BatchedLinAlgError):
    """Raised when an iterative decomposition (eig, eigh, svd) does not converge.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> try:
    ...     linalgx.linalg.svd(np.array([[1.0, np.nan], [0.0, 1.0]]))
    ... except linalgx.ConvergenceError as e:
    ...     print(str(e).startswith("SVD did not converge"))
    True
    """
