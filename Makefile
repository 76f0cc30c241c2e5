# `make run` and `make test` do all the set-up on a fresh machine (Python >= 3.10).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-plain bench lint docs atlas study install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

## The package and its tools, installed by uv (one small wheel from the package index, then
## every dependency fetched and unpacked in parallel, far faster than pip); by pip where uv
## cannot be had.
$(STAMP): $(BIN)/python pyproject.toml
	{ $(BIN)/python -m pip install --quiet uv \
		&& $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[dev]'; } \
	|| { $(BIN)/python -m pip install --quiet --upgrade pip \
		&& $(BIN)/python -m pip install --quiet -e '.[dev]'; }
	touch $(STAMP)

install: $(STAMP)

## The main job: 1,000,000 classic deals between realistic players (threshold bidding,
## heuristic play): the headline figures printed, the run directory and its report
## (results/classic/report.html, plots in results/classic/plots/) written.
run: $(STAMP)
	$(BIN)/belote-sim simulate --rules classic --deals 1000000 --seed 1 --out results/classic --report

## The whole test suite: ruff and the import layers first (either failing fails the build);
## then the kernels compiled once in one process (tests/warm.py) while, at a lower
## priority, the kernels' plain-Python tests and the tests that need none of those kernels
## (marked beside_warm: the wheel's commands as plain Python, a first run in a cache of
## its own; their output follows) run beside it; then the other tests, one worker a core
## (pytest-xdist: the suite waits on subprocesses and installs as much as on kernels), each
## file's tests in one worker (a kernel they need beyond the warm-up's is compiled once,
## not by every worker), printing the 15 slowest.
test: $(STAMP)
	$(BIN)/ruff check belote_sim tests benchmarks docs
	$(BIN)/lint-imports
	$(BIN)/python tests/warm.py & warm=$$!; \
		nice $(BIN)/python -m pytest -q -p no:cacheprovider -m beside_warm tests \
			> $(VENV)/beside-warm.log 2>&1 & beside=$$!; \
		nice $(MAKE) --no-print-directory test-plain; plain=$$?; \
		wait $$beside; early=$$?; cat $(VENV)/beside-warm.log; \
		wait $$warm && test $$plain -eq 0 && test $$early -eq 0
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not beside_warm" --durations=15

## The rule, game and player tests again with NUMBA_DISABLE_JIT=1: the kernels run as plain
## Python (what a debugger or coverage sees), with their line coverage reported, one worker a
## core (pytest-cov gathers the workers' coverage). The solver's and the odds' tests are left
## out: too slow without the compiler, and so are the tests marked many_deals (a statistic
## of thousands of deals). (Without the compiler numpy warns where uint64
## arithmetic wraps, as it does in the kernels.)
PLAIN_TESTS := tests/test_classic_rules.py tests/test_two_player.py tests/test_three_player.py \
	tests/test_tout_atout.py tests/test_no_contract_4p.py tests/test_coinche.py \
	tests/test_heuristic_play.py tests/test_shuffle_cut.py
test-plain: $(STAMP)
	NUMBA_DISABLE_JIT=1 COVERAGE_FILE=$(VENV)/.coverage-plain $(BIN)/python -m pytest -q \
		-n auto -p no:cacheprovider -W ignore::RuntimeWarning -m "not many_deals" \
		--cov=belote_sim/kernels --cov=belote_sim/game --cov=belote_sim/players \
		--cov=belote_sim/bid --cov=belote_sim/play --cov=belote_sim/infer --cov=belote_sim/dd \
		--cov-report=term $(PLAIN_TESTS)

## The benchmarks; the peer engine they measure beside ours (colver, Rust, on PyPI) comes
## with the dev extra. Last, benchmarks/figures.py keeps the sitting's figures in
## docs/figures.json and writes docs/performance.md and the README's speed lines from them.
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_phases.py
	$(BIN)/python benchmarks/bench_presets.py
	$(BIN)/python benchmarks/bench_players.py
	$(BIN)/python benchmarks/bench_strength.py
	$(BIN)/python benchmarks/bench_compare.py
	$(BIN)/python benchmarks/bench_vs_colver.py --pairs 10 --out results/bench_vs_colver.json
	$(BIN)/python benchmarks/bench_worlds.py
	$(BIN)/python benchmarks/bench_cold.py
	$(BIN)/python benchmarks/figures.py

## The generated parts of the docs: docs/metrics.md's tables (from belote_sim.stats.METRICS
## and the per-deal row schema), docs/design.md's picture of the layers (docs/layers.py),
## and docs/performance.md with the README's speed lines from the last sitting of `make
## bench` (docs/figures.json).
docs: $(STAMP)
	$(BIN)/python -c "from belote_sim.stats import write_metrics_doc; write_metrics_doc()"
	$(BIN)/python docs/layers.py
	$(BIN)/python benchmarks/figures.py --render

## The bid atlases the package ships (belote_sim/data/: classic and coinche, fixed deals and
## seeds, belote_sim.studies.atlas.SHIPPED) and the table bidder's lookups derived from them.
## About 3 minutes on 2 cores (the kernels compiled). The lookups reach the kernels as arrays:
## nothing recompiles afterwards.
atlas: $(STAMP)
	$(BIN)/python -c "from belote_sim.studies.atlas import ship_atlases; ship_atlases()"

## The published study (results/README.md, results/plots/, results/tables/): every part
## from fixed seeds, about 17 minutes on 2 cores (belote_sim/studies/study.py); its runs are
## committed under results/runs/, so after Ctrl-C `make study` resumes where it stopped.
study: $(STAMP)
	$(BIN)/belote-sim study --out results

lint: $(STAMP)
	$(BIN)/ruff check belote_sim tests benchmarks docs
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
