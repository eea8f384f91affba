"""Exception classes: NumPy's public classes, or subclasses of them.

``LinAlgError`` *is* ``numpy.linalg.LinAlgError`` so existing ``except`` clauses keep
working. The subclasses carry which batch element failed and the kernel's status code.
"""
import os
import re
import sys
import warnings

from numpy.exceptions import AxisError as _NumpyAxisError
from numpy.linalg import LinAlgError

__all__ = ["LinAlgError", "SingularMatrixError", "NotPositiveDefiniteError", "ConvergenceError",
           "warn", "name_error", "NAMED_ERRORS"]

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


# what the public functions' wrappers pass through name_error (NumPy's ufunc type errors and
# array MemoryErrors build their text from their fields and pass unchanged)
NAMED_ERRORS = (ValueError, TypeError, IndexError, ZeroDivisionError, LinAlgError, MemoryError)


def name_error(e, name):
    """Make the message of ``e``, raised inside the public function ``name``, name it.

    NumPy's text stays first (user code matches on it). A message that already names
    ``name`` is left alone; one that names the internal function that raised it (``Singular
    matrix (inv: batch element (1,) ...)`` inside ``matrix_power``) names ``name`` instead;
    any other gets `` (name)`` appended. NumPy's ``AxisError(axis, ndim)``, whose text
    ``__str__`` builds from those fields, becomes linalgx's `AxisError` subclass, which
    appends the name the same way.
    """
    if isinstance(e, _NumpyAxisError) and e.axis is not None:
        # NumPy builds this text from (axis, ndim, prefix) in __str__: keep the fields (user
        # code may read them) and the text, and append the name through a subclass
        if type(e) is _NumpyAxisError:
            e.__class__ = AxisError
            e.func = name
        return
    if len(e.args) != 1 or not isinstance(e.args[0], str) or str(e) != e.args[0]:
        return  # an exception that builds its text otherwise (NumPy's ufunc type errors)
    message = e.args[0]
    inner = getattr(e, "func", None)
    if inner is not None and inner != name:
        for old, new in ((f" ({inner}:", f" ({name}:"), (f" ({inner})", f" ({name})")):
            if old in message:
                message = message.replace(old, new, 1)
                break
        e.func = name
    # named as linalgx and NumPy name functions: "(name)", "(name: ...", "name: ...",
    # "ufunc 'name'", "name is not defined ..." (a plain word is not enough: "Invalid norm
    # order" does not name norm)
    n = re.escape(name)
    if not re.search(rf"^{n}\b|(?:^|[\s(']){n}(?:[:)']|$)", message):
        message = f"{message} ({name})"
    e.args = (message,)
    if isinstance(e, _NumpyAxisError):
        e._msg = message  # the one-argument form: __str__ returns _msg


class AxisError(_NumpyAxisError):
    """NumPy's AxisError, its text followed by the linalgx function that raised it."""
    __slots__ = ()  # NumPy's layout, so that name_error can assign the class

    def __str__(self):
        return f"{_NumpyAxisError.__str__(self)} ({self.func})"


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
