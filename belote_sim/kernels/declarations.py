"""Declarations (annonces): carrés, runs, the contest and belote (RULES.md section 5)."""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, python_form
from belote_sim.cards import ALL_TRUMPS, KING, NO_TRUMPS, QUEEN
from belote_sim.kernels.bits import ctz, popcount
from belote_sim.kernels.layout import (
    DECL_HELD,
    DECL_WINNER_SEAT,
    DK_CARRE,
    DK_QUARTE,
    DK_QUINTE,
    DK_TIERCE,
    HOLD_CARRE_9,
    HOLD_CARRE_J,
    HOLD_CARRE_OTHER,
    HOLD_QUARTE,
    HOLD_QUINTE,
    HOLD_TIERCE,
    MAX_DECLS,
)
from belote_sim.kernels.trick import seat_after
from belote_sim.rules import R_DECLARATIONS, R_SPLIT_LONG_RUNS

# Carrés that score, strongest first for the contest: J > 9 > A > 10 > K > Q.
#                        7   8   9    T    J    Q    K    A
CARRE_POINTS = np.array([0, 0, 150, 100, 200, 100, 100, 100], dtype=np.int64)
CARRE_ORDER = np.array([0, 0, 5, 3, 6, 1, 2, 4], dtype=np.int64)
_QUEENS = sum(1 << (8 * suit + QUEEN) for suit in range(4))
_CARRE_BASE = 10000  # any carré key beats any run key (runs stay below 1000)


@jit(inline="always")
def may_declare(hand):
    """False when ``hand`` holds neither three cards in sequence of a suit nor four
    cards of a rank from nine up: then it has no declaration, and
    :func:`list_declarations` would find none (whole-hand bit tests, no loop).

    >>> may_declare(0b111), may_declare(0b1011), may_declare(0x04040404)
    (True, False, True)
    """
    runs = hand & (hand >> 1) & (hand >> 2) & 0x3F3F3F3F  # bit: a run of 3 starts here
    quads = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFC  # ranks 9..A, 4 suits
    return (runs | quads) != 0


@jit
def list_declarations(hand, split_long_runs, out):
    """Write every declaration of ``hand`` into ``out`` (``int64[MAX_DECLS, 4]``: room for
    any card set, even the whole pack), one row
    ``(kind, top, length, points)`` each) and return how many there are.

    A run's ``top`` is its highest card index, a carré's is its rank. Each maximal run of
    a suit counts once; a card may be in a carré and a run. Kernel of
    :func:`belote_sim.kernels.api.declarations`; naive reference in
    ``tests/reference/rules_ref.py``.
    """
    n = 0
    # Ranks held in all four suits, nines and up (eights and sevens count nothing).
    quads = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFC
    while quads != 0:
        rank = ctz(quads)
        quads &= quads - 1
        out[n, 0] = DK_CARRE
        out[n, 1] = rank
        out[n, 2] = 4
        out[n, 3] = CARRE_POINTS[rank]
        n += 1
    for suit in range(4):
        b = (hand >> (8 * suit)) & 0xFF
        starts = b & (b >> 1) & (b >> 2)  # cards that begin three in sequence
        while starts != 0:
            low = ctz(starts)  # the lowest begins a maximal run: the card below is out
            length = ctz(~(b >> low))  # trailing ones from the lowest card up
            if length == 3:
                kind, points = DK_TIERCE, 20
            elif length == 4:
                kind, points = DK_QUARTE, 50
            else:
                kind = DK_QUINTE
                points = 120 if length == 8 and split_long_runs != 0 else 100
            out[n, 0] = kind
            out[n, 1] = 8 * suit + low + length - 1
            out[n, 2] = length
            out[n, 3] = points
            n += 1
            b &= ~(((1 << length) - 1) << low)
            starts = b & (b >> 1) & (b >> 2)
    return n


@jit(inline="always")
def declaration_key(kind, top, length, trump):
    """A number that orders declarations as the contest does (higher wins), RULES 5:
    carrés first by rank J > 9 > A > 10 > K > Q; runs by length, then top card, then
    being in the trump suit of a suit contract."""
    if kind == DK_CARRE:
        return _CARRE_BASE + 10 * CARRE_ORDER[top]
    in_trump = 1 if trump < ALL_TRUMPS and (top >> 3) == trump else 0
    return 100 * length + 10 * (top & 7) + in_trump


@jit(inline="always")
def summarise_declarations(entries, n):
    """``(points, HOLD_* flags)`` of the first ``n`` rows of a declaration list."""
    points = 0
    kinds = 0
    for i in range(n):
        points += entries[i, 3]
        kind = entries[i, 0]
        if kind == DK_TIERCE:
            kinds |= HOLD_TIERCE
        elif kind == DK_QUARTE:
            kinds |= HOLD_QUARTE
        elif kind == DK_QUINTE:
            kinds |= HOLD_QUINTE
        elif entries[i, 1] == 4:
            kinds |= HOLD_CARRE_J
        elif entries[i, 1] == 2:
            kinds |= HOLD_CARRE_9
        else:
            kinds |= HOLD_CARRE_OTHER
    return points, kinds


@jit(inline="always")
def best_key(entries, n, trump):
    """Key of the best of the first ``n`` declarations (0 when there are none)."""
    best = 0
    for i in range(n):
        k = declaration_key(entries[i, 0], entries[i, 1], entries[i, 2], trump)
        if k > best:
            best = k
    return best


def _declaration_tables() -> tuple[np.ndarray, np.ndarray]:
    """The tables of :func:`hand_declarations`, read from :func:`list_declarations`,
    :func:`summarise_declarations` and :func:`best_key`:

    * ``SUIT_RUNS[split_long_runs, byte]``: ``(points, HOLD_* flags, best key out of
      trumps, best key in trumps)`` of the runs of a suit holding the ranks of the bits
      of ``byte`` (its runs are those of a hand of that suit alone);
    * ``CARRES[ranks]``: ``(points, HOLD_* flags, best key)`` of the carrés of the ranks
      of the bits of ``ranks`` (:func:`list_declarations` lists them first).
    """
    listed, summarised, best = (python_form(k) for k in
                                (list_declarations, summarise_declarations, best_key))
    entries = np.zeros((MAX_DECLS, 4), dtype=np.int64)
    suit_runs = np.zeros((2, 256, 4), dtype=np.int64)
    for split in range(2):
        for byte in range(256):
            n = listed(byte, split, entries)  # the runs of a hand of suit 0 alone
            points, kinds = summarised(entries, n)
            suit_runs[split, byte] = points, kinds, best(entries, n, NO_TRUMPS), best(entries, n, 0)
    carres = np.zeros((256, 3), dtype=np.int64)
    for ranks in range(0, 256, 4):  # sevens and eights make no carré
        listed(ranks * 0x01010101, 0, entries)  # its carrés first
        n_carres = ranks.bit_count()
        points, kinds = summarised(entries, n_carres)
        carres[ranks] = points, kinds, best(entries, n_carres, NO_TRUMPS)
    return suit_runs, carres


SUIT_RUNS, CARRES = _declaration_tables()


@jit(inline="always")
def hand_declarations(hand, split_long_runs, trump):
    """``(points, HOLD_* flags, best key)`` of every declaration ``hand`` holds under
    ``trump``: what :func:`list_declarations`, :func:`summarise_declarations` and
    :func:`best_key` give, read from their tables (:func:`_declaration_tables`) a suit
    at a time, since a run lies within a suit, with no loop over the declarations.

    >>> from belote_sim.cards import mask_of, parse_cards
    >>> [int(x) for x in hand_declarations(mask_of(parse_cards("7H 8H 9H JC JD JH JS")), 0, 2)]
    [220, 9, 10060]
    """
    carres = CARRES[hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFC]
    points = carres[0]
    kinds = carres[1]
    key = carres[2]
    runs = SUIT_RUNS[split_long_runs]
    for suit in range(4):
        row = runs[(hand >> (8 * suit)) & 0xFF]
        points += row[0]
        kinds |= row[1]
        key = max(key, row[3] if suit == trump else row[2])
    return points, kinds, key


@jit(inline="always")
def declaration_contest(keys, first_hand, n_players, sides, decl_tie_first):
    """Winner of the contest between the sides' best declarations (RULES 5).

    ``keys[seat]`` is each seat's best key (0: none), ``sides[seat]`` its side (0/1).
    Returns ``(winning side, seat holding its best declaration)``, ``(-1, -1)`` when
    nobody scores. Equal keys inside a side go to the seat first in turn order from the
    first hand; equal keys across sides follow ``declaration_tie`` (none / first).
    """
    key0 = 0
    key1 = 0
    seat0 = -1
    seat1 = -1
    pos0 = 0
    pos1 = 0
    for pos in range(n_players):  # strict > keeps the first in turn order on equal keys
        seat = seat_after(first_hand, pos, n_players)
        if sides[seat] == 0:
            if keys[seat] > key0:
                key0, seat0, pos0 = keys[seat], seat, pos
        elif keys[seat] > key1:
            key1, seat1, pos1 = keys[seat], seat, pos
    if key0 == 0 and key1 == 0:
        return -1, -1
    if key0 > key1:
        return 0, seat0
    if key1 > key0:
        return 1, seat1
    if decl_tie_first == 0:
        return -1, -1
    return (0, seat0) if pos0 < pos1 else (1, seat1)


@jit(inline="always")
def belote_pairs(hand, trump):
    """Number of belote pairs (K+Q of a trump suit) in ``hand``: 0 or 1 in a suit
    contract, up to 4 in all-trumps, 0 in no-trumps.

    >>> int(belote_pairs(0x60606060, 4)), int(belote_pairs(0x60606060, 1))
    (4, 1)
    """
    if trump == NO_TRUMPS:
        return 0
    pairs = hand & (hand >> (KING - QUEEN)) & _QUEENS  # each queen whose king is held
    if trump != ALL_TRUMPS:
        pairs &= 0xFF << (8 * trump)
    return popcount(pairs)


@jit
def shown_cards(rules, rec, hands, n, sides, decl, out, at):
    """The cards each seat shows of its declarations (RULES 5: those of the side that won
    the contest, every carré and run its players hold) added to ``out[at + seat]``
    (masks), from the contest in ``rec`` and the ``hands`` at the start of the first
    trick; ``decl`` is scratch (``int64[MAX_DECLS, 4]``). Nothing is allocated: the
    engine's deal loop calls it (:func:`belote_sim.infer.knowledge.show_declarations`)."""
    w = rec[DECL_WINNER_SEAT]
    if rules[R_DECLARATIONS] == 0 or w < 0:
        return
    for s in range(n):
        if sides[s] != sides[w] or rec[DECL_HELD + s] == 0:
            continue
        nd = list_declarations(hands[s], rules[R_SPLIT_LONG_RUNS], decl)
        for i in range(nd):
            if decl[i, 0] == DK_CARRE:
                r = decl[i, 1]
                out[at + s] |= (1 << r) | (1 << (r + 8)) | (1 << (r + 16)) | (1 << (r + 24))
            else:
                top = decl[i, 1]
                for j in range(decl[i, 2]):
                    out[at + s] |= 1 << (top - j)
