"""A slow, obvious, pure-Python double-dummy reference ("test oracle") for
``belote_sim.dd``.

It plays out every legal continuation of a position with the rules of
``tests/reference/rules_ref.py`` (``naive_legal_cards``, ``naive_trick_winner``,
``card_value``, ``last_trick_bonus``) and takes the plain minimax of the takers' points
over them: no alpha-beta pruning, no move ordering, no equivalent cards, no bounds, no
canonical forms. Nothing here comes from ``belote_sim.kernels``.

The value of a position is what the takers' side still takes from it under perfect play
by everyone: the card points of the tricks it wins, the last-trick bonus when it wins
the last trick, and the capot bonus (90) when ``cap`` is 1 (it took every trick so far)
and it takes every trick left. The takers' side is the taker's partnership with four
players, the taker alone with two or three (in three-player the two defenders are
partners for the legal cards, RULES.md section 6).

One call of :func:`solve` fills a dict with the value of **every** position reachable
from the root, so a solver can be checked position by position (start of trick and
mid-trick). The dict doubles as a memo: a position met again through another order of
play is not searched twice. Its keys are complete positions (every hand, the cards of
the current trick, the leader, ``cap``) and its values exact, so this changes nothing
but the running time.

>>> from belote_sim.cards import mask_of, parse_cards
>>> game = Game(Rules(), trump=2, taker=0)
>>> hands = tuple(mask_of(parse_cards(h)) for h in ("JH", "7S", "AS", "8S"))
>>> solve(game, Position(hands, (), leader=0, cap=1))  # JH 20 + AS 11 + last trick 10 + capot 90
131
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from reference.rules_ref import card_value, last_trick_bonus, naive_legal_cards, naive_trick_winner

from belote_sim.rules import Rules

__all__ = [
    "CAPOT_BONUS", "Game", "Position", "cards_in", "deal_hands", "legal", "move_values", "play",
    "positions", "solve",
]

CAPOT_BONUS = 90


class Position(NamedTuple):
    """A position: ``hands[s]`` the card mask of seat ``s`` (one entry per player), the
    cards of the current trick in play order (led by ``leader``), and ``cap`` = 1 while
    the takers have taken every trick so far."""

    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    cap: int

    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)


class Game:
    """What stays fixed during a deal: the rules, the trump code and the taker's seat."""

    def __init__(self, rules: Rules, trump: int, taker: int) -> None:
        self.rules = rules
        self.trump = trump
        self.taker = taker
        self.n = rules.players
        if self.n == 4:
            self.takers = {s for s in range(4) if s % 2 == taker % 2}
        else:
            self.takers = {taker}
        self.points = [card_value(c, trump, rules) for c in range(32)]
        self.last_bonus = last_trick_bonus(trump, rules)

    def __repr__(self) -> str:
        return f"Game({self.rules!r}, trump={self.trump}, taker={self.taker})"


def cards_in(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def deal_hands(order, size: int):
    """Four hands of ``size`` cards (``int64`` masks, as the kernels take them) dealt in
    turn from the card order ``order`` (a permutation of 0..31)."""
    hands = np.zeros(4, dtype=np.int64)
    for s in range(4):
        for c in order[size * s : size * (s + 1)]:
            hands[s] |= 1 << int(c)
    return hands


def legal(game: Game, pos: Position) -> list[int]:
    """The cards the seat to move may play, ascending."""
    seat = pos.to_move()
    hand = set(cards_in(pos.hands[seat]))
    out = naive_legal_cards(game.rules, hand, list(pos.trick), pos.leader, game.trump, game.taker)
    return sorted(out)


def play(game: Game, pos: Position, card: int) -> tuple[int, Position | None]:
    """Play ``card`` for the seat to move: ``(gain, child)`` where ``gain`` is what the
    takers win by it (a trick it completes, with the last-trick and capot bonuses on the
    last trick) and ``child`` the next position (None once every hand is empty)."""
    seat = pos.to_move()
    hands = list(pos.hands)
    assert hands[seat] >> card & 1, "card not in the hand of the seat to move"
    hands[seat] &= ~(1 << card)
    trick = pos.trick + (card,)
    if len(trick) < game.n:
        return 0, Position(tuple(hands), trick, pos.leader, pos.cap)
    winner = (pos.leader + naive_trick_winner(list(trick), game.trump)) % game.n
    takers_win = winner in game.takers
    points = sum(game.points[c] for c in trick)
    cap = pos.cap if takers_win else 0
    if not any(hands):  # the last trick
        gain = points + game.last_bonus + (CAPOT_BONUS if cap else 0) if takers_win else 0
        return gain, None
    return (points if takers_win else 0), Position(tuple(hands), (), winner, cap)


def solve(game: Game, pos: Position, values: dict[Position, int] | None = None) -> int:
    """The value of ``pos`` by exhaustive minimax; ``values`` (when given) receives the
    value of every position reachable from ``pos``, ``pos`` included."""
    if values is None:
        values = {}
    return _solve(game, pos, values)


def _solve(game: Game, pos: Position, values: dict[Position, int]) -> int:
    v = values.get(pos)
    if v is not None:
        return v
    results = []
    for card in legal(game, pos):
        gain, child = play(game, pos, card)
        results.append(gain + (0 if child is None else _solve(game, child, values)))
    assert results, f"no legal card in {pos}"
    v = max(results) if pos.to_move() in game.takers else min(results)
    values[pos] = v
    return v


def move_values(game: Game, pos: Position, values: dict[Position, int]) -> dict[int, int]:
    """``{card: value of pos after card}`` for every legal card of the seat to move."""
    out = {}
    for card in legal(game, pos):
        gain, child = play(game, pos, card)
        out[card] = gain + (0 if child is None else _solve(game, child, values))
    return out


def positions(values: dict[Position, int]) -> list[Position]:
    """The positions of a :func:`solve` dict in a fixed order (deepest first)."""
    return sorted(values, key=lambda p: (sum(bin(h).count("1") for h in p.hands), p))
