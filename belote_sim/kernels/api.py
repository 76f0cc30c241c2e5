"""Validating Python wrappers over the jitted rule kernels.

Each function checks and converts its input, calls the one kernel that implements the
rule, and packages the result; nothing here re-implements a rule.

>>> from belote_sim.kernels.api import legal_cards, trick_winner, declarations
>>> from belote_sim import Rules
>>> str(legal_cards(Rules(), "7H 8H JH AS", trick=["9H"], leader=1, trump="H", taker=1))
'JH'
>>> trick_winner(["AS", "7H", "TS", "JS"], trump="H")
1
>>> [d["kind"] for d in declarations("7C 8C 9C JD JH JS JC")]
['carre', 'tierce']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

import belote_sim.kernels.trick
from belote_sim.cards import (
    N_CARDS,
    RANKS,
    SCALED_TOTAL,
    TRUMP_NAMES,
    CardSet,
    format_card,
    parse_card,
)
from belote_sim.errors import BeloteError, RulesError
from belote_sim.kernels import layout as L
from belote_sim.kernels.declarations import list_declarations
from belote_sim.kernels.legal import legal_cards_rule
from belote_sim.kernels.scoring import score_coinche, score_two_sides
from belote_sim.rules import Rules

DECL_KIND_NAMES = ("tierce", "quarte", "quinte", "carre")
RULE_TEXT = {
    L.RULE_FREE: "any card may be played",
    L.RULE_FOLLOW: "the suit led must be followed",
    L.RULE_OVERTRUMP_LEAD: "a higher trump must be played",
    L.RULE_PARTNER: "the partner is winning: any card may be played",
    L.RULE_MUST_TRUMP: "void in the suit led: a trump must be played",
    L.RULE_OVERTRUMP: "void in the suit led: a higher trump must be played",
    L.RULE_UNDERTRUMP: "void in the suit led and unable to overtrump: a trump must still "
    "be played",
}


def trump_code(trump: int | str) -> int:
    """Trump code 0..5 from ``"C" "D" "H" "S" "AT" "NT"`` or an int.

    >>> trump_code("S"), trump_code("AT")
    (3, 4)
    """
    if isinstance(trump, str):
        name = trump.strip().upper()
        if name not in TRUMP_NAMES:
            raise BeloteError(f"bad trump {trump!r}: expected one of {', '.join(TRUMP_NAMES)}")
        return TRUMP_NAMES.index(name)
    code = int(trump)
    if not 0 <= code < len(TRUMP_NAMES):
        raise BeloteError(f"bad trump code {trump!r}: expected 0..5")
    return code


def _card(c: int | str) -> int:
    if isinstance(c, str):
        return parse_card(c)
    format_card(int(c))  # range check with a clear message
    return int(c)


def _trick_array(trick: Sequence[int | str]) -> np.ndarray:
    cards = [_card(c) for c in trick]
    if len(set(cards)) != len(cards):
        raise BeloteError(f"duplicate card in trick {list(trick)!r}")
    out = np.zeros(4, dtype=np.int64)
    out[: len(cards)] = cards
    return out


def legal_cards_with_rule(
    rules: Rules,
    hand: CardSet | str | int,
    trick: Sequence[int | str],
    leader: int,
    trump: int | str,
    taker: int,
) -> tuple[CardSet, int]:
    """Legal cards for the player to play next in ``trick`` (RULES.md section 6) and the
    ``RULE_*`` code of the rule that decided them (see :data:`RULE_TEXT`).

    >>> cs, rule = legal_cards_with_rule(Rules(), "7S 8H", ["AD"], 0, "H", 0)
    >>> str(cs), RULE_TEXT[rule]
    ('8H', 'void in the suit led: a trump must be played')
    """
    n = rules.players
    if len(trick) >= n:
        raise BeloteError(f"a trick of {n} players holds at most {n - 1} cards before a play")
    if not 0 <= leader < n or not 0 <= taker < n:
        raise BeloteError(f"seats must be in 0..{n - 1}")
    mask = int(CardSet(hand))
    t = _trick_array(trick)
    if mask & int(CardSet([int(c) for c in t[: len(trick)]])):
        raise BeloteError("a card of the trick is also in the hand")
    legal, rule = legal_cards_rule(
        rules.to_array(), np.int64(mask), t, len(trick), leader, trump_code(trump), taker
    )
    return CardSet(int(legal)), int(rule)


def legal_cards(
    rules: Rules,
    hand: CardSet | str | int,
    trick: Sequence[int | str],
    leader: int,
    trump: int | str,
    taker: int,
) -> CardSet:
    """Legal cards for the player to play next in ``trick`` (RULES.md section 6).

    >>> str(legal_cards(Rules(), "7S 8H", ["AD"], leader=0, trump="H", taker=0))
    '8H'
    """
    return legal_cards_with_rule(rules, hand, trick, leader, trump, taker)[0]


def trick_winner(trick: Sequence[int | str], trump: int | str) -> int:
    """Position in ``trick`` of the winning card (RULES.md section 6).

    >>> trick_winner(["KD", "AD", "7D", "QD"], "NT")
    1
    """
    if not trick:
        raise BeloteError("an empty trick has no winner")
    # The kernel of the same name, with the trick as the kernels take it.
    kernel = belote_sim.kernels.trick.trick_winner
    return int(kernel(_trick_array(trick), len(trick), trump_code(trump)))


def declarations(hand: CardSet | str | int, split_long_runs: bool = False) -> list[dict]:
    """Every declaration held in ``hand`` (RULES.md section 5), as the deal log writes
    them: ``{"kind", "top", "length", "points"}``.

    >>> declarations("7H 8H 9H TH JH QH KH AH", split_long_runs=True)
    [{'kind': 'quinte', 'top': 'AH', 'length': 8, 'points': 120}]
    """
    mask = int(CardSet(hand))
    buf = np.zeros((L.MAX_DECLS, 4), dtype=np.int64)
    n = list_declarations(np.int64(mask), int(split_long_runs), buf)
    out = []
    for kind, top, length, points in buf[:n]:
        out.append(
            {
                "kind": DECL_KIND_NAMES[kind],
                "top": RANKS[top] if kind == L.DK_CARRE else format_card(top),
                "length": int(length),
                "points": int(points),
            }
        )
    return out


def score_deal(
    rules: Rules,
    *,
    trick_points: Sequence[int],
    taker_side: int,
    capot_side: int | None = None,
    declaration_points: Sequence[int] = (0, 0),
    belote: Sequence[int] = (0, 0),
    pot_before: int = 0,
    total: int = 162,
    contract: tuple[int, int] | None = None,
) -> dict:
    """Score a four-player deal from its parts (RULES.md section 8).

    ``trick_points`` are each side's card points with the last trick's 10, without any
    capot bonus; ``declaration_points`` the contest's result per side. In coinche,
    ``contract`` is ``(value, multiplier)``: the bid (the rules' ``capot_value`` for a
    capot bid) and 1, 2 or the surcoinche's ``m``; ``total`` 258 or 260 scales the card
    points to 162 (all-trumps, doubled no-trumps).

    >>> score_deal(Rules(), trick_points=(81, 81), taker_side=0)["outcome"]
    'made'
    >>> score_deal(Rules.from_preset("litige"), trick_points=(81, 81), taker_side=0)["pot"]
    81
    >>> score_deal(Rules.from_preset("colver"), trick_points=(72, 90), taker_side=0,
    ...            belote=(20, 0), contract=(100, 2))["deal_score"]
    [0, 382]
    """
    if rules.players != 4:
        raise RulesError("score_deal scores four-player deals")
    coinche = rules.contract == "coinche"
    if coinche != (contract is not None):
        raise RulesError("score_deal needs contract=(value, multiplier) in coinche, and "
                         f"only there (rules {rules.preset}: contract={rules.contract})")
    if sum(trick_points) != total:
        raise RulesError(f"trick points {tuple(trick_points)} do not add up to total={total}")
    rec = np.zeros(L.REC_SIZE, dtype=np.int64)
    for s in range(2):
        rec[L.TRICK_POINTS + s] = trick_points[s]
        rec[L.DECL_POINTS + s] = declaration_points[s]
        rec[L.BELOTE + s] = belote[s]
    rec[L.CAPOT_SIDE] = -1 if capot_side is None else capot_side
    rec[L.POT_BEFORE] = pot_before
    rec[L.TOTAL_POINTS] = total
    if coinche:
        value, m = contract
        if m not in (1, 2, rules.surcoinche_mult):
            raise RulesError(f"multiplier {m} is not 1, 2 or surcoinche_mult="
                             f"{rules.surcoinche_mult}")
        rec[L.CONTRACT_VALUE] = value
        rec[L.MULTIPLIER] = m
        score_coinche(rec, taker_side, total != SCALED_TOTAL, value == rules.capot_value,
                      rules.to_array())
    else:
        score_two_sides(rec, taker_side, rules.to_array())
    return {
        "card_points": [int(rec[L.CARD_POINTS + s]) for s in range(2)],
        "score_takers": int(rec[L.SCORE_TAKERS]),
        "score_defenders": int(rec[L.SCORE_DEFENDERS]),
        "outcome": OUTCOME_NAMES[int(rec[L.OUTCOME])],
        "pot": int(rec[L.POT]),
        "pot_won_by": None if rec[L.POT_WON_BY] < 0 else int(rec[L.POT_WON_BY]),
        "deal_score": [int(rec[L.DEAL_SCORE + s]) for s in range(2)],
    }


OUTCOME_NAMES = {
    L.OUT_NONE: None,
    L.OUT_MADE: "made",
    L.OUT_DEDANS: "dedans",
    L.OUT_TIE: "tie",
    L.OUT_LITIGE: "litige",
}


def pack_array(pack: Iterable[int | str]) -> np.ndarray:
    """A full pack (32 distinct cards, top first) as the int64 array the kernels read."""
    cards = [_card(c) for c in pack]
    seen: set[int] = set()
    twice = [c for c in cards if c in seen or seen.add(c)]
    if twice:
        raise BeloteError(f"a pack holds the 32 cards once each: {format_card(twice[0])!r} "
                          f"is there twice")
    if len(cards) != N_CARDS:
        raise BeloteError(f"a pack holds the 32 cards once each, got {len(cards)} cards")
    return np.asarray(cards, dtype=np.int64)
