"""Routing tuner: time the numba kernels against NumPy's LAPACK gufuncs and write the table.

``python -m benchmarks.tune`` (``make tune``) measures, for each op in det, slogdet, inv,
solve (one right-hand side), cholesky, svd (full_matrices), svdvals, eigh and eigvalsh
(lower triangle), each n in 1..32 and a ladder of batch sizes, the median time per call of
the public function with the numba backend forced against the same with the lapack backend
forced, interleaved, on float64 stacks (``MIN_BATCH``, which routes real input) and on
complex128 stacks (``MIN_BATCH_COMPLEX``, complex input). ``MIN_BATCH[op][n]`` is the
smallest batch from which numba wins at every larger measured batch; n where numba never
wins is left out. ``COLD_MIN_BATCH`` is the number of matrices (summed over calls) whose
numba saving pays for numba's measured first-call start-up (a fresh interpreter importing
numba and loading the cached kernels). Then, for one large float64 matrix of each size in
1000, 2000 and 3000, it times NumPy's LAPACK driver against SciPy's (benchmarks/drivers.py)
and records, per op, the size ranges where a SciPy driver is faster (``DRIVERS``). The
result is written to ``linalgx/_core/_routing_table.py`` with the machine and date in a
comment (``--no-drivers``: the thresholds only; ``--drivers-only``: the drivers only;
``--kinds real`` or ``--kinds complex``: one of the two threshold tables, keeping the other
and the drivers as they are; ``--ops eigh,svd``: those ops' thresholds only, keeping the
rest of the table).
"""
import argparse
import datetime
import math
import pathlib
import re
import statistics
import subprocess
import sys
import time

import numpy as np

from . import _timing as tm

OPS = ("det", "slogdet", "inv", "solve", "cholesky", "svd", "svdvals", "eigh", "eigvalsh")
NS = tuple(range(1, 33))
BATCHES = (1, 2, 4, 8, 16, 32, 64, 256, 1024, 4096, 16384)
TABLE = pathlib.Path(__file__).resolve().parents[1] / "linalgx" / "_core" / "_routing_table.py"

_STARTUP = """
import time, numpy as np
t = time.perf_counter()
from linalgx.kernels import api
for f in (api.det, api.slogdet, api.inv, api.cholesky, api.eigh, api.svd):
    f(np.eye(3)[None])
api.solve(np.eye(3)[None], np.ones((1, 3, 1)))
print(time.perf_counter() - t)
"""


KINDS = {"real": ("MIN_BATCH", np.float64), "complex": ("MIN_BATCH_COMPLEX", np.complex128)}


def _normal(rng, shape, dtype):
    if np.dtype(dtype).kind == "c":
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return rng.standard_normal(shape)


def _calls(op, n, batch, rng, dtype=np.float64):
    """(numba, lapack): the public function on one stack of ``dtype`` with each backend
    forced, so that both sides pay the same validation and the difference is what routing
    decides."""
    import linalgx
    import linalgx.linalg as LA

    a = _normal(rng, (batch, n, n), dtype) + np.sqrt(n) * np.eye(n)
    a_h = np.conj(np.swapaxes(a, -1, -2))
    if op == "cholesky":
        a = a @ a_h + n * np.eye(n)
    elif op in ("eigh", "eigvalsh"):
        a = a + a_h
    b = _normal(rng, (batch, n, 1), dtype)
    fn = getattr(LA, op)
    args = (a, b) if op == "solve" else (a,)

    def on(backend):
        def call():
            with linalgx.backend(backend):
                return fn(*args)
        return call
    return on("numba"), on("lapack")


def _time_pair(numba, lapack, repeats, target):
    fns = (numba, lapack)
    counts = [tm.inner_count(f, target)[0] for f in fns]
    samples = ([], [])
    for r in range(repeats):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for i in order:
            samples[i].append(tm.sample(fns[i], counts[i]))
    return statistics.median(samples[0]), statistics.median(samples[1])


def measure(ops, ns, batches, repeats, target, budget, progress=None, dtype=np.float64):
    """{op: {n: {batch: (t_numba, t_lapack)}}} on stacks of ``dtype``, skipping batches
    that would take too long."""
    rng = np.random.default_rng(0)
    out = {}
    for op in ops:
        out[op] = {}
        for n in ns:
            row = out[op][n] = {}
            for batch in batches:
                numba, lapack = _calls(op, n, batch, rng, dtype)
                numba()  # compile or load the kernel before timing
                t0 = time.perf_counter()
                lapack()
                if (time.perf_counter() - t0) * repeats * 2 > budget:
                    break  # the crossover is at smaller batches; larger ones only cost time
                row[batch] = _time_pair(numba, lapack, repeats, target)
            if progress:
                progress(op, n, row)
    return out


def min_batches(results, margin=0.9, tie=0.95):
    """MIN_BATCH: the smallest batch from which numba is faster at every larger one.

    The run of batches, from the largest down, where numba was faster must hold at least
    the two largest measured batches (one, if only one was measured), so a single lucky
    sample does not route a size to numba; and its median time ratio must be below
    ``margin`` (timings on a shared machine are noisy). Judging the run by its median rather
    than each point by the margin keeps a size whose win is steady but modest at the
    largest measured batch (which grows at larger ones, where the kernels run threaded).
    Where the whole run's median is not below the margin (a tie at mid-size batches, a
    clear win only once the kernel runs threaded), the run is shortened from its small
    end until it is, so the size still goes to numba from where the win is clear; and its
    smallest batches go to numba only where they win by more than ``tie``.

    The smallest entry is 2: one matrix stays on LAPACK, with NumPy's bits, whatever the
    process ran before (the kernels' saving there is under a microsecond).
    """
    table = {}
    for op, per_n in results.items():
        for n, row in per_n.items():
            wins, ratios = [], []
            for batch in sorted(row, reverse=True):
                t_numba, t_lapack = row[batch]
                if t_numba >= t_lapack:
                    break
                wins.append(batch)
                ratios.append(t_numba / t_lapack)
            need = min(2, len(row))
            # a bare win at the run's small end is a tie (sub-microsecond differences at
            # small batches are noise): those batches stay on LAPACK, with NumPy's bits
            while len(wins) > need and ratios[-1] > tie:
                wins.pop()
                ratios.pop()
            # wins and ratios run from the largest batch down: try the longest run first
            for k in range(len(wins), need - 1, -1):
                if k and statistics.median(ratios[:k]) < margin:
                    table.setdefault(op, {})[n] = max(wins[k - 1], 2)
                    break
    return table


def startup_seconds(runs=3):
    """Median first-call cost of the kernels in a fresh interpreter (cache already warm)."""
    times = []
    for _ in range(runs + 1):
        out = subprocess.run([sys.executable, "-c", _STARTUP], capture_output=True, text=True,
                             check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times[1:])  # the first run may still be compiling


def cold_min_batch(results, table, startup):
    """The batch at which the median per-matrix saving of numba pays for its start-up."""
    savings = []
    for op, per_n in table.items():
        for n in per_n:
            row = results[op][n]
            batch = max(row)
            t_numba, t_lapack = row[batch]
            savings.append((t_lapack - t_numba) / batch)
    if not savings:
        return 1 << 62
    saving = statistics.median(savings)
    return int(2 ** math.ceil(math.log2(max(1.0, startup / max(saving, 1e-12)))))


# The first line of the driver section of the table (how --no-drivers and --drivers-only
# find the part they keep)
_DRIVER_HEAD = "# One matrix of n >= DRIVER_MIN_N: per op, the LAPACK driver measured fastest"


def render_drivers(drivers, driver_times):
    """The DRIVERS section of the table: the timings as comments, then the ranges."""
    lines = ["", _DRIVER_HEAD,
             "# from each min_n on, as (min_n, driver); 'numpy' and an absent op mean NumPy's",
             f"# (benchmarks/drivers.py; float64, date {datetime.date.today().isoformat()})."]
    for op, per_n in sorted(driver_times.items()):
        for n, row in sorted(per_n.items()):
            cells = ", ".join(f"{k} {t * 1e3:.1f} ms" for k, t in row.items())
            lines.append(f"# {op} n={n}: {cells}")
    lines += [f"DRIVER_MIN_N = {drivers_min_n()}", "DRIVERS = {"]
    lines += [f"    {op!r}: {steps!r}," for op, steps in sorted(drivers.items())]
    return lines + ["}"]


def _split_table(text):
    """``(head, driver section)`` of a table's text; the section is None if it has none."""
    start = text.find(_DRIVER_HEAD)
    if start < 0:
        return text.rstrip("\n"), None
    return text[:start].rstrip("\n"), text[start:].rstrip("\n")


def render(tables, tuned, cold, startup, seconds, drivers=None, driver_times=None):
    """The table module's text. ``tables``: ``{"MIN_BATCH": {op: {n: batch}},
    "MIN_BATCH_COMPLEX": ...}``; ``tuned``: the date each of them was measured."""
    lines = [
        '"""Measured numba-vs-LAPACK routing thresholds. GENERATED by `make tune`',
        "(benchmarks/tune.py): do not edit by hand.",
        "",
        f"Machine: {tm.machine()}.",
        *(f"BLAS: {line}." for line in tm.blas_info()),
        f"numpy {np.__version__}; date {datetime.date.today().isoformat()}; "
        f"tuning took {seconds:.0f} s.",
        f"numba first-call start-up measured at {startup:.3f} s (fresh interpreter, warm cache).",
        "MIN_BATCH[op][n] (measured on float64 stacks; it routes real input) and",
        "MIN_BATCH_COMPLEX[op][n] (complex128 stacks; complex input): smallest batch from which",
        "the numba kernel beat LAPACK at every larger measured batch; an n that is absent stays",
        "on LAPACK. TUNED: the date each of the two was measured (NAME[ops]: those ops only).",
        '"""',
        f"COLD_MIN_BATCH = {cold}",
        "TUNED = {",
        *(f"    {name!r}: {date!r}," for name, date in sorted(tuned.items())),
        "}",
    ]
    kept = None
    if drivers is None and TABLE.exists():  # --no-drivers: keep the last measured choice
        kept = _split_table(TABLE.read_text())[1]
    driver_lines = (["", *kept.splitlines()] if kept is not None
                    else render_drivers(drivers or {}, driver_times or {}))
    for name, _ in KINDS.values():
        table = tables.get(name, {})
        lines.append(f"{name} = {{")
        for op in OPS:
            if op in table:
                items = [f"{n}: {b}," for n, b in sorted(table[op].items())]
                lines.append(f'    "{op}": {{')
                for i in range(0, len(items), 8):
                    lines.append("        " + " ".join(items[i:i + 8]))
                lines.append("    },")
        lines.append("}")
    lines += driver_lines
    return "\n".join(lines) + "\n"


def current(path=TABLE):
    """The names defined by the table module at ``path`` ({} if there is none), with
    ``TUNED`` filled in from the header's date for a table written before it was recorded."""
    path = pathlib.Path(path)
    if not path.exists():
        return {}
    text = path.read_text()
    ns = {}
    exec(text, ns)  # noqa: S102  (the generated table is Python source)
    if "TUNED" not in ns:
        date = re.search(r"date (\d{4}-\d\d-\d\d)", text)
        ns["TUNED"] = {name: date.group(1) if date else "unknown"
                       for name, _ in KINDS.values() if name in ns}
    return ns


def with_drivers(old, drivers, driver_times):
    """``old`` table text with its driver section replaced (``--drivers-only``)."""
    head = _split_table(old)[0]
    return head + "\n" + "\n".join(render_drivers(drivers, driver_times)) + "\n"


def drivers_min_n():
    from .drivers import DRIVER_MIN_N
    return DRIVER_MIN_N


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.tune",
                                description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer sizes and repeats (a smoke run)")
    p.add_argument("--output", default=str(TABLE), help="table to write (default: %(default)s)")
    p.add_argument("--max-n", type=int, default=max(NS))
    p.add_argument("--no-drivers", action="store_true",
                   help="skip the large-matrix driver comparison (n = 1000, 2000, 3000) and "
                        "keep the table's current choice")
    p.add_argument("--drivers-only", action="store_true",
                   help="only the driver comparison; keep the table's numba thresholds")
    p.add_argument("--kinds", default="real,complex", choices=("real,complex", "real", "complex"),
                   help="which threshold tables to measure (float64 and/or complex128 stacks); "
                        "a table not measured is kept as it is, as are the drivers unless both "
                        "tables are measured")
    p.add_argument("--ops", default=",".join(OPS),
                   help="comma-separated ops to measure (default: all); the other ops' "
                        "thresholds, COLD_MIN_BATCH and the drivers are kept as they are")
    args = p.parse_args(argv)
    ops = tuple(args.ops.split(","))
    unknown = set(ops) - set(OPS)
    if unknown:
        p.error(f"unknown ops {sorted(unknown)}; choose from {', '.join(OPS)}")
    every_op = set(ops) == set(OPS)
    tm.warn_env()
    if args.drivers_only:
        from . import drivers as dr
        driver_times = dr.measure(progress=dr.show)
        text = with_drivers(pathlib.Path(args.output).read_text(), dr.choose(driver_times),
                            driver_times)
        pathlib.Path(args.output).write_text(text)
        print(text)
        return
    start = time.perf_counter()
    ns = tuple(n for n in NS if n <= args.max_n)
    repeats, target, budget = (3, 0.0005, 0.5) if args.quick else (5, 0.001, 1.0)
    old = current(args.output)
    tables = {name: old.get(name, {}) for name, _ in KINDS.values()}
    tuned = dict(old.get("TUNED", {}))
    startup = startup_seconds()
    cold = old.get("COLD_MIN_BATCH")
    for kind in args.kinds.split(","):
        name, dtype = KINDS[kind]

        def progress(op, n, row, kind=kind):
            wins = [b for b, (tn, tl) in row.items() if tn < tl]
            print(f"{kind:7s} {op:9s} n={n:2d} numba wins at batches {wins}", file=sys.stderr,
                  flush=True)

        results = measure(ops, ns, BATCHES, repeats, target, budget, progress, dtype)
        measured = min_batches(results)
        if every_op:
            tables[name] = measured
        else:  # the measured ops replace their entries (an op numba never won is dropped)
            tables[name] = {op: t for op, t in tables[name].items() if op not in ops}
            tables[name].update(measured)
        tuned[name if every_op else f"{name}[{','.join(ops)}]"] = \
            datetime.date.today().isoformat()
        if every_op and kind == "real" or cold is None:
            # the start-up is paid once for both kinds; the real stacks set the price
            cold = cold_min_batch(results, tables[name], startup)
    drivers = driver_times = None
    if not (args.quick or args.no_drivers or args.kinds != "real,complex" or not every_op):
        from . import drivers as dr
        driver_times = dr.measure(progress=dr.show)
        drivers = dr.choose(driver_times)
    text = render(tables, tuned, cold, startup, time.perf_counter() - start, drivers,
                  driver_times)
    pathlib.Path(args.output).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
