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
(broadcast) output, and sum cotangents back to each argument's shape.
"""
import numpy as np

from .._core.box import Box
from .._core.op import Op

__all__ = ["ufunc_op", "apply", "expand", "unbroadcast", "def_elementwise_rules", "ndim"]


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
    args = tuple(np.asarray(a) if isinstance(a, (list, tuple)) else a for a in args)
    if out is None and not kwargs:
        return op(*args)
    if any(isinstance(a, Box) for a in args):
        raise TypeError(f"{op.name}: out= and other ufunc keywords are not supported "
                        "inside differentiated code")
    if out is not None:
        return op(*args, out=out, **(kwargs or {}))
    return op(*args, **kwargs)


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


def def_elementwise_rules(op, *derivatives):
    """Register the JVP and VJP of an elementwise op from its partial derivatives.

    ``derivatives[i]`` is ``fn(xp, out, *args, **params) -> array`` giving the derivative of
    the output with respect to positional argument ``i``, or None where that argument is not
    differentiable. Complex arguments follow PyTorch's convention for holomorphic functions:
    the JVP is ``f'(z) t`` and the VJP ``g * conj(f'(z))``.
    """
    def jvp(xp, tangents, out, *args, **params):
        total = None
        for i, (t, d) in enumerate(zip(tangents, derivatives)):
            if t is None or d is None:
                continue
            term = expand(xp, t, args[i], out) * d(xp, out, *args, **params)
            total = term if total is None else total + term
        if total is None:
            return xp.zeros_like(out)
        return total

    def vjp(xp, g, out, *args, **params):
        res = []
        for i, d in enumerate(derivatives):
            if d is None:
                res.append(None)
                continue
            res.append(unbroadcast(xp, g * xp.conj(d(xp, out, *args, **params)), args[i], out))
        res += [None] * (len(args) - len(res))
        return tuple(res)

    jvp.__name__ = jvp.__qualname__ = f"_{op.name}_jvp"
    vjp.__name__ = vjp.__qualname__ = f"_{op.name}_vjp"
    op.def_jvp(jvp)
    op.def_vjp(vjp)
    return op
