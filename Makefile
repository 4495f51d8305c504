# sanh: `make run` and `make test` bootstrap .venv by themselves on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test lint typecheck pytest bench clean browser

$(STAMP): pyproject.toml setup.py sanh/eval/_speedups.c
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/sanh serve

lint: install
	$(BIN)/ruff check sanh tests benchmarks
	$(BIN)/ruff format --check sanh tests benchmarks

typecheck: install
	$(BIN)/mypy --strict sanh

CHROMIUM ?= /usr/bin/chromium

# The web tests drive Debian's Chromium (never a downloaded browser): install it when missing.
browser:
	test -x $(CHROMIUM) || (apt-get update && apt-get install -y chromium)

# The suite runs on every core (pytest-xdist; PYTEST_WORKERS=0 runs it in one process).
PYTEST_WORKERS ?= auto

pytest: install browser
	$(BIN)/pytest -n $(PYTEST_WORKERS)

test: lint typecheck pytest

bench: install
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
