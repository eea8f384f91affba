"""``python -m linalgx`` (``make run``): configuration, the NumPy conformance suite for the
default backend, and a short side-by-side timing table against NumPy."""
import argparse
import sys
import time

import numpy as np


def _timeit(fn, repeat=7, number=None):
    fn()  # warm-up (numba compilation, caches)
    if number is None:
        t0 = time.perf_counter()
        fn()
        one = time.perf_counter() - t0
        number = max(1, int(0.05 / max(one, 1e-7)))
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return float(np.median(times))


def timing_table():
    import linalgx
    import linalgx.linalg as LA
    rng = np.random.default_rng(0)
    stack = rng.standard_normal((200_000, 3, 3)) + 3 * np.eye(3)
    rhs = rng.standard_normal((200_000, 3, 1))
    big = rng.standard_normal((1000, 1000)) + 30 * np.eye(1000)
    bigb = rng.standard_normal((1000, 1))
    npl = np.linalg
    # A long session has numba loaded; load it once here so the auto routing is the warm one
    # (a single cold call in a fresh script stays on LAPACK, see linalgx._core.routing).
    with linalgx.backend("numba"):
        LA.inv(stack[:2]), LA.det(stack[:2]), LA.solve(stack[:2], rhs[:2])
    rows = [
        ("inv, 200000 x (3,3)", lambda: LA.inv(stack), lambda: npl.inv(stack)),
        ("det, 200000 x (3,3)", lambda: LA.det(stack), lambda: npl.det(stack)),
        ("solve, 200000 x (3,3),(3,1)", lambda: LA.solve(stack, rhs),
         lambda: npl.solve(stack, rhs)),
        ("solve, (1000,1000),(1000,1)", lambda: LA.solve(big, bigb),
         lambda: npl.solve(big, bigb)),
    ]
    head = ("call (auto routing, warm)", "linalgx", "numpy", "numpy/linalgx")
    print(f"\n{head[0]:<32} {head[1]:>12} {head[2]:>12} {head[3]:>14}")
    for name, ours, theirs in rows:
        t_ours, t_np = _timeit(ours), _timeit(theirs)
        print(f"{name:<32} {t_ours * 1e3:>10.2f}ms {t_np * 1e3:>10.2f}ms {t_np / t_ours:>13.1f}x")
    print("(medians of 7 repeats; `make bench` runs the full side-by-side suite)")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m linalgx", description=__doc__)
    parser.add_argument("--skip-conformance", action="store_true")
    args = parser.parse_args(argv)
    import linalgx
    linalgx.show_config()
    status = 0
    if not args.skip_conformance:
        from linalgx.conformance.__main__ import main as conformance_main
        print()
        status = conformance_main(["--suite", "all"])
    timing_table()
    return status


if __name__ == "__main__":
    sys.exit(main())
