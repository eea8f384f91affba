"""Side-by-side benchmark: linalgx (auto routing, forced numba, forced lapack) against NumPy,
SciPy and, when importable, PyTorch and JAX, in one process with interleaved repeats.

``python -m benchmarks [--quick] [--only REGEX] [--json FILE] [--md FILE]`` (``make bench``).
Each cell is the median time per call with the min-max spread; ratios are to the best peer
(NumPy, SciPy, torch, jax), below 1 means linalgx is faster. Stacked rows also show the
memory-bandwidth bound: the bytes the call must move (inputs read, outputs written) divided
by the measured copy bandwidth. Two more sections follow the linear-algebra table: FFTs
against numpy.fft, scipy.fft (workers=2) and pyFFTW when importable (benchmarks/fft_rows.py),
and the per-call overhead of the main functions on a single 3x3 and 50x50 matrix
(benchmarks/overhead.py).
"""
import argparse
import datetime
import functools
import importlib
import json
import os
import pathlib
import re
import sys
import time

import numpy as np

from . import _sections
from . import _timing as tm

OPS = ("det", "slogdet", "inv", "solve", "cholesky")
# ops with numba kernels: the forced-backend columns apply
NUMBA_OPS = frozenset(OPS + ("eigh", "eigvalsh", "svd", "lu_factor", "lu_solve",
                             "solve_triangular", "qr", "ldl_factor", "ldl_solve",
                             "matrix_exp"))
# Stacked decompositions. SciPy is not a peer here: its batch support loops over the
# matrices in Python. svd at a smaller batch, to keep the run short.
EXTRA_ROWS = tuple((op, n, 200_000, dtype) for op in ("eigh", "eigvalsh") for n in (2, 3, 4)
                   for dtype in ("float64", "complex128") if dtype == "float64" or n > 2) + (
    ("svd", 2, 20_000, "float64"), ("svd", 3, 20_000, "float64"),
    ("svd", 3, 20_000, "complex128"))
# torch.linalg's LU and triangular solves (NumPy has none; SciPy's batch support loops over
# the matrices).
LU_ROWS = tuple((op, n, batch, "float64") for op in ("lu_factor", "lu_solve", "solve_triangular")
                for n, batch in ((4, 20_000), (16, 2_000)))
# Stacked Householder QR (Q and R, mode='reduced'): NumPy loops over the stack in its gufunc.
QR_ROWS = (("qr", 4, 20_000, "float64"), ("qr", 4, 20_000, "complex128"),
           ("qr", 16, 2_000, "float64"))
# torch.linalg's Bunch-Kaufman LDL (NumPy has none; SciPy's ldl is per matrix, another form).
LDL_ROWS = tuple((op, n, batch, "float64") for op in ("ldl_factor", "ldl_solve")
                 for n, batch in ((4, 20_000), (16, 2_000)))
# torch.linalg.matrix_exp (NumPy has none; SciPy's expm loops over a stack in Python).
EXPM_ROWS = (("matrix_exp", 3, 20_000, "float64"), ("matrix_exp", 8, 2_000, "float64"),
             ("matrix_exp", 3, 20_000, "complex128"))
# One large matrix: LAPACK territory, each op on the faster of NumPy's and SciPy's drivers.
SINGLE_OPS = ("solve", "inv", "det", "cholesky", "qr", "eigh", "eigvalsh", "svd")
# Mid-sized stacks (issue 6): LAPACK territory, where linalgx must still beat NumPy.
MID_ROWS = tuple((op, n, batch) for n, batch in ((16, 20_000), (64, 2_000))
                 for op in ("solve", "inv", "eigh", "svd"))
PEERS = ("numpy", "scipy", "torch", "jax")
LINALGX = ("linalgx", "linalgx[numba]", "linalgx[lapack]")


def _inputs(op, n, batch, rng, dtype="float64"):
    shape = (batch, n, n) if batch else (n, n)
    a = rng.standard_normal(shape) + np.sqrt(n) * np.eye(n)
    if dtype == "complex128":
        a = a + 1j * rng.standard_normal(shape)
    a_h = np.conj(np.swapaxes(a, -1, -2))
    if op == "cholesky":
        a = a @ a_h + n * np.eye(n)
    if op in ("eigh", "eigvalsh", "ldl_factor", "ldl_solve"):
        a = a + a_h
    if op == "solve_triangular":
        a = np.triu(a)
    b = None
    if op in ("solve", "lu_solve", "solve_triangular", "ldl_solve"):
        b = rng.standard_normal(shape[:-1] + (1,)).astype(a.dtype)
    return a, b


def _moved_bytes(op, a, b):
    """Bytes read and written by one call: the floor under any implementation."""
    n = a.shape[-1]
    count = a.size // (n * n)
    item = a.itemsize
    out = {"det": count * item, "slogdet": count * (item + 8), "inv": a.nbytes,
           "cholesky": a.nbytes, "solve": 0 if b is None else b.nbytes,
           "eigh": a.nbytes + count * n * 8, "eigvalsh": count * n * 8,
           "svd": 2 * a.nbytes + count * n * 8, "qr": 2 * a.nbytes,
           "lu_factor": a.nbytes + count * n * 4,
           "lu_solve": count * n * 4 + (0 if b is None else b.nbytes),
           "ldl_factor": a.nbytes + count * n * 4,
           "ldl_solve": count * n * 4 + (0 if b is None else b.nbytes),
           "matrix_exp": a.nbytes,
           "solve_triangular": 0 if b is None else b.nbytes}[op]
    return a.nbytes + (0 if b is None else b.nbytes) + out


def _numpy_fn(op, a, b):
    f = getattr(np.linalg, op, None)
    if f is None:  # torch's extras
        return None
    return (lambda: f(a, b)) if op == "solve" else (lambda: f(a))


def _scipy_fn(op, a, b):
    import scipy.linalg as sla
    if op == "det":
        return lambda: sla.det(a, check_finite=False)
    if op == "inv":
        return lambda: sla.inv(a, check_finite=False)
    if op == "solve":
        return lambda: sla.solve(a, b, check_finite=False)
    if op == "lu_factor":
        return lambda: sla.lu_factor(a, check_finite=False)
    if op == "lu_solve":
        lu = sla.lu_factor(a, check_finite=False)
        return lambda: sla.lu_solve(lu, b, check_finite=False)
    if op == "solve_triangular":
        return lambda: sla.solve_triangular(a, b, check_finite=False)
    if a.ndim > 2:
        # cholesky and the decompositions below loop over a stack in Python
        # (scipy.linalg._apply_over_batch: 200,000 3x3 choleskys take ~2.8 s, 75x NumPy)
        return None
    if op == "cholesky":
        return lambda: sla.cholesky(a, lower=True, check_finite=False)
    if op == "qr":
        return lambda: sla.qr(a, check_finite=False)
    if op == "eigh":
        return lambda: sla.eigh(a, check_finite=False)
    if op == "eigvalsh":
        return lambda: sla.eigvalsh(a, check_finite=False)
    if op == "svd":
        return lambda: sla.svd(a, check_finite=False)
    return None


def _torch_fn(op, a, b):
    # torch's OpenMP workers busy-wait after each call and would steal the CPUs of the next
    # contender in the interleaved order; passive waiting keeps the comparison fair.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import torch
    except ImportError:
        return None
    # One thread for stacks of small matrices: torch's intra-op pool otherwise keeps the CPUs
    # of this small machine busy and slows every contender after it (measured 1.5x).
    torch.set_num_threads(1 if a.ndim == 3 else os.cpu_count())
    ta = torch.from_numpy(a)
    tb = None if b is None else torch.from_numpy(b)
    f = getattr(torch.linalg, op)
    if op == "lu_solve":
        lu, piv = torch.linalg.lu_factor(ta)
        return lambda: f(lu, piv, tb)
    if op == "ldl_solve":
        ld, piv = torch.linalg.ldl_factor(ta)
        return lambda: f(ld, piv, tb)
    if op == "solve_triangular":
        return lambda: f(ta, tb, upper=True)
    return (lambda: f(ta, tb)) if op == "solve" else (lambda: f(ta))


def _jax_fn(op, a, b):
    if op in ("lu_factor", "lu_solve", "solve_triangular", "ldl_factor", "ldl_solve",
              "matrix_exp"):
        return None  # jnp.linalg has none of them
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    ja = jnp.asarray(a)
    jb = None if b is None else jnp.asarray(b)
    f = jax.jit(getattr(jnp.linalg, op))

    def call():
        return jax.block_until_ready(f(ja, jb) if op == "solve" else f(ja))
    return call


def _linalgx_fn(op, a, b, backend):
    if backend and op not in NUMBA_OPS:
        return None  # only the lapack backend: the auto column says it all
    L = importlib.import_module("linalgx.linalg")
    try:
        f = getattr(L, op)
    except AttributeError:
        return None  # not implemented yet: skip the row's linalgx cells
    args = (a, b) if op == "solve" else (a,)
    if op == "lu_solve":
        args = (*L.lu_factor(a), b)
    elif op == "ldl_solve":
        args = (*L.ldl_factor(a), b)
    elif op == "solve_triangular":
        f = functools.partial(f, upper=True)
        args = (a, b)
    if not backend:
        def call():
            return f(*args)
        return call
    # What `with linalgx.backend(name):` does, without the generator-based context manager
    # (about 1 us, which the timing would charge to the small rows' linalgx cells).
    from linalgx._core.dispatch import _explicit

    def call_on_backend():
        token = _explicit.set(backend)
        try:
            return f(*args)
        finally:
            _explicit.reset(token)
    return call_on_backend


# From this order on a single matrix is timed against the references only (NumPy and
# SciPy) and linalgx as it routes (no forced backends: numba is never used there): one svd of
# a 3000x3000 matrix takes ~9 s here, and the full contender list made the row take minutes.
LARGE_N = 2000
LARGE_REPEATS = 3
# Seconds of sleep before each sample of a single large matrix (tm.interleaved): without it,
# the BLAS threads one library left spinning slowed the next contender's LAPACK call (a
# 1000x1000 getrf by 40% right after another OpenBLAS build's threaded call).
SETTLE = 0.25
# --quick times a peer once where its first call took this many times the fastest peer's
# (SciPy's stacked inv: 0.85-1.2 s against NumPy's 0.1-0.3 s; tm.interleaved), in every section
QUICK_SLOW = 8


def contenders(op, a, b, quick=False):
    """The row's callables; ``quick`` leaves out the forced-backend columns (diagnostics:
    the automatic column is what the goals are about)."""
    if a.ndim == 2 and a.shape[-1] >= LARGE_N:
        fns = {"numpy": _numpy_fn(op, a, b), "scipy": _scipy_fn(op, a, b),
               "linalgx": _linalgx_fn(op, a, b, None)}
    else:
        fns = {"numpy": _numpy_fn(op, a, b), "scipy": _scipy_fn(op, a, b),
               "torch": _torch_fn(op, a, b), "jax": _jax_fn(op, a, b),
               "linalgx": _linalgx_fn(op, a, b, None),
               "linalgx[numba]": _linalgx_fn(op, a, b, "numba"),
               "linalgx[lapack]": _linalgx_fn(op, a, b, "lapack")}
        if quick:
            del fns["linalgx[numba]"], fns["linalgx[lapack]"]
    return {k: v for k, v in fns.items() if v is not None}


def rows(quick):
    """``(op, n, batch, dtype)`` for every row of the linear-algebra table (``quick``: no
    8x8 stacks of 200,000, which the goals do not name and which cost a sixth of the run)."""
    out = []
    for op in OPS:
        for n in (2, 3, 4, 8):
            for batch in (200_000, 1000, 10):
                if not (quick and n == 8 and batch == 200_000):
                    out.append((op, n, batch, "float64"))
        out += [(op, n, 200_000, "complex128") for n in (3, 4)]
    out += [(op, n, 0, "float64") for n in ((1000,) if quick else (1000, 3000))
            for op in SINGLE_OPS]
    return out + list(EXTRA_ROWS) + list(LU_ROWS) + list(QR_ROWS) + list(LDL_ROWS) \
        + list(EXPM_ROWS) + [
        r + ("float64",) for r in MID_ROWS]


def _label(op, n, batch, dtype):
    return f"{op} n={n} batch={batch} {dtype}"


def run_row(op, n, batch, repeats, target, bandwidth, rng, dtype="float64", quick=False):
    start = time.perf_counter()
    a, b = _inputs(op, n, batch, rng, dtype)
    if not batch and n >= LARGE_N:
        repeats = min(repeats, LARGE_REPEATS)
    times, errors = tm.interleaved(contenders(op, a, b, quick), repeats, target,
                                   QUICK_SLOW if quick else None,
                                   settle=0.0 if batch else SETTLE)
    result = {"op": op, "n": n, "batch": batch, "dtype": dtype, "times": times,
              "errors": errors}
    peers = [result["times"][p]["median"] for p in PEERS if p in result["times"]]
    best = min(peers) if peers else None
    result["best_peer"] = best
    result["ratios"] = {k: result["times"][k]["median"] / best
                        for k in LINALGX if k in result["times"] and best}
    result["bound"] = _moved_bytes(op, a, b) / bandwidth if batch else None
    result["wall_s"] = time.perf_counter() - start  # what the row costs the run
    return result


def _cell(t):
    if t is None:
        return "-"
    return f"{tm.fmt_time(t['median'])} ({tm.fmt_time(t['min'])}-{tm.fmt_time(t['max'])})"


def _ratio(ratios, key):
    return f"{ratios[key]:.2f}x" if key in ratios else "-"


def markdown(results, header):
    cols = [c for c in PEERS + LINALGX if any(c in r["times"] for r in results)]
    lines = header + ["", "| op | n | batch | dtype | " + " | ".join(cols)
                      + " | auto/best peer | numba/best peer | bandwidth bound |",
                      "|" + "---|" * (len(cols) + 7)]
    for r in results:
        cells = [r["op"], str(r["n"]), str(r["batch"] or "1 (single)"),
                 r.get("dtype", "float64")]
        cells += [_cell(r["times"].get(c)) for c in cols]
        cells += [_ratio(r["ratios"], "linalgx"), _ratio(r["ratios"], "linalgx[numba]"),
                  tm.fmt_time(r["bound"])]
        lines.append("| " + " | ".join(cells) + " |")
    errors = [(r, k, e) for r in results for k, e in r["errors"].items()]
    if errors:
        lines += ["", "Errors:"]
        lines += [f"- {_label(r['op'], r['n'], r['batch'], r.get('dtype', 'float64'))} {k}: {e}"
                  for r, k, e in errors]
    return "\n".join(lines) + "\n"


def _progress(todo):
    if sys.stderr.isatty():
        try:
            from tqdm import tqdm
            return tqdm(todo, file=sys.stderr)
        except ImportError:
            pass
    return todo


def _load():
    try:
        return "load average {:.2f}, {:.2f}, {:.2f} (1, 5, 15 min)".format(*os.getloadavg())
    except OSError:
        return "load average unknown"


SECTIONS = ("linalg", "fft", "special", "overhead")
# the FFT and special-function sections take ~40 s and are about other issues' goals
QUICK_SECTIONS = ("linalg", "overhead")


def _start_numba():
    """Load numba before timing, as in a process that has already done some stacked work.

    linalgx keeps calls on LAPACK until numba has paid for its start-up (routing.py:
    ``COLD_MIN_BATCH`` matrices, about a million here); without this the first rows would
    time that cold path (the forced-numba column used to do it as a side effect)."""
    import linalgx
    import linalgx.linalg as LA
    with linalgx.backend("numba"):
        LA.det(np.eye(3)[None])


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="a shorter run (~2.5 min here): no forced-backend columns, no 8x8 "
                        "stacks of 200,000, no n=3000 rows, far slower contenders timed once, "
                        "and only the linalg and overhead sections unless --sections says")
    p.add_argument("--json", metavar="FILE", help="also write every sample as JSON")
    p.add_argument("--md", metavar="FILE", default="bench-results/latest.md",
                   help="markdown table (default: %(default)s)")
    p.add_argument("--only", metavar="REGEX",
                   help="linear-algebra rows whose label ('inv n=3 batch=200000 complex128') "
                        "matches REGEX")
    p.add_argument("--sections",
                   help=f"comma-separated subset of {','.join(SECTIONS)} (default: all; with "
                        f"--quick: {','.join(QUICK_SECTIONS)})")
    args = p.parse_args(argv)
    sections = (args.sections.split(",") if args.sections
                else list(QUICK_SECTIONS if args.quick else SECTIONS))
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        p.error(f"unknown sections {sorted(unknown)}; expected some of {SECTIONS}")
    tm.warn_env()
    repeats, target = (3, 0.002) if args.quick else (9, 0.02)
    slow = QUICK_SLOW if args.quick else None
    bandwidth = tm.copy_bandwidth()
    blas = tm.blas_info()
    load_before = _load()
    header = [f"# linalgx benchmark ({'quick' if args.quick else 'full'}), "
              f"{datetime.datetime.now().isoformat(timespec='seconds')}", "",
              f"- machine: {tm.machine()}", *(f"- BLAS: {line}" for line in blas),
              f"- numpy {np.__version__}; measured copy bandwidth {bandwidth / 1e9:.1f} GB/s",
              f"- {repeats} interleaved repeats, median (min-max) per call; dtype column; "
              "scipy with check_finite=False; solve with a (n, 1) right-hand side; "
              f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'PASSIVE')}, torch on 1 thread "
              "for stacked rows; cholesky/eigh/svd stacks without SciPy (its batching loops in "
              "Python); numba started before the first row (benchmarks/__main__.py: "
              f"_start_numba); single matrices: {SETTLE} s of sleep before each sample, so "
              "that no library's spinning BLAS threads slow the next",
              "- ratios: linalgx median / best peer median (below 1: linalgx faster)",
              f"- at start: {load_before}"]
    rng = np.random.default_rng(0)
    out = {"header": header}
    text = ""
    section_start = time.perf_counter()
    out["section_seconds"] = {}

    def lap(name):
        nonlocal section_start
        now = time.perf_counter()
        out["section_seconds"][name] = round(now - section_start, 1)
        section_start = now

    if "linalg" in sections:
        _start_numba()
        todo = [r for r in rows(args.quick)
                if not args.only or re.search(args.only, _label(*r))]
        out["results"] = [run_row(op, n, batch, repeats, target, bandwidth, rng, dtype,
                                  args.quick)
                          for op, n, batch, dtype in _progress(todo)]
        text += markdown(out["results"], ["", "## Linear algebra"])
        lap("linalg")
    if "fft" in sections:
        out["fft"] = _sections.run_fft(repeats, target, _progress, slow)
        text += _sections.markdown("FFT", _sections.fft_note(), out["fft"])
        lap("fft")
    if "special" in sections:
        out["special"] = _sections.run_special(repeats, target, _progress, slow)
        text += _sections.markdown("Special functions", _sections.SPECIAL_NOTE, out["special"])
        lap("special")
    if "overhead" in sections:
        out["overhead"] = _sections.run_overhead(repeats, target, _progress)
        text += _sections.markdown("Per-call overhead", _sections.OVERHEAD_NOTE,
                                   out["overhead"], best_of=True)
        lap("overhead")
    header.append(f"- at end: {_load()}; seconds per section: {out['section_seconds']}")
    text = "\n".join(header) + "\n" + text
    print(text)
    path = pathlib.Path(args.md)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
