"""The lapack backend's parallel chunks for stacks of mid-size matrices: NumPy's bits, NumPy's
errors naming the right element, concurrent callers, BLAS limits restored."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from linalgx.kernels import _parallel

import linalgx
import linalgx.linalg as LA
from linalgx._core import lapack

threadpoolctl = pytest.importorskip("threadpoolctl")

_rng = np.random.default_rng(23)


@pytest.fixture
def chunks(monkeypatch):
    """Chunk from a small stack on, with two threads whatever the machine's load."""
    monkeypatch.setattr(lapack, "CHUNK_WORK", 1)
    with _parallel.limit(2):
        yield


def _stack(count, n, kind=float):
    a = _rng.standard_normal((count, n, n))
    if kind is complex:
        a = a + 1j * _rng.standard_normal((count, n, n))
    return a


CALLS = {
    "inv": (lambda a: LA.inv(a), lambda a: np.linalg.inv(a)),
    "solve": (lambda a: LA.solve(a, a[..., :3]), lambda a: np.linalg.solve(a, a[..., :3])),
    "eigh": (lambda a: LA.eigh(a + np.conj(np.swapaxes(a, -1, -2))),
             lambda a: np.linalg.eigh(a + np.conj(np.swapaxes(a, -1, -2)))),
    "eigvalsh": (lambda a: LA.eigvalsh(a + np.conj(np.swapaxes(a, -1, -2))),
                 lambda a: np.linalg.eigvalsh(a + np.conj(np.swapaxes(a, -1, -2)))),
    "svd": (lambda a: LA.svd(a), lambda a: np.linalg.svd(a)),
    "svdvals": (lambda a: LA.svdvals(a), lambda a: np.linalg.svdvals(a)),
    "eig": (lambda a: LA.eigvals(a), lambda a: np.linalg.eigvals(a)),
    "cholesky": (lambda a: LA.cholesky(a @ np.conj(np.swapaxes(a, -1, -2)) + 8 * np.eye(8)),
                 lambda a: np.linalg.cholesky(a @ np.conj(np.swapaxes(a, -1, -2))
                                              + 8 * np.eye(8))),
}


@pytest.mark.parametrize("name", list(CALLS))
@pytest.mark.parametrize("kind", [float, complex], ids=["real", "complex"])
def test_same_bits_as_numpy(chunks, name, kind):
    a = _stack(300, 8, kind).reshape(3, 100, 8, 8)
    ours, theirs = CALLS[name]
    with linalgx.backend("lapack"):
        got = ours(a)
    want = theirs(a)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


def test_failing_element_is_named(chunks):
    a = _stack(500, 8) + 8 * np.eye(8)
    a[417] = 0.0  # singular, deep inside a later chunk
    with linalgx.backend("lapack"), pytest.raises(
            np.linalg.LinAlgError, match=r"^Singular matrix.*batch element \(417,\)"):
        LA.inv(a)
    with linalgx.backend("lapack"):
        x, info = LA.solve_ex(a, a[..., :1])
    assert np.flatnonzero(info).tolist() == [417]
    ok = np.delete(a, 417, 0)
    np.testing.assert_array_equal(np.delete(x, 417, 0), np.linalg.solve(ok, ok[..., :1]))


def test_concurrent_callers_and_blas_limits_restored(chunks):
    before = [p["num_threads"] for p in threadpoolctl.threadpool_info()
              if p["user_api"] == "blas"]
    a = _stack(400, 16)
    want = np.linalg.inv(a)

    def work(_):
        with linalgx.backend("lapack"), _parallel.limit(2):
            return LA.inv(a)

    with ThreadPoolExecutor(6) as pool:
        for got in pool.map(work, range(12)):
            np.testing.assert_array_equal(got, want)
    after = [p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    assert after == before


def test_broadcast_batches_take_the_serial_path(chunks):
    a = _stack(200, 8) + 8 * np.eye(8)
    b = _rng.standard_normal((8, 2))  # broadcast right-hand side
    with linalgx.backend("lapack"):
        np.testing.assert_array_equal(LA.solve(a, b), np.linalg.solve(a, b))
