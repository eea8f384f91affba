"""The autodiff engine on NumPy primitives: finite differences (gradcheck), closed-form
derivatives, the complex convention, vectorized Jacobians and higher order."""
import numpy as np
import pytest

import linalgx
from linalgx import grad, gradcheck, hessian, jacobian, jvp, vjp

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4))
Z = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
POS = rng.uniform(0.5, 2.0, (3, 4))

UNARY = {
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "exp": np.exp, "log": np.log,
    "sqrt": np.sqrt, "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "expm1": np.expm1,
    "log1p": np.log1p, "square": np.square, "reciprocal": np.reciprocal, "abs": np.abs,
    "conj": np.conj, "real": np.real, "imag": np.imag, "neg": np.negative,
    "arctan": np.arctan, "log2": np.log2, "log10": np.log10, "exp2": np.exp2,
    "angle": np.angle,
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("kind", ["real", "complex"])
def test_unary_gradcheck(name, kind):
    x = POS if kind == "real" else Z * 0.5 + 1.5
    gradcheck(UNARY[name], x)


EXPRS = {
    "add_broadcast": lambda a, b: a + b[0],
    "sub": lambda a, b: a - 2 * b,
    "mul_broadcast": lambda a, b: a * b[:, :1],
    "div": lambda a, b: a / (b + 3),
    "pow_const": lambda a, b: a ** 3,
    "pow_both": lambda a, b: (a * a + 1) ** (b * 0.1 + 1),
    "matmul": lambda a, b: a @ b.T,
    "matmul_vec": lambda a, b: a @ b[0],
    "vec_matmul": lambda a, b: a[0] @ b.T,
    "einsum": lambda a, b: np.einsum("ij,kj->ik", a, b),
    "einsum_trace": lambda a, b: np.einsum("ii->", a @ b.T),
    "einsum_ellipsis": lambda a, b: np.einsum("...j,...j->...", a, b),
    "sum_axis": lambda a, b: np.sum(a * b, axis=0),
    "sum_keepdims": lambda a, b: (a * b).sum(axis=1, keepdims=True),
    "mean": lambda a, b: np.mean(a * b, axis=-1),
    "prod": lambda a, b: np.prod(a + b, axis=0),
    "max": lambda a, b: np.max(a.real + b.real, axis=1),
    "where": lambda a, b: np.where(a.real > 0, a, b),
    "getitem": lambda a, b: a[1:, ::2] * b[[0, 2], 1:3],
    "reshape_T": lambda a, b: a.reshape(4, 3).T * b,
    "swap_moveaxis": lambda a, b: np.moveaxis(np.swapaxes(a[None], 0, 1), 0, -1) * 2,
    "squeeze_expand": lambda a, b: np.squeeze(np.expand_dims(a, 0), 0) + b,
    "concat_stack": lambda a, b: np.concatenate([a, np.stack([b[0], b[1]])], axis=0),
    "dot_tensordot": lambda a, b: np.dot(a, b.T) + np.tensordot(a, b, axes=([1], [1])),
    "outer_trace": lambda a, b: np.outer(a[0], b[1]) * np.trace(a[:, :3] @ b[:, :3].T),
    "diagonal_tril": lambda a, b: np.tril(a[:, :3] @ b[:, :3].T) + np.diagonal(a @ b.T),
    "cumsum_flip": lambda a, b: np.cumsum(a * b, axis=1),
    "maximum": lambda a, b: np.maximum(a.real, b.real),
    "astype": lambda a, b: a.astype(np.complex128) * b,
    # NumPy functions written with the primitives (linalgx._core.numpy_extra)
    "roll_tile_repeat": lambda a, b: np.roll(a, 2, axis=1) * np.tile(b[:1], (3, 1))
    + np.repeat(a[:, :2], 2, axis=1),
    "take_take_along": lambda a, b: np.take(a, [0, 2, 2], axis=1)
    + np.take_along_axis(b, np.array([[1, 0, 0]] * 3), axis=1),
    "rot90_flips": lambda a, b: np.rot90(a) @ np.fliplr(np.flipud(b)),
    "var_std": lambda a, b: np.var(a, axis=1) + np.std(b, ddof=1) + np.var(a * b, axis=0)[:3],
    "stacks": lambda a, b: np.hstack([a, b]).sum(0) + np.vstack([a, b[0]]).sum(1)[:2].sum()
    + np.column_stack([a[:, 0], b]).sum(1)[0] + np.dstack([a, b]).sum(),
    "diff_append_trapezoid": lambda a, b: np.diff(a, n=2, axis=1, prepend=b[:, :1])[:, :2]
    * np.trapezoid(b, x=np.array([0.0, 1.0, 3.0, 4.0]))[:, None] + np.append(a, b)[:2].sum(),
    "atleast": lambda a, b: np.atleast_3d(a) * np.atleast_2d(b[0])[..., None],
    "sort": lambda a, b: np.sort(a.real, axis=0) * np.sort(b.real, axis=None)[:4],
    "clip": lambda a, b: np.clip(a.real, -0.5, 0.4) + np.clip(b.real, min=-0.2),
    "hypot_logaddexp": lambda a, b: np.hypot(a.real, b.real) + np.logaddexp(a.real, 0.3)
    + np.logaddexp2(b.real, a.real),
    "fmax_fmin": lambda a, b: np.fmax(a.real, b.real) - np.fmin(a.real, 0.1),
    "sign": lambda a, b: np.sign(a) * b,
    "angle_deg": lambda a, b: np.angle(a, deg=True) * b,
    # complex: Re < 0, where 1/sqrt(z**2 - 1) has the wrong sign; real: the domain z > 1
    "arccosh": lambda a, b: np.arccosh(a * 0.5 + (-2.0 if np.iscomplexobj(a) else 3.0)) * b,
}


@pytest.mark.parametrize("name", sorted(EXPRS))
@pytest.mark.parametrize("kind", ["real", "complex"])
def test_expression_gradcheck(name, kind):
    f = EXPRS[name]
    if kind == "real":
        a, b = X.copy(), rng.standard_normal((3, 4))
    else:
        if name in ("max", "maximum", "where", "sort", "clip", "hypot_logaddexp",
                    "fmax_fmin"):
            pytest.skip("real-only comparison")
        a, b = Z.copy(), Z[::-1].copy() * 0.7
    if name == "pow_both":
        a, b = POS, POS[::-1].copy()
    gradcheck(f, a, b)


def test_complex_convention_pytorch():
    # grad of |z|^2 is 2z = dL/dx + i dL/dy (JAX would give the conjugate)
    assert grad(lambda z: (abs(z) ** 2).sum())(np.array(3 + 4j)) == pytest.approx(6 + 8j)
    # holomorphic f: vjp(1) = conj(f'(z))
    z = np.array(1 + 2j)
    _, pb = vjp(lambda z: z * z, z)
    assert pb(np.array(1.0 + 0j))[0] == pytest.approx(np.conj(2 * z))


def test_real_primal_real_cotangent():
    x = np.array([1.0, 2.0])
    g = grad(lambda x: np.real(np.exp(1j * x)).sum())(x)
    assert g.dtype == np.float64
    np.testing.assert_allclose(g, -np.sin(x))


def test_jacobian_is_one_vectorized_pass_and_modes_agree():
    a = rng.standard_normal((4, 3))
    f = lambda x: np.tanh(a @ x) * np.sum(x ** 2)  # noqa: E731
    x = rng.standard_normal(3)
    jr = jacobian(f)(x)
    jf = jacobian(f, mode="fwd")(x)
    eps = 1e-6
    fd = np.stack([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(3)], axis=1)
    np.testing.assert_allclose(jr, fd, atol=1e-7)
    np.testing.assert_allclose(jf, fd, atol=1e-7)


def test_hessian_and_higher_order():
    x = rng.standard_normal(4)
    f = lambda x: np.sum(np.sin(x) * x ** 2) + np.prod(x)  # noqa: E731
    h = hessian(f)(x)
    eps = 1e-5
    g = grad(f)
    fd = np.stack([(g(x + eps * e) - g(x - eps * e)) / (2 * eps) for e in np.eye(4)])
    np.testing.assert_allclose(h, fd, atol=1e-6)
    # reverse-over-reverse, third order
    d3 = grad(grad(grad(lambda t: np.sin(t) * t)))(np.array(0.7))
    t = 0.7
    assert d3 == pytest.approx(-3 * np.sin(t) - t * np.cos(t))


def test_jvp_batched_tangents():
    x = rng.standard_normal(3)
    t = rng.standard_normal((5, 3))
    out, tout = jvp(lambda x: np.exp(x) * x.sum(), (x,), (t,))
    expect = np.exp(x) * x.sum() * t + np.exp(x) * t.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(tout, expect)


def test_batched_tangents_against_operands_with_more_leading_axes():
    """A batch of tangent directions stays in front of the axes a constant operand
    broadcasts in (matmul, a constant exponent array, logsumexp's weights b)."""
    from linalgx.special import logsumexp
    a = np.arange(18.0).reshape(2, 3, 3)
    p = np.full((3, 3), 2.0)
    w = np.array([[1.0, 2, 3], [4, 5, 6], [1, 1, 1]])
    x = np.array([0.5, 1.0, 2.0])
    eps = 1e-6
    for f in (lambda x: a @ x, lambda x: x @ a, lambda x: np.sin(x) ** p,
              lambda x: logsumexp(x, b=w, axis=-1)):
        _, t = jvp(f, (x,), (np.eye(3)[:2],))
        fd = np.stack([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(3)[:2]])
        np.testing.assert_allclose(t, fd, atol=1e-6)
        loss = lambda x, f=f: np.sum(f(x) ** 2)  # noqa: E731
        g = grad(loss)
        fd = np.stack([(g(x + eps * e) - g(x - eps * e)) / (2 * eps) for e in np.eye(3)])
        np.testing.assert_allclose(hessian(loss)(x), fd, rtol=1e-5, atol=1e-4)


def test_jacobian_rev_of_a_complex_output_of_a_real_input():
    f = lambda x: np.exp(1j * x) * x  # noqa: E731
    x = np.array([0.3, -1.2])
    expect = np.diag((1j * x + 1) * np.exp(1j * x))  # df/dx
    np.testing.assert_allclose(jacobian(f)(x), expect)
    np.testing.assert_allclose(jacobian(f, mode="fwd")(x), expect)
    # several arguments, one real and one complex: the complex one keeps conj(df/dz) rows
    g = lambda x, z: x * z  # noqa: E731
    z = np.array([1 + 2j, -1j])
    jx, jz = jacobian(g, argnums=(0, 1))(x, z)
    np.testing.assert_allclose(jx, np.diag(z))
    np.testing.assert_allclose(jz, np.diag(np.conj(x)))


def test_derivatives_at_zero_are_the_zero_subgradient():
    import linalgx.linalg as LA
    for f in (LA.norm, lambda x: LA.vector_norm(x), lambda x: LA.matrix_norm(x.reshape(2, 2)),
              lambda x: np.sum(np.hypot(x, 0.0))):
        with np.errstate(all="raise"):
            np.testing.assert_array_equal(grad(f)(np.zeros(4)), 0.0)
    # x ** p with p = 0 and 1 in an exponent array: d/dx of x**0 + x**1 + x**2 at 0 is 1
    assert grad(lambda x: np.sum(x ** np.array([0.0, 1.0, 2.0])))(np.array(0.0)) == 1.0
    # the sign of a complex number z/|z| has a derivative (0 at z = 0, as torch.sgn)
    assert grad(lambda z: np.sum(np.abs(np.sign(z) + 1)))(np.array([0j]))[0] == 0


def test_item_of_a_traced_value_raises():
    with pytest.raises(TypeError, match="item"):
        grad(lambda x: x.sum().item() * x.sum())(np.ones(2))


def test_unsupported_numpy_function_raises_naming_it():
    with pytest.raises(TypeError, match="numpy.partition"):
        grad(lambda x: np.sum(np.partition(x, 1)))(np.ones(3))
    with pytest.raises(TypeError, match="fmod"):
        grad(lambda x: np.sum(np.fmod(x, 2.0)))(np.ones(3))


def test_conversion_to_ndarray_refuses():
    with pytest.raises(TypeError, match="traced value"):
        grad(lambda x: np.asarray(x).sum())(np.ones(2))


def test_value_and_grad_has_aux_and_argnums():
    f = lambda x, y: ((x * y).sum(), x.size)  # noqa: E731
    (v, aux), (gx, gy) = linalgx.value_and_grad(f, argnums=(0, 1), has_aux=True)(
        np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    assert v == 11.0 and aux == 2
    np.testing.assert_allclose(gx, [3, 4])
    np.testing.assert_allclose(gy, [1, 2])


def test_grad_requires_real_scalar():
    with pytest.raises(TypeError, match="scalar"):
        grad(lambda x: x * 2)(np.ones(2))
    with pytest.raises(TypeError, match="real-valued"):
        grad(lambda z: (z * z).sum())(np.ones(2) + 0j)


def test_gradcheck_catches_a_wrong_rule():
    from linalgx._core import basic
    op = basic.sin
    saved = op.vjp_rule
    try:
        op.def_vjp(lambda xp, g, out, x: (g * 2.0,))
        report = gradcheck(np.sin, np.array([0.3, 0.4]), raise_exception=False)
        assert not report.ok
        assert "NO" in repr(report) and "<table>" in report._repr_html_()
    finally:
        op.def_vjp(saved)


@pytest.mark.parametrize("mode", ["rev", "fwd"])
def test_jacobian_of_tuple_outputs_and_several_arguments(mode):
    x = rng.standard_normal(3)
    y = rng.standard_normal(3)
    j_sq, j_sum = jacobian(lambda x: (x ** 2, np.sin(x).sum()), mode=mode)(x)
    np.testing.assert_allclose(j_sq, np.diag(2 * x))
    np.testing.assert_allclose(j_sum, np.cos(x))
    jx, jy = jacobian(lambda a, b: a * b, argnums=(0, 1), mode=mode)(x, y)
    np.testing.assert_allclose(jx, np.diag(y))
    np.testing.assert_allclose(jy, np.diag(x))


def test_hessian_of_two_arguments_is_symmetric_and_matches_closed_form():
    x, y = rng.standard_normal(2), rng.standard_normal(2)
    (hxx, hxy), (hyx, hyy) = hessian(lambda a, b: np.sum(a * a * b), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(hxx, np.diag(2 * y))
    np.testing.assert_allclose(hxy, np.diag(2 * x))
    np.testing.assert_allclose(hyx, np.diag(2 * x))
    np.testing.assert_allclose(hyy, np.zeros((2, 2)))


def test_misuse_gets_a_clear_error():
    with pytest.raises(TypeError, match="pair"):
        grad(lambda x: np.sum(x), has_aux=True)(np.ones(2))

    def assign(x):
        x[0] = 1.0
        return np.sum(x)
    with pytest.raises(TypeError, match="in-place assignment"):
        grad(assign)(np.ones(2))
