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
    """Raised for an exactly singular matrix (a zero pivot)."""


class NotPositiveDefiniteError(_BatchedLinAlgError):
    """Raised when a Cholesky factorization meets a non-positive pivot."""


class ConvergenceError(_BatchedLinAlgError):
    """Raised when an iterative decomposition (eig, eigh, svd) does not converge."""
