"""Shared fixtures: the jitted entry points are compiled (or loaded from the cache) once
per session, on tiny inputs, so that no test pays for compilation twice."""

from __future__ import annotations

import pytest
from warm import warm  # first: it sets BELOTE_SIM_COMPILE_ALL before belote_sim is imported

from belote_sim import Rules


@pytest.fixture(scope="session", autouse=True)
def warm_kernels() -> None:
    warm()


@pytest.fixture(scope="session")
def classic() -> Rules:
    return Rules.from_preset("classic")
