"""linalgx's derivatives of linalgx.linalg against PyTorch's (torch.autograd, torch.linalg),
float64 and complex128, single and stacked: the gradient of a real loss that does not depend
on the gauge of the outputs (the phases of eigenvectors and singular vectors), a JVP and,
per op family, a Hessian. Each gradient is also checked against a central finite difference,
so that a disagreement says which side is wrong. Skipped where torch is not installed."""
import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA

torch = pytest.importorskip("torch")
T = torch
TL = torch.linalg

KINDS = ["real", "complex"]


def _rng(*key):
    return np.random.default_rng([sum(map(ord, str(k))) for k in key])


def _mat(rng, kind, shape, shift=0.0):
    a = rng.standard_normal(shape)
    if kind == "complex":
        a = a + 1j * rng.standard_normal(shape)
    return a + shift * np.eye(shape[-2], shape[-1]) if shift else a


def _herm(rng, kind, shape):
    a = _mat(rng, kind, shape)
    return a + np.conj(np.swapaxes(a, -1, -2))


def _spd(rng, kind, shape):
    a = _mat(rng, kind, shape)
    return a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])


# functions of a Hermitian matrix take its Hermitian part (both libraries read one triangle,
# and differ in which derivative they report for the other: see the triangle test below)
def _hn(a):
    return (a + np.conj(np.swapaxes(a, -1, -2))) / 2


def _ht(a):
    return (a + a.mH) / 2


# |v|^2 is invariant under the phase gauge v -> v exp(i phi)
def _gn(v):
    return (v * np.conj(v)).real


def _gt(v):
    return (v * v.conj()).real


def _svd3(lib, gauge):
    return lambda a: (lambda r: (r[1], gauge(r[0]), gauge(r[2])))(
        lib.svd(a, full_matrices=False))


def _eigh2(lib, gauge, sym, **kw):
    return lambda a: (lambda r: (r[0], gauge(r[1])))(lib.eigh(sym(a), **kw))


M, Hm, S = (lambda sh, sft=0.0: lambda r, k: _mat(r, k, sh, sft)), \
    (lambda sh: lambda r, k: _herm(r, k, sh)), (lambda sh: lambda r, k: _spd(r, k, sh))

# name -> (linalgx function, torch function, input makers)
CASES = {
    "det": (LA.det, TL.det, [M((2, 4, 4))]),
    "slogdet": (lambda a: tuple(LA.slogdet(a)), lambda a: tuple(TL.slogdet(a)), [M((2, 4, 4), 3)]),
    "inv": (LA.inv, TL.inv, [M((2, 4, 4), 4)]),
    "inv_ex": (lambda a: LA.inv_ex(a)[0], lambda a: TL.inv_ex(a)[0], [M((4, 4), 4)]),
    "solve": (LA.solve, TL.solve, [M((2, 4, 4), 4), M((2, 4, 2))]),
    "solve_vector_b": (LA.solve, TL.solve, [M((4, 4), 4), M((4,))]),
    "solve_broadcast": (LA.solve, TL.solve, [M((4, 4), 4), M((3, 4, 2))]),
    "solve_ex": (lambda a, b: LA.solve_ex(a, b)[0], lambda a, b: TL.solve_ex(a, b)[0],
                 [M((4, 4), 4), M((4, 2))]),
    "cholesky": (lambda a: LA.cholesky(_hn(a)), lambda a: TL.cholesky(_ht(a)), [S((2, 4, 4))]),
    "cholesky_upper": (lambda a: LA.cholesky(_hn(a), upper=True),
                       lambda a: TL.cholesky(_ht(a), upper=True), [S((4, 4))]),
    "cholesky_ex": (lambda a: LA.cholesky_ex(_hn(a))[0], lambda a: TL.cholesky_ex(_ht(a))[0],
                    [S((4, 4))]),
    "qr_tall": (lambda a: tuple(LA.qr(a)), lambda a: tuple(TL.qr(a)), [M((2, 5, 3))]),
    "qr_square": (lambda a: tuple(LA.qr(a)), lambda a: tuple(TL.qr(a)), [M((4, 4))]),
    "qr_wide": (lambda a: tuple(LA.qr(a)), lambda a: tuple(TL.qr(a)), [M((3, 5))]),
    "qr_complete_wide": (lambda a: tuple(LA.qr(a, mode="complete")),
                         lambda a: tuple(TL.qr(a, mode="complete")), [M((2, 3, 5))]),
    "eigh": (_eigh2(LA, _gn, _hn), _eigh2(TL, _gt, _ht), [Hm((2, 4, 4))]),
    "eigh_U": (_eigh2(LA, _gn, _hn, UPLO="U"), _eigh2(TL, _gt, _ht, UPLO="U"), [Hm((4, 4))]),
    "eigvalsh": (lambda a: LA.eigvalsh(_hn(a)), lambda a: TL.eigvalsh(_ht(a)), [Hm((2, 4, 4))]),
    "svd_tall": (_svd3(LA, _gn), _svd3(TL, _gt), [M((2, 5, 3))]),
    "svd_wide": (_svd3(LA, _gn), _svd3(TL, _gt), [M((3, 5))]),
    "svd_square": (_svd3(LA, _gn), _svd3(TL, _gt), [M((4, 4))]),
    "svd_reconstruct": (lambda a: (lambda r: (r[0] * r[1][..., None, :]) @ r[2])(
        LA.svd(a, full_matrices=False)), lambda a: (lambda r: (
            r[0] * r[1][..., None, :].to(r[0].dtype)) @ r[2])(TL.svd(a, full_matrices=False)),
        [M((2, 3, 5))]),
    "svdvals": (LA.svdvals, TL.svdvals, [M((2, 5, 3))]),
    "pinv_tall": (LA.pinv, TL.pinv, [M((2, 5, 3))]),
    "pinv_wide": (LA.pinv, TL.pinv, [M((3, 5))]),
    "pinv_hermitian": (lambda a: LA.pinv(_hn(a), hermitian=True),
                       lambda a: TL.pinv(_ht(a), hermitian=True), [Hm((2, 4, 4))]),
    "lstsq": (lambda a, b: LA.lstsq(a, b)[0], lambda a, b: TL.lstsq(a, b).solution,
              [M((6, 3)), M((6, 2))]),
    "lstsq_vector_b": (lambda a, b: LA.lstsq(a, b)[0],
                       lambda a, b: TL.lstsq(a, b[:, None]).solution[:, 0], [M((6, 3)), M((6,))]),
    "lstsq_wide": (lambda a, b: LA.lstsq(a, b)[0], lambda a, b: TL.pinv(a) @ b,
                   [M((3, 6)), M((3, 2))]),
    "matrix_exp": (LA.matrix_exp, TL.matrix_exp, [M((2, 4, 4))]),
    "matrix_exp_scaled": (LA.matrix_exp, TL.matrix_exp, [lambda r, k: 3 * _mat(r, k, (4, 4))]),
    "lu_factor": (lambda a: LA.lu_factor(a)[0], lambda a: TL.lu_factor(a)[0], [M((2, 4, 4))]),
    "lu_factor_ex": (lambda a: LA.lu_factor_ex(a)[0], lambda a: TL.lu_factor_ex(a)[0],
                     [M((4, 4))]),
    "lu_tall": (lambda a: tuple(LA.lu(a))[1:], lambda a: tuple(TL.lu(a))[1:], [M((5, 3))]),
    "lu_wide": (lambda a: tuple(LA.lu(a))[1:], lambda a: tuple(TL.lu(a))[1:], [M((2, 3, 5))]),
    "householder_product": (LA.householder_product, TL.householder_product,
                            [M((2, 5, 3)), M((2, 3))]),
    "eigvals": (LA.eigvals, TL.eigvals, [M((2, 4, 4))]),
    "eig": (lambda a: (lambda r: (r[0], _gn(r[1])))(LA.eig(a)),
            lambda a: (lambda r: (r[0], _gt(r[1])))(TL.eig(a)), [M((4, 4))]),
    "trace": (lambda a: LA.trace(a, offset=1),
              lambda a: T.diagonal(a, offset=1, dim1=-2, dim2=-1).sum(-1), [M((2, 4, 5))]),
    "diagonal": (lambda a: LA.diagonal(a, offset=-1),
                 lambda a: T.diagonal(a, offset=-1, dim1=-2, dim2=-1), [M((2, 4, 5))]),
    "matmul": (LA.matmul, TL.matmul, [M((2, 1, 4, 3)), M((3, 3, 2))]),
    "cross": (LA.cross, TL.cross, [M((2, 4, 3)), M((2, 4, 3))]),
    "vecdot": (lambda x, y: LA.vecdot(x, y, axis=-2),
               lambda x, y: TL.vecdot(x, y, dim=-2), [M((2, 4, 3)), M((2, 4, 3))]),
    "outer": (LA.outer, T.outer, [M((3,)), M((4,))]),
    "tensordot": (lambda a, b: LA.tensordot(a, b, axes=([0, 2], [1, 0])),
                  lambda a, b: T.tensordot(a, b, dims=([0, 2], [1, 0])),
                  [M((3, 4, 5)), M((5, 3, 2))]),
    "multi_dot": (lambda *xs: LA.multi_dot(list(xs)), lambda *xs: TL.multi_dot(list(xs)),
                  [M((3,)), M((3, 4)), M((4, 5)), M((5, 2))]),
    "tensorsolve": (LA.tensorsolve, TL.tensorsolve,
                    [lambda r, k: _mat(r, k, (6, 2, 3)) + 4 * np.eye(6).reshape(6, 2, 3), M((6,))]),
    "tensorinv": (lambda a: LA.tensorinv(a, ind=2), lambda a: TL.tensorinv(a, ind=2),
                  [lambda r, k: _mat(r, k, (6, 6), 5).reshape(2, 3, 6)]),
    "empty_batch_inv": (LA.inv, TL.inv, [M((0, 3, 3))]),
    "empty_batch_svd": (_svd3(LA, _gn), _svd3(TL, _gt), [M((0, 4, 3))]),
    "empty_batch_solve": (LA.solve, TL.solve, [M((0, 3, 3)), M((0, 3, 2))]),
}
for _k in (-3, -1, 0, 2, 5):
    CASES[f"matrix_power_{_k}"] = (lambda a, k=_k: LA.matrix_power(a, k) + 0 * a,
                                   lambda a, k=_k: TL.matrix_power(a, k) + 0 * a,
                                   [lambda r, kd: _mat(r, kd, (2, 3, 3), 3) / 3])
for _up in (False, True):
    for _left in (False, True):
        CASES[f"solve_triangular_upper{_up:d}_left{_left:d}"] = (
            lambda a, b, u=_up, le=_left: LA.solve_triangular(a, b, upper=u, left=le),
            lambda a, b, u=_up, le=_left: TL.solve_triangular(a, b, upper=u, left=le),
            [M((2, 4, 4), 4), M((2, 4, 2) if _left else (2, 2, 4))])
        CASES[f"lu_solve_left{_left:d}_adjoint{_up:d}"] = (
            lambda a, b, ad=_up, le=_left: LA.lu_solve(*LA.lu_factor(a), b, left=le, adjoint=ad),
            lambda a, b, ad=_up, le=_left: TL.lu_solve(*TL.lu_factor(a), b, left=le, adjoint=ad),
            [M((2, 4, 4), 3), M((2, 4, 2) if _left else (2, 2, 4))])
CASES["solve_triangular_unit"] = (
    lambda a, b: LA.solve_triangular(a, b, upper=True, unitriangular=True),
    lambda a, b: TL.solve_triangular(a, b, upper=True, unitriangular=True),
    [M((4, 4), 4), M((4, 2))])
# norms: torch.linalg.cond's backward fails on an in-place write for p not in (None, 2, -2, nuc)
for _o in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
    CASES[f"matrix_norm_{_o}"] = (lambda a, o=_o: LA.matrix_norm(a, ord=o, keepdims=True),
                                  lambda a, o=_o: TL.matrix_norm(a, ord=o, keepdim=True),
                                  [M((2, 4, 3))])
    CASES[f"norm_axes10_{_o}"] = (lambda a, o=_o: LA.norm(a, ord=o, axis=(1, 0)),
                                  lambda a, o=_o: TL.matrix_norm(a, ord=o, dim=(1, 0)),
                                  [M((3, 5))])
for _o in (2, 1, 3, 0.5, -1, np.inf, -np.inf, 0):
    CASES[f"vector_norm_{_o}"] = (lambda a, o=_o: LA.vector_norm(a, ord=o, axis=-2, keepdims=True),
                                  lambda a, o=_o: TL.vector_norm(a, ord=o, dim=-2, keepdim=True),
                                  [M((2, 4, 3))])
CASES["norm_default"] = (LA.norm, TL.norm, [M((2, 3, 4))])
for _p in (None, 2, -2, "nuc"):
    CASES[f"cond_{_p}"] = (lambda a, p=_p: LA.cond(a, p), lambda a, p=_p: TL.cond(a, p),
                           [M((2, 4, 4), 2)])
CASES["cond_1_formula"] = (lambda a: LA.cond(a, 1),
                           lambda a: TL.matrix_norm(a, 1) * TL.matrix_norm(TL.inv(a), 1),
                           [M((4, 4), 2)])


def _tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _setup(name, kind):
    lx, th, makers = CASES[name]
    rng = _rng(name, kind)
    inputs = [mk(rng, kind) for mk in makers]
    weights = []
    for o in _tuple(lx(*inputs)):
        o = np.asarray(o)
        w = rng.standard_normal(o.shape)
        weights.append(w + 1j * rng.standard_normal(o.shape) if o.dtype.kind == "c" else w)

    def loss_np(*xs):   # Re sum(f(x) * conj(W)) over the outputs
        return sum(np.sum(np.real(o * np.conj(w))) for o, w in zip(_tuple(lx(*xs)), weights))

    def loss_t(*xs):
        total = 0
        for o, w in zip(_tuple(th(*xs)), weights):
            w = T.as_tensor(w)
            total = total + (T.sum(T.real(o * w.conj())) if o.is_complex()
                             else T.sum(o.to(T.float64) * w))
        return total
    return inputs, loss_np, loss_t, rng


def _torch_grad(loss_t, inputs):
    leaves = [T.tensor(x, requires_grad=True) for x in inputs]
    grads = T.autograd.grad(loss_t(*leaves), leaves, allow_unused=True, materialize_grads=True)
    return [g.detach().resolve_conj().numpy() for g in grads]


def _direction(rng, inputs):
    return [rng.standard_normal(x.shape) + (1j * rng.standard_normal(x.shape)
                                            if np.iscomplexobj(x) else 0) for x in inputs]


def _fd(loss, inputs, dirs, h=1e-6):
    f = lambda t: loss(*[x + t * d for x, d in zip(inputs, dirs)])  # noqa: E731
    return (f(h) - f(-h)) / (2 * h)


def _dot(gs, dirs):
    return sum(np.sum(np.real(np.conj(g) * d)) for g, d in zip(gs, dirs))


def _norm(gs):
    return sum(np.linalg.norm(g) for g in gs)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", list(CASES))
def test_grad_matches_torch_and_finite_differences(name, kind):
    inputs, loss_np, loss_t, rng = _setup(name, kind)
    argnums = tuple(range(len(inputs)))
    got = linalgx.grad(loss_np, argnums=argnums)(*inputs)
    want = _torch_grad(loss_t, inputs)
    for g, w, x in zip(got, want, inputs):
        assert g.shape == w.shape == x.shape and g.dtype == x.dtype
    scale = max(_norm(want), 1e-300)
    assert _norm([g - w for g, w in zip(got, want)]) <= 1e-8 * scale
    if inputs[0].size:
        dirs = _direction(rng, inputs)
        assert abs(_dot(got, dirs) - _fd(loss_np, inputs, dirs)) <= 1e-6 * max(1.0, scale)


JVP_CASES = ["det", "slogdet", "inv", "solve", "cholesky", "qr_tall", "eigh", "svd_wide",
             "svdvals", "pinv_tall", "lstsq", "matrix_exp", "lu_wide", "householder_product",
             "eigvals", "matrix_power_-3", "solve_triangular_upper1_left0",
             "lu_solve_left0_adjoint1", "matrix_norm_nuc", "vector_norm_3", "cond_None"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", JVP_CASES)
def test_jvp_matches_torch(name, kind):
    lx, th, _ = CASES[name]
    inputs, _, _, rng = _setup(name, kind)
    dirs = _direction(rng, inputs)
    _, got = linalgx.jvp(lambda *xs: _tuple(lx(*xs)), tuple(inputs), tuple(dirs))
    _, want = torch.func.jvp(lambda *xs: _tuple(th(*xs)), tuple(T.tensor(x) for x in inputs),
                             tuple(T.tensor(d) for d in dirs))
    for g, w in zip(got, want):
        w = w.resolve_conj().numpy() if w.layout == T.strided and not w._is_zerotensor() \
            else np.zeros(w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-8, atol=1e-8 * max(1.0, np.abs(w).max()))


# one Hessian per op family (real inputs, first argument; the other inputs fixed)
HESSIAN_CASES = ["det", "slogdet", "inv", "solve", "cholesky", "qr_tall", "eigh", "svd_wide",
                 "pinv_wide", "lstsq", "matrix_exp", "lu_factor", "householder_product", "eig",
                 "matrix_power_-3", "solve_triangular_upper0_left1", "lu_solve_left1_adjoint0",
                 "matrix_norm_2", "vector_norm_3", "cond_None", "cross", "tensorinv"]


@pytest.mark.parametrize("name", HESSIAN_CASES)
def test_hessian_matches_torch(name):
    lx, th, _ = CASES[name]
    inputs, _, _, rng = _setup(name, "real")
    if inputs[0].ndim == 3 and name != "tensorinv":   # one element of a stacked case
        inputs = [x[0] for x in inputs]
    weights = [rng.standard_normal(np.shape(o)) for o in _tuple(lx(*inputs))]
    rest = inputs[1:]

    def loss_np(x):  # quadratic in the outputs, so linear maps get a nonzero Hessian too
        return sum(np.sum(np.real(o) * w + np.real(o) ** 2 / 3)
                   for o, w in zip(_tuple(lx(x, *rest)), weights))

    def loss_t(x):
        return sum(T.sum(T.real(o) * T.as_tensor(w) + T.real(o) ** 2 / 3)
                   for o, w in zip(_tuple(th(x, *[T.tensor(r) for r in rest])), weights))
    got = linalgx.hessian(loss_np)(inputs[0])
    want = T.autograd.functional.hessian(loss_t, T.tensor(inputs[0])).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-7 * np.abs(want).max())


# -- conventions where the two libraries differ on purpose -------------------------------------
def _from_lower(a):
    return T.tril(a, -1) + T.tril(a, -1).mH + T.diag_embed(T.real(T.diagonal(a, 0, -2, -1))
                                                           ).to(a.dtype)


def _from_upper(a):
    return _from_lower(a.mH)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name, lx, th", [
    ("eigvalsh_L", LA.eigvalsh, lambda a: TL.eigvalsh(_from_lower(a))),
    ("eigh_U", lambda a: LA.eigh(a, UPLO="U")[0], lambda a: TL.eigvalsh(_from_upper(a))),
    ("cholesky", LA.cholesky, lambda a: TL.cholesky(_from_lower(a))),
    ("cholesky_upper", lambda a: LA.cholesky(a, upper=True),
     lambda a: TL.cholesky(_from_upper(a), upper=True)),
    ("pinv_hermitian", lambda a: LA.pinv(a, hermitian=True),
     lambda a: TL.pinv(_from_lower(a), hermitian=True)),
])
def test_hermitian_input_is_read_from_one_triangle(name, lx, th, kind):
    # NumPy (LAPACK) reads one triangle and the real part of the diagonal, and linalgx
    # differentiates that function; torch symmetrizes the gradient instead. Both agree on the
    # Hermitian matrix built from the triangle that is read.
    rng = _rng(name, kind)
    a = _spd(rng, kind, (2, 4, 4))
    w = rng.standard_normal(np.shape(lx(a)))
    got = linalgx.grad(lambda x: np.sum(np.real(lx(x)) * w))(a)
    want = _torch_grad(lambda x: T.sum(T.real(th(x)) * T.as_tensor(w)), [a])[0]
    np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-8 * np.abs(want).max())
    d = _direction(rng, [a])
    fd = _fd(lambda x: np.sum(np.real(lx(x)) * w), [a], d)
    assert abs(_dot([got], d) - fd) <= 1e-6 * max(1.0, np.abs(got).sum())


# -- pinv where singular values are exactly zero (NaN through the SVD's rule before) ------------
def _low_rank(rng, kind, m, n, r, batch=()):
    # A = B C with B = [X; 0] and C = [I, 0]: exact zeros, so svd returns exact zero
    # singular values; A(t) = (B + t B1)(C + t C1) keeps the rank and moves A along
    # D = B1 C + B C1, a direction that fills every row and column.
    b = np.zeros(batch + (m, r), complex if kind == "complex" else float)
    b[..., :r, :] = _mat(rng, kind, batch + (r, r), 2)
    c = np.zeros(batch + (r, n)) + np.eye(r, n)
    return b, c, _mat(rng, kind, batch + (m, r)), _mat(rng, kind, batch + (r, n))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("m, n, r, batch", [(3, 3, 2, ()), (4, 3, 2, ()), (3, 5, 2, ()),
                                            (3, 5, 1, (2,)), (4, 4, 3, (2,))])
def test_pinv_gradient_with_exact_zero_singular_values(m, n, r, batch, kind):
    rng = _rng("pinv0", m, n, r, kind)
    b, c, b1, c1 = _low_rank(rng, kind, m, n, r, batch)
    a = b @ c
    assert (LA.svdvals(a)[..., r:] == 0).all()
    w = _mat(rng, kind, batch + (n, m))
    loss = lambda x: np.sum(np.real(LA.pinv(x) * np.conj(w)))  # noqa: E731
    g = linalgx.grad(loss)(a)
    assert np.isfinite(g).all()
    want = _torch_grad(lambda x: T.sum(T.real(TL.pinv(x) * T.as_tensor(w).conj())), [a])[0]
    np.testing.assert_allclose(g, want, rtol=1e-8, atol=1e-10 * np.abs(want).max())
    h = 1e-6   # the derivative along the rank-preserving curve
    fd = (loss((b + h * b1) @ (c + h * c1)) - loss((b - h * b1) @ (c - h * c1))) / (2 * h)
    assert abs(_dot([g], [b1 @ c + b @ c1]) - fd) <= 1e-6 * max(1.0, abs(fd))
    # forward mode along the same direction, and a batch of cotangents in one pass
    _, t = linalgx.jvp(LA.pinv, (a,), (b1 @ c + b @ c1,))
    assert abs(np.sum(np.real(t * np.conj(w))) - fd) <= 1e-6 * max(1.0, abs(fd))
    _, pullback = linalgx.vjp(LA.pinv, a)
    gb = pullback(np.stack([w, 2 * w]))[0]
    np.testing.assert_allclose(gb, np.stack([g, 2 * g]), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_pinv_gradient_at_zero_matrix_and_in_a_padded_stack(kind):
    rng = _rng("pinvzero", kind)
    a = np.stack([np.zeros((3, 4)), _mat(rng, kind, (3, 4))]).astype(
        complex if kind == "complex" else float)
    w = _mat(rng, kind, (2, 4, 3))
    g = linalgx.grad(lambda x: np.sum(np.real(LA.pinv(x) * np.conj(w))))(a)
    want = _torch_grad(lambda x: T.sum(T.real(TL.pinv(x) * T.as_tensor(w).conj())), [a])[0]
    assert np.isfinite(g).all() and not g[0].any()
    np.testing.assert_allclose(g, want, rtol=1e-8, atol=1e-12)


# -- where torch 2.x is wrong and linalgx agrees with finite differences ----------------------
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["svd_complement_of_U", "svd_complement_of_Vh", "det_rank_n-1"])
def test_finite_differences_side_with_linalgx_where_torch_differs(name, kind):
    # the projector onto the extra columns of U (rows of Vh) of svd(full_matrices=True) is
    # smooth; torch returns a zero gradient for it. torch's det gradient at a real matrix of
    # rank n-1 is zero too, where it is the (nonzero) adjugate.
    rng = _rng(name, kind)
    w = rng.standard_normal((5, 5))
    f = {"svd_complement_of_U": lambda a: (lambda u: u[:, 3:] @ np.conj(u[:, 3:].T))(
             LA.svd(a)[0]),
         "svd_complement_of_Vh": lambda a: (lambda vh: np.conj(vh[3:].T) @ vh[3:])(
             LA.svd(a.T)[2]),
         "det_rank_n-1": LA.det}[name]
    if name == "det_rank_n-1":
        a = _mat(rng, kind, (4, 3)) @ _mat(rng, kind, (3, 4))
    else:
        a = _mat(rng, kind, (5, 3))

    def loss(x):
        out = np.real(f(x))
        return np.sum(out * w[:out.shape[0], :out.shape[1]]) if out.ndim else out
    g = linalgx.grad(loss)(a)
    d = _direction(rng, [a])
    fd = _fd(loss, [a], d)
    assert abs(fd) > 1e-3 and abs(_dot([g], d) - fd) <= 1e-6 * max(1.0, abs(fd))
