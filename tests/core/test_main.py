"""``python -m linalgx`` (``make run``) runs end to end."""
import subprocess
import sys


def test_main_job_runs(tmp_path):
    out = subprocess.run([sys.executable, "-m", "linalgx", "--skip-conformance"],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "backends:" in out.stdout and "numpy/linalgx" in out.stdout


def test_main_job_reaches_the_conformance_entry_point():
    from linalgx.conformance.__main__ import main as conformance_main

    from linalgx.__main__ import main  # noqa: F401
    assert callable(conformance_main)
