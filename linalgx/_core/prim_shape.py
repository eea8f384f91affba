"""Shape and indexing primitives. Each acts on the trailing ``ndim`` axes of its argument
(``ndim`` is the primal's), so tangents with extra leading axes go through unchanged."""
import numpy as np

from .box import Box
from .op import Op
from .xputil import dtype_of, ndim_of, neg_axes, ns, shape_of, unbox_all

# -- reshape ---------------------------------------------------------------------------------
_reshape = Op("reshape", linear=True)


@_reshape.impl("any")
def _reshape_any(x, old_shape, new_shape):
    s = shape_of(x)
    lead = s[:len(s) - len(old_shape)]
    return ns(x).reshape(x, lead + new_shape)


@_reshape.def_adjoint
def _reshape_adjoint(xp, g, x, old_shape, new_shape):
    return (_reshape(g, old_shape=new_shape, new_shape=old_shape),)


def reshape(x, shape, order="C"):
    if order not in ("C", "A"):
        raise TypeError("linalgx: only C-order reshape is differentiable")
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    old = tuple(shape_of(x))
    if not isinstance(x, Box):
        return ns(x).reshape(x, shape)
    new = np.empty(old, dtype=np.bool_).reshape(shape).shape  # resolves -1, checks sizes
    if new == old:
        return x
    return _reshape(x, old_shape=old, new_shape=new)


# -- transpose (a permutation of the trailing axes) -----------------------------------------
_transpose = Op("transpose", linear=True)


@_transpose.impl("any")
def _transpose_any(x, perm):
    nd = ndim_of(x)
    k = len(perm)
    lead = tuple(range(nd - k))
    return ns(x).transpose(x, lead + tuple(nd - k + p for p in perm))


@_transpose.def_adjoint
def _transpose_adjoint(xp, g, x, perm):
    inv = tuple(int(i) for i in np.argsort(perm))
    return (_transpose(g, perm=inv),)


def transpose(x, axes=None):
    nd = ndim_of(x)
    if axes is None:
        perm = tuple(range(nd))[::-1]
    else:
        perm = tuple(a + nd if a < 0 else a for a in (int(a) for a in axes))
        if sorted(perm) != list(range(nd)):
            raise ValueError("axes don't match array")
    if not isinstance(x, Box):
        return ns(x).transpose(x, perm)
    if perm == tuple(range(nd)):
        return x
    return _transpose(x, perm=perm)


def swapaxes(x, a, b):
    nd = ndim_of(x)
    perm = list(range(nd))
    a, b = neg_axes(a, nd)[0] + nd, neg_axes(b, nd)[0] + nd
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def matrix_transpose(x):
    if ndim_of(x) < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return swapaxes(x, -1, -2)


def moveaxis(x, source, destination):
    nd = ndim_of(x)
    src = [a + nd if a < 0 else a for a in np.atleast_1d(source).tolist()]
    dst = [a + nd if a < 0 else a for a in np.atleast_1d(destination).tolist()]
    order = [n for n in range(nd) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def squeeze(x, axis=None):
    s = shape_of(x)
    if axis is None:
        axes = [i for i, d in enumerate(s) if d == 1]
    else:
        axes = [a + len(s) for a in neg_axes(axis, len(s))]
        for a in axes:
            if s[a] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not "
                                 "equal to one")
    return reshape(x, tuple(d for i, d in enumerate(s) if i not in axes))


def expand_dims(x, axis):
    s = list(shape_of(x))
    nd = len(s) + (len(axis) if isinstance(axis, (tuple, list)) else 1)
    for a in sorted(a + nd if a < 0 else a for a in (
            axis if isinstance(axis, (tuple, list)) else (axis,))):
        s.insert(a, 1)
    return reshape(x, tuple(s))


def ravel(x):
    return reshape(x, (-1,))


# -- broadcast_to ------------------------------------------------------------------------------
_broadcast_to = Op("broadcast_to", linear=True)


@_broadcast_to.impl("any")
def _broadcast_to_any(x, old_shape, new_shape):
    s = shape_of(x)
    lead = s[:len(s) - len(old_shape)]
    # align the primal's axes under the new trailing shape, keeping the batch axes in front
    x = ns(x).reshape(x, lead + (1,) * (len(new_shape) - len(old_shape)) + tuple(old_shape))
    return ns(x).broadcast_to(x, lead + tuple(new_shape))


@_broadcast_to.def_adjoint
def _broadcast_to_adjoint(xp, g, x, old_shape, new_shape):
    nb = ndim_of(g) - len(new_shape)
    return (xp.unbroadcast(g, old_shape, nb),)


def broadcast_to(x, shape):
    shape = tuple(shape)
    if not isinstance(x, Box):
        return ns(x).broadcast_to(x, shape)
    old = tuple(shape_of(x))
    np.broadcast_shapes(old, shape)
    if old == shape:
        return x
    return _broadcast_to(x, old_shape=old, new_shape=shape)


# -- indexing -------------------------------------------------------------------------------
def _prefixed(idx, nb):
    if not isinstance(idx, tuple):
        idx = (idx,)
    return (slice(None),) * nb + idx


def _is_basic(idx):
    items = idx if isinstance(idx, tuple) else (idx,)
    return all(isinstance(i, (int, np.integer, slice, type(None), type(Ellipsis)))
               for i in items)


_getitem = Op("getitem", linear=True)
_index_add = Op("index_add", linear=True)


@_getitem.impl("any")
def _getitem_any(x, idx, ndim):
    return x[_prefixed(idx, ndim_of(x) - ndim)]


def _index_result_ndim(shape, idx):
    # index a zero-stride dummy of the primal's shape: no memory, NumPy's own index rules
    return np.broadcast_to(np.empty((), np.bool_), shape)[idx].ndim


@_getitem.def_adjoint
def _getitem_adjoint(xp, g, x, idx, ndim):
    shape = tuple(shape_of(x)[ndim_of(x) - ndim:])
    return (_index_add(g, idx=idx, shape=shape, out_ndim=_index_result_ndim(shape, idx)),)


@_index_add.impl("any")
def _index_add_any(g, idx, shape, out_ndim):
    nb = ndim_of(g) - out_ndim
    xpm = ns(g)
    out = xpm.zeros(shape_of(g)[:nb] + tuple(shape), dtype=dtype_of(g))
    full = _prefixed(idx, nb)
    if _is_basic(idx):
        out[full] = g
    else:
        xpm.add.at(out, full, g) if xpm is np else out.__setitem__(full, g)
    return out


@_index_add.def_adjoint
def _index_add_adjoint(xp, g, gin, idx, shape, out_ndim):
    return (_getitem(g, idx=idx, ndim=len(shape)),)


def _unbox_index(idx):
    if isinstance(idx, tuple):
        return tuple(unbox_all(i) for i in idx)
    return unbox_all(idx)


def getitem(x, idx):
    idx = _unbox_index(idx)
    if isinstance(idx, list):
        idx = np.asarray(idx)
    if not isinstance(x, Box):
        return x[idx]
    return _getitem(x, idx=idx, ndim=ndim_of(x))


# -- concatenate -----------------------------------------------------------------------------
_concatenate = Op("concatenate")


@_concatenate.impl("any")
def _concatenate_any(*xs, axis):
    return ns(*xs).concatenate(xs, axis=axis)


@_concatenate.def_jvp
def _concatenate_jvp(xp, tangents, out, *xs, axis):
    batch = next(shape_of(t)[:ndim_of(t) - ndim_of(x)]
                 for t, x in zip(tangents, xs) if t is not None)
    parts = [xp.zeros(batch + shape_of(x), dtype_of(out)) if t is None else t
             for t, x in zip(tangents, xs)]
    return _concatenate(*parts, axis=axis)


@_concatenate.def_vjp
def _concatenate_vjp(xp, g, out, *xs, axis):
    cts = []
    start = 0
    nd = ndim_of(g)
    for x in xs:
        n = shape_of(x)[axis]
        idx = [slice(None)] * nd
        idx[nd + axis] = slice(start, start + n)
        cts.append(getitem(g, tuple(idx)))
        start += n
    return tuple(cts)


def concatenate(arrays, axis=0):
    arrays = list(arrays)
    if not any(isinstance(a, Box) for a in arrays):
        return ns(*arrays).concatenate(arrays, axis=axis)
    arrays = [a if isinstance(a, Box) or hasattr(a, "shape") else np.asarray(a)
              for a in arrays]
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    nd = ndim_of(arrays[0])
    return _concatenate(*arrays, axis=neg_axes(axis, nd)[0])


def stack(arrays, axis=0):
    arrays = list(arrays)
    nd = ndim_of(arrays[0]) + 1
    ax = neg_axes(axis, nd)[0]
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax)


# -- astype ----------------------------------------------------------------------------------
_astype = Op("astype")


@_astype.impl("any")
def _astype_any(x, dtype):
    return x.astype(dtype, copy=False)


@_astype.def_jvp
def _astype_jvp(xp, tangents, out, x, dtype):
    t = tangents[0]
    if np.dtype(dtype).kind != "c" and dtype_of(t).kind == "c":
        t = xp.real(t)
    return _astype(t, dtype=dtype)


@_astype.def_vjp
def _astype_vjp(xp, g, out, x, dtype):
    src = dtype_of(x)
    if src.kind != "c" and dtype_of(g).kind == "c":
        g = xp.real(g)
    if src.kind not in "fc":
        src = np.dtype(np.float64)
    return (_astype(g, dtype=src),)


def astype(x, dtype, copy=True):
    dtype = np.dtype(dtype)
    if not isinstance(x, Box):
        return x.astype(dtype, copy=copy)
    if dtype == dtype_of(x):
        return x
    if dtype.kind not in "fc":
        raise TypeError(f"linalgx: cannot differentiate through a cast to {dtype}")
    return _astype(x, dtype=dtype)


# -- tril / triu -------------------------------------------------------------------------------
def _triangle(name):
    op = Op(name, linear=True)

    @op.impl("any")
    def impl(x, k):
        return getattr(ns(x), name)(x, k)

    @op.def_adjoint
    def adjoint(xp, g, x, k):
        return (op(g, k=k),)

    return op


_tril = _triangle("tril")
_triu = _triangle("triu")


def tril(x, k=0):
    return _tril(x, k=k)


def triu(x, k=0):
    return _triu(x, k=k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """``numpy.diagonal`` as an indexing expression (so its adjoint is a scatter)."""
    nd = ndim_of(x)
    a1, a2 = neg_axes(axis1, nd)[0] + nd, neg_axes(axis2, nd)[0] + nd
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    x = moveaxis(x, (a1, a2), (-2, -1))
    n, m = shape_of(x)[-2:]
    if offset >= 0:
        length = max(0, min(n, m - offset))
        rows = np.arange(length)
        cols = rows + offset
    else:
        length = max(0, min(n + offset, m))
        cols = np.arange(length)
        rows = cols - offset
    return getitem(x, (Ellipsis, rows, cols))


def trace(x, offset=0, axis1=0, axis2=1, dtype=None):
    from .prim_reduce import sum as _sum
    return _sum(diagonal(x, offset, axis1, axis2), axis=-1, dtype=dtype)


def flip(x, axis=None):
    nd = ndim_of(x)
    idx = [slice(None)] * nd
    for a in neg_axes(axis, nd):
        idx[nd + a] = slice(None, None, -1)
    return getitem(x, tuple(idx))


def diag(v, k=0):
    """``numpy.diag``: the k-th diagonal of a matrix, or a matrix with v on that diagonal."""
    nd = ndim_of(v)
    if nd == 2:
        return diagonal(v, k, 0, 1)
    if nd != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = shape_of(v)[0] + abs(k)
    i = np.arange(shape_of(v)[0])
    idx = (i, i + k) if k >= 0 else (i - k, i)
    if not isinstance(v, Box):
        return ns(v).diag(v, k)
    return _index_add(v, idx=idx, shape=(n, n), out_ndim=1)
