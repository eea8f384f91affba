"""Sphinx configuration for the linalgx docs (``make docs``: HTML, warnings are errors)."""
import json
import os
import pathlib
import sys
import tempfile

DOCS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))

import linalgx  # noqa: E402

project = "linalgx"
author = "the linalgx developers"
copyright = "the linalgx developers, BSD-3-Clause"
version = release = linalgx.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "linalgx_docs",
]

exclude_patterns = ["_build", "_generated", "_data", "jupyter_execute", "**.ipynb_checkpoints"]
default_role = "code"

autosummary_generate = True
autosummary_generate_overwrite = True
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Notebooks are stored without outputs; myst-nb runs them during the build (set
# LINALGX_DOCS_EXECUTE=0 for a quick build that shows them unexecuted).
nb_execution_mode = "auto" if os.environ.get("LINALGX_DOCS_EXECUTE", "1") != "0" else "off"
nb_execution_timeout = 120
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
myst_enable_extensions = ["dollarmath"]


def _venv_kernel():
    """A ``python3`` kernelspec for THIS interpreter, first on JUPYTER_PATH, so notebooks run
    in the environment that builds the docs whatever kernels the user has installed."""
    root = pathlib.Path(tempfile.mkdtemp(prefix="linalgx-docs-kernel-"))
    spec = root / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (linalgx docs)", "language": "python"}))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(root), *filter(None, [os.environ.get("JUPYTER_PATH")])])
    os.environ.setdefault("MPLBACKEND", "Agg")


_venv_kernel()

html_theme = "pydata_sphinx_theme"
html_title = f"linalgx {release}"
html_static_path = ["_static"]
html_css_files = ["linalgx.css"]
html_theme_options = {
    "navbar_align": "left",
    "header_links_before_dropdown": 6,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# top-level pages and notebooks have no section navigation to show; the API pages do
html_sidebars = {"*": [], "notebooks/*": []}
html_show_sourcelink = False
