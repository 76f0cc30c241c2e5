"""Card-play policies.

* ``random``: a uniformly random legal card.
"""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.kernels.bits import nth_bit, popcount
from belote_sim.kernels.rng import rand_below
from belote_sim.policies import PLAY_RANDOM


@jit(inline="always")
def choose_card(policy, params, legal, hand, trick, k, leader, played, trump, taker, rng):
    """The card a seat plays: ``legal`` is its legal mask, the other arguments are all it
    may see (own hand, the trick so far, every card played, trump, taker)."""
    if policy == PLAY_RANDOM:
        return nth_bit(legal, rand_below(rng, popcount(legal)))
    return nth_bit(legal, 0)
