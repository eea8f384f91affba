"""Per-call overhead: linalgx against NumPy (or SciPy for the extras) on small inputs.

``rows(kinds, dtypes, names)`` yields ``(label, linalgx_callable, peer_name, peer_callable)``
for every public function of ``linalgx.linalg`` on a single 3x3, a single 50x50 and a stack
of 10 3x3 matrices. ``python -m benchmarks.overhead [--all-dtypes] [--dtype D] [--kind K]
[-k NAME] [--cpu-time]`` prints the best-of-N time per call of both and their ratio
(interleaved, so a noisy machine hurts both sides alike); the runner (``python -m
benchmarks``) shows the main functions (``MAIN``).
"""
import argparse
import functools
import time

import numpy as np

__all__ = ["rows", "MAIN", "best_pair", "fresh_process"]

# The functions the runner's per-call section shows.
MAIN = ("inv", "solve(vector)", "det", "slogdet", "cholesky", "eig", "eigh", "eigvalsh", "svd",
        "qr", "lstsq", "pinv", "matrix_rank", "norm")

KINDS = {"3x3": (None, 3), "50x50": (None, 50), "10x3x3": (10, 3)}
DTYPES = ["float64", "complex128", "float32"]


def _matrix(rng, batch, n, dtype):
    shape = (n, n) if batch is None else (batch, n, n)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a + np.sqrt(n) * np.eye(n)
    return a.astype(dtype)


def _spd(a):
    h = a @ np.conj(np.swapaxes(a, -1, -2))
    return (h + a.shape[-1] * np.eye(a.shape[-1])).astype(a.dtype)


def _calls(a, dtype, rng, L=None):
    """name -> (linalgx function, args, peer name, peer function, peer args); ``L``: the
    ``linalgx.linalg`` module to time (another build's, to compare two)."""
    import scipy.linalg as sla

    if L is None:
        import linalgx.linalg as L
    npl = np.linalg
    n = a.shape[-1]
    vec = rng.standard_normal(a.shape[:-1]).astype(dtype)
    b1 = rng.standard_normal(n).astype(dtype)
    bm = rng.standard_normal(a.shape[:-1] + (2,)).astype(dtype)
    spd = _spd(a)
    herm = (a + np.conj(np.swapaxes(a, -1, -2))).astype(dtype)
    tri = np.triu(a)
    v3 = rng.standard_normal(a.shape[:-2] + (3,)).astype(dtype)
    out = {
        "inv": (L.inv, (a,), "numpy", npl.inv, (a,)),
        "solve(vector)": (L.solve, (a, b1), "numpy", npl.solve, (a, b1)),
        "solve(matrix)": (L.solve, (a, bm), "numpy", npl.solve, (a, bm)),
        "det": (L.det, (a,), "numpy", npl.det, (a,)),
        "slogdet": (L.slogdet, (a,), "numpy", npl.slogdet, (a,)),
        "cholesky": (L.cholesky, (spd,), "numpy", npl.cholesky, (spd,)),
        "eig": (L.eig, (a,), "numpy", npl.eig, (a,)),
        "eigvals": (L.eigvals, (a,), "numpy", npl.eigvals, (a,)),
        "eigh": (L.eigh, (herm,), "numpy", npl.eigh, (herm,)),
        "eigvalsh": (L.eigvalsh, (herm,), "numpy", npl.eigvalsh, (herm,)),
        "svd": (L.svd, (a,), "numpy", npl.svd, (a,)),
        "svdvals": (L.svdvals, (a,), "numpy", npl.svdvals, (a,)),
        "qr": (L.qr, (a,), "numpy", npl.qr, (a,)),
        "pinv": (L.pinv, (a,), "numpy", npl.pinv, (a,)),
        "matrix_rank": (L.matrix_rank, (a,), "numpy", npl.matrix_rank, (a,)),
        "cond": (L.cond, (a,), "numpy", npl.cond, (a,)),
        "norm": (L.norm, (a,), "numpy", npl.norm, (a,)),
        "norm(ord=2)": (L.norm, (a, 2, (-2, -1)), "numpy", npl.norm, (a, 2, (-2, -1))),
        "matrix_norm": (L.matrix_norm, (a,), "numpy", npl.matrix_norm, (a,)),
        "vector_norm": (L.vector_norm, (vec,), "numpy", npl.vector_norm, (vec,)),
        "matrix_power(3)": (L.matrix_power, (a, 3), "numpy", npl.matrix_power, (a, 3)),
        "matmul": (L.matmul, (a, a), "numpy", npl.matmul, (a, a)),
        "trace": (L.trace, (a,), "numpy", npl.trace, (a,)),
        "diagonal": (L.diagonal, (a,), "numpy", npl.diagonal, (a,)),
        "matrix_transpose": (L.matrix_transpose, (a,), "numpy", npl.matrix_transpose, (a,)),
        "vecdot": (L.vecdot, (vec, vec), "numpy", npl.vecdot, (vec, vec)),
        "cross": (L.cross, (v3, v3), "numpy", npl.cross, (v3, v3)),
    }
    if a.ndim == 2:
        out.update({
            "lstsq": (L.lstsq, (a, b1), "numpy", npl.lstsq, (a, b1)),
            "multi_dot": (L.multi_dot, ([a, a, a],), "numpy", npl.multi_dot, ([a, a, a],)),
            "outer": (L.outer, (b1, b1), "numpy", npl.outer, (b1, b1)),
            "tensordot": (L.tensordot, (a, a), "numpy", npl.tensordot, (a, a)),
            "tensorinv": (L.tensorinv, (a, 1), "numpy", npl.tensorinv, (a, 1)),
            "tensorsolve": (L.tensorsolve, (a, b1), "numpy", npl.tensorsolve, (a, b1)),
            # extras: SciPy is the peer
            "lu": (L.lu, (a,), "scipy", sla.lu, (a,)),
            "lu_factor": (L.lu_factor, (a,), "scipy", sla.lu_factor, (a,)),
            "solve_triangular": (functools.partial(L.solve_triangular, upper=True),
                                 (tri, b1[:, None]), "scipy", sla.solve_triangular,
                                 (tri, b1[:, None])),
            "matrix_exp": (L.matrix_exp, (a,), "scipy", sla.expm, (a,)),
            "vander": (L.vander, (b1,), "numpy", np.vander, (b1,)),
        })
        lu_piv = sla.lu_factor(a)
        out["lu_solve"] = (L.lu_solve, (*L.lu_factor(a), b1[:, None]), "scipy",
                           sla.lu_solve, (lu_piv, b1[:, None]))
    out.update({
        "inv_ex": (L.inv_ex, (a,), "numpy inv", npl.inv, (a,)),
        "solve_ex(vector)": (L.solve_ex, (a, b1), "numpy solve", npl.solve, (a, b1)),
        "cholesky_ex": (L.cholesky_ex, (spd,), "numpy cholesky", npl.cholesky, (spd,)),
    })
    return out


def rows(kinds=("3x3", "50x50", "10x3x3"), dtypes=("float64",), names=None, seed=0,
         exact=False, L=None):
    """``names``: substrings of the function names to keep (``exact``: the names)."""
    for kind in kinds:
        batch, n = KINDS[kind]
        for dtype in dtypes:
            # inputs depend only on (seed, kind, dtype), not on which other rows were made
            rng = np.random.default_rng([seed, list(KINDS).index(kind), DTYPES.index(dtype)])
            a = _matrix(rng, batch, n, dtype)
            for name, (fx, ax, peer, fp, ap) in _calls(a, dtype, rng, L).items():
                if names and not (name in names if exact else any(k in name for k in names)):
                    continue
                yield (f"{name} {kind} {dtype}", lambda fx=fx, ax=ax: fx(*ax), peer,
                       lambda fp=fp, ap=ap: fp(*ap))


def best_pair(f, g, budget=0.2, rounds=7, clock=time.perf_counter):
    """Best-of-rounds seconds per call of ``f`` and ``g``, sampled alternately.

    ``clock=time.thread_time`` counts only this thread's CPU time: on a shared, loaded
    machine that removes most of the noise of being descheduled.
    """
    f()
    g()
    t = time.perf_counter()
    f()
    g()
    per = max(time.perf_counter() - t, 1e-7)
    number = max(1, int(budget / rounds / per / 2))
    best_f = best_g = float("inf")
    for _ in range(rounds):
        for fn, which in ((f, 0), (g, 1)):
            t = clock()
            for _ in range(number):
                fn()
            dt = (clock() - t) / number
            if which == 0:
                best_f = min(best_f, dt)
            else:
                best_g = min(best_g, dt)
    return best_f, best_g


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.overhead")
    p.add_argument("--dtype", action="append", help="float64 (default), complex128, float32")
    p.add_argument("--all-dtypes", action="store_true", help="float64, complex128 and float32")
    p.add_argument("--kind", action="append", choices=list(KINDS))
    p.add_argument("-k", action="append", dest="names", help="substring of the function name")
    p.add_argument("--budget", type=float, default=0.2, help="seconds per row")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--cpu-time", action="store_true",
                   help="time with this thread's CPU time (steadier on a loaded machine)")
    args = p.parse_args(argv)
    kinds = args.kind or list(KINDS)
    dtypes = DTYPES if args.all_dtypes else args.dtype or ["float64"]
    worst = []
    for label, fx, peer, fp in rows(kinds, dtypes, args.names):
        tx, tp = best_pair(fx, fp, args.budget, args.rounds,
                           time.thread_time if args.cpu_time else time.perf_counter)
        worst.append((tx / tp, label))
        print(f"{label:40s} linalgx {tx * 1e6:9.2f} us  {peer:15s} {tp * 1e6:9.2f} us "
              f"ratio {tx / tp:5.2f}", flush=True)
    worst.sort(reverse=True)
    print("worst:", ", ".join(f"{lbl} {r:.2f}" for r, lbl in worst[:8]))


if __name__ == "__main__":
    main()


_FRESH = {"linalgx": "import numpy as np; import linalgx.linalg as LA; LA.inv(np.eye(3))",
          "numpy": "import numpy as np; np.linalg.inv(np.eye(3))"}


def fresh_process():
    """``{name: callable}``: a new interpreter that imports NumPy (and linalgx) and inverts
    one 3x3 matrix, the cost a short script pays. Bytecode caching is on, as in an
    installed package (the first run writes linalgx's ``.pyc`` files)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(code):
        return lambda: subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return {name: run(code) for name, code in _FRESH.items()}
