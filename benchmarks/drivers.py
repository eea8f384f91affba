"""Large single matrices: NumPy's LAPACK drivers against SciPy's, per op.

NumPy and SciPy ship different OpenBLAS builds and, for some ops, call different LAPACK
drivers (``inv``: NumPy solves ``A X = I`` with gesv, SciPy factors and inverts with
getrf + getri; ``eigh``: NumPy calls syevd, SciPy defaults to syevr). ``measure()`` times
each candidate on one float64 ``n x n`` matrix, interleaved, and ``choose()`` keeps a SciPy
driver only where it beats NumPy's by a margin at every measured n; ``make tune`` writes
the choice into the routing table (``DRIVERS``), which the lapack backend follows for
``n >= DRIVER_MIN_N``.

``python -m benchmarks.drivers [--n 1000 3000] [--repeats 5]`` prints the table.
"""
import argparse
import statistics
import time

import numpy as np

__all__ = ["CANDIDATES", "measure", "choose", "show"]

# The smallest n the table's choices apply to (below, per-call overhead decides and the
# measurements at 1000 and 3000 say nothing).
DRIVER_MIN_N = 512


def _inputs(n, rng):
    a = rng.standard_normal((n, n))
    spd = a @ a.T + n * np.eye(n)
    return a, spd, rng.standard_normal((n, 1))


def candidates(n, rng):
    """``{op: {driver name: zero-argument callable}}``; "numpy" is the current engine."""
    from numpy.linalg import _umath_linalg as um
    from scipy.linalg import lapack as sl

    a, spd, b = _inputs(n, rng)
    return {
        "solve": {"numpy": lambda: um.solve(a, b, signature="dd->d"),
                  "scipy_gesv": lambda: sl.dgesv(a, b)},
        "inv": {"numpy": lambda: um.inv(a, signature="d->d"),
                "scipy_getri": lambda: sl.dgetri(*sl.dgetrf(a)[:2])},
        # as linalgx calls them: on a.T, which is Fortran-ordered (det(a.T) = det(a); the
        # upper factor of a.T is the transpose of a's lower one)
        "det": {"numpy": lambda: um.det(a / 4, signature="d->d"),
                "scipy_getrf": lambda: sl.dgetrf((a / 4).T)},
        "cholesky": {"numpy": lambda: um.cholesky_lo(spd, signature="d->d"),
                     "scipy_potrf": lambda: sl.dpotrf(spd.T, lower=0, clean=1)[0].T},
        "qr": {"numpy": lambda: np.linalg.qr(a),
               "scipy_geqrf": lambda: sl.dorgqr(*sl.dgeqrf(a)[:2])},
        "eigh": {"numpy": lambda: um.eigh_lo(spd, signature="d->dd"),
                 "scipy_syevd": lambda: sl.dsyevd(spd, compute_v=1, lower=1),
                 "scipy_syevr": lambda: sl.dsyevr(spd, compute_v=1, lower=1)},
        "eigvalsh": {"numpy": lambda: um.eigvalsh_lo(spd, signature="d->d"),
                     "scipy_syevd": lambda: sl.dsyevd(spd, compute_v=0, lower=1),
                     "scipy_syevr": lambda: sl.dsyevr(spd, compute_v=0, lower=1)},
        "svd": {"numpy": lambda: um.svd_f(a, signature="d->ddd"),
                "scipy_gesdd": lambda: sl.dgesdd(a, compute_uv=1, full_matrices=1)},
        "svdvals": {"numpy": lambda: um.svd(a, signature="d->d"),
                    "scipy_gesdd": lambda: sl.dgesdd(a, compute_uv=0)},
    }


CANDIDATES = tuple(candidates(2, np.random.default_rng(0)))


def measure(ns=(1000, 3000), repeats=5, ops=CANDIDATES, progress=None):
    """``{op: {n: {driver: median seconds}}}``, contenders interleaved per repeat."""
    rng = np.random.default_rng(0)
    out = {}
    for n in ns:
        table = candidates(n, rng)
        for op in ops:
            fns = table[op]
            for f in fns.values():
                f()  # first-call costs (workspace queries, page faults) are not timed
            samples = {k: [] for k in fns}
            names = list(fns)
            for r in range(repeats):
                for k in names[r % len(names):] + names[:r % len(names)]:
                    t = time.perf_counter()
                    fns[k]()
                    samples[k].append(time.perf_counter() - t)
            out.setdefault(op, {})[n] = {k: statistics.median(v) for k, v in samples.items()}
            if progress:
                progress(op, n, out[op][n])
    return out


def choose(results, margin=0.95):
    """``{op: driver}`` for ops where one SciPy driver beat NumPy's by ``margin`` at every n."""
    chosen = {}
    for op, per_n in results.items():
        drivers = {d for row in per_n.values() for d in row if d != "numpy"}
        wins = [d for d in drivers
                if all(row[d] < margin * row["numpy"] for row in per_n.values())]
        if wins:
            chosen[op] = min(wins, key=lambda d: sum(row[d] for row in per_n.values()))
    return chosen


def show(op, n, row):
    base = row["numpy"]
    cells = "  ".join(f"{k} {v * 1e3:8.1f} ms ({v / base:.2f})" for k, v in row.items())
    print(f"{op:9s} n={n:5d}  {cells}", flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.drivers",
                                description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, nargs="+", default=[1000, 3000])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--ops", nargs="+", default=list(CANDIDATES), choices=CANDIDATES)
    args = p.parse_args(argv)
    results = measure(args.n, args.repeats, args.ops, show)
    print("chosen:", choose(results) or "NumPy's drivers everywhere")


if __name__ == "__main__":
    main()
