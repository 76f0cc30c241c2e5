# `make run` and `make test` do all the set-up on a fresh machine (Python >= 3.10).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## The main job: a classic simulation of 1,000,000 deals, random play, summary printed.
run: $(STAMP)
	$(BIN)/belote-sim simulate --rules classic --deals 1000000 --seed 1 --out results/classic-default

## The whole test suite (ruff and the import layers first: either failing fails the build).
test: $(STAMP)
	$(BIN)/ruff check belote_sim tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_presets.py
	$(BIN)/python benchmarks/bench_players.py

lint: $(STAMP)
	$(BIN)/ruff check belote_sim tests benchmarks
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
