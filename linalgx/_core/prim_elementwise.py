"""Elementwise primitives: unary functions, conj/real/imag/abs/angle, non-differentiable ops."""
import numpy as np

from .op import Op
from .xputil import dtype_of, ns, unbox_all

# -- elementwise unary ops ----------------------------------------------------------------

def _holomorphic(name, deriv, npname=None):
    """An elementwise op f with f'(x) = deriv(x, out); VJP is g * conj(f'(x))."""
    op = Op(name)
    npname = npname or name

    @op.impl("any")
    def impl(x):
        return getattr(ns(x), npname)(x)

    @op.def_jvp
    def jvp(xp, tangents, out, x):
        return tangents[0] * deriv(xp, x, out)

    @op.def_vjp
    def vjp(xp, g, out, x):
        return (g * xp.conj(deriv(xp, x, out)),)

    impl.__name__ = f"_{name}_any"
    jvp.__name__ = f"_{name}_jvp"
    vjp.__name__ = f"_{name}_vjp"
    return op


_LN2 = float(np.log(2.0))
_LN10 = float(np.log(10.0))

exp = _holomorphic("exp", lambda xp, x, out: out)
expm1 = _holomorphic("expm1", lambda xp, x, out: out + 1)
exp2 = _holomorphic("exp2", lambda xp, x, out: out * _LN2)
log = _holomorphic("log", lambda xp, x, out: xp.reciprocal(x))
log2 = _holomorphic("log2", lambda xp, x, out: xp.reciprocal(x * _LN2))
log10 = _holomorphic("log10", lambda xp, x, out: xp.reciprocal(x * _LN10))
log1p = _holomorphic("log1p", lambda xp, x, out: xp.reciprocal(x + 1))
sqrt = _holomorphic("sqrt", lambda xp, x, out: xp.reciprocal(out * 2))
cbrt = _holomorphic("cbrt", lambda xp, x, out: xp.reciprocal(xp.square(out) * 3))
sin = _holomorphic("sin", lambda xp, x, out: xp.cos(x))
cos = _holomorphic("cos", lambda xp, x, out: -xp.sin(x))
tan = _holomorphic("tan", lambda xp, x, out: xp.square(out) + 1)
sinh = _holomorphic("sinh", lambda xp, x, out: xp.cosh(x))
cosh = _holomorphic("cosh", lambda xp, x, out: xp.sinh(x))
tanh = _holomorphic("tanh", lambda xp, x, out: 1 - xp.square(out))
arcsin = _holomorphic("arcsin", lambda xp, x, out: xp.reciprocal(xp.sqrt(1 - xp.square(x))))
arccos = _holomorphic("arccos", lambda xp, x, out: -xp.reciprocal(xp.sqrt(1 - xp.square(x))))
arctan = _holomorphic("arctan", lambda xp, x, out: xp.reciprocal(xp.square(x) + 1))
arcsinh = _holomorphic("arcsinh", lambda xp, x, out: xp.reciprocal(xp.sqrt(xp.square(x) + 1)))
# 1 / (sqrt(x - 1) sqrt(x + 1)), not 1 / sqrt(x**2 - 1): the two differ in sign where
# Re x < 0, and only the first is the derivative of NumPy's branch of arccosh.
arccosh = _holomorphic("arccosh",
                       lambda xp, x, out: xp.reciprocal(xp.sqrt(x - 1) * xp.sqrt(x + 1)))
arctanh = _holomorphic("arctanh", lambda xp, x, out: xp.reciprocal(1 - xp.square(x)))
square = _holomorphic("square", lambda xp, x, out: x * 2)
reciprocal = _holomorphic("reciprocal", lambda xp, x, out: -xp.square(out))


def _linear_unary(name, npname, adjoint):
    op = Op(name, linear=True)

    @op.impl("any")
    def impl(x):
        return getattr(ns(x), npname)(x)

    op.def_adjoint(adjoint)
    impl.__name__ = f"_{name}_any"
    return op


def _negative_adjoint(xp, g, x):
    return (-g,)


def _conj_adjoint(xp, g, x):
    return (conj(g),)


def _real_adjoint(xp, g, x):
    # Re(t) paired with g: the adjoint is g itself (a complex cotangent with zero imag part)
    return (g,)


def _imag_adjoint(xp, g, x):
    # <Im t, g> = Re(t * conj(1j g))
    if dtype_of(x).kind != "c":
        return (g * 0,)
    return (g * 1j,)


negative = _linear_unary("negative", "negative", _negative_adjoint)
_conj = _linear_unary("conj", "conj", _conj_adjoint)
_real = _linear_unary("real", "real", _real_adjoint)
_imag = _linear_unary("imag", "imag", _imag_adjoint)


def conj(x):
    """Complex conjugate; a no-op (no copy, no node) on real input."""
    if dtype_of(x).kind != "c":
        return x
    return _conj(x)


def real(x):
    if dtype_of(x).kind != "c":
        return x
    return _real(x)


def imag(x):
    return _imag(x)


absolute = Op("absolute")


@absolute.impl("any")
def _absolute_any(x):
    return ns(x).abs(x)


def _sgn(xp, x):
    """z / |z| with 0 at 0 (torch.sgn), as a differentiable expression."""
    a = absolute(x)
    zero = unbox_all(a) == 0
    return xp.where(zero, 0, x / xp.where(zero, 1, a))


@absolute.def_jvp
def _absolute_jvp(xp, tangents, out, x):
    (t,) = tangents
    return real(conj(_sgn(xp, x)) * t)


@absolute.def_vjp
def _absolute_vjp(xp, g, out, x):
    return (g * _sgn(xp, x),)


abs = absolute  # noqa: A001  (NumPy's alias)


angle = Op("angle")


@angle.impl("any")
def _angle_any(x):
    return ns(x).angle(x)


def _angle_factor(xp, x):
    # d angle = Im(conj(z) dz) / |z|^2
    r2 = real(x * conj(x))
    zero = unbox_all(r2) == 0
    return xp.where(zero, 0, x / xp.where(zero, 1, r2))


@angle.def_jvp
def _angle_jvp(xp, tangents, out, x):
    if dtype_of(x).kind != "c":
        return tangents[0] * 0
    return imag(conj(_angle_factor(xp, x)) * tangents[0])


@angle.def_vjp
def _angle_vjp(xp, g, out, x):
    if dtype_of(x).kind != "c":
        return (g * 0,)
    return (g * 1j * _angle_factor(xp, x),)


def _nondiff(name):
    op = Op(name, nondiff=True)

    @op.impl("any")
    def impl(*args, **kw):
        return getattr(ns(*args), name)(*args, **kw)

    impl.__name__ = f"_{name}_any"
    return op


_sign_real = _nondiff("sign")
_sign_complex = Op("sign_complex")


@_sign_complex.impl("any")
def _sign_complex_any(x):
    return ns(x).sign(x)


def _sign_complex_rule(xp, t, s, x):
    # d(z/|z|) = (dz - s Re(conj(s) dz)) / |z| with s = z/|z|: self-adjoint under Re<a, b>,
    # so the JVP and the VJP are the same map (PyTorch's sgn_backward); zero at z = 0
    a = absolute(x)
    zero = unbox_all(a) == 0
    return (t - s * real(conj(s) * t)) * xp.where(zero, 0, xp.reciprocal(xp.where(zero, 1, a)))


@_sign_complex.def_jvp
def _sign_complex_jvp(xp, tangents, out, x):
    return _sign_complex_rule(xp, tangents[0], out, x)


@_sign_complex.def_vjp
def _sign_complex_vjp(xp, g, out, x):
    return (_sign_complex_rule(xp, g, out, x),)


def sign(x):
    """np.sign: piecewise constant for real x; z / |z| for complex z, differentiable."""
    if dtype_of(x).kind != "c":
        return _sign_real(x)
    return _sign_complex(x)


floor = _nondiff("floor")
ceil = _nondiff("ceil")
rint = _nondiff("rint")
trunc = _nondiff("trunc")
isfinite = _nondiff("isfinite")
isnan = _nondiff("isnan")
isinf = _nondiff("isinf")
argmax = _nondiff("argmax")
argmin = _nondiff("argmin")
