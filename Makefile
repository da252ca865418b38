# Quick start: `make run` and `make test` work on a fresh machine (they create .venv).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test lint typecheck bench docs clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m sanma play --rules tenhou

lint: install
	$(PY) -m ruff check src tests benchmarks
	$(PY) -m mypy

test: install lint
	$(PY) -m pytest -q

bench: install
	$(PY) benchmarks/run.py

docs: install
	$(PY) -m sanma rules docs > docs/RULES.md

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
