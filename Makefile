# Quick start: `make run` and `make test` work on a fresh machine (they create .venv).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The mypyc-compiled build (tools/build_native.py): the modules of COMPILED in src/sanma/_accel.py,
# the one list — NATIVE_SOURCES is read from it (standard library only, no virtualenv needed).
NATIVE := src/sanma/_compiled/MANIFEST.json
NATIVE_SOURCES := $(shell $(PYTHON) tools/build_native.py --sources)

# The message catalogues (issue 24): each language's .po (in git) compiled to the .mo sanma reads (not in git).
# `make messages` extracts every marked sentence (babel.cfg) into the .po files; translate the new entries.
LOCALE := src/sanma/i18n/locale
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard $(LOCALE)/*/LC_MESSAGES/sanma.po))

.PHONY: install native native-sources run test test-fast lint typecheck bench docs messages clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,ray,postgres]'
	touch $(STAMP)

# A failed compile is not fatal: sanma then runs in pure Python (and the next make tries again).
$(NATIVE): $(STAMP) $(NATIVE_SOURCES) tools/build_native.py
	-$(PY) tools/build_native.py

# Byte-compile the sources as a regular (non-editable) pip install does: with PYTHONDONTWRITEBYTECODE
# set, Python would otherwise compile every pure module from source at each start (~0.1 s of a
# short `sanma` command; docs/PERFORMANCE.md). compileall skips what is up to date.
install: $(STAMP) $(NATIVE) $(CATALOGUES)
	@$(PY) -m compileall -q src > /dev/null

$(CATALOGUES): %.mo: %.po $(STAMP) tools/messages.py
	$(PY) tools/messages.py compile

messages: $(STAMP)
	$(PY) tools/messages.py update

native: $(STAMP)
	$(PY) tools/build_native.py

# What the compiled build is made from (tests/test_native.py checks it is _accel's list).
native-sources:
	@echo $(NATIVE_SOURCES)

# The browser table on this machine only; the lobby is at the URL printed (terminal play: sanma play).
# `make run PORT=8080 DB=club.sqlite` for another port or database. Ctrl-C (or a SIGTERM) stops it cleanly.
PORT ?= 8000
DB ?= sanma.sqlite
run: install
	@echo "sanma: open http://127.0.0.1:$(PORT)/"
	$(PY) -m sanma serve --host 127.0.0.1 --port $(PORT) --db $(DB)

lint: install
	$(PY) -m ruff check src tests benchmarks
	$(PY) -m mypy

test: install lint
	$(PY) -m pytest -q

# The pure layers and unit tests in under a minute (tests/conftest.py's FAST_MODULES say which:
# the slow modules are not even imported); `make test` before landing. pytest keeps its rewritten
# test modules in tests/__pycache__ even where PYTHONDONTWRITEBYTECODE is set (a tenth of the run).
test-fast: install
	$(PY) -m ruff check src tests benchmarks
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -m "not slow"

bench: install
	$(PY) benchmarks/run.py

docs: install
	$(PY) -m sanma rules docs --lang en > docs/RULES.md
	$(PY) -m sanma rules docs --lang ja > docs/RULES.ja.md

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info src/sanma/_compiled $(CATALOGUES)
