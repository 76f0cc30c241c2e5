"""Shared fixtures: the jitted entry points are compiled (or loaded from the cache) once
per session, on tiny inputs, so that no test pays for compilation twice."""

from __future__ import annotations

import os

# Every kernel with every family's deal functions and every player's code
# (belote_sim._jit.COMPILE_ALL), set before belote_sim is imported and inherited by the
# CLI's subprocesses: the suite plays every rule set with many players, and one
# compilation of each kernel for all of them costs less than one per family and player.
# The tests of the pruning itself build their players explicitly or run without it.
os.environ["BELOTE_SIM_COMPILE_ALL"] = "1"

import pytest  # noqa: E402

from belote_sim import Rules  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def warm_kernels() -> None:
    from belote_sim.studies.simulate import play_match, simulate, simulated_deals

    simulate(Rules(), deals=64, seed=0)
    simulated_deals(Rules(), 2, seed=0)
    play_match(Rules(), seed=0)


@pytest.fixture(scope="session")
def classic() -> Rules:
    return Rules.from_preset("classic")
