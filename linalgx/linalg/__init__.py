"""
Linear algebra: a drop-in for :mod:`numpy.linalg`, plus torch.linalg's extras.

Every name of ``numpy.linalg`` with NumPy's signature, result types, dtypes and
exceptions (``LinAlgError`` is NumPy's own class), plus ``solve_triangular``, ``lu``,
``lu_factor``, ``lu_solve``, ``cholesky_ex``, ``inv_ex``, ``solve_ex``, ``matrix_exp``,
``householder_product``, ``ldl_factor``, ``ldl_solve`` and ``vander``. Each function is an
op of linalgx's dispatcher (numba kernels or LAPACK for NumPy arrays, CuPy for CuPy
arrays) with forward- and reverse-mode derivative rules.

The op modules load on first use (``LA.inv`` imports only what ``inv`` needs), so that
``import linalgx.linalg as LA`` followed by one small call costs about what NumPy does.

A call with a duck array (a type overriding ``__array_function__``, NEP 18) goes where
``numpy.linalg``'s would: to that type's implementation, through NumPy's function.

Examples
--------
>>> import numpy as np
>>> import linalgx.linalg as LA
>>> a = np.array([[4.0, 1.0], [1.0, 3.0]])
>>> np.allclose(a @ LA.inv(a), np.eye(2))
True
"""
import importlib as _importlib

from numpy.linalg import __all__ as _NUMPY_NAMES

from .._core.overrides import deferring as _deferring
from .._core.overrides import naming as _naming

# name -> the module that defines it, in numpy.linalg.__all__'s order, then the extras
_WHERE = {
    "matrix_power": "_powers", "solve": "_solve", "tensorsolve": "_solve",
    "tensorinv": "_inv", "inv": "_inv", "cholesky": "_cholesky", "eigvals": "_eig",
    "eigvalsh": "_eig", "pinv": "_pinv", "slogdet": "_det", "det": "_det", "svd": "_svd",
    "svdvals": "_svd", "eig": "_eig", "eigh": "_eig", "lstsq": "_lstsq", "norm": "_norms",
    "qr": "_qr", "cond": "_norms", "matrix_rank": "_pinv", "LinAlgError": "._core.errors",
    "multi_dot": "_products", "trace": "_views", "diagonal": "_views", "cross": "_products",
    "outer": "_products", "tensordot": "_products", "matmul": "_products",
    "matrix_transpose": "_views", "matrix_norm": "_norms", "vector_norm": "_norms",
    "vecdot": "_products",
    "inv_ex": "_inv", "solve_ex": "_solve", "solve_triangular": "_triangular",
    "lu": "_lu", "lu_factor": "_lu", "lu_factor_ex": "_lu", "lu_solve": "_lu",
    "cholesky_ex": "_cholesky", "ldl_factor": "_ldl", "ldl_factor_ex": "_ldl",
    "ldl_solve": "_ldl", "matrix_exp": "_matfuncs",
    "householder_product": "_qr", "vander": "_powers",
}
__all__ = list(_WHERE)


def __getattr__(name):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _importlib.import_module(where if where.startswith("._") else "." + where,
                                     "linalgx" if where.startswith("._") else __name__)
    value = getattr(module, name)
    if name in _NUMPY_NAMES and not isinstance(value, type):  # NEP 18, as NumPy's function
        value = _deferring(value, "numpy.linalg._linalg", name, sequences=name == "multi_dot")
    elif not isinstance(value, type):  # the extras: errors name them too
        value = _naming(value, name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
