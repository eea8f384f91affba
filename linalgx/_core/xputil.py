"""Small shape and namespace helpers shared by the primitives (no Ops here)."""
import sys

import numpy as np

from .box import Box


def unbox_all(x):
    """The innermost value of a (possibly nested) Box."""
    while isinstance(x, Box):
        x = x.value
    return x


def ns(*args):
    """The array namespace of the arguments' values: numpy or cupy."""
    for a in args:
        a = unbox_all(a)
        if type(a).__module__.startswith("cupy") and "cupy" in sys.modules:
            return sys.modules["cupy"]
    return np


def shape_of(x):
    return x.shape if isinstance(x, Box) else np.shape(x)


def ndim_of(x):
    return x.ndim if isinstance(x, Box) else np.ndim(x)


def dtype_of(x):
    if isinstance(x, Box):
        return x.dtype
    dt = getattr(x, "dtype", None)
    return dt if dt is not None else np.result_type(x)


def is_complex(x):
    return dtype_of(x).kind == "c"


def neg_axes(axis, ndim):
    """Normalize ``axis`` (int, sequence or None) to a sorted tuple of negative axes."""
    if axis is None:
        return tuple(range(-ndim, 0))
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    out = []
    for a in axis:
        a = int(a)
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(a, ndim)
        out.append(a - ndim if a >= 0 else a)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(sorted(out))


def nbatch(g, out):
    """Number of extra leading (batch) axes a tangent or cotangent carries."""
    return ndim_of(g) - ndim_of(out)
