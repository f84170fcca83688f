# The two commands a new user runs: `make demo` and `make test`. Both create .venv from nothing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo bench lint typecheck clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable '.[dev]'
	touch $@

## test: create/update .venv, install, run the whole suite (doctests included)
test: $(STAMP)
	$(PY) -m pytest -q

## demo: until the live page lands, referee and narrate a seeded random game in the terminal
demo: $(STAMP)
	$(VENV)/bin/dice-referee play --players 4 --seed 2026 --record game-record.jsonl

## bench: measure the rules engine (games per second, time per turn)
bench: $(STAMP)
	$(PY) bench/bench_referee.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
