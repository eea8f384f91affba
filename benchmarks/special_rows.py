"""linalgx.special rows for the benchmark runner: 10 million float64 values per function,
against scipy.special and, when importable, torch.special (its own thread pool).

``rows()`` returns ``(name, linalgx_callable, {peer_name: peer_callable})`` tuples like
:mod:`benchmarks.fft_rows`. ``python -m benchmarks.special_rows [--repeat R] [names...]``
prints interleaved medians and ratios, with linalgx also forced to one thread.
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


def _one_thread(fn):
    # linalgx's loops run on the kernels' thread pool; limit(1) keeps a call serial
    def run():
        from linalgx.kernels import _parallel
        with _parallel.limit(1):
            fn()
    return run


def measure(repeat=7, names=None):
    """Interleaved medians per row: {row: {"linalgx", "linalgx 1 thread", peers...: s}}."""
    res = {}
    for name, ours, peers in rows():
        if names and name.split()[0] not in names:
            continue
        fns = {"linalgx": ours, "linalgx 1 thread": _one_thread(ours), **peers}
        times = {k: [] for k in fns}
        for f in fns.values():
            f()
        for _ in range(repeat):
            for k, f in fns.items():
                t0 = time.perf_counter()
                f()
                times[k].append(time.perf_counter() - t0)
        res[name] = {k: float(np.median(v)) for k, v in times.items()}
    return res


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(description="linalgx.special vs scipy.special / torch.special")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("names", nargs="*", help="rows to run (default: all)")
    a = p.parse_args(argv)
    cols = ("linalgx", "linalgx 1 thread", "scipy", "torch")
    print(f"| row | {' | '.join(cols)} | scipy/linalgx | torch/linalgx | "
          "scipy/linalgx (1 thread) |")
    print("|---" * (len(cols) + 4) + "|")
    for name, t in measure(a.repeat, a.names).items():
        cells = " | ".join(f"{t[c] * 1e3:.1f} ms" if c in t else "-" for c in cols)
        r = [f"{t[p] / t['linalgx']:.2f}x" if p in t else "-" for p in ("scipy", "torch")]
        r1 = f"{t['scipy'] / t['linalgx 1 thread']:.2f}x"
        print(f"| {name} | {cells} | {r[0]} | {r[1]} | {r1} |", flush=True)


if __name__ == "__main__":
    main()
