"""The differentiable array namespace every rule receives as ``xp``.

On plain NumPy/CuPy arrays each function costs one Box check and calls the array's own
namespace; on Boxes it records a derivative. Primitives act on trailing axes (axes are
normalized to negative numbers), so tangents and cotangents may carry extra leading axes
(a batch of directions): a Jacobian is one vectorized pass.
"""

from .box import Box
from .prim_binary import (  # noqa: F401
    add,
    arctan2,
    divide,
    fmax,
    fmin,
    hypot,
    logaddexp,
    logaddexp2,
    maximum,
    minimum,
    multiply,
    power,
    subtract,
    where,
)
from .prim_elementwise import (  # noqa: F401
    abs,
    absolute,
    angle,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctanh,
    argmax,
    argmin,
    cbrt,
    ceil,
    conj,
    cos,
    cosh,
    exp,
    exp2,
    expm1,
    floor,
    imag,
    isfinite,
    isinf,
    isnan,
    log,
    log1p,
    log2,
    log10,
    negative,
    real,
    reciprocal,
    rint,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    tan,
    tanh,
    trunc,
)
from .prim_products import dot, einsum, inner, matmul, outer, tensordot, vdot  # noqa: F401
from .prim_reduce import amax, amin, cumsum, mean, prod, sum  # noqa: F401
from .prim_shape import (  # noqa: F401
    astype,
    broadcast_to,
    concatenate,
    diag,
    diagonal,
    expand_dims,
    flip,
    getitem,
    matrix_transpose,
    moveaxis,
    ravel,
    reshape,
    squeeze,
    stack,
    swapaxes,
    trace,
    transpose,
    tril,
    triu,
)
from .xputil import dtype_of, ndim_of, ns, shape_of

conjugate = conj
true_divide = divide
max = amax  # noqa: A001
min = amin  # noqa: A001


def zeros(shape, dtype=float, like=None):
    return ns(like).zeros(shape, dtype)


def ones(shape, dtype=float, like=None):
    return ns(like).ones(shape, dtype)


def zeros_like(x, dtype=None):
    return ns(x).zeros(shape_of(x), dtype or dtype_of(x))


def ones_like(x, dtype=None):
    return ns(x).ones(shape_of(x), dtype or dtype_of(x))


def eye(n, dtype=float, like=None):
    return ns(like).eye(n, dtype=dtype)


def asarray(x, dtype=None):
    if isinstance(x, Box):
        return x if dtype is None else astype(x, dtype)
    return ns(x).asarray(x, dtype=dtype)


def align(t, x_ndim, out_ndim):
    """Insert axes after t's batch axes so that a tangent of a primal of ndim ``x_ndim``
    broadcasts (right-aligned) against an output of ndim ``out_ndim``."""
    if t is None or x_ndim >= out_ndim:
        return t
    nb = ndim_of(t) - x_ndim
    s = shape_of(t)
    return reshape(t, s[:nb] + (1,) * (out_ndim - x_ndim) + s[nb:])


def unbroadcast(g, shape, nb):
    """Sum a cotangent of shape (*batch, *broadcast_shape) back to (*batch, *shape)."""
    gs = shape_of(g)
    shape = tuple(shape)
    extra = len(gs) - nb - len(shape)
    axes = list(range(nb, nb + extra))
    for i, d in enumerate(shape):
        if d == 1 and gs[nb + extra + i] != 1:
            axes.append(nb + extra + i)
    if not axes:
        return g
    g = sum(g, axis=tuple(axes), keepdims=True)
    return reshape(g, shape_of(g)[:nb] + shape)


def expand_vector(b):
    """A vector right-hand side promoted to (..., M, 1) (NumPy 2's solve rule)."""
    return expand_dims(b, -1)


__all__ = [n for n in dir() if not n.startswith("_") and n not in ("np", "Box")]
