"""Execute every notebook under docs/notebooks (stored without outputs) with nbclient.

The kernel is THIS interpreter (the venv's python), through a kernelspec written to a temp
directory placed first on JUPYTER_PATH, so a fresh clone needs no ``ipykernel install`` and a
user's own ``python3`` kernel never gets picked up instead.
"""
import json
import pathlib
import sys
import time

import pytest

for _name in ("nbformat", "nbclient", "ipykernel", "matplotlib"):
    pytest.importorskip(_name, reason=f"{_name} is not installed (pip install -e '.[test]')")
import nbclient  # noqa: E402
import nbformat  # noqa: E402

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "notebooks"
TIMEOUT = 60  # seconds per notebook, all cells together
KERNEL = "linalgx-test-python"


@pytest.fixture(scope="module")
def kernel_name(tmp_path_factory, monkeypatch_module):
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "linalgx tests", "language": "python",
        "env": {"MPLBACKEND": "Agg"}}))
    monkeypatch_module.setenv("JUPYTER_PATH", str(root))
    return KERNEL


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def _notebooks():
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def test_notebooks_exist():
    assert _notebooks(), f"no notebooks under {NOTEBOOKS}"


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: p.stem)
def test_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    dirty = [i for i, c in enumerate(nb.cells)
             if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
    assert not dirty, f"{path.name}: cells {dirty} have stored outputs; clear them"


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: p.stem)
def test_notebook_runs(path, kernel_name):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, kernel_name=kernel_name, timeout=TIMEOUT, allow_errors=False,
        resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    # nbclient's timeout is per cell; the whole notebook must also fit in TIMEOUT
    client.execute()
    elapsed = time.perf_counter() - start
    print(f"{path.name}: {elapsed:.1f} s")
    assert elapsed < TIMEOUT, f"{path.name} took {elapsed:.1f} s (limit {TIMEOUT} s)"
