"""The machinery every elementwise special function shares.

Each function is an :class:`~linalgx._core.op.Op` whose CPU implementation is a numba ufunc
from ``linalgx.kernels.special`` (registered under both ``"numba"`` and ``"lapack"``: there is
no LAPACK for special functions, so an explicit ``backend("lapack")`` runs the same kernel)
and whose ``"cupy"`` implementation maps to ``cupyx.scipy.special``. The hottest functions
(erf, expit, xlogy, ndtri, log_ndtr, gammaln, digamma, i0e) first try a vectorised loop
(``kernels/special/fast.py``) on contiguous float64/float32 arrays, threaded over numba's
thread count for large arrays; other inputs go through the ufunc. The kernels are imported
inside the implementations, so importing :mod:`linalgx.special` does not import numba.

Rule helpers broadcast tangents and cotangents that carry extra leading axes against the
(broadcast) output, and sum cotangents back to each argument's shape. Derivatives are
evaluated at the output's precision: floating arguments narrower than the output (float16 in,
float64 out, as SciPy's loops give) are widened first, and each partial derivative is cast
to the output's dtype, so a tangent of the argument's dtype comes out with the output's.
"""
import numpy as np

from .._core.box import Box
from .._core.errors import NAMED_ERRORS, name_error
from .._core.op import Op
from .._core.xputil import dtype_of, ns, unbox_all

__all__ = ["ufunc_op", "apply", "expand", "unbroadcast", "def_elementwise_rules", "ndim",
           "no_complex", "exp_square", "smallest_from"]


def ufunc_op(name, kernel=None, cupy_name=None, nout=1):
    """An Op evaluating ``linalgx.kernels.special.ufuncs`` entry ``kernel`` (default ``name``)."""
    op = Op(name, nout=nout)
    kname = kernel or name
    cname = cupy_name or name

    def numba_impl(*args, **kwargs):
        from ..kernels.special import ufuncs
        return ufuncs.call(kname, *args, **kwargs)

    def cupy_impl(*args, **kwargs):
        import cupy
        import cupyx.scipy.special as cs
        fn = getattr(cs, cname, None) or getattr(cupy, cname, None)
        if fn is None:
            raise NotImplementedError(f"{name} has no CuPy implementation "
                                      f"(cupyx.scipy.special has no {cname})")
        return fn(*args, **kwargs)

    numba_impl.__name__ = numba_impl.__qualname__ = f"_{name}_numba"
    cupy_impl.__name__ = cupy_impl.__qualname__ = f"_{name}_cupy"
    op.impl("numba", "lapack")(numba_impl)
    op.impl("cupy")(cupy_impl)
    return op


def apply(op, args, out=None, kwargs=None):
    """Call ``op`` with NumPy ufunc keywords (``out=``, ``where=``, ``dtype=``, ...)."""
    try:
        args = tuple(np.asarray(a) if isinstance(a, (list, tuple)) else a for a in args)
        if out is None and not kwargs:
            return op(*args)
        if any(isinstance(a, Box) for a in args):
            raise TypeError(f"{op.name}: out= and other ufunc keywords are not supported "
                            "inside differentiated code")
        if out is not None:
            return op(*args, out=out, **(kwargs or {}))
        return op(*args, **kwargs)
    except NAMED_ERRORS as e:
        name_error(e, op.name)
        raise


def ndim(a):
    return getattr(a, "ndim", 0) if not isinstance(a, (list, tuple)) else len(_shape(a))


def _shape(a):
    s = getattr(a, "shape", None)
    if s is not None:
        return tuple(s)
    if isinstance(a, (list, tuple)):
        return (len(a),) + (_shape(a[0]) if a else ())
    return ()


def expand(xp, t, arg, out):
    """Reshape tangent ``t`` (leading batch axes + arg's shape) to broadcast against ``out``."""
    nd_arg, nd_out = ndim(arg), ndim(out)
    if nd_arg == nd_out:
        return t
    lead = t.ndim - nd_arg
    shape = tuple(t.shape[:lead]) + (1,) * (nd_out - nd_arg) + tuple(t.shape[lead:])
    return xp.reshape(t, shape)


def unbroadcast(xp, g, arg, out):
    """Sum cotangent ``g`` (leading batch axes + out's shape) down to arg's shape."""
    nd_arg, nd_out = ndim(arg), ndim(out)
    lead = g.ndim - nd_out
    extra = nd_out - nd_arg
    if extra:
        g = xp.sum(g, axis=tuple(range(lead, lead + extra)))
    axes = tuple(lead + i for i, n in enumerate(_shape(arg)) if n == 1 and g.shape[lead + i] != 1)
    if axes:
        g = xp.sum(g, axis=axes, keepdims=True)
    return g


def no_complex(xp, name, deriv, *args):
    """Raise a TypeError naming ``name`` if an argument is complex: for functions whose value
    SciPy's complex loop gives but whose derivative ``deriv`` has no complex implementation."""
    for a in args:
        if a is not None and dtype_of(a).kind == "c":
            raise TypeError(f"linalgx.special.{name}: complex input is not differentiable (the "
                            f"value comes from SciPy's complex loop, but its derivative, "
                            f"{deriv}, has no complex implementation)")


def smallest_from(v, bound):
    """The smallest of the plain values ``v`` that is at least ``bound`` (``bound`` if none
    is): where a rule's series or continued fraction starts to be used, which decides how
    many terms the whole array needs."""
    v = v[v >= bound] if np.ndim(v) else v
    return float(np.min(v)) if np.size(v) and np.min(v) >= bound else bound


def exp_square(xp, x, c):
    """``exp(c * x**2)`` for ``c`` in (1, -1, 0.5, -0.5), without the rounding error of
    ``x**2`` (which exp turns into a relative error of ``|c| x**2`` ulp): the square's
    rounding error ``lo = x**2 - fl(x**2)`` enters as the factor ``1 + c lo``.

    ``lo`` is exact to far below an ulp of ``x**2``: with ``xh`` the leading half of x's
    significand bits (``xh**2`` is exact) and ``xl = x - xh``, ``lo = (xh**2 - fl(x**2)) +
    xl (xh + x)``. It is computed from the plain values, a constant to autodiff: ``x*x``
    carries the whole derivative, and ``exp(c x*x) (1 + c lo)`` differentiates to ``2 c x``
    times it.
    """
    dt = dtype_of(x)
    sq = x * x
    if dt.kind != "f":
        return xp.exp(c * sq)
    v = unbox_all(x)
    m = ns(v)
    v = m.asarray(v, dtype=dt)
    fi = np.finfo(dt)
    p = fi.nmant + 1
    low = fi.nmant - (p // 2 - 1)             # significand bits cleared: xh has p // 2
    ui = np.dtype(f"uint{8 * dt.itemsize}")
    mask = ui.type(~((1 << low) - 1) & ((1 << (8 * dt.itemsize)) - 1))   # a NumPy scalar
    with np.errstate(all="ignore"):
        vh = (v.view(ui) & mask).view(dt)
        vl = v - vh
        lo = vh * vh
        lo -= v * v
        vh += v
        vh *= vl
        lo += vh
        lo = m.where(m.isfinite(lo), lo, 0)  # inf/NaN x, or x**2 overflowing: exp decides
    return xp.exp(c * sq) * (1 + c * lo)


def _astype(a, dtype):
    if isinstance(a, Box):
        from .._core.basic import astype
        return astype(a, dtype)
    return a.astype(dtype)


def _out_dtype(xp, out):
    dt = dtype_of(out)
    return dt if dt.kind in "fc" else None


def _widen(xp, args, odt):
    # floating arguments narrower than the output, widened to its precision
    if odt is None:
        return args
    width = np.finfo(odt).dtype.itemsize
    res = list(args)
    for i, a in enumerate(args):
        dt = getattr(a, "dtype", None)
        if dt is not None and dt.kind in "fc" and np.finfo(dt).dtype.itemsize < width:
            res[i] = _astype(a, np.result_type(dt, np.finfo(odt).dtype))
    return tuple(res)


def _as_out(xp, d, odt):
    # a partial derivative in the output's dtype (its real counterpart for a real derivative
    # of a complex output; a complex derivative of a real output is left to the engine)
    dt = getattr(d, "dtype", None)
    if odt is None or dt is None or dt.kind not in "fc" or (dt.kind == "c" and odt.kind == "f"):
        return d
    target = odt if dt.kind == odt.kind else np.finfo(odt).dtype
    return d if dt == target else _astype(d, target)


def def_elementwise_rules(op, *derivatives):
    """Register the JVP and VJP of an elementwise op from its partial derivatives.

    ``derivatives[i]`` is ``fn(xp, out, *args, **params) -> array`` giving the derivative of
    the output with respect to positional argument ``i``, or None where that argument is not
    differentiable. Complex arguments follow PyTorch's convention for holomorphic functions:
    the JVP is ``f'(z) t`` and the VJP ``g * conj(f'(z))``. Derivatives are evaluated with
    the arguments widened to the output's precision and returned in the output's dtype.
    """
    def jvp(xp, tangents, out, *args, **params):
        odt = _out_dtype(xp, out)
        wide = _widen(xp, args, odt)
        total = None
        for i, (t, d) in enumerate(zip(tangents, derivatives)):
            if t is None or d is None:
                continue
            term = expand(xp, t, args[i], out) * _as_out(xp, d(xp, out, *wide, **params), odt)
            total = term if total is None else total + term
        if total is None:
            return xp.zeros_like(out)
        return total

    def vjp(xp, g, out, *args, **params):
        odt = _out_dtype(xp, out)
        wide = _widen(xp, args, odt)
        res = []
        for i, d in enumerate(derivatives):
            if d is None:
                res.append(None)
                continue
            di = _as_out(xp, d(xp, out, *wide, **params), odt)
            res.append(unbroadcast(xp, g * xp.conj(di), args[i], out))
        res += [None] * (len(args) - len(res))
        return tuple(res)

    jvp.__name__ = jvp.__qualname__ = f"_{op.name}_jvp"
    vjp.__name__ = vjp.__qualname__ = f"_{op.name}_vjp"
    op.def_jvp(jvp)
    op.def_vjp(vjp)
    return op
