"""The rule building blocks every game family shares, in slow, obvious plain Python.

Written independently, straight from ``docs/spec/RULES.md`` (sections 1-6 and 8) and
``docs/spec/DEAL_LOG.md``, with Python sets and lists, not from the engine. It deliberately
imports nothing from ``belote_sim.kernels`` or ``belote_sim.kernels.api``: only card-notation
helpers from ``belote_sim.cards`` and the option object ``belote_sim.rules.Rules``.

Cards are indices ``8*suit + rank`` (suits C D H S = 0..3, ranks 7 8 9 T J Q K A = 0..7).
Trump codes: 0..3 a suit contract, 4 all-trumps, 5 no-trumps.

>>> naive_trick_winner([parse_card(c) for c in ("AS", "7H", "TS", "JS")], 2)
1
>>> sorted(format_card(c) for c in naive_legal_cards(
...     Rules(), {parse_card(c) for c in ("7H", "8H", "JH", "AS")}, [parse_card("9H")],
...     leader=1, trump=2, taker=1))
['JH']
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from belote_sim.cards import RANKS, format_card, parse_card
from belote_sim.rules import Rules

__all__ = [
    "ALL_TRUMPS",
    "NO_TRUMPS",
    "TRUMP_NAMES",
    "INPUT_FIELDS",
    "card_value",
    "last_trick_bonus",
    "deal_total",
    "strength",
    "fmt_sorted",
    "inputs_of",
    "naive_trick_winner",
    "naive_sides",
    "naive_legal_cards",
    "round_two_suits",
    "naive_declarations",
    "declaration_suit",
    "naive_contest_sides",
    "naive_contest",
    "belote_seats",
    "seat_card_points",
    "naive_score",
    "naive_score_three_player",
    "naive_score_no_contract",
    "naive_coinche_score",
    "naive_rebuilt_pack",
]

ALL_TRUMPS = 4
NO_TRUMPS = 5
#: Trump (and coinche strain) names by trump code.
TRUMP_NAMES = ["C", "D", "H", "S", "AT", "NT"]
CAPOT = 90

#: The input fields of a deal-log deal (DEAL_LOG.md).
INPUT_FIELDS = ("rules", "dealer", "pack", "calls", "plays", "redeals_before", "pot_before")

# Section 2: orders, high to low, as rank letters.
PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]
TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"]
PLAIN_VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_VALUE = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
NT_DOUBLED_VALUE = {"A": 22, "T": 20, "K": 8, "Q": 6, "J": 4, "9": 0, "8": 0, "7": 0}
NT_ACE19_VALUE = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# Section 5: carré values and carré order (J > 9 > A > 10 > K > Q); 7 and 8 count nothing.
CARRE_POINTS = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
CARRE_ORDER = ["J", "9", "A", "T", "K", "Q"]  # high to low


# ----------------------------------------------------------------------------------
# Deal-log notation


def fmt_sorted(cards: set[int] | list[int]) -> list[str]:
    """Cards as the deal log writes a hand or a legal set: strings, in index order."""
    return [format_card(c) for c in sorted(cards)]


def inputs_of(deal: dict[str, Any]) -> dict[str, Any]:
    """The deal-log input fields of a deal."""
    return {k: deal[k] for k in INPUT_FIELDS if k in deal}


# ----------------------------------------------------------------------------------
# Sections 1 and 2: cards, orders and values


def suit(card: int) -> int:
    return card // 8


def rank_letter(card: int) -> str:
    return RANKS[card % 8]


def is_trump_suit(s: int, trump: int) -> bool:
    """Does suit ``s`` rank as a trump suit (a suit contract's trump, or all-trumps)?"""
    return trump == ALL_TRUMPS or s == trump


def strength(card: int, trump: int) -> int:
    """Higher is stronger, comparable only between cards of one suit."""
    order = TRUMP_ORDER if is_trump_suit(suit(card), trump) else PLAIN_ORDER
    return len(order) - order.index(rank_letter(card))


def card_value(card: int, trump: int, rules: Rules | None = None) -> int:
    """Card points of one card (section 2, options nt_values and king_value)."""
    rules = rules or Rules()
    r = rank_letter(card)
    if trump == NO_TRUMPS:
        table = NT_ACE19_VALUE if rules.nt_values == "ace19" else NT_DOUBLED_VALUE
        return table[r]
    value = (TRUMP_VALUE if is_trump_suit(suit(card), trump) else PLAIN_VALUE)[r]
    if rules.king_value == 10 and r == "K":
        value = 10
    return value


def last_trick_bonus(trump: int, rules: Rules | None = None) -> int:
    rules = rules or Rules()
    if trump == NO_TRUMPS and rules.nt_values == "doubled":
        return 20
    return 10


def deal_total(trump: int, rules: Rules | None = None) -> int:
    """All card points of a 32-card deal, last trick included (162, 258, 260...)."""
    return sum(card_value(c, trump, rules) for c in range(32)) + last_trick_bonus(trump, rules)


# ----------------------------------------------------------------------------------
# Section 3: sides


def naive_sides(n: int, taker: int) -> list[int]:
    """Side of each seat: seat parity with four players (and with two, one seat a side);
    with three, 0 for the taker and 1 for the two defenders (RULES 3 and 8)."""
    if n == 3:
        return [0 if s == taker else 1 for s in range(n)]
    return [s % 2 for s in range(n)]


def partner_of(rules: Rules, seat: int, taker: int) -> int | None:
    n = rules.players
    if n == 4:
        return (seat + 2) % 4
    if n == 3 and seat != taker:
        return next(s for s in range(3) if s not in (seat, taker))
    return None


# ----------------------------------------------------------------------------------
# Section 6: tricks


def naive_trick_winner(trick: list[int], trump: int) -> int:
    """Position in ``trick`` of the winning card."""
    if trump in (0, 1, 2, 3):
        trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
        if trumps:
            return max(trumps, key=lambda i: strength(trick[i], trump))
    led = suit(trick[0])
    followers = [i for i, c in enumerate(trick) if suit(c) == led]
    return max(followers, key=lambda i: strength(trick[i], trump))


def naive_legal_cards(
    rules: Rules, hand: set[int], trick: list[int], leader: int, trump: int, taker: int
) -> set[int]:
    """The cards of ``hand`` the next player of ``trick`` may play (RULES.md section 6)."""
    hand = set(hand)
    trick = list(trick)
    if not trick:
        return hand  # the first card of a trick is free
    n = rules.players
    seat = (leader + len(trick)) % n
    partner = partner_of(rules, seat, taker)
    partner_winning = False
    if partner is not None:
        pos = (partner - leader) % n
        partner_winning = pos < len(trick) and naive_trick_winner(trick, trump) == pos

    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    if follow:
        if trump == NO_TRUMPS or not is_trump_suit(led, trump):
            return follow  # plain suit (or no-trumps): any card of the suit led
        # trump led (or all-trumps)
        if not rules.overtrump_partner and partner_winning:
            return follow
        in_trick = [c for c in trick if suit(c) == led]
        best = max(strength(c, trump) for c in in_trick)
        higher = {c for c in follow if strength(c, trump) > best}
        return higher or follow

    # void in the suit led
    if partner_winning and rules.partner_exemption:
        return hand
    if rules.must_trump and trump in (0, 1, 2, 3):
        trumps = {c for c in hand if suit(c) == trump}
        if trumps:
            trick_trumps = [c for c in trick if suit(c) == trump]
            if not trick_trumps:
                return trumps
            best = max(strength(c, trump) for c in trick_trumps)
            higher = {c for c in trumps if strength(c, trump) > best}
            if higher:
                return higher
            if rules.undertrump == "free":
                return hand
            return trumps
    return hand


def seat_card_points(tricks: list[dict], trump: int, rules: Rules, n: int) -> list[int]:
    """Card points won by each seat in logged tricks (cards as strings, ``winner`` a
    seat), the last trick's bonus included, no capot bonus."""
    pts = [0] * n
    for t in tricks:
        pts[t["winner"]] += sum(card_value(parse_card(c), trump, rules) for c in t["cards"])
    pts[tricks[-1]["winner"]] += last_trick_bonus(trump, rules)
    return pts


# ----------------------------------------------------------------------------------
# Section 7.1 step 3: the suits round 2 may name


def round_two_suits(rules: Rules, turned: int) -> list[int]:
    """The suits round 2 may name (RULES 7.1 step 3): the three other than the turned
    card's, or all four with ``second_round = any``."""
    return [s for s in range(4) if s != turned // 8 or rules.second_round == "any"]


# ----------------------------------------------------------------------------------
# Section 5: declarations and belote


def naive_declarations(hand: set[int], split_long_runs: bool) -> list[dict]:
    """Every carré and maximal run in ``hand``, as the deal log writes them."""
    hand = set(hand)
    out: list[dict] = []
    for s in range(4):
        ranks = [r for r in range(8) if 8 * s + r in hand]
        # maximal runs of consecutive ranks in sequence order
        runs: list[list[int]] = []
        for r in ranks:
            if runs and runs[-1][-1] == r - 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        for run in runs:
            length = len(run)
            if length < 3:
                continue
            top = format_card(8 * s + run[-1])
            if length == 3:
                kind, points = "tierce", 20
            elif length == 4:
                kind, points = "quarte", 50
            else:
                kind, points = "quinte", 100
                if length == 8 and split_long_runs:
                    points = 120  # quinte + tierce
            out.append({"kind": kind, "top": top, "length": length, "points": points})
    for r in range(8):
        letter = RANKS[r]
        if letter in CARRE_POINTS and all(8 * s + r in hand for s in range(4)):
            out.append(
                {"kind": "carre", "top": letter, "length": 4, "points": CARRE_POINTS[letter]}
            )
    return out


def declaration_suit(decl: dict) -> int | None:
    """Suit of a run (from its top card); None for a carré."""
    if decl["kind"] == "carre":
        return None
    return suit(parse_card(decl["top"]))


def _decl_key(decl: dict) -> tuple:
    """Contest strength of one declaration, without the trump and turn tie-breaks."""
    if decl["kind"] == "carre":
        return (1, len(CARRE_ORDER) - CARRE_ORDER.index(decl["top"]), 0)
    top_rank = RANKS.index(decl["top"][0])
    return (0, decl["length"], top_rank)


def naive_contest_sides(
    held: list[list[dict]], sides: list[int], trump: int, first_hand: int, declaration_tie: str
) -> tuple[int | None, int | None]:
    """``(winning side, winner_seat)`` of the declaration contest (RULES.md section 5)
    between side 0 and side 1, any seating (``sides[seat]``); ``(None, None)`` when
    nobody scores. A side's best: strongest, then in trump, then first in turn order."""
    n = len(held)
    suit_contract = trump in (0, 1, 2, 3)
    best: dict[int, tuple] = {}
    for seat in range(n):
        turn = (seat - first_hand) % n
        for d in held[seat]:
            in_trump = suit_contract and declaration_suit(d) == trump
            cand = ((_decl_key(d), in_trump, -turn), seat)
            side = sides[seat]
            if side not in best or cand > best[side]:
                best[side] = cand
    if not best:
        return None, None
    if len(best) == 1:
        side = next(iter(best))
        return side, best[side][1]
    (k0, t0, turn0), seat0 = best[0]
    (k1, t1, turn1), seat1 = best[1]
    if k0 != k1:
        return (0, seat0) if k0 > k1 else (1, seat1)
    if t0 != t1:
        return (0, seat0) if t0 else (1, seat1)
    if declaration_tie == "first":
        return (0, seat0) if turn0 > turn1 else (1, seat1)  # turns are stored negated
    return None, None


def naive_contest(
    held: list[list[dict]], trump: int, first_hand: int, declaration_tie: str
) -> tuple[int | None, int | None, list[int]]:
    """The declaration contest between side 0 (the even seats) and side 1 (the odd
    seats): ``(winning side, winner_seat, points per side)``, the winning side scoring
    every declaration its seats hold; nobody scoring gives ``(None, None, [0, 0])``."""
    n = len(held)
    winner, seat = naive_contest_sides(held, [s % 2 for s in range(n)], trump, first_hand,
                                       declaration_tie)
    if winner is None:
        return None, None, [0, 0]
    points = [0, 0]
    points[winner] = sum(d["points"] for s in range(n) if s % 2 == winner for d in held[s])
    return winner, seat, points


def belote_seats(hands: list[set[int]], trump: int, rules: Rules) -> list[int]:
    """The holder of each belote-rebelote: K and Q of a trump suit in one hand at the
    start of the first trick (every suit in all-trumps, none in no-trumps, none with
    ``belote = off``); a seat appears once per pair it holds."""
    if not rules.belote or trump == NO_TRUMPS:
        return []
    suits = range(4) if trump == ALL_TRUMPS else [trump]
    king, queen = RANKS.index("K"), RANKS.index("Q")
    return [seat for seat, hand in enumerate(hands) for s in suits
            if 8 * s + king in hand and 8 * s + queen in hand]


# ----------------------------------------------------------------------------------
# Section 8: scoring a deal, family by family


def naive_score(
    tie_rule: str,
    trick_points: list[int] | tuple[int, int],
    taker_side: int,
    capot_side: int | None = None,
    declaration_points: list[int] | tuple[int, int] = (0, 0),
    belote: list[int] | tuple[int, int] = (0, 0),
    pot_before: int = 0,
    total: int = 162,
    capot_total: int = 252,
    contract_counts: str = "all",
) -> dict:
    """Score a retourne (or stock) deal of two sides. ``trick_points`` exclude any capot
    bonus; the capot bonus is ``capot_total - 162``; the contract test counts ``S``, or
    the card points alone with ``contract_counts = "cards"``."""
    T = taker_side
    E = 1 - T
    bonus = capot_total - 162
    C = [trick_points[s] + (bonus if capot_side == s else 0) for s in (0, 1)]
    S = [C[s] + declaration_points[s] + belote[s] for s in (0, 1)]
    Q = C if contract_counts == "cards" else S
    score = [0, 0]
    pot = 0
    if tie_rule == "takers":
        success, tie = Q[T] >= Q[E], False
    else:
        success, tie = Q[T] > Q[E], Q[T] == Q[E]
    if success:
        outcome = "made"
        score = list(S)
        won_by: int | None = T
    elif tie and tie_rule == "split":
        outcome = "tie"
        score = list(S)
        won_by = None
    elif tie and tie_rule == "litige":
        outcome = "litige"
        score[E] = S[E]
        score[T] = belote[T]
        pot = S[T] - belote[T]
        won_by = None
    else:  # a tie under tie_rule = defenders too
        outcome = "dedans"
        # every card point of the deal (+K only for the defenders' own capot), the
        # declarations that won the contest whichever side holds them, own belote
        score[E] = total + (bonus if capot_side == E else 0) + sum(declaration_points) + belote[E]
        score[T] = belote[T]
        won_by = E
    pot_won_by = None
    if won_by is not None and pot_before > 0:
        score[won_by] += pot_before
        pot_won_by = won_by
    return {
        "card_points": C,
        "score_takers": S[T],
        "score_defenders": S[E],
        "outcome": outcome,
        "pot": pot,
        "pot_won_by": pot_won_by,
        "deal_score": score,
    }


def naive_score_three_player(
    rules: Rules,
    seat_points: list[int],
    taker: int,
    capot: str | None,
    decl: list[int],
    belote: list[int],
) -> dict:
    """Three players, every figure per seat. ``seat_points``: each seat's card points
    (last trick's 10 included, no capot bonus); ``capot``: ``"taker"``, ``"defenders"``
    or None; ``decl``: each seat's contest points.

    >>> rules = Rules.from_preset("three-player")
    >>> naive_score_three_player(rules, [11, 60, 59], taker=0, capot=None, decl=[0, 0, 0],
    ...                          belote=[0, 0, 0])["deal_score"]
    [0, 66, 65]
    """
    n = 3
    bonus = rules.capot_total - 162
    C = list(seat_points)
    for s in range(n):
        if capot == "taker" and s == taker:
            C[s] += bonus
        elif capot == "defenders" and s != taker:
            C[s] += bonus // 2  # 45 to each defender by default
    own = [C[s] + decl[s] + belote[s] for s in range(n)]
    s_t = own[taker]
    s_e = sum(own[s] for s in range(n) if s != taker)
    counted = C if rules.contract_counts == "cards" else own
    q_t = counted[taker]
    q_e = sum(counted[s] for s in range(n) if s != taker)
    if q_t > q_e or (q_t == q_e and rules.tie_rule == "takers"):
        outcome, score = "made", list(own)
    elif q_t == q_e and rules.tie_rule == "split":
        outcome, score = "tie", list(own)
    else:
        outcome = "dedans"
        # half, halves up, of the taker's card points without any capot bonus, and
        # of its declarations
        half = -(-(seat_points[taker] + decl[taker]) // 2)
        score = [belote[s] if s == taker else own[s] + half for s in range(n)]
    return {
        "card_points": C,
        "score_takers": s_t,
        "score_defenders": s_e,
        "outcome": outcome,
        "deal_score": score,
    }


def naive_score_no_contract(
    side_points: list[int], taker_side: int, capot_side: int | None, decl: list[int],
    belote: list[int],
) -> dict:
    """No-contract games (two or four players): each side its own C + D + B; a capot
    replaces the last trick's 10 by 100 (``side_points`` hold the 10). Outcome
    ``dedans`` iff the taker's side scores less, for the statistics only."""
    C = [side_points[s] + (100 - 10 if capot_side == s else 0) for s in (0, 1)]
    S = [C[s] + decl[s] + belote[s] for s in (0, 1)]
    outcome = "dedans" if S[taker_side] < S[1 - taker_side] else "made"
    return {"card_points": C, "outcome": outcome, "deal_score": S}


def naive_coinche_score(trick_points, T, capot_side, decl, belote, value, m, total, scale,
                        rules: Rules, capot_bid: bool):
    """Coinche (RULES 7.4 steps 3-4 and 8, Coinche), written out: ``trick_points`` per
    side (last trick included, no capot), taker side ``T``, the contract's ``value`` and
    multiplier ``m``, ``scale`` to scale the card points to 162 (all-trumps, doubled
    no-trumps), ``capot_bid`` whether the contract is a capot bid; every club dispute
    from ``rules``."""
    E = 1 - T
    bonus = rules.capot_total - 162
    if scale:
        c_t = math.floor(Fraction(trick_points[T] * 162, total) + Fraction(1, 2))
        C = [0, 0]
        C[T], C[E] = c_t, 162 - c_t
    else:
        C = list(trick_points)
    if capot_side is not None:
        C[capot_side] += bonus
    S = [C[s] + decl[s] + belote[s] for s in (0, 1)]
    Q = C if rules.contract_counts == "cards" else S
    if capot_bid:
        made = capot_side == T
    elif value == 80:
        made = Q[T] >= rules.eighty_needs
    else:
        made = Q[T] >= value
    if rules.beat_defence:
        made = made and Q[T] > Q[E]
    W = T if made else E
    L = 1 - W
    score = [0, 0]
    flat = capot_bid and rules.capot_bid == "flat"
    if rules.coinche_scoring == "bid":
        score[W] = value * m
    elif made and m == 1 and not flat:
        score[T] = S[T] + (value if rules.coinche_scoring == "points+bid" else 0)
        score[E] = S[E]
    else:
        if flat:
            lump = 500 * m
        else:
            if rules.coinche_base == 160:
                base = 160
            else:
                base = 162 + (bonus if made and capot_side == T else 0)
            if rules.coinche_scoring == "points":
                lump = base * m
            else:
                lump = {"bid": base + value * m, "all": (base + value) * m,
                        "base": base * m + value}[rules.coinche_multiplies]
        won_decl = decl[T] if made else decl[0] + decl[1]
        if rules.belote_prenable:
            score[W] = lump + won_decl + belote[0] + belote[1]
            score[L] = 0
        else:
            score[W] = lump + won_decl + belote[W]
            score[L] = belote[L]
    if rules.round_to_ten:
        up = rules.round_up_from
        score = [x // 10 * 10 + (10 if x % 10 >= up else 0) for x in score]
    return {"card_points": C, "outcome": "made" if made else "dedans", "deal_score": score}


# ----------------------------------------------------------------------------------
# Section 4, shuffle = cut: the pack after a deal, before the cut


def naive_rebuilt_pack(deal: dict[str, Any]) -> list[str]:
    """The pack rebuilt after ``deal`` (a deal-log deal with its result fields), before
    the cut: a played deal's cards in play order, a thrown-in deal's hands in turn
    order from the first hand (each as its holder sorted it, in index order); then the
    cards nobody picked up, in the order they lay in the pack. In the two-player game
    without contract the seven of trumps, once exchanged, lies where the turned card
    lay: the turned card was then played, which no other deal of that game does."""
    rules = Rules.from_spec(deal["rules"])
    n = rules.players
    pack = list(deal["pack"])
    if deal["thrown_in"]:
        first = (deal["dealer"] + 1) % n
        top = [c for i in range(n)
               for c in sorted(deal["hands"][(first + i) % n], key=parse_card)]
    else:
        top = list(deal["plays"])
    lying = pack
    if rules.contract == "none" and n == 2 and not deal["thrown_in"] and pack[12] in top:
        seven = "7" + deal["trump"]
        lying = [seven if c == pack[12] else c for c in pack if c != seven]
    return top + [c for c in lying if c not in top]
