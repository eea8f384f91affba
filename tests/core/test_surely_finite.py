"""``lapack.surely_finite``, the one-reduction finiteness test on linalgx's success paths:
never True for an array holding inf or NaN, True for moderate finite arrays of any layout,
and silent under any ``np.errstate``."""
import itertools

import numpy as np
import pytest

from linalgx._core.lapack import surely_finite

_rng = np.random.default_rng(5)


def _layouts(a):
    """``a`` C-ordered, F-ordered, transposed, strided, broadcast and as a 0-d array."""
    yield a
    yield np.asfortranarray(a)
    yield np.swapaxes(a, -1, -2)
    yield a[..., ::2, :]
    yield np.broadcast_to(a[:1], a.shape)
    yield np.asarray(a.flat[0]) if a.size else np.asarray(0, a.dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int64, np.float16, np.bool_])
@pytest.mark.parametrize("shape", [(10, 2, 2), (3, 9, 9), (50, 4, 4), (0, 3, 3), (2, 2), (3, 3),
                                   (4, 4), (1, 17)])
def test_agrees_with_isfinite(dtype, shape):
    base = _rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        base = base + 1j * _rng.standard_normal(shape)
    base = base.astype(dtype)
    bad_values = [np.nan, np.inf, -np.inf] if np.dtype(dtype).kind in "fc" else []
    if np.dtype(dtype).kind == "c":
        bad_values += [complex(0, np.nan), complex(np.inf, 1)]
    with np.errstate(all="raise"):
        for a in _layouts(base):
            assert surely_finite(a)
        for bad, index in itertools.product(bad_values, [0, -1]):
            if base.size == 0:
                continue
            a = base.copy()
            a.flat[index] = bad
            for view in _layouts(a):
                if not np.isfinite(view).all():
                    assert not surely_finite(view), (bad, index, view.strides)


@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_non_finite_among_huge_entries(order):
    """Entries near the overflow threshold make the reduction overflow (the answer is then
    "maybe not" and the caller's precise check runs), and must not hide a NaN or an inf:
    inf - inf or inf * 0 cancelling to something finite would be a wrong True."""
    for big in (1e154, 1e200, 1.7e308):
        a = np.full((4, 3, 3), big)
        a[1::2] *= -1
        a[2, 1, 1] = np.nan
        a[0, 0, 0] = np.inf
        a[3, 2, 2] = -np.inf
        view = {"C": a, "F": np.asfortranarray(a), "strided": a[:, ::2]}[order]
        assert not surely_finite(view)


def test_large_arrays_stay_off_threaded_blas(monkeypatch):
    """Above OpenBLAS's serial ?dot size the check is NumPy's own reduction: a threaded dot
    leaves OpenBLAS threads spinning, which slowed the SciPy LAPACK call after it (1000x1000
    gesdd by a fifth). Below, the dot; both answer as np.isfinite does."""
    from linalgx._core import lapack

    calls = []
    vdot = lapack._vdot
    monkeypatch.setattr(lapack, "_vdot", lambda x, y: calls.append(x.size) or vdot(x, y))
    small = np.ones((10, 3, 3))
    big = np.ones((lapack._BLAS_SERIAL + 1,))
    assert surely_finite(small) and surely_finite(big) and surely_finite(np.asfortranarray(
        np.ones((200, 200))))
    big[-1] = np.inf
    assert not surely_finite(big)
    assert calls == [small.size]
