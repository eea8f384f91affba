"""Numba kernels for linalgx.special: scalar float64 functions ported from Cephes, Boost and
SciPy's xsf (``erf``, ``gamma``, ``igam``, ``bessel``, ``airy``, ``poly``, ``elementary``),
vectorized into NumPy ufuncs on first use by :mod:`.ufuncs`; the hottest functions also have
SIMD-vectorisable, threaded loops for contiguous float arrays (:mod:`.fast`, :mod:`.fastpath`).
Pure numeric code: imports nothing from linalgx, and nothing here is imported until a special
function first runs.
"""

import pathlib as _pathlib

from .. import _cache

_cache.check(_pathlib.Path(__file__).parent)
