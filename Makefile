# cardrules: `make demo` to see it play, `make test` for the whole suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip

.PHONY: demo test install lint typecheck unit docs serve bench compile clean schemas

# Everything (tests, docs, browser, simulation): what `make test` and `make docs` need.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e '.[dev]'
	touch $(VENV)/.installed-lib
	touch $@

# The library alone (its own few dependencies): all `make demo` needs, in seconds.
$(VENV)/.installed-lib: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet -e .
	touch $@

install: $(VENV)/.installed

demo: $(VENV)/.installed-lib
	$(VENV)/bin/cardrules demo

lint: install
	$(VENV)/bin/ruff check cardrules tests benchmarks
	$(VENV)/bin/ruff format --check cardrules

typecheck: install
	$(VENV)/bin/mypy cardrules

unit: install
	$(VENV)/bin/pytest

docs: install
	$(VENV)/bin/mkdocs build --strict

serve: install
	$(VENV)/bin/mkdocs serve -a 127.0.0.1:8000

test: install
	$(VENV)/bin/ruff check cardrules tests benchmarks
	$(VENV)/bin/mypy cardrules
	$(VENV)/bin/pytest

# Regenerate the shipped JSON Schemas (cardrules/schemas/) after a View or
# Result field changes; tests/test_schema.py checks they are up to date.
schemas: install
	$(PY) -c "from cardrules.schema_build import write_schemas; write_schemas()"

bench: install
	$(PY) benchmarks/bench_engine.py

# The engine compiled with mypyc into the venv (CARDRULES_COMPILE=require: a
# failed compile stops here, naming the module mypyc failed on, instead of
# installing pure Python); `rm $(VENV)/.installed && make install` goes back to
# the editable pure-Python install. Measure it with
# `$(PY) benchmarks/bench_engine.py --installed`.
compile: install
	CARDRULES_COMPILE=require $(PIP) install --no-deps --force-reinstall .

clean:
	rm -rf $(VENV) site .mypy_cache .ruff_cache .pytest_cache .hypothesis
