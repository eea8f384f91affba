"""Both autodiff modes of all 22 transforms x 4 norm settings against central finite
differences (gradcheck), on small inputs with padding/truncation where the API allows."""
import numpy as np
import pytest

import linalgx.fft as F
from linalgx import gradcheck

rng = np.random.default_rng(5)
C1 = rng.standard_normal(5) + 1j * rng.standard_normal(5)
R1 = rng.standard_normal(6)
C2 = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
R2 = rng.standard_normal((3, 4))

TRANSFORMS = {
    "fft": (lambda x, norm: F.fft(x, n=6, norm=norm), C1),
    "ifft": (lambda x, norm: F.ifft(x, n=4, norm=norm), C1),
    "rfft": (lambda x, norm: F.rfft(x, n=7, norm=norm), R1),
    "irfft": (lambda x, norm: F.irfft(x, n=8, norm=norm), C1),
    "hfft": (lambda x, norm: F.hfft(x, n=7, norm=norm), C1),
    "ihfft": (lambda x, norm: F.ihfft(x, norm=norm), R1),
    "fft2": (lambda x, norm: F.fft2(x, norm=norm), C2),
    "ifft2": (lambda x, norm: F.ifft2(x, s=(4, 3), norm=norm), C2),
    "fftn": (lambda x, norm: F.fftn(x, norm=norm), C2),
    "ifftn": (lambda x, norm: F.ifftn(x, norm=norm), C2),
    "rfft2": (lambda x, norm: F.rfft2(x, norm=norm), R2),
    "irfft2": (lambda x, norm: F.irfft2(x, s=(3, 5), norm=norm), C2),
    "rfftn": (lambda x, norm: F.rfftn(x, norm=norm), R2),
    "irfftn": (lambda x, norm: F.irfftn(x, norm=norm), C2),
    "hfft2": (lambda x, norm: F.hfft2(x, s=(3, 6), norm=norm), C2),
    "hfftn": (lambda x, norm: F.hfftn(x, norm=norm), C2),
    "ihfft2": (lambda x, norm: F.ihfft2(x, norm=norm), R2),
    "ihfftn": (lambda x, norm: F.ihfftn(x, norm=norm), R2),
    "fftshift": (lambda x, norm: F.fftshift(x), C2),
    "ifftshift": (lambda x, norm: F.ifftshift(x), C2),
    "fftfreq_scaled": (lambda x, norm: x * F.fftfreq(x.size), R1),
    "rfftfreq_scaled": (lambda x, norm: x[:4] * F.rfftfreq(6), R1),
}


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_transform_gradcheck(name, norm):
    f, x = TRANSFORMS[name]
    gradcheck(lambda x: f(x, norm), x.copy())


def test_all_public_names_covered():
    names = {n.replace("_scaled", "") for n in TRANSFORMS}
    assert set(np.fft.__all__) | {"hfft2", "hfftn", "ihfft2", "ihfftn"} == names
