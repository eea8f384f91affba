"""Bad input to the torch.linalg-style extras: pivots that would index out of bounds,
non-numeric dtypes, non-bool flags, ``check_errors=``, ``solve_ex(left=False)`` and
``np.matrix`` in and out. References: NumPy, SciPy and the defining identities."""
import numpy as np
import pytest
import scipy.linalg as sla

import linalgx
import linalgx.linalg as LA
from linalgx import NotPositiveDefiniteError, SingularMatrixError
from tests.helpers import assert_unchanged

A3 = np.array([[4., 1, 0], [1, 3, 1], [0, 1, 2]])


@pytest.mark.parametrize("pivots", [[0, 2, 3], [-1, 2, 3], [4, 2, 3], [1, 2, 100000],
                                    [2 ** 32 + 1, 2, 3], [-2 ** 40, 2, 3]])
def test_lu_solve_pivots_out_of_range_raise(pivots):
    """getrs swaps row i with row pivots[i] - 1: a pivot outside [1, n] read and wrote
    outside the matrix (heap corruption, a silently wrong answer, or an int64 pivot that
    wrapped to a valid int32 one)."""
    LU, _ = LA.lu_factor(A3)
    piv = np.array(pivots, dtype=np.int64)
    with pytest.raises(ValueError, match=r"lu_solve: pivots\[\d\] = .* must lie in \[1, 3\]"):
        LA.lu_solve(LU, piv, np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"lu_solve: pivots\[1, \d\]"):
        LA.lu_solve(np.stack([LU, LU]), np.stack([[1, 2, 3], piv]), np.ones((3, 1)))


def test_lu_solve_accepts_every_in_range_pivot():
    LU, piv = sla.lu_factor(A3)
    for p in ([1, 2, 3], [3, 3, 3], [2, 1, 3]):   # any swap sequence is a valid permutation
        p = np.array(p, dtype=np.int32)
        perm = np.arange(3)
        for i, j in enumerate(p - 1):
            perm[[i, j]] = perm[[j, i]]
        a = (np.tril(LU, -1) + np.eye(3)) @ np.triu(LU)
        a = a[np.argsort(perm)]          # the matrix whose LU with these swaps is LU
        x = LA.lu_solve(LU, p, np.ones((3, 1)))
        np.testing.assert_allclose(a @ x, np.ones((3, 1)), atol=1e-12)


@pytest.mark.parametrize("pivots", [[0, 2, 3], [4, 2, 3], [-5, 2, 3], [-1, 2, 3],
                                    [1, 2, -3], [-2, -3, 3], [-3, -3, -3]])
@pytest.mark.parametrize("backend", ["lapack", "numba"])
def test_ldl_solve_invalid_pivots_raise(pivots, backend):
    """sytrs reads a negative pivot as the first of a 2x2 block repeated by the next one and
    swaps with row -pivot - 1: anything else corrupted the heap or answered wrongly."""
    LD, _ = LA.ldl_factor(A3)
    with linalgx.backend(backend):
        with pytest.raises(ValueError, match=r"ldl_solve: pivots\[\d\] = "):
            LA.ldl_solve(LD, np.array(pivots, dtype=np.int32), np.ones((3, 1)))
        LA.ldl_solve(LD, np.array([1, -3, -3], dtype=np.int32), np.ones((3, 1)))  # 2x2 block


def _blocks_valid(p):
    """sytrs's reading of lower-storage pivots, one position at a time: a negative pivot
    begins a 2x2 block that the next pivot must repeat, and the block's second position
    begins nothing."""
    k = 0
    while k < len(p):
        if p[k] < 0:
            if k + 1 == len(p) or p[k + 1] != p[k]:
                return False
            k += 2
        else:
            k += 1
    return True


@pytest.mark.parametrize("backend", ["lapack", "numba"])
def test_ldl_solve_block_pivots_against_sytrs_reading(backend):
    with linalgx.backend(backend):
        _block_pivots_against_sytrs_reading()


def _block_pivots_against_sytrs_reading():
    rng = np.random.default_rng(8)
    n = 6
    LD = np.eye(n)
    for _ in range(400):
        p = rng.choice([-2, -1, 1, 2], size=n) * rng.integers(1, 4, size=n)
        for i in range(n - 1):  # mostly well-formed blocks, some broken ones
            if p[i] < 0 and rng.random() < 0.8:
                p[i + 1] = p[i]
        p = p.astype(np.int32)
        batch = np.stack([np.arange(1, n + 1, dtype=np.int32), p])
        if _blocks_valid(p):
            LA.ldl_solve(LD, p, np.ones((n, 1)))
            LA.ldl_solve(np.stack([LD, LD]), batch, np.ones((n, 1)))
        else:
            with pytest.raises(ValueError, match=r"ldl_solve: pivots\[\d\] = "):
                LA.ldl_solve(LD, p, np.ones((n, 1)))
            with pytest.raises(ValueError, match=r"ldl_solve: pivots\[1, \d\] = "):
                LA.ldl_solve(np.stack([LD, LD]), batch, np.ones((n, 1)))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=str)
def test_ldl_solve_with_lapacks_block_pivots(dtype):
    """Indefinite matrices whose Bunch-Kaufman factorization has 2x2 blocks (negative
    pivot pairs) still solve: A x = b against numpy.linalg.solve."""
    rng = np.random.default_rng(3)
    seen_block = False
    for _ in range(20):
        x = rng.standard_normal((6, 6)).astype(dtype)
        a = x + x.T
        a[np.diag_indices(6)] = 0
        LD, piv = LA.ldl_factor(a)
        seen_block |= bool((piv < 0).any())
        b = rng.standard_normal((6, 2))
        np.testing.assert_allclose(LA.ldl_solve(LD, piv, b), np.linalg.solve(a, b),
                                   rtol=1e-8, atol=1e-10)
    assert seen_block


NON_NUMERIC = [np.array([["4", "1"], ["2", "3"]]), np.array([[4, 1], [2, 3]], "m8[s]"),
               np.array([[4, 1], [2, 3]], object), np.array([[4, 1], [2, 3]], "M8[s]")]
EXTRAS = {
    "lu": LA.lu, "lu_factor": LA.lu_factor, "matrix_exp": LA.matrix_exp,
    "ldl_factor": LA.ldl_factor,
    "solve_triangular": lambda a: LA.solve_triangular(a, np.ones((2, 1)), upper=True),
    "householder_product": lambda a: LA.householder_product(a, np.ones(1)),
    "lu_solve": lambda a: LA.lu_solve(a, np.array([1, 2]), np.ones((2, 1))),
    "ldl_solve": lambda a: LA.ldl_solve(a, np.array([1, 2]), np.ones((2, 1))),
}


@pytest.mark.parametrize("name", list(EXTRAS))
@pytest.mark.parametrize("a", NON_NUMERIC, ids=lambda a: a.dtype.name)
def test_non_numeric_dtypes_raise_type_error(name, a):
    """As NumPy's LAPACK gufuncs (inv of a str array: TypeError); these cast with astype,
    which parsed strings and took datetimes as numbers."""
    with pytest.raises(TypeError):
        np.linalg.inv(a)
    with pytest.raises(TypeError, match=f"{name}: array type"):
        EXTRAS[name](a)


@pytest.mark.parametrize("value", [None, "no", 1, 0.0])
def test_torch_style_flags_must_be_bool(value):
    a = A3 @ A3.T
    calls = [lambda: LA.cholesky_ex(a, upper=value), lambda: LA.lu(a, pivot=value),
             lambda: LA.lu_factor(a, pivot=value),
             lambda: LA.lu_solve(*LA.lu_factor(a), np.ones((3, 1)), adjoint=value),
             lambda: LA.lu_solve(*LA.lu_factor(a), np.ones((3, 1)), left=value),
             lambda: LA.ldl_factor(a, hermitian=value),
             lambda: LA.solve_triangular(a, np.ones((3, 1)), upper=value),
             lambda: LA.solve_triangular(a, np.ones((3, 1)), upper=True, unitriangular=value),
             lambda: LA.solve_ex(a, np.ones(3), left=value),
             lambda: LA.inv_ex(a, check_errors=value)]
    for call in calls:
        with pytest.raises(TypeError, match="must be bool"):
            call()
    LA.cholesky_ex(a, upper=np.True_)   # NumPy's bool is a bool


def test_check_errors_raises_the_plain_functions_error():
    a = np.stack([np.eye(3), np.zeros((3, 3))])
    for call in (lambda: LA.inv_ex(a, check_errors=True),
                 lambda: LA.solve_ex(a, np.ones((2, 3, 1)), check_errors=True)):
        with pytest.raises(SingularMatrixError, match=r"batch element \(1,\)") as e:
            call()
        assert e.value.batch_index == (1,)
    with pytest.raises(NotPositiveDefiniteError, match="cholesky_ex: batch element"):
        LA.cholesky_ex(-a - np.eye(3), check_errors=True)
    for res in (LA.inv_ex(a), LA.solve_ex(a, np.ones((2, 3, 1))), LA.cholesky_ex(a)):
        np.testing.assert_array_equal(res.info != 0, [False, True])


@pytest.mark.parametrize("b_shape", [(4, 5, 3), (5, 3), (3,)])
def test_solve_ex_left_false_solves_x_a_equals_b(b_shape):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 1, 3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal(b_shape)
    x, info = assert_unchanged(LA.solve_ex, a, b, left=False)
    xa = (x[..., None, :] @ a)[..., 0, :] if b.ndim == 1 else x @ a
    np.testing.assert_allclose(xa, np.broadcast_to(b, xa.shape), atol=1e-12)
    assert info.shape == (2, 1) and not info.any()


def test_solve_ex_info_has_the_batch_shape_of_a():
    """torch.linalg.solve_ex's info describes the factorization of a: b's batch does not
    broadcast it."""
    a = np.stack([np.eye(3), np.zeros((3, 3))])[:, None]          # (2, 1, 3, 3)
    x, info = LA.solve_ex(a, np.ones((4, 3, 1)))
    assert x.shape == (2, 4, 3, 1)
    np.testing.assert_array_equal(info, [[0], [1]])
    assert LA.solve_ex(np.eye(3), np.ones((4, 3, 1))).info.shape == ()


def test_solve_ex_shape_errors_name_solve_ex():
    with pytest.raises(ValueError, match="^solve_ex: "):
        LA.solve_ex(np.eye(3), np.ones((4, 2)))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_matrix_in_matrix_out_for_every_factor():
    """np.matrix in gives np.matrix out for the matrix-shaped results, as NumPy's inv and
    cholesky (info and pivots stay ndarrays)."""
    m = np.matrix([[2., 1], [1, 3]])
    assert type(np.linalg.inv(m)) is np.matrix
    for res in (LA.inv_ex(m).inverse, LA.cholesky_ex(m).L, LA.lu_factor(m).LU,
                LA.ldl_factor(m).LD, LA.solve_ex(m, m).result, *LA.lu(m)):
        assert type(res) is np.matrix
    assert type(LA.inv_ex(m).info) is np.ndarray and type(LA.lu_factor(m).pivots) is np.ndarray


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=str)
def test_factor_ex_return_every_element_with_lapacks_status(dtype):
    """lu_factor_ex / ldl_factor_ex (torch.linalg's): factors, pivots and info of getrf /
    sytrf for every element, the singular ones included; check_errors=True raises the
    plain function's error for the first of those."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 4, 4)).astype(dtype)
    a[1] = 0
    a[2, :, 1] = a[2, :, 0] * 2 ** 0.5 if dtype == np.float64 else a[2, :, 0]
    LU, piv, info = assert_unchanged(LA.lu_factor_ex, a)
    getrf = sla.lapack.get_lapack_funcs("getrf", dtype=a.dtype)
    for k in range(3):
        want_lu, want_piv, want_info = getrf(a[k])
        np.testing.assert_allclose(LU[k], want_lu, rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(piv[k], want_piv + 1)
        assert info[k] == want_info
    assert info[1] > 0
    with pytest.raises(SingularMatrixError, match=r"lu_factor_ex: batch element \(1,\)"):
        LA.lu_factor_ex(a, check_errors=True)
    s = a + np.swapaxes(a, -1, -2)
    LD, piv, info = assert_unchanged(LA.ldl_factor_ex, s)
    sytrf = sla.lapack.get_lapack_funcs("sytrf", dtype=a.dtype)
    for k in range(3):
        want_ld, want_piv, want_info = sytrf(s[k], lower=1)
        np.testing.assert_allclose(LD[k], np.tril(want_ld), rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(piv[k], want_piv)
        assert info[k] == want_info
    assert info[1] > 0
    with pytest.raises(SingularMatrixError, match=r"ldl_factor_ex: batch element \(1,\)"):
        LA.ldl_factor_ex(s, check_errors=True)
    r = LA.lu_factor_ex(rng.standard_normal((3, 5)))
    assert r.LU.shape == (3, 5) and r.pivots.shape == (3,) and r.info.shape == ()
