"""Card-play policies.

* ``random``: a uniformly random legal card.
* ``heuristic``: rules of thumb of a club player, in
  :mod:`belote_sim.players.heuristic`.
* ``pimc:N``, ``fastpimc:N`` and ``dd``: the double-dummy solver's players, in
  :mod:`belote_sim.players.pimc`.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, jit_refcounted
from belote_sim.kernels.bits import ctz, nth_bit, popcount
from belote_sim.kernels.rng import below_from
from belote_sim.players import (
    DEFAULT_WORLDS,
    PLAY_DD,
    PLAY_FASTPIMC,
    PLAY_HEURISTIC,
    PLAY_PIMC,
    PLAY_RANDOM,
)
from belote_sim.players.heuristic import heuristic_card
from belote_sim.players.pimc import ALWAYS_EXACT, EXACT_TRICKS, dd_card, pimc_card


@jit(inline="always")
def random_card(legal, rng):
    """The ``random`` policy: a uniformly random card of the legal mask."""
    card, z = random_card_from(legal, rng[0])
    rng[0] = z
    return card


@jit(inline="always")
def random_card_from(legal, z):
    """:func:`random_card` from a stream whose state ``z`` a loop holds in a local:
    ``(card, next state)``."""
    i, z = below_from(z, popcount(legal))
    return nth_bit(legal, i), z


@jit(inline="always")
def heuristic_choice(legal, hands, seat, trick, k, leader, played, trump, taker, n):
    """The ``heuristic`` policy's card, called by the trick loop directly: no solver kit
    crosses the call (passing its arrays to a compiled function costs a reference count
    of each, several times the cost of the heuristic's own work), and the integers are pinned
    to int64 so that it is compiled once."""
    return heuristic_card(
        np.int64(legal), np.int64(hands[seat]), trick, np.int64(k), np.int64(leader),
        np.int64(played), np.int64(trump), np.int64(taker), np.int64(n),
    )


@jit(inline="always")
def choose_card(policy, param, rules, legal, hands, seat, trick, k, leader, played, trump,
                taker, n, rng, kit, cap, free):
    """The card ``seat`` plays (see :func:`_choose_card`): the integers are passed on as
    plain int64, so that the policies are compiled once, not once per literal argument
    of the deal functions (``n = 4``, ``played = 0``...)."""
    return _choose_card(
        np.int64(policy), np.float64(param), rules, np.int64(legal), hands, np.int64(seat),
        trick, np.int64(k), np.int64(leader), np.int64(played), np.int64(trump),
        np.int64(taker), np.int64(n), rng, kit, np.int64(cap), free,
    )


@jit_refcounted
def _choose_card(policy, param, rules, legal, hands, seat, trick, k, leader, played, trump,
                 taker, n, rng, kit, cap, free):
    """The card ``seat`` plays by play policy ``policy`` with parameter ``param``:
    ``legal`` is its legal mask; a fair policy looks only at what the seat may see (its
    own hand ``hands[seat]``, the trick so far, every card played, trump, the taker, the
    number of players, and the knowledge ``kit.know``); only ``dd`` looks at the other
    hands. ``cap`` is 1 while the takers have taken every trick, ``free`` is true in the
    stock game's free tricks. The trick loop calls :func:`random_card` and
    :func:`heuristic_choice` directly for ``random`` and ``heuristic``."""
    if policy == PLAY_RANDOM:
        return random_card(legal, rng)
    if policy == PLAY_HEURISTIC or free:
        return heuristic_card(legal, hands[seat], trick, k, leader, played, trump, taker, n)
    if policy in (PLAY_PIMC, PLAY_FASTPIMC):
        worlds = int(param) if param >= 1 else DEFAULT_WORLDS
        return pimc_card(
            rules, worlds, legal, hands, seat, trick, k, leader, played, trump, taker, n,
            rng, kit, cap, EXACT_TRICKS if policy == PLAY_FASTPIMC else ALWAYS_EXACT,
        )
    if policy == PLAY_DD:
        return dd_card(rules, legal, hands, seat, trick, k, leader, trump, taker, kit, cap)
    return ctz(legal)
