"""Quick bounds at trick boundaries with more than two tricks left, which cut the search
short (``OPT_BOUNDS``). With two left, the two-trick search
(:func:`.endgame._two_tricks`) costs less than they do: the search skips them there.

The takers cannot get less than 0 nor more than the points left; in a suit contract a
side surely takes the points of its trumps that beat every trump of the other side, and
a defenders' such trump rules out the capot (the capot flag is then cleared, so the
table merges positions) (:func:`_trump_bounds`); the leader surely cashes the cards that
beat every other card of their suit when nobody can ruff them (trumps, no trump suit,
or the others' trumps drawn first by the leader's top trumps), with the others' cheapest
cards of those suits -- and when such cards are all the leader holds, the leader's side
takes every trick left (an exact value) (:func:`_cash_bounds`).
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import ALL_TRUMPS, PLAIN_ABOVE, TRUMP_ABOVE
from belote_sim.dd.table import (
    CX_PTS,
    CX_TAKERS,
    PLAIN_DESC,
    TRUMP_DESC,
    _is_trump_suit,
)
from belote_sim.kernels.bits import ctz, popcount


def _above_top(desc: np.ndarray, above: np.ndarray) -> np.ndarray:
    """``table[ranks]``: the ranks above every rank of ``ranks`` in the order ``desc``
    (all eight when ``ranks`` is empty)."""
    out = np.full(256, 0xFF, dtype=np.int64)
    for m in range(1, 256):
        top = next(int(r) for r in desc if m >> int(r) & 1)
        out[m] = above[top]
    return out


ABOVE_TOP = _above_top(TRUMP_DESC, TRUMP_ABOVE)  # in trump order
ABOVE_TOP_PLAIN = _above_top(PLAIN_DESC, PLAIN_ABOVE)


@jit(inline="always")
def _mask_points(cx, m):
    pts = 0
    while m != 0:
        pts += cx[CX_PTS + ctz(m)]
        m &= m - 1
    return pts


@jit_no_refcount
def _trump_bounds(cx, hands, n, trump):
    """Sure points at a trick boundary of a suit contract: ``(takers' lower bound,
    whether the defenders surely win a trick, defenders' sure points)``.

    A trump above every trump of the other side wins its trick for its own side (the
    trick goes to the highest trump in it, which is of that side): a side surely takes
    the points of all its such trumps."""
    shift = 8 * trump
    tk = 0
    df = 0
    for s in range(n):
        t = (hands[s] >> shift) & 0xFF
        if cx[CX_TAKERS + s]:
            tk |= t
        else:
            df |= t
    hi_t = tk & ABOVE_TOP[df]
    hi_d = df & ABOVE_TOP[tk]
    lo = _mask_points(cx, hi_t << shift) if hi_t != 0 else 0
    dpts = _mask_points(cx, hi_d << shift) if hi_d != 0 else 0
    return lo, hi_d != 0, dpts


@jit_no_refcount
def _cash_bounds(cx, hands, n, trump, leader):
    """What the leader at a trick boundary surely cashes: ``(points, tricks)``.

    A card of the leader above every card of its suit in the other hands wins the trick
    it leads when no other hand can ruff it (it is a trump, or the contract has no
    trump suit, or no other hand holds a trump -- or will, once the leader's top trumps
    have drawn them): the followers cannot beat it, so the leader wins and leads again,
    and such cards stay such as the leader plays them. The other hands follow suit to
    these leads with their cheapest cards at best.
    ``tricks`` counts them all; ``points`` leaves out the trumps of a suit contract,
    already counted by :func:`_trump_bounds`."""
    mine = hands[leader]
    others = 0
    for s in range(n):
        if s != leader:
            others |= hands[s]
    suit_contract = trump < ALL_TRUMPS
    ruff = False
    if suit_contract:
        # The leader's top trumps draw the others' trumps first when they are at least
        # as many as the longest trump holding among the other hands (each must follow).
        draw = popcount((mine >> (8 * trump)) & ABOVE_TOP[(others >> (8 * trump)) & 0xFF])
        for s in range(n):
            if s != leader and popcount((hands[s] >> (8 * trump)) & 0xFF) > draw:
                ruff = True
    pts = 0
    tricks = 0
    for suit in range(4):
        mb = (mine >> (8 * suit)) & 0xFF
        if mb == 0:
            continue
        ob = (others >> (8 * suit)) & 0xFF
        above = ABOVE_TOP[ob] if _is_trump_suit(suit, trump) else ABOVE_TOP_PLAIN[ob]
        top = mb & above
        if top == 0:
            continue
        if suit_contract and suit == trump:
            tricks += popcount(top)
        elif not ruff:
            j = popcount(top)
            tricks += j
            pts += _mask_points(cx, top << (8 * suit))
            # Each other hand follows suit to these leads with as many of its cards of
            # the suit: at least its cheapest ones.
            desc = TRUMP_DESC if _is_trump_suit(suit, trump) else PLAIN_DESC
            for s in range(n):
                if s == leader:
                    continue
                hs = (hands[s] >> (8 * suit)) & 0xFF
                if hs == 0:
                    continue
                cnt = j
                for i in range(7, -1, -1):
                    if cnt == 0:
                        break
                    if (hs >> desc[i]) & 1:
                        pts += cx[CX_PTS + 8 * suit + desc[i]]
                        cnt -= 1
    return pts, tricks
