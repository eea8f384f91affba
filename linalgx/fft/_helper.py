"""fftfreq, rfftfreq, fftshift, ifftshift (``numpy/fft/_helper.py``, same code paths)."""
import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .._core.box import Box
from ._messages import MESSAGES
from ._pipeline import asarray

__all__ = ["fftshift", "ifftshift", "fftfreq", "rfftfreq"]

_INTEGER_TYPES = (int, np.integer)


def fftshift(x, axes=None):
    """
    Shift the zero-frequency component to the center of the spectrum.

    Swaps half-spaces for all axes listed (defaults to all). ``y[0]`` is the Nyquist
    component only if ``len(x)`` is even.

    Parameters
    ----------
    x : array_like
        Input array.
    axes : int or shape tuple, optional
        Axes over which to shift. Default is None, which shifts all axes.

    Returns
    -------
    y : ndarray
        The shifted array.

    See Also
    --------
    ifftshift : The inverse of `fftshift`.
    numpy.fft.fftshift

    Notes
    -----
    Autodiff: a permutation; differentiable (the VJP is the opposite shift).

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.fftshift(F.fftfreq(5, d=0.2))
    array([-2., -1.,  0.,  1.,  2.])
    """
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [dim // 2 for dim in x.shape]
    elif isinstance(axes, _INTEGER_TYPES):
        shift = x.shape[axes] // 2
    else:
        shift = [x.shape[ax] // 2 for ax in axes]
    return _roll(x, shift, axes)


def ifftshift(x, axes=None):
    """
    The inverse of `fftshift`. Although identical for even-length `x`, the functions differ
    by one sample for odd-length `x`.

    Parameters
    ----------
    x : array_like
        Input array.
    axes : int or shape tuple, optional
        Axes over which to calculate. Defaults to None, which shifts all axes.

    Returns
    -------
    y : ndarray
        The shifted array.

    See Also
    --------
    fftshift : Shift zero-frequency component to the center of the spectrum.
    numpy.fft.ifftshift

    Notes
    -----
    Autodiff: a permutation; differentiable (the VJP is the opposite shift).

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.ifftshift(F.fftshift([0, 1, 2, 3, 4]))
    array([0, 1, 2, 3, 4])
    """
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [-(dim // 2) for dim in x.shape]
    elif isinstance(axes, _INTEGER_TYPES):
        shift = -(x.shape[axes] // 2)
    else:
        shift = [-(x.shape[ax] // 2) for ax in axes]
    return _roll(x, shift, axes)


def _roll(x, shift, axes):
    """``numpy.roll``; on an autodiff Box, as slices and a concatenation (differentiable)."""
    if not isinstance(x, Box):
        return np.roll(x, shift, axes)
    from .._core import basic as xp
    total = {}
    for sh, ax in np.broadcast(shift, axes):
        ax = normalize_axis_index(int(ax), x.ndim) - x.ndim  # negative: batch-safe
        total[ax] = total.get(ax, 0) + int(sh)
    for ax, sh in total.items():
        n = x.shape[ax]
        sh = sh % n if n else 0
        if sh:
            tail = (slice(None),) * (-ax - 1)
            x = xp.concatenate([x[(..., slice(n - sh, None)) + tail],
                                x[(..., slice(0, n - sh)) + tail]], axis=ax)
    return x


def fftfreq(n, d=1.0, device=None):
    """
    Return the Discrete Fourier Transform sample frequencies.

    ``f = [0, 1, ...,   n/2-1,     -n/2, ..., -1] / (d*n)`` if `n` is even,
    ``f = [0, 1, ..., (n-1)/2, -(n-1)/2, ..., -1] / (d*n)`` if `n` is odd.

    Parameters
    ----------
    n : int
        Window length.
    d : scalar, optional
        Sample spacing (inverse of the sampling rate). Defaults to 1.
    device : str, optional
        The device on which to place the created array. Default: None. For Array-API
        interoperability only, so must be ``"cpu"`` if passed.

    Returns
    -------
    f : ndarray
        Array of length `n` containing the sample frequencies.

    Raises
    ------
    ValueError
        If `n` is not an integer.
    ZeroDivisionError
        If `n` or `d` is 0.

    See Also
    --------
    rfftfreq : The frequencies of `rfft`.
    numpy.fft.fftfreq

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.fftfreq(8, d=0.125)
    array([ 0.,  1.,  2.,  3., -4., -3., -2., -1.])
    """
    if not isinstance(n, _INTEGER_TYPES):
        raise ValueError(MESSAGES["fftfreq_n"])
    val = 1.0 / (n * d)
    results = np.empty(n, int, device=device)
    N = (n - 1) // 2 + 1
    results[:N] = np.arange(0, N, dtype=int, device=device)
    results[N:] = np.arange(-(n // 2), 0, dtype=int, device=device)
    return results * val


def rfftfreq(n, d=1.0, device=None):
    """
    Return the Discrete Fourier Transform sample frequencies (for usage with rfft, irfft).

    ``f = [0, 1, ..., n/2-1, n/2] / (d*n)`` if `n` is even,
    ``f = [0, 1, ..., (n-1)/2-1, (n-1)/2] / (d*n)`` if `n` is odd.

    Parameters
    ----------
    n : int
        Window length.
    d : scalar, optional
        Sample spacing (inverse of the sampling rate). Defaults to 1.
    device : str, optional
        The device on which to place the created array. Default: None. For Array-API
        interoperability only, so must be ``"cpu"`` if passed.

    Returns
    -------
    f : ndarray
        Array of length ``n//2 + 1`` containing the sample frequencies.

    Raises
    ------
    ValueError
        If `n` is not an integer.
    ZeroDivisionError
        If `n` or `d` is 0.

    See Also
    --------
    fftfreq : The frequencies of `fft`.
    numpy.fft.rfftfreq

    Examples
    --------
    >>> import linalgx.fft as F
    >>> F.rfftfreq(8, d=0.125)
    array([0., 1., 2., 3., 4.])
    """
    if not isinstance(n, _INTEGER_TYPES):
        raise ValueError(MESSAGES["fftfreq_n"])
    val = 1.0 / (n * d)
    N = n // 2 + 1
    return np.arange(0, N, dtype=int, device=device) * val
