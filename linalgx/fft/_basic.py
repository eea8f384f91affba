"""The 1-D transforms: fft, ifft, rfft, irfft, hfft, ihfft (NumPy's signatures and rules)."""
import numpy as np

from ._pipeline import asarray, axis_length, check_norm, run

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]

_AUTODIFF = """
    Autodiff: linear in `a`; the JVP is the same transform of the tangent and the VJP the
    adjoint transform (inverse direction, direction-swapped `norm`, padding and truncation
    exchanged).{extra}"""
_ZERO_GRAD = ("\n    The imaginary parts of the zero and (even `n`) Nyquist terms get zero "
              "gradient\n    (the transform ignores them).")


def fft(a, n=None, axis=-1, norm=None, out=None):
    """
    Compute the one-dimensional discrete Fourier Transform.

    Parameters
    ----------
    a : array_like
        Input array, can be complex.
    n : int, optional
        Length of the transformed axis of the output. If `n` is smaller than the length of
        the input, the input is cropped; if larger, it is padded with zeros. Default: the
        length of the input along `axis`.
    axis : int, optional
        Axis over which to compute the FFT. Default: the last axis.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode (see `numpy.fft`). Default is "backward" (no scaling forward).
    out : complex ndarray, optional
        If provided, the result is placed in this array. It must have the result's shape
        and a dtype the result casts to under ``same_kind``.

    Returns
    -------
    out : complex ndarray
        The truncated or zero-padded input, transformed along `axis`. float32/complex64
        (and float16) inputs give complex64, longdouble gives clongdouble, everything else
        complex128.

    Raises
    ------
    IndexError
        If `axis` is not a valid axis of `a` (an ``AxisError``, which is also an IndexError
        and starts with NumPy's message).
    ValueError
        If ``n < 1`` or `norm` is not one of the three modes.

    See Also
    --------
    ifft : The inverse of `fft`.
    fftn : The *n*-dimensional FFT.
    numpy.fft.fft

    Notes
    -----
    Computed by pocketfft (through SciPy), multi-threaded for large batches; see
    `set_workers`.
    {autodiff}

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.fft([0, 1, 0, 0])
    array([ 1.+0.j,  0.-1.j, -1.+0.j,  0.+1.j])
    """
    a = asarray(a)
    if n is None:
        n = axis_length(a, axis)
    return run(a, [("c2c", axis, n, True)], norm, True, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """
    Compute the one-dimensional inverse discrete Fourier Transform.

    ``ifft(fft(a)) == a`` to within numerical accuracy. The input is ordered as `fft`
    returns it: the zero frequency first, then the positive, then the negative frequencies.

    Parameters
    ----------
    a : array_like
        Input array, can be complex.
    n : int, optional
        Length of the transformed axis of the output; the input is cropped or zero-padded
        (at the end) to it. Default: the length of the input along `axis`.
    axis : int, optional
        Axis over which to compute the inverse DFT. Default: the last axis.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode. Default "backward" (scaling by ``1/n`` here).
    out : complex ndarray, optional
        If provided, the result is placed in this array.

    Returns
    -------
    out : complex ndarray
        The truncated or zero-padded input, transformed along `axis`.

    Raises
    ------
    IndexError
        If `axis` is not a valid axis of `a`.
    ValueError
        If ``n < 1`` or `norm` is invalid.

    See Also
    --------
    fft : The forward transform.
    ifftn : The *n*-dimensional inverse FFT.
    numpy.fft.ifft

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.ifft([0, 4, 0, 0])
    array([ 1.+0.j,  0.+1.j, -1.+0.j,  0.-1.j])
    """
    a = asarray(a)
    if n is None:
        n = axis_length(a, axis)
    return run(a, [("c2c", axis, n, True)], norm, False, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """
    Compute the one-dimensional discrete Fourier Transform for real input.

    Parameters
    ----------
    a : array_like
        Real input array (complex input raises ``TypeError``, as in NumPy).
    n : int, optional
        Number of points along the transformation axis of the input to use; the input is
        cropped or zero-padded to it. Default: the length of the input along `axis`.
    axis : int, optional
        Axis over which to compute the FFT. Default: the last axis.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode. Default "backward".
    out : complex ndarray, optional
        If provided, the result is placed in this array.

    Returns
    -------
    out : complex ndarray
        The non-negative frequency terms: ``n//2 + 1`` of them along `axis`.

    Raises
    ------
    IndexError
        If `axis` is not a valid axis of `a`.
    TypeError
        If `a` is complex.
    ValueError
        If ``n < 1`` or `norm` is invalid.

    See Also
    --------
    irfft : The inverse of `rfft`.
    rfftn : The *n*-dimensional FFT of real input.
    numpy.fft.rfft

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.rfft([0, 1, 0, 0])
    array([ 1.+0.j,  0.-1.j, -1.+0.j])
    """
    a = asarray(a)
    if n is None:
        n = axis_length(a, axis)
    return run(a, [("r2c", axis, n, True)], norm, True, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """
    Compute the inverse of `rfft`.

    ``irfft(rfft(a), len(a)) == a`` to within numerical accuracy. The input is a half
    spectrum; the negative frequencies are taken to be the complex conjugates of the
    positive ones, and the imaginary parts of the zero and (even `n`) Nyquist terms are
    ignored.

    Parameters
    ----------
    a : array_like
        The input half spectrum.
    n : int, optional
        Length of the transformed axis of the output; ``n//2 + 1`` input points are used
        (cropped or zero-padded). Default ``2*(m - 1)`` with ``m`` the input length, so an
        odd output length must be given explicitly.
    axis : int, optional
        Axis over which to compute the inverse FFT. Default: the last axis.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode. Default "backward".
    out : ndarray, optional
        If provided, the result is placed in this array.

    Returns
    -------
    out : ndarray
        Real, of length `n` along `axis`. complex64 gives float32, float16 gives float16.

    Raises
    ------
    IndexError
        If `axis` is not a valid axis of `a`.
    ValueError
        If ``n < 1`` (also for a length-1 input without `n`) or `norm` is invalid.

    See Also
    --------
    rfft : The forward transform.
    irfftn : The inverse of `rfftn`.
    numpy.fft.irfft

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.irfft([1, -1j, -1])
    array([0., 1., 0., 0.])
    """
    a = asarray(a)
    if n is None:
        n = (axis_length(a, axis) - 1) * 2
    return run(a, [("c2r", axis, n, True)], norm, False, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """
    Compute the FFT of a signal that has Hermitian symmetry, i.e., a real spectrum.

    Parameters
    ----------
    a : array_like
        The first half of a Hermitian-symmetric signal (``n//2 + 1`` points used).
    n : int, optional
        Length of the transformed axis of the output. Default ``2*(m - 1)`` with ``m`` the
        input length.
    axis : int, optional
        Axis over which to compute the FFT. Default: the last axis.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode. Default "backward".
    out : ndarray, optional
        If provided, the result is placed in this array. NumPy 2.4 accepts but ignores
        `out` here; linalgx fills and returns it.

    Returns
    -------
    out : ndarray
        Real, of length `n` along `axis`.

    Raises
    ------
    IndexError
        If `axis` is not a valid axis of `a`.
    ValueError
        If ``n < 1`` or `norm` is invalid.

    See Also
    --------
    ihfft : The inverse of `hfft`.
    hfftn : The *n*-dimensional version (torch.fft.hfftn's semantics).
    numpy.fft.hfft

    Notes
    -----
    ``hfft(a, n) == irfft(conj(a), n)`` with the direction-swapped norm.
    {autodiff}

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.hfft([1, 2, 3])
    array([ 8., -2.,  0., -2.])
    """
    a = asarray(a)
    if n is None:
        n = (axis_length(a, axis) - 1) * 2
    norm = check_norm(norm, inverse=True)
    if a.dtype.kind not in "biufc":  # NumPy conjugates before irfft checks n: its TypeError
        # for str, datetime, ... comes first; an object array's elements decide its own
        np.conjugate(a if a.dtype.kind == "O" else np.empty(0, a.dtype))
    if type(a) is np.ndarray and 0 in a.strides:
        # NumPy transforms conjugate(a), a ufunc result: C-ordered for broadcast input
        a = np.ascontiguousarray(a)
    return run(a, [("c2r", axis, n, False)], norm, True, out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """
    Compute the inverse FFT of a signal that has Hermitian symmetry.

    Parameters
    ----------
    a : array_like
        Real input array.
    n : int, optional
        Length of the inverse FFT, the number of points along the axis of the input to use
        (cropped or zero-padded). Default: the input length.
    axis : int, optional
        Axis over which to compute the inverse FFT. Default: the last axis.
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode. Default "backward" (scaling by ``1/n``).
    out : complex ndarray, optional
        If provided, the result is placed in this array.

    Returns
    -------
    out : complex ndarray
        ``n//2 + 1`` terms along `axis`.

    Raises
    ------
    IndexError
        If `axis` is not a valid axis of `a`.
    TypeError
        If `a` is complex.
    ValueError
        If ``n < 1`` or `norm` is invalid.

    See Also
    --------
    hfft : The forward transform.
    ihfftn : The *n*-dimensional version.
    numpy.fft.ihfft

    Notes
    -----
    ``ihfft(a, n) == conj(rfft(a, n))`` with the direction-swapped norm.
    {autodiff}

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.ihfft([1., 2., 3., 2.])
    array([ 2. -0.j, -0.5-0.j,  0. -0.j])
    """
    a = asarray(a)
    if n is None:
        n = axis_length(a, axis)
    norm = check_norm(norm, inverse=True)
    return run(a, [("r2c", axis, n, True)], norm, False, out)


for _f, _extra in ((fft, ""), (ifft, ""), (rfft, ""), (irfft, _ZERO_GRAD), (hfft, _ZERO_GRAD),
                   (ihfft, "")):
    _f.__doc__ = _f.__doc__.replace("{autodiff}", _AUTODIFF.format(extra=_extra).strip())
del _f, _extra
