"""Backends and how a call picks one.

Order of decision (see docs/backends): the array family of the inputs (numpy or cupy; mixed
raises ``TypeError``), then an explicit ``with linalgx.backend(...)`` (a ContextVar, so it is
thread- and async-safe), then ``LINALGX_BACKEND``, then per-op size routing between the numba
kernels and LAPACK from the measured threshold table in :mod:`linalgx._core.routing`.
"""
import contextlib
import os
import sys
from contextvars import ContextVar

import numpy as np

__all__ = ["BACKENDS", "backend", "get_backend", "array_family", "available_backends"]

BACKENDS = ("lapack", "numba", "cupy")
_FAMILY_OF = {"lapack": "numpy", "numba": "numpy", "cupy": "cupy"}

_explicit = ContextVar("linalgx_backend", default=None)


def _check_name(name):
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; expected one of "
                         f"{', '.join(BACKENDS)} or 'auto'")
    return name


def _env_default():
    name = os.environ.get("LINALGX_BACKEND", "").strip().lower()
    return _check_name(name) if name and name != "auto" else None


_default = _env_default()


@contextlib.contextmanager
def backend(name):
    """Run the enclosed calls on one backend: ``"lapack"``, ``"numba"``, ``"cupy"`` or ``"auto"``.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> with linalgx.backend("lapack"):
    ...     float(linalgx.linalg.det(np.eye(3)))
    1.0
    """
    token = _explicit.set(None if name == "auto" else _check_name(name))
    try:
        yield
    finally:
        _explicit.reset(token)


def get_backend():
    """The backend selected by ``backend()`` or ``LINALGX_BACKEND``; None means automatic.

    Examples
    --------
    >>> import linalgx
    >>> with linalgx.backend("numba"):
    ...     linalgx.get_backend()
    'numba'
    """
    name = _explicit.get()
    return _default if name is None else name


def _is_cupy(x):
    # array-api-compat's test, without importing cupy (nor array_api_compat on the hot path)
    return type(x).__module__.startswith("cupy") and "cupy" in sys.modules


def array_family(*args):
    """``"numpy"`` or ``"cupy"`` for the array arguments; mixing them raises ``TypeError``."""
    family = None
    for a in args:
        if type(a) is np.ndarray or a is None:
            f = "numpy"
        elif isinstance(a, (list, tuple)):
            if not a:
                continue
            f = array_family(*a)
        else:
            f = "cupy" if _is_cupy(a) else "numpy"
        if family is None:
            family = f
        elif f != family:
            raise TypeError(
                "linalgx: inputs mix numpy and cupy arrays; move them to one device first "
                "(data never moves between devices implicitly)")
    return family or "numpy"


def cupy_available():
    try:
        import importlib.util
        return importlib.util.find_spec("cupy") is not None
    except (ImportError, ValueError):
        return False


def available_backends():
    """Backends usable in this process, as a dict name -> bool."""
    import importlib.util
    return {
        "lapack": True,
        "numba": importlib.util.find_spec("numba") is not None,
        "cupy": cupy_available(),
    }


def select(op, args, params):
    """The implementation of ``op`` that should serve a call on plain (un-boxed) arrays.

    This runs on every call: the common case (NumPy arrays, automatic backend) costs a type
    check per argument, a ContextVar read and the op's route function.
    """
    impls = op.impls
    for a in args:
        if type(a) is not np.ndarray and _is_cupy(a):
            array_family(*args)  # raises TypeError for mixed numpy/cupy inputs
            name = get_backend()
            if name is not None and name != "cupy":
                raise TypeError(f"{op.name}: backend {name!r} cannot take cupy arrays")
            impl = impls.get("cupy")
            if impl is None:
                raise NotImplementedError(f"{op.name} has no cupy implementation yet")
            return impl
    name = _explicit.get()
    if name is None:
        name = _default
    if name is None:
        route = op.route
        if route is not None and route(*args, **params):
            impl = impls.get("numba")
            if impl is not None:
                return impl
        return impls["lapack"]
    if name == "numba":
        return impls.get("numba") or impls["lapack"]
    if name == "cupy":
        raise TypeError(f"{op.name}: the cupy backend needs cupy arrays; got numpy input")
    return impls["lapack"]
