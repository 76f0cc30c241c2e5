"""Move generation and ordering: which cards the search tries, and in what order.

- equivalent cards collapsed: two cards of one hand, adjacent in rank among the cards
  still in play (the current trick included) and worth the same points, lead to the
  same outcomes, so only one is searched (:func:`candidates`; the others take the value
  of their :func:`_representative`);
- move ordering: the table's best lead first, then the last two leads that caused a
  cutoff with as many tricks left (killer moves), then cheap rules of thumb (leads: a
  card no other hand beats in its suit, then a low card to a partner holding the suit's
  best card, then a low card; followers: give points to a partner who holds the trick,
  unless an opponent still to play can beat it and our card cannot be beaten; win as
  cheaply as possible, first with a card no opponent still to play can beat; otherwise
  discard cheaply), ties by a history of cutoffs (per seat and place in the trick). The
  table move and the killers are applied by the search (:mod:`.search`); the rules of
  thumb are :func:`_lead_score` and :func:`_order_score`.

Per-suit lookup tables replace loops over ranks where a node needs them (the cards
worth searching, the best card of a suit).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import ALL_TRUMPS, PLAIN_ABOVE, TRUMP_ABOVE
from belote_sim.dd.table import (
    CX_OPTS,
    CX_PROFILE,
    CX_PTS,
    CX_TAKERS,
    CX_TRUMP,
    KEEP,
    OPT_COLLAPSE,
    PLAIN_DESC,
    TRUMP_DESC,
    _is_trump_suit,
)
from belote_sim.kernels.bits import nonneg
from belote_sim.kernels.trick import card_power, seat_after


def _positions(desc: np.ndarray) -> np.ndarray:
    out = np.zeros(8, dtype=np.int64)
    for i, r in enumerate(desc):
        out[r] = i
    return out


PLAIN_POS = _positions(PLAIN_DESC)  # rank -> place in PLAIN_DESC (0 = strongest)
TRUMP_POS = _positions(TRUMP_DESC)


def _top_rank(desc: np.ndarray) -> np.ndarray:
    """``table[ranks]``: the strongest rank of ``ranks`` (non-empty) in the order ``desc``."""
    out = np.zeros(256, dtype=np.int64)
    for m in range(1, 256):
        out[m] = next(int(r) for r in desc if m >> int(r) & 1)
    return out


TOP_RANK = _top_rank(TRUMP_DESC)  # in trump order
TOP_RANK_PLAIN = _top_rank(PLAIN_DESC)


@jit_no_refcount
def candidates(cx, legal, in_play):
    """The legal cards worth searching: one card of each run of equivalent cards (same
    hand, adjacent in rank among ``in_play`` -- the cards of every hand and of the
    current trick -- and worth the same points). Without ``OPT_COLLAPSE``: ``legal``."""
    if cx[CX_OPTS] & OPT_COLLAPSE == 0:
        return legal
    out = 0
    for suit in range(4):
        bits = (legal >> (8 * suit)) & 0xFF
        if bits != 0:
            r = (in_play >> (8 * suit)) & 0xFF
            out |= np.int64(KEEP[nonneg(cx[CX_PROFILE + suit]), r, bits]) << (8 * suit)
    return out


@jit
def _representative(cx, c, moves):
    """The searched card standing for ``c``: the nearest card of ``moves`` above it in
    its suit (the cards between are of the same hand, equivalent, and not searched)."""
    suit = c >> 3
    if _is_trump_suit(suit, cx[CX_TRUMP]):
        desc = TRUMP_DESC
        pos = TRUMP_POS[c & 7]
    else:
        desc = PLAIN_DESC
        pos = PLAIN_POS[c & 7]
    for i in range(pos, -1, -1):
        d = 8 * suit + desc[i]
        if (moves >> d) & 1:
            return d
    return c


@jit(inline="always")
def _opponents_reach(cx, hands, leader, k, n, seat, led, trump):
    """The highest power (:func:`card_power`) the opponents of ``seat`` who play after
    it in the trick can reach with a card they may play: their best card of the suit
    led, or their best trump when they have none (-1: none can)."""
    reach = -1
    for i in range(k + 1, n):
        s = seat_after(leader, i, n)
        if cx[CX_TAKERS + s] == cx[CX_TAKERS + seat]:
            continue
        suit = led
        bits = (hands[s] >> (8 * led)) & 0xFF
        if bits == 0 and trump < ALL_TRUMPS:
            suit = trump
            bits = (hands[s] >> (8 * trump)) & 0xFF
        if bits != 0:
            top = TOP_RANK[bits] if _is_trump_suit(suit, trump) else TOP_RANK_PLAIN[bits]
            reach = max(reach, card_power(8 * suit + top, led, trump))
    return reach


#: What the ``seat`` to play a card of a trick faces, the same for each card it may play:
#: its place ``k`` in the trick, the suit ``led``, the power ``w_power`` of the card
#: winning so far (:func:`card_power`), whether that card is a partner's
#: (``partner_wins``) and the ``reach`` of the opponents still to play
#: (:func:`_opponents_reach`).
Follow = namedtuple("Follow", ["seat", "k", "led", "w_power", "partner_wins", "reach"])


@jit(inline="always")
def _order_score(cx, hist, follow, c, trump):
    """Higher first: a cheap guess at the best card ``c`` for ``follow``'s seat (a
    :class:`Follow`; only the search order depends on it). When a partner holds the
    trick: secure it with a card the opponents still to play cannot beat if they can
    beat the partner's, otherwise give points. Else: win as cheaply as possible with a
    card they cannot beat, then with one they can, otherwise discard cheaply. Ties (and
    leads) by their history of cutoffs."""
    seat, k, led, w_power, partner_wins, reach = follow
    h = hist[4 * k + seat, c]
    if k == 0:
        return h
    pts = cx[CX_PTS + c]
    power = card_power(c, led, trump)
    if partner_wins:
        if w_power <= reach < power:
            return (3 << 50) - (power << 40) + h  # secure the trick
        return (1 << 50) + (pts << 40) + h  # give points
    if power > w_power and power > reach:
        return (3 << 50) - (power << 40) + h  # win for sure, cheaply
    if power > w_power:
        return (2 << 50) - (power << 40) + h  # win for now, cheaply
    return (1 << 49) - (pts << 40) + h  # discard cheaply


@jit(inline="always")
def _lead_score(cx, hist, seat, c, others, partners, trump):
    """Order of the leads (higher first): a card no other hand can beat in its suit,
    then a low card to a partner who holds the suit's best card, then a low card; ties
    by history."""
    suit = c >> 3
    rank = c & 7
    h = hist[seat, c]
    pts = cx[CX_PTS + c]
    theirs = (others >> (8 * suit)) & 0xFF
    if _is_trump_suit(suit, trump):
        top = theirs & TRUMP_ABOVE[rank]
        best = TOP_RANK[top]  # the best card of the suit among the other hands
    else:
        top = theirs & PLAIN_ABOVE[rank]
        best = TOP_RANK_PLAIN[top]
    if top == 0:
        return (3 << 50) + (pts << 40) + h
    if (partners >> (8 * suit + best)) & 1:
        return (2 << 50) - (pts << 40) + h
    return (1 << 50) - (pts << 40) + h
