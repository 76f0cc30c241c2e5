"""The ``dd`` bidder of the retourne bidding: of the contracts it may call, the one whose
chance of making is highest, if that chance reaches its parameter. The chance is the
share of a few random completions of the deal (``DD_BID_SAMPLES``) in which the bidder,
as taker, reaches more than half the card points under double-dummy play
(:func:`make_chance`, one null-window query of :mod:`belote_sim.dd` each).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim import dd
from belote_sim._jit import jit, jit_refcounted
from belote_sim.cards import ALL_TRUMPS
from belote_sim.dd.kit import kit_solver, use_context
from belote_sim.kernels.calls import round_two_suits
from belote_sim.kernels.layout import CALL_AT, CALL_NT, CALL_PASS, CALL_SUIT, CALL_TAKE
from belote_sim.kernels.rng import rand_below
from belote_sim.kernels.scoring import deal_total
from belote_sim.kernels.trick import seat_after
from belote_sim.players.seating import NOT_COMPILED
from belote_sim.rules import R_SECOND_ROUND, SECOND_ROUND_ANY

#: What the bidder sees at its turn: its ``hand`` (a card mask, the retourne apart),
#: the ``retourne`` (a card), its ``seat``, the auction's ``first_hand`` (the seat who
#: leads the first trick) and the number of players ``n``.
BidView = namedtuple("BidView", ["hand", "retourne", "seat", "first_hand", "n"])


@jit
def _make_target(rules, trump):
    """Card points the takers need to beat the defenders on cards alone: more than half
    of the deal's total."""
    return deal_total(rules, trump) // 2 + 1


@jit
def make_chance(rules, kit, bidder, trump, samples, rng):
    """Share of ``samples`` random completions of the deal in which the seat of
    ``bidder`` (a :class:`BidView`), taking ``trump`` with its hand and the retourne,
    reaches more than half the card points under double-dummy play (one null-window
    query each)."""
    hand, retourne, seat, fh, n = bidder
    cx = kit.context
    solver = kit_solver(rules, kit)
    use_context(cx, rules, trump, seat)
    target = _make_target(rules, trump)
    mine = hand | (1 << retourne)
    unseen = np.empty(32, dtype=np.int64)
    n_unseen = 0
    for c in range(32):
        if not (mine >> c) & 1:
            unseen[n_unseen] = c
            n_unseen += 1
    world = np.zeros(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    made = 0
    for _ in range(samples):
        dd.new_generation(cx)
        for i in range(n_unseen - 1, 0, -1):
            j = rand_below(rng, i + 1)
            t = unseen[i]
            unseen[i] = unseen[j]
            unseen[j] = t
        world[:] = 0
        world[seat] = mine
        pos = 0
        for _ in range(2):  # the taker's two more cards
            world[seat] |= 1 << unseen[pos]
            pos += 1
        for i in range(1, n):
            s = seat_after(seat, i, n)
            for _ in range(8):
                world[s] |= 1 << unseen[pos]
                pos += 1
        if dd.dd_reaches(solver, dd.Position(world, trick, 0, fh, 1), target):
            made += 1
    return made / samples


#: Sampled completions per candidate contract of the ``dd`` bidder.
DD_BID_SAMPLES = 8


@jit_refcounted
def dd_call(rules, kit, param, rnd, bidder, rng):
    """The ``dd`` bidder's call (its view: ``bidder``, a :class:`BidView`) in round
    ``rnd`` of the retourne bidding: the contract
    (round 1 the retourne's suit; round 2 the best suit it may name, the retourne's
    included with ``second_round = any``; round 3 all-trumps or no-trumps) whose chance
    of making, by :func:`make_chance` over ``DD_BID_SAMPLES`` completions, is highest,
    if it reaches ``param``; else pass. (``kit`` ``None``: not compiled in.)"""
    if kit is None:
        return NOT_COMPILED
    turned = bidder.retourne >> 3
    if rnd == 1:
        p = make_chance(rules, kit, bidder, turned, DD_BID_SAMPLES, rng)
        return CALL_TAKE if p >= param else CALL_PASS
    best = -1.0
    best_call = CALL_PASS
    nameable = round_two_suits(turned, rules[R_SECOND_ROUND] == SECOND_ROUND_ANY)
    for t in range(6):
        if (rnd == 2 and (t >= ALL_TRUMPS or ((nameable >> t) & 1) == 0)) or (
            rnd == 3 and t < ALL_TRUMPS
        ):
            continue
        p = make_chance(rules, kit, bidder, t, DD_BID_SAMPLES, rng)
        if p > best:
            best = p
            best_call = CALL_SUIT + t if t < ALL_TRUMPS else (
                CALL_AT if t == ALL_TRUMPS else CALL_NT
            )
    return best_call if best >= param else CALL_PASS
