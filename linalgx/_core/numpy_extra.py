"""NumPy functions on traced values that are compositions of the differentiable primitives.

Three kinds, each differentiated through what it is made of (no rules of its own):

- rearrangements (``roll``, ``tile``, ``repeat``, ``take``, ``take_along_axis``, ``sort``,
  ``rot90``, ...): NumPy's own function applied to an array of element indices gives the
  index of every output element, and the output is a gather (``getitem``) of the input at
  those indices. The gather's VJP is a scatter-add, so a repeated element collects every
  copy's cotangent.
- ``var``, ``std``, ``clip``, ``diff``, ``trapezoid``, ``append``, ``column_stack``, written
  out;
- ``hstack``, ``vstack``, ``dstack``: NumPy's own Python implementation run on the Boxes (it
  calls only ``atleast_*d`` and ``concatenate``, differentiable here).
"""
import numpy as np

from . import basic as ops
from .xputil import unbox_all

__all__ = ["FUNCTIONS"]


def _gathered(a, index_fn):
    """``index_fn`` applied to the element indices of ``a``, gathered from ``a``."""
    shape = np.shape(unbox_all(a))
    idx = index_fn(np.arange(int(np.prod(shape)), dtype=np.intp).reshape(shape))
    return ops.getitem(ops.ravel(a), idx)


def _rearrangement(func):
    def wrapper(a, *args, **kwargs):
        return _gathered(a, lambda idx: func(idx, *args, **kwargs))
    wrapper.__name__ = func.__name__
    return wrapper


def _sort(a, axis=-1, kind=None, order=None, *, stable=None):
    if order is not None:
        raise TypeError("linalgx: numpy.sort(order=...) is not differentiable")
    values = unbox_all(a)
    perm = np.argsort(values, axis=axis, kind=kind, stable=stable)
    if axis is None:
        return _gathered(a, lambda idx: idx.ravel()[perm])
    return _gathered(a, lambda idx: np.take_along_axis(idx, perm, axis=axis))


def _take(a, indices, axis=None, out=None, mode="raise"):
    if out is not None:
        raise TypeError("linalgx: numpy.take(out=...) is not differentiable")
    indices = unbox_all(indices)
    return _gathered(a, lambda idx: np.take(idx, indices, axis=axis, mode=mode))


def _take_along_axis(arr, indices, axis=-1):
    indices = unbox_all(indices)
    return _gathered(arr, lambda idx: np.take_along_axis(idx, indices, axis=axis))


def _var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
         mean=None, correction=None):
    if out is not None or where is not True or mean is not None:
        raise TypeError("linalgx: numpy.var/std with out=, where= or mean= is not "
                        "differentiable")
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    if keepdims is np._NoValue:
        keepdims = False
    x = a if dtype is None else ops.astype(a, dtype)
    shape = np.shape(unbox_all(x))
    axes = tuple(range(len(shape))) if axis is None else (
        (axis,) if np.ndim(axis) == 0 else tuple(axis))
    count = int(np.prod([shape[i] for i in axes]))
    d = x - ops.mean(x, axis=axis, keepdims=True)
    sq = ops.real(ops.conj(d) * d)
    return ops.sum(sq, axis=axis, keepdims=keepdims) / max(count - ddof, 0)


def _std(*args, **kwargs):
    return ops.sqrt(_var(*args, **kwargs))


def _clip(a, a_min=np._NoValue, a_max=np._NoValue, out=None, *, min=np._NoValue,
          max=np._NoValue, **kwargs):
    if out is not None or kwargs:
        raise TypeError("linalgx: numpy.clip with out= or ufunc keywords is not "
                        "differentiable")
    lo = a_min if a_min is not np._NoValue else (None if min is np._NoValue else min)
    hi = a_max if a_max is not np._NoValue else (None if max is np._NoValue else max)
    if lo is None and hi is None and a_min is np._NoValue and min is np._NoValue:
        raise ValueError("One of max or min must be given")
    # NumPy's clip is minimum(maximum(a, lo), hi): the derivative follows whichever operand
    # is the value (a inside the interval, the bound outside it; hi where lo > hi)
    r = a
    if lo is not None:
        r = ops.where(unbox_all(r) < unbox_all(lo), lo, r)
    if hi is not None:
        r = ops.where(unbox_all(r) > unbox_all(hi), hi, r)
    return r


def _atleast(func):
    def wrapper(*arys):
        res = tuple(_gathered(a, func) for a in arys)
        return res[0] if len(res) == 1 else res
    wrapper.__name__ = func.__name__
    return wrapper


def _angle(z, deg=False):
    r = ops.angle(z)
    return r * (180 / np.pi) if deg else r


def _ndim(a):
    return np.ndim(unbox_all(a))


def _diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    nd = _ndim(a)
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = np.lib.array_utils.normalize_axis_index(axis, nd)
    parts = []
    for extra, first in ((prepend, True), (append, False)):
        if extra is np._NoValue:
            continue
        if _ndim(extra) == 0:
            shape = list(np.shape(unbox_all(a)))
            shape[axis] = 1
            extra = ops.broadcast_to(extra, tuple(shape))
        parts.append((first, extra))
    if parts:
        a = ops.concatenate([e for f, e in parts if f] + [a] + [e for f, e in parts if not f],
                            axis=axis)
    head = tuple(slice(None) if i != axis else slice(1, None) for i in range(nd))
    tail = tuple(slice(None) if i != axis else slice(None, -1) for i in range(nd))
    for _ in range(n):
        a = ops.getitem(a, head) - ops.getitem(a, tail)
    return a


def _column_stack(tup):
    cols = [ops.reshape(a, (-1, 1)) if _ndim(a) < 2 else a for a in tup]
    return ops.concatenate(cols, axis=1)


def _append(arr, values, axis=None):
    if axis is None:
        return ops.concatenate([ops.ravel(arr), ops.ravel(values)], axis=0)
    return ops.concatenate([arr, values], axis=axis)


def _trapezoid(y, x=None, dx=1.0, axis=-1):
    nd = _ndim(y)
    axis = np.lib.array_utils.normalize_axis_index(axis, nd)
    d = dx if x is None else _diff(x, axis=axis if _ndim(x) > 1 else -1)
    if x is not None and _ndim(x) == 1 and nd > 1:
        shape = [1] * nd
        shape[axis] = -1
        d = ops.reshape(d, tuple(shape))
    head = tuple(slice(None) if i != axis else slice(1, None) for i in range(nd))
    tail = tuple(slice(None) if i != axis else slice(None, -1) for i in range(nd))
    return ops.sum(d * (ops.getitem(y, head) + ops.getitem(y, tail)) / 2.0, axis=axis)


def _implementation(func):
    """Run NumPy's Python implementation of ``func`` on the Boxes."""
    impl = func._implementation

    def wrapper(*args, **kwargs):
        return impl(*args, **kwargs)
    wrapper.__name__ = func.__name__
    return wrapper


FUNCTIONS = {
    np.roll: _rearrangement(np.roll), np.tile: _rearrangement(np.tile),
    np.repeat: _rearrangement(np.repeat), np.rot90: _rearrangement(np.rot90),
    np.fliplr: _rearrangement(np.fliplr), np.flipud: _rearrangement(np.flipud),
    np.atleast_1d: _atleast(np.atleast_1d), np.atleast_2d: _atleast(np.atleast_2d),
    np.atleast_3d: _atleast(np.atleast_3d),
    np.take: _take, np.take_along_axis: _take_along_axis, np.sort: _sort,
    np.var: _var, np.std: _std, np.clip: _clip, np.angle: _angle, np.diff: _diff,
    np.column_stack: _column_stack, np.append: _append, np.trapezoid: _trapezoid,
}
FUNCTIONS.update({f: _implementation(f) for f in (np.hstack, np.vstack, np.dstack)})
