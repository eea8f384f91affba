"""The adjoint rules of the transform core, checked by the adjoint identity
``Re<op(x), g> == Re<x, adjoint(g)>`` for random x and random complex g.

The op-level tests call each op's ``adjoint_rule`` directly with ``xp=numpy`` (no autodiff
engine involved); the public-level tests pull back through ``linalgx.vjp`` for every
transform, norm, even/odd length, padding and truncation, and batched cotangents.
"""
import numpy as np
import pytest

import linalgx
import linalgx.fft as L
from linalgx.fft import _ops

NORMS = ("backward", "ortho", "forward")
# (input shape, negative axes, transform lengths): even/odd, padding/truncation, several axes
CONFIGS = [
    ((8,), (-1,), (8,)), ((7,), (-1,), (7,)), ((7,), (-1,), (10,)), ((8,), (-1,), (5,)),
    ((8,), (-1,), (11,)), ((6,), (-1,), (1,)), ((3, 9), (-1,), (6,)), ((9, 3), (-2,), (4,)),
    ((4, 6, 5), (-3, -1), (6, 4)), ((4, 6, 5), (-1, -2), (3, 9)), ((3, 5), (-2, -1), (3, 5)),
]


def _rand(rng, shape, complex_):
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if complex_ else x


def _inner(a, b):
    return float(np.real(np.sum(a * np.conj(b))))


def _check_identity(y, g, x, gx):
    lhs, rhs = _inner(y, g), _inner(x, gx)
    assert abs(lhs - rhs) <= 1e-11 * (np.linalg.norm(y) * np.linalg.norm(g) + 1e-300), (lhs, rhs)


@pytest.mark.parametrize("shape,axes,lengths", CONFIGS, ids=lambda v: str(v))
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "bwd"])
@pytest.mark.parametrize("kind", ["c2c", "c2c_real_input", "r2c", "c2r"])
def test_op_adjoint_identity(kind, forward, norm, shape, axes, lengths):
    rng = np.random.default_rng(len(shape) * 100 + sum(lengths))
    op = getattr(_ops, kind[:3])
    x = _rand(rng, shape, complex_=kind in ("c2c", "c2r"))
    params = dict(axes=axes, lengths=lengths, norm=norm, forward=forward)
    y = op(x, **params)
    g = _rand(rng, y.shape, complex_=kind != "c2r")
    (gx,) = op.adjoint_rule(np, g, x, **params)
    assert gx.shape == x.shape
    assert (gx.dtype.kind == "c") == (x.dtype.kind == "c")  # real input, real cotangent
    _check_identity(y, g, x, gx)


@pytest.mark.parametrize("kind", ["c2c", "r2c", "c2r", "resize"])
def test_op_adjoint_with_leading_batch_axes(kind):
    """A batch of cotangents (extra leading axes) equals the stacked single adjoints."""
    rng = np.random.default_rng(7)
    op = getattr(_ops, kind)
    x = _rand(rng, (4, 6, 5), complex_=kind != "r2c")
    params = dict(axes=(-3, -1), lengths=(6, 8))
    if kind != "resize":
        params.update(norm="ortho", forward=True)
    y = op(x, **params)
    g = _rand(rng, (2, 3) + y.shape, complex_=kind != "c2r")
    (batched,) = op.adjoint_rule(np, g, x, **params)
    assert batched.shape == (2, 3) + x.shape
    for i in range(2):
        for j in range(3):
            (single,) = op.adjoint_rule(np, g[i, j], x, **params)
            np.testing.assert_allclose(batched[i, j], single, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("lengths", [(3, 9), (6, 2), (4, 5)])
def test_resize_adjoint_identity(lengths):
    rng = np.random.default_rng(3)
    x = _rand(rng, (4, 5), complex_=True)
    params = dict(axes=(-2, -1), lengths=lengths)
    y = _ops.resize(x, **params)
    g = _rand(rng, y.shape, complex_=True)
    (gx,) = _ops.resize.adjoint_rule(np, g, x, **params)
    _check_identity(y, g, x, gx)


def test_float32_adjoint_keeps_precision():
    rng = np.random.default_rng(5)
    x = _rand(rng, 10, complex_=False).astype(np.float32)
    params = dict(axes=(-1,), lengths=(10,), norm="backward", forward=True)
    g = _rand(rng, 6, complex_=True).astype(np.complex64)
    (gx,) = _ops.r2c.adjoint_rule(np, g, x, **params)
    assert gx.dtype == np.float32


# -- the public transforms, through the autodiff engine -----------------------------------------
_REAL_IN = {"rfft", "ihfft", "rfftn", "rfft2", "ihfftn", "ihfft2"}
_PUBLIC_1D = [(name, n) for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
              for n in (None, 6, 7, 12, 13)]
_PUBLIC_ND = [("fftn", (4, 6), (0, 1)), ("ifftn", (5, 3), (1, 0)), ("fft2", (3, 8), (-2, -1)),
              ("ifft2", None, (0, 1)), ("rfftn", (4, 7), (0, 1)), ("irfftn", (6, 9), (0, 1)),
              ("rfft2", (5, 6), (1, 0)), ("irfft2", None, (0, 1)), ("hfftn", (3, 7), (0, 1)),
              ("ihfftn", (6, 4), (1, 0)), ("hfft2", None, (0, 1)), ("ihfft2", (2, 5), (0, 1)),
              ("fftn", (5, 3), (1, 1)), ("rfftn", (3, 4, 6), (0, 0, 1)),
              ("irfftn", (4, 5, 8), (1, 0, 1))]


def _public_identity(fn, x, batch=()):
    rng = np.random.default_rng(11)
    y, pullback = linalgx.vjp(fn, x)
    g = _rand(rng, batch + y.shape, complex_=y.dtype.kind == "c")
    (gx,) = pullback(g)
    assert gx.shape == batch + x.shape
    for idx in np.ndindex(*batch):
        _check_identity(y, g[idx], x, gx[idx])


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("name,n", _PUBLIC_1D, ids=lambda v: str(v))
def test_public_1d_adjoint(name, n, norm):
    rng = np.random.default_rng(1)
    x = _rand(rng, (3, 8), complex_=name not in _REAL_IN)
    _public_identity(lambda z: getattr(L, name)(z, n=n, axis=-1, norm=norm), x)


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("name,s,axes", _PUBLIC_ND, ids=lambda v: str(v))
def test_public_nd_adjoint(name, s, axes, norm):
    rng = np.random.default_rng(2)
    x = _rand(rng, (4, 5, 6), complex_=name not in _REAL_IN)
    _public_identity(lambda z: getattr(L, name)(z, s=s, axes=axes, norm=norm), x)


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "rfftn", "irfftn", "ihfftn"])
def test_public_adjoint_with_a_batch_of_cotangents(name):
    rng = np.random.default_rng(4)
    x = _rand(rng, (4, 6), complex_=name not in _REAL_IN)
    _public_identity(getattr(L, name), x, batch=(2, 3))


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "hfft", "fftn", "irfftn", "fftshift"])
def test_gradcheck(name):
    rng = np.random.default_rng(6)
    x = _rand(rng, (3, 5), complex_=name not in _REAL_IN)
    assert linalgx.gradcheck(getattr(L, name), x)


def test_parseval_gradient():
    x = np.array([1 + 2j, -0.5j, 3.0, 0.25 - 1j])
    g = linalgx.grad(lambda z: (abs(L.fft(z)) ** 2).sum())(x)
    np.testing.assert_allclose(g, 2 * x.size * x)  # PyTorch's convention: d|z|^2 = 2z


def test_real_cotangent_of_a_complex_output():
    """A real cotangent (e.g. a real basis pulled back by a Jacobian) is accepted."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal(7)
    params = dict(axes=(-1,), lengths=(7,), norm="ortho", forward=True)
    y = _ops.r2c(x, **params)
    g = rng.standard_normal(y.shape)
    (gx,) = _ops.r2c.adjoint_rule(np, g, x, **params)
    _check_identity(y, g, x, gx)
