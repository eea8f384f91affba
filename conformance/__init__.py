"""The NumPy conformance runner (installed as ``linalgx.conformance``).

Runs NumPy's own installed test files for ``numpy.linalg`` and ``numpy.fft``, unmodified,
with every public name of those namespaces replaced by linalgx's::

    python -m linalgx.conformance --backend numba --suite all

or from Python (the report renders as a table in notebooks)::

    >>> import linalgx.conformance
    >>> report = linalgx.conformance.run(backend="lapack", suite="linalg")  # doctest: +SKIP
    >>> report.ok  # doctest: +SKIP
    True
"""
from .report import ConformanceReport, SuiteReport, TestResult
from .runner import run, run_suite
from .suites import SUITES

__all__ = ["run", "run_suite", "ConformanceReport", "SuiteReport", "TestResult", "SUITES"]
