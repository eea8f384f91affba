"""Large single matrices: NumPy's LAPACK drivers against SciPy's, per op.

NumPy and SciPy ship different OpenBLAS builds and, for some ops, call different LAPACK
drivers (``eigh``: NumPy calls syevd, SciPy defaults to syevr). ``measure()`` times each
candidate on one float64 ``n x n`` matrix, interleaved, at each measured n, and
``choose()`` picks per n the SciPy driver that beat NumPy's by a margin (else NumPy's), as
size ranges: a choice holds from the measured n (the smallest one: from ``DRIVER_MIN_N``) up
to halfway (geometrically) to the next n that chose differently. ``make tune`` writes the
ranges into the routing table (``DRIVERS``), which the lapack backend follows for one
float64 / complex128 matrix of order ``DRIVER_MIN_N`` or more.

Every candidate is a driver the lapack backend can call (tests/linalg/test_drivers.py
forces each one). Measured on an earlier machine and left out for losing at n = 1000 and 3000
alike: qr through geqrf + orgqr (1.4-4x), solve through SciPy's gesv (1.2-1.3x) and svdvals
through SciPy's gesdd (1.1-1.9x). inv through getrf + getri lost there (1.7-2.3x NumPy's gesv
against the identity) and won on the next one (0.84 at n = 3000), so it stays a candidate.
Left out for accuracy: eigh through ?syevr (SciPy's default), whose MRRR eigenvectors were
orthogonal to 7e-13 at n = 1000 against 4e-15 from ?syevd (NumPy's); without vectors both
run the same QR iteration, so eigvalsh keeps it.

``python -m benchmarks.drivers [--n 1000 2000 3000] [--repeats 5]`` prints the table.
"""
import argparse
import math

import numpy as np

from . import _timing as tm

__all__ = ["CANDIDATES", "measure", "choose", "show"]

# The smallest n the table's choices apply to (below, per-call overhead decides and the
# measurements at 1000 and 3000 say nothing).
DRIVER_MIN_N = 512


def _inputs(n, rng):
    a = rng.standard_normal((n, n))
    return a, a @ a.T + n * np.eye(n)


def candidates(n, rng):
    """``{op: {driver name: zero-argument callable}}``; "numpy" is the current engine."""
    from numpy.linalg import _umath_linalg as um
    from scipy.linalg import lapack as sl

    a, spd = _inputs(n, rng)
    c_order = np.ascontiguousarray
    from linalgx.linalg._eig import _eigh_scipy
    from linalgx.linalg._inv import inv_getri

    return {
        "inv": {"numpy": lambda: um.inv(a, signature="d->d"),
                "scipy_getri": lambda: inv_getri(a)},  # linalgx's own call
        # as linalgx calls them: on a.T, which is Fortran-ordered (det(a.T) = det(a); the
        # upper factor of a.T is the transpose of a's lower one)
        "det": {"numpy": lambda: um.det(a / 4, signature="d->d"),
                "scipy_getrf": lambda: sl.dgetrf((a / 4).T)},
        "cholesky": {"numpy": lambda: um.cholesky_lo(spd, signature="d->d"),
                     "scipy_potrf": lambda: sl.dpotrf(spd.T, lower=0, clean=1)[0].T},
        # linalgx's own calls (LAPACK's optimal workspace; vectors in NumPy's C order)
        "eigh": {"numpy": lambda: um.eigh_lo(spd, signature="d->dd"),
                 "scipy_syevd": lambda: _eigh_scipy(spd, False, "scipy_syevd", True, "eigh")},
        "eigvalsh": {"numpy": lambda: um.eigvalsh_lo(spd, signature="d->d"),
                     "scipy_syevd": lambda: _eigh_scipy(spd, False, "scipy_syevd", False,
                                                        "eigvalsh"),
                     "scipy_syevr": lambda: _eigh_scipy(spd, False, "scipy_syevr", False,
                                                        "eigvalsh")},
        "svd": {"numpy": lambda: um.svd_f(a, signature="d->ddd"),
                "scipy_gesdd": lambda: [c_order(x) for x in
                                        sl.dgesdd(a, compute_uv=1, full_matrices=1)[::2]]},
    }


CANDIDATES = tuple(candidates(2, np.random.default_rng(0)))


def measure(ns=(1000, 2000, 3000), repeats=5, ops=CANDIDATES, progress=None):
    """``{op: {n: {driver: fastest sample, seconds}}}``, contenders interleaved per repeat;
    ``repeats`` at the largest n, proportionally more at smaller ones (cheap, and noisier per
    call).

    The fastest sample, not the median: on a shared VM the noise is time taken away (steal
    time, a neighbour's memory traffic), never given, so each driver's fastest run is the
    steadiest estimate of its own cost. With medians, det at n = 1000 came out 0.90 of
    NumPy's in one ``make tune`` and 1.00 in the next on the same machine."""
    rng = np.random.default_rng(0)
    out = {}
    for n in ns:
        reps = max(repeats, round(repeats * max(ns) / n))
        table = candidates(n, rng)
        for op in ops:
            # target 0: one call a sample, after inner_count's untimed first call (workspace
            # queries, page faults)
            stats, errors = tm.interleaved(table[op], reps, target=0.0)
            if errors:
                raise RuntimeError(f"{op} n={n}: {errors}")
            out.setdefault(op, {})[n] = {k: st["min"] for k, st in stats.items()}
            if progress:
                progress(op, n, out[op][n])
    return out


def choose(results, margin=0.95):
    """``{op: ((min_n, driver), ...)}``: from each ``min_n`` on (up to the next entry) the
    driver to call, ``"numpy"`` for NumPy's own; ops where NumPy's won everywhere are absent.

    At each measured n the fastest SciPy driver is chosen if it beat NumPy's by ``margin``.
    Where none did, the choice of the next smaller n stands if it is still within the margin
    of NumPy's (a tie: either is as good, and on a shared machine the 5% is noise), else
    NumPy's. Between two measured sizes that chose differently the switch is at their
    geometric mean.
    """
    chosen = {}
    for op, per_n in results.items():
        steps, prev_n = [], None
        for n, row in sorted(per_n.items()):
            best = min((d for d in row if d != "numpy"), key=row.get, default=None)
            pick = "numpy"
            if best and row[best] < margin * row["numpy"]:
                pick = best
            elif steps and row.get(steps[-1][1], math.inf) * margin < row["numpy"]:
                pick = steps[-1][1]
            if prev_n is None:
                steps.append((DRIVER_MIN_N, pick))
            elif pick != steps[-1][1]:
                steps.append((round(math.sqrt(n * prev_n)), pick))
            prev_n = n
        if any(d != "numpy" for _, d in steps):
            chosen[op] = tuple(steps)
    return chosen


def show(op, n, row):
    base = row["numpy"]
    cells = "  ".join(f"{k} {v * 1e3:8.1f} ms ({v / base:.2f})" for k, v in row.items())
    print(f"{op:9s} n={n:5d}  {cells}", flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.drivers",
                                description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, nargs="+", default=[1000, 2000, 3000])
    p.add_argument("--repeats", type=int, default=5, help="at the largest n")
    p.add_argument("--ops", nargs="+", default=list(CANDIDATES), choices=CANDIDATES)
    args = p.parse_args(argv)
    results = measure(args.n, args.repeats, args.ops, show)
    print("chosen:", choose(results) or "NumPy's drivers everywhere")


if __name__ == "__main__":
    main()
