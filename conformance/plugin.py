"""pytest plugin: run NumPy's own tests with ``numpy.linalg`` / ``numpy.fft`` replaced.

Loaded by the runner as ``-p linalgx.conformance.plugin`` in a pytest subprocess of its own
(the patch is process-wide). At ``pytest_configure``, before any test module is imported, it
imports the target module (``linalgx.linalg`` or ``linalgx.fft``) and replaces every public
name of the NumPy namespace that the target has; names the target lacks are left alone and
reported as missing. Each substituted function is wrapped in a counter, so every test's
result says which substituted functions it reached.

Results stream to a JSON-lines event file, one flushed line per event, so the runner knows
which test was running if the process dies. A per-test watchdog
(``faulthandler.dump_traceback_later(exit=True)``, which runs without the GIL) dumps the
stack and ends the process when a test hangs; the runner then reruns the remainder.
Without ``--lx-suite`` the plugin does nothing.
"""
import faulthandler
import functools
import json
import os
import re
import sys
import threading
import time
import traceback

import pytest

# name -> number of calls of that substituted function during the current test
_CALLS = {}
# "outer->inner" -> count: a substituted function that called the patched namespace itself
_NESTED = {}
_STATE = threading.local()


def _counted(name, fn, convert=None):
    """``fn`` with a call counter; ``convert`` optionally moves arguments and results.

    Only calls from outside the substituted functions count as calls; a call made while
    another substituted function runs on the same thread means the target reached back into
    the patched namespace (``np.linalg.svd`` inside ``cond``) and is recorded as nested.
    """
    to_device, to_host = convert or (None, None)

    @functools.wraps(fn)
    def counted(*args, **kwargs):
        outer = getattr(_STATE, "active", None)
        if outer is None:
            _CALLS[name] = _CALLS.get(name, 0) + 1
        else:
            key = f"{outer}->{name}"
            _NESTED[key] = _NESTED.get(key, 0) + 1
        _STATE.active = name
        try:
            if to_device is None:
                return fn(*args, **kwargs)
            args = [to_device(a) for a in args]
            kwargs = {k: to_device(v) for k, v in kwargs.items()}
            return to_host(fn(*args, **kwargs))
        finally:
            _STATE.active = outer
    return counted


def _cupy_converters():
    """Argument/result converters for running NumPy's tests on the cupy backend.

    NumPy arrays in the arguments (also inside list/tuple arguments) go to the device;
    results come back as NumPy arrays and 0-d results as NumPy scalars. Subclasses
    (``np.matrix``) do not survive the round trip, so those tests fail on this backend.
    """
    import cupy
    import numpy as np

    def to_device(x):
        if isinstance(x, np.ndarray):
            return cupy.asarray(x)
        if type(x) in (list, tuple) and any(isinstance(e, np.ndarray) for e in x):
            return type(x)(to_device(e) for e in x)
        return x

    def to_host(x):
        if isinstance(x, cupy.ndarray):
            x = cupy.asnumpy(x)
            return x[()] if x.ndim == 0 else x
        if isinstance(x, tuple):
            items = [to_host(e) for e in x]
            return type(x)(*items) if hasattr(x, "_fields") else type(x)(items)
        return x

    return to_device, to_host


def patch_namespace(numpy_module, target, convert=None):
    """Replace ``numpy_module``'s public names by ``target``'s; return (patched, missing)."""
    patched, missing = [], []
    for name in numpy_module.__all__:
        if not hasattr(target, name):
            missing.append(name)
            continue
        obj = getattr(target, name)
        if callable(obj) and not isinstance(obj, type):
            obj = _counted(name, obj, convert)
        setattr(numpy_module, name, obj)
        patched.append(name)
    return patched, missing


_EXC_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Exit)\b")


def _text(longrepr, limit=6000):
    if longrepr is None:
        return ""
    text = str(longrepr)
    return text if len(text) <= limit else "...\n" + text[-limit:]


def _message(report):
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and crash.message.strip():
        head, _, inner = crash.message.partition("Traceback (most recent call last)")
        lines = [ln.strip() for ln in head.splitlines() if ln.strip()][:4]
        # numpy's LinalgCase re-raises with the case's traceback: keep its final exception
        inner = inner.splitlines()
        starts = [i for i, ln in enumerate(inner) if _EXC_LINE.match(ln)]
        if starts:
            lines += [ln.strip() for ln in inner[starts[-1]:] if ln.strip()][:3]
        if len(lines) == 1 and ":" not in lines[0]:  # a bare AssertionError: show the code
            text = str(report.longrepr).splitlines()
            first_e = next((i for i, ln in enumerate(text) if ln.startswith("E ")), 0)
            if first_e:
                lines.append("at: " + text[first_e - 1].strip())
        return " ".join(lines)[:300]
    if isinstance(report.longrepr, tuple):  # skip reports: (path, lineno, reason)
        return str(report.longrepr[-1])[:300]
    lines = [ln for ln in str(report.longrepr or "").splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("E ")]
    return (errors[0][1:].strip() if errors else lines[-1] if lines else "")[:300]


def classify(reports, calls):
    """The outcome of one test from its setup/call/teardown reports and its calls."""
    setup, call, teardown = (reports.get(w) for w in ("setup", "call", "teardown"))
    if call is not None:
        if call.failed:
            if str(call.longrepr).startswith("[XPASS(strict)]"):
                return "xpassed", call
            return "failed", call
        if call.skipped:
            return ("xfailed" if hasattr(call, "wasxfail") else "skipped"), call
    if setup is not None and setup.failed:
        return "error", setup
    if setup is not None and setup.skipped:
        return ("xfailed" if hasattr(setup, "wasxfail") else "skipped"), setup
    if teardown is not None and teardown.failed:
        return "error", teardown
    return ("passed" if calls else "not_reached"), call


class ConformancePlugin:
    """The plugin object registered by ``pytest_configure`` when ``--lx-suite`` is given."""

    def __init__(self, config):
        opt = config.getoption
        self.events = open(opt("lx_events"), "a", buffering=1)
        self.timeout = opt("lx_timeout") or 0
        self.crash_log = open(opt("lx_crash_log") or os.devnull, "a", buffering=1)
        self.skip = set()
        if opt("lx_skip_file"):
            with open(opt("lx_skip_file")) as f:
                self.skip = {ln.strip() for ln in f if ln.strip()}
        self.xfail = {}
        if opt("lx_xfail_file"):
            with open(opt("lx_xfail_file")) as f:
                self.xfail = json.load(f)
        self.reports = {}
        self.started = {}

    def emit(self, **event):
        self.events.write(json.dumps(event) + "\n")

    def install(self, suite, target_name, backend):
        import importlib

        from .suites import SUITES, load_target
        numpy_module = importlib.import_module(SUITES[suite].numpy_module)
        try:
            target = load_target(target_name)
            convert = _cupy_converters() if backend == "cupy" else None
        except BaseException:
            self.emit(ev="target_error", traceback=traceback.format_exc())
            raise
        _CALLS.clear()
        # functions the target merely re-exports from NumPy: passing says nothing about it
        borrowed = [name for name in numpy_module.__all__ if hasattr(target, name)
                    and not isinstance(getattr(target, name), type)
                    and getattr(target, name) is getattr(numpy_module, name)]
        patched, missing = patch_namespace(numpy_module, target, convert)
        try:
            import linalgx
            active = linalgx.get_backend() or "auto"
        except Exception:  # a custom target need not come with linalgx
            active = None
        self.emit(ev="config", suite=suite, target=target_name, backend=active,
                  patched=patched, missing=missing, borrowed=borrowed, pid=os.getpid(),
                  python=sys.version.split()[0])

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session, config, items):
        kept, dropped = [], []
        for item in items:
            (dropped if item.nodeid in self.skip else kept).append(item)
            reason = self.xfail.get(item.nodeid)
            if reason is not None:
                item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
        seen = {item.nodeid for item in items} | {item.nodeid for item in dropped}
        self.emit(ev="xfail_matched", nodeids=sorted(set(self.xfail) & seen))

    def pytest_collectreport(self, report):
        if report.failed:
            self.emit(ev="collect_error", nodeid=report.nodeid, message=_message(report),
                      longrepr=_text(report.longrepr, 20000), calls=dict(_CALLS))

    def pytest_collection_finish(self, session):
        self.emit(ev="collected", n=len(session.items), collection_calls=dict(_CALLS))

    def pytest_runtest_logstart(self, nodeid, location):
        _CALLS.clear()
        _NESTED.clear()
        self.reports[nodeid] = {}
        self.started[nodeid] = time.perf_counter()
        self.emit(ev="start", nodeid=nodeid)
        if self.timeout > 0:
            self.crash_log.write(f"\n=== start {nodeid}\n")
            faulthandler.dump_traceback_later(self.timeout, exit=True, file=self.crash_log)

    def pytest_runtest_logreport(self, report):
        self.reports.setdefault(report.nodeid, {})[report.when] = report

    def pytest_runtest_logfinish(self, nodeid, location):
        if self.timeout > 0:
            faulthandler.cancel_dump_traceback_later()
        calls = dict(_CALLS)
        reports = self.reports.pop(nodeid, {})
        outcome, rep = classify(reports, calls)
        if outcome == "xfailed" and nodeid not in self.xfail:
            outcome = "numpy_xfailed"  # NumPy's own xfail marker, not our list
        failing = outcome in ("failed", "error", "xpassed", "skipped", "xfailed",
                              "numpy_xfailed")
        self.emit(ev="result", nodeid=nodeid, outcome=outcome, calls=calls,
                  nested=dict(_NESTED),
                  duration=round(time.perf_counter() - self.started.pop(nodeid), 4),
                  message=_message(rep) if rep is not None and failing else "",
                  longrepr=_text(rep.longrepr) if rep is not None and failing
                  and outcome != "skipped" else "")

    def pytest_sessionfinish(self, session, exitstatus):
        self.emit(ev="done", exitstatus=int(exitstatus))


def pytest_addoption(parser):
    group = parser.getgroup("linalgx-conformance")
    group.addoption("--lx-suite", choices=["linalg", "fft"], default=None,
                    help="NumPy namespace to replace (enables the plugin)")
    group.addoption("--lx-target", default=None, help="module or .py file standing in for it")
    group.addoption("--lx-backend", default="auto", help="backend the runner selected")
    group.addoption("--lx-events", default=None, help="JSON-lines event file to append to")
    group.addoption("--lx-crash-log", default=None, help="file for watchdog stack dumps")
    group.addoption("--lx-timeout", type=float, default=0.0, help="per-test timeout, seconds")
    group.addoption("--lx-skip-file", default=None, help="node ids to deselect, one a line")
    group.addoption("--lx-xfail-file", default=None, help="JSON {nodeid: reason}: strict xfail")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    suite = config.getoption("lx_suite")
    if suite is None:
        return
    from .suites import SUITES
    plugin = ConformancePlugin(config)
    plugin.install(suite, config.getoption("lx_target") or SUITES[suite].target,
                   config.getoption("lx_backend"))
    config.pluginmanager.register(plugin, "linalgx-conformance")
