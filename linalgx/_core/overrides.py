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
import inspect
import os

import numpy as np

from .box import Box
from .dispatch import _is_cupy

__all__ = ["deferring"]

_NDARRAY = np.ndarray
_NATIVE = np.ndarray.__array_function__


def _overrides(x):
    f = getattr(type(x), "__array_function__", None)
    return f is not None and f is not _NATIVE and not isinstance(x, Box) and not _is_cupy(x)


def _sequence_overrides(x):
    return type(x) in (list, tuple) and any(_overrides(e) for e in x)


def _call_numpy(numpy_fn, params, values):
    """``numpy_fn`` called with the arguments of a call to the wrapper: ``values`` of the
    ``params`` (inspect.Parameter) in order, leaving out those that are their default, so
    that the duck's ``__array_function__`` sees the arguments as the user wrote them (as
    NumPy forwards them), not linalgx's defaults written out."""
    P = inspect.Parameter
    last = max((i for i, (p, v) in enumerate(zip(params, values))
                if p.kind is P.POSITIONAL_ONLY and v is not p.default), default=-1)
    args, kwargs = [], {}
    for i, (p, v) in enumerate(zip(params, values)):
        if i <= last or p.kind is not P.KEYWORD_ONLY and v is not p.default and not kwargs \
                and len(args) == i:
            args.append(v)
        elif v is not p.default:
            kwargs[p.name] = v
    return numpy_fn(*args, **kwargs)


def deferring(fn, numpy_module, name, sequences=False):
    """``fn`` that hands a call with a duck-array argument to NumPy's function ``name`` of
    ``numpy_module`` (a module NumPy defines them in, e.g. ``"numpy.linalg._linalg"``, not
    the public namespace, which linalgx's conformance runner patches).

    The wrapper has ``fn``'s own signature (written out and compiled here: a generic
    ``*args, **kwargs`` wrapper cost 0.2 us of a 2.6 us ``det`` of ten 2x2 matrices, this
    one 0.05 us) and looks at the parameters that can hold arrays: those without a default
    or whose default is None (an ndarray costs one type check, None one identity test).
    Looking at more parameters than NumPy's dispatcher does changes nothing: NumPy's own
    function then decides, as it would have. ``sequences``: the items of the first
    argument are arrays (``multi_dot``); elsewhere a list is array data, and NumPy does not
    look inside it either.
    """
    numpy_fn = getattr(importlib.import_module(numpy_module), name)
    if not hasattr(numpy_fn, "_implementation"):  # NumPy does not dispatch it (fftfreq)
        return fn
    sig = inspect.signature(fn)
    P = inspect.Parameter
    if any(p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD) for p in sig.parameters.values()):
        raise TypeError(f"deferring: {name} needs named parameters, got {sig}")
    env = {"ndarray": _NDARRAY, "overrides": _overrides, "sequence": _sequence_overrides,
           "fn": fn, "numpy_fn": numpy_fn, "call_numpy": _call_numpy,
           "params": tuple(sig.parameters.values())}
    params, call, checks = [], [], []
    prev = None
    for i, p in enumerate(sig.parameters.values()):
        if prev is P.POSITIONAL_ONLY and p.kind is not P.POSITIONAL_ONLY:
            params.append("/")
        if p.kind is P.KEYWORD_ONLY and prev is not P.KEYWORD_ONLY:
            params.append("*")
        prev = p.kind
        if p.default is P.empty:
            params.append(p.name)
        else:
            env[f"_d{i}"] = p.default
            params.append(f"{p.name}=_d{i}")
        call.append(f"{p.name}={p.name}" if p.kind is P.KEYWORD_ONLY else p.name)
        if sequences and i == 0:
            checks.append(f"sequence({p.name})")
        elif p.default is P.empty:
            checks.append(f"type({p.name}) is not ndarray and overrides({p.name})")
        elif p.default is None:
            checks.append(f"{p.name} is not None and type({p.name}) is not ndarray "
                          f"and overrides({p.name})")
    if prev is P.POSITIONAL_ONLY:
        params.append("/")
    args = ", ".join(call)
    values = ", ".join(sig.parameters) + ("," if len(sig.parameters) == 1 else "")
    src = (f"def {name}({', '.join(params)}):\n"
           + "".join(f"    if {c}:\n        return call_numpy(numpy_fn, params, ({values}))\n"
                     for c in checks)
           + f"    return fn({args})\n")
    # a file name inside the package: errors.warn attributes warnings past this frame
    exec(compile(src, os.path.join(os.path.dirname(__file__), f"<deferring {name}>"), "exec"),
         env)
    defers = functools.update_wrapper(env[name], fn)
    defers.__numpy_function__ = numpy_fn
    return defers
