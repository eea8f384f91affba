"""Every op of linalgx.linalg and linalgx.fft carries both autodiff rules (or is linear with
an adjoint); none silently drops a derivative."""
import importlib
import pkgutil

import numpy as np
import pytest

import linalgx
import linalgx.fft
import linalgx.linalg
import linalgx.linalg as LA
from linalgx._core.op import Op

# ops whose outputs are locally constant (integer-valued): a zero derivative is the truth
NONDIFF_ALLOWED = set()


def _ops():
    for pkg in (linalgx.linalg, linalgx.fft):
        for m in pkgutil.iter_modules(pkg.__path__):
            mod = importlib.import_module(f"{pkg.__name__}.{m.name}")
            for name, obj in vars(mod).items():
                if isinstance(obj, Op):
                    yield pytest.param(obj, id=f"{m.name}.{name}")


@pytest.mark.parametrize("op", list(_ops()))
def test_every_op_has_both_rules(op):
    if op.nondiff:
        assert op.name in NONDIFF_ALLOWED, f"{op.name} is marked non-differentiable"
    elif op.linear:
        assert op.adjoint_rule is not None
    else:
        assert op.jvp_rule is not None and op.vjp_rule is not None


@pytest.mark.parametrize("fn", [lambda a: LA.qr(a, mode="raw")[0].sum(),
                                lambda a: LA.ldl_factor(a)[0].sum()], ids=["qr_raw", "ldl"])
def test_unimplemented_derivatives_raise(fn):
    with pytest.raises(NotImplementedError):
        linalgx.grad(fn)(np.eye(3) * 2 + 0.1)


@pytest.mark.parametrize("mode", ["rev", "fwd"])
def test_ldl_solve_in_its_factor_raises_not_implemented_in_both_modes(mode):
    ld, piv = LA.ldl_factor(np.eye(3) * 2 + 0.1)
    with pytest.raises(NotImplementedError, match="ldl"):
        linalgx.jacobian(lambda f: LA.ldl_solve(f, piv, np.ones((3, 1))), mode=mode)(ld)


def test_plain_numpy_fft_routes_to_linalgx():
    x = np.random.default_rng(0).standard_normal(8)
    g = linalgx.grad(lambda x: (np.abs(np.fft.rfft(x)) ** 2).sum())(x)
    # Parseval-like closed form: d/dx sum |rfft x|^2 = 2 * irfft-adjoint ... check by FD
    eps = 1e-6
    f = lambda x: (np.abs(np.fft.rfft(x)) ** 2).sum()  # noqa: E731
    fd = np.array([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(8)])
    np.testing.assert_allclose(g, fd, rtol=1e-6)
