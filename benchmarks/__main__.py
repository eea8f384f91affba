"""Side-by-side benchmark: linalgx (auto routing, forced numba, forced lapack) against NumPy,
SciPy and, when importable, PyTorch and JAX, in one process with interleaved repeats.

``python -m benchmarks [--quick] [--json FILE] [--md FILE]`` (``make bench``). Each cell is the
median time per call with the min-max spread; ratios are to the best peer (NumPy, SciPy,
torch, jax), below 1 means linalgx is faster. Stacked rows also show the memory-bandwidth
bound: the bytes the call must move (inputs read, outputs written) divided by the measured
copy bandwidth.
"""
import argparse
import contextlib
import datetime
import importlib
import json
import os
import pathlib
import sys

import numpy as np

from . import _timing as tm

OPS = ("det", "slogdet", "inv", "solve", "cholesky")
PEERS = ("numpy", "scipy", "torch", "jax")
LINALGX = ("linalgx", "linalgx[numba]", "linalgx[lapack]")


def _inputs(op, n, batch, rng):
    shape = (batch, n, n) if batch else (n, n)
    a = rng.standard_normal(shape) + np.sqrt(n) * np.eye(n)
    if op == "cholesky":
        a = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
    b = rng.standard_normal(shape[:-1] + (1,)) if op == "solve" else None
    return a, b


def _moved_bytes(op, a, b):
    """Bytes read and written by one call: the floor under any implementation."""
    n = a.shape[-1]
    count = a.size // (n * n)
    out = {"det": count * 8, "slogdet": count * 16, "inv": a.nbytes, "cholesky": a.nbytes,
           "solve": 0 if b is None else b.nbytes}[op]
    return a.nbytes + (0 if b is None else b.nbytes) + out


def _numpy_fn(op, a, b):
    f = getattr(np.linalg, op)
    return (lambda: f(a, b)) if op == "solve" else (lambda: f(a))


def _scipy_fn(op, a, b):
    import scipy.linalg as sla
    if op == "det":
        return lambda: sla.det(a, check_finite=False)
    if op == "inv":
        return lambda: sla.inv(a, check_finite=False)
    if op == "solve":
        return lambda: sla.solve(a, b, check_finite=False)
    if op == "cholesky":
        return lambda: sla.cholesky(a, lower=True, check_finite=False)
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
    return (lambda: f(ta, tb)) if op == "solve" else (lambda: f(ta))


def _jax_fn(op, a, b):
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
    import linalgx
    try:
        f = getattr(importlib.import_module("linalgx.linalg"), op)
    except AttributeError:
        return None  # not implemented yet: skip the row's linalgx cells

    def call():
        ctx = linalgx.backend(backend) if backend else contextlib.nullcontext()
        with ctx:
            return f(a, b) if op == "solve" else f(a)
    return call


def contenders(op, a, b):
    fns = {"numpy": _numpy_fn(op, a, b), "scipy": _scipy_fn(op, a, b),
           "torch": _torch_fn(op, a, b), "jax": _jax_fn(op, a, b),
           "linalgx": _linalgx_fn(op, a, b, None),
           "linalgx[numba]": _linalgx_fn(op, a, b, "numba"),
           "linalgx[lapack]": _linalgx_fn(op, a, b, "lapack")}
    return {k: v for k, v in fns.items() if v is not None}


def rows(quick):
    out = []
    for op in OPS:
        for n in (2, 3, 4, 8):
            for batch in (200_000, 1000, 10):
                out.append((op, n, batch))
    out += [("solve", 1000, 0), ("inv", 1000, 0)]
    return out


def run_row(op, n, batch, repeats, target, bandwidth, rng):
    a, b = _inputs(op, n, batch, rng)
    fns = contenders(op, a, b)
    counts, errors = {}, {}
    for name, fn in list(fns.items()):
        try:
            counts[name], _ = tm.inner_count(fn, target)
        except Exception as e:  # a contender that cannot run this row
            errors[name] = f"{type(e).__name__}: {e}"
            del fns[name]
    samples = {name: [] for name in fns}
    names = list(fns)
    for r in range(repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(tm.sample(fns[name], counts[name]))
    result = {"op": op, "n": n, "batch": batch,
              "times": {k: tm.summarize(v) for k, v in samples.items()}, "errors": errors}
    peers = [result["times"][p]["median"] for p in PEERS if p in result["times"]]
    best = min(peers) if peers else None
    result["best_peer"] = best
    result["ratios"] = {k: result["times"][k]["median"] / best
                        for k in LINALGX if k in result["times"] and best}
    result["bound"] = _moved_bytes(op, a, b) / bandwidth if batch else None
    return result


def _cell(t):
    if t is None:
        return "-"
    return f"{tm.fmt_time(t['median'])} ({tm.fmt_time(t['min'])}-{tm.fmt_time(t['max'])})"


def _ratio(ratios, key):
    return f"{ratios[key]:.2f}x" if key in ratios else "-"


def markdown(results, header):
    cols = [c for c in PEERS + LINALGX if any(c in r["times"] for r in results)]
    lines = header + ["", "| op | n | batch | " + " | ".join(cols)
                      + " | auto/best peer | numba/best peer | bandwidth bound |",
                      "|" + "---|" * (len(cols) + 6)]
    for r in results:
        cells = [r["op"], str(r["n"]), str(r["batch"] or "1 (single)")]
        cells += [_cell(r["times"].get(c)) for c in cols]
        cells += [_ratio(r["ratios"], "linalgx"), _ratio(r["ratios"], "linalgx[numba]"),
                  tm.fmt_time(r["bound"])]
        lines.append("| " + " | ".join(cells) + " |")
    errors = [(r, k, e) for r in results for k, e in r["errors"].items()]
    if errors:
        lines += ["", "Errors:"] + [f"- {r['op']} n={r['n']} batch={r['batch']} {k}: {e}"
                                    for r, k, e in errors]
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer repeats (about 2 minutes)")
    p.add_argument("--json", metavar="FILE", help="also write every sample as JSON")
    p.add_argument("--md", metavar="FILE", default="bench-results/latest.md",
                   help="markdown table (default: %(default)s)")
    args = p.parse_args(argv)
    tm.warn_env()
    repeats, target = (3, 0.002) if args.quick else (9, 0.02)
    bandwidth = tm.copy_bandwidth()
    blas = tm.blas_info()
    header = [f"# linalgx benchmark ({'quick' if args.quick else 'full'}), "
              f"{datetime.datetime.now().isoformat(timespec='seconds')}", "",
              f"- machine: {tm.machine()}", *(f"- BLAS: {line}" for line in blas),
              f"- numpy {np.__version__}; measured copy bandwidth {bandwidth / 1e9:.1f} GB/s",
              f"- {repeats} interleaved repeats, median (min-max) per call; float64; "
              "scipy with check_finite=False; solve with a (n, 1) right-hand side; "
              f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'PASSIVE')}, torch on 1 thread "
              "for stacked rows",
              "- ratios: linalgx median / best peer median (below 1: linalgx faster)"]
    todo = rows(args.quick)
    progress = todo
    if sys.stderr.isatty():
        try:
            from tqdm import tqdm
            progress = tqdm(todo, file=sys.stderr)
        except ImportError:
            pass
    rng = np.random.default_rng(0)
    results = [run_row(op, n, batch, repeats, target, bandwidth, rng)
               for op, n, batch in progress]
    text = markdown(results, header)
    print(text)
    path = pathlib.Path(args.md)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"header": header, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
