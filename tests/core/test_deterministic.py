"""use_deterministic_algorithms: bitwise identical results across calls and thread settings."""
import sys

import numpy as np
import pytest

import linalgx
import linalgx.fft as FFT
import linalgx.linalg as LA
from linalgx._core import routing

threadpoolctl = pytest.importorskip("threadpoolctl")


@pytest.fixture
def deterministic():
    linalgx.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        linalgx.use_deterministic_algorithms(False)


def _stacks():
    """Stacked inputs from numba-sized to BLAS-threaded sizes (OpenBLAS threads from ~200)."""
    rng = np.random.default_rng(7)
    out = []
    for batch, n in ((64, 3), (16, 8), (4, 40), (2, 256)):
        a = rng.standard_normal((batch, n, n)) + np.sqrt(n) * np.eye(n)
        spd = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
        b = rng.standard_normal((batch, n, 2))
        out.append((a, spd, b))
    return out


STACKS = _stacks()

OPS = {
    "inv": lambda a, spd, b: LA.inv(a),
    "solve": lambda a, spd, b: LA.solve(a, b),
    "det": lambda a, spd, b: LA.det(a),
    "cholesky": lambda a, spd, b: LA.cholesky(spd),
    "ldl_factor": lambda a, spd, b: np.ascontiguousarray(  # LD is column-major
        LA.ldl_factor(a + np.swapaxes(a, -1, -2)).LD),
    "ldl_solve": lambda a, spd, b: LA.ldl_solve(*LA.ldl_factor(spd), b),
    "matrix_exp": lambda a, spd, b: LA.matrix_exp(a),
}


def _assert_bitwise(results):
    first = results[0]
    for other in results[1:]:
        assert first.dtype == other.dtype and first.shape == other.shape
        np.testing.assert_array_equal(first.view(np.uint8), other.view(np.uint8))


@pytest.mark.parametrize("backend", ["lapack", "numba"])
@pytest.mark.parametrize("op", list(OPS))
def test_linalg_bitwise_across_runs_and_blas_threads(deterministic, backend, op):
    f = OPS[op]
    for args in STACKS:
        with linalgx.backend(backend):
            runs = [f(*args) for _ in range(3)]
            with threadpoolctl.threadpool_limits(1):
                runs.append(f(*args))
        _assert_bitwise(runs)


def test_auto_routing_bitwise_across_runs(deterministic):
    for args in STACKS:
        for f in OPS.values():
            _assert_bitwise([f(*args) for _ in range(3)])


def _big_stacks():
    """Batches large enough for the numba kernels' chunked multi-threaded path."""
    rng = np.random.default_rng(11)
    out = []
    for batch, n, complex_ in ((60_000, 3, False), (30_000, 4, True), (3_000, 8, False),
                               (400, 24, False)):  # n = 24: inv and solve by LAPACK
        a = rng.standard_normal((batch, n, n)) + np.sqrt(n) * np.eye(n)
        if complex_:
            a = a + 1j * rng.standard_normal((batch, n, n))
        spd = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
        b = rng.standard_normal((batch, n, 1)).astype(a.dtype)
        out.append((a, spd, b))
    return out


BIG_OPS = dict(OPS, slogdet=lambda a, spd, b: LA.slogdet(a)[1])


@pytest.mark.parametrize("op", list(BIG_OPS))
def test_parallel_kernels_bitwise_across_runs_and_threads(deterministic, op):
    from linalgx.kernels import _parallel
    f = BIG_OPS[op]
    for args in _big_stacks():
        with linalgx.backend("numba"):
            runs = [f(*args) for _ in range(5)]
            for threads in (1, 2):
                with _parallel.limit(threads):
                    runs.append(f(*args))
        _assert_bitwise(runs)


FFT_CASES = {
    "fft batch": lambda x, xr: FFT.fft(x),
    "ifft axis 0": lambda x, xr: FFT.ifft(x, axis=0),
    "fft2": lambda x, xr: FFT.fft2(x),
    "rfftn": lambda x, xr: FFT.rfftn(xr),
    "irfft": lambda x, xr: FFT.irfft(x),
}


@pytest.mark.parametrize("case", list(FFT_CASES))
def test_fft_bitwise_across_runs_workers_and_blas_threads(deterministic, case):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 1000)) + 1j * rng.standard_normal((64, 1000))
    xr = rng.standard_normal((64, 1000))
    f = FFT_CASES[case]
    runs = [f(x, xr) for _ in range(3)]
    with threadpoolctl.threadpool_limits(1):
        runs.append(f(x, xr))
    for n in (1, 2):
        with FFT.workers(n):
            runs.append(f(x, xr))
    _assert_bitwise(runs)


def test_switch_pins_blas_and_restores_it():
    def blas_threads():
        return [p["num_threads"] for p in threadpoolctl.threadpool_info()
                if p["user_api"] == "blas"]

    before = blas_threads()
    linalgx.use_deterministic_algorithms(True)
    try:
        linalgx.use_deterministic_algorithms(True)  # twice: still one pin, one restore
        assert set(blas_threads()) == {1}
        assert linalgx.are_deterministic_algorithms_enabled()
    finally:
        linalgx.use_deterministic_algorithms(False)
    assert not linalgx.are_deterministic_algorithms_enabled()
    assert blas_threads()[:len(before)] == before


def test_routing_ignores_process_history(deterministic, monkeypatch):
    # a process where numba is not loaded yet: normally the start-up is charged first
    monkeypatch.setattr(routing, "_loaded_kernels", set())
    monkeypatch.setattr(routing, "_cold_total", 0)
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    assert routing._paid_for(1)
    linalgx.use_deterministic_algorithms(False)
    assert not routing._paid_for(1)
