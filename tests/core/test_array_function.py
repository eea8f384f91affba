"""NEP 18: linalgx.linalg and linalgx.fft hand duck arrays on as numpy.linalg / numpy.fft do."""
import warnings

import numpy as np
import pytest

import linalgx
import linalgx.fft as F
import linalgx.linalg as LA


class Duck:
    """A duck array that implements every NumPy function as a marker of the call."""

    def __init__(self, x):
        self.x = np.asarray(x)

    def __array__(self, dtype=None, copy=None):
        return self.x

    def __array_function__(self, func, types, args, kwargs):
        return ("duck", func.__name__, len(args), sorted(kwargs))


class Refusing(Duck):
    def __array_function__(self, func, types, args, kwargs):
        return NotImplemented


_TWO = {"solve", "tensorsolve", "cross", "outer", "tensordot", "matmul", "vecdot", "lstsq"}


def _args(name, d):
    if name == "multi_dot":
        return ([np.eye(3), d, np.eye(3)],)
    if name == "matrix_power":
        return (d, 2)
    if name in _TWO:
        return (np.eye(3), d)
    return (d,)


LINALG = [n for n in np.linalg.__all__ if n != "LinAlgError"]


@pytest.mark.parametrize("name", LINALG)
def test_linalg_defers_like_numpy(name):
    d = Duck(np.eye(3))
    want = getattr(np.linalg, name)(*_args(name, d))
    assert want[:2] == ("duck", name)
    assert getattr(LA, name)(*_args(name, d)) == want


@pytest.mark.parametrize("name", [n for n in np.fft.__all__ if "freq" not in n])
def test_fft_defers_like_numpy(name):
    """(NumPy does not dispatch fftfreq and rfftfreq.)"""
    d = Duck(np.ones(4))
    want = getattr(np.fft, name)(d)
    assert want[:2] == ("duck", name)
    assert getattr(F, name)(d) == want


def test_keyword_argument_and_refusal():
    d = Duck(np.eye(2))
    assert LA.norm(x=d)[:2] == np.linalg.norm(x=d)[:2] == ("duck", "norm")
    # the arguments as written (linalgx's defaults are not written out for the duck)
    # the arguments as given reach the duck: options by keyword stay keywords, defaults
    # are not written out, explicit ones are kept
    for call in (lambda m: m.linalg.qr(d, mode="r"), lambda m: m.fft.fft(d, n=2, axis=0),
                 lambda m: m.linalg.svd(d, full_matrices=True), lambda m: m.linalg.svd(d),
                 lambda m: m.linalg.norm(d, ord=2), lambda m: m.fft.fftshift(d, axes=0),
                 lambda m: m.linalg.matrix_power(d, 3), lambda m: m.fft.rfftn(d, s=None)):
        assert call(linalgx) == call(np)
    with pytest.raises(TypeError) as want:
        np.linalg.inv(Refusing(np.eye(2)))
    with pytest.raises(TypeError) as got:
        LA.inv(Refusing(np.eye(2)))
    assert str(got.value) == str(want.value)


def test_linalgx_computes_its_own_types():
    """NumPy subclasses without an override, lists and traced values stay linalgx's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        m = np.matrix([[2.0, 1.0], [1.0, 3.0]])
    assert type(LA.inv(m)) is np.matrix
    np.testing.assert_allclose(LA.inv(m), np.linalg.inv(m))
    ma = np.ma.array(np.eye(2) * 2)
    np.testing.assert_allclose(LA.inv(ma), np.eye(2) / 2)
    np.testing.assert_allclose(LA.inv([[2.0, 0.0], [0.0, 4.0]]), [[0.5, 0.0], [0.0, 0.25]])
    # d det(A) / dA = det(A) A^{-T}
    a = np.array([[2.0, 1.0], [0.5, 3.0]])
    np.testing.assert_allclose(linalgx.grad(LA.det)(a), np.linalg.det(a) * np.linalg.inv(a).T)


@pytest.mark.parametrize("call", [
    lambda: LA.qr(np.matrix(np.eye(2)), "full"),
    lambda: LA.det(np.random.default_rng(0).standard_normal((600, 600)) * 10),
    lambda: F.fftn(np.ones((4, 4)), s=(4, 4)),
    lambda: F.irfftn(np.ones((4, 4)), s=(None, 4), axes=(0, 1)),
], ids=["qr-mode", "det-overflow", "fftn-s", "irfftn-s-none"])
def test_warnings_point_at_the_caller(call):
    """As NumPy's: the warning's location is the user's line, through any route inside
    linalgx (the NEP 18 wrapper, the dispatcher)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        call()
    assert w and all(x.filename == __file__ for x in w), [(x.filename, x.lineno) for x in w]


def test_wrappers_have_numpys_signatures():
    """The deferring wrapper reports the function's own signature (positional-only and
    keyword-only markers and defaults included), which is NumPy's."""
    import inspect
    for mod, ours in ((np.linalg, LA), (np.fft, F)):
        for name in mod.__all__:
            if name == "LinAlgError":
                continue
            got = inspect.signature(getattr(ours, name), follow_wrapped=False)
            assert str(got) == str(inspect.signature(getattr(mod, name))), name
