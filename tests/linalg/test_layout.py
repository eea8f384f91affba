"""Result memory layout: NumPy's gufuncs allocate their outputs with the batch axes in the
memory order of the inputs (an F-ordered stack of stacks gives F-ordered batch axes, each
matrix C-ordered); linalgx's results have the same strides as NumPy's on both CPU backends,
and NumPy's values."""
import itertools

import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA

_rng = np.random.default_rng(5)

OPS = {
    "inv": lambda m, a: m.inv(a),
    "det": lambda m, a: m.det(a),
    "slogdet": lambda m, a: m.slogdet(a),
    "solve": lambda m, a: m.solve(a, a[..., :2]),
    "cholesky": lambda m, a: m.cholesky(a @ np.swapaxes(a, -1, -2).conj()),
    "eigh": lambda m, a: m.eigh(a),
    "eigvalsh": lambda m, a: m.eigvalsh(a),
    "svd": lambda m, a: m.svd(a),
    "svdvals": lambda m, a: m.svd(a, compute_uv=False),
    "qr": lambda m, a: m.qr(a),
    "qr_r": lambda m, a: m.qr(a, mode="r"),
    "qr_raw": lambda m, a: m.qr(a, mode="raw"),
}


def _in_memory_order(shape, order, dtype):
    """An array of logical ``shape`` whose axes lie in memory in the order ``order``."""
    mem = _rng.standard_normal([shape[i] for i in order])
    if np.dtype(dtype).kind == "c":
        mem = mem + 1j * _rng.standard_normal(mem.shape)
    a = mem.astype(dtype).transpose(np.argsort(order))
    a += 3 * np.eye(shape[-1], dtype=dtype)
    return a


def _layout(r):
    r = np.asarray(r)
    return [s for s, n in zip(r.strides, r.shape) if n > 1]  # length-1 axes: any stride


def _orders(ndim, count):
    orders = list(itertools.permutations(range(ndim)))
    picks = _rng.choice(len(orders), size=min(count, len(orders)), replace=False)
    return [orders[i] for i in sorted(picks)]


@pytest.mark.parametrize("backend", ["numba", "lapack"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
@pytest.mark.parametrize("batch", [(40, 30), (2, 3), (3, 1, 2)])
@pytest.mark.parametrize("op", OPS)
def test_outputs_laid_out_as_numpys(op, batch, dtype, backend):
    shape = batch + (3, 3)
    for order in _orders(len(shape), 12):
        a = _in_memory_order(shape, order, dtype)
        want = OPS[op](np.linalg, a)
        with linalgx.backend(backend):
            got = OPS[op](LA, a)
        want = want if isinstance(want, tuple) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        for g, w in zip(got, want):
            assert _layout(g) == _layout(w), (order, np.asarray(g).strides,
                                              np.asarray(w).strides)
            if op not in ("eigh", "svd"):  # vectors: up to phase
                tol = 1e-4 if dtype == np.complex64 else 1e-10
                np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("backend", ["numba", "lapack"])
def test_solve_layout_from_both_inputs(backend):
    # NumPy's iterator keeps C order unless every input agrees on another
    a = np.asfortranarray(_rng.standard_normal((30, 40, 3, 3)) + 3 * np.eye(3))
    for b in (np.asfortranarray(_rng.standard_normal((30, 40, 3, 2))),
              _rng.standard_normal((30, 40, 3, 2))):
        want = np.linalg.solve(a, b)
        with linalgx.backend(backend):
            got = LA.solve(a, b)
        assert _layout(got) == _layout(want)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
