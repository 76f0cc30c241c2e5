"""Numba kernels: every rule of the game, as jitted functions over bitmasks.

Importing this package decorates every kernel under the source-hashed cache directory
of :mod:`belote_sim._jit`; modules: ``bits``, ``rng``, ``layout``, ``deal``, ``legal``,
``trick``, ``declarations``, ``scoring``, ``game`` (one deal), ``simulate`` (chunks).
"""

from belote_sim._jit import kernel_cache

with kernel_cache():
    from belote_sim.kernels import (  # noqa: F401
        bits,
        deal,
        declarations,
        game,
        legal,
        rng,
        scoring,
        simulate,
        trick,
    )
    from belote_sim.policies import bidding, play  # noqa: F401
