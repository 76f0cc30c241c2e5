"""Card-play policies.

* ``random``: a uniformly random legal card.
* ``heuristic``: rules of thumb of a club player, in
  :mod:`belote_sim.play.heuristic`.
* ``pimc:N``, ``fastpimc:N`` (their worlds given the calls; ``:uniform``, not) and
  ``dd``: the double-dummy solver's players, in :mod:`belote_sim.play.pimc`.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, jit_refcounted
from belote_sim.kernels.bits import ctz, nth_bit, popcount
from belote_sim.kernels.rng import below_from
from belote_sim.play.heuristic import heuristic_card_apart
from belote_sim.play.pimc import (
    ALWAYS_EXACT,
    EXACT_TRICKS,
    Pimc,
    dd_card,
    pimc_card,
    pimc_values,
)
from belote_sim.players.registry import (
    DEFAULT_WORLDS,
    FASTPIMC_PLAYS,
    PIMC_PLAYS,
    PLAY_DD,
    PLAY_FASTPIMC,
    PLAY_HEURISTIC,
    PLAY_PIMC,
    PLAY_RANDOM,
)
from belote_sim.players.seating import NOT_COMPILED, at_seat


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
def choose_card(players, rules, legal, hands, view, rng, kit):
    """The card the seat of ``view`` plays (see :func:`_choose_card`), its legal mask
    passed on as int64 (and the view's integers are int64,
    :func:`~belote_sim.game.tricks.play_tricks`), so that the policies are compiled
    once, not once per literal argument of the deal functions."""
    return _choose_card(players, rules, np.int64(legal), hands, view, rng, kit)


@jit_refcounted
def _choose_card(players, rules, legal, hands, view, rng, kit):
    """The card the seat of ``view`` (:class:`~belote_sim.players.seating.SeatView`)
    plays by its play policy in ``players``: ``legal`` is its legal mask; a fair policy
    looks only at what the seat may see (its own hand ``hands[view.seat]``, the view,
    the knowledge ``kit.know``, and the other seats' bidders, whose calls it reads);
    only ``dd`` looks at the other hands. The stock game's free tricks are played by the
    heuristic. The trick loop draws the ``random`` card and asks the ``heuristic``
    directly."""
    policy = at_seat(players.play, view.seat)
    param = at_seat(players.play_param, view.seat)
    if policy == PLAY_RANDOM:
        return random_card(legal, rng)
    if policy == PLAY_HEURISTIC or view.free:
        return heuristic_card_apart(legal, hands[view.seat], view)
    if kit is None:  # the solver players are not compiled in (players.seating)
        return NOT_COMPILED
    if policy in PIMC_PLAYS:
        return pimc_card(rules, pimc_of(policy, param), legal, hands, view, rng, kit, players)
    if policy == PLAY_DD:
        return dd_card(rules, legal, hands, view, kit)
    return ctz(legal)


@jit(inline="always")
def pimc_of(policy, param):
    """The :class:`~belote_sim.play.pimc.Pimc` of a ``pimc`` or ``fastpimc`` policy
    with parameter ``param`` (its worlds)."""
    worlds = int(param) if param >= 1 else DEFAULT_WORLDS
    fast = policy in FASTPIMC_PLAYS
    given = policy in (PLAY_PIMC, PLAY_FASTPIMC)
    return Pimc(worlds, EXACT_TRICKS if fast else ALWAYS_EXACT, given)


@jit_refcounted
def valued_card(players, rules, legal, hands, view, rng, kit):
    """The card of the seat of ``view`` when a seat asks its player for it
    (:func:`belote_sim.game.state.deciding`): a ``pimc`` player also values every legal
    card when it has a choice (:func:`~belote_sim.play.pimc.pimc_values`, in
    ``kit.analysis``); the other players, and a forced card, as :func:`_choose_card`."""
    policy = at_seat(players.play, view.seat)
    if kit is not None and policy in PIMC_PLAYS and not view.free and popcount(legal) > 1:
        pimc = pimc_of(policy, at_seat(players.play_param, view.seat))
        return pimc_values(rules, pimc, np.int64(legal), hands, view, rng, kit, players)
    return _choose_card(players, rules, np.int64(legal), hands, view, rng, kit)
