"""Both autodiff rules of every differentiable linalgx.linalg function, checked against
central finite differences (gradcheck: forward mode, and reverse mode through the adjoint
identity) on real and complex inputs, plus a few closed forms."""
import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA
from linalgx import grad, gradcheck

rng = np.random.default_rng(7)


def _mat(n, m=None, kind="real", shift=0.0, batch=()):
    m = n if m is None else m
    a = rng.standard_normal(batch + (n, m))
    if kind == "complex":
        a = a + 1j * rng.standard_normal(batch + (n, m))
    if shift:
        a = a + shift * np.eye(n, m)
    return a


def _herm(n, kind):
    a = _mat(n, kind=kind)
    return a + np.conj(a.T)


def _spd(n, kind):
    a = _mat(n, kind=kind)
    return a @ np.conj(a.T) + n * np.eye(n)


def _sym_input(f):
    # functions of a Hermitian matrix, differentiated along Hermitian directions only
    return lambda a: f((a + np.conj(np.swapaxes(a, -1, -2))) / 2)


def _gauge_free_vectors(v):
    # |v|^2 is invariant under v -> v * exp(i phi)
    return (v * np.conj(v)).real


CASES = {
    "inv": (LA.inv, lambda k: [_mat(3, kind=k, shift=3)]),
    "inv_stacked": (LA.inv, lambda k: [_mat(3, kind=k, shift=3, batch=(2,))]),
    "det": (LA.det, lambda k: [_mat(3, kind=k)]),
    "det_stacked": (LA.det, lambda k: [_mat(2, kind=k, batch=(3,))]),
    "slogdet": (lambda a: LA.slogdet(a).logabsdet, lambda k: [_mat(3, kind=k, shift=2)]),
    "slogdet_sign": (lambda a: LA.slogdet(a).sign, lambda k: [_mat(3, kind=k, shift=2)]),
    "solve_matrix": (LA.solve, lambda k: [_mat(3, kind=k, shift=3), _mat(3, 2, kind=k)]),
    "solve_vector": (LA.solve, lambda k: [_mat(3, kind=k, shift=3), _mat(1, 3, kind=k)[0]]),
    "solve_broadcast": (LA.solve, lambda k: [_mat(3, kind=k, shift=3, batch=(2,)),
                                             _mat(3, 1, kind=k)]),
    "cholesky": (_sym_input(LA.cholesky), lambda k: [_spd(3, k)]),
    "cholesky_upper": (_sym_input(lambda a: LA.cholesky(a, upper=True)),
                       lambda k: [_spd(3, k)]),
    "eigvalsh": (_sym_input(LA.eigvalsh), lambda k: [_herm(4, k)]),
    "eigh": (_sym_input(lambda a: (LA.eigh(a)[0], _gauge_free_vectors(LA.eigh(a)[1]))),
             lambda k: [_herm(4, k)]),
    "svdvals": (LA.svdvals, lambda k: [_mat(4, 3, kind=k)]),
    "svd_reduced": (lambda a: (LA.svd(a, full_matrices=False)[1],
                               _gauge_free_vectors(LA.svd(a, full_matrices=False)[0]),
                               _gauge_free_vectors(LA.svd(a, full_matrices=False)[2])),
                    lambda k: [_mat(4, 3, kind=k)]),
    "svd_reconstruct": (lambda a: (lambda r: (r.U * r.S[..., None, :]) @ r.Vh)(
        LA.svd(a, full_matrices=False)), lambda k: [_mat(3, 4, kind=k)]),
    "eigvals": (LA.eigvals, lambda k: [_mat(3, kind=k)]),
    "eig_vectors": (lambda a: (lambda r: r.eigenvectors @ np.diag(r.eigenvalues) @ LA.inv(
        r.eigenvectors))(LA.eig(a)), lambda k: [_mat(3, kind=k)]),
    "qr_reduced": (lambda a: LA.qr(a), lambda k: [_mat(4, 3, kind=k)]),
    "qr_r": (lambda a: LA.qr(a, mode="r"), lambda k: [_mat(4, 3, kind=k)]),
    "qr_square": (lambda a: LA.qr(a), lambda k: [_mat(3, 3, kind=k)]),
    "lstsq": (lambda a, b: LA.lstsq(a, b)[0], lambda k: [_mat(5, 3, kind=k), _mat(5, 2, kind=k)]),
    "pinv": (LA.pinv, lambda k: [_mat(4, 3, kind=k)]),
    "pinv_hermitian": (_sym_input(lambda a: LA.pinv(a, hermitian=True)),
                       lambda k: [_spd(3, k)]),
    "norm_fro": (LA.norm, lambda k: [_mat(3, 4, kind=k)]),
    "norm_nuc": (lambda a: LA.norm(a, "nuc"), lambda k: [_mat(3, 4, kind=k)]),
    "norm_2": (lambda a: LA.norm(a, 2), lambda k: [_mat(3, 4, kind=k)]),
    "norm_1": (lambda a: LA.norm(a, 1), lambda k: [_mat(3, 4, kind=k)]),
    "norm_inf": (lambda a: LA.norm(a, np.inf), lambda k: [_mat(3, 4, kind=k)]),
    "norm_vec3": (lambda a: LA.norm(a[0], 3), lambda k: [_mat(3, 4, kind=k)]),
    "vector_norm": (lambda a: LA.vector_norm(a, axis=0, ord=1.5), lambda k: [_mat(3, 4, kind=k)]),
    "matrix_norm": (lambda a: LA.matrix_norm(a, ord=-2), lambda k: [_mat(3, 4, kind=k)]),
    "cond": (LA.cond, lambda k: [_mat(3, kind=k, shift=1)]),
    "cond_fro": (lambda a: LA.cond(a, "fro"), lambda k: [_mat(3, kind=k, shift=1)]),
    "matrix_power_3": (lambda a: LA.matrix_power(a, 3), lambda k: [_mat(3, kind=k)]),
    "matrix_power_neg": (lambda a: LA.matrix_power(a, -2), lambda k: [_mat(3, kind=k, shift=3)]),
    "multi_dot": (lambda a, b: LA.multi_dot([a, b, a.T]),
                  lambda k: [_mat(3, 4, kind=k), _mat(4, 4, kind=k)]),
    "matmul": (LA.matmul, lambda k: [_mat(3, 4, kind=k), _mat(4, 2, kind=k)]),
    "tensorsolve": (LA.tensorsolve, lambda k: [_mat(6, kind=k, shift=4).reshape(6, 2, 3),
                                               _mat(1, 6, kind=k)[0]]),
    "tensorinv": (lambda a: LA.tensorinv(a, ind=1), lambda k: [_mat(4, kind=k, shift=4).reshape(
        4, 2, 2)]),
    "outer_cross_vecdot": (lambda a, b: (LA.outer(a[0], b[0]), LA.cross(a[:, :3], b[:, :3]),
                                         LA.vecdot(a, b)), lambda k: [_mat(2, 3, kind=k),
                                                                      _mat(2, 3, kind=k)]),
    "trace_diagonal_transpose": (lambda a: (LA.trace(a), LA.diagonal(a, offset=1),
                                            LA.matrix_transpose(a)),
                                 lambda k: [_mat(3, 3, kind=k, batch=(2,))]),
    "tensordot": (lambda a, b: LA.tensordot(a, b, axes=1), lambda k: [_mat(2, 3, kind=k),
                                                                       _mat(3, 2, kind=k)]),
    "solve_triangular": (lambda a, b: LA.solve_triangular(np.triu(a), b, upper=True),
                         lambda k: [_mat(3, kind=k, shift=3), _mat(3, 2, kind=k)]),
    "solve_triangular_right": (lambda a, b: LA.solve_triangular(np.tril(a), b, upper=False,
                                                                left=False),
                               lambda k: [_mat(3, kind=k, shift=3), _mat(2, 3, kind=k)]),
    "lu_factor_solve": (lambda a, b: LA.lu_solve(*LA.lu_factor(a), b),
                        lambda k: [_mat(3, kind=k, shift=3), _mat(3, 2, kind=k)]),
    "lu": (lambda a: LA.lu(a)[1:], lambda k: [_mat(3, kind=k, shift=3)]),
    "matrix_exp": (LA.matrix_exp, lambda k: [_mat(3, kind=k) * 0.5]),
    "householder_product": (lambda a, t: LA.householder_product(a, t),
                            lambda k: [_mat(4, 2, kind=k), _mat(1, 2, kind=k)[0]]),
    "vander": (lambda x: LA.vander(x, N=4), lambda k: [_mat(1, 3, kind=k)[0]]),
}


@pytest.mark.parametrize("kind", ["real", "complex"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_gradcheck(name, kind):
    f, make = CASES[name]
    gradcheck(f, *make(kind), eps=1e-6, atol=1e-5, rtol=1e-4)


def test_det_gradient_at_singular_matrix_is_adjugate():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])   # rank 2
    g = grad(LA.det)(a)
    # adjugate transpose = cofactor matrix
    cof = np.array([[np.linalg.det(np.delete(np.delete(a, i, 0), j, 1)) * (-1) ** (i + j)
                     for j in range(3)] for i in range(3)])
    np.testing.assert_allclose(g, cof, atol=1e-10)
    b = np.zeros((3, 3))
    b[0, 0] = 1.0                                                       # rank 1
    np.testing.assert_allclose(grad(LA.det)(b), np.zeros((3, 3)), atol=1e-12)


def test_eigh_degenerate_basis_dependent_loss_raises():
    q, _ = np.linalg.qr(np.random.default_rng(2).standard_normal((3, 3)))
    a = q @ np.diag([1.0, 1.0, 3.0]) @ q.T
    with pytest.raises(ValueError, match="eigenspace"):
        grad(lambda a: np.sum(LA.eigh((a + a.T) / 2)[1][:, 0] * np.arange(3.0)))(a)


def test_eigh_gauge_dependent_loss_raises():
    a = _herm(3, "complex")
    with pytest.raises(Exception, match="(?i)gauge|phase"):
        grad(lambda a: LA.eigh(a)[1][1, 0].real)(a)


@pytest.mark.parametrize("rotated", [False, True], ids=["diagonal", "rotated"])
def test_eigh_degenerate_projector_gradient_is_finite_and_correct(rotated):
    # P = projector on the degenerate pair of diag(1, 1, 3), possibly in a rotated basis
    # (where LAPACK's two eigenvalues differ by rounding only)
    def loss(a):
        h = (a + a.T) / 2
        w, v = LA.eigh(h)
        p = v[:, :2] @ v[:, :2].T
        return np.sum(p * np.array([[1.0, 2.0, 0.5], [2.0, -1.0, 0.3], [0.5, 0.3, 0.7]]))

    a = np.diag([1.0, 1.0, 3.0])
    if rotated:
        q, _ = np.linalg.qr(np.random.default_rng(1).standard_normal((3, 3)))
        a = q @ a @ q.T
    g = grad(loss)(a)
    assert np.all(np.isfinite(g))
    eps = 1e-6
    fd = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            e = np.zeros((3, 3))
            e[i, j] = eps
            fd[i, j] = (loss(a + e) - loss(a - e)) / (2 * eps)
    np.testing.assert_allclose(g, fd, atol=1e-6)


def test_plain_numpy_linalg_routes_to_linalgx():
    a = _mat(3, shift=3)
    g1 = grad(lambda a: np.linalg.det(a))(a)
    np.testing.assert_allclose(g1, np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-10)
    g2 = grad(lambda a: np.sum(np.linalg.solve(a, np.ones(3))))(a)
    # L = 1^T A^{-1} 1: dL/dA = -A^{-T} 1 (A^{-1} 1)^T, from NumPy's own inverse
    ainv = np.linalg.inv(a)
    np.testing.assert_allclose(g2, -np.outer(ainv.T @ np.ones(3), ainv @ np.ones(3)),
                               rtol=1e-10)


def test_log_abs_det_gradient_is_inverse_transpose():
    m = 2 * np.eye(3) + 0.1 * _mat(3)
    g = linalgx.grad(lambda m: np.log(np.abs(LA.det(m))))(m)
    np.testing.assert_allclose(g, np.linalg.inv(m).T, rtol=1e-10)


def test_eigh_matrix_function_at_degenerate_spectrum_raises():
    # V exp(w) V^T at the identity: the derivative depends on how the eigenvalues split
    w = np.random.default_rng(0).standard_normal((3, 3))

    def loss(a):
        h = (a + a.T) / 2
        ev, vec = LA.eigh(h)
        return np.sum((vec * np.exp(ev)) @ vec.T * (w + w.T))

    with pytest.raises(ValueError, match="split"):
        grad(loss)(np.eye(3))
    gradcheck(loss, np.diag([1.0, 2.0, 3.0]) + 0.1 * (w + w.T))   # distinct: fine


@pytest.mark.parametrize("kind", ["real", "complex"])
def test_svd_degenerate_subspace_losses(kind):
    rng = np.random.default_rng(1)
    q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    a = q @ np.diag([2.0, 2.0, 1.0])
    if kind == "complex":
        a = a * (1 + 0.3j)
    projector = lambda a: (lambda u: u[:, :2] @ np.conj(u[:, :2]).T)(LA.svd(a)[0])  # noqa
    polar = lambda a: (lambda r: r.U @ r.Vh)(LA.svd(a))  # noqa: E731
    gradcheck(projector, a, modes=("rev",))
    gradcheck(polar, a, modes=("rev",))
    gradcheck(polar, np.eye(3), modes=("rev",))


def _sym(a):
    return (a + a.T) / 2


# second derivatives at repeated eigen- or singular values: the chain rule through the
# decomposition would miss the loss's own second derivative in the tied values (the Hessian
# of sum(svdvals(a)**2) = ||a||_F**2 at the identity came out 1 where 2 is exact)
_SECOND_ORDER = {
    "svdvals": lambda a: (LA.svdvals(a) ** 2).sum(),
    "svd": lambda a: (LA.svd(a)[1] ** 2).sum(),
    "eigvalsh": lambda a: np.log(LA.eigvalsh(_sym(a))).sum(),
    "eigh values": lambda a: (LA.eigh(_sym(a))[0] ** 2).sum(),
    "eigvals": lambda a: (LA.eigvals(a) ** 2).sum().real,
    "eig values": lambda a: (LA.eig(a)[0] ** 2).sum().real,
    "lstsq s": lambda a: (LA.lstsq(a, np.ones(3))[3] ** 2).sum(),
}


@pytest.mark.parametrize("name", list(_SECOND_ORDER))
def test_second_derivatives_at_a_degenerate_spectrum_raise(name):
    loss = _SECOND_ORDER[name]
    with pytest.raises(ValueError, match="second derivatives at repeated"):
        linalgx.hessian(loss)(np.eye(3))
    with pytest.raises(ValueError, match="second derivatives at repeated"):
        linalgx.jvp(linalgx.grad(loss), (np.eye(3),), (_sym(_mat(3)),))
    # first order there, and second order at a split spectrum, against finite differences
    g = linalgx.grad(loss)(np.eye(3))
    assert np.all(np.isfinite(g))
    a = np.diag([1.0, 2.0, 3.0]) + 0.05 * _sym(_mat(3))
    gfun = linalgx.grad(loss)
    h = linalgx.hessian(loss)(a).reshape(9, 9)
    step = 1e-5
    fd = np.array([(gfun(a + step * e.reshape(3, 3)) - gfun(a - step * e.reshape(3, 3))).ravel()
                   / (2 * step) for e in np.eye(9)]).T
    np.testing.assert_allclose(h, fd, atol=1e-5 * max(1.0, np.abs(fd).max()))


def test_second_derivatives_of_a_linear_function_of_tied_values_stay_exact():
    """A loss linear in the eigenvalues has a constant cotangent: nothing is refused, and the
    Hessian of the trace (zero) comes out zero at the identity."""
    h = linalgx.hessian(lambda a: LA.eigvalsh(_sym(a)).sum())(np.eye(3))
    np.testing.assert_allclose(h, 0, atol=1e-12)
    g2 = linalgx.jvp(lambda a: linalgx.grad(lambda b: LA.svdvals(b).sum())(a), (np.eye(3) * 2,),
                     (np.eye(3),))[1]
    np.testing.assert_allclose(g2, 0, atol=1e-12)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_rotated_degenerate_projector_gradient_across_rotations(n):
    """The degenerate-pair tolerance covers the rounding split of rotated degenerate
    matrices: the gradient of the projector on a repeated eigenvalue matches finite
    differences of the same projector computed from the simple eigenvalue's eigenvector
    (with n eps max|w| as the tolerance, a few percent of these inputs came out wrong, by up
    to 40%)."""
    rng = np.random.default_rng(n)
    lam = np.full(n, 2.0)
    lam[0] = 1.0  # the n - 1 largest tied, the smallest simple
    for trial in range(100):
        q, _ = np.linalg.qr(rng.standard_normal((n, n)))
        a = _sym(q @ np.diag(lam) @ q.T)
        w = rng.standard_normal((n, n))

        def loss(a, w=w):
            v = LA.eigh(_sym(a))[1][:, 1:]
            return np.sum((v @ v.T) * w)

        def ref(a, w=w):
            v = np.linalg.eigh(_sym(a))[1][:, 0]
            return np.sum((np.eye(n) - np.outer(v, v)) * w)

        g = grad(loss)(a)
        step = 1e-6
        fd = np.array([(ref(a + step * e.reshape(n, n)) - ref(a - step * e.reshape(n, n)))
                       / (2 * step) for e in np.eye(n * n)]).reshape(n, n)
        np.testing.assert_allclose(g, fd, atol=1e-6 * max(1.0, np.abs(fd).max()),
                                   err_msg=f"trial {trial}")
