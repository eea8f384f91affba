"""linalgx.kernels._parallel: chunked batch parallelism that is thread-safe, fork-safe and
bitwise identical to serial calls.

The thread-hammer and fork tests run in a subprocess, so that an abort or a deadlock fails
the test (by exit status or timeout) instead of killing or hanging pytest.
"""
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from linalgx.kernels import _parallel, api

import linalgx
import linalgx.linalg as LA

BIG = 60_000  # above every 3x3 kernel's parallel threshold (api._min_count)


def _inputs(rng, n, count, complex_=False):
    a = rng.standard_normal((count, n, n)) + np.sqrt(n) * np.eye(n)
    if complex_:
        a = a + 1j * rng.standard_normal((count, n, n))
    spd = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
    b = rng.standard_normal((count, n, 1)).astype(a.dtype)
    return a, spd, b


CALLS = {
    "inv": lambda a, spd, b: api.inv(a),
    "solve": lambda a, spd, b: api.solve(a, b),
    "det": lambda a, spd, b: (api.det(a),),
    "slogdet": lambda a, spd, b: api.slogdet(a),
    "cholesky": lambda a, spd, b: api.cholesky(spd),
    "lu_factor": lambda a, spd, b: api.lu_factor(a),
    "lu_solve": lambda a, spd, b: (api.lu_solve(*api.lu_factor(a)[:2], b, 2),),
    "solve_triangular": lambda a, spd, b: (api.solve_triangular(a, b, True, False, 1),),
    "qr": lambda a, spd, b: api.qr(a)[0] + (api.qr(a, "raw")[0][0],),
    "householder_product": lambda a, spd, b: (api.householder_product(a, a[:, 0]),),
    "ldl_factor": lambda a, spd, b: tuple(  # LD is column-major, as LAPACK's
        np.ascontiguousarray(x) for x in api.ldl_factor(a + np.swapaxes(a, -1, -2), True)),
    "ldl_solve": lambda a, spd, b: (api.ldl_solve(*api.ldl_factor(spd)[:2], b)[0],),
    "matrix_exp": lambda a, spd, b: api.matrix_exp(a),
}


def _same_bits(got, want):
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g.view(np.uint8), w.view(np.uint8))


@pytest.mark.parametrize("complex_", [False, True], ids=["f64", "c128"])
@pytest.mark.parametrize("n", [3, 6], ids=lambda n: f"n{n}")
@pytest.mark.parametrize("op", list(CALLS))
def test_parallel_bitwise_equals_serial(op, n, complex_):
    rng = np.random.default_rng(n)
    args = _inputs(rng, n, BIG if n <= 4 else 12_000, complex_)
    args[0][7] = 0  # a failed element inside a chunk
    args[1][9, 0, 0] = -1
    with _parallel.limit(1):
        want = CALLS[op](*args)
    with _parallel.limit(_parallel.max_threads()):
        got = CALLS[op](*args)
    _same_bits(got, want)


def test_run_covers_the_batch_once_and_reraises():
    seen = []

    def kernel(x, tag):
        seen.append((int(x[0]), len(x), tag))
        x[:] += 1

    x = np.arange(10_000)
    with _parallel.limit(2):  # whatever the machine's load
        _parallel.run(kernel, (x, "t"), len(x), min_count=0, grain=64)
    np.testing.assert_array_equal(x, np.arange(10_000) + 1)  # every element exactly once
    starts = sorted(s for s, _, _ in seen)
    assert starts[0] == 0 and all(s % 64 == 0 for s in starts)
    if _parallel.max_threads() > 1:
        assert len(seen) > 1

    def failing(x):
        if x[0] >= 5_000:
            raise FloatingPointError("chunk failed")

    with pytest.raises(FloatingPointError, match="chunk failed"), _parallel.limit(2):
        _parallel.run(failing, (x,), len(x), min_count=0)


def test_limit_and_small_batches_run_serially():
    calls = []

    def kernel(x):
        calls.append(len(x))

    x = np.zeros(10_000)
    with _parallel.limit(1):
        assert _parallel.num_threads() == 1
        _parallel.run(kernel, (x,), len(x), min_count=0)
    _parallel.run(kernel, (x,), len(x), min_count=20_000)
    assert calls == [10_000, 10_000]


def _run_script(body, timeout):
    script = textwrap.dedent("""
        import numpy as np
        from linalgx.kernels import _parallel, api
        rng = np.random.default_rng(0)
        a = rng.standard_normal((60_000, 3, 3)) + 2 * np.eye(3)
        b = rng.standard_normal((60_000, 3, 1))
        c = (a + 1j * rng.standard_normal(a.shape)).astype(np.complex128)
        spd = a @ a.transpose(0, 2, 1) + np.eye(3)
        def compute():
            with _parallel.limit(2):  # whatever the machine's load
                lu, piv, _ = api.lu_factor(a)
                return [api.inv(a)[0], api.solve(a, b)[0], api.det(a), api.inv(c)[0],
                        api.slogdet(c)[1], api.cholesky(spd)[0], lu, piv,
                        api.lu_solve(lu, piv, b), api.solve_triangular(c, b, True),
                        *api.qr(c)[0],
                        *map(np.ascontiguousarray, api.ldl_factor(c + c.transpose(0, 2, 1))[:2])]
        def same(x, y):
            return all(np.array_equal(u.view(np.uint8), v.view(np.uint8)) for u, v in zip(x, y))
        with _parallel.limit(1):
            want = compute()
    """) + textwrap.dedent(body)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_many_python_threads_at_once():
    out = _run_script("""
        import threading
        bad = []
        def hammer():
            for _ in range(3):
                if not same(compute(), want):
                    bad.append(1)
        threads = [threading.Thread(target=hammer) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print("bad", len(bad))
    """, timeout=120)
    assert "bad 0" in out


def test_fork_after_parallel_use():
    out = _run_script("""
        import multiprocessing as mp
        import os
        assert same(compute(), want)  # the parent's pool is running now

        # a plain os.fork child: computes again with the parallel path and reports
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            ok = same(compute(), want)
            os.write(w, b"1" if ok else b"0")
            os._exit(0)
        os.close(w)
        import select
        ready, _, _ = select.select([r], [], [], 60)
        assert ready, "forked child hung"
        assert os.read(r, 1) == b"1"
        os.waitpid(pid, 0)

        # multiprocessing's fork context, with a timeout
        def child(q):
            q.put(same(compute(), want))
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        p = ctx.Process(target=child, args=(q,))
        p.start()
        assert q.get(timeout=60) is True
        p.join(10)
        assert same(compute(), want)  # the parent's pool still works
        print("fork ok")
    """, timeout=150)
    assert "fork ok" in out


def test_busy_machine_runs_serially_unless_limited(monkeypatch):
    monkeypatch.setattr(_parallel, "_load", [float("inf"), False])  # "no idle CPU"
    assert _parallel.num_threads() == 1
    with _parallel.limit(2):
        assert _parallel.num_threads() == min(2, _parallel.max_threads())
    monkeypatch.setattr(_parallel, "_load", [float("inf"), True])
    assert _parallel.num_threads() == _parallel.max_threads()


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["f64", "c128"])
@pytest.mark.parametrize("n", [24, 64], ids=lambda n: f"n{n}")
def test_lapack_path_status_and_values(n, dtype):
    """From n = api._LAPACK_FROM on, inv/solve run NumPy's gufuncs on chunks in threads."""
    import scipy.linalg.lapack as sl
    rng = np.random.default_rng(n)
    a = (rng.standard_normal((40, n, n)) + np.sqrt(n) * np.eye(n)).astype(dtype)
    b = rng.standard_normal((40, n, 2)).astype(dtype)
    a[3] = 0
    a[5, :, 2] = 0  # U[2, 2] == 0
    a[7, 0, 0] = np.nan  # propagates: info 0
    with _parallel.limit(2):
        out, info = api.inv(a)
        x, info_s = api.solve(a, b)
    getrf = sl.zgetrf if np.iscomplexobj(a) else sl.dgetrf
    want = [max(getrf(m)[2], 0) if i in (3, 5) else 0 for i, m in enumerate(a)]
    np.testing.assert_array_equal(info, want)
    np.testing.assert_array_equal(info_s, want)
    assert np.isnan(out[[3, 5]]).all() and np.isnan(x[[3, 5]]).all()
    np.testing.assert_array_equal(np.isnan(out[7]), np.isnan(np.linalg.inv(a[7])))
    good = [i for i in range(40) if i not in (3, 5, 7)]
    np.testing.assert_allclose(out[good], np.linalg.inv(a[good]), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(x[good], np.linalg.solve(a[good], b[good]), rtol=1e-10,
                               atol=1e-12)


def test_test_batches_take_the_parallel_path():
    """The batches above really exceed every kernel's parallel threshold."""
    for op in ("inv", "solve", "det", "slogdet", "cholesky"):
        for n, count in ((3, BIG), (6, 12_000)):
            assert api._min_count(op, n, np.dtype(np.float64)) <= count


def test_public_thread_setting():
    before = linalgx.get_num_threads()
    a, _, _ = _inputs(np.random.default_rng(5), 3, 30_000)
    try:
        linalgx.set_num_threads(1)
        assert linalgx.get_num_threads() == 1
        with linalgx.backend("numba"):
            serial = LA.inv(a)
        linalgx.set_num_threads(3)  # more than this machine may have: the pool grows
        assert linalgx.get_num_threads() == 3
        with _parallel.limit(3), linalgx.backend("numba"):
            np.testing.assert_array_equal(LA.inv(a), serial)
        with pytest.raises(ValueError, match="set_num_threads"):
            linalgx.set_num_threads(0)
    finally:
        linalgx.set_num_threads(before)
    np.testing.assert_allclose(serial @ a, np.broadcast_to(np.eye(3), a.shape), atol=1e-9)


def test_chunks_end_where_a_serial_calls_blocks_end():
    """Chunk boundaries fall on whole blocks of ``_soa.LANES`` matrices. With 28-matrix
    chunks, a chunk's last 8 complex 3x3 slogdets ran the scalar tail kernel, which in some
    compiled states rounds an ulp apart from the block code: 16 of 60,000 differed from the
    serial call in ``test_parallel_bitwise_equals_serial``."""
    from linalgx.kernels import _soa
    for n in range(1, 65):
        assert api._grain(n) % _soa.LANES == 0 and api._grain(n) >= 256 // n ** 2
