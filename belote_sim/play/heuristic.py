"""The ``heuristic`` card player, and a whole deal played out by it.

``heuristic`` plays deterministic rules of thumb of a club player, from what the seat
may see (its hand, the trick, every card played, trump, the taker). A card is *master*
when no unseen card of its suit beats it. "Cheapest" means fewest points, then lowest
rank, keeping trumps; "richest" means most points, keeping the jack and nine of trumps.

- **Leading**: the taker's side leads its master trump while the opponents may still
  hold trumps (to draw them); otherwise the richest master card of a plain suit;
  otherwise its cheapest card.
- **Partner winning**: when the partner's card is master, or the seat plays last, it
  gives the richest legal card; otherwise it plays its cheapest.
- **Opponent winning**: the cheapest legal card that wins the trick so far, if any;
  otherwise the cheapest card.

:func:`heuristic_playout` plays the rest of a deal with this player in every seat, each
seeing only its own hand: ``fastpimc`` values a card in a sampled world by it while the
deal is young (:mod:`belote_sim.play.pimc`).
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, jit_no_refcount, python_form
from belote_sim.cards import (
    ALL_TRUMPS,
    CAPOT_BONUS,
    JACK,
    LAST_TRICK_BONUS,
    N_CARDS,
    NINE,
    NO_TRUMPS,
    PLAIN_ABOVE,
    POINTS,
    TRUMP_ABOVE,
)
from belote_sim.kernels.bits import ctz
from belote_sim.kernels.legal import legal_given_winner
from belote_sim.kernels.trick import (
    POWER,
    are_partners,
    card_power,
    seat_after,
    side_of,
    trick_card_points,
    trick_winner,
)
from belote_sim.players.seating import SeatView
from belote_sim.rules import R_NT_VALUES

_FULL = 0xFFFFFFFF


@jit(inline="always")
def _is_trump(card, trump):
    return trump == ALL_TRUMPS or (trump < ALL_TRUMPS and card >> 3 == trump)


@jit
def _is_master(card, unseen, trump):
    suit = card >> 3
    above = TRUMP_ABOVE[card & 7] if _is_trump(card, trump) else PLAIN_ABOVE[card & 7]
    return unseen & (above << (8 * suit)) == 0


@jit(inline="always")
def _cheap_key(c, trump):
    """The order of :func:`_cheapest` (lowest first): fewest points, then not a trump,
    then lowest rank."""
    key = POINTS[0, 0, trump, c] * 1000 + (500 if _is_trump(c, trump) else 0)
    return key + card_power(c, c >> 3, trump)


@jit(inline="always")
def _rich_key(c, trump):
    """The order of :func:`_richest` (highest first): most points, then lowest rank,
    the jack and nine of trumps last."""
    key = POINTS[0, 0, trump, c] * 100 - card_power(c, c >> 3, trump)
    if _is_trump(c, trump) and ((c & 7) == JACK or (c & 7) == NINE):
        key -= 100_000
    return key


def _key_tables() -> np.ndarray:
    """``KEYS[0, trump, card]``: :func:`_cheap_key`; ``KEYS[1, trump, card]``:
    :func:`_rich_key`. The choice loops read a key by one load instead of working it
    out for every card they look at."""
    cheap, rich = python_form(_cheap_key), python_form(_rich_key)
    keys = np.zeros((2, NO_TRUMPS + 1, N_CARDS), dtype=np.int64)
    for trump in range(NO_TRUMPS + 1):
        for c in range(N_CARDS):
            keys[0, trump, c] = cheap(c, trump)
            keys[1, trump, c] = rich(c, trump)
    return keys


KEYS = _key_tables()


def _order_tables() -> tuple[np.ndarray, np.ndarray]:
    """The orders of :func:`_cheapest` (``q = 0``, lowest :func:`_cheap_key` first) and
    :func:`_richest` (``q = 1``, highest :func:`_rich_key` first), ties to the lower
    card: ``BY_PLACE[q, trump, r]`` is the card in place ``r``; ``PLACES[q, trump, b,
    v]`` holds, as bits of a mask, the places of the cards of byte ``b`` of a card mask
    whose bits there are ``v``. The first card of a mask in an order is then four loads
    and a ``ctz``: no loop, whose exit after a varying count of cards is mispredicted."""
    by_place = np.zeros((2, NO_TRUMPS + 1, N_CARDS), dtype=np.int64)
    places = np.zeros((2, NO_TRUMPS + 1, 4, 256), dtype=np.int64)
    bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1  # bits[v, j]
    for q, sign in ((0, 1), (1, -1)):
        for trump in range(NO_TRUMPS + 1):
            order = sorted(range(N_CARDS), key=lambda c: (sign * KEYS[q, trump, c], c))
            place = np.empty(N_CARDS, dtype=np.int64)
            place[order] = np.arange(N_CARDS)
            by_place[q, trump] = order
            for b in range(4):
                places[q, trump, b] = bits @ (np.int64(1) << place[8 * b : 8 * b + 8])
    return by_place, places


BY_PLACE, PLACES = _order_tables()


@jit(inline="always")
def _first_in_order(cards, q, trump):
    """The first card of ``cards`` in the order ``q`` of :func:`_order_tables`; -1 for
    an empty set."""
    if cards == 0:
        return -1
    places = PLACES[q, trump]
    mask = (places[0, cards & 0xFF] | places[1, (cards >> 8) & 0xFF]
            | places[2, (cards >> 16) & 0xFF] | places[3, (cards >> 24) & 0xFF])
    return BY_PLACE[q, trump, ctz(mask)]


@jit
def _cheapest(cards, trump):
    """Fewest points, then not a trump, then lowest rank; -1 for an empty set."""
    return _first_in_order(cards, 0, trump)


@jit
def _richest(cards, trump):
    """Most points, keeping the jack and nine of trumps when anything else is legal."""
    return _first_in_order(cards, 1, trump)


def _heuristic_card(legal, hand, view):
    """The ``heuristic`` policy's card (see the module docstring) of the seat of
    ``view`` (:class:`~belote_sim.players.seating.SeatView`), holding ``hand``, whose
    legal cards are ``legal``; compiled as :func:`heuristic_card` and
    :func:`heuristic_card_apart`."""
    seat, trick, k, leader, played = view.seat, view.trick, view.k, view.leader, view.played
    trump, taker, n = view.trump, view.taker, view.n
    unseen = _FULL ^ (played | hand)
    if k == 0:
        if trump < ALL_TRUMPS and side_of(seat, n, taker) == side_of(taker, n, taker):
            mine = legal & (0xFF << (8 * trump))
            if mine != 0 and unseen & (0xFF << (8 * trump)) != 0:
                power = POWER[trump, trump]
                top = -1
                top_power = -1
                m = mine
                while m != 0:
                    c = ctz(m)
                    m &= m - 1
                    if power[c] > top_power:
                        top_power = power[c]
                        top = c
                if _is_master(top, unseen, trump):
                    return top
        masters = 0
        m = legal
        while m != 0:
            c = ctz(m)
            m &= m - 1
            if not _is_trump(c, trump) and _is_master(c, unseen, trump):
                masters |= 1 << c
        if masters != 0:
            return _richest(masters, trump)
        return _cheapest(legal, trump)
    led = trick[0] >> 3
    w = trick_winner(trick, k, trump)
    power = POWER[trump, led]
    w_power = power[trick[w]]
    if are_partners(seat, seat_after(leader, w, n), n, taker):
        if k == n - 1 or _is_master(trick[w], unseen, trump):
            return _richest(legal, trump)
        return _cheapest(legal, trump)
    winners = 0
    m = legal
    while m != 0:
        c = ctz(m)
        m &= m - 1
        if power[c] > w_power:
            winners |= 1 << c
    if winners != 0:
        best = -1
        best_power = 1 << 30
        m = winners
        while m != 0:
            c = ctz(m)
            m &= m - 1
            p = power[c]
            if p < best_power:
                best_power = p
                best = c
        return best
    return _cheapest(legal, trump)


#: The heuristic's card compiled into its caller, for the mass runs' trick loop
#: (:func:`belote_sim.game.tricks.trick_loop`), which asks it every card: a call would
#: copy every field of the view it is handed.
heuristic_card = jit(inline="always")(_heuristic_card)
#: The heuristic's card as a kernel of its own, for every other caller: the general
#: trick loop is compiled into each game's deal function, and a copy of the heuristic in
#: each would lengthen a first run's compilation.
heuristic_card_apart = jit_no_refcount(_heuristic_card)


@jit(inline="always")
def view_after(view, trick, card):
    """The view of the seat after ``view``'s once it has played ``card``: ``trick`` holds
    the cards of ``view.trick`` and ``card`` (a copy the caller made, for
    :func:`heuristic_playout` to play out in place)."""
    k = view.k + 1
    return SeatView(seat_after(view.leader, k, view.n), trick, k, view.leader,
                    view.played | (1 << card), view.trump, view.taker, view.n, view.cap,
                    view.free)


@jit
def heuristic_playout(rules, hands, view):
    """The takers' card points still to take when every seat plays the heuristic card
    from the position of ``view`` (:class:`~belote_sim.players.seating.SeatView`) on:
    ``trick[:k]`` on the table, led by ``leader``; ``played`` every card played, the
    trick's included; ``cap`` 1 while the takers have won every trick. Counted as the
    solver counts them (:mod:`belote_sim.dd`): the cards of the tricks they win
    (this one included), the last trick's bonus, and the capot bonus when ``cap`` and
    they win every trick left. ``hands`` and the view's ``trick`` are played out in
    place; free tricks (stock game) are not modelled.

    The last trick, hearts trumps, seat 0 (a taker) on lead with the jack; the capot
    bonus counts when the takers have won every trick so far:

    >>> import numpy as np
    >>> from belote_sim import Rules
    >>> from belote_sim.cards import mask_of, parse_cards
    >>> def last_trick(cap):
    ...     hands = np.array([mask_of(parse_cards(h)) for h in ("JH", "7S", "8S", "AS")])
    ...     played = 0xFFFFFFFF & ~int(hands.sum())
    ...     view = SeatView(0, np.zeros(4, dtype=np.int64), 0, 0, played, 2, 0, 4, cap, False)
    ...     return heuristic_playout(Rules().to_array(), hands, view)
    >>> last_trick(cap=0), last_trick(cap=1)
    (41, 131)
    """
    trick, k, leader, played = view.trick, view.k, view.leader, view.played
    trump, taker, n, cap = view.trump, view.taker, view.n, view.cap
    takers = side_of(taker, n, taker)
    value = 0
    w = trick_winner(trick, k, trump) if k > 0 else 0
    w_power = card_power(trick[w], trick[0] >> 3, trump) if k > 0 else -1
    while True:
        for j in range(k, n):
            seat = seat_after(leader, j, n)
            if j == 0:
                legal = hands[seat]
            else:
                legal, _ = legal_given_winner(
                    rules, hands[seat], trick, j, leader, trump, taker, w
                )
            c = heuristic_card(legal, hands[seat], SeatView(seat, trick, j, leader, played, trump,
                                                            taker, n, cap, False))
            trick[j] = c
            hands[seat] ^= 1 << c
            played |= 1 << c
            p = card_power(c, trick[0] >> 3, trump)
            if p > w_power:
                w = j
                w_power = p
        winner = seat_after(leader, w, n)
        pts = trick_card_points(rules, trick, n, trump)
        last = hands[winner] == 0
        if last:
            pts += LAST_TRICK_BONUS[rules[R_NT_VALUES], trump]
        if side_of(winner, n, taker) == takers:
            value += pts
        else:
            cap = 0
        if last:
            return value + (CAPOT_BONUS if cap else 0)
        leader = winner
        k = 0
        w = 0
        w_power = -1
