"""NumPy's protocols on Boxes: ``np.sin(box)``, ``np.sum(box)``, ``np.linalg.solve(a, box)``.

Each supported NumPy callable maps to a differentiable linalgx function. Anything else
raises ``TypeError`` naming the function: a derivative is never silently dropped.
"""
import types

import numpy as np

from . import basic as ops
from . import numpy_extra
from .box import Box
from .xputil import unbox_all

__all__ = ["array_ufunc", "array_function", "namespace", "ops", "unbox"]


def unbox(x):
    return unbox_all(x)


_UFUNCS = {
    np.add: ops.add, np.subtract: ops.subtract, np.multiply: ops.multiply,
    np.true_divide: ops.divide, np.power: ops.power, np.negative: ops.negative,
    np.positive: lambda x: x, np.matmul: ops.matmul, np.maximum: ops.maximum,
    np.minimum: ops.minimum, np.arctan2: ops.arctan2,
    np.absolute: ops.absolute, np.conjugate: ops.conj, np.exp: ops.exp, np.exp2: ops.exp2,
    np.expm1: ops.expm1, np.log: ops.log, np.log2: ops.log2, np.log10: ops.log10,
    np.log1p: ops.log1p, np.sqrt: ops.sqrt, np.cbrt: ops.cbrt, np.square: ops.square,
    np.reciprocal: ops.reciprocal, np.sin: ops.sin, np.cos: ops.cos, np.tan: ops.tan,
    np.sinh: ops.sinh, np.cosh: ops.cosh, np.tanh: ops.tanh, np.arcsin: ops.arcsin,
    np.arccos: ops.arccos, np.arctan: ops.arctan, np.arcsinh: ops.arcsinh,
    np.arccosh: ops.arccosh, np.arctanh: ops.arctanh, np.hypot: ops.hypot,
    np.logaddexp: ops.logaddexp, np.logaddexp2: ops.logaddexp2, np.fmax: ops.fmax,
    np.fmin: ops.fmin,
    np.sign: ops.sign, np.floor: ops.floor, np.ceil: ops.ceil, np.rint: ops.rint,
    np.trunc: ops.trunc, np.isfinite: ops.isfinite, np.isnan: ops.isnan, np.isinf: ops.isinf,
}

# comparisons and logical ufuncs act on the values (their outputs carry no derivative)
_VALUE_UFUNCS = {np.less, np.less_equal, np.greater, np.greater_equal, np.equal,
                 np.not_equal, np.logical_and, np.logical_or, np.logical_not, np.signbit}


def array_ufunc(ufunc, method, inputs, kwargs):
    if method != "__call__":
        raise TypeError(f"linalgx: numpy.{ufunc.__name__}.{method} is not differentiable")
    if kwargs.get("out") is not None or kwargs.get("where", True) is not True:
        raise TypeError(f"linalgx: numpy.{ufunc.__name__} with out= or where= is not "
                        "differentiable")
    if ufunc in _VALUE_UFUNCS:
        return ufunc(*(unbox_all(x) for x in inputs), **kwargs)
    fn = _UFUNCS.get(ufunc)
    if fn is None:
        raise TypeError(f"linalgx: numpy.{ufunc.__name__} is not supported on traced values "
                        "(its derivative is not implemented)")
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("casting", None)
    if kwargs:
        raise TypeError(f"linalgx: numpy.{ufunc.__name__} got unsupported keywords "
                        f"{sorted(kwargs)} on traced values")
    out = fn(*inputs)
    return out if dtype is None else ops.astype(out, dtype)


def _reject(name, kwargs, *keys):
    for k in keys:
        v = kwargs.pop(k, None)
        if v is not None and v is not np._NoValue:
            raise TypeError(f"linalgx: numpy.{name}({k}=...) is not differentiable")


def _reduction(fn, name):
    def wrapper(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
        _reject(name, {"out": out, **kw}, "out", "initial", "where")
        if keepdims is np._NoValue:
            keepdims = False
        if fn in (ops.amax, ops.amin):
            return fn(a, axis=axis, keepdims=keepdims)
        return fn(a, axis=axis, dtype=dtype, keepdims=keepdims)
    wrapper.__name__ = name
    return wrapper


def _np_reshape(a, shape=None, order="C", **kw):
    if shape is None:
        shape = kw.pop("newshape")
    return ops.reshape(a, shape, order=order)


def _np_trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    _reject("trace", {"out": out}, "out")
    return ops.trace(a, offset, axis1, axis2, dtype)


def _np_concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    _reject("concatenate", {"out": out}, "out")
    r = ops.concatenate(arrays, axis=axis)
    return r if dtype is None else ops.astype(r, dtype)


def _np_stack(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    _reject("stack", {"out": out}, "out")
    r = ops.stack(arrays, axis=axis)
    return r if dtype is None else ops.astype(r, dtype)


def _np_einsum(*operands, out=None, optimize=False, **kw):
    _reject("einsum", {"out": out}, "out")
    return ops.einsum(operands[0], *operands[1:])


def _np_where(cond, x=None, y=None):
    if x is None and y is None:
        return np.where(unbox_all(cond))
    return ops.where(cond, x, y)


def _np_dot(a, b, out=None):
    _reject("dot", {"out": out}, "out")
    return ops.dot(a, b)


def _np_cumsum(a, axis=None, dtype=None, out=None):
    _reject("cumsum", {"out": out}, "out")
    return ops.cumsum(a, axis=axis, dtype=dtype)


def _values(fn):
    def wrapper(*args, **kwargs):
        return fn(*(unbox_all(a) for a in args), **kwargs)
    return wrapper


def _np_zeros_like(a, dtype=None, order="K", subok=True, shape=None, **kw):
    return np.zeros_like(unbox_all(a), dtype=dtype, shape=shape)


def _np_ones_like(a, dtype=None, order="K", subok=True, shape=None, **kw):
    return np.ones_like(unbox_all(a), dtype=dtype, shape=shape)


def _np_diagonal(a, offset=0, axis1=0, axis2=1):
    return ops.diagonal(a, offset, axis1, axis2)


_FUNCTIONS = {
    np.sum: _reduction(ops.sum, "sum"), np.mean: _reduction(ops.mean, "mean"),
    np.prod: _reduction(ops.prod, "prod"), np.max: _reduction(ops.amax, "max"),
    np.amax: _reduction(ops.amax, "amax"), np.min: _reduction(ops.amin, "min"),
    np.amin: _reduction(ops.amin, "amin"),
    np.where: _np_where, np.reshape: _np_reshape, np.transpose: ops.transpose,
    np.swapaxes: ops.swapaxes, np.moveaxis: ops.moveaxis, np.squeeze: ops.squeeze,
    np.expand_dims: ops.expand_dims, np.concatenate: _np_concatenate, np.stack: _np_stack,
    np.einsum: _np_einsum, np.dot: _np_dot, np.tensordot: ops.tensordot, np.outer: ops.outer,
    np.inner: ops.inner, np.vdot: ops.vdot, np.trace: _np_trace, np.diagonal: _np_diagonal,
    np.tril: ops.tril, np.triu: ops.triu, np.real: ops.real, np.imag: ops.imag,
    np.diag: ops.diag,
    np.conj: ops.conj, np.broadcast_to: ops.broadcast_to, np.ravel: ops.ravel,
    np.flip: ops.flip, np.cumsum: _np_cumsum, np.abs: ops.absolute,
    np.matrix_transpose: ops.matrix_transpose,
    np.zeros_like: _np_zeros_like, np.ones_like: _np_ones_like,
    np.shape: _values(np.shape), np.ndim: _values(np.ndim), np.size: _values(np.size),
    np.iscomplexobj: _values(np.iscomplexobj), np.isrealobj: _values(np.isrealobj),
    np.result_type: _values(np.result_type), np.argmax: _values(np.argmax),
    np.argmin: _values(np.argmin), np.allclose: _values(np.allclose),
    np.isclose: _values(np.isclose), np.array_equal: _values(np.array_equal),
    np.argsort: _values(np.argsort), np.any: _values(np.any), np.all: _values(np.all),
    np.nonzero: _values(np.nonzero),
}
_FUNCTIONS.update(numpy_extra.FUNCTIONS)


def _submodule_function(func):
    """np.linalg.X / np.fft.X -> linalgx.linalg.X / linalgx.fft.X."""
    mod = getattr(func, "__module__", "") or ""
    name = getattr(func, "__name__", "")
    if mod.startswith("numpy.linalg"):
        import linalgx.linalg as target
    elif mod.startswith("numpy.fft"):
        import linalgx.fft as target
    else:
        return None
    return getattr(target, name, None)


def array_function(func, args, kwargs):
    fn = _FUNCTIONS.get(func)
    if fn is None:
        fn = _submodule_function(func)
    if fn is None:
        raise TypeError(f"linalgx: numpy.{getattr(func, '__name__', func)} is not supported "
                        "on traced values (its derivative is not implemented)")
    return fn(*args, **kwargs)


_namespace = None


def namespace():
    """The array-API namespace of a Box: linalgx's differentiable primitives."""
    global _namespace
    if _namespace is None:
        import linalgx.fft
        import linalgx.linalg
        ns = types.SimpleNamespace(**{n: getattr(ops, n) for n in ops.__all__})
        ns.linalg = linalgx.linalg
        ns.fft = linalgx.fft
        _namespace = ns
    return _namespace


Box.__array_priority__ = 1000.0
