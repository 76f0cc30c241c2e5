"""Cards, masks, orders and point tables (RULES.md sections 1 and 2).

A card is an index ``8 * suit + rank`` with suits ``C=0, D=1, H=2, S=3`` and ranks in
*sequence order* ``7=0, 8=1, 9=2, T=3, J=4, Q=5, K=6, A=7``. A set of cards (a hand,
the cards played...) is a ``uint32`` whose bit ``i`` is card ``i``.

>>> from belote_sim.cards import parse_card, format_card, CardSet
>>> parse_card("JH"), parse_card("10s"), format_card(31)
(20, 27, 'AS')
>>> hand = CardSet("JH 9H AS")
>>> int(hand), len(hand), "9H" in hand
(2148794368, 3, True)
>>> str(hand)
'9H JH AS'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import numpy as np

from belote_sim.errors import CardParseError

SUITS = "CDHS"
RANKS = "789TJQKA"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
N_CARDS = 32
FULL_PACK = 0xFFFFFFFF

# Rank indices (sequence order).
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

# Trump codes used everywhere in the engine: 0..3 a suit contract, then AT and NT.
ALL_TRUMPS = 4
NO_TRUMPS = 5
TRUMP_NAMES = ("C", "D", "H", "S", "AT", "NT")

# Strength of each rank (higher wins), indexed by rank in sequence order.
#                          7  8  9  T  J  Q  K  A
PLAIN_STRENGTH = np.array([0, 1, 2, 6, 3, 4, 5, 7], dtype=np.int64)  # A T K Q J 9 8 7
TRUMP_STRENGTH = np.array([0, 1, 6, 4, 7, 2, 3, 5], dtype=np.int64)  # J 9 A T K Q 8 7

# Points of each rank.
PLAIN_POINTS = np.array([0, 0, 0, 10, 2, 3, 4, 11], dtype=np.int64)
TRUMP_POINTS = np.array([0, 0, 14, 10, 20, 3, 4, 11], dtype=np.int64)
NT_DOUBLED_POINTS = np.array([0, 0, 0, 20, 4, 6, 8, 22], dtype=np.int64)
NT_ACE19_POINTS = np.array([0, 0, 0, 10, 2, 3, 4, 19], dtype=np.int64)


def _above_masks(strength: np.ndarray) -> np.ndarray:
    """For each rank, the 8-bit mask of the ranks that beat it in ``strength`` order."""
    out = np.zeros(8, dtype=np.int64)
    for r in range(8):
        out[r] = sum(1 << q for q in range(8) if strength[q] > strength[r])
    return out


PLAIN_ABOVE = _above_masks(PLAIN_STRENGTH)
TRUMP_ABOVE = _above_masks(TRUMP_STRENGTH)


def _point_table() -> np.ndarray:
    """``POINTS[king10, nt_ace19, trump_code, card]``: the card points of every card."""
    table = np.zeros((2, 2, 6, N_CARDS), dtype=np.int64)
    for k10 in range(2):
        for ace19 in range(2):
            for trump in range(6):
                for card in range(N_CARDS):
                    suit, rank = divmod(card, 8)
                    if trump == NO_TRUMPS:
                        pts = (NT_ACE19_POINTS if ace19 else NT_DOUBLED_POINTS)[rank]
                    elif trump == ALL_TRUMPS or suit == trump:
                        pts = TRUMP_POINTS[rank]
                    else:
                        pts = PLAIN_POINTS[rank]
                    if k10 and rank == KING and trump != NO_TRUMPS:
                        pts = 10
                    table[k10, ace19, trump, card] = pts
    return table


POINTS = _point_table()

#: ``LAST_TRICK_BONUS[nt_ace19, trump_code]``: the last trick's bonus (RULES 2): 10, and
#: 20 in no-trumps counted doubled.
LAST_TRICK_BONUS = np.array([[10, 10, 10, 10, 10, 20], [10] * 6], dtype=np.int64)

#: What a capot adds to the takers' (or the defenders') card points (RULES 8) by default
#: (``capot_total = 252``): 90, so 252 for all the tricks of a 162-point deal. The
#: scoring reads the rules' ``capot_total``; the players value a capot with this.
CAPOT_BONUS = 90
#: Belote: the trump king and queen in one hand (RULES 5).
BELOTE_POINTS = 20
#: Card points a deal is scaled to in coinche all-trumps and doubled no-trumps (RULES
#: 7.4), and the points of a classic deal.
SCALED_TOTAL = 162


def last_trick_bonus(trump: int, nt_ace19: bool = False) -> int:
    """The *dix de der*: 20 in no-trumps with doubled values, else 10.

    >>> last_trick_bonus(2), last_trick_bonus(NO_TRUMPS)
    (10, 20)
    """
    return 20 if trump == NO_TRUMPS and not nt_ace19 else 10


def suit_of(card: int) -> int:
    """Suit index of a card index."""
    return card >> 3


def rank_of(card: int) -> int:
    """Rank index (sequence order) of a card index."""
    return card & 7


def suit_mask(suit: int) -> int:
    """The uint32 mask of all eight cards of ``suit``."""
    return 0xFF << (8 * suit)


_TOKEN = re.compile(r"^(10|[789TJQKA])([CDHS])$")


def parse_card(token: str) -> int:
    """Parse one card in text notation (``JH``, ``TS``, ``10S``, ``7♣``; any case).

    >>> parse_card("7C"), parse_card("a♠")
    (0, 31)
    """
    if not isinstance(token, str):
        raise CardParseError(f"card {token!r} is not a string")
    text = token.strip().upper()
    for sym, letter in SUIT_SYMBOLS.items():
        text = text.replace(sym, letter)
    m = _TOKEN.match(text)
    if not m:
        raise CardParseError(
            f"bad card {token!r}: expected a rank (7 8 9 T/10 J Q K A) then a suit (C D H S)"
        )
    rank = "T" if m.group(1) == "10" else m.group(1)
    return 8 * SUITS.index(m.group(2)) + RANKS.index(rank)


def parse_cards(cards: str | Iterable[str]) -> list[int]:
    """Parse cards separated by spaces or commas (or a list of tokens); refuse duplicates.

    >>> parse_cards("JH, 9H AS")
    [20, 18, 31]
    """
    tokens = [t for t in re.split(r"[\s,]+", cards) if t] if isinstance(cards, str) else list(cards)
    out: list[int] = []
    seen: set[int] = set()
    for tok in tokens:
        card = parse_card(tok)
        if card in seen:
            raise CardParseError(f"duplicate card {tok!r}")
        seen.add(card)
        out.append(card)
    return out


def format_card(card: int) -> str:
    """Text notation of a card index (a ten is always ``T``).

    >>> format_card(20)
    'JH'
    """
    card = int(card)
    if not 0 <= card < N_CARDS:
        raise CardParseError(f"card index {card} is outside 0..31")
    return RANKS[card & 7] + SUITS[card >> 3]


def mask_of(cards: Iterable[int]) -> int:
    """The uint32 mask of card indices."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list[int]:
    """Card indices of a mask, ascending."""
    mask = int(mask)
    return [i for i in range(N_CARDS) if mask >> i & 1]


def format_cards(mask: int) -> list[str]:
    """Card strings of a mask, in index order.

    >>> format_cards(0b11)
    ['7C', '8C']
    """
    return [format_card(c) for c in cards_of(mask)]


class CardSet:
    """A set of cards over the uint32 mask of RULES.md section 1.

    ``int()`` gives the mask, ``str()`` the text notation in index order; sets combine
    with ``| & -`` and support ``in``, ``len`` and iteration over card indices.

    >>> CardSet("KH QH") | CardSet("AS")
    CardSet('QH KH AS')
    >>> 22 in CardSet("KH QH"), len(CardSet(0xFF))
    (True, 8)
    """

    __slots__ = ("mask",)

    def __init__(self, cards: int | str | Iterable[int | str] | CardSet = 0) -> None:
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, (int, np.integer)):
            mask = int(cards)
            if not 0 <= mask <= FULL_PACK:
                raise CardParseError(f"mask {mask:#x} is not a uint32")
        elif isinstance(cards, str):
            mask = mask_of(parse_cards(cards))
        else:
            items = list(cards)
            idx = [parse_card(c) if isinstance(c, str) else int(c) for c in items]
            if len(set(idx)) != len(idx):
                raise CardParseError(f"duplicate card in {items!r}")
            for c in idx:
                format_card(c)  # range check
            mask = mask_of(idx)
        self.mask = mask

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __contains__(self, card: object) -> bool:
        idx = parse_card(card) if isinstance(card, str) else int(card)  # type: ignore[arg-type]
        return 0 <= idx < N_CARDS and bool(self.mask >> idx & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | CardSet(other).mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & CardSet(other).mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~CardSet(other).mask & FULL_PACK)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return " ".join(format_cards(self.mask))

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
