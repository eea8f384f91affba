"""linalgx: NumPy-compatible linear algebra, FFT and special functions.

``import linalgx.linalg as LA`` replaces ``numpy.linalg``. Every call goes through one
dispatcher: NumPy arrays run on numba kernels or LAPACK (whichever is measured faster), CuPy
arrays on the GPU. Every op is differentiable in forward and reverse mode (``grad``, ``vjp``,
``jvp``, ``jacobian``, ``hessian``), with PyTorch's convention for complex inputs.

Importing linalgx is cheap: submodules load on first use, and numba is imported only when a
kernel first runs.
"""
import importlib as _importlib

__version__ = "0.1.0"

from ._core.dispatch import backend, get_backend  # noqa: E402,F401
from ._core.errors import (  # noqa: E402,F401
    ConvergenceError,
    LinAlgError,
    NotPositiveDefiniteError,
    SingularMatrixError,
)

_SUBMODULES = {"linalg", "fft", "special", "conformance"}
_LAZY = {
    "grad": "linalgx._core.transforms",
    "value_and_grad": "linalgx._core.transforms",
    "vjp": "linalgx._core.transforms",
    "jvp": "linalgx._core.transforms",
    "jacobian": "linalgx._core.transforms",
    "hessian": "linalgx._core.transforms",
    "gradcheck": "linalgx._core.gradcheck",
    "show_config": "linalgx._core.config",
    "use_deterministic_algorithms": "linalgx._core.config",
    "are_deterministic_algorithms_enabled": "linalgx._core.config",
    "set_num_threads": "linalgx._core.config",
    "get_num_threads": "linalgx._core.config",
}

__all__ = sorted(
    ["backend", "get_backend", "LinAlgError", "SingularMatrixError",
     "NotPositiveDefiniteError", "ConvergenceError", *_SUBMODULES - {"conformance"}, *_LAZY])


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module(f"linalgx.{name}")
    if name in _LAZY:
        return getattr(_importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'linalgx' has no attribute {name!r}")


def __dir__():
    return __all__
