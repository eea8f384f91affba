"""
Discrete Fourier Transform: a drop-in for :mod:`numpy.fft`.

Every name of ``numpy.fft`` with NumPy's signature, dtype rules (float32 in, complex64
out; longdouble in, clongdouble out; ``irfft``/``hfft`` of float16 give float16),
``out=``, errors and messages, plus torch.fft's n-D Hermitian transforms (``hfft2``,
``hfftn``, ``ihfft2``, ``ihfftn``) with NumPy-style signatures.

All transforms are plans of one transform core (complex-to-complex, real-to-complex,
complex-to-real ops, each over several axes, in NumPy's order of the axes and with NumPy's
per-axis scaling), computed by pocketfft through SciPy (multi-threaded for large inputs, see
`set_workers`) for NumPy arrays and by ``cupy.fft`` for CuPy arrays. Every transform is
linear and differentiable in forward and reverse mode (``linalgx.grad``, ``vjp``, ``jvp``,
...). Unlike NumPy's ufuncs, the transforms emit no floating-point RuntimeWarnings (NumPy's
"invalid value encountered in irfft" for some inf inputs): SciPy's pocketfft does not report
the FP status, and reading it here would cost a small transform a fifth of its time.
Single-precision input runs in single precision, except into a double (or longdouble)
``out=``, where it runs in double as NumPy's does. (NumPy also runs some other
single-precision transforms in double, an accident of its ufunc loop order: real float32
input to the complex transforms, complex64 ones without a norm factor. linalgx does not, so
within a factor n of float32's maximum a transform can overflow where NumPy's does not.)

Standard FFTs: fft, ifft, fft2, ifft2, fftn, ifftn.
Real FFTs: rfft, irfft, rfft2, irfft2, rfftn, irfftn.
Hermitian FFTs: hfft, ihfft, hfft2, ihfft2, hfftn, ihfftn.
Helper routines: fftfreq, rfftfreq, fftshift, ifftshift.
Threads: set_workers, get_workers, workers (SciPy's ``workers=`` is not on the transforms,
whose signatures are NumPy's).

A call with a duck array (a type overriding ``__array_function__``, NEP 18) goes where
``numpy.fft``'s would: to that type's implementation, through NumPy's function.

Examples
--------
>>> import numpy as np
>>> import linalgx.fft as F
>>> x = np.array([1.0, 2.0, 1.0, -1.0, 1.5])
>>> np.allclose(F.ifft(F.fft(x)), x)
True
"""
from .._core.overrides import deferring as _deferring
from .._core.overrides import naming as _naming
from ._basic import fft, hfft, ifft, ihfft, irfft, rfft
from ._config import get_workers, set_workers, workers
from ._helper import fftfreq, fftshift, ifftshift, rfftfreq
from ._hermitian import hfft2, hfftn, ihfft2, ihfftn
from ._nd import fft2, fftn, ifft2, ifftn, irfft2, irfftn, rfft2, rfftn

# NEP 18: a call with a duck array goes to NumPy's function, which hands it to that type
fft, ifft, rfft, irfft, hfft, ihfft, rfftn, irfftn, rfft2, irfft2, fft2, ifft2, fftn, ifftn = (
    _deferring(f, "numpy.fft._pocketfft", f.__name__) for f in (
        fft, ifft, rfft, irfft, hfft, ihfft, rfftn, irfftn, rfft2, irfft2, fft2, ifft2, fftn,
        ifftn))
fftshift, ifftshift, fftfreq, rfftfreq = (_deferring(f, "numpy.fft._helper", f.__name__)
                                           for f in (fftshift, ifftshift, fftfreq, rfftfreq))
# torch.fft's extras: no NumPy function to defer to, but their errors name them too
hfft2, hfftn, ihfft2, ihfftn = (_naming(f, f.__name__) for f in (hfft2, hfftn, ihfft2, ihfftn))

# numpy.fft.__all__'s order, then the torch.fft extras, then the thread controls
__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "rfftn", "irfftn", "rfft2",
           "irfft2", "fft2", "ifft2", "fftn", "ifftn", "fftshift", "ifftshift", "fftfreq",
           "rfftfreq", "hfft2", "hfftn", "ihfft2", "ihfftn", "set_workers", "get_workers",
           "workers"]
