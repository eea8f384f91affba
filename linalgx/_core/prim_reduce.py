"""Reductions: sum, mean, prod, max/min, cumsum. Axes are negative, so the rules serve
tangents and cotangents with extra leading axes."""

import numpy as np

from .box import Box
from .op import Op
from .xputil import dtype_of, ndim_of, neg_axes, ns, shape_of, unbox_all

_sum = Op("sum", linear=True)


@_sum.impl("any")
def _sum_any(x, axes, keepdims):
    return ns(x).sum(x, axis=axes, keepdims=keepdims)


def _expand_reduced(xp, g, x, axes, keepdims):
    """Broadcast a reduced cotangent back over the reduced axes of x (keeping batch axes)."""
    if not keepdims:
        s = list(shape_of(g))
        nd = len(s) + len(axes)
        for a in sorted(a + nd for a in axes):
            s.insert(a, 1)
        g = xp.reshape(g, tuple(s))
    nb = ndim_of(g) - ndim_of(x)
    return xp.broadcast_to(g, shape_of(g)[:nb] + shape_of(x))


@_sum.def_adjoint
def _sum_adjoint(xp, g, x, axes, keepdims):
    return (_expand_reduced(xp, g, x, axes, keepdims),)


def sum(x, axis=None, dtype=None, keepdims=False):  # noqa: A001
    if not isinstance(x, Box):
        return ns(x).sum(x, axis=axis, dtype=dtype, keepdims=keepdims)
    if dtype is not None:
        from .prim_shape import astype
        x = astype(x, dtype)
    return _sum(x, axes=neg_axes(axis, ndim_of(x)), keepdims=keepdims)


def _count(x, axis):
    s = shape_of(x)
    axes = neg_axes(axis, len(s))
    return int(np.prod([s[a] for a in axes])) if axes else 1


def mean(x, axis=None, dtype=None, keepdims=False):
    if not isinstance(x, Box):
        return ns(x).mean(x, axis=axis, dtype=dtype, keepdims=keepdims)
    return sum(x, axis=axis, dtype=dtype, keepdims=keepdims) / _count(x, axis)


# -- prod ---------------------------------------------------------------------------------------
_prod = Op("prod")


@_prod.impl("any")
def _prod_any(x, axes, keepdims):
    return ns(x).prod(x, axis=axes, keepdims=keepdims)


def _prod_others(xp, x, axes):
    """d prod / d x_i = product of the other elements, exact with zeros present."""
    xv = unbox_all(x)
    if not (xv == 0).any():
        out = _prod(x, axes=axes, keepdims=True)
        return out / x
    # move reduced axes last and flatten them; exclusive cumulative products both ways
    from .prim_shape import moveaxis, reshape
    nd = ndim_of(x)
    k = len(axes)
    y = moveaxis(x, [a + nd for a in axes], list(range(nd - k, nd)))
    ys = shape_of(y)
    y = reshape(y, ys[:nd - k] + (-1,))
    n = shape_of(y)[-1]
    ones = xp.ones(shape_of(y)[:-1] + (1,), dtype_of(y))
    left = [ones]
    for i in range(1, n):
        left.append(left[-1] * y[..., i - 1:i])
    right = [ones]
    for i in range(n - 2, -1, -1):
        right.append(right[-1] * y[..., i + 1:i + 2])
    right = right[::-1]
    others = xp.concatenate([lft * rgt for lft, rgt in zip(left, right)], axis=-1)
    others = reshape(others, ys)
    return moveaxis(others, list(range(nd - k, nd)), [a + nd for a in axes])


@_prod.def_jvp
def _prod_jvp(xp, tangents, out, x, axes, keepdims):
    return _sum(tangents[0] * _prod_others(xp, x, axes), axes=axes, keepdims=keepdims)


@_prod.def_vjp
def _prod_vjp(xp, g, out, x, axes, keepdims):
    return (_expand_reduced(xp, g, x, axes, keepdims) * xp.conj(_prod_others(xp, x, axes)),)


def prod(x, axis=None, dtype=None, keepdims=False):
    if not isinstance(x, Box):
        return ns(x).prod(x, axis=axis, dtype=dtype, keepdims=keepdims)
    return _prod(x, axes=neg_axes(axis, ndim_of(x)), keepdims=keepdims)


# -- max / min ------------------------------------------------------------------------------
def _extremum(name):
    op = Op(name)

    @op.impl("any")
    def impl(x, axes, keepdims):
        return getattr(ns(x), name)(x, axis=axes, keepdims=keepdims)

    def weights(x, out, axes, keepdims):
        # ties share the derivative equally (as torch.amax does)
        ov = unbox_all(out)
        if not keepdims:
            ov = np.expand_dims(ov, tuple(a + ndim_of(x) for a in axes))
        mask = (unbox_all(x) == ov)
        return mask / mask.sum(axis=axes, keepdims=True)

    @op.def_jvp
    def jvp(xp, tangents, out, x, axes, keepdims):
        return _sum(tangents[0] * weights(x, out, axes, keepdims), axes=axes, keepdims=keepdims)

    @op.def_vjp
    def vjp(xp, g, out, x, axes, keepdims):
        return (_expand_reduced(xp, g, x, axes, keepdims) * weights(x, out, axes, keepdims),)

    impl.__name__, jvp.__name__, vjp.__name__ = f"_{name}_any", f"_{name}_jvp", f"_{name}_vjp"
    return op


_amax = _extremum("max")
_amin = _extremum("min")


def amax(x, axis=None, keepdims=False):
    if not isinstance(x, Box):
        return ns(x).max(x, axis=axis, keepdims=keepdims)
    return _amax(x, axes=neg_axes(axis, ndim_of(x)), keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    if not isinstance(x, Box):
        return ns(x).min(x, axis=axis, keepdims=keepdims)
    return _amin(x, axes=neg_axes(axis, ndim_of(x)), keepdims=keepdims)


# -- cumsum ---------------------------------------------------------------------------------
_cumsum = Op("cumsum", linear=True)


@_cumsum.impl("any")
def _cumsum_any(x, axis):
    return ns(x).cumsum(x, axis=axis)


@_cumsum.def_adjoint
def _cumsum_adjoint(xp, g, x, axis):
    from .prim_shape import flip
    return (flip(_cumsum(flip(g, axis), axis=axis), axis),)


def cumsum(x, axis=None, dtype=None):
    if not isinstance(x, Box):
        return ns(x).cumsum(x, axis=axis, dtype=dtype)
    if axis is None:
        from .prim_shape import ravel
        x, axis = ravel(x), -1
    return _cumsum(x, axis=neg_axes(axis, ndim_of(x))[0])


