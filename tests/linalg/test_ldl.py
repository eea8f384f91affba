"""ldl_factor / ldl_factor_ex / ldl_solve on both CPU backends against LAPACK's ?sytrf /
?hetrf and ?sytrs / ?hetrs (SciPy's wrappers, called here directly) and torch.linalg.

The numba kernels (``kernels/_ldl.py``) serve finite stacks up to order 64; elements where
rounding could choose a pivot are redone by LAPACK, so the pivots are always LAPACK's."""
import importlib.util

import numpy as np
import pytest
import scipy.linalg as sla

import linalgx
import linalgx.linalg as LA
from tests.helpers import assert_unchanged

HAS_TORCH = importlib.util.find_spec("torch") is not None
DTYPES = [np.float64, np.float32, np.complex128, np.complex64]
# (dtype, hermitian): hermitian only changes complex input
FORMS = [(d, False) for d in DTYPES] + [(d, True) for d in DTYPES if np.dtype(d).kind == "c"]
FORM_IDS = [f"{np.dtype(d).name}-{'herm' if h else 'sym'}" for d, h in FORMS]


@pytest.fixture(params=["lapack", "numba"])
def backend(request):
    with linalgx.backend(request.param):
        yield request.param


def _eps(dtype):
    return float(np.finfo(dtype).eps)


def _hermitian(dtype, hermitian):
    return bool(hermitian) and np.dtype(dtype).kind == "c"


def _lapack(a, hermitian):
    """?sytrf / ?hetrf element by element, in double precision as linalgx (and NumPy)
    computes single-precision input: (LD lower, pivots, info)."""
    a = a.astype(np.result_type(a.dtype, np.float64))
    name = ("he" if _hermitian(a.dtype, hermitian) else "sy") + "trf"
    trf = sla.lapack.get_lapack_funcs(name, dtype=a.dtype)
    n = a.shape[-1]
    flat = a.reshape(-1, n, n)
    ld, piv, info = np.empty_like(flat), np.empty(flat.shape[:2], np.int32), []
    for e in range(flat.shape[0]):
        f, piv[e], code = trf(flat[e], lower=1)
        ld[e] = np.tril(f)
        info.append(max(code, 0))
    return (ld.reshape(a.shape), piv.reshape(a.shape[:-1]),
            np.array(info, np.int32).reshape(a.shape[:-2]))


def _symmetric(rng, shape, dtype, hermitian, kind):
    """Symmetric (Hermitian) test matrices: random indefinite, integer-valued (ties between
    pivot candidates), or with a small diagonal (2x2 pivots); the strict upper triangle is
    garbage, which must not be read."""
    if kind == "int":
        x = rng.integers(-3, 4, shape).astype(dtype)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.integers(-2, 3, shape)
    else:
        x = rng.standard_normal(shape).astype(dtype)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal(shape).astype(dtype)
    if kind == "small_diag":
        x[..., np.arange(shape[-1]), np.arange(shape[-1])] *= 1e-3
    low = np.tril(x)
    other = np.swapaxes(np.tril(x, -1), -1, -2)
    a = low + (np.conj(other) if _hermitian(dtype, hermitian) else other)
    if _hermitian(dtype, hermitian):
        a[..., np.arange(shape[-1]), np.arange(shape[-1])] = np.real(np.diagonal(a, 0, -2, -1))
    return a.astype(dtype), (low + np.triu(rng.standard_normal(shape), 1)).astype(dtype)


def _check_factor(got, want, dtype):
    ld, piv, info = got
    wld, wpiv, winfo = want
    assert ld.dtype == dtype and piv.dtype == np.int32 and info.dtype == np.int32
    np.testing.assert_array_equal(piv, wpiv)
    np.testing.assert_array_equal(info, winfo)
    n = ld.shape[-1]
    scale = np.abs(wld).max(axis=(-2, -1), keepdims=True)
    err = np.abs(ld - wld) / np.where(scale > 0, scale, 1)
    assert err.max(initial=0) <= 64 * n * _eps(dtype)


@pytest.mark.parametrize("kind", ["random", "int", "small_diag"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 16, 33, 64])
@pytest.mark.parametrize("dtype, hermitian", FORMS, ids=FORM_IDS)
def test_ldl_factor_as_lapack(dtype, hermitian, n, kind, backend):
    rng = np.random.default_rng(n * 7 + len(kind))
    a, garbage = _symmetric(rng, (60, n, n), dtype, hermitian, kind)
    got = assert_unchanged(LA.ldl_factor_ex, garbage, hermitian=hermitian)
    _check_factor(got, _lapack(a, hermitian), dtype)
    assert np.swapaxes(got.LD, -1, -2).flags.c_contiguous  # each factor column-major


@pytest.mark.parametrize("n", [2, 3, 4, 7, 16, 40])
@pytest.mark.parametrize("dtype, hermitian", FORMS, ids=FORM_IDS)
def test_ldl_solve_as_lapack(dtype, hermitian, n, backend):
    rng = np.random.default_rng(n)
    a, _ = _symmetric(rng, (40, n, n), dtype, hermitian, "small_diag")
    ld, piv = LA.ldl_factor(a, hermitian=hermitian)
    b = rng.standard_normal((40, n, 3)).astype(dtype)
    x = assert_unchanged(LA.ldl_solve, ld, piv, b, hermitian=hermitian)
    wide = np.result_type(dtype, np.float64)
    trs = sla.lapack.get_lapack_funcs(("he" if _hermitian(dtype, hermitian) else "sy")
                                      + "trs", dtype=wide)
    want = np.stack([trs(ld[e], piv[e], b[e].astype(wide), lower=1)[0] for e in range(40)])
    cond = np.linalg.cond(a.astype(np.result_type(dtype, np.float64)))
    err = np.abs(x - want).max(axis=(-2, -1)) / np.abs(want).max(axis=(-2, -1))
    assert x.dtype == dtype and x.shape == b.shape
    np.testing.assert_array_less(err, 100 * n * _eps(dtype) * np.maximum(cond, 1))
    # a broadcast right-hand side, a single matrix, and a vector of pivots shared by all
    x1 = LA.ldl_solve(ld[0], piv[0], b[:, :, :1], hermitian=hermitian)
    np.testing.assert_allclose(x1, np.stack([trs(ld[0], piv[0], b[e, :, :1].astype(wide),
                                                 lower=1)[0]
                                             for e in range(40)]),
                               rtol=1e3 * _eps(dtype) * max(cond[0], 1), atol=0)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_ldl_singular_and_nonfinite_as_lapack(dtype, backend):
    """Exactly singular D (LAPACK's info), rank-deficient integer matrices (whether a
    pivot is exactly zero is LAPACK's rounding: those elements are LAPACK's), and inf/NaN."""
    rng = np.random.default_rng(5)
    cases = [np.zeros((3, 3)), np.diag([1.0, 0.0, 2.0]), np.ones((4, 4)),
             np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0.0]]),
             np.array([[1, 2, 3], [2, 4, 6], [3, 6, 9.0]])]
    for _ in range(30):
        v = rng.integers(-2, 3, (4, 2)).astype(float)
        cases.append(v @ np.diag([1.0, -1.0]) @ v.T)  # rank <= 2, indefinite
    for a in cases:
        a = a.astype(dtype)
        _check_factor(LA.ldl_factor_ex(a), _lapack(a, False), dtype)
        _check_factor(LA.ldl_factor_ex(a[None].repeat(3, 0)), _lapack(a[None].repeat(3, 0),
                                                                         False), dtype)
    for bad in (np.nan, np.inf):
        a = np.eye(3, dtype=dtype)
        a[2, 1] = bad
        ld, piv, info = LA.ldl_factor_ex(np.stack([np.eye(3, dtype=dtype), a]))
        wld, wpiv, winfo = _lapack(np.stack([np.eye(3, dtype=dtype), a]), False)
        np.testing.assert_array_equal(piv, wpiv)
        np.testing.assert_array_equal(info, winfo)
        np.testing.assert_array_equal(ld, wld)  # NaN where LAPACK's is


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_ldl_solve_singular_d_as_sytrs(dtype, backend):
    """A zero 1x1 block of D: ?sytrs divides by it (inf/NaN), and so does ldl_solve."""
    ld = np.array([[2.0, 0, 0], [0.5, 0.0, 0], [0.25, 0.5, 3.0]], dtype=dtype)
    piv = np.array([1, 2, 3], np.int32)
    b = np.ones((2, 3, 1), dtype=dtype)
    with np.errstate(all="ignore"):
        got = LA.ldl_solve(np.stack([np.eye(3, dtype=dtype), ld]), np.stack([piv, piv]), b)
        want = sla.lapack.get_lapack_funcs("sytrs", dtype=ld.dtype)(ld, piv, b[1], lower=1)[0]
    np.testing.assert_array_equal(got[0], b[0])
    np.testing.assert_array_equal(np.isnan(got[1]), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got[1]), np.isinf(want))


@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_ldl_layouts(order, backend):
    rng = np.random.default_rng(3)
    a, _ = _symmetric(rng, (2, 3, 5, 5), np.complex128, True, "random")
    if order == "F":
        x = np.asfortranarray(a)
    elif order == "strided":
        x = np.empty((2, 3, 10, 5), a.dtype)[:, :, ::2]
        x[...] = a
    else:
        x = a
    got = LA.ldl_factor_ex(x, hermitian=True)
    _check_factor(got, _lapack(a, True), a.dtype)
    b = rng.standard_normal((3, 5, 2)) + 0j
    sol = LA.ldl_solve(np.asfortranarray(got.LD), got.pivots, b, hermitian=True)
    np.testing.assert_allclose(a @ sol, np.broadcast_to(b, sol.shape), atol=1e-10)


@pytest.mark.skipif(not HAS_TORCH, reason="torch not installed")
@pytest.mark.parametrize("hermitian", [False, True], ids=["sym", "herm"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_ldl_as_torch(dtype, hermitian, backend):
    import torch
    rng = np.random.default_rng(11)
    a, _ = _symmetric(rng, (500, 4, 4), dtype, hermitian, "random")
    ld, piv = LA.ldl_factor(a, hermitian=hermitian)
    tld, tpiv = torch.linalg.ldl_factor(torch.from_numpy(a), hermitian=hermitian)
    np.testing.assert_array_equal(piv, tpiv.numpy())
    np.testing.assert_allclose(ld, tld.numpy(), rtol=1e-12, atol=1e-12)
    b = rng.standard_normal((500, 4, 2)).astype(dtype)
    x = LA.ldl_solve(ld, piv, b, hermitian=hermitian)
    tx = torch.linalg.ldl_solve(tld, tpiv, torch.from_numpy(b), hermitian=hermitian)
    np.testing.assert_allclose(x, tx.numpy(), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype, hermitian", FORMS[::2], ids=FORM_IDS[::2])
def test_kernel_serves_random_matrices_itself(dtype, hermitian):
    """The kernels hand an element to LAPACK only where rounding could choose a pivot: for
    random matrices, almost never (else the numba path would be LAPACK's in disguise)."""
    from linalgx.kernels import api
    rng = np.random.default_rng(0)
    wide = np.result_type(dtype, np.float64)
    a, _ = _symmetric(rng, (2000, 6, 6), wide, hermitian, "small_diag")
    ld, piv, info, near = api.ldl_factor(a, hermitian)
    assert near.mean() < 0.01
    ok = ~near
    _check_factor((ld[ok], piv[ok], info[ok]), tuple(x[ok] for x in _lapack(a, hermitian)),
                  wide)
    b = rng.standard_normal((2000, 6, 2)).astype(wide)
    x, bad = api.ldl_solve(ld, piv, b, hermitian)
    assert not bad.any()
    np.testing.assert_allclose(np.einsum("...ij,...jk->...ik", a, x), b, atol=1e-6)


def _cancelling(n=17):
    """A first step that cancels the second column almost to zero: the remaining
    magnitudes are rounding residue of O(1) terms, so which is largest is a matter of how
    the update rounds (OpenBLAS's fused multiply-adds from order 17 on)."""
    a = np.eye(n)
    a[0, 0], a[1, 0], a[1, 1] = 3.0, 1.0, 0.3333333333383333
    a[n - 2, 0], a[n - 2, 1] = 2.818761440014258e-06, 9.395971466714193e-07
    a[n - 1, 0], a[n - 1, 1] = 3.3939912509921287e-06, 1.1313404169973762e-06
    a[n - 1, n - 2] = 3.1889505553474553e-12
    return a + np.tril(a, -1).T


def _subnormal(n=17):
    u = 2.0 ** -1074
    a = np.diag(np.full(n, 2.0 ** -1022))
    a[1, 0] = 2.0 ** -1023
    a[n - 2, 0] = a[n - 1, 0] = u
    a[1, 1] = 2.0 ** -1024 + 5000 * u
    a[n - 2, 1], a[n - 1, 1] = 10000 * u, 10001 * u
    return a + np.tril(a, -1).T


@pytest.mark.parametrize("make", [_cancelling, _subnormal])
@pytest.mark.parametrize("n", [17, 33, 49])
@pytest.mark.parametrize("dtype, hermitian", FORMS[::2], ids=FORM_IDS[::2])
def test_ldl_pivots_decided_by_rounding_are_lapacks(make, n, dtype, hermitian, backend):
    a = make(n).astype(dtype)
    _check_factor(LA.ldl_factor_ex(a, hermitian=hermitian), _lapack(a, hermitian), dtype)


def test_ldl_solve_overflow_as_hetrs(backend):
    ld = np.array([[1e-300, 0], [0.5 - 0.5j, -1e-300]])
    piv = np.array([1, 2], np.int32)
    b = np.array([[1e300 + 1e300j], [1e300 - 1e300j]])
    want = sla.lapack.zhetrs(ld, piv, b, lower=1)[0]
    with np.errstate(all="ignore"):
        for got in (LA.ldl_solve(ld, piv, b, hermitian=True),
                    LA.ldl_solve(np.stack([np.eye(2), ld]), np.stack([piv, piv]), b,
                                 hermitian=True)[1]):
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("ld_batch, b_batch", [((), (5,)), ((3, 1), (3, 4)), ((1, 2), (3, 1)),
                                               ((2,), (4, 1))], ids=str)
def test_ldl_solve_broadcast_factors(ld_batch, b_batch, backend):
    """Factors broadcast against right-hand sides, each factor read where it is."""
    rng = np.random.default_rng(4)
    a, _ = _symmetric(rng, ld_batch + (6, 6), np.float64, False, "small_diag")
    ld, piv = LA.ldl_factor(a)
    b = rng.standard_normal(b_batch + (6, 2))
    x = LA.ldl_solve(ld, piv, b)
    batch = np.broadcast_shapes(ld_batch, b_batch)
    assert x.shape == batch + (6, 2) and x.flags.c_contiguous
    np.testing.assert_allclose(np.broadcast_to(a, batch + (6, 6)) @ x,
                               np.broadcast_to(b, x.shape), atol=1e-8)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.uint32, np.int16])
def test_ldl_solve_pivots_of_other_integer_types(dtype, backend):
    ld, piv = LA.ldl_factor(np.diag([2.0, -3.0, 4.0, 5.0]))
    b = np.ones((4, 1))
    np.testing.assert_allclose(LA.ldl_solve(ld, piv.astype(dtype), b).ravel(),
                               [0.5, -1 / 3, 0.25, 0.2])
    if np.iinfo(dtype).max > 2 ** 32:  # would wrap into range if cast before the check
        bad = piv.astype(dtype)
        bad[3] = 2 ** 32 + 4
        with pytest.raises(ValueError, match=r"ldl_solve: pivots\[3\] = 4294967300"):
            LA.ldl_solve(ld, bad, b)
