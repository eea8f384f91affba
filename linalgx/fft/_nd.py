"""The n-D transforms: fftn, ifftn, fft2, ifft2, rfftn, irfftn, rfft2, irfft2.

As in NumPy, the 2-D routines are the n-D ones with ``axes=(-2, -1)``; repeated axes are
transformed repeatedly, ``axes=()`` returns the input itself.
"""
from ._pipeline import asarray, cook_nd_args, run

__all__ = ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "rfft2", "irfft2",
           "c2c_steps", "r2c_steps", "c2r_steps"]


def c2c_steps(s, axes, gets_out=True):
    """NumPy's ``_raw_fftnd``: the last axis first."""
    return [("c2c", axes[i], s[i], gets_out) for i in range(len(axes) - 1, -1, -1)]


def r2c_steps(s, axes):
    """NumPy's ``rfftn``: the real transform on ``axes[-1]``, then the others backwards."""
    n = s[-1]  # evaluated before axes[-1], as in NumPy (same IndexError for axes=())
    first = ("r2c", axes[-1], n, True)
    return [first] + [("c2c", axes[i], s[i], True) for i in range(len(axes) - 2, -1, -1)]


def c2r_steps(s, axes, gets_out=True):
    """NumPy's ``irfftn``: the complex axes in order, then the real one; only that gets out."""
    steps = [("c2c", axes[i], s[i], False) for i in range(len(axes) - 1)]
    n = s[-1]
    return steps + [("c2r", axes[-1], n, gets_out)]


_PARAMS = """
    Parameters
    ----------
    a : array_like
        Input array{a_note}.
    s : sequence of ints, optional
        Shape (length of each transformed axis) of the output. Along any axis, if the
        given shape is smaller than that of the input, the input is cropped; if larger,
        it is padded with zeros. ``-1`` means the input's own length. Default: the
        input's shape along `axes`. Passing `s` without `axes` is deprecated (NumPy 2.0).{s_extra}
    axes : sequence of ints, optional
        Axes over which to compute the transform; repeated axes are transformed
        repeatedly, as in NumPy. {axes_default}
    norm : {{"backward", "ortho", "forward"}}, optional
        Normalization mode (see `numpy.fft`). Default "backward".
    out : {out_type}, optional
        If provided, the result is placed in this array; it must have the result's
        shape.{out_note}

    Returns
    -------
    out : {out_type}
        The truncated or zero-padded input, transformed along `axes`.

    Raises
    ------
    ValueError
        If `s` and `axes` have different lengths, or an entry of `s` is below 1.
    IndexError
        If an element of `axes` is out of range (an ``AxisError``, also an IndexError,
        starting with NumPy's message).
"""

_NOTES = """
    Autodiff: linear in `a`; the VJP is the adjoint transform (inverse direction,
    direction-swapped `norm`, padding and truncation exchanged).{extra}"""
_ZERO_GRAD = ("\n    The imaginary parts of the zero and Nyquist terms of the last axis get "
              "zero\n    gradient (the transform ignores them).")


def _doc(fn, **fields):
    fields.setdefault("a_note", ", can be complex")
    fields.setdefault("s_extra", "")
    fields.setdefault("axes_default",
                      "Default: all axes (the last ``len(s)`` if `s`\n        is given).")
    fields.setdefault("out_type", "complex ndarray")
    fields.setdefault("out_note", "")
    fn.__doc__ = (fn.__doc__.replace("{params}", _PARAMS.format(**fields).strip("\n"))
                  .replace("{autodiff}", _NOTES.format(extra=fields.get("extra", "")).strip()))


def fftn(a, s=None, axes=None, norm=None, out=None):
    """
    Compute the N-dimensional discrete Fourier Transform.

{params}

    See Also
    --------
    ifftn : The inverse of `fftn`.
    fft : The one-dimensional FFT.
    rfftn : The *n*-dimensional FFT of real input.
    numpy.fft.fftn

    Notes
    -----
    The axes are transformed in NumPy's order (the last one first), each scaled by its
    own factor right after its pass as in NumPy, so nothing overflows where NumPy's
    result is finite; unscaled transforms run as one multi-axis pocketfft call.
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.fftn(np.ones((2, 2, 2)))[0, 0, 0]
    np.complex128(8+0j)
    """
    a = asarray(a)
    s, axes = cook_nd_args(a, s, axes)
    return run(a, c2c_steps(s, axes), norm, True, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """
    Compute the N-dimensional inverse discrete Fourier Transform.

{params}

    See Also
    --------
    fftn : The forward transform.
    ifft : The one-dimensional inverse FFT.
    numpy.fft.ifftn

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> x = np.arange(8.).reshape(2, 2, 2)
    >>> np.allclose(F.ifftn(F.fftn(x)), x)
    True
    """
    a = asarray(a)
    s, axes = cook_nd_args(a, s, axes)
    return run(a, c2c_steps(s, axes), norm, False, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """
    Compute the 2-dimensional discrete Fourier Transform.

{params}

    See Also
    --------
    ifft2 : The inverse of `fft2`.
    fftn : The *n*-dimensional FFT.
    numpy.fft.fft2

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.fft2(np.arange(4.).reshape(2, 2))
    array([[ 6.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """
    a = asarray(a)
    s, axes = cook_nd_args(a, s, axes)
    return run(a, c2c_steps(s, axes), norm, True, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """
    Compute the 2-dimensional inverse discrete Fourier Transform.

{params}

    See Also
    --------
    fft2 : The forward transform.
    ifftn : The *n*-dimensional inverse FFT.
    numpy.fft.ifft2

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.ifft2(4 * np.eye(2)).real
    array([[2., 0.],
           [0., 2.]])
    """
    a = asarray(a)
    s, axes = cook_nd_args(a, s, axes)
    return run(a, c2c_steps(s, axes, gets_out=False), norm, False, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """
    Compute the N-dimensional discrete Fourier Transform for real input.

{params}

    See Also
    --------
    irfftn : The inverse of `rfftn`.
    fftn : The *n*-dimensional FFT of general input.
    numpy.fft.rfftn

    Notes
    -----
    The real transform is done over the last axis in `axes`, then the complex transforms
    over the others.
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.rfftn(np.ones((2, 4)))
    array([[8.+0.j, 0.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j, 0.+0.j]])
    """
    a = asarray(a)
    s, axes = cook_nd_args(a, s, axes)
    return run(a, r2c_steps(s, axes), norm, True, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """
    Computes the inverse of `rfftn`.

{params}

    See Also
    --------
    rfftn : The forward transform.
    irfft : The one-dimensional inverse of real input.
    numpy.fft.irfftn

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> x = np.arange(8.).reshape(2, 4)
    >>> np.allclose(F.irfftn(F.rfftn(x)), x)
    True
    """
    a = asarray(a)
    s, axes = cook_nd_args(a, s, axes, invreal=True)
    return run(a, c2r_steps(s, axes), norm, False, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """
    Compute the 2-dimensional FFT of a real array.

{params}

    See Also
    --------
    irfft2 : The inverse of `rfft2`.
    rfftn : The *n*-dimensional version.
    numpy.fft.rfft2

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.rfft2(np.ones((2, 2)))
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return rfftn(a, s, axes, norm, out=out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """
    Computes the inverse of `rfft2`.

{params}

    See Also
    --------
    rfft2 : The forward transform.
    irfftn : The *n*-dimensional version.
    numpy.fft.irfft2

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.irfft2(F.rfft2(np.eye(2)))
    array([[1., 0.],
           [0., 1.]])
    """
    a = asarray(a)
    s, axes = cook_nd_args(a, s, axes, invreal=True)
    return run(a, c2r_steps(s, axes, gets_out=False), norm, False, out)


_IGNORED = ("\n        NumPy 2.4 accepts but ignores `out` here; linalgx fills and returns it.")
_REAL_A = dict(a_note=" (real; complex input raises ``TypeError``)")
_INV_REAL = dict(s_extra=("\n        Along the last axis ``s[-1]//2 + 1`` input points are used; "
                          "the default last\n        length is ``2*(m - 1)``."),
                 out_type="ndarray", extra=_ZERO_GRAD)
_TWO = "Default: the last two axes."
_doc(fftn)
_doc(ifftn)
_doc(fft2, axes_default=_TWO)
_doc(ifft2, axes_default=_TWO, out_note=_IGNORED)
_doc(rfftn, **_REAL_A)
_doc(rfft2, axes_default=_TWO, **_REAL_A)
_doc(irfftn, **_INV_REAL)
_doc(irfft2, axes_default=_TWO, out_note=_IGNORED, **_INV_REAL)
