"""linalgx.special rows for the benchmark runner: 10 million float64 values per function,
against scipy.special and, when importable, torch.special (its own thread pool).

``rows()`` returns ``(name, linalgx_callable, {peer_name: peer_callable})`` tuples like
:mod:`benchmarks.fft_rows`. ``python -m benchmarks.special_rows`` prints medians and ratios.
"""
import functools
import time

import numpy as np

__all__ = ["rows"]

N = 10_000_000


def _inputs(rng):
    u = rng.uniform(0.0, 1.0, N)
    return {
        "erf": (rng.uniform(-5, 5, N),),
        "gammaln": (rng.uniform(0.1, 100, N),),
        "digamma": (rng.uniform(0.1, 100, N),),
        "i0e": (rng.uniform(-50, 50, N),),
        "ndtri": (np.clip(u, 1e-12, 1 - 1e-12),),
        "log_ndtr": (rng.uniform(-30, 10, N),),
        "expit": (rng.uniform(-30, 30, N),),
        "xlogy": (rng.uniform(0, 10, N), rng.uniform(0.01, 10, N)),
    }


_TORCH_NAMES = {"erf": "erf", "gammaln": "gammaln", "digamma": "digamma", "i0e": "i0e",
                "ndtri": "ndtri", "log_ndtr": "log_ndtr", "expit": "expit", "xlogy": "xlogy"}


def rows():
    import scipy.special as ss

    import linalgx.special as ls

    try:
        import torch
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    out = []
    for name, args in _inputs(rng).items():
        peers = {"scipy": functools.partial(getattr(ss, name), *args)}
        if torch is not None:
            targs = tuple(torch.from_numpy(a) for a in args)
            peers["torch"] = functools.partial(getattr(torch.special, _TORCH_NAMES[name]),
                                               *targs)
        out.append((f"{name} float64 n=1e7", functools.partial(getattr(ls, name), *args),
                    peers))
    return out


def _median(fn, repeat=5):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main():
    print(f"{'row':<26} {'linalgx':>10} " + " ".join(f"{p:>10}" for p in ("scipy", "torch"))
          + "  ratios (peer/linalgx)")
    for name, ours, peers in rows():
        t = _median(ours)
        pt = {p: _median(f) for p, f in peers.items()}
        cells = " ".join(f"{pt[p] * 1e3:>8.1f}ms" if p in pt else f"{'-':>10}"
                         for p in ("scipy", "torch"))
        ratios = ", ".join(f"{p} {v / t:.2f}x" for p, v in pt.items())
        print(f"{name:<26} {t * 1e3:>8.1f}ms {cells}  {ratios}")


if __name__ == "__main__":
    main()
