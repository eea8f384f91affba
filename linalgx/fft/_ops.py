"""The transform core: three linear ops (c2c, r2c, c2r) and a zero-pad/truncate op.

Every public function of :mod:`linalgx.fft` is a plan of these ops (JAX's ``_fft_core``,
NumPy's ``_raw_fft``). Each op transforms over several distinct axes at once and first
pads or truncates the input along them, so one call serves ``fft``, ``fftn``, ``rfftn``, ...

Parameters shared by the ops (all keyword-only):

- ``axes``: distinct NEGATIVE axes, so a cotangent carrying extra leading axes (a batch of
  directions) is transformed along the same axes. For r2c/c2r the real axis is ``axes[-1]``.
  The order is the order of the 1-D passes: c2c and c2r take ``axes`` in order (c2r's real
  axis last), r2c does its real axis first, then ``axes[:-1]`` in order.
- ``lengths``: the logical transform length per axis (NumPy's ``n``/``s``). The input is
  zero-padded or truncated to it first (for c2r: to ``lengths[-1] // 2 + 1`` on the real axis).
- ``norm``: ``"backward"``, ``"ortho"`` or ``"forward"`` as in NumPy, for either direction.
  As in NumPy, each axis is scaled by its own factor (``1/n`` or ``1/sqrt(n)``) right after
  its own 1-D pass, never by the whole product at once: a single pocketfft call over several
  axes would apply the product in one pass and overflow (or underflow) where NumPy does not.
- ``forward``: the sign of the exponent; r2c with ``forward=False`` is ``ihfft``, c2r with
  ``forward=True`` is ``hfft``.
- ``out``: an optional preallocated result (plain arrays only; never inside autodiff).

Backends: ``lapack`` is pocketfft through SciPy (multi-threaded, see ``_config``), ``cupy``
maps to ``cupy.fft``. No numba kernel: pocketfft was faster at every size measured.

Autodiff (every op is linear): for ``y = s F R x`` (``R`` pads or truncates, ``F`` the
unnormalized DFT, ``s`` the norm factor) the adjoint under ``Re<a, b>`` is ``R^T s F^H g``,
i.e. the inverse-direction transform with the direction-swapped norm (backward <-> forward,
ortho unchanged) followed by the opposite resize. For r2c, ``x`` is real, so the cotangent
is ``Re(F^H P^T g)`` where ``P`` keeps the first ``n//2+1`` bins; c2r computes
``Re(F^H P^T (c * z))`` with ``c = 1`` at bin 0 and at the Nyquist bin (even ``n``) and 2
elsewhere, so ``Re(F^H P^T g) = c2r(g / c)``. Conversely the adjoint of c2r is
``c * r2c(g)``.
"""
import numpy as np

from .._core.op import Op
from .._core.xputil import ns
from ._config import threads_for

__all__ = ["c2c", "r2c", "c2r", "resize", "SWAP_NORM", "complex_dtype", "real_dtype"]

SWAP_NORM = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
_INORM = {"backward": 0, "ortho": 1, "forward": 2}  # pocketfft: 1/1, 1/sqrt(N), 1/N
_NORM_NAMES = ("backward", "ortho", "forward")

c2c = Op("fft_c2c", linear=True)
r2c = Op("fft_r2c", linear=True)
c2r = Op("fft_c2r", linear=True)
resize = Op("fft_resize", linear=True)


# -- shapes ---------------------------------------------------------------------------------
_COMPLEX_OF = {}
_REAL_OF = {}


def complex_dtype(dtype):
    """The complex dtype of `dtype`'s precision (float32 -> complex64), cached: hot path."""
    c = _COMPLEX_OF.get(dtype)
    if c is None:
        c = _COMPLEX_OF[dtype] = np.result_type(dtype, np.complex64)
    return c


def real_dtype(dtype):
    """The real dtype of `dtype`'s precision (complex64 -> float32), cached: hot path."""
    r = _REAL_OF.get(dtype)
    if r is None:
        r = _REAL_OF[dtype] = np.finfo(dtype).dtype if dtype.kind == "c" else dtype
    return r


def _resized_shape(shape, axes, lengths):
    shape = list(shape)
    for axis, n in zip(axes, lengths):
        shape[axis] = n
    return tuple(shape)


def _fix_shape(xp, x, axes, lengths):
    """Zero-pad or truncate `x` along `axes` to `lengths` (a view when only truncating)."""
    shape = x.shape
    for a, n in zip(axes, lengths):
        if shape[a] != n:
            break
    else:
        return x
    index = [slice(None)] * x.ndim
    pad = False
    for axis, n in zip(axes, lengths):
        index[axis] = slice(0, min(n, shape[axis]))
        pad = pad or n > shape[axis]
    index = tuple(index)
    if not pad:
        return x[index]
    z = xp.zeros_like(x, shape=_resized_shape(shape, axes, lengths))
    z[index] = x[index]
    return z


def _half_lengths(lengths):
    return tuple(lengths[:-1]) + (lengths[-1] // 2 + 1,)


# -- pocketfft through SciPy ----------------------------------------------------------------
class _PublicScipy:
    """pypocketfft's call signatures on top of ``scipy.fft``'s public functions.

    Used only if a SciPy release drops its private ``pypocketfft`` module; it costs an extra
    copy into ``out``.
    """

    @staticmethod
    def _norm(forward, inorm):
        return _NORM_NAMES[inorm if forward else 2 - inorm]

    @staticmethod
    def c2c(a, axes, forward, inorm, out, nthreads):
        import scipy.fft as sf
        f = sf.fftn if forward else sf.ifftn
        return _into(out, f(a, axes=axes, norm=_PublicScipy._norm(forward, inorm),
                            workers=nthreads))

    @staticmethod
    def r2c(a, axes, forward, inorm, out, nthreads):
        import scipy.fft as sf
        f = sf.rfftn if forward else sf.ihfftn
        return _into(out, f(a, axes=axes, norm=_PublicScipy._norm(forward, inorm),
                            workers=nthreads))

    @staticmethod
    def c2r(a, axes, lastsize, forward, inorm, out, nthreads):
        import scipy.fft as sf
        f = sf.hfftn if forward else sf.irfftn
        s = [a.shape[axis] for axis in axes[:-1]] + [lastsize]
        return _into(out, f(a, s=s, axes=axes, norm=_PublicScipy._norm(forward, inorm),
                            workers=nthreads))


_pocketfft_module = None


def pocketfft():
    """SciPy's pypocketfft extension (multi-axis, ``out=``, ``nthreads``), else the shim."""
    global _pocketfft_module
    if _pocketfft_module is None:
        try:
            from scipy.fft._pocketfft import pypocketfft as module
            if not all(hasattr(module, f) for f in ("c2c", "r2c", "c2r")):
                module = _PublicScipy
        except ImportError:
            module = _PublicScipy
        _pocketfft_module = module
    return _pocketfft_module


def _into(out, res):
    if out is None:
        return res
    out[...] = res
    return out


def _inorm(norm, forward):
    i = _INORM[norm]
    return i if forward else 2 - i


def _c2c_passes(x, axes, forward, inorm, out, nthreads):
    """pocketfft's c2c over `axes` in order, into `out`. A scaled transform (``inorm != 0``)
    runs one call per axis, the first from `x` into `out`, the next ones in place, each
    scaled by its own axis' factor after its pass (pocketfft's multi-axis call would scale by
    the product in the first pass, NumPy scales each pass). The factor is folded into the
    pass: no extra sweep over the data."""
    pf = pocketfft()
    if inorm == 0 or len(axes) == 1:
        return pf.c2c(x, axes, forward, inorm, out, nthreads)
    for axis in axes:
        x = pf.c2c(x, (axis,), forward, inorm, out, nthreads)
    return x


@c2c.impl("lapack")
def _c2c_lapack(x, *, axes, lengths, norm, forward, out=None):
    if out is None:  # allocated first, in x's memory layout, as NumPy does
        out = np.empty_like(x, shape=_resized_shape(x.shape, axes, lengths),
                            dtype=complex_dtype(x.dtype))
    x = _fix_shape(np, x, axes, lengths)
    return _c2c_passes(x, axes, forward, _inorm(norm, forward), out,
                       threads_for(max(x.size, out.size)))


@r2c.impl("lapack")
def _r2c_lapack(x, *, axes, lengths, norm, forward, out=None):
    if out is None:
        out = np.empty_like(x, shape=_resized_shape(x.shape, axes, _half_lengths(lengths)),
                            dtype=complex_dtype(x.dtype))
    x = _fix_shape(np, x, axes, lengths)
    # ihfft as NumPy computes it, conj(rfft(x)) with the swapped norm (the same inorm code),
    # so that signed zeros match: pocketfft's backward r2c gives +0 where NumPy gives -0
    inorm = _inorm(norm, forward)
    nthreads = threads_for(x.size)
    if inorm == 0 or len(axes) == 1:
        res = pocketfft().r2c(x, axes, True, inorm, out, nthreads)
    else:  # the real axis, then the others in order, each scaled after its own pass
        res = pocketfft().r2c(x, axes[-1:], True, inorm, out, nthreads)
        res = _c2c_passes(res, axes[:-1], True, inorm, res, threads_for(res.size))
    return res if forward else np.conjugate(res, out=res)


@c2r.impl("lapack")
def _c2r_lapack(x, *, axes, lengths, norm, forward, out=None):
    if x.dtype.kind != "c":  # e.g. a real cotangent pulled back through rfft
        x = x.astype(complex_dtype(x.dtype))
    if out is None:
        out = np.empty_like(x, shape=_resized_shape(x.shape, axes, lengths),
                            dtype=real_dtype(x.dtype))
    x = _fix_shape(np, x, axes, _half_lengths(lengths))
    inorm = _inorm(norm, forward)
    nthreads = threads_for(out.size)
    if inorm != 0 and len(axes) > 1:  # the complex axes in order, then the real one, each
        # scaled after its own pass (the multi-axis call scales by the product at the end)
        x = _c2c_passes(x, axes[:-1], forward, inorm, np.empty_like(x), threads_for(x.size))
        axes = axes[-1:]
    return pocketfft().c2r(x, axes, lengths[-1], forward, inorm, out, nthreads)


@resize.impl("lapack")
def _resize_lapack(x, *, axes, lengths):
    return _fix_shape(np, x, axes, lengths)


# -- CuPy (written against cupy.fft's NumPy-compatible API; not testable without a GPU) ----
@c2c.impl("cupy")
def _c2c_cupy(x, *, axes, lengths, norm, forward, out=None):
    import cupy
    f = cupy.fft.fftn if forward else cupy.fft.ifftn
    return _into(out, f(x, s=lengths, axes=axes, norm=norm))


@r2c.impl("cupy")
def _r2c_cupy(x, *, axes, lengths, norm, forward, out=None):
    import cupy
    if forward:
        return _into(out, cupy.fft.rfftn(x, s=lengths, axes=axes, norm=norm))
    # ihfftn = conj(rfftn) with the direction-swapped norm, as numpy.fft.ihfft computes it
    y = cupy.fft.rfftn(x, s=lengths, axes=axes, norm=SWAP_NORM[norm])
    return _into(out, cupy.conj(y, out=y))


@c2r.impl("cupy")
def _c2r_cupy(x, *, axes, lengths, norm, forward, out=None):
    import cupy
    if forward:  # hfftn = irfftn(conj(x)) with the direction-swapped norm
        x, norm = cupy.conj(x), SWAP_NORM[norm]
    return _into(out, cupy.fft.irfftn(x, s=lengths, axes=axes, norm=norm))


@resize.impl("cupy")
def _resize_cupy(x, *, axes, lengths):
    import cupy
    return _fix_shape(cupy, x, axes, lengths)


# -- autodiff -------------------------------------------------------------------------------
def _resize_like(xp, v, axes, x):
    """Undo the op's pad/truncate: bring `v` back to `x`'s lengths along `axes`."""
    lengths = tuple(x.shape[a] for a in axes)
    if tuple(v.shape[a] for a in axes) == lengths:
        return v
    return resize(v, axes=axes, lengths=lengths)


def _hermitian_weights(like, axis, n, interior):
    """1 at bin 0 and at the Nyquist bin of an even `n`, `interior` elsewhere, shaped to
    broadcast along `axis` (negative) of the half spectrum `like`. A constant: built in the
    array namespace of the data (numpy or cupy), outside any trace."""
    xpn = ns(like)
    h = n // 2 + 1
    k = xpn.arange(h)
    w = xpn.where((k == 0) | (2 * k == n), 1.0, interior).astype(real_dtype(like.dtype))
    return w.reshape((h,) + (1,) * (-axis - 1))


@c2c.def_adjoint
def _c2c_adjoint(xp, g, x, *, axes, lengths, norm, forward, out=None):
    gx = c2c(g, axes=axes, lengths=lengths, norm=SWAP_NORM[norm], forward=not forward)
    gx = _resize_like(xp, gx, axes, x)
    if x.dtype.kind != "c":
        gx = xp.real(gx)
    return (gx,)


@r2c.def_adjoint
def _r2c_adjoint(xp, g, x, *, axes, lengths, norm, forward, out=None):
    gw = g * _hermitian_weights(g, axes[-1], lengths[-1], 0.5)
    gx = c2r(gw, axes=axes, lengths=lengths, norm=SWAP_NORM[norm], forward=not forward)
    return (_resize_like(xp, gx, axes, x),)


@c2r.def_adjoint
def _c2r_adjoint(xp, g, x, *, axes, lengths, norm, forward, out=None):
    if g.dtype.kind == "c":  # the output is real: only the real part of a cotangent counts
        g = xp.real(g)
    gz = r2c(g, axes=axes, lengths=lengths, norm=SWAP_NORM[norm], forward=not forward)
    gz = gz * _hermitian_weights(gz, axes[-1], lengths[-1], 2.0)
    return (_resize_like(xp, gz, axes, x),)


@resize.def_adjoint
def _resize_adjoint(xp, g, x, *, axes, lengths):
    return (_resize_like(xp, g, axes, x),)
