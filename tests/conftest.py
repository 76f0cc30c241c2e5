"""Shared fixtures: the jitted entry points are compiled (or loaded from the cache) once
per session, on tiny inputs, so that no test pays for compilation twice."""

from __future__ import annotations

import pytest

from belote_sim import Rules


@pytest.fixture(scope="session", autouse=True)
def warm_kernels() -> None:
    from belote_sim.studies.simulate import play_match, simulate, simulated_deals

    simulate(Rules(), deals=64, seed=0)
    simulated_deals(Rules(), 2, seed=0)
    play_match(Rules(), seed=0)


@pytest.fixture(scope="session")
def classic() -> Rules:
    return Rules.from_preset("classic")
