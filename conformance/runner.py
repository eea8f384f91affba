"""Run NumPy's own test files against linalgx in pytest subprocesses, surviving crashes.

Each suite runs in a fresh ``python -m pytest`` process with :mod:`linalgx.conformance.plugin`,
which patches ``numpy.linalg`` (or ``numpy.fft``) before NumPy's test modules are imported
and streams one JSON line per event. If the process dies (a segfault, an abort, or the
plugin's per-test watchdog ending a hung test), the test that was running is recorded as
crashed or timed out and the remainder is run again without it.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from .report import ConformanceReport, SuiteReport, TestResult
from .suites import SUITES, infer_function, load_expected_failures, load_target, split_names

__all__ = ["run", "run_suite"]

BACKENDS = ("auto", "lapack", "numba", "cupy")
MAX_CRASHES = 25
_INI = "[pytest]\nfaulthandler_timeout = 0\nxfail_strict = false\n"


class _Events:
    """Reads a growing JSON-lines file incrementally."""

    def __init__(self, path):
        self.path, self.offset, self.buffer = path, 0, ""

    def read(self):
        if not os.path.exists(self.path):
            return []
        with open(self.path) as f:
            f.seek(self.offset)
            chunk = f.read()
            self.offset = f.tell()
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split("\n")
        return [json.loads(ln) for ln in lines if ln.strip()]


def _progress_bar(progress, desc):
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=0, desc=desc, unit="test", file=sys.stderr, leave=False)


def _tail(path, limit=8000):
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return ""
    return text if len(text) <= limit else "...\n" + text[-limit:]


def _death(returncode):
    if returncode is not None and returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


def _attempt(cmd, env, cwd, log, events, stall, on_event):
    """Run one pytest process to its end; return (returncode, hung, events)."""
    log = open(log, "w")
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    seen, last, hung = [], time.monotonic(), False
    try:
        while True:
            returncode = proc.poll()
            new = events.read()
            for ev in new:
                on_event(ev)
            seen += new
            if new:
                last = time.monotonic()
            if returncode is not None:
                seen += events.read()
                return returncode, hung, seen
            if time.monotonic() - last > stall:
                hung = True
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                continue
            time.sleep(0.1)
    except BaseException:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        raise
    finally:
        log.close()


def run_suite(suite="linalg", backend="auto", *, target=None, k=None, timeout=120.0,
              files=None, expected_failures=None, allow_missing=False, skip_if_missing=False,
              progress=None, extra_args=()):
    """Run one suite; return its :class:`SuiteReport`. See :func:`run` for the arguments."""
    spec = SUITES[suite]
    target = target or spec.target
    if target.endswith(".py") or os.sep in target:
        target = str(Path(target).resolve())  # the test process runs elsewhere
    report = SuiteReport(suite, backend, target, names=spec.numpy_names(),
                         allow_missing=allow_missing, selected=k)
    try:
        _, missing = split_names(spec, load_target(target))
    except (Exception, SystemExit):
        report.status, report.reason = "error", f"importing {target} failed:\n" + \
            traceback.format_exc()
        return report
    report.missing = missing
    if skip_if_missing and missing:
        report.status = "skipped"
        report.reason = (f"{target} lacks {len(missing)} of {len(report.names)} "
                         f"{spec.numpy_module} names ({', '.join(missing)})")
        return report
    if files is not None and expected_failures is None:
        xfails = {}  # NumPy's node ids mean nothing for other files
    else:
        xfails = {n: r for n, r in load_expected_failures(expected_failures).items()
                  if files is not None or n.split("::")[0] in spec.nodeid_files()}

    start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix=f"linalgx-conformance-{suite}-"))
    (work / "pytest.ini").write_text(_INI)
    (work / "xfail.json").write_text(json.dumps(xfails))
    paths = [str(Path(f).resolve()) for f in files] if files else spec.test_paths()
    rootdir = os.path.commonpath([os.path.dirname(p) for p in paths]) if files else \
        str(Path(spec.test_paths()[0]).parents[3])
    env = dict(os.environ)
    for var in ("LINALGX_BACKEND", "PYTEST_ADDOPTS", "PYTEST_PLUGINS"):
        env.pop(var, None)
    if backend != "auto":
        env["LINALGX_BACKEND"] = backend
    base = [sys.executable, "-m", "pytest", "-q", "--tb=short", "-p", "no:cacheprovider",
            "-p", "linalgx.conformance.plugin", "-c", str(work / "pytest.ini"),
            "--rootdir", rootdir, "--confcutdir", rootdir if files else
            str(Path(paths[0]).parents[2]), "--continue-on-collection-errors",
            "--lx-suite", suite, "--lx-target", target, "--lx-backend", backend,
            "--lx-timeout", str(timeout or 0), "--lx-crash-log", str(work / "crash.log"),
            "--lx-skip-file", str(work / "skip.txt"),
            "--lx-xfail-file", str(work / "xfail.json"), *extra_args]
    if k:
        base += ["-k", k]
    bar = _progress_bar(progress, f"{suite} ({backend})")
    results, collection_errors, crashed, matched = {}, {}, [], set()
    total = None

    def on_event(ev):
        nonlocal total
        if ev["ev"] == "collected" and bar is not None and total is None:
            total = ev["n"]
            bar.total = total
            bar.refresh()
        elif ev["ev"] == "start" and bar is not None:
            bar.set_postfix_str(ev["nodeid"].split("::", 1)[-1][:40], refresh=False)
        elif ev["ev"] == "result" and bar is not None:
            bar.update(1)

    try:
        for attempt in range(MAX_CRASHES + 1):
            (work / "skip.txt").write_text("\n".join([*results, *crashed]))
            events = _Events(str(work / f"events{attempt}.jsonl"))
            stall = (timeout or 600) + 120
            returncode, hung, evs = _attempt(
                [*base, "--lx-events", events.path, *paths], env, str(work),
                work / f"pytest{attempt}.log", events, stall, on_event)
            started = None
            for ev in evs:
                kind = ev["ev"]
                if kind == "start":
                    started = ev["nodeid"]
                elif kind == "result":
                    started = None
                    results[ev["nodeid"]] = ev
                elif kind == "collect_error":
                    collection_errors.setdefault(ev["nodeid"], ev)
                elif kind == "collected":
                    report.collection_calls.update(ev.get("collection_calls", {}))
                elif kind == "xfail_matched":
                    matched.update(ev["nodeids"])
                elif kind == "target_error":
                    raise RuntimeError(ev["traceback"])
                elif kind == "config":
                    report.borrowed = ev["borrowed"]
                    if backend not in ("auto", ev["backend"]) and ev["backend"] is not None:
                        raise RuntimeError(f"the test process runs backend "
                                           f"{ev['backend']!r}, not {backend!r}")
            done = [ev["exitstatus"] for ev in evs if ev["ev"] == "done"]
            if done and done[0] in (2, 3, 4):  # interrupted, internal error, usage error
                raise RuntimeError(f"pytest stopped with exit status {done[0]}:\n"
                                   + _tail(work / f"pytest{attempt}.log"))
            if done:
                if done[0] == 5 and not k and not results:
                    raise RuntimeError("pytest collected no tests:\n"
                                       + _tail(work / f"pytest{attempt}.log"))
                break
            if started is None:
                raise RuntimeError(
                    f"the test process {_death(returncode)} outside any test:\n"
                    + _tail(work / f"pytest{attempt}.log"))
            log = _tail(work / f"pytest{attempt}.log", 4000)
            dump = _tail(work / "crash.log", 10**6).rsplit(f"=== start {started}\n", 1)[-1]
            timed_out = hung or "Timeout (" in dump
            why = (f"no result after {timeout or stall:g} s" if timed_out else
                   f"the test process {_death(returncode)} during this test")
            results[started] = {"nodeid": started, "outcome": "timeout" if timed_out
                                else "crashed", "calls": {}, "message": why,
                                "longrepr": dump.strip()[:3000] if timed_out else log}
            crashed.append(started)
            if bar is not None:
                bar.update(1)
        else:
            raise RuntimeError(f"more than {MAX_CRASHES} crashes; giving up")
    except RuntimeError as exc:
        report.status, report.reason = "error", str(exc)
    finally:
        if bar is not None:
            bar.close()
        shutil.rmtree(work, ignore_errors=True)
    report.elapsed = time.monotonic() - start
    for ev in results.values():
        calls = ev.get("calls", {})
        report.results.append(TestResult(
            ev["nodeid"], ev["outcome"], infer_function(ev["nodeid"], report.names, calls),
            calls, ev.get("duration", 0.0), ev.get("message", ""), ev.get("longrepr", ""),
            ev.get("nested", {})))
    report.collection_errors = list(collection_errors.values())
    broken = {e["nodeid"].split("::")[0] for e in report.collection_errors}
    if not k and report.status == "ran":
        report.stale_xfails = sorted(n for n in set(xfails) - matched
                                     if n.split("::")[0] not in broken)
    return report


def _check_cupy():
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
    except ImportError:
        raise RuntimeError("backend 'cupy' needs CuPy, which is not installed") from None
    except Exception as exc:
        raise RuntimeError(f"backend 'cupy': no usable GPU ({exc})") from None
    if count == 0:
        raise RuntimeError("backend 'cupy': no GPU found")


def run(backend="auto", suite="linalg", *, k=None, target=None, fft_target=None,
        timeout=120.0, files=None, expected_failures=None, allow_missing=False,
        progress=None):
    """Run NumPy's own tests with ``numpy.linalg`` / ``numpy.fft`` replaced by linalgx.

    Parameters
    ----------
    backend : {"auto", "lapack", "numba", "cupy"}
        linalgx backend for the run (``LINALGX_BACKEND`` in the test process). ``cupy``
        moves array arguments to the GPU and results back.
    suite : {"linalg", "fft", "all"}
        ``all`` runs linalg, then fft, skipping fft (visibly, not as a failure) while
        ``linalgx.fft`` lacks any ``numpy.fft`` name. An explicit ``"fft"`` always runs.
    k : str, optional
        pytest ``-k`` expression selecting a subset of NumPy's tests.
    target, fft_target : str, optional
        Module name or ``.py`` path standing in for ``linalgx.linalg`` / ``linalgx.fft``.
    timeout : float
        Per-test limit in seconds; a test running longer is reported as timed out.
    files : list of str, optional
        Test files to run instead of NumPy's (for testing the runner itself).
    expected_failures : path, optional
        Expected-failure TOML file; defaults to ``conformance/expected_failures.toml``.
    allow_missing : bool
        Do not count names missing from the target as a failure.
    progress : bool, optional
        tqdm progress bar; by default only when stderr is a terminal.

    Returns
    -------
    ConformanceReport
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if suite not in ("linalg", "fft", "all"):
        raise ValueError(f"unknown suite {suite!r}; expected linalg, fft or all")
    if backend == "cupy":
        _check_cupy()
    names = ["linalg", "fft"] if suite == "all" else [suite]
    report = ConformanceReport()
    for name in names:
        report.suites.append(run_suite(
            name, backend, target=fft_target if name == "fft" else target, k=k,
            timeout=timeout, files=files, expected_failures=expected_failures,
            allow_missing=allow_missing, skip_if_missing=suite == "all" and name == "fft",
            progress=progress))
    return report
