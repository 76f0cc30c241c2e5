"""The last tricks, without the general search.

The last trick is played out directly (every card is forced: :func:`_trick_end` gives
its winner and points), and with two tricks left (after the table and the bounds) a
plain depth-first search without table or ordering (:func:`_two_tricks`), written as
one nested function per card of the first trick, is cheaper than the general one.
"""

from __future__ import annotations

from collections import namedtuple

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import CAPOT_BONUS
from belote_sim.dd.table import (
    CX_LAST_BONUS,
    CX_N,
    CX_NODES,
    CX_PTS,
    CX_TAKER,
    CX_TAKERS,
    CX_TRUMP,
    INF,
)
from belote_sim.kernels.bits import ctz
from belote_sim.kernels.legal import legal_given_top
from belote_sim.kernels.trick import card_power, seat_after

#: What the search of the last two tricks keeps from start to end: the ``rules`` as
#: :func:`belote_sim.kernels.legal.rule_values` gives them, the solver ``context``
#: (:mod:`.table`), the ``hands`` (card masks), the search's ``tricks`` (the first of the
#: two tricks is ``tricks[2]``), the seat ``leader`` of that trick, and ``cap`` = 1 while
#: the takers have taken every trick so far.
LastTwo = namedtuple("LastTwo", ["rules", "context", "hands", "tricks", "leader", "cap"])


@jit(inline="always")
def _trick_end(cx, tb, left, n, leader, trump, last):
    """(winner seat, points) of the complete trick ``tb[left]``."""
    led = tb[left, 0] >> 3
    w = 0
    wp = card_power(tb[left, 0], led, trump)
    pts = cx[CX_PTS + tb[left, 0]]
    for i in range(1, n):
        p = card_power(tb[left, i], led, trump)
        pts += cx[CX_PTS + tb[left, i]]
        if p > wp:
            w = i
            wp = p
    if last:
        pts += cx[CX_LAST_BONUS]
    return seat_after(leader, w, n), pts


@jit(inline="always")
def _two_tricks_leaf(last, w, both):
    """Value for the takers once the first of the two tricks is complete (its winning
    card at place ``w``; ``last``: a :class:`LastTwo`): the last trick is forced.
    ``both``: the points of both tricks (the first trick's are what the second leaves of
    them)."""
    cx, hands, leader, cap = last.context, last.hands, last.leader, last.cap
    n = cx[CX_N]
    trump = cx[CX_TRUMP]
    w1 = seat_after(leader, w, n)
    led = -1
    w2 = w1
    wp = -1
    tp2 = 0
    for i in range(n):
        s = seat_after(w1, i, n)
        c = ctz(hands[s])
        if i == 0:
            led = c >> 3
        p = card_power(c, led, trump)
        tp2 += cx[CX_PTS + c]
        if p > wp:
            wp = p
            w2 = s
    tp = both - tp2
    tp2 += cx[CX_LAST_BONUS]
    t1 = cx[CX_TAKERS + w1] == 1
    t2 = cx[CX_TAKERS + w2] == 1
    v = (tp if t1 else 0) + (tp2 if t2 else 0)
    if cap and t1 and t2:
        v += CAPOT_BONUS
    return v


@jit(inline="always")
def _two_tricks_played(last, kk, w, wp, a, b, both):
    """Every card of the first trick played: the value of the forced last trick."""
    return _two_tricks_leaf(last, w, both)


def _first_trick_level(play_on):
    """The search of the first trick of the two when the seat to move plays card ``kk``
    of it, ``play_on`` searching what follows each card. One function per number of
    cards still to play (built by nesting these levels) makes a search of fixed depth
    without recursion, whose state stays in registers, where a frame-based loop would
    keep it in memory.

    The level tries each legal card of the seat to move (``last``: a :class:`LastTwo`),
    with the card winning the trick so far at place ``w`` (power ``wp``), in the window
    ``(a, b)``, and returns the fail-soft value; ``both`` as in :func:`_two_tricks_leaf`."""

    @jit(inline="always")
    def level(last, kk, w, wp, a, b, both):
        rules, cx, hands, tb, leader, _ = last
        n = cx[CX_N]
        seat = seat_after(leader, kk, n)
        if kk == 0:
            legal = hands[seat]
        else:
            legal = legal_given_top(
                rules, hands[seat], tb[2, 0] >> 3, tb[2, w], seat, seat_after(leader, w, n),
                cx[CX_TRUMP], cx[CX_TAKER],
            )[0]
        maximize = cx[CX_TAKERS + seat] == 1
        best = -INF if maximize else INF
        while legal != 0:
            c = ctz(legal)
            legal &= legal - 1
            cx[CX_NODES] += 1
            p = card_power(c, (c if kk == 0 else tb[2, 0]) >> 3, cx[CX_TRUMP])
            cw = w
            cwp = wp
            if kk == 0 or p > wp:
                cw = kk
                cwp = p
            hands[seat] ^= 1 << c
            tb[2, kk] = c
            v = play_on(last, kk + 1, cw, cwp, a, b, both)
            hands[seat] ^= 1 << c
            if maximize:
                if v > best:
                    best = v
                    if v > a:
                        a = v
            elif v < best:
                best = v
                if v < b:
                    b = v
            if a >= b:
                break
        return best

    return level


# _two_tricks_<i>: the search with i cards of the first trick still to play.
_two_tricks_1 = _first_trick_level(_two_tricks_played)
_two_tricks_2 = _first_trick_level(_two_tricks_1)
_two_tricks_3 = _first_trick_level(_two_tricks_2)
_two_tricks_4 = _first_trick_level(_two_tricks_3)


@jit_no_refcount
def _two_tricks(last, k, alpha, beta):
    """Fail-soft alpha-beta when two tricks remain (``last``: a :class:`LastTwo`; ``k``
    cards of the first already in ``last.tricks[2]``): a plain depth-first search over
    the at most two cards of each hand in the first trick, the last one being forced."""
    cx, hands, tb = last.context, last.hands, last.tricks
    n = cx[CX_N]
    trump = cx[CX_TRUMP]
    w = 0
    wp = -1
    if k > 0:
        led = tb[2, 0] >> 3
        wp = card_power(tb[2, 0], led, trump)
        for i in range(1, k):
            p = card_power(tb[2, i], led, trump)
            if p > wp:
                w = i
                wp = p
    # The points of both tricks: the first trick's are what the second leaves of them.
    both = 0
    for i in range(k):
        both += cx[CX_PTS + tb[2, i]]
    for s in range(n):
        h = hands[s]
        while h != 0:
            both += cx[CX_PTS + ctz(h)]
            h &= h - 1
    to_play = n - k
    if to_play == 4:
        return _two_tricks_4(last, k, w, wp, alpha, beta, both)
    if to_play == 3:
        return _two_tricks_3(last, k, w, wp, alpha, beta, both)
    if to_play == 2:
        return _two_tricks_2(last, k, w, wp, alpha, beta, both)
    return _two_tricks_1(last, k, w, wp, alpha, beta, both)
