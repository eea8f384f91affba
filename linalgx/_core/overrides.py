"""NEP 18: a duck array goes where NumPy would send it.

``np.linalg.inv(x)`` hands a call whose arguments include a type overriding
``__array_function__`` (dask, xarray, pint, a user's container) to that type. As a drop-in,
``linalgx.linalg.inv(x)`` does the same: such a call goes to NumPy's own function, whose
dispatch then passes it on exactly as ``np.linalg.inv(x)`` would (or raises NumPy's
``TypeError`` where the type returns ``NotImplemented``). NumPy arrays and their subclasses
without an override (``np.matrix``, masked arrays), CuPy arrays (linalgx's cupy backend)
and linalgx's own traced values (``Box``) are linalgx's to compute.
"""
import functools
import importlib

import numpy as np

from .box import Box
from .dispatch import _is_cupy

__all__ = ["deferring"]

_NDARRAY = np.ndarray
_NATIVE = np.ndarray.__array_function__


def _overrides(x):
    f = getattr(type(x), "__array_function__", None)
    return f is not None and f is not _NATIVE and not isinstance(x, Box) and not _is_cupy(x)


def deferring(fn, numpy_module, name, sequences=False):
    """``fn`` that hands a call with a duck-array argument to NumPy's function ``name`` of
    ``numpy_module`` (a module NumPy defines them in, e.g. ``"numpy.linalg._linalg"``, not
    the public namespace, which linalgx's conformance runner patches).

    ``sequences``: the items of list and tuple arguments are arrays too (``multi_dot``);
    elsewhere a list is array data, and NumPy does not look inside it either. An ndarray
    argument costs one type check.
    """
    numpy_fn = getattr(importlib.import_module(numpy_module), name)
    if not hasattr(numpy_fn, "_implementation"):  # NumPy does not dispatch it (fftfreq)
        return fn

    @functools.wraps(fn)
    def defers(*args, **kwargs):
        for a in args:
            if type(a) is not ndarray:
                if overrides(a) or sequences and type(a) in (list, tuple) and any(
                        overrides(x) for x in a):
                    return numpy_fn(*args, **kwargs)
        if kwargs:
            for a in kwargs.values():
                if type(a) is not ndarray and overrides(a):
                    return numpy_fn(*args, **kwargs)
            return fn(*args, **kwargs)
        return fn(*args)  # without an empty **kwargs: 0.1 us of a 3 us call

    ndarray, overrides = _NDARRAY, _overrides  # closure cells: faster than global lookups

    defers.__numpy_function__ = numpy_fn
    return defers
