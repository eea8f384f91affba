"""The structure-of-arrays inv/solve kernels (_soa) against the scalar ones (_small) and NumPy.

A lane of a block must give the scalar kernel's bits, and a lane the block cannot do
(negligible, subnormal, NaN or, complex, far-from-unit pivots) must be redone by the scalar
kernel with its ``info``; the batches here are longer than a block and not a multiple of it, so full
blocks and the scalar tail both run.
"""
import pathlib

import numpy as np
import pytest
from linalgx.kernels import _gen_small, _small, _soa, api

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
IDS = {np.float32: "f32", np.float64: "f64", np.complex64: "c64", np.complex128: "c128"}
COUNT = 5 * _soa.LANES + 7


def _stack(n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((COUNT, n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape)
    a = a.astype(dtype)
    big = 1e200 if np.dtype(dtype).itemsize >= 8 and dtype != np.complex64 else 1e30
    a[3] = 0                      # first pivot zero
    a[20, -1] = 0                 # singular late (a zero last row)
    a[21, 0, 0] = np.nan
    a[22, :, 1] = np.inf
    a[35] *= np.finfo(dtype).tiny / 4  # subnormal pivots
    a[36] *= big                  # complex: outside the reciprocal's exact range
    a[37] /= big
    a[40, 0, 0] = 0               # a zero first entry: pivoting swaps rows
    return a


def _same(x, y):
    """Bitwise equal, NaN sign and payload aside (they depend on the order the compiler
    puts the operands of a commutative operation in)."""
    def signs(z):
        return [np.where(np.isnan(p), False, np.signbit(p)) for p in (z.real, z.imag)]
    return (np.array_equal(x, y, equal_nan=True)
            and all(np.array_equal(s, t) for s, t in zip(signs(x), signs(y))))


def test_generated_soa_kernels_up_to_date():
    path = pathlib.Path(_gen_small.__file__).with_name("_soa.py")
    assert path.read_text() == _gen_small.soa_source(), "run python -m linalgx.kernels._gen_small"


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: IDS[d])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_blocks_give_the_scalar_kernels_bits(dtype, n):
    a = _stack(n, dtype).reshape(COUNT, n * n)
    sfmin = float(np.finfo(dtype).tiny)
    rtol = api._rtol(np.dtype(dtype), n)
    b = _stack(n, dtype, seed=1)[:, 0].copy()
    a0, b0 = a.copy(), b.copy()
    for soa, scalar, args in [
            (getattr(_soa, f"inv{n}_soa"), getattr(_small, f"inv{n}_gufunc"), (a,)),
            (getattr(_soa, f"solve{n}_soa"), getattr(_small, f"solve{n}_one"), (a, b))]:
        width = n * n if len(args) == 1 else n
        out1, out2 = (np.full((COUNT, width), 7, dtype=dtype) for _ in range(2))
        info1, info2 = np.full(COUNT, -1, np.int32), np.full(COUNT, -1, np.int32)
        scalar(*args, out1, info1, sfmin, rtol)
        soa(*args, out2, info2, sfmin, rtol)
        np.testing.assert_array_equal(info2, info1)
        # the kernels give up (negative info) on zero, NaN and inf pivots, for LAPACK
        assert info1[3] == -1 and info1[20] < 0 and not info1[:3].any()
        assert info1[21] < 0 and info1[22] < 0
        ok = info1 == 0
        assert _same(out2[ok], out1[ok])
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: IDS[d])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_against_numpy(dtype, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((COUNT, n, n)) + n * np.eye(n)
    b = rng.standard_normal((COUNT, n, 1))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape)
        b = b + 1j * rng.standard_normal(b.shape)
    a, b = a.astype(dtype), b.astype(dtype)
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    tol = 100 * n * np.finfo(dtype).eps
    x, info = api.inv(a)
    assert not info.any()
    ref = np.linalg.inv(a.astype(wide))
    assert np.max(np.abs(x - ref)) <= tol * np.max(np.abs(ref))
    x, info = api.solve(a, b)
    assert not info.any()
    ref = np.linalg.solve(a.astype(wide), b.astype(wide))
    assert np.max(np.abs(x - ref)) <= tol * np.max(np.abs(ref))
