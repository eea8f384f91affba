"""torch.fft's n-D Hermitian transforms with NumPy-style signatures: hfft2, hfftn, ihfft2,
ihfftn (the same semantics as scipy.fft.hfftn & co.; NumPy has only the 1-D hfft/ihfft)."""
import numpy as np

from ._nd import _INV_REAL, _TWO, _doc, c2r_steps, r2c_steps
from ._pipeline import asarray, check_norm, cook_nd_args, run

__all__ = ["hfft2", "hfftn", "ihfft2", "ihfftn"]


def hfftn(a, s=None, axes=None, norm=None, out=None):
    """
    Compute the N-dimensional FFT of a Hermitian-symmetric signal (a real spectrum).

    `a` is the one-sided form: along the last axis in `axes` only the first ``n//2 + 1``
    points, as `ihfftn` returns them. ``hfftn(a) == irfftn(conj(a))`` with the
    direction-swapped norm, as torch.fft.hfftn and scipy.fft.hfftn compute it.

{params}

    See Also
    --------
    ihfftn : The inverse of `hfftn`.
    hfft : The one-dimensional version.
    scipy.fft.hfftn

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.hfftn(np.array([[1, 2j], [3, 4]]))
    array([[ 8.,  0.],
           [-6.,  2.]])
    """
    a = asarray(a)
    if a.dtype == np.float16:
        # float32 out for any number of axes, as scipy.fft.hfftn (a single c2r step would
        # keep NumPy's irfft quirk: float16 in, float16 out)
        a = a.astype(np.float32)
    norm = check_norm(norm, inverse=True)
    s, axes = cook_nd_args(a, s, axes, invreal=True)
    return run(a, c2r_steps(s, axes, gets_out=False), norm, True, out)


def hfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """
    Compute the 2-dimensional FFT of a Hermitian-symmetric signal.

{params}

    See Also
    --------
    ihfft2 : The inverse of `hfft2`.
    hfftn : The *n*-dimensional version.
    scipy.fft.hfft2

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.hfft2(F.ihfft2(np.eye(2)))
    array([[1., 0.],
           [0., 1.]])
    """
    return hfftn(a, s, axes, norm, out)


def ihfftn(a, s=None, axes=None, norm=None, out=None):
    """
    Compute the N-dimensional inverse FFT of a real signal (one-sided, Hermitian output).

    Only the first ``n//2 + 1`` points along the last axis in `axes` are returned.
    ``ihfftn(a) == conj(rfftn(a))`` with the direction-swapped norm, as torch.fft.ihfftn and
    scipy.fft.ihfftn compute it.

{params}

    See Also
    --------
    hfftn : The inverse of `ihfftn`.
    ihfft : The one-dimensional version.
    scipy.fft.ihfftn

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.ihfftn(np.array([[1., 2.], [3., 4.]]))
    array([[ 2.5-0.j, -0.5-0.j],
           [-1. -0.j,  0. -0.j]])
    """
    a = asarray(a)
    norm = check_norm(norm, inverse=True)
    s, axes = cook_nd_args(a, s, axes)
    return run(a, r2c_steps(s, axes), norm, False, out)


def ihfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """
    Compute the 2-dimensional inverse FFT of a real signal (one-sided output).

{params}

    See Also
    --------
    hfft2 : The inverse of `ihfft2`.
    ihfftn : The *n*-dimensional version.
    scipy.fft.ihfft2

    Notes
    -----
    {autodiff}

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> F.ihfft2(np.ones((2, 2)))
    array([[1.-0.j, 0.-0.j],
           [0.-0.j, 0.-0.j]])
    """
    return ihfftn(a, s, axes, norm, out)


_HERM = dict(_INV_REAL)
_REAL_A = dict(a_note=" (real; complex input raises ``TypeError``)")
_doc(hfftn, **_HERM)
_doc(hfft2, axes_default=_TWO, **_HERM)
_doc(ihfftn, **_REAL_A)
_doc(ihfft2, axes_default=_TWO, **_REAL_A)
