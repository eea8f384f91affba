"""The public transforms: vjp, jvp, grad, value_and_grad, jacobian, hessian.

Complex convention (PyTorch's, see docs/autodiff): the VJP is the adjoint of the real-linear
JVP under ``Re<a, b> = Re(sum(a * conj(b)))``. For a real loss L of complex z, ``grad``
returns ``dL/dx + 1j * dL/dy``; JAX and HIPS autograd return its conjugate.
"""
import functools
from collections import OrderedDict, defaultdict

import numpy as np

from . import basic as xp
from .autodiff import FWD, REV, Tracer, backward, leaf_node
from .box import Box

__all__ = ["vjp", "jvp", "grad", "value_and_grad", "jacobian", "hessian"]


# -- output structures (arrays, tuples, lists, namedtuples, dicts) ---------------------------
def _flatten(tree):
    """Leaves and structure of a tree of tuples, lists and dicts (in sorted key order, as JAX
    flattens them; an ``OrderedDict`` keeps its own order)."""
    if isinstance(tree, (tuple, list, dict)):
        keys, kind = None, type(tree)
        items = tree
        if isinstance(tree, dict):
            keys = list(tree) if isinstance(tree, OrderedDict) else sorted(tree)
            items = [tree[k] for k in keys]
            if isinstance(tree, defaultdict):
                kind = functools.partial(defaultdict, tree.default_factory)
        leaves, specs = [], []
        for item in items:
            lv, sp = _flatten(item)
            leaves += lv
            specs.append(sp)
        return leaves, (kind, keys, specs)
    return [tree], None


def _unflatten(spec, leaves):
    it = iter(leaves)

    def build(sp):
        if sp is None:
            return next(it)
        kind, keys, children = sp
        items = [build(c) for c in children]
        if keys is not None:
            return kind(zip(keys, items))
        if hasattr(kind, "_fields"):
            return kind(*items)
        return kind(items)
    return build(spec)


def _structure(spec):
    """``spec`` without the container types, except that a dict's keys count."""
    if spec is None:
        return None
    _, keys, children = spec
    return keys, [_structure(c) for c in children]


def _has_dict(spec):
    return spec is not None and (spec[1] is not None or any(map(_has_dict, spec[2])))


def _as_primal(x):
    if isinstance(x, Box):
        return x
    x = np.asarray(x) if not hasattr(x, "dtype") else x
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    elif x.dtype.kind not in "fc":
        raise TypeError(f"linalgx: cannot differentiate with respect to dtype {x.dtype}")
    return x


def _value_at(out, tracer):
    return out.value if isinstance(out, Box) and out.tracer is tracer else out


def _values_at(tree, tracer):
    """``tree`` with its Boxes of ``tracer`` unwrapped (those of outer transforms stay)."""
    leaves, spec = _flatten(tree)
    return _unflatten(spec, [_value_at(o, tracer) for o in leaves])


def _split_aux(out):
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError("has_aux=True: the function must return a pair (output, aux); got "
                        f"{type(out).__name__}")
    return out


# -- reverse mode ---------------------------------------------------------------------------
def vjp(f, *primals, has_aux=False):
    """Evaluate ``f(*primals)`` and return ``(out, pullback)``.

    ``pullback(cotangent)`` returns a tuple with one cotangent per primal. A cotangent may
    carry extra leading axes (a batch of cotangents), which are kept in the result. ``out``
    may be a tree of tuples, lists and dicts of arrays; the cotangent then has the same
    structure. With ``has_aux``, ``f`` returns ``(out, aux)`` and ``vjp`` returns
    ``(out, pullback, aux)``, ``aux`` undifferentiated (plain arrays), as in JAX.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> out, pullback = linalgx.vjp(np.sin, np.array([0.0, 1.0]))
    >>> pullback(np.ones(2))[0]
    array([1.        , 0.54030231])
    """
    tracer = Tracer(REV)
    primals = [_as_primal(p) for p in primals]
    leaves = [leaf_node() for _ in primals]
    boxes = [Box(p, tracer, node=(n, 0)) for p, n in zip(primals, leaves)]
    out = f(*boxes)
    if has_aux:
        out, aux = _split_aux(out)
    out_leaves, spec = _flatten(out)
    values = [_value_at(o, tracer) for o in out_leaves]

    def pullback(cotangent):
        cts, ct_spec = _flatten(cotangent)
        if len(cts) != len(out_leaves):
            raise ValueError(f"vjp: expected {len(out_leaves)} cotangents, got {len(cts)}")
        # a flat sequence of leaves (in the output's flattened order) is accepted too
        if _has_dict(ct_spec) and _structure(ct_spec) != _structure(spec):
            raise ValueError("vjp: the cotangent's structure (nesting, dict keys) differs "
                             "from the output's")
        seeds = []
        batch = ()
        for o, ct in zip(out_leaves, cts):
            if ct is None:
                continue
            ct = xp.asarray(ct) if not isinstance(ct, Box) else ct
            batch = ct.shape[:ct.ndim - xp.ndim_of(o)]
            if isinstance(o, Box) and o.tracer is tracer:
                if o.dtype.kind != "c" and ct.dtype.kind == "c":
                    ct = xp.real(ct)
                seeds.append((o.node, ct))
        grads = backward(seeds) if seeds else {}
        result = []
        for p, node in zip(primals, leaves):
            g = grads.get(id(node))
            g = None if g is None else g[0]
            if g is None:
                g = xp.zeros(tuple(batch) + p.shape, p.dtype, like=p)
            else:
                if p.dtype.kind != "c" and g.dtype.kind == "c":
                    g = xp.real(g)
                if g.dtype != p.dtype:
                    g = xp.astype(g, p.dtype)
            result.append(g)
        return tuple(result)

    if has_aux:
        return _unflatten(spec, values), pullback, _values_at(aux, tracer)
    return _unflatten(spec, values), pullback


# -- forward mode ----------------------------------------------------------------------------
def jvp(f, primals, tangents, has_aux=False):
    """Evaluate ``f(*primals)`` and its directional derivative along ``tangents``.

    Returns ``(out, tangent_out)`` (``(out, tangent_out, aux)`` with ``has_aux``, as
    :func:`vjp`); both have the structure of ``f``'s output. Tangents may carry extra
    leading axes (a batch of directions), kept in ``tangent_out``.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> linalgx.jvp(np.exp, (np.array([0.0, 1.0]),), (np.ones(2),))[1]
    array([1.        , 2.71828183])
    """
    primals = [_as_primal(p) for p in primals]
    tangents = [xp.asarray(t) if not isinstance(t, Box) else t for t in tangents]
    if len(primals) != len(tangents):
        raise ValueError("jvp: primals and tangents must have the same length")
    tracer = Tracer(FWD)
    batch = ()
    for p, t in zip(primals, tangents):
        if tuple(t.shape[t.ndim - p.ndim:]) != tuple(p.shape) or t.ndim < p.ndim:
            raise ValueError(f"jvp: tangent shape {t.shape} does not end with the primal "
                             f"shape {p.shape}")
        batch = t.shape[:t.ndim - p.ndim]
        if p.dtype.kind != "c" and t.dtype.kind == "c":
            raise TypeError("jvp: a real primal needs a real tangent")
    boxes = [Box(p, tracer, tangent=t) for p, t in zip(primals, tangents)]
    out = f(*boxes)
    if has_aux:
        out, aux = _split_aux(out)
    out_leaves, spec = _flatten(out)
    values, touts = [], []
    for o in out_leaves:
        if isinstance(o, Box) and o.tracer is tracer:
            values.append(o.value)
            touts.append(o.tangent)
        else:
            values.append(o)
            touts.append(xp.zeros(tuple(batch) + np.shape(o), np.result_type(o), like=o))
    if has_aux:
        return _unflatten(spec, values), _unflatten(spec, touts), _values_at(aux, tracer)
    return _unflatten(spec, values), _unflatten(spec, touts)


# -- derived transforms ------------------------------------------------------------------------
def _select(args, argnums):
    if isinstance(argnums, int):
        return (argnums,)
    return tuple(argnums)


def _partial(f, args, nums, kwargs):
    def g(*diff):
        full = list(args)
        for i, d in zip(nums, diff):
            full[i] = d
        return f(*full, **kwargs)
    return g


def value_and_grad(f, argnums=0, has_aux=False):
    """Like :func:`grad`, returning ``(value, gradient)`` (``((value, aux), gradient)`` with
    ``has_aux``).

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> value, g = linalgx.value_and_grad(lambda x: (x ** 2).sum())(np.array([1.0, 2.0]))
    >>> float(value), g
    (5.0, array([2., 4.]))
    """
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        nums = _select(args, argnums)
        res = vjp(_partial(f, args, nums, kwargs), *(args[i] for i in nums), has_aux=has_aux)
        out, pullback = res[:2]
        if xp.ndim_of(out) != 0:
            raise TypeError(f"grad requires a scalar output; got shape {xp.shape_of(out)}")
        if xp.dtype_of(out).kind == "c":
            raise TypeError("grad requires a real-valued output; for a complex output use vjp "
                            "with an explicit cotangent")
        g = pullback(xp.ones((), xp.dtype_of(out), like=out))
        g = g[0] if isinstance(argnums, int) else g
        value = (out, res[2]) if has_aux else out
        return value, g
    return wrapper


def grad(f, argnums=0, has_aux=False):
    """The gradient of a real scalar function.

    For complex inputs the result is ``dL/dx + 1j * dL/dy`` (PyTorch's convention). Keyword
    arguments are passed to ``f`` and not differentiated. With ``has_aux``, ``f`` returns
    ``(output, aux)`` and the result is ``(gradient, aux)``, ``aux`` a tree of tuples, lists
    and dicts of plain arrays.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> g = linalgx.grad(lambda z: (abs(z) ** 2).sum())(np.array(3 + 4j))
    >>> print(np.round(g, 12))
    (6+8j)
    """
    vg = value_and_grad(f, argnums, has_aux)

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        value, g = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapper


def jacobian(f, argnums=0, mode="rev"):
    """The Jacobian of ``f``, computed in ONE vectorized pass.

    The result has shape ``out.shape + x.shape``; a function returning a tuple (list, dict)
    gets a tuple (list, dict) of Jacobians, and a tuple ``argnums`` a tuple per output. An
    integer or boolean output gets a zero Jacobian of the input's (real, in forward mode)
    floating dtype. Keyword arguments are passed to ``f`` undifferentiated, as in
    :func:`hessian`. ``mode="rev"`` pulls back the identity
    basis of the output (rows are VJPs: for a real output they equal the gradient; for a
    holomorphic f they are conj(df/dz), as torch.autograd.functional.jacobian; for a real
    input of a complex output, df/dx, as in forward mode);
    ``mode="fwd"`` pushes forward the identity basis of the input (columns are JVPs,
    df/dz for a holomorphic f). Both agree for real functions of real inputs.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> linalgx.jacobian(lambda x: x ** 2)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """
    if mode not in ("rev", "fwd"):
        raise ValueError(f"jacobian: mode must be 'rev' or 'fwd', not {mode!r}")

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        nums = _select(args, argnums)
        primals = [_as_primal(args[i]) for i in nums]
        g = _partial(f, args, nums, kwargs)
        if mode == "rev":
            out, pullback = vjp(g, *primals)
            leaves, spec = _flatten(out)
            leaves = [xp.asarray(o) for o in leaves]
            total = sum(o.size for o in leaves)
            # A real input of a complex output: the VJP of a cotangent u is Re(u^H J), so the
            # identity rows give Re J and i times them Im J; both go in the same pullback.
            split = (any(o.dtype.kind == "c" for o in leaves)
                     and any(xp.dtype_of(p).kind != "c" for p in primals))
            rows = 2 * total if split else total
            # one pullback of a block identity spanning every output element
            cts, start = [], 0
            for o in leaves:
                block = xp.zeros((rows, o.size), o.dtype, like=o)
                block[start:start + o.size] = np.eye(o.size, dtype=o.dtype)
                if split and o.dtype.kind == "c":
                    block[total + start:total + start + o.size] = 1j * np.eye(o.size)
                cts.append(xp.reshape(block, (rows,) + o.shape))
                start += o.size
            grads = pullback(_unflatten(spec, cts))
            if split:
                grads = [gr[:total] + 1j * gr[total:] if xp.dtype_of(p).kind != "c"
                         else gr[:total] for gr, p in zip(grads, primals)]
            per_leaf, start = [], 0
            for o in leaves:
                per_leaf.append([xp.reshape(gr[start:start + o.size], o.shape + p.shape)
                                 for gr, p in zip(grads, primals)])
                start += o.size
        else:
            total = sum(p.size for p in primals)
            tangents, start = [], 0
            for p in primals:
                block = np.zeros((total, p.size), p.dtype)
                block[start:start + p.size] = np.eye(p.size, dtype=p.dtype)
                tangents.append(xp.reshape(xp.asarray(block), (total,) + p.shape))
                start += p.size
            out, tout = jvp(g, primals, tangents)
            leaves, spec = _flatten(out)
            touts, _ = _flatten(tout)
            per_leaf = []
            for o, t in zip(leaves, touts):
                oshape = tuple(xp.shape_of(o))
                t = xp.moveaxis(t, 0, -1)  # (*out.shape, total)
                cols, start = [], 0
                for p in primals:
                    col = xp.reshape(t[..., start:start + p.size], oshape + p.shape)
                    if xp.dtype_of(col).kind not in "fc":  # an integer output's zeros
                        col = xp.astype(col, np.finfo(p.dtype).dtype)
                    cols.append(col)
                    start += p.size
                per_leaf.append(cols)
        jacs = [cols[0] if isinstance(argnums, int) else tuple(cols) for cols in per_leaf]
        return _unflatten(spec, jacs)
    return wrapper


def hessian(f, argnums=0):
    """The Hessian of a real scalar function: forward-over-reverse, one vectorized pass.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> linalgx.hessian(lambda x: (x ** 3).sum())(np.array([1.0, 2.0]))
    array([[ 6.,  0.],
           [ 0., 12.]])
    """
    return jacobian(grad(f, argnums), argnums, mode="fwd")
