"""Reverse-mode gradients of every linalgx.fft transform against torch.autograd (torch.fft),
for every norm, cropping and padding, permuted and negative axes, real and complex input in
double and single precision, with a batch axis.

Loss: ``sum(|f(x)|**2 * W) + Re(sum(f(x) * conj(V)))``, whose gradient under PyTorch's
convention (``dL/dx + i dL/dy``) both libraries return. For irfft/hfft the imaginary parts
of the zero (and even-n Nyquist) bins get zero gradient in both, which is the true
derivative of the function as NumPy computes it (it ignores them; checked against central
differences below).
"""
import numpy as np
import pytest

import linalgx
import linalgx.fft as F

torch = pytest.importorskip("torch")

NORMS = [None, "backward", "ortho", "forward"]
T = torch.fft


def _np(t):
    return t.detach().resolve_conj().resolve_neg().numpy()


def _check(lf, tf, x, rtol):
    rng = np.random.default_rng(x.size)
    y = np.asarray(lf(x))
    w = rng.standard_normal(y.shape)
    v = rng.standard_normal(y.shape) + (1j * rng.standard_normal(y.shape)
                                         if np.iscomplexobj(y) else 0)

    def loss(x):
        y = lf(x)
        return (abs(y) ** 2 * w).sum() + np.real(y * np.conj(v)).sum()

    g = linalgx.grad(loss)(x)
    xt = torch.tensor(x, requires_grad=True)
    yt = tf(xt)
    np.testing.assert_allclose(_np(yt), y, rtol=rtol, atol=rtol)
    vt = torch.tensor(v)
    lt = (yt.abs() ** 2 * torch.tensor(w)).sum() + (yt * vt.conj()).real.sum()
    (gt,) = torch.autograd.grad(lt, xt)
    gt = _np(gt)
    assert g.dtype == gt.dtype and g.shape == gt.shape
    np.testing.assert_allclose(g, gt, rtol=rtol, atol=rtol * np.max(np.abs(gt)))


def _x(shape, cplx, single):
    rng = np.random.default_rng(sum(shape) + cplx)
    x = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if cplx else 0)
    return x.astype(({True: np.complex64, False: np.float32} if single
                     else {True: np.complex128, False: np.float64})[cplx])


ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]


@pytest.mark.parametrize("single", [False, True], ids=["f64", "f32"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ONE_D)
def test_1d(name, norm, single):
    rtol = 2e-4 if single else 1e-10
    cases = [True, False] if name not in ("rfft", "ihfft") else [False]
    for cplx in cases:
        for shape, axis in [((7,), -1), ((3, 6), 0), ((2, 5, 4), -2)]:
            x = _x(shape, cplx, single)
            for n in (None, max(1, shape[axis] - 2), shape[axis] + 3):
                _check(lambda x, n=n, axis=axis: getattr(F, name)(x, n=n, axis=axis, norm=norm),
                       lambda x, n=n, axis=axis: getattr(T, name)(x, n=n, dim=axis, norm=norm),
                       x, rtol)


ND = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]


@pytest.mark.parametrize("single", [False, True], ids=["f64", "f32"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ND)
def test_nd(name, norm, single):
    rtol = 2e-4 if single else 1e-10
    shape = (2, 4, 5)                      # axis 0 is a batch axis where axes leave it out
    cases = [True, False] if name not in ("rfftn", "ihfftn") else [False]
    for cplx in cases:
        x = _x(shape, cplx, single)
        for axes, s in [(None, None), ((-1, -2), None), ((2, 0), (3, 4)), ((-2, -1), (6, 3)),
                        ((1, -1, 0), (3, 7, 2))]:
            tdim = None if axes is None else axes
            _check(lambda x, s=s, axes=axes: getattr(F, name)(x, s=s, axes=axes, norm=norm),
                   lambda x, s=s, tdim=tdim: getattr(T, name)(x, s=s, dim=tdim, norm=norm),
                   x, rtol)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"])
def test_2d(name, norm):
    cases = [True, False] if name not in ("rfft2", "ihfft2") else [False]
    for cplx in cases:
        x = _x((3, 4, 6), cplx, False)
        for s in (None, (5, 4)):
            _check(lambda x, s=s: getattr(F, name)(x, s=s, norm=norm),
                   lambda x, s=s: getattr(T, name)(x, s=s, norm=norm), x, 1e-10)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts(name):
    for cplx in (False, True):
        x = _x((3, 4, 5), cplx, False)
        for axes in (None, 0, -1, (0, -1), (2, 1)):
            _check(lambda x, axes=axes: getattr(F, name)(x, axes=axes),
                   lambda x, axes=axes: getattr(T, name)(x, dim=axes), x, 1e-12)


@pytest.mark.parametrize("name,n", [("irfft", 8), ("irfft", 7), ("hfft", 8), ("hfft", 9),
                                    ("irfft", 12), ("irfft", 4)])
def test_hermitian_bins_match_finite_differences(name, n):
    # torch's convention for the DC and Nyquist bins equals the true derivative of NumPy's
    # function: central differences along the real and the imaginary part of each bin
    rng = np.random.default_rng(n)
    z = rng.standard_normal(5) + 1j * rng.standard_normal(5)
    w = rng.standard_normal(n)

    def loss(z):
        return (getattr(F, name)(z, n=n, norm="ortho") ** 2 * w).sum()

    g = linalgx.grad(loss)(z)
    h = 1e-6
    fd = np.zeros_like(z)
    for k in range(z.size):
        for unit in (1.0, 1j):
            e = np.zeros_like(z)
            e[k] = h * unit
            d = (loss(z + e) - loss(z - e)) / (2 * h)
            fd[k] += unit * d
    np.testing.assert_allclose(g, fd, atol=1e-7)
    assert g[0].imag == 0.0
    zt = torch.tensor(z, requires_grad=True)
    lt = (getattr(T, name)(zt, n=n, norm="ortho") ** 2 * torch.tensor(w)).sum()
    np.testing.assert_allclose(g, _np(torch.autograd.grad(lt, zt)[0]), rtol=1e-10,
                               atol=1e-12)
