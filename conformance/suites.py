"""What each conformance suite runs, and which linalgx module stands in for which NumPy one.

A suite is a NumPy namespace (``numpy.linalg`` or ``numpy.fft``), the target module that
replaces its public names (``linalgx.linalg`` or ``linalgx.fft``, or any module or ``.py``
file given as ``target``) and NumPy's own installed test files for that namespace.
"""
import importlib
import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

__all__ = ["SUITES", "Suite", "load_target", "split_names", "load_expected_failures",
           "infer_function", "EXPECTED_FAILURES"]

EXPECTED_FAILURES = Path(__file__).with_name("expected_failures.toml")


@dataclass(frozen=True)
class Suite:
    """One conformance suite: a NumPy namespace, its default target and its test files."""

    name: str
    numpy_module: str
    target: str
    test_files: tuple

    def numpy_names(self):
        """The public names of the NumPy namespace, in NumPy's order."""
        return list(importlib.import_module(self.numpy_module).__all__)

    def nodeid_files(self):
        """The test files as pytest names them (relative to site-packages)."""
        return ["numpy/" + f for f in self.test_files]

    def test_paths(self):
        """Absolute paths of NumPy's installed test files for this suite."""
        import numpy
        root = Path(numpy.__file__).parent
        return [str(root / f) for f in self.test_files]


SUITES = {
    "linalg": Suite("linalg", "numpy.linalg", "linalgx.linalg",
                    ("linalg/tests/test_linalg.py", "linalg/tests/test_regression.py")),
    "fft": Suite("fft", "numpy.fft", "linalgx.fft",
                 ("fft/tests/test_pocketfft.py", "fft/tests/test_helper.py")),
}


def load_target(target):
    """Import ``target``: a dotted module name, or the path of a ``.py`` file."""
    if target.endswith(".py") or os.sep in target:
        path = Path(target).resolve()
        name = "_linalgx_conformance_target_" + re.sub(r"\W", "_", path.stem)
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None:
            raise ImportError(f"cannot import a target module from {target!r}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        return module
    return importlib.import_module(target)


def split_names(suite, module):
    """``(present, missing)``: NumPy's public names that ``module`` has and lacks."""
    present, missing = [], []
    for name in suite.numpy_names():
        (present if hasattr(module, name) else missing).append(name)
    return present, missing


def load_expected_failures(path=None):
    """Entries of the expected-failure file as ``{nodeid: reason}``.

    Each entry is a ``[[xfail]]`` table with a ``nodeid`` (as pytest spells it, relative to
    site-packages, e.g. ``numpy/linalg/tests/test_linalg.py::TestX::test_y[case]``) and a
    one-line ``reason``.
    """
    path = Path(path) if path is not None else EXPECTED_FAILURES
    if not path.exists():
        return {}
    with open(path, "rb") as f:
        data = tomllib.load(f)
    entries = {}
    for i, entry in enumerate(data.get("xfail", [])):
        nodeid, reason = entry.get("nodeid"), entry.get("reason", "")
        if not nodeid or not reason.strip() or "\n" in reason.strip():
            raise ValueError(f"{path}: entry {i} needs a nodeid and a one-line reason")
        if nodeid in entries:
            raise ValueError(f"{path}: duplicate entry {nodeid!r}")
        entries[nodeid] = reason.strip()
    unknown = set(data) - {"xfail"}
    if unknown:
        raise ValueError(f"{path}: unknown top-level keys {sorted(unknown)}")
    return entries


def _snake(name):
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return name.lower().strip("_")


def _match_name(text, names):
    """The longest of ``names`` that ``text`` starts with, ending at a word boundary."""
    best = None
    for n in names:
        if text == n or text.startswith(n + "_"):
            if best is None or len(n) > len(best):
                best = n
    return best


def infer_function(nodeid, names, calls=()):
    """The NumPy function a test targets: from its class or test name, else from its calls.

    ``TestSVDHermitian::test_sq_cases`` targets ``svd``, ``TestRegression::test_eig_build``
    targets ``eig``, ``test_matrix_norm`` targets ``matrix_norm``; a test whose names say
    nothing is attributed to the first public function it called, or to ``None``.
    """
    parts = nodeid.split("::")[1:]
    for part in parts:
        base = part.split("[")[0]
        if base.startswith("Test"):
            flat = base[4:].replace("_", "").lower()
            hit = flat if flat in names else _match_name(_snake(base[4:]), names)
        elif base.startswith("test_"):
            hit = _match_name(base[5:], names)
        else:
            hit = None
        if hit is not None:
            return hit
    for name in calls:
        if name in names:
            return name
    return None
