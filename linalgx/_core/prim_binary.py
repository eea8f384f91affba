"""Binary elementwise primitives with NumPy broadcasting: add, subtract, multiply, divide,
power, maximum, minimum, arctan2, hypot, logaddexp(2), fmax, fmin and where."""
import numpy as np

from .box import Box
from .op import Op
from .xputil import dtype_of, nbatch, ndim_of, ns, shape_of, unbox_all


def _binary(name, npname=None):
    op = Op(name)
    npname = npname or name

    @op.impl("any")
    def impl(a, b):
        return getattr(ns(a, b), npname)(a, b)

    impl.__name__ = f"_{name}_any"
    return op


def _to_out(xp, t, x, out):
    """Tangent of one operand, aligned and broadcast to the output (with its batch axes)."""
    t = xp.align(t, ndim_of(x), ndim_of(out))
    nb = ndim_of(t) - ndim_of(out)
    full = shape_of(t)[:nb] + shape_of(out)
    return t if shape_of(t) == full else xp.broadcast_to(t, full)


def _sum_tangents(xp, parts, out):
    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    acc = parts[0]
    for p in parts[1:]:
        acc = acc + p
    return acc


def _cot(xp, g, x, out):
    """Cotangent for operand x: summed back over broadcast axes (None for a constant)."""
    if not hasattr(x, "shape") and not isinstance(x, Box):
        x = np.asarray(x)
    return xp.unbroadcast(g, shape_of(x), nbatch(g, out))


add = _binary("add")
subtract = _binary("subtract")
multiply = _binary("multiply")
divide = _binary("divide", "true_divide")
maximum = _binary("maximum")
minimum = _binary("minimum")
arctan2 = _binary("arctan2")


@add.def_jvp
def _add_jvp(xp, tangents, out, a, b):
    ta, tb = tangents
    return _sum_tangents(xp, [None if ta is None else _to_out(xp, ta, a, out),
                              None if tb is None else _to_out(xp, tb, b, out)], out)


@add.def_vjp
def _add_vjp(xp, g, out, a, b):
    return _cot(xp, g, a, out), _cot(xp, g, b, out)


@subtract.def_jvp
def _subtract_jvp(xp, tangents, out, a, b):
    ta, tb = tangents
    return _sum_tangents(xp, [None if ta is None else _to_out(xp, ta, a, out),
                              None if tb is None else -_to_out(xp, tb, b, out)], out)


@subtract.def_vjp
def _subtract_vjp(xp, g, out, a, b):
    return _cot(xp, g, a, out), _cot(xp, -g, b, out)


@multiply.def_jvp
def _multiply_jvp(xp, tangents, out, a, b):
    ta, tb = tangents
    return _sum_tangents(xp, [
        None if ta is None else xp.align(ta, ndim_of(a), ndim_of(out)) * b,
        None if tb is None else a * xp.align(tb, ndim_of(b), ndim_of(out))], out)


@multiply.def_vjp
def _multiply_vjp(xp, g, out, a, b):
    return _cot(xp, g * xp.conj(b), a, out), _cot(xp, g * xp.conj(a), b, out)


@divide.def_jvp
def _divide_jvp(xp, tangents, out, a, b):
    ta, tb = tangents
    return _sum_tangents(xp, [
        None if ta is None else xp.align(ta, ndim_of(a), ndim_of(out)) / b,
        None if tb is None else -(out / b) * xp.align(tb, ndim_of(b), ndim_of(out))], out)


@divide.def_vjp
def _divide_vjp(xp, g, out, a, b):
    gb = g / xp.conj(b)
    return _cot(xp, gb, a, out), _cot(xp, -gb * xp.conj(out), b, out)


def _extremum_masks(xp, out, a, b):
    """Where each operand attains the extremum; ties share the derivative equally."""
    av, bv, ov = unbox_all(a), unbox_all(b), unbox_all(out)
    ma = (av == ov)
    mb = (bv == ov)
    both = ma & mb
    wa = ns(ov).where(both, 0.5, ma.astype(float))
    wb = ns(ov).where(both, 0.5, mb.astype(float))
    return wa, wb


def _extremum_jvp(xp, tangents, out, a, b):
    wa, wb = _extremum_masks(xp, out, a, b)
    ta, tb = tangents
    return _sum_tangents(xp, [
        None if ta is None else _to_out(xp, ta, a, out) * wa,
        None if tb is None else _to_out(xp, tb, b, out) * wb], out)


def _extremum_vjp(xp, g, out, a, b):
    wa, wb = _extremum_masks(xp, out, a, b)
    return _cot(xp, g * wa, a, out), _cot(xp, g * wb, b, out)


for _op in (maximum, minimum):
    _op.def_jvp(_extremum_jvp)
    _op.def_vjp(_extremum_vjp)


@arctan2.def_jvp
def _arctan2_jvp(xp, tangents, out, y, x):
    ty, tx = tangents
    r2 = y * y + x * x
    return _sum_tangents(xp, [
        None if ty is None else xp.align(ty, ndim_of(y), ndim_of(out)) * (x / r2),
        None if tx is None else xp.align(tx, ndim_of(x), ndim_of(out)) * (-y / r2)], out)


@arctan2.def_vjp
def _arctan2_vjp(xp, g, out, y, x):
    r2 = y * y + x * x
    return _cot(xp, g * (x / r2), y, out), _cot(xp, g * (-y / r2), x, out)


# -- real-only binary ufuncs: hypot, logaddexp, logaddexp2, fmax, fmin ---------------------
hypot = _binary("hypot")
logaddexp = _binary("logaddexp")
logaddexp2 = _binary("logaddexp2")
fmax = _binary("fmax")
fmin = _binary("fmin")

for _op in (fmax, fmin):  # the NaN-ignoring extrema: the operand that is the result
    _op.def_jvp(_extremum_jvp)
    _op.def_vjp(_extremum_vjp)


def _hypot_weights(xp, out, a, b):
    # d hypot = (a da + b db) / hypot; 0 at the origin (the zero subgradient, as abs)
    zero = unbox_all(out) == 0
    r = xp.where(zero, 0, xp.reciprocal(xp.where(zero, 1, out)))
    return a * r, b * r


def _logaddexp_weights(xp, out, a, b):
    # d logaddexp = e^(a - out) da + e^(b - out) db (softmax weights, each at most 1)
    return xp.exp(a - out), xp.exp(b - out)


def _logaddexp2_weights(xp, out, a, b):
    return xp.exp2(a - out), xp.exp2(b - out)


def _weighted_rules(op, weights):
    @op.def_jvp
    def jvp(xp, tangents, out, a, b):
        wa, wb = weights(xp, out, a, b)
        ta, tb = tangents
        return _sum_tangents(xp, [
            None if ta is None else xp.align(ta, ndim_of(a), ndim_of(out)) * wa,
            None if tb is None else xp.align(tb, ndim_of(b), ndim_of(out)) * wb], out)

    @op.def_vjp
    def vjp(xp, g, out, a, b):
        wa, wb = weights(xp, out, a, b)
        return _cot(xp, g * wa, a, out), _cot(xp, g * wb, b, out)

    jvp.__name__, vjp.__name__ = f"_{op.name}_jvp", f"_{op.name}_vjp"


_weighted_rules(hypot, _hypot_weights)
_weighted_rules(logaddexp, _logaddexp_weights)
_weighted_rules(logaddexp2, _logaddexp2_weights)


# -- power ---------------------------------------------------------------------------------
# A constant exponent is a parameter, not an argument: d/dp (which needs log x) is then never
# formed, so x ** 2 at x < 0 gives no spurious NaN.
_power_const = Op("power_const")
_power = _binary("power")


@_power_const.impl("any")
def _power_const_any(x, p):
    return ns(x).power(x, p)


def _power_deriv(xp, x, p):
    if np.ndim(p) == 0:
        if p == 0:
            return xp.zeros_like(x)
        if p == 1:
            return xp.ones_like(x)
        return p * x ** (p - 1)
    # an exponent array: 0 where p == 0 (x ** 0 is constant, also at x = 0, where the
    # formula gives 0 * inf), and 1 where p == 1 (x ** 0 is 1, also at x = 0)
    zero = p == 0
    return xp.where(zero, 0, p * x ** xp.where(zero, 1, p - 1))


@_power_const.def_jvp
def _power_const_jvp(xp, tangents, out, x, p):
    return xp.align(tangents[0], ndim_of(x), ndim_of(out)) * _power_deriv(xp, x, p)


@_power_const.def_vjp
def _power_const_vjp(xp, g, out, x, p):
    return (_cot(xp, g * xp.conj(_power_deriv(xp, x, p)), x, out),)


def _log_base(xp, a):
    # log(a) where a != 0; 0 elsewhere (the d/dp term is then 0 * ... = 0 for a == 0, p > 0)
    av = unbox_all(a)
    zero = av == 0
    return xp.where(zero, 0, xp.log(xp.where(zero, 1, a)))


@_power.def_jvp
def _power_jvp(xp, tangents, out, a, p):
    ta, tp = tangents
    return _sum_tangents(xp, [
        None if ta is None else xp.align(ta, ndim_of(a), ndim_of(out)) * (p * a ** (p - 1)),
        None if tp is None else xp.align(tp, ndim_of(p), ndim_of(out)) * (out * _log_base(
            xp, a))], out)


@_power.def_vjp
def _power_vjp(xp, g, out, a, p):
    with np.errstate(invalid="ignore", divide="ignore"):
        return (_cot(xp, g * xp.conj(p * a ** (p - 1)), a, out),
                _cot(xp, g * xp.conj(out * _log_base(xp, a)), p, out))


def power(a, p):
    if not isinstance(p, Box):
        if not isinstance(a, Box):
            return ns(a, p).power(a, p)
        p = unbox_all(p)
        if dtype_of(p).kind in "iub" and np.ndim(p) == 0:
            p = int(p)
        return _power_const(a, p=p)
    return _power(a, p)


# -- where ---------------------------------------------------------------------------------
_where = Op("where")


@_where.impl("any")
def _where_any(x, y, cond):
    return ns(x, y).where(cond, x, y)


@_where.def_jvp
def _where_jvp(xp, tangents, out, x, y, cond):
    tx, ty = tangents
    zero = 0
    parts = []
    if tx is not None:
        parts.append(xp.where(cond, _to_out(xp, tx, x, out), zero))
    if ty is not None:
        parts.append(xp.where(cond, zero, _to_out(xp, ty, y, out)))
    return _sum_tangents(xp, parts, out)


@_where.def_vjp
def _where_vjp(xp, g, out, x, y, cond):
    return (_cot(xp, xp.where(cond, g, 0), x, out), _cot(xp, xp.where(cond, 0, g), y, out))


def where(cond, x, y):
    """``numpy.where(cond, x, y)``; ``cond`` is not differentiated."""
    cond = unbox_all(cond)
    if not isinstance(x, Box) and not isinstance(y, Box):
        return ns(x, y, cond).where(cond, x, y)
    return _where(x, y, cond=cond)
