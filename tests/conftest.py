"""Shared fixtures: the jitted entry points are compiled (or loaded from the cache) once
per session, on tiny inputs, so that no test pays for compilation twice."""

from __future__ import annotations

import pytest
from warm import warm  # first: it sets BELOTE_SIM_COMPILE_ALL before belote_sim is imported

from belote_sim import Rules


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "beside_warm: uses none of the suite's kernels (its commands run as plain Python "
        "or compile into a cache of their own): `make test` runs it while tests/warm.py "
        "compiles them",
    )
    config.addinivalue_line(
        "markers",
        "many_deals: plays thousands of deals for a statistic; left out of the "
        "plain-Python pass (make test-plain), where the kernels run a hundred times slower",
    )


@pytest.fixture(scope="session", autouse=True)
def warm_kernels(request: pytest.FixtureRequest) -> None:
    """The kernels compiled or loaded, unless every test of the session is
    ``beside_warm``."""
    if all(item.get_closest_marker("beside_warm") for item in request.session.items):
        return
    warm()


@pytest.fixture(scope="session")
def classic() -> Rules:
    return Rules.from_preset("classic")
