"""Run the Examples section of every public docstring as a doctest, one test per function.

Covers linalgx, linalgx.linalg, linalgx.fft and linalgx.special, taking public names from
each module's ``__all__`` (or, without one, the public callables defined in linalgx), so new
functions are picked up automatically. As in NumPy's docs, ``np`` is predefined; everything
else an example uses it imports itself.
"""
import doctest
import importlib
import inspect

import numpy as np
import pytest

MODULES = ("linalgx", "linalgx.linalg", "linalgx.fft", "linalgx.special")
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _public(modname):
    try:
        module = importlib.import_module(modname)
    except Exception:  # noqa: BLE001  (a module still being written: reported by a skip)
        return []
    names = getattr(module, "__all__", None)
    explicit = names is not None
    if names is None:
        names = sorted(n for n in dir(module) if not n.startswith("_"))
    out = []
    for name in names:
        try:
            obj = getattr(module, name)
        except Exception:  # noqa: BLE001
            out.append((f"{modname}.{name}", None))
            continue
        if inspect.ismodule(obj) or not callable(obj):
            continue
        if not explicit and not getattr(obj, "__module__", "").startswith("linalgx"):
            continue
        out.append((f"{modname}.{name}", obj))
    return out


PUBLIC = [item for m in MODULES for item in _public(m)]

# Examples known to fail, each with the module that must fix it. Strict: a fixed example
# fails here as XPASS until its entry is removed.
KNOWN_FAILURES = {}


@pytest.mark.parametrize("modname", MODULES)
def test_module_imports(modname):
    importlib.import_module(modname)


CASES = [pytest.param(q, o, id=q, marks=pytest.mark.xfail(reason=KNOWN_FAILURES[q], strict=True))
         if q in KNOWN_FAILURES else pytest.param(q, o, id=q) for q, o in PUBLIC]


@pytest.mark.parametrize("qualname,obj", CASES)
def test_docstring_examples(qualname, obj):
    if obj is None:
        pytest.fail(f"{qualname} is listed as public but fails to import")
    if not getattr(obj, "__module__", "").startswith("linalgx"):
        pytest.skip(f"{qualname} is {obj.__module__}'s object; its docstring is tested there")
    finder = doctest.DocTestFinder(recurse=False, exclude_empty=True)
    tests = [t for t in finder.find(obj, qualname, globs={"np": np}) if t.examples]
    if not tests:
        pytest.skip(f"{qualname} has no Examples section")
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = []
    failed = sum(runner.run(test, out=report.append).failed for test in tests)
    assert not failed, f"{qualname}: {failed} example(s) failed\n" + "".join(report)
