"""Exception classes: NumPy's public classes, or subclasses of them.

``LinAlgError`` *is* ``numpy.linalg.LinAlgError`` so existing ``except`` clauses keep
working. The subclasses carry which batch element failed and the kernel's status code.
"""
import os
import sys
import warnings

from numpy.linalg import LinAlgError

__all__ = ["LinAlgError", "SingularMatrixError", "NotPositiveDefiniteError", "ConvergenceError",
           "warn"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def warn(message, category):
    """``warnings.warn`` attributed to the first caller outside linalgx (NumPy's warnings
    point at the user's line): the call depth inside linalgx varies with the route a call
    takes (dispatcher, NEP 18 wrapper, autodiff), so no fixed ``stacklevel`` fits."""
    level = 2  # warnings.warn counts warn() itself as 1
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


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
