"""Pages the linalgx docs generate at build time, so they never go stale by hand.

- ``api/<module>.rst``: one autosummary listing per public module, built from the module's
  ``__all__`` (or its public names), so a new function appears without editing the docs.
  A module that does not import yet is skipped and named on the API index page.
- ``_generated/routing.inc``: the measured numba/LAPACK routing table.
- ``_generated/conformance.inc``: tables from the JSON files that
  ``python -m linalgx.conformance --json`` wrote into ``docs/_data/``.
- ``_generated/performance.md``: the newest markdown table under ``bench-results/``.

Everything written here is ignored by git (``docs/.gitignore``).
"""
import importlib
import inspect
import json
import pathlib
import shutil
import textwrap
import traceback

from sphinx.util import logging

logger = logging.getLogger(__name__)

DOCS = pathlib.Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"
API = DOCS / "api"

MODULES = ("linalgx", "linalgx.linalg", "linalgx.fft", "linalgx.special")

# Section titles for known names, in NumPy's documentation order; a name not listed here
# lands in the module's last section, so nothing is ever left out.
SECTIONS = {
    "linalgx": [
        ("Automatic differentiation",
         ["grad", "value_and_grad", "vjp", "jvp", "jacobian", "hessian", "gradcheck"]),
        ("Backends and configuration",
         ["backend", "get_backend", "show_config", "use_deterministic_algorithms",
          "are_deterministic_algorithms_enabled"]),
        ("Exceptions",
         ["LinAlgError", "SingularMatrixError", "NotPositiveDefiniteError",
          "ConvergenceError"]),
    ],
    "linalgx.linalg": [
        ("Matrix and vector products",
         ["dot", "vdot", "vecdot", "inner", "outer", "matmul", "tensordot", "multi_dot",
          "matrix_power", "cross", "kron", "matrix_transpose", "diagonal", "trace"]),
        ("Decompositions",
         ["cholesky", "cholesky_ex", "qr", "svd", "svdvals", "lu", "lu_factor", "lu_factor_ex",
          "ldl_factor", "ldl_factor_ex", "householder_product"]),
        ("Matrix eigenvalues", ["eig", "eigh", "eigvals", "eigvalsh"]),
        ("Norms and other numbers",
         ["norm", "matrix_norm", "vector_norm", "cond", "det", "matrix_rank", "slogdet"]),
        ("Solving equations and inverting matrices",
         ["solve", "solve_ex", "solve_triangular", "tensorsolve", "lstsq", "inv", "inv_ex",
          "pinv", "tensorinv", "lu_solve", "ldl_solve"]),
        ("Matrix functions and constructors", ["matrix_exp", "vander"]),
        ("Exceptions", ["LinAlgError"]),
    ],
    "linalgx.fft": [
        ("Standard FFTs", ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"]),
        ("Real FFTs", ["rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn"]),
        ("Hermitian FFTs", ["hfft", "ihfft"]),
        ("Helper routines", ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]),
    ],
}


def public_names(module):
    """``(name, object)`` for each public function or class of ``module``, in ``__all__``
    order; without ``__all__``, the public callables defined inside linalgx."""
    names = getattr(module, "__all__", None)
    explicit = names is not None
    if names is None:
        names = sorted(n for n in dir(module) if not n.startswith("_"))
    out = []
    for name in names:
        try:
            obj = getattr(module, name)
        except Exception:  # noqa: BLE001  (a lazily imported name that fails to import)
            logger.info(f"linalgx docs: {module.__name__}.{name} failed to import, skipped")
            continue
        if inspect.ismodule(obj) or not callable(obj):
            continue
        if not explicit and not getattr(obj, "__module__", "").startswith("linalgx"):
            continue
        out.append((name, obj))
    return out


def _sectioned(modname, names):
    sections = SECTIONS.get(modname, [])
    placed, out = set(), []
    for title, members in sections:
        present = [n for n in members if n in names]
        placed.update(present)
        if present:
            out.append((title, present))
    rest = [n for n in names if n not in placed]
    if rest:
        out.append(("Other functions" if sections else "Functions", rest))
    return out


def _underline(text, char):
    return f"{text}\n{char * len(text)}\n"


def write_api_pages():
    """One page per importable module; returns ``(module, reason)`` for the skipped ones."""
    API.mkdir(exist_ok=True)
    for old in API.glob("linalgx*.rst"):
        old.unlink()
    shutil.rmtree(API / "generated", ignore_errors=True)  # autosummary rewrites what is used
    skipped, counts = [], {}
    documented = set()  # one page per object (LinAlgError is in linalgx and linalgx.linalg)
    for modname in MODULES:
        try:
            module = importlib.import_module(modname)
        except Exception as exc:  # noqa: BLE001  (a module still being written)
            reason = traceback.format_exception_only(type(exc), exc)[-1].strip()
            skipped.append((modname, reason))
            logger.info(f"linalgx docs: {modname} does not import, skipped: {reason}")
            continue
        entries = [(n, obj) for n, obj in public_names(module) if id(obj) not in documented]
        documented.update(id(obj) for _, obj in entries)
        counts[modname] = len(entries)
        lines = [_underline(f"``{modname}``", "="),
                 f".. automodule:: {modname}\n   :no-members:\n",
                 f".. currentmodule:: {modname}\n"]
        if not entries:
            lines.append(".. note::\n\n   This module has no public functions in this build "
                         "yet.\n")
        for title, names in _sectioned(modname, [n for n, _ in entries]):
            lines.append(_underline(title, "-"))
            lines.append(".. autosummary::\n   :toctree: generated/\n   :nosignatures:\n")
            for n in names:
                lines.append(f"   {n}")
            lines.append("")
        (API / f"{modname}.rst").write_text("\n".join(lines) + "\n")
    status = [f"This build documents {sum(counts.values())} public functions and classes: "
              + ", ".join(f"``{m}`` ({n})" for m, n in counts.items()) + "."]
    status.append("\n.. toctree::\n   :maxdepth: 2\n\n"
                  + "".join(f"   {m}\n" for m in counts))
    for modname, reason in skipped:
        status.append(f"\n.. note::\n\n   ``{modname}`` did not import when these pages were "
                      f"built and is not listed:\n   ``{reason}``\n")
    _write(GENERATED / "api-status.inc", "\n".join(status) + "\n")
    return skipped


def _write(path, text):
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)


def _list_table(header, rows, widths=None):
    lines = [".. list-table::", "   :header-rows: 1"]
    if widths:
        lines.append(f"   :widths: {' '.join(str(w) for w in widths)}")
    lines.append("")
    for row in [header, *rows]:
        cells = [str(c) if str(c) != "" else " " for c in row]
        lines.append(f"   * - {cells[0]}")
        lines += [f"     - {c}" for c in cells[1:]]
    return "\n".join(lines) + "\n"


def write_routing():
    """The routing table exactly as ``linalgx._core._routing_table`` holds it."""
    from linalgx._core import _routing_table as table

    header = inspect.getdoc(table) or "\n".join(
        ln.lstrip("# ").rstrip()
        for ln in pathlib.Path(table.__file__).read_text().splitlines() if ln.startswith("#"))
    out = []
    if header.strip():
        out.append("The table's own header, written by the tuning run:\n")
        out.append(".. code-block:: text\n\n" + textwrap.indent(header.strip(), "   ") + "\n")
    out.append(f"Cold-start minimum batch (``COLD_MIN_BATCH``): **{table.COLD_MIN_BATCH:,}** "
               "matrices.\n")
    if not table.MIN_BATCH and not table.MIN_BATCH_COMPLEX:
        out.append(".. note::\n\n   The routing table of this build is empty (no tuning run "
                   "has been recorded yet), so every call on NumPy arrays goes to LAPACK "
                   "unless ``with linalgx.backend(\"numba\")`` asks for the kernels. Run "
                   "``make tune`` to measure this machine and fill it in.\n")
    for name, title in (("MIN_BATCH", "Real input (``MIN_BATCH``: float64 stacks"),
                        ("MIN_BATCH_COMPLEX", "Complex input (``MIN_BATCH_COMPLEX``: complex128 "
                                              "stacks")):
        tables = getattr(table, name)
        if not tables:
            continue
        ops = sorted(tables)
        sizes = sorted({n for t in tables.values() for n in t})
        rows = [[f"{n}", *(tables[op].get(n, "") for op in ops)] for n in sizes]
        out.append(f"{title}, measured {table.TUNED.get(name, 'on an unknown date')}). Each "
                   "cell is the smallest batch (number of stacked matrices) from which the "
                   "numba kernel serves matrices of size *n*; an empty cell means LAPACK "
                   "always serves that size. Sizes not listed always go to LAPACK.\n")
        out.append(_list_table(["n", *(f"``{op}``" for op in ops)], rows))
    drivers = getattr(table, "DRIVERS", None)
    if drivers is not None:
        def step(min_n, d):
            who = "NumPy's" if d == "numpy" else f"SciPy's ``{d.removeprefix('scipy_')}``"
            return f"{who} from n = {min_n}"
        chosen = "; ".join(f"``{op}``: " + ", ".join(step(*s) for s in steps)
                           for op, steps in sorted(drivers.items())) or "none"
        out.append(f"\nSingle float64 / complex128 matrices of order {table.DRIVER_MIN_N} and "
                   "more use the LAPACK drivers NumPy uses, except in the size ranges where "
                   f"SciPy's measured faster: {chosen}.\n")
    _write(GENERATED / "routing.inc", "\n".join(out))


# the runner's outcome names, in the order its summary line uses; unknown ones go last
_OUTCOME_ORDER = ("passed", "failed", "xfailed", "not_reached", "error", "skipped",
                  "numpy_xfailed", "xpassed", "crashed", "timeout")


def _columns(count_dicts):
    """Outcome columns worth showing: passed and failed always, others where nonzero."""
    seen = []
    for counts in count_dicts:
        for key in counts:
            if key not in seen:
                seen.append(key)
    order = [c for c in _OUTCOME_ORDER if c in seen] + [c for c in seen if c not in _OUTCOME_ORDER]
    return [c for c in order
            if c in ("passed", "failed") or any(d.get(c) for d in count_dicts)]


def _label(outcome):
    return {"not_reached": "did not reach linalgx",
            "numpy_xfailed": "xfailed by NumPy's marker"}.get(outcome, outcome)


def write_conformance():
    """Tables from ``docs/_data/conformance-*.json`` (the runner's ``--json`` output)."""
    files = sorted((DOCS / "_data").glob("conformance*.json"))
    if not files:
        _write(GENERATED / "conformance.inc",
               ".. note::\n\n   No recorded results are included in this build. Record them "
               "with::\n\n      python -m linalgx.conformance --suite all --json "
               "docs/_data/conformance-auto.json\n\n   and rebuild the docs; the tables below "
               "are then generated from that file.\n")
        return
    suites = []
    for path in files:
        data = json.loads(path.read_text())
        suites += [(path.name, s) for s in data.get("suites", [])]
    counts = [s.get("counts", {}) for _, s in suites]
    cols = _columns(counts)
    rows = [[s["suite"], s["backend"] + ("" if s.get("status", "ran") == "ran"
                                         else f" ({s['status']})"),
             *(s.get("counts", {}).get(c, 0) for c in cols), len(s.get("missing", [])),
             f"{s.get('elapsed', 0):.0f} s"] for _, s in suites]
    out = [_list_table(["suite", "backend", *map(_label, cols), "missing names", "time"],
                       rows)]
    for name, s in suites:
        if s.get("status") != "ran":
            reason = (s.get("reason") or "").strip().splitlines()
            out.append(f"``{name}``, {s['suite']}: {s.get('status')}"
                       + (f": {reason[0]}" if reason else "") + "\n")
        elif s.get("missing"):
            out.append(f"``{name}``, {s['suite']}: names of ``numpy.{s['suite']}`` missing "
                       f"from ``{s['target']}``: "
                       + ", ".join(f"``{n}``" for n in s["missing"]) + "\n")
    # per function: one table per suite, one column per recorded backend
    by_suite = {}
    for _, s in suites:
        if s.get("results"):
            by_suite.setdefault(s["suite"], []).append(s)
    for suite, runs in by_suite.items():
        cells = {}
        for i, s in enumerate(runs):
            for r in s["results"]:
                row = cells.setdefault(r.get("function") or "(other)", [{} for _ in runs])
                row[i][r["outcome"]] = row[i].get(r["outcome"], 0) + 1
        out.append(_underline(f"Per function: numpy.{suite}", "~"))
        out.append("Tests are attributed to the function their class or name targets, else to "
                   "the first one they call.\n")

        def cell(c):
            return ", ".join(f"{c[k]} {_label(k)}" for k in _columns([c]) if c.get(k)) or "-"
        out.append(_list_table(["function", *(f"backend {s['backend']}" for s in runs)],
                               [[f"``{k}``", *map(cell, v)] for k, v in sorted(cells.items())]))
    _write(GENERATED / "conformance.inc", "\n".join(out))


def write_performance():
    """Copy the newest ``bench-results/*.md`` for the performance page, or a note."""
    results = ROOT / "bench-results"
    tables = sorted(results.glob("**/*.md"), key=lambda p: p.stat().st_mtime) \
        if results.is_dir() else []
    if tables:
        newest = tables[-1]
        text = (f"*Results from* ``{newest.relative_to(ROOT)}``, *the newest table that*"
                " ``make bench`` *wrote on the machine that built these pages.*\n\n"
                + newest.read_text())
    else:
        text = ("```{note}\nNo benchmark results were present when these pages were built. "
                "Run `make bench` (or `make bench BENCH_ARGS=--quick`), which writes its "
                "tables under `bench-results/`, then rebuild with `make docs`: the newest "
                "markdown table appears here.\n```\n")
    _write(GENERATED / "performance.md", text)


def generate(app, config):
    GENERATED.mkdir(exist_ok=True)
    write_api_pages()
    write_routing()
    write_conformance()
    write_performance()


def setup(app):
    # config-inited runs before autosummary writes its stubs (builder-inited)
    app.connect("config-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
