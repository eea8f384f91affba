"""linalgx.fft against numpy.fft where a multi-axis transform differs from one pocketfft call:
NumPy's order of the 1-D passes and its per-axis scaling (no overflow where NumPy has none,
complex128 bitwise equal), ``out=`` broadcasting from a size-1 axis as NumPy's last 1-D step
does, and the order of NumPy's argument checks."""
import warnings

import numpy as np
import pytest

import linalgx.fft as L
from tests.helpers import assert_raises_like

NF = np.fft
_SWAP = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
NORMS = ("backward", "ortho", "forward")


# NumPy has no n-D Hermitian transforms; linalgx's are NumPy's irfftn / rfftn compositions
def _np_hfftn(a, s=None, axes=None, norm="backward", out=None):
    return NF.irfftn(np.conjugate(a), s=s, axes=axes, norm=_SWAP[norm], out=out)


def _np_ihfftn(a, s=None, axes=None, norm="backward"):
    return np.conjugate(NF.rfftn(a, s=s, axes=axes, norm=_SWAP[norm]))


# name -> (linalgx function, NumPy reference, real input, NumPy's direction: forward?)
FUNCS = {
    "fftn": (L.fftn, NF.fftn, False, True),
    "ifftn": (L.ifftn, NF.ifftn, False, False),
    "fft2": (L.fft2, NF.fft2, False, True),
    "ifft2": (L.ifft2, NF.ifft2, False, False),
    "rfftn": (L.rfftn, NF.rfftn, True, True),
    "rfft2": (L.rfft2, NF.rfft2, True, True),
    "irfftn": (L.irfftn, NF.irfftn, False, False),
    "irfft2": (L.irfft2, NF.irfft2, False, False),
    "hfftn": (L.hfftn, _np_hfftn, False, False),
    "hfft2": (L.hfft2, _np_hfftn, False, False),
    "ihfftn": (L.ihfftn, _np_ihfftn, True, True),
    "ihfft2": (L.ihfft2, _np_ihfftn, True, True),
}
# (shape, axes): 2-D and 3-D, axes in and out of order, one left out
LAYOUTS = [((3, 8), (0, 1)), ((4, 6, 5), (0, 1, 2)), ((4, 6, 5), (2, 0)),
           ((5, 4, 3), (2, 1, 0)), ((7, 3, 9), (1, 2))]


def _data(shape, dtype, real, scale, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, shape) + (0 if real else 1j * rng.uniform(-1, 1, shape))
    x = (x * scale).astype(dtype)  # |real|, |imag| <= scale
    return x.real.copy() if real else x


def _scaled_every_pass(name, norm):
    """NumPy passes a norm factor other than 1 to every 1-D step (for hfftn/ihfftn: of the
    composition, i.e. with the swapped norm)."""
    forward = FUNCS[name][3]
    if name.startswith(("hfft", "ihfft")):
        norm = _SWAP[norm]
    return norm != ("backward" if forward else "forward")


def _call(fn, name, x, axes, norm):
    return fn(x, axes=axes if not name.endswith("2") else axes[-2:], norm=norm)


# -- per-axis scaling, NumPy's pass order ----------------------------------------------------
def test_irfft2_of_huge_complex64_does_not_overflow():
    x = np.full((2, 2), 1e38, np.complex64)
    exp = NF.irfft2(x)
    got = L.irfft2(x)
    assert exp[0, 0] == np.float32(1e38)
    assert got.dtype == exp.dtype
    np.testing.assert_array_equal(got, exp)


def test_ifft2_of_huge_complex128_stays_finite():
    y = np.zeros((3, 8), complex)
    y[:, 2] = 1e308
    exp = NF.ifft2(y)
    assert np.isfinite(exp).all()
    np.testing.assert_array_equal(L.ifft2(y), exp)
    np.testing.assert_array_equal(L.ifftn(y), NF.ifftn(y))


def test_irfftn_and_hfftn_of_huge_values_three_axes():
    x = np.full((2, 2, 2), 1.2e38, np.complex64)
    exp = NF.irfftn(x)
    assert np.isfinite(exp).all()
    np.testing.assert_array_equal(L.irfftn(x), exp)
    exp = _np_hfftn(x, norm="forward")
    assert np.isfinite(exp).all()
    np.testing.assert_array_equal(L.hfftn(x, norm="forward"), exp)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda v: f"{v[0]}{v[1]}" if len(v) == 2 else "")
@pytest.mark.parametrize("name", list(FUNCS))
def test_complex128_bitwise_like_numpy(name, layout, norm):
    """NumPy's 1-D passes in NumPy's order, each scaled by its own factor: the same bits.
    (norm="ortho" only to rounding: pocketfft's 1/sqrt(n) is rounded once, NumPy's
    reciprocal(sqrt(n)) twice; that holds for the 1-D transforms too.)"""
    fn, ref, real, _ = FUNCS[name]
    shape, axes = layout
    for scale in (1.0, np.finfo(np.float64).max / 3):
        x = _data(shape, np.complex128, real, scale)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's overflow warnings
            exp = _call(ref, name, x, axes, norm)
        got = _call(fn, name, x, axes, norm)
        assert got.dtype == exp.dtype and got.shape == exp.shape
        np.testing.assert_array_equal(np.isfinite(got), np.isfinite(exp))
        if norm != "ortho":
            np.testing.assert_array_equal(got, exp)
        else:
            m = np.isfinite(exp)
            np.testing.assert_allclose(got[m] / scale, exp[m] / scale, rtol=0,
                                       atol=1e-13 * np.abs(exp[m] / scale).max(initial=1))


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda v: f"{v[0]}{v[1]}" if len(v) == 2 else "")
@pytest.mark.parametrize("name", list(FUNCS))
def test_complex64_huge_values_finite_where_numpy_is(name, layout, norm):
    """Near float32's maximum, scaled transforms overflow exactly where NumPy's do. (NumPy
    runs an unscaled complex64 pass in double precision, an accident of its ufunc loop
    choice that linalgx does not copy: those are compared on moderate values only.)"""
    fn, ref, real, _ = FUNCS[name]
    shape, axes = layout
    scales = [1.0]
    if _scaled_every_pass(name, norm):
        scales.append(np.finfo(np.float32).max / 3)
    for scale in scales:
        x = _data(shape, np.complex64, real, scale)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            exp = _call(ref, name, x, axes, norm)
        got = _call(fn, name, x, axes, norm)
        assert got.dtype == exp.dtype and got.shape == exp.shape
        np.testing.assert_array_equal(np.isfinite(got), np.isfinite(exp))
        m = np.isfinite(exp)
        np.testing.assert_allclose(got[m] / scale, exp[m] / scale, rtol=0,
                                   atol=1e-5 * np.abs(exp[m] / scale).max(initial=1))


@pytest.mark.parametrize("norm", NORMS)
def test_forward_transforms_underflow_like_numpy(norm):
    """norm="forward" scales each pass: tiny values keep NumPy's subnormal bits."""
    x = _data((6, 10), np.float64, True, 1e-300)
    for name in ("fftn", "rfftn", "ihfftn"):
        fn, ref = FUNCS[name][:2]
        exp = ref(x, axes=(0, 1), norm=norm)
        if norm != "ortho":
            np.testing.assert_array_equal(fn(x, axes=(0, 1), norm=norm), exp)
        else:
            np.testing.assert_allclose(fn(x, axes=(0, 1), norm=norm), exp, rtol=1e-12,
                                       atol=1e-320)


def test_repeated_axes_and_padding_like_numpy():
    x = _data((4, 6), np.complex128, False, 1.0)
    for norm in ("backward", "forward"):
        np.testing.assert_array_equal(L.ifftn(x, s=(5, 3, 4), axes=(1, 0, 1), norm=norm),
                                      NF.ifftn(x, s=(5, 3, 4), axes=(1, 0, 1), norm=norm))
        np.testing.assert_array_equal(L.irfftn(x, s=(3, 8, 7), axes=(0, 1, 1), norm=norm),
                                      NF.irfftn(x, s=(3, 8, 7), axes=(0, 1, 1), norm=norm))
        np.testing.assert_array_equal(L.rfftn(x.real, s=(9, 5), axes=(1, 0), norm=norm),
                                      NF.rfftn(x.real, s=(9, 5), axes=(1, 0), norm=norm))


@pytest.mark.parametrize("name", ["ifftn", "irfftn", "rfftn", "hfftn", "ihfftn"])
def test_scaled_transforms_stay_differentiable(name):
    import linalgx
    fn, _, real, _ = FUNCS[name]
    x = _data((3, 4, 6), np.float64 if real else np.complex128, real, 1.0)
    w = _data(fn(x, norm="ortho").shape, np.float64, True, 1.0, seed=1)

    def f(z):
        y = fn(z, axes=(0, 1, 2), norm="ortho")
        return (w * (y.real if y.dtype.kind == "c" else y)).sum()

    g = linalgx.grad(f)(x)
    eps = 1e-6
    d = _data(x.shape, x.dtype, real, 1.0, seed=2)
    num = (f(x + eps * d) - f(x - eps * d)) / (2 * eps)
    np.testing.assert_allclose(np.real(np.vdot(g, d)) if not real else np.sum(g * d), num,
                               rtol=1e-6)


def test_cupy_impls_take_the_axes_in_numpys_pass_order(monkeypatch):
    """The ops now get their axes in NumPy's pass order (fftn: the last axis first; r2c: the
    others before the real axis); the cupy implementations, run against a stand-in that maps
    cupy.fft to numpy.fft, agree with the pocketfft ones for any order."""
    import sys
    import types

    from linalgx.fft import _ops
    monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(
        fft=NF, conj=np.conj, zeros_like=np.zeros_like))
    xc = _data((3, 4, 6), np.complex128, False, 1.0)
    for kind, x, axes in (("c2c", xc, (-1, -3, -2)), ("r2c", xc.real.copy(), (-2, -3, -1)),
                          ("c2r", xc, (-3, -1, -2))):
        for forward in (True, False):
            for norm in NORMS:
                params = dict(axes=axes, lengths=(5, 3, 7), norm=norm, forward=forward)
                exp = getattr(_ops, f"_{kind}_lapack")(x, **params)
                got = getattr(_ops, f"_{kind}_cupy")(x, **params)
                np.testing.assert_allclose(got, exp, rtol=1e-12, atol=1e-12)


# -- out= broadcasting from a size-1 axis ----------------------------------------------------
_A = np.arange(9.0).reshape(3, 3) + 1j


@pytest.mark.parametrize("oshape", [(2, 4), (1, 4), (3, 4)])
def test_irfftn_out_broadcasts_from_a_size_one_axis(oshape):
    exp = NF.irfftn(_A, s=(1, 4), axes=(0, 1), out=np.full(oshape, -7.0))
    out = np.full(oshape, -7.0)
    assert L.irfftn(_A, s=(1, 4), axes=(0, 1), out=out) is out
    np.testing.assert_array_equal(out, exp)
    out = np.full(oshape, -7.0)  # NumPy's irfft2 ignores out; linalgx fills it as irfftn does
    assert L.irfft2(_A, s=(1, 4), out=out) is out
    np.testing.assert_array_equal(out, exp)


@pytest.mark.parametrize("name", ["hfftn", "hfft2"])
@pytest.mark.parametrize("oshape", [(2, 4), (3, 4)])
def test_hfftn_out_broadcasts_like_irfftn(name, oshape):
    exp = _np_hfftn(_A, s=(1, 4), axes=(0, 1), out=np.full(oshape, -7.0))
    out = np.full(oshape, -7.0)
    kw = dict(axes=(0, 1)) if name == "hfftn" else {}
    assert getattr(L, name)(_A, s=(1, 4), out=out, **kw) is out
    np.testing.assert_array_equal(out, exp)


@pytest.mark.parametrize("oshape", [(2, 5), (2, 1, 4), (4,)])
def test_irfftn_out_of_wrong_shape_still_raises(oshape):
    def call(M):
        return M.irfftn(_A, s=(1, 4), axes=(0, 1), out=np.zeros(oshape))
    assert_raises_like(lambda: call(NF), lambda: call(L))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        L.hfftn(_A, s=(1, 4), axes=(0, 1), out=np.zeros(oshape))


def test_out_that_the_result_cannot_broadcast_into_raises():
    with pytest.raises(ValueError):
        NF.irfftn(_A, s=(2, 4), axes=(0, 1), out=np.zeros((3, 4)))
    with pytest.raises(ValueError, match="broadcast"):
        L.irfftn(_A, s=(2, 4), axes=(0, 1), out=np.zeros((3, 4)))
    with pytest.raises(ValueError, match="broadcast"):
        L.hfftn(_A, s=(2, 4), axes=(0, 1), out=np.zeros((3, 4)))


def test_out_as_a_one_element_tuple_as_numpy():
    x = np.arange(8.0)
    for fn, o in ((L.fft, np.empty(8, complex)), (L.rfft, np.empty(5, complex)),
                  (L.irfft, np.empty(14))):
        ref = getattr(NF, fn.__name__)(x, out=(o.copy(),))
        assert fn(x, out=(o,)) is o
        np.testing.assert_array_equal(o, ref)
    o = np.empty((8, 8), complex)
    assert L.fft2(np.ones((8, 8)), out=(o,)) is o
    for bad in ((), (np.empty(8, complex), np.empty(8, complex))):
        assert_raises_like(lambda bad=bad: NF.fft(x, out=bad), lambda bad=bad: L.fft(x, out=bad))


# -- argument-check order ---------------------------------------------------------------------
_STR = np.array(["a", "b", "c", "d"])
_X = np.arange(24.0).reshape(4, 6)
_ORDER = {
    "fft str bogus norm": lambda M: M.fft(_STR, norm="bogus"),
    "rfft str bogus norm": lambda M: M.rfft(_STR, norm="bogus"),
    "fftn str bogus norm": lambda M: M.fftn(_STR, norm="bogus"),
    "rfftn str bogus norm": lambda M: M.rfftn(_STR, norm="bogus"),
    "fft2 str bogus norm": lambda M: M.fft2(np.stack([_STR, _STR]), norm="bogus"),
    "fft datetime bogus norm": lambda M: M.fft(_STR.astype("M8[s]"), norm="x"),
    "ifft str bogus norm": lambda M: M.ifft(_STR, norm="bogus"),  # inverse: norm first
    "ihfft str bogus norm": lambda M: M.ihfft(_STR, norm="bogus"),
    "hfft str n=0": lambda M: M.hfft(_STR, n=0),  # NumPy conjugates before checking n
    "hfft datetime n=0": lambda M: M.hfft(_STR.astype("M8[s]"), n=0),
    "fft str bad out": lambda M: M.fft(_STR, out=np.zeros(3, complex)),
    "fft n=0 str bogus norm": lambda M: M.fft(_STR, n=0, norm="bogus"),
    # an out= of wrong dtype and shape: the ufunc refuses the dtype before the broadcast
    "fft out dtype before broadcast": lambda M: M.fft(_X, n=5, out=np.empty((3, 5), "f4")),
    "rfft2 out dtype before broadcast": lambda M: M.rfft2(_X, s=(5, 5), out=np.empty((5, 3))),
    "fftn out dtype before broadcast": lambda M: M.fftn(_X, s=(3, 5), axes=(0, 1),
                                                        out=np.empty((2, 5), "f4")),
    # an object out= written by one pass is the next pass's input, which no loop takes
    "fftn object out": lambda M: M.fftn(_X, out=np.empty((4, 6), object)),
    "rfft2 object out": lambda M: M.rfft2(_X, out=np.empty((4, 4), object)),
    "ifftn object out": lambda M: M.ifftn(_X, out=np.empty((4, 6), object)),
}


@pytest.mark.parametrize("case", list(_ORDER))
def test_argument_checks_in_numpys_order(case):
    fn = _ORDER[case]
    assert_raises_like(lambda: fn(NF), lambda: fn(L))


@pytest.mark.parametrize("odt", [np.complex128, np.clongdouble])
@pytest.mark.parametrize("idt", [np.float16, np.float32, np.complex64])
@pytest.mark.parametrize("name", ["fft", "rfft", "fftn", "rfftn", "fft2", "irfft"])
def test_single_precision_input_into_a_wider_out_runs_in_double(name, idt, odt):
    """A double (or longdouble) out= makes NumPy take its double loop: the same bits here.
    (Unscaled passes only: NumPy's norm factor itself is rounded to the input's precision.
    NumPy's later n-D passes read the longdouble out and run in longdouble.)"""
    if name.startswith("r") and np.dtype(idt).kind == "c":
        return
    norm = "forward" if name.startswith("i") else "backward"
    if name == "irfft":
        odt = np.float64 if odt is np.complex128 else np.longdouble
    x = _data((3, 10), idt, np.dtype(idt).kind != "c", 1.0)
    exp_shape = getattr(NF, name)(x, norm=norm).shape
    exp, got = np.empty(exp_shape, odt), np.empty(exp_shape, odt)
    getattr(NF, name)(x, norm=norm, out=exp)
    res = getattr(L, name)(x, norm=norm, out=got)
    assert res is got
    if name.endswith(("n", "2")) and odt is np.clongdouble:
        np.testing.assert_allclose(got, exp, rtol=1e-15, atol=1e-15)
    else:
        np.testing.assert_array_equal(got, exp)
