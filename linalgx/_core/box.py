"""``Box``: the one array-like class linalgx defines.

A Box exists only inside a transform (``grad``, ``vjp``, ``jvp``, ``jacobian``, ``hessian``).
It holds a value, the tracer (trace level) it belongs to, and either a reverse-mode node
or a forward-mode tangent. Nesting traces gives higher derivatives. NumPy calls on Boxes
(``np.sin(x)``, ``x @ y``, ``np.linalg.solve(a, x)``) are routed to linalgx's
differentiable ops through ``__array_ufunc__`` and ``__array_function__``; unsupported
functions raise ``TypeError``.
"""

import numpy as np

__all__ = ["Box"]

_protocol = None

# int(), bool() and indexing stay allowed: they carry no derivative (control flow, indices)
_CONVERSION_ERROR = (
    "linalgx: a traced value cannot be converted to {} inside a differentiated function (that "
    "would silently drop its derivative); keep it an array, or convert outside the transform")


def _np_protocol():
    global _protocol
    if _protocol is None:
        from . import numpy_protocol
        _protocol = numpy_protocol
    return _protocol


class Box:
    __slots__ = ("value", "tracer", "node", "tangent", "__weakref__")
    __array_priority__ = 1000.0

    def __init__(self, value, tracer, node=None, tangent=None):
        self.value = value
        self.tracer = tracer
        self.node = node
        self.tangent = tangent

    # -- array attributes (read by validation) ------------------------------------------
    shape = property(lambda self: self.value.shape)
    ndim = property(lambda self: self.value.ndim)
    dtype = property(lambda self: self.value.dtype)
    size = property(lambda self: self.value.size)

    def __len__(self):
        return len(self.value)

    def __repr__(self):
        return f"Box({self.value!r}, tracer={self.tracer!r})"

    def __bool__(self):
        return bool(self.value)

    def __float__(self):
        raise TypeError(_CONVERSION_ERROR.format("float"))

    def __complex__(self):
        raise TypeError(_CONVERSION_ERROR.format("complex"))

    def __int__(self):
        return int(self.value)

    def __index__(self):
        return self.value.__index__()

    def __hash__(self):
        return id(self)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # -- NumPy protocols ----------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _np_protocol().array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _np_protocol().array_function(func, args, kwargs)

    def __array_namespace__(self, api_version=None):
        return _np_protocol().namespace()

    def __array__(self, dtype=None, copy=None):
        raise TypeError(_CONVERSION_ERROR.format("a NumPy array"))

    # -- operators ----------------------------------------------------------------------
    def __add__(self, o): return _np_protocol().ops.add(self, o)
    def __radd__(self, o): return _np_protocol().ops.add(o, self)
    def __sub__(self, o): return _np_protocol().ops.subtract(self, o)
    def __rsub__(self, o): return _np_protocol().ops.subtract(o, self)
    def __mul__(self, o): return _np_protocol().ops.multiply(self, o)
    def __rmul__(self, o): return _np_protocol().ops.multiply(o, self)
    def __truediv__(self, o): return _np_protocol().ops.divide(self, o)
    def __rtruediv__(self, o): return _np_protocol().ops.divide(o, self)
    def __pow__(self, o): return _np_protocol().ops.power(self, o)
    def __rpow__(self, o): return _np_protocol().ops.power(o, self)
    def __matmul__(self, o): return _np_protocol().ops.matmul(self, o)
    def __rmatmul__(self, o): return _np_protocol().ops.matmul(o, self)
    def __neg__(self): return _np_protocol().ops.negative(self)
    def __pos__(self): return self
    def __abs__(self): return _np_protocol().ops.absolute(self)
    def __getitem__(self, idx): return _np_protocol().ops.getitem(self, idx)

    def __setitem__(self, idx, value):
        raise TypeError("linalgx: in-place assignment to a traced value is not differentiable; "
                        "build the array with np.where, np.concatenate or np.stack instead")

    # comparisons are not differentiable: they act on the values
    def __lt__(self, o): return self.value < _np_protocol().unbox(o)
    def __le__(self, o): return self.value <= _np_protocol().unbox(o)
    def __gt__(self, o): return self.value > _np_protocol().unbox(o)
    def __ge__(self, o): return self.value >= _np_protocol().unbox(o)
    def __eq__(self, o): return self.value == _np_protocol().unbox(o)
    def __ne__(self, o): return self.value != _np_protocol().unbox(o)

    # -- methods ------------------------------------------------------------------------
    T = property(lambda self: _np_protocol().ops.transpose(self))
    mT = property(lambda self: _np_protocol().ops.matrix_transpose(self))
    real = property(lambda self: _np_protocol().ops.real(self))
    imag = property(lambda self: _np_protocol().ops.imag(self))

    def conj(self): return _np_protocol().ops.conj(self)
    conjugate = conj

    def sum(self, axis=None, dtype=None, keepdims=False):
        return _np_protocol().ops.sum(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, keepdims=False):
        return _np_protocol().ops.mean(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def prod(self, axis=None, keepdims=False):
        return _np_protocol().ops.prod(self, axis=axis, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        return _np_protocol().ops.amax(self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        return _np_protocol().ops.amin(self, axis=axis, keepdims=keepdims)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _np_protocol().ops.reshape(self, tuple(shape) if not isinstance(
            shape, int) else (shape,), order=order)

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return _np_protocol().ops.transpose(self, tuple(axes) if axes else None)

    def swapaxes(self, a, b): return _np_protocol().ops.swapaxes(self, a, b)
    def squeeze(self, axis=None): return _np_protocol().ops.squeeze(self, axis)
    def astype(self, dtype, copy=True): return _np_protocol().ops.astype(self, dtype)
    def copy(self): return self
    def ravel(self): return _np_protocol().ops.reshape(self, (-1,))
    flatten = ravel
    def dot(self, o): return _np_protocol().ops.dot(self, o)
    def trace(self, offset=0, axis1=0, axis2=1):
        return _np_protocol().ops.trace(self, offset=offset, axis1=axis1, axis2=axis2)
    def diagonal(self, offset=0, axis1=0, axis2=1):
        return _np_protocol().ops.diagonal(self, offset=offset, axis1=axis1, axis2=axis2)
    def item(self, *args):
        raise TypeError(_CONVERSION_ERROR.format("a Python scalar (.item())"))

    def tolist(self):
        raise TypeError(_CONVERSION_ERROR.format("Python scalars (.tolist())"))

    # the ndarray methods below are NumPy's functions (differentiable where they are)
    flat = property(lambda self: self.ravel())

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kwargs):
        return np.var(self, axis, dtype, out, ddof, keepdims, **kwargs)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kwargs):
        return np.std(self, axis, dtype, out, ddof, keepdims, **kwargs)

    def cumsum(self, axis=None, dtype=None, out=None):
        return np.cumsum(self, axis, dtype, out)

    def clip(self, min=None, max=None, out=None, **kwargs):
        return np.clip(self, min, max, out, **kwargs)

    def repeat(self, repeats, axis=None): return np.repeat(self, repeats, axis)
    def take(self, indices, axis=None, out=None, mode="raise"):
        return np.take(self, indices, axis, out, mode)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """A sorted copy, as JAX's ``.sort``: a traced value cannot be sorted in place."""
        return np.sort(self, axis, kind, order, stable=stable)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return np.argsort(self, axis, kind, order, stable=stable)

    # results without a derivative: computed from the values
    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        return np.any(self, axis, out, keepdims, where=where)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        return np.all(self, axis, out, keepdims, where=where)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return np.argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return np.argmin(self, axis, out, keepdims=keepdims)

    def nonzero(self): return np.nonzero(self)
