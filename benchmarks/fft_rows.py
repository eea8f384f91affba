"""FFT rows for the benchmark runner: linalgx.fft against numpy.fft, scipy.fft(workers=2) and,
when importable, pyFFTW (its numpy interface, 2 threads, plan cache on).

``rows()`` returns ``(name, linalgx_callable, {peer_name: peer_callable})`` tuples; each
callable takes no arguments and runs one transform on data prepared once. ``python -m
benchmarks.fft_rows`` prints best-of-N times and ratios (a quick check, not the runner).
"""
import numpy as np

__all__ = ["rows"]


def _complex(rng, shape, dtype=np.complex128):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def _pyfftw():
    try:
        import pyfftw
        import pyfftw.interfaces.numpy_fft as fftw
    except ImportError:
        return None
    pyfftw.interfaces.cache.enable()  # plans are reused across calls, as a user would
    return fftw


def rows():
    import scipy.fft as sf

    import linalgx.fft as lf

    rng = np.random.default_rng(0)
    cases = []  # (row name, transform name, input)
    for label, n in (("2^20", 2**20), ("2^20+1", 2**20 + 1), ("1000003", 1_000_003)):
        cases.append((f"fft complex128 n={label}", "fft", _complex(rng, n)))
    cases.append(("rfft float64 (4096,1024) axis=-1", "rfft",
                  rng.standard_normal((4096, 1024))))
    for dtype in (np.complex64, np.complex128):
        cases.append((f"fft2 {np.dtype(dtype).name} (2048,2048)", "fft2",
                      _complex(rng, (2048, 2048), dtype)))
    fftw = _pyfftw()
    out = []
    for name, fn, x in cases:
        peers = {"numpy": _bind(getattr(np.fft, fn), x),
                 "scipy(workers=2)": _bind(getattr(sf, fn), x, workers=2)}
        if fftw is not None:
            peers["pyfftw"] = _bind(getattr(fftw, fn), x, threads=2)
        out.append((name, _bind(getattr(lf, fn), x), peers))
    return out


def _bind(f, x, **kwargs):
    def call():
        return f(x, **kwargs)
    return call


def _best(fn, repeat=7):
    import time
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


if __name__ == "__main__":
    for name, mine, peers in rows():
        t = _best(mine)
        peer_times = {p: _best(f) for p, f in peers.items()}
        ratios = ", ".join(f"{p} {pt * 1e3:8.2f} ms ({pt / t:4.2f}x)"
                           for p, pt in peer_times.items())
        print(f"{name:36s} linalgx {t * 1e3:8.2f} ms | {ratios}")
