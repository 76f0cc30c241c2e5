"""The kernels every test needs, compiled (or loaded from the cache) once.

The session fixture in conftest.py calls `warm`. `make test` also runs this file on its
own before pytest, beside the plain-Python tests: the kernels then compile once, in one
process, while the other cores run those tests. Left to the fixture alone, each pytest
worker compiles the same kernels at the same time.
"""

from __future__ import annotations

import os

# Every kernel with every family's deal functions and every player's code
# (belote_sim._jit.COMPILE_ALL), set before belote_sim is imported and inherited by the
# CLI's subprocesses: the suite plays every rule set with many players, and one
# compilation of each kernel for all of them costs less than one per family and player.
# The tests of the pruning itself build their players explicitly or run without it.
os.environ["BELOTE_SIM_COMPILE_ALL"] = "1"


def warm() -> None:
    """Play a few deals through each kind of kernel: the chunk, the logged deal, the match,
    the replay of a deal log (most rule tests replay one). The chunk compiles the deal
    into its own code; the others call the deal's cached kernel
    (``deals.play_deal_cached``), compiled here once with them. A kernel left to the
    workers would be compiled by each worker whose tests need it."""
    from belote_sim import Rules
    from belote_sim.deallog.replay import replay
    from belote_sim.studies.simulate import play_match, simulate, simulated_deals

    simulate(Rules(), deals=64, seed=0)
    logged = simulated_deals(Rules(), 2, seed=0)
    play_match(Rules(), seed=0)
    replay(logged[0])


if __name__ == "__main__":
    warm()
