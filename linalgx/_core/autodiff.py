"""The autodiff engine: tracers, recording an op on Boxes, and the reverse sweep.

Design (HIPS autograd's, see docs/autodiff): a transform creates a ``Tracer`` with a fresh
level and wraps its inputs in Boxes of that level. An op called with Boxes unboxes only the
highest level present, runs itself on the values (which may still hold Boxes of outer
transforms: that is how derivatives nest), then either

- forward mode: computes the output tangent with the op's JVP rule right away, or
- reverse mode: records a ``Node`` holding the op, its unboxed arguments and outputs.

Rules are written with linalgx's differentiable ops, so a reverse sweep run inside an outer
transform is itself traced (``grad(grad(f))``, ``jacobian(grad(f))``).
"""
import itertools
import threading

import numpy as np

from .box import Box

__all__ = ["Tracer", "Node", "apply", "backward", "FWD", "REV"]

FWD = "fwd"
REV = "rev"

_levels = itertools.count(1)
_lock = threading.Lock()


class Tracer:
    """One transform invocation: a mode and a nesting level (higher is inner)."""

    __slots__ = ("level", "mode")

    def __init__(self, mode):
        with _lock:
            self.level = next(_levels)
        self.mode = mode

    def __repr__(self):
        return f"<{self.mode} tracer {self.level}>"


class Node:
    """A recorded op application (reverse mode). ``parents`` holds (arg index, node, output
    index) for every argument that was a Box of this tracer."""

    __slots__ = ("op", "args", "params", "out", "parents")

    def __init__(self, op, args, params, out, parents):
        self.op = op
        self.args = args
        self.params = params
        self.out = out
        self.parents = parents


def _xp():
    from . import basic
    return basic


def _top_tracer(args):
    top = None
    for a in args:
        if isinstance(a, Box) and (top is None or a.tracer.level > top.level):
            top = a.tracer
    return top


def apply(op, args, params):
    """Run ``op`` on arguments holding Boxes and record or propagate its derivative."""
    top = _top_tracer(args)
    vals = tuple(a.value if isinstance(a, Box) and a.tracer is top else a for a in args)
    out = op(*vals, **params)
    if op.nondiff:
        return out
    if top.mode == FWD:
        tangents = tuple(a.tangent if isinstance(a, Box) and a.tracer is top else None
                         for a in args)
        t_out = _jvp(op, tangents, out, vals, params)
        if op.nout == 1:
            return Box(out, top, tangent=_tangent_like(t_out, out, tangents, vals))
        return tuple(Box(o, top, tangent=_tangent_like(t, o, tangents, vals))
                     for o, t in zip(out, t_out))
    parents = tuple((i, a.node[0], a.node[1]) for i, a in enumerate(args)
                    if isinstance(a, Box) and a.tracer is top)
    node = Node(op, vals, params, out, parents)
    if op.nout == 1:
        return Box(out, top, node=(node, 0))
    return tuple(Box(o, top, node=(node, k)) for k, o in enumerate(out))


def _jvp(op, tangents, out, vals, params):
    if op.linear:
        for t in tangents[1:]:
            if t is not None:
                raise TypeError(f"{op.name} is linear only in its first argument")
        return op(tangents[0], *vals[1:], **params)
    if op.jvp_rule is None:
        raise TypeError(f"{op.name} has no forward-mode (JVP) rule")
    return op.jvp_rule(_xp(), tangents, out, *vals, **params)


def _batch_shape(tangents, vals):
    for t, v in zip(tangents, vals):
        if t is not None:
            return t.shape[:t.ndim - np.ndim(v)]
    return ()


def _tangent_like(t, out, tangents, vals):
    """Zero tangent when a rule reports None; real part when the output is real."""
    xp = _xp()
    if t is None:
        return xp.zeros(_batch_shape(tangents, vals) + out.shape, out.dtype)
    if out.dtype.kind != "c" and t.dtype.kind == "c":
        t = xp.real(t)
    return t


def _vjp(node, g):
    op = node.op
    if op.linear:
        if op.adjoint_rule is None:
            raise TypeError(f"{op.name} is linear but has no adjoint")
        return op.adjoint_rule(_xp(), g, *node.args, **node.params)
    if op.vjp_rule is None:
        raise TypeError(f"{op.name} has no reverse-mode (VJP) rule")
    return op.vjp_rule(_xp(), g, node.out, *node.args, **node.params)


def _toposort(roots):
    """Nodes reachable from ``roots``, each after every node that consumes it."""
    consumers = {}
    stack = list(roots)
    seen = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for _, parent, _ in node.parents:
            consumers[id(parent)] = consumers.get(id(parent), 0) + 1
            stack.append(parent)
    order = []
    ready = [n for n in {id(r): r for r in roots}.values() if consumers.get(id(n), 0) == 0]
    while ready:
        node = ready.pop()
        order.append(node)
        for _, parent, _ in node.parents:
            consumers[id(parent)] -= 1
            if consumers[id(parent)] == 0:
                ready.append(parent)
    return order


def _match_primal(ct, primal):
    """Cotangents of real primals are real."""
    if primal is not None and np.dtype(primal.dtype).kind != "c" and ct.dtype.kind == "c":
        return _xp().real(ct)
    return ct


def backward(seeds):
    """Reverse sweep. ``seeds``: list of ((node, output index), cotangent).

    Returns a dict ``id(node) -> list of cotangents per output`` for the leaf nodes.
    """
    xp = _xp()
    grads = {}
    nodes = {}
    for (node, k), g in seeds:
        slot = grads.setdefault(id(node), [None] * _nout(node))
        nodes[id(node)] = node
        slot[k] = g if slot[k] is None else xp.add(slot[k], g)
    leaves = {}
    for node in _toposort([nodes[i] for i in nodes]):
        gs = grads.pop(id(node), None)
        if node.op is None:
            leaves[id(node)] = gs
            continue
        if gs is None or all(g is None for g in gs):
            continue
        g = gs[0] if node.op.nout == 1 else tuple(gs)
        cts = _vjp(node, g)
        batch = _cotangent_batch(node, gs)
        for i, parent, k in node.parents:
            ct = cts[i]
            if ct is None:
                raise TypeError(f"{node.op.name}: no derivative for argument {i}")
            if ct is NotImplemented:
                raise NotImplementedError(
                    f"{node.op.name}: the derivative in argument {i} is not implemented")
            ct = _match_primal(ct, node.args[i])
            shape = batch + np.shape(node.args[i])
            if ct.ndim < len(shape):   # a rule's zero for a batched cotangent: give it the batch
                ct = ct + xp.zeros(shape, ct.dtype)
            slot = grads.setdefault(id(parent), [None] * _nout(parent))
            slot[k] = ct if slot[k] is None else xp.add(slot[k], ct)
    return leaves


def _cotangent_batch(node, gs):
    """The leading (vectorized) dimensions of a node's cotangents beyond its outputs' shapes."""
    outs = node.out if node.op.nout > 1 else (node.out,)
    for g, o in zip(gs, outs):
        if g is not None:
            return tuple(np.shape(g)[:np.ndim(g) - np.ndim(o)])
    return ()


def _nout(node):
    return 1 if node.op is None else node.op.nout


def leaf_node():
    return Node(None, (), {}, None, ())
