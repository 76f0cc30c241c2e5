"""Trick resolution and partnerships (RULES.md sections 3 and 6)."""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.cards import (
    ALL_TRUMPS,
    N_CARDS,
    NO_TRUMPS,
    PLAIN_STRENGTH,
    POINTS,
    SUITS,
    TRUMP_STRENGTH,
)
from belote_sim.kernels.bits import nonneg
from belote_sim.rules import R_KING_VALUE, R_NT_VALUES


def _power(card: int, led_suit: int, trump: int) -> int:
    """How strongly ``card`` contends for a trick led in ``led_suit``; -1 cannot win.

    Trumps of a suit contract rank above every card of the suit led; in all-trumps
    and no-trumps only the suit led can win, in trump order and plain order.
    """
    suit = card >> 3
    rank = card & 7
    trumped = suit == trump  # never in all-trumps (4) or no-trumps (5)
    if not (trumped or suit == led_suit):
        return -1
    in_trump_order = trumped or trump == ALL_TRUMPS
    strength = int(TRUMP_STRENGTH[rank] if in_trump_order else PLAIN_STRENGTH[rank])
    return strength + 16 if trumped else strength


#: ``POWER[trump, led_suit, card]``: how strongly each card contends for a trick (see
#: :func:`card_power`), as a table: a card's power is one load, with no branch to
#: mispredict (in a trick of random cards whether a card is a trump or follows is a
#: coin toss), and a loop that knows the suit led holds its row.
POWER = np.array([[[_power(card, led, trump) for card in range(N_CARDS)]
                   for led in range(len(SUITS))] for trump in range(NO_TRUMPS + 1)],
                 dtype=np.int64)


@jit(inline="always")
def card_power(card, led_suit, trump):
    """How strongly ``card`` contends for a trick led in ``led_suit`` under ``trump``; -1
    cannot win (:data:`POWER`).

    Hearts trumps, a club led: the jack of hearts beats the ace of clubs, which beats
    the seven of clubs; the ace of spades cannot win.

    >>> from belote_sim.cards import parse_card
    >>> [int(card_power(parse_card(c), 0, 2)) for c in ("JH", "AC", "7C", "AS")]
    [23, 7, 0, -1]
    """
    return POWER[trump, led_suit, card]


@jit(inline="always")
def trick_card_points(rules, trick, n, trump):
    """Card points of the ``n`` cards of ``trick`` under ``trump`` and the rules' point
    options (RULES 2), the last trick's bonus not included: what the trick loop and the
    heuristic playouts score for each trick."""
    k10 = 1 if rules[R_KING_VALUE] == 10 else 0
    points = POINTS[k10, rules[R_NT_VALUES], trump]
    if n == 4:  # written out: the general loop is vectorised for tricks of 8 cards
        return points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
    pts = 0
    for j in range(n):
        pts += points[trick[j]]
    return pts


@jit(inline="always")
def trick_winner(trick, k, trump):
    """Position (0..k-1) of the card winning the first ``k`` cards of ``trick``.

    Wrapped for Python by :func:`belote_sim.kernels.api.trick_winner`.
    """
    power = POWER[trump, trick[0] >> 3]
    best = 0
    best_power = power[trick[0]]
    for i in range(1, k):
        p = power[trick[i]]
        if p > best_power:
            best = i
            best_power = p
    return best


@jit(inline="always")
def seat_after(seat, k, n_players):
    """The seat ``k`` places after ``seat`` in turn order (``0 <= k < n_players``).

    Hot loops use this instead of ``%``: an integer division costs more than a card play.
    """
    s = seat + k
    return nonneg(s - n_players if s >= n_players else s)


@jit(inline="always")
def side_of(seat, n_players, taker):
    """Side of a seat: seat parity with four players, the seat itself with two, and with
    three players 0 for the taker and 1 for the two defenders (who are partners)."""
    if n_players == 4:
        return seat & 1
    if n_players == 2:
        return seat
    return 0 if seat == taker else 1


@jit(inline="always")
def are_partners(a, b, n_players, taker):
    """True when seats ``a`` and ``b`` are different players of the same side."""
    if a == b or n_players == 2:
        return False
    return side_of(a, n_players, taker) == side_of(b, n_players, taker)
