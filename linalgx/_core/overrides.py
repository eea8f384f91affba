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
from .errors import NAMED_ERRORS, name_error

__all__ = ["deferring", "naming"]

_NDARRAY = np.ndarray
_NATIVE = np.ndarray.__array_function__


def _overrides(x):
    f = getattr(type(x), "__array_function__", None)
    return f is not None and f is not _NATIVE and not isinstance(x, Box) and not _is_cupy(x)


def _sequence_overrides(x):
    return type(x) in (list, tuple) and any(_overrides(e) for e in x)


class _NotGiven:
    """The wrapper's default for every parameter that has one: which arguments the caller
    gave is what a duck array's ``__array_function__`` receives."""

    def __repr__(self):
        return "<not given>"


_NOT_GIVEN = _NotGiven()


def _call_numpy(numpy_fn, params, values):
    """``numpy_fn`` called with the arguments the caller gave to the wrapper (``values`` of
    the ``params``, `_NOT_GIVEN` where not given): required ones positionally, the others
    by keyword (positional-only ones positionally), so that the duck's
    ``__array_function__`` gets what NumPy would pass it, up to whether an option was
    written by position or by keyword."""
    P = inspect.Parameter
    args, kwargs = [], {}
    for p, v in zip(params, values):
        if v is _NOT_GIVEN:
            continue
        if p.kind is P.POSITIONAL_ONLY or p.kind is P.POSITIONAL_OR_KEYWORD and (
                p.default is P.empty):
            args.append(v)
        else:
            kwargs[p.name] = v
    return numpy_fn(*args, **kwargs)


def deferring(fn, numpy_module, name, sequences=False):
    """``fn`` that hands a call with a duck-array argument to NumPy's function ``name`` of
    ``numpy_module`` (a module NumPy defines them in, e.g. ``"numpy.linalg._linalg"``, not
    the public namespace, which linalgx's conformance runner patches).

    The wrapper has ``fn``'s own parameters (written out and compiled here: a generic
    ``*args, **kwargs`` wrapper cost 0.2 us of a 2.6 us ``det`` of ten 2x2 matrices, this
    one 0.05 us, plus about 0.015 us per parameter with a default) with a "not given"
    default, so that a deferred call passes on only the arguments the caller gave. It looks
    at the parameters that can hold arrays: those without a default or whose default is
    None (an ndarray costs one type check, None one identity test). Looking at more
    parameters than NumPy's dispatcher does changes nothing: NumPy's own function then
    decides, as it would have. ``sequences``: the items of the first argument are arrays
    (``multi_dot``); elsewhere a list is array data, and NumPy does not look inside it
    either. ``inspect.signature`` of the wrapper is ``fn``'s.
    """
    numpy_fn = getattr(importlib.import_module(numpy_module), name)
    if not hasattr(numpy_fn, "_implementation"):  # NumPy does not dispatch it (fftfreq)
        return naming(fn, name)
    sig = inspect.signature(fn)
    P = inspect.Parameter
    if any(p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD) for p in sig.parameters.values()):
        raise TypeError(f"deferring: {name} needs named parameters, got {sig}")
    env = {"ndarray": _NDARRAY, "overrides": _overrides, "sequence": _sequence_overrides,
           "fn": fn, "numpy_fn": numpy_fn, "call_numpy": _call_numpy,
           "params": tuple(sig.parameters.values()), "U": _NOT_GIVEN,
           "named": NAMED_ERRORS, "name_error": name_error}
    params, call, checks = [], [], []
    prev = None
    for i, p in enumerate(sig.parameters.values()):
        if prev is P.POSITIONAL_ONLY and p.kind is not P.POSITIONAL_ONLY:
            params.append("/")
        if p.kind is P.KEYWORD_ONLY and prev is not P.KEYWORD_ONLY:
            params.append("*")
        prev = p.kind
        value = p.name
        if p.default is P.empty:
            params.append(p.name)
        else:
            env[f"_d{i}"] = p.default
            params.append(f"{p.name}=U")
            value = f"(_d{i} if {p.name} is U else {p.name})"
        call.append(f"{p.name}={value}" if p.kind is P.KEYWORD_ONLY else value)
        if sequences and i == 0:
            checks.append(f"sequence({p.name})")
        elif p.default is P.empty:
            checks.append(f"type({p.name}) is not ndarray and overrides({p.name})")
        elif p.default is None:
            checks.append(f"{p.name} is not U and {p.name} is not None and type({p.name}) "
                          f"is not ndarray and overrides({p.name})")
    if prev is P.POSITIONAL_ONLY:
        params.append("/")
    args = ", ".join(call)
    values = ", ".join(sig.parameters) + ("," if len(sig.parameters) == 1 else "")
    # (try costs nothing on the success path; errors.name_error names the function)
    src = (f"def {name}({', '.join(params)}):\n"
           + "".join(f"    if {c}:\n        return call_numpy(numpy_fn, params, ({values}))\n"
                     for c in checks)
           + f"    try:\n        return fn({args})\n"
           + f"    except named as e:\n        name_error(e, {name!r})\n        raise\n")
    # a file name inside the package: errors.warn attributes warnings past this frame
    exec(compile(src, os.path.join(os.path.dirname(__file__), f"<deferring {name}>"), "exec"),
         env)
    defers = functools.update_wrapper(env[name], fn)
    defers.__signature__ = sig
    defers.__numpy_function__ = numpy_fn
    return defers


def naming(fn, name):
    """``fn`` whose errors name it (`errors.name_error`), for the public functions that need
    no NEP 18 wrapper (linalgx's extras, ``fftfreq``)."""
    @functools.wraps(fn)
    def named(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except NAMED_ERRORS as e:
            name_error(e, name)
            raise
    named.__signature__ = inspect.signature(fn)
    return named
