"""linalgx.fft against numpy.fft (and scipy.fft for the n-D Hermitian extras): signatures,
values, dtypes, shapes, errors and messages, warnings, quirks, layouts, out=, threads."""
import inspect
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import scipy.fft as sfft

import linalgx
import linalgx.fft as L
from linalgx.fft import _config, _ops
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

NF = np.fft
C2C_1D = ("fft", "ifft")
R2C_1D = ("rfft", "ihfft")
C2R_1D = ("irfft", "hfft")
ND = ("fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "rfft2", "irfft2")
HERM_ND = ("hfftn", "ihfftn", "hfft2", "ihfft2")
DTYPES = (np.float16, np.float32, np.float64, np.longdouble, np.complex64, np.complex128,
          np.clongdouble, np.int64, np.int8, np.bool_)


def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind in "iu":
        return rng.integers(-5, 6, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def assert_like_numpy(got, exp, in_dtype=None):
    """Same type, dtype and shape; values equal to the result precision (float16 inputs:
    NumPy computes even the norm factor in float16)."""
    assert type(got) is type(exp)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    assert got.shape == exp.shape, (got.shape, exp.shape)
    if in_dtype is not None and np.dtype(in_dtype) == np.float16:
        tol = 2e-3
    else:
        tol = 64 * np.finfo(exp.dtype).eps
    scale = float(np.max(np.abs(exp))) if exp.size else 1.0
    np.testing.assert_allclose(got, exp, rtol=0, atol=tol * max(scale, 1.0))


# -- the namespace ---------------------------------------------------------------------------
def test_every_numpy_name_with_numpy_signature():
    for name in NF.__all__:
        assert inspect.signature(getattr(L, name)) == inspect.signature(getattr(NF, name)), name


@pytest.mark.parametrize("name", HERM_ND)
def test_hermitian_extras_have_numpy_style_signatures(name):
    like = NF.fft2 if name.endswith("2") else NF.fftn
    assert inspect.signature(getattr(L, name)) == inspect.signature(like)


# -- 1-D parity ------------------------------------------------------------------------------
_N_NORM_AXIS = [(None, None, -1), (5, "ortho", -1), (8, "forward", 0), (13, "backward", -1),
                (1, None, 1), (4, "ortho", 0)]


def _name_dtype(names, dtypes, real_only):
    """(name, dtype) pairs; complex input to the real-input transforms raises instead
    (see test_errors_like_numpy)."""
    return [pytest.param(n, d, id=f"{n}-{np.dtype(d).name}") for n in names for d in dtypes
            if not (n in real_only and np.dtype(d).kind == "c")]


@pytest.mark.parametrize("n,norm,axis", _N_NORM_AXIS, ids=lambda v: str(v))
@pytest.mark.parametrize("name,dtype", _name_dtype(C2C_1D + R2C_1D + C2R_1D, DTYPES, R2C_1D))
def test_1d_parity(name, dtype, n, norm, axis):
    x = _rand((4, 7), dtype)
    exp = getattr(NF, name)(x, n=n, axis=axis, norm=norm)
    got = assert_unchanged(getattr(L, name), x, n=n, axis=axis, norm=norm)
    assert_like_numpy(got, exp, dtype)


@pytest.mark.parametrize("length", [1, 2, 3, 16, 17, 97, 128, 1000])
def test_1d_lengths(length):
    x = _rand(length, np.complex128, seed=length)
    assert_like_numpy(L.fft(x), NF.fft(x))
    assert_like_numpy(L.rfft(x.real), NF.rfft(x.real))
    if length > 1:
        assert_like_numpy(L.irfft(x), NF.irfft(x))
    assert_like_numpy(L.irfft(x, n=2 * length - 1), NF.irfft(x, n=2 * length - 1))


def test_signed_zeros_like_numpy():
    # np.angle(-1-0j) == -pi: the sign of a zero imaginary part is visible to users
    for x in ([0.0, 1.0, 0.0, 0.0], np.arange(4.0), np.ones(8)):
        for name in ("fft", "ifft", "rfft", "ihfft", "fftn"):
            got, exp = getattr(L, name)(x), getattr(NF, name)(x)
            np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(exp.imag))


# -- n-D parity ------------------------------------------------------------------------------
_S_AXES = [(None, None), ((4, 6), (0, 1)), ((3, -1), (1, 0)), (None, (0,)), (None, (-1, 0)),
           ((5, 4), (1, 1)), ((2, 3, 4), (0, 0, 2)), ((6,), (2,)), (None, (2, 0, 1)),
           ((3, None), (0, 2))]


@pytest.mark.parametrize("s,axes", _S_AXES, ids=lambda v: str(v))
@pytest.mark.parametrize("name,dtype", _name_dtype(
    ND, (np.float32, np.float64, np.complex64, np.complex128, np.longdouble),
    ("rfftn", "rfft2")))
def test_nd_parity(name, dtype, s, axes):
    x = _rand((4, 5, 6), dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # s containing None
        exp = getattr(NF, name)(x, s=s, axes=axes, norm="ortho")
        got = assert_unchanged(getattr(L, name), x, s=s, axes=axes, norm="ortho")
    assert_like_numpy(got, exp)


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("s,axes", _S_AXES[:5] + _S_AXES[7:9], ids=lambda v: str(v))
@pytest.mark.parametrize("name", HERM_ND)
def test_hermitian_nd_match_scipy(name, s, axes, norm):
    x = _rand((4, 5, 6), np.float64 if name.startswith("i") else np.complex128)
    if name.endswith("2"):
        axes = (-2, -1) if axes is None else axes[-2:]
        s = None if s is None else s[-len(axes):]
    exp = getattr(sfft, name)(x, s=s, axes=axes, norm=norm)
    got = assert_unchanged(getattr(L, name), x, s=s, axes=axes, norm=norm)
    assert got.dtype == exp.dtype and got.shape == exp.shape
    np.testing.assert_allclose(got, exp, rtol=1e-12, atol=1e-12 * np.abs(exp).max())


def test_hermitian_nd_roundtrip_and_float32():
    x = _rand((6, 8), np.float32)
    y = L.ihfft2(x)
    assert y.dtype == np.complex64
    back = L.hfft2(y, s=x.shape)
    assert back.dtype == np.float32
    np.testing.assert_allclose(back, x, atol=1e-5)


@pytest.mark.parametrize("axes", [(1,), (0,), (0, 1)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.complex64])
def test_hermitian_nd_result_dtype_as_scipy_for_any_number_of_axes(dtype, axes):
    """One axis of hfftn is a single c2r step, where NumPy's irfft keeps float16: hfftn
    follows scipy.fft.hfftn (float32) whatever the number of axes."""
    x = _rand((4, 6), dtype)
    for name in ("hfftn", "ihfftn") if np.dtype(dtype).kind == "f" else ("hfftn",):
        exp = getattr(sfft, name)(x, axes=axes)
        got = getattr(L, name)(x, axes=axes)
        assert got.dtype == exp.dtype
        np.testing.assert_allclose(got, exp, rtol=2e-3, atol=2e-3 * np.abs(exp).max())


# -- errors, messages, warnings ----------------------------------------------------------------
_X = np.arange(6.0)
_ERRORS = {
    "fft 0-d": lambda M: M.fft(np.float64(3)), "fft scalar": lambda M: M.fft(3.0),
    "rfftn axes=()": lambda M: M.rfftn(_X, axes=()),
    "irfftn axes=()": lambda M: M.irfftn(_X, axes=()),
    "irfftn 0-d": lambda M: M.irfftn(np.array(3.0)), "rfftn 0-d": lambda M: M.rfftn(np.array(3.0)),
    "fft2 1-D": lambda M: M.fft2(_X), "irfft2 1-D": lambda M: M.irfft2(_X),
    "fftshift 0-d": lambda M: M.fftshift(np.array(3.0)),
    "n=0": lambda M: M.fft(_X, 0), "n=-1": lambda M: M.ifft(_X, -1),
    "n=1.5": lambda M: M.fft(_X, 1.5),
    "n=2.0": lambda M: M.fft(_X, 2.0), "n=True": lambda M: M.fft(_X, True),
    "irfft n=True": lambda M: M.irfft(_X, True), "rfft n=4.0": lambda M: M.rfft(_X, 4.0),
    "n=0.5": lambda M: M.fft(_X, 0.5), "n=np.float64": lambda M: M.fft(_X, np.float64(4.0)),
    'n="3"': lambda M: M.fft(_X, "3"), "axis=5": lambda M: M.fft(_X, axis=5),
    "n and axis=5": lambda M: M.fft(_X, 4, axis=5), "axis=1.0": lambda M: M.fft(_X, axis=1.0),
    "n and axis=-2": lambda M: M.irfft(_X, 3, axis=-2), "rfft axis": lambda M: M.rfft(_X, axis=5),
    "hfft axis": lambda M: M.hfft(_X, axis=5), "ihfft axis": lambda M: M.ihfft(_X, axis=5),
    "norm bogus": lambda M: M.fft(_X, norm="bogus"), "ifft norm": lambda M: M.ifft(_X, norm="x"),
    "rfft norm": lambda M: M.rfft(_X, norm="ORTHO"), "irfft norm": lambda M: M.irfft(_X, norm=""),
    "hfft norm": lambda M: M.hfft(_X, norm="bogus"), "ihfft norm": lambda M: M.ihfft(_X, norm=1),
    "fftn norm": lambda M: M.fftn(_X, norm=1), "irfftn norm": lambda M: M.irfftn(_X, norm="b"),
    "ifft norm list": lambda M: M.ifft(_X, norm=[1]),
    "n=0 before norm": lambda M: M.fft(_X, 0, norm="x"),
    "hfft norm before n": lambda M: M.hfft(_X, 0, norm="x"),
    "empty axis": lambda M: M.fft(np.zeros(0)), "ifft empty": lambda M: M.ifft([]),
    "irfft length 1": lambda M: M.irfft(np.zeros(1)),
    "fftn axes oob": lambda M: M.fftn(np.zeros((2, 2)), axes=(0, 2)),
    "fftn axes oob neg": lambda M: M.fftn(np.zeros((2, 2)), axes=(-3,)),
    "fftn axes oob with s": lambda M: M.fftn(np.zeros((2, 2)), s=(2, 2), axes=(0, 5)),
    "s axes lengths": lambda M: M.fftn(np.zeros((2, 2)), s=(2,), axes=(0, 1)),
    "s 0": lambda M: M.rfftn(np.zeros((2, 2)), s=(0, 2), axes=(0, 1)),
    "s float": lambda M: M.fftn(np.zeros((2, 2)), s=(2.0, 2), axes=(0, 1)),
    "s int": lambda M: M.fftn(np.zeros((2, 2)), s=2, axes=(0, 1)),
    "axes int": lambda M: M.fftn(np.zeros((2, 2)), axes=1),
    "rfft complex": lambda M: M.rfft(np.ones(4, complex)),
    "rfft complex odd": lambda M: M.rfft(np.ones(5, complex)),
    "ihfft complex": lambda M: M.ihfft(np.ones(4, complex)),
    "rfftn complex": lambda M: M.rfftn(np.ones((3, 4), complex)),
    "fft str": lambda M: M.fft(np.array(["a", "b"])), "fft datetime": lambda M: M.fft(
        np.array([1, 2], dtype="M8[s]")),
    "fft object": lambda M: M.fft(np.array([1, 2], dtype=object)),
    "irfft object": lambda M: M.irfft(np.array([1, 2], dtype=object)),
    "irfftn object": lambda M: M.irfftn(np.ones((2, 2), dtype=object)),
    "fft None": lambda M: M.fft([None, 1]), "ragged": lambda M: M.fft([[1], [1, 2]]),
    "hfft object str": lambda M: M.hfft(np.array(["a"], dtype=object)),
    "hfft object None": lambda M: M.hfft(np.array([None, None])),
    "out str": lambda M: M.fft(_X, out=""), "out list": lambda M: M.fft(_X, out=[0] * 6),
    "out shape": lambda M: M.fft(_X, out=np.zeros((2, 3), complex)),
    "out ndim": lambda M: M.fft(np.ones((3, 6)), out=np.zeros((2, 3, 6), complex)),
    "out dtype": lambda M: M.fft(_X, out=np.zeros(6)),
    "rfft out dtype": lambda M: M.rfft(_X, out=np.zeros(4)),
    "rfft odd out dtype": lambda M: M.rfft(_X[:5], out=np.zeros(3)),
    "rfft f32 out dtype": lambda M: M.rfft(_X.astype(np.float32), out=np.zeros(4, np.float32)),
    "irfft out int": lambda M: M.irfft(_X, out=np.zeros(10, int)),
    "ihfft out dtype": lambda M: M.ihfft(_X, out=np.zeros(4)),
    "out read-only": lambda M: M.fft(_X, out=_readonly(np.zeros(6, complex))),
    "fftn out s": lambda M: M.fftn(_X.reshape(2, 3), s=(2, 2), axes=(0, 1),
                                   out=np.zeros((2, 3), complex)),
    "n=2**62": lambda M: M.fft(_X, 2**62), "n=2**63": lambda M: M.fft(_X, 2**63),
    "huge": lambda M: M.fft(np.broadcast_to(np.ones(1), (10**6, 10**6))),
    "fftfreq 0": lambda M: M.fftfreq(0), "fftfreq d=0": lambda M: M.fftfreq(4, 0),
    "fftfreq 4.5": lambda M: M.fftfreq(4.5), "rfftfreq 0": lambda M: M.rfftfreq(0),
    "rfftfreq 2.0": lambda M: M.rfftfreq(2.0), "fftfreq -3": lambda M: M.fftfreq(-3),
    "fftfreq device": lambda M: M.fftfreq(4, device="gpu"),
    "fftshift axes oob": lambda M: M.fftshift(np.ones((2, 3)), axes=2),
}


def _readonly(x):
    x.flags.writeable = False
    return x


@pytest.mark.parametrize("case", list(_ERRORS))
def test_errors_like_numpy(case):
    fn = _ERRORS[case]
    err = assert_raises_like(lambda: fn(NF), lambda: fn(L))
    assert str(err)


def test_out_broadcast_mismatch_raises_value_error():
    # NumPy's ufunc text names its internal remapped shapes; linalgx names the arrays
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        L.fftn(np.ones((4, 5)), s=(3, 3), axes=(0, 1), out=np.zeros((3, 3), complex))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "hfftn"])
def test_deprecation_warnings_like_numpy(name):
    x = np.ones((3, 4))
    np_fn = getattr(NF, name, NF.irfftn)
    for kwargs in (dict(s=(3, 4)), dict(s=(None, 4), axes=(0, 1))):
        if name == "fft2" and "axes" not in kwargs:
            kwargs["axes"] = None
        with pytest.warns(DeprecationWarning) as expected:
            np_fn(x, **kwargs)
        with pytest.warns(DeprecationWarning) as got:
            getattr(L, name)(x, **kwargs)
        assert [str(w.message) for w in got] == [str(w.message) for w in expected]
        assert got[0].filename == __file__  # the warning points at the caller


# -- NumPy's quirks, kept ----------------------------------------------------------------------
def test_fftn_of_nothing_returns_the_input_itself():
    x = np.arange(3)
    assert L.fftn(x, axes=()) is x
    assert L.ifftn(x, axes=[]) is x
    zero_d = np.array(2.5)
    assert L.fftn(zero_d) is zero_d
    assert L.fftn(3).dtype == NF.fftn(3).dtype  # a 0-d int array, not transformed


@pytest.mark.parametrize("name,s,axes", [("fftn", None, (0, 0)), ("fft2", (5, 2), (1, 1)),
                                         ("rfftn", (5, 2), (1, 1)), ("irfftn", (5, 8), (1, 1)),
                                         ("rfftn", (10, 20, 40), (0, 0, 1)),
                                         ("irfftn", (3, 4, 6), (1, 0, 1))])
def test_duplicate_axes_transform_twice(name, s, axes):
    x = _rand((3, 4), np.float64)
    assert_like_numpy(getattr(L, name)(x, s=s, axes=axes), getattr(NF, name)(x, s=s, axes=axes))


@pytest.mark.parametrize("name", ["irfft", "hfft", "irfft2", "irfftn"])
def test_float16_results(name):
    x = _rand((4, 6), np.float16)
    assert getattr(L, name)(x).dtype == getattr(NF, name)(x).dtype  # f16, f16, f32, f32


def test_integer_and_bool_input_equal_float_input_exactly():
    for data in (np.array([False, True, False]), np.arange(10, dtype=np.uint8)):
        for name in ("fft", "ifft", "rfft", "irfft"):
            fn = getattr(L, name)
            np.testing.assert_array_equal(fn(data), fn(data.astype(np.float64)))


def test_longdouble_keeps_its_precision():
    x = _rand(16, np.clongdouble)
    back = L.ifft(L.fft(x, n=24), n=24)
    assert back.dtype == np.clongdouble
    np.testing.assert_allclose(back[:16], x, atol=5 * np.finfo(np.longdouble).eps, rtol=0)


# -- layouts, empties, non-finite values ----------------------------------------------------------
def _unaligned(x):
    buf = np.zeros(x.nbytes + 1, np.uint8)[1:].view(x.dtype).reshape(x.shape)
    buf[...] = x
    return buf


_LAYOUTS = {c.name: c.a for c in cases("float64") if c.name in (
    "fortran", "negstride", "noncontig", "bigendian", "readonly")}
_LAYOUTS["int"] = next(c.a for c in cases("int"))
_LAYOUTS["unaligned"] = _unaligned(_rand((5, 6), np.float64))
_LAYOUTS["broadcast"] = np.broadcast_to(_rand(6, np.float64), (4, 6))
_LAYOUTS["complex_fortran"] = np.asfortranarray(_rand((5, 6), np.complex128))
_LAYOUTS["complex_bigendian"] = _rand((5, 6), np.complex128).astype(">c16")


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn",
                                  "rfftn", "irfftn", "fft2"])
def test_layouts_and_no_mutation(name, layout):
    x = _LAYOUTS[layout]
    if name in ("rfft", "ihfft", "rfftn") and x.dtype.kind == "c":
        x = x.real
    for axis_kw in ({}, {"axes": (0,)} if name.endswith("n") else {"axis": 0}):
        if name == "fft2" and axis_kw:
            continue
        exp = getattr(NF, name)(x, **axis_kw)
        got = assert_unchanged(getattr(L, name), x, **axis_kw)
        assert_like_numpy(got, exp)
        assert got.flags.c_contiguous == exp.flags.c_contiguous
        assert got.flags.f_contiguous == exp.flags.f_contiguous


@pytest.mark.parametrize("name", C2C_1D + R2C_1D + C2R_1D + ND)
def test_empty_batch(name):
    x = np.zeros((0, 6))
    assert_like_numpy(getattr(L, name)(x, axes=(1,)) if name in ND else getattr(L, name)(x),
                      getattr(NF, name)(x, axes=(1,)) if name in ND else getattr(NF, name)(x))


@pytest.mark.parametrize("value", [np.nan, np.inf])
@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fft2"])
def test_non_finite_like_numpy(name, value):
    x = _rand((3, 8), np.complex128 if name in ("fft", "irfft") else np.float64)
    x[1, 2] = value
    with np.errstate(invalid="ignore"):  # NumPy's irfft warns on inf; pocketfft is silent
        got, exp = getattr(L, name)(x), getattr(NF, name)(x)
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(exp))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(exp)) if value != value else None


# -- out= ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["C", "F", "reversed"])
@pytest.mark.parametrize("name", C2C_1D + R2C_1D + C2R_1D + ND + HERM_ND)
def test_out_is_filled_and_returned(name, order):
    real_in = name in R2C_1D or name in ("rfftn", "rfft2", "ihfftn", "ihfft2")
    x = _rand((6, 8), np.float64 if real_in else np.complex128)
    exp = getattr(L, name)(x)
    out = np.zeros_like(exp, order="F" if order == "F" else "C")
    if order == "reversed":
        out = np.zeros((exp.shape[0] * 2,) + exp.shape[1:], exp.dtype)[::-2]
    got = assert_unchanged(lambda x: getattr(L, name)(x, out=out), x)
    assert got is out
    np.testing.assert_array_equal(out, exp)


def test_out_of_another_precision_receives_a_cast():
    x = _rand(32, np.complex64)
    hi = np.zeros(32, np.complex128)
    assert L.fft(x, out=hi) is hi  # NumPy's double loop: computed in double, as NumPy
    np.testing.assert_array_equal(hi, NF.fft(x, out=np.zeros(32, np.complex128)))
    np.testing.assert_array_equal(hi, L.fft(x.astype(np.complex128)))
    lo = np.zeros(32, np.complex64)
    L.fft(x.astype(np.complex128), out=lo)  # computed in double, then rounded
    np.testing.assert_array_equal(lo, L.fft(x.astype(np.complex128)).astype(np.complex64))
    real_out = np.zeros(30, np.complex128)  # irfft's real result casts into a complex out
    assert_like_numpy(L.irfft(x[:16].astype(complex), out=real_out),
                      NF.irfft(x[:16].astype(complex), out=np.zeros_like(real_out)))


@pytest.mark.parametrize("axis", [0, 1])
def test_out_overlapping_input(axis):
    y = _rand((20, 20), np.complex128)
    y1 = y.copy()
    assert L.fft(y1, axis=axis, out=y1) is y1
    np.testing.assert_allclose(y1, NF.fft(y, axis=axis), rtol=1e-12)
    y3 = y.copy()
    sel, out3 = (y3[5:], y3[5:15]) if axis == 0 else (y3[:, 5:], y3[:, 5:15])
    expected = NF.fft(sel.copy(), n=10, axis=axis)
    assert L.fft(sel, n=10, axis=axis, out=out3) is out3
    np.testing.assert_allclose(out3, expected, rtol=1e-12)
    y5 = y.copy()
    assert L.fft(y5, axis=axis, out=y5.T) is not None
    np.testing.assert_allclose(y5.T, NF.fft(y, axis=axis), rtol=1e-12)


def test_out_broadcasts_like_numpy():
    x = _rand((1, 6), np.complex128)
    got = L.fft(x, out=np.zeros((3, 6), complex))
    np.testing.assert_allclose(got, NF.fft(x, out=np.zeros((3, 6), complex)), rtol=1e-12)


def test_out_inside_autodiff_is_refused():
    with pytest.raises(TypeError, match="out="):
        linalgx.grad(lambda z: L.fft(z, out=np.zeros(4, complex)).real.sum())(np.ones(4))


# -- threads, dispatch, backends --------------------------------------------------------------
def test_workers_settings():
    cpus = _config._cpu_count()
    assert L.get_workers() >= 1
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(L.get_workers).result() == 1  # non-main thread: no oversubscription
    with L.workers(1):
        assert L.get_workers() == 1
        with L.workers(-1):
            assert L.get_workers() == cpus
        assert L.get_workers() == 1
    previous = L.set_workers(3)
    try:
        assert L.get_workers() == 3
        with ThreadPoolExecutor(1) as pool:
            assert pool.submit(L.get_workers).result() == 3
    finally:
        L.set_workers(previous)
    assert _config.threads_for(100) == 1


@pytest.mark.parametrize("bad,exc", [(0, ValueError), (-10**6, ValueError), (1.5, TypeError),
                                     (True, TypeError), ("2", TypeError)])
def test_workers_validation(bad, exc):
    with pytest.raises(exc, match="workers"):
        L.set_workers(bad)
    with pytest.raises(exc, match="workers"):
        with L.workers(bad):
            pass


def test_results_do_not_depend_on_the_thread_count():
    x = _rand((1024, 520), np.complex128)  # above the parallel threshold
    with L.workers(1):
        one = L.fft2(x), L.rfft(x.real), L.irfftn(x)
    with L.workers(2):
        two = L.fft2(x), L.rfft(x.real), L.irfftn(x)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)


def test_thread_safe_and_identical_from_a_thread_pool():
    x = _rand((800, 200), np.complex128)
    expected = L.fft(x), L.irfft(x)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: (L.fft(x), L.irfft(x)), range(16)))
    for got in results:
        for a, b in zip(got, expected):
            np.testing.assert_array_equal(a, b)


def test_dispatch_backends():
    x = _rand(8, np.complex128)
    with linalgx.backend("numba"):  # no numba kernel: falls back to pocketfft
        np.testing.assert_allclose(L.fft(x), NF.fft(x), rtol=1e-12)
    with linalgx.backend("cupy"):
        with pytest.raises(TypeError, match="cupy"):
            L.fft(x)
    for op in (_ops.c2c, _ops.r2c, _ops.c2r, _ops.resize):
        assert {"lapack", "cupy"} <= set(op.impls) and op.linear and op.adjoint_rule


def test_public_scipy_fallback(monkeypatch):
    monkeypatch.setattr(_ops, "_pocketfft_module", _ops._PublicScipy)
    x = _rand((5, 6), np.complex128)
    for name in ("fft", "ifft", "irfft", "hfft", "fftn", "irfftn"):
        assert_like_numpy(getattr(L, name)(x, norm="ortho"), getattr(NF, name)(x, norm="ortho"))
    for name in ("rfft", "ihfft", "rfftn"):
        out = np.zeros_like(getattr(NF, name)(x.real))
        assert getattr(L, name)(x.real, out=out) is out
        assert_like_numpy(out, getattr(NF, name)(x.real))


def test_import_does_not_load_scipy_or_numba():
    import subprocess
    import sys
    code = ("import sys, linalgx.fft; "
            "print(any(m.split('.')[0] in ('scipy', 'numba') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# -- helpers -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 7, 8, np.int8(9)])
@pytest.mark.parametrize("d", [1.0, 0.1, np.float32(0.25)])
def test_fftfreq_parity(n, d):
    assert_like_numpy(L.fftfreq(n, d), NF.fftfreq(n, d))
    assert_like_numpy(L.rfftfreq(n, d), NF.rfftfreq(n, d))
    assert_like_numpy(L.fftfreq(n, d, device="cpu"), NF.fftfreq(n, d))


@pytest.mark.parametrize("axes", [None, 0, 1, (0, 1), (1,), (1, 1), [-1]])
@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts_parity(name, axes):
    x = np.arange(35).reshape(5, 7)
    got = assert_unchanged(getattr(L, name), x, axes)
    np.testing.assert_array_equal(got, getattr(NF, name)(x, axes))
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(getattr(L, name)([1, 2, 3, 4]), getattr(NF, name)([1, 2, 3, 4]))


def test_thread_default_is_one_in_threads():
    seen = []
    t = threading.Thread(target=lambda: seen.append(L.get_workers()))
    t.start()
    t.join()
    assert seen == [1]


def test_cupy_impls_with_a_numpy_stand_in(monkeypatch):
    """The cupy implementations' logic (norm swaps for ihfftn/hfftn, resizing, out=) run
    against a stand-in module that maps cupy.fft to numpy.fft; no GPU here."""
    import sys
    import types
    fake = types.SimpleNamespace(fft=NF, conj=np.conj, zeros_like=np.zeros_like)
    monkeypatch.setitem(sys.modules, "cupy", fake)
    xc = _rand((4, 6), np.complex128)
    xr = xc.real.copy()
    for kind, x in (("c2c", xc), ("r2c", xr), ("c2r", xc)):
        for forward in (True, False):
            for norm in ("backward", "ortho", "forward"):
                params = dict(axes=(-2, -1), lengths=(5, 7), norm=norm, forward=forward)
                exp = getattr(_ops, f"_{kind}_lapack")(x, **params)
                out = np.zeros_like(exp)
                got = getattr(_ops, f"_{kind}_cupy")(x, out=out, **params)
                assert got is out
                np.testing.assert_allclose(out, exp, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(_ops._resize_cupy(xr, axes=(-1,), lengths=(9,)),
                                  _ops._resize_lapack(xr, axes=(-1,), lengths=(9,)))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_last_axis_calls_bitwise_as_numpy(name):
    """The commonest call (one transform over the last axis of a float64 or complex128
    array, no out=) takes a short path past the general validation: NumPy's bits for
    padding, truncation, layouts and the backward/forward norms, and NumPy's errors in
    NumPy's order (the length is checked before the norm)."""
    rng = np.random.default_rng(7)
    f, g = getattr(np.fft, name), getattr(L, name)
    for shape in [(16,), (7,), (1,), (3, 12), (2, 3, 9)]:
        r = rng.standard_normal(shape)
        for a in (r, r + 1j * rng.standard_normal(shape), np.asfortranarray(r), r[..., ::-1]):
            if name in ("rfft", "ihfft") and a.dtype.kind == "c":
                continue
            for n in (None, 1, 5, 24):
                for norm in (None, "forward"):
                    if n is None and name in ("irfft", "hfft") and a.shape[-1] == 1:
                        continue  # an output length of 0: an error (checked below)
                    want, got = f(a, n=n, norm=norm), g(a, n=n, norm=norm)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                                  np.ascontiguousarray(want).view(np.uint8))
    for bad in ({"n": 0, "norm": "bogus"}, {"n": 0}, {"norm": "bogus"}, {"n": 2.0}):
        try:
            f(np.ones(4), **bad)
        except Exception as e:  # noqa: BLE001 (whatever NumPy raises, linalgx raises)
            want = e
        with pytest.raises(type(want)) as got:
            g(np.ones(4), **bad)
        assert str(got.value).startswith(str(want))
