"""Scalar helpers shared by the kernels (real and complex alike)."""
import numpy as np
from numba import njit, types
from numba.extending import overload


@njit(cache=True, nogil=True)
def cabs1(x):
    """Pivot magnitude: ``|x|`` for real, ``|re| + |im|`` for complex (LAPACK's i?amax)."""
    return abs(x.real) + abs(x.imag)


def phase(x):
    """Sign of a diagonal entry as NumPy's slogdet takes it (pure-Python stub)."""
    if np.iscomplexobj(x):
        return x / abs(x)
    return -1.0 if x < 0 else 1.0


@overload(phase)
def _phase_overload(x):
    # NumPy's slogdet: a real entry contributes -1 when negative and +1 otherwise (so NaN
    # and +inf give +1); a complex entry contributes x / |x| (NaN for NaN or inf).
    if isinstance(x, types.Complex):
        def phase_complex(x):
            return x / abs(x)
        return phase_complex

    def phase_real(x):
        return -1.0 if x < 0 else 1.0
    return phase_real


@njit(cache=True, nogil=True)
def abs2(x):
    """``|x|**2`` without a square root (real for complex x)."""
    return x.real * x.real + x.imag * x.imag
