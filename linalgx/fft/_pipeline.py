"""NumPy's fft pipeline (``numpy/fft/_pocketfft.py``), mirrored step by step.

A public function describes its transform as NumPy's sequence of 1-D steps ``(kind, axis, n,
gets_out)``, in NumPy's order; :func:`run` validates them in that order (so the same
argument raises the same exception first), resolves NumPy's dtype rules and ``out=``, groups
consecutive steps over distinct axes into single multi-axis calls of the ops in ``_ops``, and
runs them. Validation reads only ``shape``, ``ndim`` and ``dtype``, so autodiff Boxes pass.
"""
import operator

import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.array_utils import normalize_axis_index

from .._core.box import Box
from .._core.dispatch import _is_cupy
from .._core.errors import warn
from . import _ops
from ._messages import MESSAGES

__all__ = ["asarray", "axis_length", "check_norm", "cook_nd_args", "run"]

_OPS = {"c2c": _ops.c2c, "r2c": _ops.r2c, "c2r": _ops.c2r}
_SWAP_DIRECTION = {"backward": "forward", None: "forward", "ortho": "ortho",
                   "forward": "backward"}
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_real_result_cache = {}


def asarray(a):
    """``numpy.asarray``, letting autodiff Boxes and CuPy arrays through."""
    if type(a) is np.ndarray or isinstance(a, Box) or _is_cupy(a):
        return a
    return np.asarray(a)


def _is_array(x):
    return isinstance(x, np.ndarray) or _is_cupy(x)


def _result_real(dtype):
    """NumPy's ``result_type(a.real.dtype, 1.0)`` (raises DTypePromotionError for str ...)."""
    real = _real_result_cache.get(dtype)
    if real is None:
        base = np.finfo(dtype).dtype if dtype.kind == "c" else dtype
        real = _real_result_cache[dtype] = np.result_type(base, 1.0)
    return real


def axis_length(a, axis):
    """``a.shape[axis]``; out of range, NumPy's IndexError text as an ``AxisError`` (a
    subclass of IndexError and ValueError) with the axis and dimension appended."""
    try:
        return a.shape[axis]
    except IndexError as e:
        raise AxisError(MESSAGES["axis"].format(numpy=e, axis=axis, ndim=a.ndim)) from None


def check_norm(norm, inverse):
    """The canonical norm name; NumPy's message differs between the two directions."""
    if inverse:
        try:
            return _SWAP_DIRECTION[_SWAP_DIRECTION[norm]]
        except KeyError:
            raise ValueError(MESSAGES["norm_inverse"].format(norm=norm)) from None
    if norm is None:
        return "backward"
    if isinstance(norm, str) and norm in ("backward", "ortho", "forward"):
        return norm
    raise ValueError(MESSAGES["norm"].format(norm=norm))


def cook_nd_args(a, s=None, axes=None, invreal=False):
    """``numpy.fft._pocketfft._cook_nd_args``: the (s, axes) lists of an n-D transform."""
    if s is None:
        shapeless = True
        if axes is None:
            s = list(a.shape)
        else:
            try:
                s = list(np.take(a.shape, axes))
            except IndexError as e:
                raise AxisError(MESSAGES["axes"].format(numpy=e, axes=axes, ndim=a.ndim)
                                ) from None
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        if not shapeless:
            warn(MESSAGES["s_without_axes"], DeprecationWarning)
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError(MESSAGES["s_axes"])
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warn(MESSAGES["s_none"], DeprecationWarning)
    s = [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)]
    return s, axes


def _index(n):
    if isinstance(n, (bool, np.bool_)):
        raise TypeError(MESSAGES["n_int"])
    return operator.index(n)


def _ufunc_name(kind, forward, n):
    if kind == "c2c":
        return "fft" if forward else "ifft"
    if kind == "r2c":
        return "rfft_n_even" if n % 2 == 0 else "rfft_n_odd"
    return "irfft"


def _group(plan):
    """Merge consecutive steps over distinct axes into multi-axis op calls, keeping NumPy's
    order of the 1-D passes (the ops run their axes in order, see ``_ops``; a different order
    rounds differently).

    c2c steps merge freely; c2c steps after an r2c step join it (pocketfft's r2c does the
    real axis, ``axes[-1]``, first, then ``axes[:-1]`` in order); a c2r step absorbs the c2c
    steps before it. A repeated axis (NumPy transforms it twice) starts a new call.
    """
    groups = []
    for kind, axis, n in plan:
        if groups:
            g = groups[-1]
            if axis not in g[1] and (kind == "c2c" and g[0] != "c2r"
                                     or kind == "c2r" and g[0] == "c2c"):
                if g[0] == "r2c":  # before the real axis, which stays last
                    g[1].insert(-1, axis)
                    g[2].insert(-1, n)
                else:
                    g[0] = kind
                    g[1].append(axis)
                    g[2].append(n)
                continue
        groups.append([kind, [axis], [n]])
    return [(kind, tuple(axes), tuple(lengths)) for kind, axes, lengths in groups]


_C128 = np.dtype(np.complex128)


def _last_axis(a, step, norm, forward):
    """`run` for the commonest call, without its bookkeeping (2 of a 16-point rfft's 6 us):
    one transform over the last axis of a float64 or complex128 ndarray, ``n`` None or an
    int, no ``out=``. None where the call is not that; the general path then runs it, and
    raises NumPy's errors (in NumPy's order: the length before ``norm``)."""
    kind, axis, n, _ = step
    dtype = a.dtype
    if (dtype != _F64 and dtype != _C128) or (kind == "r2c" and dtype == _C128) \
            or not a.ndim or (axis != -1 and axis != a.ndim - 1):
        return None
    if n is None:
        n = a.shape[-1] if kind != "c2r" else (a.shape[-1] - 1) * 2
    elif type(n) is not int:
        return None
    if n < 1:
        return None
    norm = check_norm(norm, inverse=not forward)
    x = a if kind == "r2c" or dtype == _C128 else a.astype(_C128)
    return _OPS[kind](x, axes=(-1,), lengths=(n,), norm=norm, forward=forward, out=None)


def run(a, steps, norm, forward, out=None):
    """Validate and run NumPy's 1-D `steps` on `a`; see the module docstring."""
    if out is None and len(steps) == 1 and type(a) is np.ndarray:
        res = _last_axis(a, steps[0], norm, forward)
        if res is not None:
            return res
    if isinstance(out, tuple):  # NumPy's ufuncs take out=(arr,), so its fft functions do
        if len(out) != 1:
            raise ValueError(MESSAGES["out_tuple"])
        out = out[0]
    ndim = a.ndim
    shape = tuple(a.shape)
    plan = []
    out_name = None
    into_out = False  # the step before wrote into out
    for i, (kind, axis, n, gets_out) in enumerate(steps):
        if n is None:  # an entry of s was None: the 1-D function's default, on the current shape
            n = shape[axis] if kind != "c2r" else (shape[axis] - 1) * 2
        if n < 1:
            raise ValueError(MESSAGES["npts"].format(n=n))
        if i == 0:  # NumPy's _raw_fft: an inverse checks norm first, a forward the dtype
            if forward:
                real = _result_real(a.dtype)
                norm = check_norm(norm, inverse=False)
            else:
                norm = check_norm(norm, inverse=True)
                real = _result_real(a.dtype)
        axis = normalize_axis_index(axis, ndim)
        n_out = n // 2 + 1 if kind == "r2c" else n
        if gets_out and out is not None:  # NumPy passes out to this 1-D step
            _check_step_out(getattr(out, "shape", None), shape, axis, n_out)
        n_out = _index(n_out)
        n = int(n) if kind == "r2c" else n_out
        if gets_out and _is_array(out) and _broadcast_fails(out.shape, shape, axis):
            # this step's ufunc refuses the dtype before it tries the broadcast
            _check_out_dtype(out, _result_dtype(real, out, kind == "c2r"),
                             _ufunc_name(kind, forward, n))
            _check_broadcast(out.shape, shape, axis)
        if i == 0 and (a.dtype.kind == "O" or kind == "r2c" and a.dtype.kind == "c") or (
                into_out and out.dtype.kind == "O"):
            # (an object out= written by the step before is this step's input in NumPy)
            raise TypeError(MESSAGES["ufunc_types"].format(name=_ufunc_name(kind, forward, n)))
        into_out = gets_out and _is_array(out)
        if out is not None and (out_name is None or kind == "c2r"):
            out_name = _ufunc_name(kind, forward, n)
        shape = shape[:axis] + (n_out,) + shape[axis + 1:]
        plan.append((kind, axis - ndim, n))
    if not plan:
        return a  # NumPy: fftn(a, axes=()) and fftn(0-d) return the input itself
    groups = [(plan[0][0], (plan[0][1],), (plan[0][2],))] if len(plan) == 1 else _group(plan)

    # The input's precision (float16: float32, pocketfft has none). NumPy 2.4's ufunc loop
    # choice is accidental here: a complex64 fft with norm="backward" runs in double (its
    # norm factor is a Python int), with "ortho" or for ifft/irfft in single precision.
    # A wider out= (float64/complex128 or longdouble for single-precision input) makes NumPy
    # pick its double loop: the transform then runs in double, as here.
    if out is not None:
        if isinstance(a, Box):
            raise TypeError(MESSAGES["out_traced"])
        if not _is_array(out):
            raise TypeError(MESSAGES["out_type"])
    compute = _result_dtype(real, out, True)
    ccompute = _ops.complex_dtype(compute)
    result = compute if groups[-1][0] == "c2r" else ccompute
    # Real input to c2c is made complex as NumPy does: pocketfft's faster real-input path
    # flips the sign of zero imaginary parts (np.angle(-1-0j) == -pi, not pi).
    x = a.astype(compute if groups[0][0] == "r2c" else ccompute, copy=False)

    target = None
    if out is not None:
        target = _check_out(out, shape, plan[-1][1] + ndim, result, out_name, x, len(groups))
    res = x
    for gi, (kind, axes, lengths) in enumerate(groups):
        res = _OPS[kind](res, axes=axes, lengths=lengths, norm=norm, forward=forward,
                         out=target if gi == len(groups) - 1 else None)
    if out is not None:
        if target is None:
            _copy_into(out, res)
        return out
    if real == _F16 and plan[0][0] == "c2r":
        res = res.astype(real)  # NumPy: irfft/hfft of float16 give float16 (irfftn: float32)
    return res


def _check_step_out(oshape, shape, axis, n_out):
    """NumPy's ``_raw_fft`` length check of out (its ufunc's dtype and broadcast checks
    follow: `_check_out_dtype`, `_check_broadcast`)."""
    if oshape is None:
        return
    if len(oshape) != len(shape) or oshape[axis] != n_out:
        raise ValueError(MESSAGES["out_shape"])


def _result_dtype(real, out, c2r):
    """The dtype a transform of input precision ``real`` computes and returns (complex unless
    ``c2r``)."""
    compute = _F32 if real == _F16 else real
    if out is not None and compute == _F32 and out.dtype.kind in "fc" and out.dtype.itemsize > (
            4 if out.dtype.kind == "f" else 8):
        compute = _F64
    return compute if c2r else _ops.complex_dtype(compute)


def _broadcast_fails(oshape, shape, axis):
    return len(oshape) == len(shape) and any(
        o != n and n != 1 for d, (o, n) in enumerate(zip(oshape, shape)) if d != axis)


def _check_out_dtype(out, result, name):
    """The ufunc's own checks of `out`, before its broadcast: writeable, then the cast."""
    if _is_cupy(out):
        return
    if not out.flags.writeable:
        raise ValueError(MESSAGES["out_readonly"])
    if not np.can_cast(result, out.dtype, "same_kind"):
        # NumPy names the output type of the ufunc's first (double precision) loop
        src = result if result.itemsize > 16 or result == np.longdouble else (
            np.dtype(np.complex128 if result.kind == "c" else np.float64))
        raise TypeError(MESSAGES["out_cast"].format(name=name, src=src, dst=out.dtype))


def _check_broadcast(oshape, shape, axis):
    if any(o != n and n != 1 for d, (o, n) in enumerate(zip(oshape, shape)) if d != axis):
        raise ValueError(MESSAGES["out_broadcast"].format(
            shape=tuple(shape), axis=axis, oshape=tuple(oshape)))


def _check_out(out, shape, axis, result, name, x, ngroups):
    """NumPy's out= checks; returns `out` when the op can write into it directly.

    `out` is checked as NumPy's last 1-D step (over `axis`) checks it, and the result
    broadcasts into it as that step's ufunc broadcasts: ``irfftn(a, s=(1, 4), axes=(0, 1),
    out=np.empty((2, 4)))`` fills both rows. The transforms whose NumPy version ignores
    `out` (ifft2, irfft2, hfft; hfftn, hfft2 as irfftn) check it the same way.
    """
    oshape = out.shape
    # in NumPy's order: _raw_fft's length check, then the ufunc's read-only, cast and
    # broadcast checks
    _check_step_out(oshape, shape, axis, shape[axis])
    _check_out_dtype(out, result, name)
    _check_broadcast(oshape, shape, axis)
    if _is_cupy(out):
        return None
    if (type(out) is np.ndarray and out.dtype == result and oshape == shape
            and not (ngroups == 1 and np.may_share_memory(out, x))):
        return out
    return None


def _copy_into(out, res):
    if isinstance(out, np.ndarray):
        np.copyto(out, res, casting="same_kind")
    else:
        out[...] = res
