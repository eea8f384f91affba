"""Drop-in parity on the shared case table: every NumPy-named function against NumPy, on both
CPU backends, with result types, dtypes, shapes, values (or invariants for vectors), raised
exceptions, and the no-mutation contract."""
import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged, public_exception

BACKENDS = ["lapack", "numba"]


def _tol(*arrays):
    single = all(np.asarray(a).dtype in (np.float32, np.complex64) for a in arrays)
    return (2e-3, 2e-3) if single else (1e-7, 1e-7)


def _compare(ours, theirs, args, name):
    if isinstance(theirs, tuple):
        assert type(ours) is type(theirs), f"{name}: container {type(ours)} != {type(theirs)}"
        for o, t in zip(ours, theirs):
            _compare(o, t, args, name)
        return
    assert type(ours) is type(theirs), f"{name}: {type(ours)} != {type(theirs)}"
    if isinstance(theirs, (np.ndarray, np.generic)):
        assert ours.dtype == theirs.dtype, f"{name}: dtype {ours.dtype} != {theirs.dtype}"
        assert np.shape(ours) == np.shape(theirs), f"{name}: shape"
        rtol, atol = _tol(*args)
        scale = max(1.0, float(np.max(np.abs(theirs)))) if np.size(theirs) else 1.0
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol * scale, equal_nan=True,
                                   err_msg=name)
    else:
        assert ours == theirs


def _call_both(name, fn_args, kwargs=None, backend="lapack", compare=_compare):
    kwargs = kwargs or {}
    np_fn, our_fn = getattr(np.linalg, name), getattr(LA, name)
    try:
        expect = np_fn(*fn_args, **kwargs)
    except Exception as e:  # noqa: BLE001  (NumPy's exception is the reference)
        with linalgx.backend(backend), pytest.raises(public_exception(type(e))) as got:
            our_fn(*fn_args, **kwargs)
        assert str(got.value).startswith(str(e)), f"{got.value} vs NumPy's {e}"
        return None, None
    with linalgx.backend(backend):
        ours = assert_unchanged(our_fn, *fn_args, **kwargs)
    compare(ours, expect, fn_args, name)
    return ours, expect


VALUE_FUNCS = {
    "inv": dict(tags=("square",), args=lambda c: (c.a,)),
    "det": dict(tags=("square",), args=lambda c: (c.a,)),
    "slogdet": dict(tags=("square",), args=lambda c: (c.a,)),
    "matrix_power": dict(tags=("square",), args=lambda c: (c.a, 3)),
    "matrix_power_neg": dict(tags=("square",), args=lambda c: (c.a, -2), name="matrix_power"),
    "solve": dict(tags=("square",), args=lambda c: (c.a, c.b) if c.b is not None else (
        c.a, np.ones(c.a.shape[-1]))),
    "cholesky": dict(tags=("spd",), args=lambda c: (c.a,)),
    "eigvalsh": dict(tags=("hermitian",), args=lambda c: (c.a,)),
    "svdvals": dict(tags=(), args=lambda c: (c.a,)),
    "matrix_rank": dict(tags=(), args=lambda c: (c.a,)),
    "pinv": dict(tags=(), args=lambda c: (c.a,)),
    "norm": dict(tags=(), args=lambda c: (c.a,)),
    "cond": dict(tags=("square", "nonsingular"), args=lambda c: (c.a,)),
    "matrix_norm": dict(tags=(), args=lambda c: (c.a,)),
    "vector_norm": dict(tags=(), args=lambda c: (c.a,)),
    "trace": dict(tags=(), args=lambda c: (c.a,)),
    "diagonal": dict(tags=(), args=lambda c: (c.a,)),
    "matrix_transpose": dict(tags=(), args=lambda c: (c.a,)),
    "matmul": dict(tags=("square",), args=lambda c: (c.a, c.a)),
}


def _value_params():
    for key, spec in VALUE_FUNCS.items():
        for case in cases(*spec["tags"]):
            for backend in BACKENDS:
                yield pytest.param(key, case, backend, id=f"{key}-{case.name}-{backend}")


@pytest.mark.parametrize("key,case,backend", list(_value_params()))
def test_values_match_numpy(key, case, backend):
    spec = VALUE_FUNCS[key]
    name = spec.get("name", key)
    _call_both(name, spec["args"](case), backend=backend)


def _eig_params(tags, names):
    for name in names:
        for case in cases(*tags):
            for backend in BACKENDS:
                yield pytest.param(name, case, backend, id=f"{name}-{case.name}-{backend}")


@pytest.mark.parametrize("name,case,backend", list(_eig_params(("square",), ["eig", "eigvals"])))
def test_eig_invariants(name, case, backend):
    a = case.a
    try:
        w_np = np.linalg.eigvals(a)
    except Exception as e:  # noqa: BLE001
        with linalgx.backend(backend), pytest.raises(public_exception(type(e))):
            getattr(LA, name)(a)
        return
    with linalgx.backend(backend):
        res = assert_unchanged(getattr(LA, name), a)
    w = res.eigenvalues if name == "eig" else res
    assert w.dtype == w_np.dtype and w.shape == w_np.shape
    if w.size == 0:
        return
    rtol, atol = _tol(a)
    np.testing.assert_allclose(np.sort_complex(w.reshape(-1, w.shape[-1])),
                               np.sort_complex(w_np.reshape(-1, w_np.shape[-1])),
                               rtol=rtol * 10, atol=atol * 10 * max(1, np.abs(w_np).max()))
    if name == "eig":
        assert type(res).__name__ == "EigResult"
        v = res.eigenvectors
        resid = a.astype(v.dtype) @ v - v * w[..., None, :]
        assert np.abs(resid).max() <= 1e3 * np.finfo(v.dtype).eps * max(1, np.abs(a).max()) * (
            a.shape[-1] + 1)


@pytest.mark.parametrize("case", [c for c in cases("hermitian")], ids=lambda c: c.name)
@pytest.mark.parametrize("backend", BACKENDS)
def test_eigh_invariants(case, backend):
    a = case.a
    w_np, v_np = np.linalg.eigh(a)
    with linalgx.backend(backend):
        res = assert_unchanged(LA.eigh, a)
    assert type(res) is type(np.linalg.eigh(a))
    assert res.eigenvalues.dtype == w_np.dtype and res.eigenvectors.dtype == v_np.dtype
    rtol, atol = _tol(a)
    np.testing.assert_allclose(res.eigenvalues, w_np, rtol=rtol, atol=atol * np.abs(w_np).max())
    v = res.eigenvectors
    herm = np.tril(a) + np.conj(np.swapaxes(np.tril(a, -1), -1, -2))
    resid = herm @ v - v * res.eigenvalues[..., None, :]
    eps = np.finfo(w_np.dtype).eps
    assert np.abs(resid).max() <= 100 * a.shape[-1] * eps * max(1, np.abs(a).max())
    eye = np.conj(np.swapaxes(v, -1, -2)) @ v
    assert np.abs(eye - np.eye(a.shape[-1])).max() <= 100 * a.shape[-1] * eps


@pytest.mark.parametrize("case", cases(exclude=("empty",)), ids=lambda c: c.name)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_and_svd_invariants(case, mode):
    a = case.a
    eps = np.finfo(np.linalg.svd(a, compute_uv=False).dtype).eps
    tol = 200 * max(a.shape[-2:]) * eps * max(1, np.abs(a).max())
    res = assert_unchanged(LA.qr, a, mode=mode)
    ref = np.linalg.qr(a, mode=mode)
    if mode == "r":
        assert res.dtype == ref.dtype and res.shape == ref.shape
        np.testing.assert_allclose(np.abs(res), np.abs(ref), atol=tol)
    else:
        assert type(res) is type(ref) and res.Q.dtype == ref.Q.dtype
        assert res.Q.shape == ref.Q.shape and res.R.shape == ref.R.shape
        assert np.abs(res.Q @ res.R - a).max() <= tol
    u, s, vh = assert_unchanged(LA.svd, a, full_matrices=False)
    s_np = np.linalg.svd(a, compute_uv=False)
    assert s.dtype == s_np.dtype
    np.testing.assert_allclose(s, s_np, atol=tol)
    assert np.abs((u * s[..., None, :]) @ vh - a).max() <= tol


@pytest.mark.parametrize("case", cases("nonsquare") + cases("square", exclude=("stacked",)),
                         ids=lambda c: c.name)
def test_lstsq_matches_numpy(case):
    if case.b is None or case.a.ndim != 2:
        pytest.skip("lstsq takes one 2-D system")
    x, res, rank, s = assert_unchanged(LA.lstsq, case.a, case.b)
    x_np, res_np, rank_np, s_np = np.linalg.lstsq(case.a, case.b)
    assert type(rank) is type(rank_np) and rank == rank_np
    assert x.dtype == x_np.dtype and res.dtype == res_np.dtype and res.shape == res_np.shape
    rtol, atol = _tol(case.a)
    if rank == min(case.a.shape) and x_np.size:
        np.testing.assert_allclose(x, x_np, rtol=rtol * 10, atol=atol * 10 * np.abs(x_np).max())


def test_singular_stack_names_the_element():
    a = np.stack([np.eye(3)] * 5)
    a[3] = 0
    for backend in BACKENDS:
        with linalgx.backend(backend):
            for fn in (LA.inv, lambda m: LA.solve(m, np.ones(3))):
                with pytest.raises(np.linalg.LinAlgError, match=r"^Singular matrix") as e:
                    fn(a)
                assert "batch element (3,) of batch shape (5,)" in str(e.value)
                assert e.value.batch_index == (3,)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_matrix_subclass_passthrough():
    m = np.matrix([[2.0, 1.0], [1.0, 3.0]])
    for name in ("inv", "pinv", "cholesky"):
        assert type(getattr(LA, name)(m)) is type(getattr(np.linalg, name)(m))
    assert type(LA.solve(m, m)) is type(np.linalg.solve(m, m))
    assert type(LA.matrix_power(m, 2)) is np.matrix
    assert type(LA.eigh(m).eigenvectors) is type(np.linalg.eigh(m).eigenvectors)
    # tensorinv and tensorsolve take asarray: a subclass in, an ndarray out
    for sub in (m, np.ma.masked_array(np.asarray(m))):
        assert type(LA.tensorinv(sub, ind=1)) is type(np.linalg.tensorinv(sub, ind=1))
        assert type(LA.tensorsolve(sub, np.ones(2))) is type(np.linalg.tensorsolve(sub,
                                                                                  np.ones(2)))


@pytest.mark.parametrize("dtype", [np.float16, np.longdouble, object])
def test_unsupported_dtypes_raise_like_numpy(dtype):
    a = np.eye(2).astype(dtype)
    for name in ("inv", "det", "solve", "cholesky", "eigh", "svd"):
        args = (a, a) if name == "solve" else (a,)
        try:
            getattr(np.linalg, name)(*args)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(public_exception(type(e))):
                getattr(LA, name)(*args)


def test_pinv_rcond_that_would_enlarge_the_stack_raises_as_numpy():
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    for a, rcond in ((m, [0.1]), (m, np.array([1e-15, 0.9])), (np.stack([m] * 3), [[0.1]])):
        assert_raises_like(np.linalg.pinv, LA.pinv, a, rcond=rcond)
    assert LA.pinv(np.stack([m] * 3), rcond=np.array([1e-15, 0.9, 0.1])).shape == (3, 2, 2)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_numba_det_slogdet_with_inf_and_nan_as_numpy(dtype):
    """The kernels' arithmetic gave NaN where LAPACK's gives +-inf: such elements are redone
    by LAPACK, so the numba backend answers as NumPy does."""
    import linalgx
    for c in (np.array([[1.0, 2.0], [np.inf, 3.0]]), np.array([[np.nan]]),
              np.array([[1, 2, 3], [4, np.inf, 6], [7, 8, 9.0]]),
              np.array([[1, 2, 3], [4, np.nan, 6], [7, 8, 9.0]])):
        b = np.broadcast_to(c.astype(dtype), (64,) + c.shape)
        with linalgx.backend("numba"):
            d, (s, lg) = LA.det(b), LA.slogdet(b)
        np.testing.assert_array_equal(d, np.linalg.det(b))
        sn, lgn = np.linalg.slogdet(b)
        np.testing.assert_array_equal(s, sn)
        np.testing.assert_array_equal(lg, lgn)
