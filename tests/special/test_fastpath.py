"""The vectorised fast path of linalgx.special (kernels/special/fast.py) against the scalar
ufunc path: mixed arrays with NaN/inf/subnormals/poles, float32, layouts, out=, threads.

Accuracy against mpmath is tests/special/test_accuracy.py (which runs the fast path).
"""
import os
import threading

import numpy as np
import pytest
from linalgx.kernels import _parallel
from linalgx.kernels.special import fastpath, ufuncs

import linalgx.special as ls

RNG = np.random.default_rng(11)
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310,
                    2.2250738585072014e-308, 1e-300, 1e300, -1e300, 1.7976931348623157e308,
                    1.0, -1.0, 2.0, -2.0, 3.0, 10.0, -10.0, 0.5, 0.55, 1.4616321449683622,
                    -0.504083008264455409, 1.0 - 2 ** -53, 1.0 + 2 ** -52, 13.0, 1000.0,
                    -37.0, -37.5, 38.0, 40.0, 708.5, 709.9, -708.5, -709.9, -745.5, 8.0])

# name: (domain sampler, rtol vs the scalar ufunc). The fast loops perform the ufunc's own
# operations except exp/log (and erf/log_ndtr's exact squares), so the tolerance is a few
# ulp; log_ndtr's scalar path (Cephes' erfc, like SciPy) loses up to ~1e-13 for x > 5.
DOMAINS = {
    "erf": (lambda n: RNG.uniform(-7, 7, n), 1e-15),
    "expit": (lambda n: RNG.uniform(-750, 750, n), 1e-15),
    "ndtri": (lambda n: RNG.uniform(0, 1, n) ** RNG.choice([1, 30], n), 2e-15),
    "log_ndtr": (lambda n: RNG.uniform(-45, 40, n), 3e-13),
    "gammaln": (lambda n: RNG.uniform(-20, 200, n) * RNG.choice([1, 1e-5, 1e5], n), 1e-15),
    "digamma": (lambda n: RNG.uniform(-20, 200, n) * RNG.choice([1, 1e-5, 1e5], n), 1e-15),
    "i0e": (lambda n: RNG.uniform(-50, 50, n), 0),
}


def _mixed(name, n=3000):
    x = DOMAINS[name][0](n)
    x[RNG.choice(n, SPECIAL.size, replace=False)] = SPECIAL
    x[:40] = np.round(x[:40])          # integers: poles and exact harmonic sums
    return x


def _slow(name, *args):
    # the raw numba ufunc (no fast path); float32 through its f->f loop as SciPy does
    kw = {"signature": "f" * len(args) + "->f"} if args[0].dtype.char == "f" else {}
    with np.errstate(all="ignore"):
        return ufuncs.get(name)(*args, **kw)


def _agree(got, want, rtol):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    inf = np.isinf(want)
    np.testing.assert_array_equal(got[inf], want[inf])
    if rtol == 0:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-300)
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


def _xlogy_args(n=3000, dtype=np.float64):
    x = RNG.uniform(-5, 5, n)
    y = RNG.uniform(0, 10, n) * RNG.choice([1, 1e-300, 1e300], n)
    x[:SPECIAL.size] = SPECIAL
    y[-SPECIAL.size:] = SPECIAL
    x[::7] = 0.0
    return x.astype(dtype), y.astype(dtype)


@pytest.mark.parametrize("name", list(DOMAINS))
def test_fast_path_matches_ufunc_on_mixed_arrays(name):
    x = _mixed(name)
    assert fastpath.call(name, (x,), {}) is not NotImplemented
    _agree(getattr(ls, name)(x), _slow(name, x), DOMAINS[name][1])


def test_xlogy_fast_path_matches_ufunc():
    x, y = _xlogy_args()
    _agree(ls.xlogy(x, y), _slow("xlogy", x, y), 1e-15)
    zero = ls.xlogy(np.zeros_like(y), y)
    np.testing.assert_array_equal(zero, np.where(np.isnan(y), np.nan, 0.0))


@pytest.mark.parametrize("name", list(DOMAINS) + ["xlogy"])
def test_float32(name):
    with np.errstate(over="ignore"):
        args = _xlogy_args(2000, np.float32) if name == "xlogy" else (
            _mixed(name, 2000).astype(np.float32),)
    got = getattr(ls, name)(*args)
    assert got.dtype == np.float32
    want = _slow(name, *args)
    assert want.dtype == np.float32
    # both round the same float64 computation: they differ at most by one float32 ulp
    fin = np.isfinite(want) & np.isfinite(got)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_less(np.abs(got[fin] - want[fin]),
                                 np.spacing(np.abs(want[fin])) * 1.01 + 1e-45)


@pytest.mark.parametrize("name", ["erf", "gammaln", "xlogy"])
def test_layouts_out_and_fallbacks(name):
    nin = 2 if name == "xlogy" else 1
    base = [np.abs(_mixed("gammaln", 600)) + 0.1 for _ in range(nin)]
    orig = [b.copy() for b in base]
    f = getattr(ls, name)
    full = f(*base)
    c2 = [b.reshape(20, 30) for b in base]
    fort = [np.asfortranarray(b) for b in c2]
    res = f(*fort)
    assert res.flags.f_contiguous
    np.testing.assert_array_equal(res, full.reshape(20, 30))
    readonly = [b.copy() for b in base]
    for b in readonly:
        b.flags.writeable = False
    np.testing.assert_array_equal(f(*readonly), full)
    # non-contiguous and big-endian inputs and cast outputs take the ufunc path
    strided = [b[::2] for b in base]
    assert fastpath.call(name, tuple(strided), {}) is NotImplemented
    _agree(f(*strided), _slow(name, *strided), 1e-15)
    big = [b.astype(">f8") for b in base]
    assert fastpath.call(name, tuple(big), {}) is NotImplemented
    _agree(f(*big), full, 1e-15)
    # out=: the same object back, same values; an aliased out (in place) gives the same values
    out = np.empty_like(base[0])
    assert f(*base, out=out) is out
    np.testing.assert_array_equal(out, full)
    assert f(*base, out=(out,)) is out
    inplace = [b.copy() for b in base]
    assert f(*inplace, out=inplace[0]) is inplace[0]
    _agree(inplace[0], full, 1e-15)   # gammaln's fix-up pass rereads: ufunc path
    out32 = np.empty(base[0].shape, np.float32)     # a cast out: ufunc path
    assert fastpath.call(name, tuple(base), {"out": out32}) is NotImplemented
    f(*base, out=out32)
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(out32, full.astype(np.float32), rtol=1e-7)
    for b, o in zip(base, orig):
        np.testing.assert_array_equal(b, o)      # inputs untouched


def _big(name):
    n = fastpath.PARALLEL_MIN + 1237     # not a multiple of the 64-element chunk grain
    x = DOMAINS[name][0](n)
    x[RNG.choice(n, SPECIAL.size, replace=False)] = SPECIAL
    return x


@pytest.mark.parametrize("name", ["erf", "gammaln", "digamma", "xlogy", "gammainc"])
def test_large_overlapping_out_as_numpys_forward_loop(name):
    """``f(a[1:], out=a[:-1])``: NumPy's ufunc runs its forward loop without copying the
    input (each element is read before it is overwritten); a threaded loop over chunks
    would read the start of the next chunk after that chunk's thread overwrote it."""
    import scipy.special as sc
    n = max(ufuncs.PARALLEL_MIN, fastpath.PARALLEL_MIN) + 1237
    x = np.linspace(0.1, 3.0, n + 1)
    nin = 2 if name in ("xlogy", "gammainc") else 1
    want = getattr(sc, name)(*[x[1:]] * nin)
    a = x.copy()
    getattr(ls, name)(*[a[1:]] * nin, out=a[:-1])
    np.testing.assert_allclose(a[:-1], want, rtol=1e-14)
    b = x.copy()                          # the reverse overlap: NumPy copies the input
    getattr(ls, name)(*[b[:-1]] * nin, out=b[1:])
    np.testing.assert_allclose(b[1:], getattr(sc, name)(*[x[:-1]] * nin), rtol=1e-14)


@pytest.mark.parametrize("name", ["erf", "gammaln", "log_ndtr"])
def test_results_do_not_depend_on_thread_count(name, monkeypatch):
    x = _big(name)
    results = []
    for n in (1, 2, 3, 7):
        monkeypatch.setattr(_parallel, "_MAX", n)  # as if the machine had n CPUs
        with _parallel.limit(n):
            results.append(getattr(ls, name)(x))
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])
    _agree(results[0], _slow(name, x), DOMAINS[name][1])


def test_concurrent_calls_from_python_threads():
    xs = {name: _big(name) for name in ("erf", "digamma", "ndtri")}
    want = {name: getattr(ls, name)(x) for name, x in xs.items()}
    errors = []

    def work(name):
        try:
            for _ in range(3):
                np.testing.assert_array_equal(getattr(ls, name)(xs[name]), want[name])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(name,)) for name in list(xs) * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def _erf_in_child(x):
    return ls.erf(x)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_forked_child_starts_a_fresh_pool():
    import multiprocessing

    x = _big("erf")
    with _parallel.limit(2):
        want = ls.erf(x)             # the parent's pool threads exist now
    with multiprocessing.get_context("fork").Pool(1) as pool:
        got = pool.apply(_erf_in_child, (x,))
    np.testing.assert_array_equal(got, want)
