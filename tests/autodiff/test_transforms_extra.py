"""The transforms' calling conventions against torch.autograd: aux outputs, dict outputs,
keyword arguments, the ndarray methods of traced values, integer outputs of jacobian."""
from collections import OrderedDict

import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA
from linalgx import grad, hessian, jacobian, jvp, value_and_grad, vjp

torch = pytest.importorskip("torch")

rng = np.random.default_rng(7)
X = rng.standard_normal(4)
A = rng.standard_normal((3, 4))


def _torch_grad(f, *xs):
    ts = [torch.tensor(x, requires_grad=True) for x in xs]
    gs = torch.autograd.grad(f(*ts), ts)
    return [g.numpy() for g in gs]


def _assert_plain(tree):
    """Every leaf of a tree of tuples, lists and dicts is a NumPy value, not a Box."""
    leaves, _ = linalgx._core.transforms._flatten(tree)
    for leaf in leaves:
        assert not isinstance(leaf, linalgx._core.box.Box), type(leaf)
    return leaves


# -- has_aux ------------------------------------------------------------------------------------
def test_grad_has_aux_returns_plain_arrays():
    def f(x):
        return np.sum(x ** 2 * np.sin(x)), {"twice": 2 * x, "rest": (np.sin(x), [x.sum(), 3])}

    g, aux = grad(f, has_aux=True)(X)
    np.testing.assert_allclose(g, _torch_grad(lambda x: (x ** 2 * torch.sin(x)).sum(), X)[0])
    _assert_plain(aux)
    np.testing.assert_array_equal(np.asarray(aux["twice"]), 2 * X)
    np.testing.assert_array_equal(aux["rest"][0], np.sin(X))
    assert aux["rest"][1][0] == pytest.approx(X.sum()) and aux["rest"][1][1] == 3

    (v, aux2), g2 = value_and_grad(f, has_aux=True)(X)
    assert float(v) == pytest.approx(np.sum(X ** 2 * np.sin(X)))
    _assert_plain(aux2)
    np.testing.assert_allclose(g2, g)


def test_vjp_and_jvp_has_aux_as_jax():
    out, pullback, aux = vjp(lambda x: (np.sin(x), np.cos(x)), X, has_aux=True)
    assert type(aux) is np.ndarray
    np.testing.assert_array_equal(aux, np.cos(X))
    np.testing.assert_allclose(pullback(np.ones(4))[0], np.cos(X))
    out, tout, aux = jvp(lambda x: (np.exp(x), [x * 3]), (X,), (np.ones(4),), has_aux=True)
    assert type(aux) is list and type(aux[0]) is np.ndarray
    np.testing.assert_allclose(tout, np.exp(X))


def test_aux_of_an_inner_transform_stays_differentiable_by_the_outer_one():
    # only the inner trace's Boxes are unwrapped: d/dy sum(sin(y)) through the inner aux
    def outer(y):
        _, aux = grad(lambda x: (np.sum(x ** 2), np.sin(x)), has_aux=True)(y)
        return np.sum(aux)
    np.testing.assert_allclose(grad(outer)(X), _torch_grad(lambda y: torch.sin(y).sum(), X)[0])


# -- dict outputs -------------------------------------------------------------------------------
def _dict_f(x):
    return {"sq": x ** 2, "a": {"exp": np.exp(x[:2]), "sum": np.sum(np.sin(x))}}


def _dict_f_torch(x):
    return {"sq": x ** 2, "a": {"exp": torch.exp(x[:2]), "sum": torch.sin(x).sum()}}


def test_vjp_of_a_dict_output():
    out, pullback = vjp(_dict_f, X)
    _assert_plain(out)
    np.testing.assert_allclose(out["sq"], X ** 2)
    assert list(out) == ["a", "sq"]  # rebuilt in sorted key order, as JAX
    # a cotangent of the same structure, in any key order
    ct = {"a": {"sum": 2.0, "exp": np.array([1.0, -1.0])}, "sq": np.arange(4.0)}
    got = pullback(ct)[0]
    want = _torch_grad(lambda x: (_dict_f_torch(x)["sq"] * torch.arange(4.0)).sum()
                       + 2 * _dict_f_torch(x)["a"]["sum"]
                       + (_dict_f_torch(x)["a"]["exp"] * torch.tensor([1.0, -1.0])).sum(), X)
    np.testing.assert_allclose(got, want[0])
    with pytest.raises(ValueError, match="structure"):
        pullback({"a": {"sum": 2.0, "EXP": np.ones(2)}, "sq": np.ones(4)})


def test_jvp_and_jacobian_of_a_dict_output():
    t = rng.standard_normal(4)
    out, tout = jvp(_dict_f, (X,), (t,))
    _assert_plain(out)
    _assert_plain(tout)
    _, want = torch.func.jvp(_dict_f_torch, (torch.tensor(X),), (torch.tensor(t),))
    np.testing.assert_allclose(tout["sq"], want["sq"].numpy())
    np.testing.assert_allclose(tout["a"]["exp"], want["a"]["exp"].numpy())
    np.testing.assert_allclose(tout["a"]["sum"], want["a"]["sum"].numpy())
    want = torch.func.jacrev(_dict_f_torch)(torch.tensor(X))
    for mode in ("rev", "fwd"):
        jac = jacobian(_dict_f, mode=mode)(X)
        _assert_plain(jac)
        np.testing.assert_allclose(jac["sq"], want["sq"].numpy())
        np.testing.assert_allclose(jac["a"]["exp"], want["a"]["exp"].numpy())
        np.testing.assert_allclose(jac["a"]["sum"], want["a"]["sum"].numpy())


def test_ordered_dict_keeps_its_order():
    out, tout = jvp(lambda x: OrderedDict([("z", x), ("a", 2 * x)]), (X,), (np.ones(4),))
    assert type(tout) is OrderedDict and list(tout) == ["z", "a"]
    np.testing.assert_array_equal(tout["a"], np.full(4, 2.0))


# -- keyword arguments --------------------------------------------------------------------------
def _kw(x, w, p=2.0, scale=1.0):
    return scale * np.sum(np.abs(x) ** p * w)


def test_keyword_arguments_pass_through_undifferentiated():
    w = np.array([1.0, 2.0, 0.5, 3.0])
    tf = lambda x, w: 0.5 * (x.abs() ** 3.0 * w).sum()  # noqa: E731
    gx, gw = _torch_grad(tf, X, w)
    np.testing.assert_allclose(grad(_kw)(X, w, p=3.0, scale=0.5), gx)
    np.testing.assert_allclose(grad(_kw, argnums=(0, 1))(X, w, p=3.0, scale=0.5)[1], gw)
    v, g = value_and_grad(_kw)(X, w, p=3.0, scale=0.5)
    assert float(v) == pytest.approx(float(tf(torch.tensor(X), torch.tensor(w))))
    np.testing.assert_allclose(g, gx)
    want_h = torch.autograd.functional.hessian(lambda x: tf(x, torch.tensor(w)), torch.tensor(X))
    np.testing.assert_allclose(hessian(_kw)(X, w, p=3.0, scale=0.5), want_h.numpy())
    want_j = torch.autograd.functional.jacobian(lambda x: x ** 3 * 2, torch.tensor(X))
    for mode in ("rev", "fwd"):
        j = jacobian(lambda x, p, c: x ** p * c, mode=mode)(X, p=3.0, c=2.0)
        np.testing.assert_allclose(j, want_j.numpy())


# -- ndarray methods of traced values -----------------------------------------------------------
METHODS = {
    "std": (lambda a: a.std(), lambda t: t.std(correction=0)),
    "std_axis_ddof": (lambda a: a.std(axis=1, ddof=1), lambda t: t.std(dim=1, correction=1)),
    "var_keepdims": (lambda a: a.var(axis=0, keepdims=True),
                     lambda t: t.var(dim=0, correction=0, keepdim=True)),
    "cumsum": (lambda a: a.cumsum(axis=1), lambda t: t.cumsum(dim=1)),
    "cumsum_flat": (lambda a: a.cumsum(), lambda t: t.reshape(-1).cumsum(0)),
    "clip": (lambda a: a.clip(-0.3, 0.4), lambda t: t.clamp(-0.3, 0.4)),
    "clip_max": (lambda a: a.clip(max=0.2), lambda t: t.clamp(max=0.2)),
    "repeat": (lambda a: a.repeat(2, axis=0), lambda t: t.repeat_interleave(2, dim=0)),
    "repeat_flat": (lambda a: a.repeat([1, 2, 0, 1] * 3),
                    lambda t: t.reshape(-1).repeat_interleave(torch.tensor([1, 2, 0, 1] * 3))),
    "take": (lambda a: a.take([0, 3, 3], axis=1),
             lambda t: t.index_select(1, torch.tensor([0, 3, 3]))),
    "take_flat": (lambda a: a.take([5, 0, 5]), lambda t: t.reshape(-1)[[5, 0, 5]]),
    "sort": (lambda a: a.sort(axis=0), lambda t: t.sort(dim=0).values),
    "sort_last": (lambda a: a.sort(), lambda t: t.sort(dim=-1).values),
    "flat": (lambda a: a.flat[2:7], lambda t: t.reshape(-1)[2:7]),
}


@pytest.mark.parametrize("name", sorted(METHODS))
@pytest.mark.parametrize("mode", ["rev", "fwd"])
def test_ndarray_methods_differentiate_as_torch(name, mode):
    f, tf = METHODS[name]
    want = torch.autograd.functional.jacobian(tf, torch.tensor(A)).numpy()
    got = jacobian(f, mode=mode)(A)
    np.testing.assert_allclose(got, want, atol=1e-12)
    np.testing.assert_allclose(jvp(f, (A,), (np.ones_like(A),))[0], tf(torch.tensor(A)))


def test_value_methods_match_numpy():
    a = np.array([[0.0, 2.0, -1.0], [3.0, 0.0, 0.0]])
    seen = {}

    def f(x):
        seen.update(any=x.any(), all=x.all(axis=1), argmax=x.argmax(), argmin=x.argmin(axis=0),
                    nonzero=x.nonzero(), argsort=x.argsort(axis=None))
        return np.sum(x)
    grad(f)(a)
    _assert_plain(seen)
    assert seen["any"] == a.any()
    np.testing.assert_array_equal(seen["all"], a.all(axis=1))
    assert seen["argmax"] == a.argmax()
    np.testing.assert_array_equal(seen["argmin"], a.argmin(axis=0))
    np.testing.assert_array_equal(seen["nonzero"], a.nonzero())
    np.testing.assert_array_equal(seen["argsort"], a.argsort(axis=None))


def test_tolist_of_a_traced_value_raises_as_item():
    with pytest.raises(TypeError, match="tolist"):
        grad(lambda x: np.sum(x) * len(x.tolist()))(np.ones(2))


# -- integer outputs ----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["rev", "fwd"])
def test_jacobian_of_an_integer_output_is_a_float_zero(mode):
    a = np.array([[1.0, 2.0, 0.5], [3.0, 4.0, 1.0], [0.2, -1.0, 2.0]])
    j_lu, j_piv = jacobian(LA.lu_factor, mode=mode)(a)
    assert j_piv.dtype == np.float64 and j_piv.shape == (3, 3, 3)
    np.testing.assert_array_equal(j_piv, 0.0)
    want = torch.autograd.functional.jacobian(lambda t: torch.linalg.lu_factor(t)[0],
                                              torch.tensor(a))
    np.testing.assert_allclose(j_lu, want.numpy(), atol=1e-12)


# a rule whose cotangent carries no derivative (the sign of a real determinant, an integer
# status) answers zero; the Jacobian's vectorized pullback must still give it its batch
@pytest.mark.parametrize("mode", ["rev", "fwd"])
@pytest.mark.parametrize("fn, out_shape", [
    (lambda a: LA.slogdet(a)[0], ()),
    (lambda a: LA.slogdet(np.stack([a, 2 * a]))[0], (2,)),
    (lambda a: LA.inv_ex(a)[1], ()),
    (lambda a: LA.cholesky_ex(np.stack([a, a]))[1], (2,)),
    (lambda a: LA.solve_ex(a, np.ones(3))[1], ()),
], ids=["slogdet_sign", "slogdet_sign_stack", "inv_ex_info", "cholesky_ex_info",
        "solve_ex_info"])
def test_jacobian_of_an_output_without_derivative_is_zero(fn, out_shape, mode):
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    j = jacobian(fn, mode=mode)(a)
    assert j.shape == out_shape + (3, 3) and j.dtype == np.float64
    np.testing.assert_array_equal(j, 0.0)
