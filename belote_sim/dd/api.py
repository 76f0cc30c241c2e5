"""The double-dummy solver for Python callers: a validating wrapper of
:mod:`belote_sim.dd`.

>>> from belote_sim import Rules
>>> from belote_sim.dd.api import dd_value, dd_reaches
>>> hands = ["JH AS", "9H AC", "7H KS", "8H TC"]   # two tricks left, hearts trump
>>> dd_value(Rules(), hands, trump="H", taker=0, leader=0)  # both tricks: 80, capot +90
170
>>> dd_reaches(Rules(), hands, trump="H", taker=0, leader=0, target=171)
False
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from belote_sim import dd
from belote_sim.cards import TRUMP_NAMES, CardSet, format_card, parse_card
from belote_sim.errors import BeloteError
from belote_sim.kernels.legal import legal_cards_rule
from belote_sim.rules import Rules

_STATE: dict[str, object] = {}


def _solver(rules: Rules) -> dd.Solver:
    """A :class:`dd.Solver` for ``rules``: the context, table and scratch are made once
    and kept for later calls."""
    if not _STATE:
        _STATE["cx"] = dd.new_context()
        _STATE["tt"] = dd.new_table(dd.DEAL_TABLE_BITS)
        _STATE["ws"] = dd.new_workspace()
    return dd.Solver(rules.to_array(), _STATE["cx"], _STATE["tt"], _STATE["ws"])


def _position(rules: Rules, hands: Sequence, trump: str | int, taker: int, leader: int,
              trick: Sequence) -> tuple[np.ndarray, np.ndarray, int, int]:
    n = rules.players
    if len(hands) != n:
        raise BeloteError(f"{n} hands expected for {rules.preset} rules, not {len(hands)}")
    masks = np.zeros(4, dtype=np.int64)
    seen = 0
    for s, h in enumerate(hands):
        m = int(h if isinstance(h, CardSet) else CardSet(h))
        if m & seen:
            dup = ", ".join(format_card(c) for c in range(32) if (m & seen) >> c & 1)
            raise BeloteError(f"card(s) {dup} are in two hands")
        seen |= m
        masks[s] = m
    t = TRUMP_NAMES.index(trump) if isinstance(trump, str) and trump in TRUMP_NAMES else trump
    if not isinstance(t, int) or not 0 <= t < len(TRUMP_NAMES):
        raise BeloteError(f"trump must be one of {', '.join(TRUMP_NAMES)}, not {trump!r}")
    for name, seat in (("taker", taker), ("leader", leader)):
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise BeloteError(f"{name} must be a seat 0..{n - 1}, not {seat!r}")
    cards = [parse_card(c) if isinstance(c, str) else int(c) for c in trick]
    if len(cards) >= n:
        raise BeloteError(f"a trick in progress has at most {n - 1} cards, not {len(cards)}")
    row = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(cards):
        if (seen >> c) & 1:
            raise BeloteError(f"{format_card(c)} is both in the trick and in a hand")
        row[i] = c
    left = int(bin(int(masks[leader])).count("1")) + (1 if cards else 0)
    for i in range(n):
        seat = (leader + i) % n
        size = bin(int(masks[seat])).count("1")
        want = left - 1 if i < len(cards) else left
        if size != want:
            raise BeloteError(
                f"seat {seat} holds {size} card(s); with {len(cards)} card(s) in the trick "
                f"led by seat {leader} it should hold {want}"
            )
    if left > dd.MAX_TRICKS:
        raise BeloteError(f"at most {dd.MAX_TRICKS} tricks left, not {left}")
    arr = rules.to_array()
    for i, c in enumerate(cards[1:], start=1):
        seat = (leader + i) % n
        legal, _ = legal_cards_rule(arr, int(masks[seat]) | (1 << c), row, i, leader, t, taker)
        if not (legal >> c) & 1:
            raise BeloteError(f"{format_card(c)} by seat {seat} is not a legal card there")
    return masks, row, len(cards), t


def dd_value(rules: Rules, hands: Sequence, *, trump: str | int, taker: int, leader: int,
             trick: Sequence = (), takers_took_all: bool = True) -> int:
    """The card points the takers still take under perfect play by everyone: trick
    points, the last-trick bonus, and 90 more for a capot when ``takers_took_all``
    (they took every trick so far) and they take every trick left.

    ``hands`` lists what each seat holds (card strings or :class:`CardSet`), ``trick``
    the cards already played to the current trick, led by ``leader``.
    """
    masks, row, k, t = _position(rules, hands, trump, taker, leader, trick)
    solver = _solver(rules)
    dd.set_context(solver.context, solver.rules, t, taker, dd.OPT_ALL)
    position = dd.Position(masks, row, k, leader, int(takers_took_all))
    return int(dd.dd_value(solver, position, 0))


def dd_reaches(rules: Rules, hands: Sequence, *, trump: str | int, taker: int, leader: int,
               target: int, trick: Sequence = (), takers_took_all: bool = True) -> bool:
    """True when the takers take at least ``target`` more points (see :func:`dd_value`):
    one null-window search, faster than the exact value."""
    masks, row, k, t = _position(rules, hands, trump, taker, leader, trick)
    solver = _solver(rules)
    dd.set_context(solver.context, solver.rules, t, taker, dd.OPT_ALL)
    position = dd.Position(masks, row, k, leader, int(takers_took_all))
    return bool(dd.dd_reaches(solver, position, int(target)))
