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
def heuristic_choice(legal, hands, view):
    """The ``heuristic`` policy's card for the seat of ``view``, called by the trick loop
    directly: no solver kit crosses the call (passing its arrays to a compiled function
    costs a reference count of each, several times the cost of the heuristic's own
    work), and the integers are pinned to int64 (the view's by the trick loop) so that
    it is compiled once."""
    return heuristic_card(np.int64(legal), np.int64(hands[view.seat]), view)


@jit(inline="always")
def choose_card(policy, param, rules, legal, hands, view, rng, kit):
    """The card the seat of ``view`` plays (see :func:`_choose_card`): the policy, its
    parameter and the legal mask are passed on as plain int64 and float64 (and the
    view's integers are int64, :func:`~belote_sim.game.tricks.play_tricks`), so that the
    policies are compiled once, not once per literal argument of the deal functions."""
    return _choose_card(np.int64(policy), np.float64(param), rules, np.int64(legal), hands,
                        view, rng, kit)


@jit_refcounted
def _choose_card(policy, param, rules, legal, hands, view, rng, kit):
    """The card the seat of ``view`` (:class:`~belote_sim.players.seating.SeatView`)
    plays by play policy ``policy`` with parameter ``param``: ``legal`` is its legal
    mask; a fair policy looks only at what the seat may see (its own hand
    ``hands[view.seat]``, the view, and the knowledge ``kit.know``); only ``dd`` looks
    at the other hands. The stock game's free tricks are played by the heuristic. The
    trick loop calls :func:`random_card` and :func:`heuristic_choice` directly for
    ``random`` and ``heuristic``."""
    if policy == PLAY_RANDOM:
        return random_card(legal, rng)
    if policy == PLAY_HEURISTIC or view.free:
        return heuristic_card(legal, hands[view.seat], view)
    if policy in (PLAY_PIMC, PLAY_FASTPIMC):
        worlds = int(param) if param >= 1 else DEFAULT_WORLDS
        return pimc_card(rules, worlds, legal, hands, view, rng, kit,
                         EXACT_TRICKS if policy == PLAY_FASTPIMC else ALWAYS_EXACT)
    if policy == PLAY_DD:
        return dd_card(rules, legal, hands, view, kit)
    return ctz(legal)
