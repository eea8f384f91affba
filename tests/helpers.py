"""Shared test helpers: NumPy-parity of exceptions and the no-mutation contract."""
import re

import numpy as np
import pytest

__all__ = ["assert_unchanged", "assert_raises_like", "public_exception"]


def _arrays(obj):
    if isinstance(obj, np.ndarray):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from _arrays(o)
    elif isinstance(obj, dict):
        for o in obj.values():
            yield from _arrays(o)


def _state(a):
    """Contents, layout and flags of an array and of every array below it in its base chain."""
    chain = []
    while isinstance(a, np.ndarray):
        flags = a.flags
        chain.append((a.shape, a.strides, a.dtype.str, a.tobytes(order="A"), flags.writeable,
                      flags.c_contiguous, flags.f_contiguous, flags.aligned))
        a = a.base
    return chain


def assert_unchanged(fn, *args, **kwargs):
    """Call ``fn(*args, **kwargs)``; assert no array argument (nor its base) changed.

    Compares bytes, shape, strides, dtype (byte order included) and flags of every array
    found in the arguments (lists and tuples are searched), before and after the call.
    Returns the call's result.
    """
    arrays = list(_arrays((args, kwargs)))
    before = [_state(a) for a in arrays]
    out = fn(*args, **kwargs)
    after = [_state(a) for a in arrays]
    for i, (b, a) in enumerate(zip(before, after)):
        assert b == a, f"argument array {i} (or its base) was modified by {fn.__name__}"
    return out


# NumPy's private exception classes map to their public bases (the contract's rule 1).
_PUBLIC = (np.linalg.LinAlgError, np.exceptions.AxisError, MemoryError, ZeroDivisionError,
           NotImplementedError, TypeError, IndexError, ValueError, RuntimeError)


def public_exception(cls):
    for c in _PUBLIC:
        if issubclass(cls, c):
            return c
    return cls


def assert_raises_like(np_fn, fn, *args, **kwargs):
    """``fn`` raises where ``np_fn`` does: NumPy's public class, NumPy's text as prefix."""
    with pytest.raises(Exception) as info:
        np_fn(*args, **kwargs)
    e_np = info.value
    with pytest.raises(public_exception(type(e_np)), match=re.escape(str(e_np))) as got:
        fn(*args, **kwargs)
    assert str(got.value).startswith(str(e_np)), f"{got.value!s} does not start with {e_np!s}"
    return got.value


def random_array(rng, shape, dtype):
    """Standard normal entries of ``dtype`` (real and imaginary parts for complex)."""
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)
