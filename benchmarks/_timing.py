"""Timing and machine-description helpers shared by the runner and the tuner."""
import os
import platform
import statistics
import sys
import time

import numpy as np


def warn_env():
    """Warn on stderr about environment variables that change OpenBLAS's kernels."""
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if os.environ.get(name):
            print(f"warning: {name}={os.environ[name]} is set; OpenBLAS will not use the "
                  "kernel it would pick for this CPU (use `make bench` / `make tune`, which "
                  "unset it)", file=sys.stderr)


def blas_info():
    """One line per BLAS library: internal_api, version, architecture, threads. SciPy's is
    loaded first, so that its build (which serves SciPy's drivers and peers) is listed too."""
    import scipy.linalg  # noqa: F401
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return ["threadpoolctl not installed"]
    lines = []
    for info in threadpool_info():
        if info.get("user_api") != "blas":
            continue
        lines.append(f"{info.get('internal_api')} {info.get('version')} "
                     f"({info.get('architecture')}, {info.get('num_threads')} threads, "
                     f"{os.path.basename(info.get('filepath', ''))})")
    return lines or ["no BLAS found by threadpoolctl"]


def machine():
    return f"{platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs"


def inner_count(fn, target):
    """Calls per sample so that one sample takes about ``target`` seconds (at least 1)."""
    t = time.perf_counter()
    fn()
    dt = time.perf_counter() - t
    if target <= dt < 1.0:
        # a first call may load a numba kernel from its cache (about 10 ms): one call more
        # tells a slow op from a slow first call (the calls of a second or more are ops)
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
    if dt >= target:
        return 1, dt
    count = 1
    while True:
        t = time.perf_counter()
        for _ in range(count):
            fn()
        dt = time.perf_counter() - t
        if dt >= target / 4 or count >= 1 << 20:
            return max(1, int(count * target / max(dt, 1e-9))), dt / count
        count *= 4


def sample(fn, count):
    t = time.perf_counter()
    for _ in range(count):
        fn()
    return (time.perf_counter() - t) / count


def summarize(samples):
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples),
            "samples": list(samples)}


def copy_bandwidth(nbytes=128 << 20, repeats=7):
    """Measured memory-copy bandwidth in bytes/s (bytes read + bytes written per second)."""
    src = np.ones(nbytes // 8)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    best = []
    for _ in range(repeats):
        t = time.perf_counter()
        np.copyto(dst, src)
        best.append(time.perf_counter() - t)
    return 2 * nbytes / statistics.median(best)


def fmt_time(s):
    if s is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def interleaved(fns, repeats, target, slow=None, settle=0.0):
    """Time a dict of zero-argument callables interleaved, in a shuffled order each repeat (so
    that drift and a noisy neighbour hit every contender alike): ``({name: summary},
    {name: error text})``.

    A callable that raises while being calibrated is left out and its error reported. With
    ``slow``, a peer whose calibration call took over ``slow`` times the fastest peer's is
    timed in the first repeat only (``--quick``: a far slower peer cannot be the best one,
    and its repeats were most of the run's time); linalgx's callables (names starting with
    "linalgx") are never cut. The calibration call itself is never a sample: it may include
    a peer's compilation or first-touch costs. ``settle`` seconds of sleep precede each
    sample: the BLAS threads a contender leaves spinning (OpenBLAS spins about 0.1 s after a
    threaded call) then no longer compete with the next contender's, which belong to another
    library (NumPy, SciPy and torch each carry their own BLAS).
    """
    counts, errors, first = {}, {}, {}
    fns = dict(fns)
    for name, fn in list(fns.items()):
        try:
            counts[name], first[name] = inner_count(fn, target)
        except Exception as e:  # noqa: BLE001  (a contender that cannot run this row)
            errors[name] = f"{type(e).__name__}: {e}"
            del fns[name]
    once = set()
    peers = {name: dt for name, dt in first.items() if not name.startswith("linalgx")}
    if slow and peers:
        fastest = min(peers.values())
        once = {name for name, dt in peers.items() if dt > slow * fastest}
    samples = {name: [] for name in fns}
    names = list(fns)
    # A new order every repeat (seeded: the same orders every run). Rotating one fixed order
    # kept each contender behind the same predecessor, so whatever one left behind (BLAS
    # threads of another OpenBLAS build still spinning, a cold cache) hit the same contender
    # in every repeat: one run had linalgx's det of a 1000x1000 matrix at 6x NumPy's time
    # with the very same LAPACK call.
    order = np.random.default_rng(len(names) * 1000 + repeats)
    for r in range(repeats):
        for i in order.permutation(len(names)):
            if r == 0 or names[i] not in once:
                if settle:
                    time.sleep(settle)
                samples[names[i]].append(sample(fns[names[i]], counts[names[i]]))
    return {k: summarize(v) for k, v in samples.items()}, errors
