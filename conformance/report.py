"""Conformance results: per-test records, per-suite counts and tables, text/HTML/JSON output."""
import html
from dataclasses import asdict, dataclass, field

__all__ = ["TestResult", "SuiteReport", "ConformanceReport", "OUTCOMES"]

# outcome -> label in the summary line; the first five always appear there
OUTCOMES = {
    "passed": "passed",
    "failed": "failed",
    "xfailed": "xfailed",
    "not_reached": "did not reach {target}",
    "error": "errors",
    "skipped": "skipped",
    "numpy_xfailed": "xfailed by NumPy's own marker",
    "xpassed": "XPASS(strict)",
    "crashed": "crashed",
    "timeout": "timed out",
}
BAD = ("failed", "error", "xpassed", "crashed", "timeout")
_COLUMNS = ("passed", "failed", "xfailed", "not reached", "skipped")


def _column(outcome):
    if outcome in BAD:
        return "failed"
    if outcome == "numpy_xfailed":
        return "xfailed"
    return "not reached" if outcome == "not_reached" else outcome


@dataclass
class TestResult:
    """One NumPy test: its outcome, the substituted functions it called, and why it failed."""

    __test__ = False  # not a pytest class

    nodeid: str
    outcome: str
    function: str = None
    calls: dict = field(default_factory=dict)
    duration: float = 0.0
    message: str = ""
    longrepr: str = ""
    nested: dict = field(default_factory=dict)

    @property
    def file(self):
        return self.nodeid.split("::")[0]


@dataclass
class SuiteReport:
    """The result of one suite (``linalg`` or ``fft``) on one backend."""

    suite: str
    backend: str
    target: str
    status: str = "ran"  # "ran", "skipped" (not counted as a failure) or "error"
    reason: str = ""  # why skipped, or the error's traceback
    names: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    allow_missing: bool = False
    results: list = field(default_factory=list)
    collection_errors: list = field(default_factory=list)
    stale_xfails: list = field(default_factory=list)
    collection_calls: dict = field(default_factory=dict)
    borrowed: list = field(default_factory=list)
    selected: str = None
    elapsed: float = 0.0

    def counts(self):
        """Number of tests per outcome; ``error`` includes collection errors."""
        counts = dict.fromkeys(OUTCOMES, 0)
        for r in self.results:
            counts[r.outcome] += 1
        counts["error"] += len(self.collection_errors)
        return counts

    @property
    def ok(self):
        if self.status == "skipped":
            return True
        if self.status == "error" or self.stale_xfails:
            return False
        if self.missing and not self.allow_missing:
            return False
        counts = self.counts()
        return not any(counts[o] for o in BAD)

    @property
    def failures(self):
        return [r for r in self.results if r.outcome in BAD]

    def summary_line(self):
        """``linalg (lapack): 512 passed, 0 failed, ...`` plus missing names, one string."""
        head = f"{self.suite} (backend {self.backend})"
        if self.status == "skipped":
            return f"{head}: SKIPPED, not counted as a failure: {self.reason}"
        if self.status == "error":
            first = self.reason.strip().splitlines()[-1] if self.reason.strip() else "?"
            return f"{head}: ERROR, suite did not run: {first}"
        counts = self.counts()
        target = "linalgx" if self.target.startswith("linalgx") else "the target"
        parts = []
        for outcome, label in OUTCOMES.items():
            n = counts[outcome]
            if n or outcome in ("passed", "failed", "xfailed", "not_reached", "error"):
                parts.append(f"{n} {label.format(target=target)}")
        line = f"{head}: " + ", ".join(parts)
        if self.elapsed:
            line += f" in {self.elapsed:.1f} s"
        if self.selected:
            line += f"  [-k {self.selected}]"
        if self.missing:
            verdict = "allowed by --allow-missing" if self.allow_missing else "a failure"
            line += (f"\n  MISSING from {self.target} ({verdict}): {len(self.missing)} of "
                     f"{len(self.names)} numpy names: {', '.join(self.missing)}")
        if self.borrowed:
            line += (f"\n  NOTE: {len(self.borrowed)} functions of {self.target} are NumPy's "
                     f"own objects, so their tests check NumPy: {', '.join(self.borrowed)}")
        nested = self.nested_calls()
        if nested:
            line += (f"\n  NOTE: {self.target} called the patched {self.suite} namespace "
                     "internally (use the originals bound at import): "
                     + ", ".join(f"{k} in {n} tests" for k, n in nested.items()))
        if self.stale_xfails:
            line += ("\n  STALE expected-failure entries (no such test): "
                     + ", ".join(self.stale_xfails))
        return line

    def nested_calls(self):
        """``{"outer->inner": number of tests}`` for calls back into the patched namespace."""
        out = {}
        for r in self.results:
            for key in r.nested:
                out[key] = out.get(key, 0) + 1
        return dict(sorted(out.items()))

    def file_table(self):
        """Rows ``(file, passed, failed, xfailed, not reached, skipped)``."""
        rows = {}
        for r in self.results:
            row = rows.setdefault(r.file, dict.fromkeys(_COLUMNS, 0))
            row[_column(r.outcome)] += 1
        for e in self.collection_errors:
            rows.setdefault(e["nodeid"].split("::")[0], dict.fromkeys(_COLUMNS, 0))
            rows[e["nodeid"].split("::")[0]]["failed"] += 1
        return [(f, *(row[c] for c in _COLUMNS)) for f, row in sorted(rows.items())]

    def function_table(self):
        """Rows ``(function, status, passed, failed, xfailed, not reached, skipped, reached)``.

        Tests are attributed to the function their class or test name targets (else the
        first one they called); ``reached`` counts the tests that called the function at all.
        """
        rows = {name: dict.fromkeys(_COLUMNS, 0) for name in self.names}
        reached = dict.fromkeys(self.names, 0)
        for r in self.results:
            key = r.function or "(other)"
            rows.setdefault(key, dict.fromkeys(_COLUMNS, 0))[_column(r.outcome)] += 1
            for name in r.calls:
                reached[name] = reached.get(name, 0) + 1
        out = []
        for name, row in rows.items():
            status = ("MISSING" if name in self.missing else "numpy's" if name in self.borrowed
                      else "" if name in self.names else "-")
            if not any(row.values()) and not reached.get(name) and not status:
                if self.selected:  # a -k subset: leave out what it did not select
                    continue
                if name[:1].isupper():
                    status = "class"
                elif name in self.collection_calls:  # e.g. outer in a class body
                    status = "at import"
                else:
                    status = "untested"
            out.append((name, status, *(row[c] for c in _COLUMNS), reached.get(name, 0)))
        return out

    def to_dict(self):
        d = asdict(self)
        d["counts"] = self.counts()
        d["ok"] = self.ok
        return d


def _table(header, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    fmt = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    lines = [fmt.format(*header), fmt.format(*("-" * w for w in widths))]
    lines += [fmt.format(*(str(x) for x in row)) for row in rows]
    return "\n".join(lines)


def _indent(text, n=4):
    return "\n".join(" " * n + ln for ln in text.splitlines())


@dataclass
class ConformanceReport:
    """Results of one conformance run: one :class:`SuiteReport` per suite.

    ``str(report)`` is the plain-text report, ``report.ok`` whether the run passed and
    ``report.exit_code`` the command's exit status; notebooks render it as HTML.
    """

    suites: list = field(default_factory=list)

    @property
    def ok(self):
        return all(s.ok for s in self.suites)

    @property
    def exit_code(self):
        return 0 if self.ok else 1

    def summary(self):
        return "\n".join(s.summary_line() for s in self.suites)

    def failure_text(self, verbose=False):
        """Collection errors (with traceback), suite errors and failing tests."""
        out = []
        for s in self.suites:
            if s.status == "error":
                out.append(f"{s.suite}: suite error\n{_indent(s.reason)}")
            for e in s.collection_errors:
                out.append(f"COLLECTION ERROR {e['nodeid']}: {e['message']}\n"
                           + _indent(e["longrepr"]))
            for r in s.failures:
                out.append(f"{r.outcome.upper():8} {r.nodeid}: {r.message}")
                lines = r.longrepr.splitlines()
                if verbose:
                    out.append(_indent(r.longrepr))
                elif r.outcome == "timeout":  # the stack dump, innermost frame first
                    out.append(_indent("\n".join(lines[:15])))
                elif r.outcome == "crashed":  # the end of the test process's output
                    out.append(_indent("\n".join(lines[-30:])))
        return "\n".join(out)

    def to_text(self, quiet=False, verbose=False):
        out = []
        if not quiet:
            for s in self.suites:
                if s.status != "ran":
                    continue
                out.append(f"== {s.suite} (backend {s.backend}, target {s.target}), per file")
                out.append(_table(("file", *_COLUMNS), s.file_table()))
                out.append(f"\n== {s.suite}, per function")
                out.append(_table(("function", "status", *_COLUMNS, "reached by"),
                                  s.function_table()))
                out.append("")
        failures = self.failure_text(verbose)
        if failures:
            out.append(failures)
        out.append(self.summary())
        return "\n".join(out)

    def __str__(self):
        return self.to_text()

    def to_dict(self):
        return {"ok": self.ok, "suites": [s.to_dict() for s in self.suites]}

    def _repr_html_(self):
        esc = html.escape

        def table(header, rows):
            head = "".join(f"<th>{esc(str(h))}</th>" for h in header)
            body = "".join("<tr>" + "".join(f"<td>{esc(str(x))}</td>" for x in row) + "</tr>"
                           for row in rows)
            return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

        parts = []
        for s in self.suites:
            color = "green" if s.ok else "red"
            parts.append(f"<p style='color:{color}'><b>{esc(s.summary_line())}</b></p>")
            if s.status != "ran":
                continue
            parts.append("<details><summary>per file</summary>"
                         + table(("file", *_COLUMNS), s.file_table()) + "</details>")
            parts.append("<details><summary>per function</summary>"
                         + table(("function", "status", *_COLUMNS, "reached by"),
                                 s.function_table()) + "</details>")
            bad = [(r.outcome, r.nodeid, r.message) for r in s.failures]
            bad += [("collection error", e["nodeid"], e["message"])
                    for e in s.collection_errors]
            if bad:
                parts.append("<details open><summary>failures</summary>"
                             + table(("outcome", "test", "message"), bad) + "</details>")
        return "<div>" + "".join(parts) + "</div>"
