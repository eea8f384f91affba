"""The torch.linalg extras against torch itself (skipped when torch is not installed:
`pip install torch==2.13.0` puts a CPU build in the venv). Same fields, dtypes, shapes and
values, including per-element info codes and 1-based pivots."""
import numpy as np
import pytest

import linalgx.linalg as LA

torch = pytest.importorskip("torch")

rng = np.random.default_rng(0)
A = rng.standard_normal((2, 4, 4))
B = rng.standard_normal((2, 4, 3))
SPD = A @ A.swapaxes(-1, -2) + 4 * np.eye(4)
SYM = A + A.swapaxes(-1, -2)
SING = A.copy()
SING[1] = 0
T = torch.from_numpy


def _check(ours, theirs):
    if isinstance(theirs, tuple):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            _check(o, t)
        return
    t = theirs.numpy()
    assert ours.shape == t.shape and ours.dtype == t.dtype
    np.testing.assert_allclose(ours, t, atol=1e-9, rtol=1e-9)


LU, PIV = torch.linalg.lu_factor(T(A))
LD, LPIV = torch.linalg.ldl_factor(T(SYM))
CASES = {
    "lu_factor": (lambda: LA.lu_factor(A), lambda: torch.linalg.lu_factor(T(A))),
    "lu": (lambda: LA.lu(A), lambda: torch.linalg.lu(T(A))),
    "lu_solve": (lambda: LA.lu_solve(LU.numpy(), PIV.numpy(), B),
                 lambda: torch.linalg.lu_solve(LU, PIV, T(B))),
    "lu_solve_adjoint": (lambda: LA.lu_solve(LU.numpy(), PIV.numpy(), B, adjoint=True),
                         lambda: torch.linalg.lu_solve(LU, PIV, T(B), adjoint=True)),
    "solve_triangular": (lambda: LA.solve_triangular(np.triu(A), B, upper=True),
                         lambda: torch.linalg.solve_triangular(T(np.triu(A)), T(B), upper=True)),
    "solve_triangular_right": (
        lambda: LA.solve_triangular(np.tril(A), B.swapaxes(-1, -2), upper=False, left=False),
        lambda: torch.linalg.solve_triangular(T(np.tril(A)), T(B.swapaxes(-1, -2).copy()),
                                              upper=False, left=False)),
    "cholesky_ex": (lambda: LA.cholesky_ex(SPD), lambda: torch.linalg.cholesky_ex(T(SPD))),
    "cholesky_ex_not_pd": (lambda: LA.cholesky_ex(-SPD)[1],
                           lambda: torch.linalg.cholesky_ex(T(-SPD))[1]),
    "inv_ex": (lambda: LA.inv_ex(A), lambda: torch.linalg.inv_ex(T(A))),
    "inv_ex_singular": (lambda: LA.inv_ex(SING)[1], lambda: torch.linalg.inv_ex(T(SING))[1]),
    "solve_ex": (lambda: LA.solve_ex(A, B), lambda: torch.linalg.solve_ex(T(A), T(B))),
    "solve_ex_singular": (lambda: LA.solve_ex(SING, B)[1],
                          lambda: torch.linalg.solve_ex(T(SING), T(B))[1]),
    "matrix_exp": (lambda: LA.matrix_exp(A), lambda: torch.linalg.matrix_exp(T(A))),
    "householder_product": (lambda: LA.householder_product(A[0, :, :3], B[0, 0]),
                            lambda: torch.linalg.householder_product(T(A[0, :, :3].copy()),
                                                                     T(B[0, 0].copy()))),
    "vander": (lambda: LA.vander(B[0, 0], N=5), lambda: torch.linalg.vander(T(B[0, 0].copy()),
                                                                            N=5)),
    "ldl_factor": (lambda: LA.ldl_factor(SYM), lambda: torch.linalg.ldl_factor(T(SYM))),
    "ldl_solve": (lambda: LA.ldl_solve(LD.numpy(), LPIV.numpy(), B),
                  lambda: torch.linalg.ldl_solve(LD, LPIV, T(B))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    ours, theirs = CASES[name]
    _check(ours(), theirs())


def test_ex_field_names_match_torch():
    assert LA.inv_ex(A)._fields == ("inverse", "info")
    assert LA.cholesky_ex(SPD)._fields == ("L", "info")
    assert LA.solve_ex(A, B)._fields == ("result", "info")
    assert LA.lu_factor(A)._fields == ("LU", "pivots")
    assert LA.lu(A)._fields == ("P", "L", "U")
