"""Products: matmul and einsum (everything else, dot, tensordot, outer, inner, vdot, is
written with these). References: Giles, "An extended collection of matrix derivative
results for forward and reverse mode AD" (2008)."""
import string

import numpy as np

from .box import Box
from .op import Op
from .xputil import dtype_of, ndim_of, ns, shape_of

matmul = Op("matmul")


@matmul.impl("any")
def _matmul_any(a, b):
    return ns(a, b).matmul(a, b)


def _as_matrix_tangent(xp, t, x, left):
    """Promote a 1-D operand (or its batched tangent) to a matrix, NumPy's matmul rule."""
    if ndim_of(x) != 1:
        return t
    return xp.expand_dims(t, -2 if left else -1)


@matmul.def_jvp
def _matmul_jvp(xp, tangents, out, a, b):
    ta, tb = tangents
    res = None
    if ta is not None:
        res = _matmul_tangent(xp, ta, a, b, out, first=True)
    if tb is not None:
        r = _matmul_tangent(xp, tb, a, b, out, first=False)
        res = r if res is None else res + r
    return res


def _matmul_tangent(xp, t, a, b, out, first):
    # The tangent's leading axes (a batch of directions) go before the stack axes that the
    # other operand broadcasts in: align pads the tangent to the product's ndim.
    nd = max(ndim_of(a), ndim_of(b), 2)
    if first:
        t = xp.align(_as_matrix_tangent(xp, t, a, True), max(ndim_of(a), 2), nd)
        r = matmul(t, _as_mat(xp, b, False))
    else:
        t = xp.align(_as_matrix_tangent(xp, t, b, False), max(ndim_of(b), 2), nd)
        r = matmul(_as_mat(xp, a, True), t)
    if ndim_of(b) == 1:
        r = xp.squeeze(r, -1)
    if ndim_of(a) == 1:
        r = xp.squeeze(r, -2 if ndim_of(b) != 1 else -1)
    return r


def _as_mat(xp, x, left):
    if ndim_of(x) != 1:
        return x
    return xp.reshape(x, (1, -1) if left else (-1, 1))


@matmul.def_vjp
def _matmul_vjp(xp, g, out, a, b):
    nb = ndim_of(g) - ndim_of(out)
    am = _as_mat(xp, a, True)
    bm = _as_mat(xp, b, False)
    gm = g
    if ndim_of(b) == 1:
        gm = xp.expand_dims(gm, -1)
    if ndim_of(a) == 1:
        gm = xp.expand_dims(gm, -2)
    ga = matmul(gm, xp.conj(xp.matrix_transpose(bm)))
    gb = matmul(xp.conj(xp.matrix_transpose(am)), gm)
    # undo the promotion of 1-D operands, then sum over broadcast batch axes
    ga = xp.squeeze(ga, -2) if ndim_of(a) == 1 else ga
    gb = xp.squeeze(gb, -1) if ndim_of(b) == 1 else gb
    return (xp.unbroadcast(ga, shape_of(a), nb), xp.unbroadcast(gb, shape_of(b), nb))


# -- einsum --------------------------------------------------------------------------------
_einsum = Op("einsum")


@_einsum.impl("any")
def _einsum_any(*operands, subscripts):
    xpm = ns(*operands)
    if xpm is np:
        return np.einsum(subscripts, *operands, optimize=len(operands) > 2)
    return xpm.einsum(subscripts, *operands)


def _fresh(used, k):
    letters = [c for c in string.ascii_letters if c not in used]
    if len(letters) < k:
        raise ValueError("einsum: too many dimensions to differentiate")
    return "".join(letters[:k])


def _parse(subscripts, operands):
    """Explicit subscripts with ellipses expanded into letters: (list of inputs, output)."""
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        ins, out = subscripts.split("->")
    else:
        ins, out = subscripts, None
    ins = ins.split(",")
    used = set(subscripts) - set(".,->")
    max_ell = 0
    for s, op in zip(ins, operands):
        if "..." in s:
            max_ell = max(max_ell, ndim_of(op) - (len(s) - 3))
    ell = _fresh(used, max_ell)
    expanded = []
    for s, op in zip(ins, operands):
        if "..." in s:
            k = ndim_of(op) - (len(s) - 3)
            s = s.replace("...", ell[max_ell - k:])
        expanded.append(s)
    if out is None:
        counts = {}
        for s in expanded:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    return expanded, out


def _sizes(ins, operands):
    sizes = {}
    for s, op in zip(ins, operands):
        for c, d in zip(s, shape_of(op)):
            if d != 1 or c not in sizes:
                sizes[c] = d
    return sizes


@_einsum.def_jvp
def _einsum_jvp(xp, tangents, out, *operands, subscripts):
    ins, o = subscripts.split("->")[0].split(","), subscripts.split("->")[1]
    res = None
    for k, t in enumerate(tangents):
        if t is None:
            continue
        nb = ndim_of(t) - ndim_of(operands[k])
        b = _fresh(set(subscripts), nb)
        subs = [b + s if i == k else s for i, s in enumerate(ins)]
        ops = [t if i == k else x for i, x in enumerate(operands)]
        r = _einsum(*ops, subscripts=",".join(subs) + "->" + b + o)
        res = r if res is None else res + r
    return res


@_einsum.def_vjp
def _einsum_vjp(xp, g, out, *operands, subscripts):
    ins, o = subscripts.split("->")[0].split(","), subscripts.split("->")[1]
    nb = ndim_of(g) - ndim_of(out)
    used = set(subscripts)
    b = _fresh(used, nb)
    used |= set(b)
    sizes = _sizes(ins, operands)
    cts = []
    for k, target in enumerate(ins):
        subs = [b + o] + [s for i, s in enumerate(ins) if i != k]
        ops = [g] + [xp.conj(x) for i, x in enumerate(operands) if i != k]
        # letters of the target that appear nowhere else: broadcast with ones
        avail = set("".join(subs))
        missing = "".join(dict.fromkeys(c for c in target if c not in avail))
        if missing:
            subs.append(missing)
            ops.append(xp.ones(tuple(sizes[c] for c in missing), dtype_of(g), like=g))
        # repeated letters in the target (a diagonal, 'ii'): rename and link with identities
        seen, tgt = set(), ""
        for c in target:
            if c in seen:
                new = _fresh(used, 1)
                used.add(new)
                subs.append(c + new)
                ops.append(xp.eye(sizes[c], dtype_of(g), like=g))
                tgt += new
            else:
                seen.add(c)
                tgt += c
        ct = _einsum(*ops, subscripts=",".join(subs) + "->" + b + tgt)
        # operand axes of size 1 that were broadcast
        cts.append(xp.unbroadcast(ct, shape_of(operands[k]), nb) if
                   shape_of(ct)[nb:] != shape_of(operands[k]) else ct)
    return tuple(cts)


def einsum(subscripts, *operands, **kwargs):
    if not any(isinstance(x, Box) for x in operands):
        return ns(*operands).einsum(subscripts, *operands, **kwargs)
    if not isinstance(subscripts, str):
        raise TypeError("linalgx: differentiable einsum needs string subscripts")
    operands = [x if isinstance(x, Box) or hasattr(x, "shape") else np.asarray(x)
                for x in operands]
    ins, out = _parse(subscripts, operands)
    return _einsum(*operands, subscripts=",".join(ins) + "->" + out)


# -- built from matmul / einsum ---------------------------------------------------------------
def dot(a, b):
    na, nbd = ndim_of(a), ndim_of(b)
    if na == 0 or nbd == 0:
        return a * b
    if nbd <= 2:
        return matmul(a, b) if na <= 2 else einsum("...j,jk->...k" if nbd == 2 else
                                                 "...j,j->...", a, b)
    return tensordot(a, b, axes=([-1], [-2]))


def vdot(a, b):
    from .prim_elementwise import conj
    from .prim_shape import ravel
    return matmul(conj(ravel(a)), ravel(b))


def inner(a, b):
    if ndim_of(a) == 0 or ndim_of(b) == 0:
        return a * b
    return tensordot(a, b, axes=([-1], [-1]))


def outer(a, b):
    from .prim_shape import ravel
    return einsum("i,j->ij", ravel(a), ravel(b))


def tensordot(a, b, axes=2):
    na, nbd = ndim_of(a), ndim_of(b)
    if isinstance(axes, (int, np.integer)):
        axes_a = list(range(na - axes, na))
        axes_b = list(range(0, axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, (int, np.integer)) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, (int, np.integer)) else list(axes_b)
    axes_a = [x + na if x < 0 else x for x in axes_a]
    axes_b = [x + nbd if x < 0 else x for x in axes_b]
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    letters = string.ascii_letters
    sa = list(letters[:na])
    sb = list(letters[na:na + nbd])
    for i, j in zip(axes_a, axes_b):
        sb[j] = sa[i]
    out = [c for i, c in enumerate(sa) if i not in axes_a] + [
        c for j, c in enumerate(sb) if j not in axes_b]
    return einsum("".join(sa) + "," + "".join(sb) + "->" + "".join(out), a, b)
