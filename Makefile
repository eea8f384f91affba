# Every target installs what it needs into .venv first, so a fresh clone needs only Python.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: install run test unit conformance bench tune docs lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m linalgx

# Unit tests and the conformance suite run in separate processes: the conformance
# plugin patches numpy.linalg process-wide.
test: install
	$(PY) -m pytest -q -p no:cacheprovider tests
	$(PY) -m linalgx.conformance --suite all --quiet

unit: install
	$(PY) -m pytest -q tests

# NumPy's own tests on linalgx: make conformance BACKEND=numba CONFORMANCE_ARGS="-k TestSolve"
BACKEND ?= auto
conformance: install
	$(PY) -m linalgx.conformance --suite all --backend $(BACKEND) $(CONFORMANCE_ARGS)

bench: install
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) -m benchmarks $(BENCH_ARGS)

tune: install
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) -m benchmarks.tune

# HTML docs into docs/_build/html, warnings as errors; notebooks are executed during the build.
DOCS_STAMP := $(VENV)/.docs-installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[docs]"
	rm -f $(VENV)/.docs-installed-*
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(PY) -m sphinx -W --keep-going -b html docs docs/_build/html

lint: install
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
