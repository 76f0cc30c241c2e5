"""Numba kernels: every rule of the game, as jitted functions over bitmasks.

Importing this package decorates every kernel under the source-hashed cache directory
of :mod:`belote_sim._jit`; modules: ``bits``, ``rng``, ``layout``, ``deal``, ``legal``,
``trick``, ``declarations``, ``scoring``, ``game`` (one deal), ``counting`` (counters of a
run), ``simulate`` (chunks), ``odds`` (declaration odds of one hand), ``dd`` (the
double-dummy solver), ``clock`` (a cycle counter for timing decisions).
"""

from belote_sim._jit import kernel_cache

with kernel_cache():
    from belote_sim.kernels import (  # noqa: F401
        bits,
        clock,
        coinche,
        counting,
        dd,
        deal,
        declarations,
        game,
        legal,
        odds,
        phases,
        play,
        rng,
        scoring,
        simulate,
        trick,
        twoplayer,
    )
    from belote_sim.policies import (  # noqa: F401
        bidding,
        coinche_bidding,
        solver_play,  # noqa: F401
    )
    from belote_sim.policies import play as play_policies  # noqa: F401
