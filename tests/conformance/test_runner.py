"""The conformance runner must bite: wrong targets fail, crashes and hangs are survived.

Each test that runs pytest subprocesses keeps to a tiny ``-k`` subset or to small synthetic
test files, so the whole file takes about 15 s.
"""
import json
import subprocess
import sys
import textwrap
import types
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest
from linalgx.conformance import SUITES, ConformanceReport, SuiteReport, TestResult, run, run_suite
from linalgx.conformance.suites import (
    EXPECTED_FAILURES,
    infer_function,
    load_expected_failures,
)

HERE = Path(__file__).parent
WRONG = str(HERE / "wrong_linalg.py")

# A stand-in for numpy.linalg: NumPy's own functions, except an outer that raises, so that a
# test file calling outer in a class body (as NumPy's test_linalg.py does) cannot be collected.
TARGET = """
from numpy.linalg import *  # noqa
from numpy.linalg import __all__  # noqa

def outer(a, b):
    raise RuntimeError("outer is broken")
"""

SYNTHETIC = """
import os, signal, time
import numpy as np
from numpy import linalg

def test_reaches():
    assert linalg.inv(np.eye(2))[0, 0] == 1.0

def test_does_not_reach():
    assert np.eye(2).sum() == 2

def test_fails():
    assert linalg.det(np.eye(2)) == 2.0

def test_crash():
    os.kill(os.getpid(), signal.SIGKILL)

def test_hang():
    time.sleep(60)

def test_after_crash_and_hang():
    assert linalg.norm(np.ones(4)) == 2.0
"""

COLLECT = """
import numpy as np

class TestOuter:
    np.linalg.outer(np.arange(3), np.arange(3))

    def test_never_collected(self):
        pass
"""


def _write(path, text):
    path.write_text(textwrap.dedent(text))
    return str(path)


def _outcomes(suite_report):
    return {r.nodeid.split("::")[-1]: r.outcome for r in suite_report.results}


def test_wrong_target_is_caught_by_the_cli(tmp_path):
    out = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "linalgx.conformance", "--target", WRONG, "--quiet",
         "-k", "TestDet and sq_cases or TestInv and sq_cases", "--json", str(out)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (suite,) = json.loads(out.read_text())["suites"]
    assert suite["counts"]["failed"] == 6  # inv returning its input passes only for 0x0
    assert not suite["missing"]
    assert "det" not in suite["borrowed"] and "solve" in suite["borrowed"]
    failed = {r["function"] for r in suite["results"] if r["outcome"] == "failed"}
    assert failed == {"det", "inv"}
    assert "FAILED" in proc.stdout and "2 passed, 6 failed" in proc.stdout


def test_real_target_passes_a_subset():
    report = run(suite="linalg", k="TestInv and sq_cases or test_dynamic_programming_logic",
                 allow_missing=True)
    (suite,) = report.suites
    counts = suite.counts()
    assert counts["passed"] == 4, report.to_text()
    assert counts["failed"] == counts["error"] == 0, report.to_text()
    assert all(r.calls.get("inv") for r in suite.results if r.outcome == "passed")
    # this one probes numpy's private _multi_dot_matrix_chain_order, never a public name
    (unreached,) = [r for r in suite.results if r.outcome == "not_reached"]
    assert unreached.nodeid.endswith("TestMultiDot::test_dynamic_programming_logic")
    assert report.exit_code == 0
    # without --allow-missing, names missing from linalgx.linalg fail the run
    assert ConformanceReport([SuiteReport("linalg", "auto", "linalgx.linalg",
                                          missing=["det"])]).exit_code == 1


def test_crash_hang_collection_error_and_unreached_are_reported(tmp_path):
    target = _write(tmp_path / "target.py", TARGET)
    files = [_write(tmp_path / "test_synthetic.py", SYNTHETIC),
             _write(tmp_path / "test_collect.py", COLLECT)]
    report = run(target=target, files=files, timeout=2)
    (suite,) = report.suites
    assert _outcomes(suite) == {
        "test_reaches": "passed", "test_does_not_reach": "not_reached",
        "test_fails": "failed", "test_crash": "crashed", "test_hang": "timeout",
        "test_after_crash_and_hang": "passed"}
    (err,) = suite.collection_errors
    assert err["nodeid"] == "test_collect.py"
    assert "outer is broken" in err["message"] and "TestOuter" in err["longrepr"]
    assert report.exit_code == 1
    text = report.to_text(quiet=True)
    assert "COLLECTION ERROR test_collect.py" in text
    assert "1 did not reach the target" in text and "1 crashed" in text
    assert "test_hang" in text and "Timeout" in text
    by_name = {r.nodeid.split("::")[-1]: r for r in suite.results}
    assert by_name["test_reaches"].calls == {"inv": 1}
    assert by_name["test_crash"].message.startswith("the test process was killed by SIGKILL")


def test_expected_failures_are_strict(tmp_path):
    files = [_write(tmp_path / "test_synthetic.py", SYNTHETIC.split("def test_crash")[0])]
    xfail = tmp_path / "xfail.toml"
    xfail.write_text(textwrap.dedent("""
        [[xfail]]
        nodeid = "test_synthetic.py::test_fails"
        reason = "det is wrong on purpose"
        [[xfail]]
        nodeid = "test_synthetic.py::test_reaches"
        reason = "listed although it passes: must show up as XPASS(strict)"
        [[xfail]]
        nodeid = "test_synthetic.py::test_no_such_test"
        reason = "stale"
    """))
    target = _write(tmp_path / "target.py", TARGET)
    report = run(target=target, files=files, expected_failures=xfail)
    (suite,) = report.suites
    assert _outcomes(suite) == {"test_reaches": "xpassed", "test_does_not_reach": "not_reached",
                                "test_fails": "xfailed"}
    assert suite.stale_xfails == ["test_synthetic.py::test_no_such_test"]
    assert report.exit_code == 1
    assert "XPASS(strict)" in report.summary() and "STALE" in report.summary()


def test_fft_is_skipped_visibly_when_names_are_missing(tmp_path):
    empty = _write(tmp_path / "empty_fft.py", "x = 1\n")
    skipped = run_suite("fft", target=empty, skip_if_missing=True)
    assert skipped.status == "skipped" and skipped.ok
    assert "fft" in skipped.missing and "SKIPPED, not counted as a failure" in \
        skipped.summary_line()


def test_target_that_fails_to_import_is_an_error(tmp_path):
    broken = _write(tmp_path / "broken.py", "raise ImportError('half-written module')\n")
    report = run_suite("linalg", target=broken)
    assert report.status == "error" and not report.ok
    assert "half-written module" in report.summary_line()


@pytest.mark.parametrize("nodeid, expected", [
    ("f.py::TestSVDHermitian::test_sq_cases[x]", "svd"),
    ("f.py::TestRegression::test_eig_build", "eig"),
    ("f.py::TestNorm_NonSystematic::test_longdouble_norm", "norm"),
    ("f.py::TestEigvalshCases::test_x", "eigvalsh"),
    ("f.py::TestMatrixPower::test_x[dt]", "matrix_power"),
    ("f.py::test_matrix_norm", "matrix_norm"),
    ("f.py::test_byteorder_check", "pinv"),  # no name in it: the first call decides
], ids=lambda x: x if "::" not in x else x.split("::", 1)[1])
def test_infer_linalg_function(nodeid, expected):
    assert infer_function(nodeid, SUITES["linalg"].numpy_names(), ["pinv", "det"]) == expected


@pytest.mark.parametrize("nodeid, expected", [
    ("f.py::TestFFTShift::test_x", "fftshift"),
    ("f.py::TestIRFFTN::test_x", "irfftn"),
    ("f.py::TestFFT1D::test_rfftn", "rfftn"),
    ("f.py::TestFFT1D::test_identity", None),
])
def test_infer_fft_function(nodeid, expected):
    assert infer_function(nodeid, SUITES["fft"].numpy_names()) == expected


def test_packaged_expected_failures_parse():
    for nodeid, reason in load_expected_failures(EXPECTED_FAILURES).items():
        assert nodeid.startswith("numpy/") and reason


def test_bad_expected_failure_entry_is_rejected(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[xfail]]\nnodeid = "numpy/x.py::t"\n')
    with pytest.raises(ValueError, match="one-line reason"):
        load_expected_failures(bad)


def test_report_renders():
    suite = SuiteReport("linalg", "lapack", "linalgx.linalg", names=["inv", "det"],
                        missing=["det"], results=[
                            TestResult("numpy/a.py::TestInv::t", "passed", "inv", {"inv": 2}),
                            TestResult("numpy/a.py::TestInv::u", "failed", "inv", {"inv": 1},
                                       message="<boom>")])
    report = ConformanceReport([suite])
    assert "1 passed, 1 failed" in report.summary()
    assert "MISSING from linalgx.linalg" in report.summary()
    assert "&lt;boom&gt;" in report._repr_html_()
    assert json.loads(json.dumps(report.to_dict()))["ok"] is False
    rows = {row[0]: row for row in suite.function_table()}
    assert rows["det"][1] == "MISSING" and rows["inv"][2:4] == (1, 1)


def test_cupy_round_trip_converters(monkeypatch):
    class DeviceArray:
        def __init__(self, data):
            self.data = data

    fake = types.ModuleType("cupy")
    fake.ndarray = DeviceArray
    fake.asarray = lambda a: DeviceArray(np.asarray(a))
    fake.asnumpy = lambda a: a.data
    monkeypatch.setitem(sys.modules, "cupy", fake)
    from linalgx.conformance import plugin

    Result = namedtuple("Result", "value count")

    def on_device(a, arrays, scale=1.0):
        assert isinstance(a, DeviceArray) and all(isinstance(x, DeviceArray) for x in arrays)
        return Result(DeviceArray(a.data.sum() * scale), DeviceArray(np.arange(2)))

    wrapped = plugin._counted("fake", on_device, plugin._cupy_converters())
    plugin._CALLS.clear()
    out = wrapped(np.ones(3), [np.ones(2), np.zeros(2)], scale=2.0)
    assert type(out) is Result and type(out.value) is np.float64 and out.value == 6.0
    assert isinstance(out.count, np.ndarray) and plugin._CALLS == {"fake": 1}
