"""Card-play policies.

* ``random``: a uniformly random legal card.
* ``heuristic``: deterministic rules of thumb of a club player, from what the seat may
  see (its hand, the trick, every card played, trump, the taker). A card is *master*
  when no unseen card of its suit beats it. "Cheapest" means fewest points, then
  lowest rank, keeping trumps; "richest" means most points, keeping the jack and nine
  of trumps.

  - **Leading**: the taker's side leads its master trump while the opponents may still
    hold trumps (to draw them); otherwise the richest master card of a plain suit;
    otherwise its cheapest card.
  - **Partner winning**: when the partner's card is master, or the seat plays last, it
    gives the richest legal card; otherwise it plays its cheapest.
  - **Opponent winning**: the cheapest legal card that wins the trick so far, if any;
    otherwise the cheapest card.
* ``pimc:N`` and ``dd``: the double-dummy solver's players, in
  :mod:`belote_sim.policies.solver_play`.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.cards import ALL_TRUMPS, JACK, NINE, PLAIN_ABOVE, POINTS, TRUMP_ABOVE
from belote_sim.kernels.bits import nth_bit, popcount
from belote_sim.kernels.clock import cycles
from belote_sim.kernels.rng import rand_below
from belote_sim.kernels.trick import are_partners, card_power, seat_after, side_of
from belote_sim.policies import (
    DEFAULT_WORLDS,
    PLAY_DD,
    PLAY_HEURISTIC,
    PLAY_PIMC,
    PLAY_RANDOM,
    PLAY_SIDES,
)
from belote_sim.policies.solver_play import (
    STAT_CYCLES,
    STAT_DECISIONS,
    dd_card,
    pimc_card,
)

_FULL = 0xFFFFFFFF


@jit(inline="always")
def _is_trump(card, trump):
    return trump == ALL_TRUMPS or (trump < ALL_TRUMPS and card >> 3 == trump)


@jit
def _is_master(card, unseen, trump):
    suit = card >> 3
    above = TRUMP_ABOVE[card & 7] if _is_trump(card, trump) else PLAIN_ABOVE[card & 7]
    return unseen & (above << (8 * suit)) == 0


@jit
def _cheapest(cards, trump):
    """Fewest points, then not a trump, then lowest rank; -1 for an empty set."""
    best = -1
    best_key = 1 << 30
    m = cards
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        key = POINTS[0, 0, trump, c] * 1000 + (500 if _is_trump(c, trump) else 0)
        key += card_power(c, c >> 3, trump)
        if key < best_key:
            best_key = key
            best = c
    return best


@jit
def _richest(cards, trump):
    """Most points, keeping the jack and nine of trumps when anything else is legal."""
    best = -1
    best_key = -(1 << 30)
    m = cards
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        key = POINTS[0, 0, trump, c] * 100 - card_power(c, c >> 3, trump)
        if _is_trump(c, trump) and ((c & 7) == JACK or (c & 7) == NINE):
            key -= 100_000
        if key > best_key:
            best_key = key
            best = c
    return best


@jit
def heuristic_card(legal, hand, trick, k, leader, played, trump, taker, n):
    """The ``heuristic`` policy's card (see the module docstring)."""
    seat = seat_after(leader, k, n)
    unseen = _FULL ^ (played | hand)
    if k == 0:
        if trump < ALL_TRUMPS and side_of(seat, n, taker) == side_of(taker, n, taker):
            mine = legal & (0xFF << (8 * trump))
            if mine != 0 and unseen & (0xFF << (8 * trump)) != 0:
                top = -1
                top_power = -1
                m = mine
                while m != 0:
                    c = nth_bit(m, 0)
                    m &= m - 1
                    if card_power(c, trump, trump) > top_power:
                        top_power = card_power(c, trump, trump)
                        top = c
                if _is_master(top, unseen, trump):
                    return top
        masters = 0
        m = legal
        while m != 0:
            c = nth_bit(m, 0)
            m &= m - 1
            if not _is_trump(c, trump) and _is_master(c, unseen, trump):
                masters |= 1 << c
        if masters != 0:
            return _richest(masters, trump)
        return _cheapest(legal, trump)
    led = trick[0] >> 3
    w = 0
    w_power = card_power(trick[0], led, trump)
    for i in range(1, k):
        p = card_power(trick[i], led, trump)
        if p > w_power:
            w = i
            w_power = p
    if are_partners(seat, seat_after(leader, w, n), n, taker):
        if k == n - 1 or _is_master(trick[w], unseen, trump):
            return _richest(legal, trump)
        return _cheapest(legal, trump)
    winners = 0
    m = legal
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        if card_power(c, led, trump) > w_power:
            winners |= 1 << c
    if winners != 0:
        best = -1
        best_power = 1 << 30
        m = winners
        while m != 0:
            c = nth_bit(m, 0)
            m &= m - 1
            p = card_power(c, led, trump)
            if p < best_power:
                best_power = p
                best = c
        return best
    return _cheapest(legal, trump)


@jit(inline="always")
def random_card(legal, rng):
    """The ``random`` policy: a uniformly random card of the legal mask."""
    return nth_bit(legal, rand_below(rng, popcount(legal)))


@jit
def _one_policy(policy, param, rules, legal, hands, seat, trick, k, leader, played, trump,
                taker, n, rng, sv, cap, free):
    if policy == PLAY_RANDOM:
        return random_card(legal, rng)
    if policy == PLAY_HEURISTIC or free:
        return heuristic_card(legal, hands[seat], trick, k, leader, played, trump, taker, n)
    if policy == PLAY_PIMC:
        worlds = int(param) if param >= 1 else DEFAULT_WORLDS
        return pimc_card(
            rules, worlds, legal, hands, seat, trick, k, leader, played, trump, taker, n,
            rng, sv, cap,
        )
    if policy == PLAY_DD:
        return dd_card(rules, legal, hands, seat, trick, k, leader, trump, taker, sv, cap)
    return nth_bit(legal, 0)


@jit(inline="always")
def choose_card(policy, params, rules, legal, hands, seat, trick, k, leader, played, trump,
                taker, n, rng, sv, cap, free):
    """The card ``seat`` plays (see :func:`_choose_card`): the integers are passed on as
    plain int64, so that the policies are compiled once, not once per literal argument
    of the deal functions (``n = 4``, ``played = 0``...)."""
    return _choose_card(
        np.int64(policy), params, rules, np.int64(legal), hands, np.int64(seat), trick,
        np.int64(k), np.int64(leader), np.int64(played), np.int64(trump), np.int64(taker),
        np.int64(n), rng, sv, np.int64(cap), free,
    )


@jit
def _choose_card(policy, params, rules, legal, hands, seat, trick, k, leader, played, trump,
                 taker, n, rng, sv, cap, free):
    """The card ``seat`` plays: ``legal`` is its legal mask; a fair policy looks only at
    what the seat may see (its own hand ``hands[seat]``, the trick so far, every card
    played, trump, the taker, the number of players, and the knowledge ``sv[3]``); only
    ``dd`` looks at the other hands. ``cap`` is 1 while the takers have taken every
    trick, ``free`` is true in the stock game's free tricks. The trick loop calls
    :func:`random_card` directly for ``random``.

    ``PLAY_SIDES`` (the arena) gives side 0 (seats 0 and 2; seat 0 with two or three
    players) the policy ``params[0]`` with parameter ``params[1]``, the other seats
    ``params[2]`` with ``params[3]``, and times each side's decisions in ``sv[4]``.
    """
    if policy != PLAY_SIDES:
        return _one_policy(
            policy, params[0], rules, legal, hands, seat, trick, k, leader, played, trump,
            taker, n, rng, sv, cap, free,
        )
    side = (seat & 1) if n == 4 else (0 if seat == 0 else 1)
    start = cycles()
    card = _one_policy(
        int(params[2 * side]), params[2 * side + 1], rules, legal, hands, seat, trick, k,
        leader, played, trump, taker, n, rng, sv, cap, free,
    )
    stats = sv[4]
    stats[STAT_CYCLES + side] += cycles() - start
    stats[STAT_DECISIONS + side] += 1
    return card
