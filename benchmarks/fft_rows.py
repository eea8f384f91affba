"""FFT rows for the benchmark runner: linalgx.fft against numpy.fft and scipy.fft(workers=2).

``rows()`` returns ``(name, linalgx_callable, {peer_name: peer_callable})`` tuples; each
callable takes no arguments and runs one transform on data prepared once. ``python -m
benchmarks.fft_rows`` prints best-of-N times and ratios (a quick check, not the runner).
"""
import numpy as np

__all__ = ["rows"]


def _complex(rng, shape, dtype=np.complex128):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def rows():
    import scipy.fft as sf

    import linalgx.fft as lf

    rng = np.random.default_rng(0)
    out = []
    for label, n in (("2^20", 2**20), ("2^20+1", 2**20 + 1), ("1000003", 1_000_003)):
        x = _complex(rng, n)
        out.append((f"fft complex128 n={label}", lambda x=x: lf.fft(x),
                    {"numpy": lambda x=x: np.fft.fft(x),
                     "scipy(workers=2)": lambda x=x: sf.fft(x, workers=2)}))
    xr = rng.standard_normal((4096, 1024))
    out.append(("rfft float64 (4096,1024) axis=-1", lambda: lf.rfft(xr),
                {"numpy": lambda: np.fft.rfft(xr),
                 "scipy(workers=2)": lambda: sf.rfft(xr, workers=2)}))
    for dtype in (np.complex64, np.complex128):
        x2 = _complex(rng, (2048, 2048), dtype)
        out.append((f"fft2 {np.dtype(dtype).name} (2048,2048)", lambda x2=x2: lf.fft2(x2),
                    {"numpy": lambda x2=x2: np.fft.fft2(x2),
                     "scipy(workers=2)": lambda x2=x2: sf.fft2(x2, workers=2)}))
    return out


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
