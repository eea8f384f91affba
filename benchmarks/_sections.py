"""The runner's sections after the linear-algebra table: FFTs and per-call overhead.

Both time their contenders interleaved (``_timing.interleaved``) and report medians, with
ratios ``linalgx / best peer`` (below 1: linalgx is faster).
"""
import importlib.util

from . import _timing as tm
from . import fft_rows, overhead, special_rows


def _ratio_row(name, times, errors, mine="linalgx"):
    peers = [t["median"] for k, t in times.items() if k != mine]
    best = min(peers) if peers else None
    ratio = times[mine]["median"] / best if best and mine in times else None
    fastest = [t["min"] for k, t in times.items() if k != mine]
    ratio_min = (times[mine]["min"] / min(fastest)) if fastest and mine in times else None
    return {"name": name, "times": times, "errors": errors, "best_peer": best, "ratio": ratio,
            "ratio_min": ratio_min}


def run_fft(repeats, target, progress=None, slow=None):
    """FFT rows: linalgx.fft against numpy.fft, scipy.fft(workers=2) and pyFFTW if present."""
    out = []
    todo = fft_rows.rows()
    for name, mine, peers in (progress(todo) if progress else todo):
        fns = {"linalgx": mine, **peers}
        times, errors = tm.interleaved(fns, repeats, target, slow)
        out.append(_ratio_row(name, times, errors))
    return out


def run_special(repeats, target, progress=None, slow=None):
    """linalgx.special on 1e7 float64 values against scipy.special and torch.special."""
    out = []
    todo = special_rows.rows()
    for name, mine, peers in (progress(todo) if progress else todo):
        times, errors = tm.interleaved({"linalgx": mine, **peers}, repeats, target, slow)
        out.append(_ratio_row(name, times, errors))
    return out


SPECIAL_NOTE = ("10 million float64 values per call; torch.special uses its own thread pool, "
                "linalgx its vectorised loops split over numba's thread count "
                "(kernels/special/fastpath.py).")


def run_overhead(repeats, target, progress=None):
    """Per-call time of the main functions on one 3x3 and one 50x50 float64 matrix.

    Microsecond calls are cheap to repeat and sensitive to a noisy neighbour (and to BLAS
    threads waking up), so this section takes at least 9 samples of 5 ms each and also
    reports the ratio of the fastest samples."""
    out = []
    repeats, target = max(repeats, 9), max(target, 0.005)
    todo = list(overhead.rows(kinds=("3x3", "50x50"), names=overhead.MAIN, exact=True))
    for label, mine, peer, theirs in (progress(todo) if progress else todo):
        times, errors = tm.interleaved({"linalgx": mine, peer: theirs}, repeats, target)
        out.append(_ratio_row(label, times, errors))
    times, errors = tm.interleaved(overhead.fresh_process(), repeats, target)
    out.append(_ratio_row("fresh process: import + one 3x3 inv", times, errors))
    return out


def _columns(results):
    cols = ["linalgx"]
    for r in results:
        cols += [k for k in r["times"] if k not in cols]
    return cols


def _x(ratio):
    return f"{ratio:.2f}x" if ratio is not None else "-"


def markdown(title, note, results, best_of=False):
    """One section: a row per case, a column per contender (median time per call), then the
    ratio of medians (and, with ``best_of``, of the fastest samples)."""
    cols = _columns(results)
    extra = " | best-of ratio" if best_of else ""
    lines = ["", f"## {title}", "", note, "",
             "| case | " + " | ".join(cols) + " | linalgx/best peer" + extra + " |",
             "|" + "---|" * (len(cols) + 2 + best_of)]
    for r in results:
        cells = [r["name"]] + [tm.fmt_time(r["times"][c]["median"]) if c in r["times"] else "-"
                               for c in cols]
        cells.append(_x(r["ratio"]))
        if best_of:
            cells.append(_x(r["ratio_min"]))
        lines.append("| " + " | ".join(cells) + " |")
    errors = [(r["name"], k, e) for r in results for k, e in r["errors"].items()]
    if errors:
        lines += ["", "Errors:"] + [f"- {n} {k}: {e}" for n, k, e in errors]
    return "\n".join(lines) + "\n"


def fft_note():
    has_fftw = importlib.util.find_spec("pyfftw") is not None
    return ("Median time per call. Peers: numpy.fft, scipy.fft with workers=2"
            + (", pyFFTW (numpy interface, 2 threads, plan cache on)." if has_fftw
               else "; pyFFTW is not installed."))


OVERHEAD_NOTE = ("Median time per call on one float64 matrix (3x3: Python overhead dominates; "
                 "50x50: LAPACK starts to), linalgx against numpy.linalg; solve with a "
                 "vector right-hand side, eigh/eigvalsh/cholesky on Hermitian (positive "
                 "definite) input. `python -m benchmarks.overhead --all-dtypes` profiles every "
                 "function on more shapes and dtypes. The last row times a whole new interpreter "
                 "that imports NumPy (and linalgx.linalg) and inverts one 3x3 matrix.")
