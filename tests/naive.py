"""A slow, obvious, pure-Python reference of the rules ("test oracle").

Written straight from ``shared/RULES.md`` (sections 1-6, 7.1 and 8) and
``shared/DEAL_LOG.md`` with Python sets and lists. It deliberately imports nothing from
``belote_sim.kernels`` or ``belote_sim.engine``: only card-notation helpers from
``belote_sim.cards`` and the option object ``belote_sim.rules.Rules``.

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

from typing import Any

from belote_sim.cards import RANKS, SUITS, format_card, parse_card
from belote_sim.rules import Rules

__all__ = [
    "naive_legal_cards",
    "naive_trick_winner",
    "naive_declarations",
    "naive_contest",
    "naive_score",
    "naive_card_points",
    "naive_replay",
    "declaration_suit",
    "normalize_deal",
]

ALL_TRUMPS = 4
NO_TRUMPS = 5
TRUMP_NAMES = ["C", "D", "H", "S", "AT", "NT"]

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


def partner_of(rules: Rules, seat: int, taker: int) -> int | None:
    n = rules.players
    if n == 4:
        return (seat + 2) % 4
    if n == 3 and seat != taker:
        return next(s for s in range(3) if s not in (seat, taker))
    return None


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


# ----------------------------------------------------------------------------------
# Section 5: declarations


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


def naive_contest(
    held: list[list[dict]], trump: int, first_hand: int, declaration_tie: str
) -> tuple[int | None, int | None, list[int]]:
    """The declaration contest (RULES.md section 5) between side 0 (seats 0, 2) and side 1
    (seats 1, 3): ``(winning side, winner_seat, points per side)``; nobody scoring gives
    ``(None, None, [0, 0])``."""
    n = len(held)
    suit_contract = trump in (0, 1, 2, 3)

    def in_trump(d: dict) -> bool:
        return suit_contract and declaration_suit(d) == trump

    best: dict[int, tuple] = {}
    for side in (0, 1):
        candidates = []
        for seat in range(n):
            if seat % 2 != side:
                continue
            turn = (seat - first_hand) % n
            for d in held[seat]:
                # best: strongest; then in trump; then first in turn order
                candidates.append(((_decl_key(d), in_trump(d), -turn), seat))
        if candidates:
            best[side] = max(candidates)
    if not best:
        return None, None, [0, 0]
    if len(best) == 1:
        winner = next(iter(best))
    else:
        (k0, t0, turn0), _ = best[0]
        (k1, t1, turn1), _ = best[1]
        if k0 != k1:
            winner = 0 if k0 > k1 else 1
        elif t0 != t1:
            winner = 0 if t0 else 1
        elif declaration_tie == "first":
            winner = 0 if turn0 > turn1 else 1  # turn stored negated
        else:
            return None, None, [0, 0]
    points = [0, 0]
    points[winner] = sum(d["points"] for seat in range(n) if seat % 2 == winner for d in held[seat])
    return winner, best[winner][1], points


# ----------------------------------------------------------------------------------
# Section 8: scoring a deal between two sides


def naive_score(
    tie_rule: str,
    trick_points: list[int] | tuple[int, int],
    taker_side: int,
    capot_side: int | None = None,
    declaration_points: list[int] | tuple[int, int] = (0, 0),
    belote: list[int] | tuple[int, int] = (0, 0),
    pot_before: int = 0,
    total: int = 162,
) -> dict:
    """Score a retourne deal of two sides. ``trick_points`` exclude any capot bonus."""
    T = taker_side
    E = 1 - T
    C = [trick_points[s] + (90 if capot_side == s else 0) for s in (0, 1)]
    S = [C[s] + declaration_points[s] + belote[s] for s in (0, 1)]
    score = [0, 0]
    pot = 0
    if tie_rule == "takers":
        success, tie = S[T] >= S[E], False
    else:
        success, tie = S[T] > S[E], S[T] == S[E]
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
    else:
        outcome = "dedans"
        # every card point of the deal (+90 only for the defenders' own capot), the
        # declarations that won the contest whichever side holds them, own belote
        score[E] = total + (90 if capot_side == E else 0) + sum(declaration_points) + belote[E]
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


# ----------------------------------------------------------------------------------
# Sections 4 and 7.1: one retourne deal from its deal-log input fields


def naive_card_points(tricks: list[dict], trump: int, rules: Rules | None = None) -> list[int]:
    """Per side card points of logged tricks (cards as strings, ``winner`` a seat), with
    the last-trick bonus and the capot bonus."""
    pts = [0, 0]
    for t in tricks:
        pts[t["winner"] % 2] += sum(card_value(parse_card(c), trump, rules) for c in t["cards"])
    pts[tricks[-1]["winner"] % 2] += last_trick_bonus(trump, rules)
    for side in (0, 1):
        if all(t["winner"] % 2 == side for t in tricks):
            pts[side] += 90
    return pts


def _fmt_sorted(cards: set[int] | list[int]) -> list[str]:
    return [format_card(c) for c in sorted(cards)]


INPUT_FIELDS = ("rules", "dealer", "pack", "calls", "plays", "redeals_before", "pot_before")


def naive_replay(deal: dict[str, Any]) -> dict[str, Any]:
    """Play a four-player retourne deal from its input fields and return it with every
    result field of DEAL_LOG.md. Raises ``ValueError`` on an illegal call or card."""
    rules = Rules.from_spec(deal.get("rules", "classic"))
    if rules.players != 4 or rules.contract != "retourne":
        raise ValueError("naive_replay plays four-player retourne deals only")
    n = 4
    dealer = deal["dealer"]
    pack = [parse_card(c) for c in deal["pack"]]
    if sorted(pack) != list(range(32)):
        raise ValueError("the pack must hold the 32 cards once each")
    calls = [c.strip().lower() for c in deal.get("calls", [])]
    plays = [parse_card(c) for c in deal.get("plays", [])]
    pot_before = deal.get("pot_before", 0)
    first = (dealer + 1) % n
    order = [(first + i) % n for i in range(n)]

    out = {k: deal[k] for k in INPUT_FIELDS if k in deal}

    # Deal five cards each in packets (3 then 2, or 2 then 3), then the retourne.
    top = 0
    hands: list[set[int]] = [set() for _ in range(n)]
    packets = (3, 2) if rules.first_packets == "3-2" else (2, 3)
    for size in packets:
        for seat in order:
            hands[seat].update(pack[top : top + size])
            top += size
    retourne = pack[top]
    top += 1

    # Bidding.
    taker = None
    trump = None
    i = 0

    def next_call() -> str:
        nonlocal i
        if i >= len(calls):
            raise ValueError(f"the calls end after {i} call(s) but the bidding is not over")
        c = calls[i]
        i += 1
        return c

    for seat in order:  # round 1
        c = next_call()
        if c == "take":
            taker, trump = seat, suit(retourne)
            break
        if c != "pass":
            raise ValueError(f"call {i}: {c!r} is not allowed in round 1")
    if taker is None:  # round 2
        for seat in order:
            c = next_call()
            if c != "pass":
                # RULES 7.1 step 3: the three other suits, or any with second_round=any
                allowed = [s for s in range(4)
                           if s != suit(retourne) or rules.second_round == "any"]
                if c.upper() not in SUITS or SUITS.index(c.upper()) not in allowed:
                    raise ValueError(f"call {i}: {c!r} is not allowed in round 2")
                taker, trump = seat, SUITS.index(c.upper())
                break
    if taker is None and rules.all_no_trumps_round:  # round 3
        for seat in order:
            c = next_call()
            if c != "pass":
                if c not in ("at", "nt"):
                    raise ValueError(f"call {i}: {c!r} is not allowed in round 3")
                taker, trump = seat, ALL_TRUMPS if c == "at" else NO_TRUMPS
                break
    if i != len(calls):
        raise ValueError(f"call {i + 1}: calls left after the bidding is over")
    if taker is None:
        out["thrown_in"] = True
        out["hands"] = [_fmt_sorted(h) for h in hands]
        return out

    # The taker picks up the retourne, then 2 more; everyone else 3, from the first hand.
    hands[taker].add(retourne)
    for seat in order:
        size = 2 if seat == taker else 3
        hands[seat].update(pack[top : top + size])
        top += size
    assert top == 32 and all(len(h) == 8 for h in hands)
    start_hands = [set(h) for h in hands]

    # Play.
    if len(plays) != 32:
        raise ValueError(f"a deal has 32 plays, got {len(plays)}")
    tricks = []
    leader = first
    p = 0
    for _ in range(8):
        cards: list[int] = []
        legal_lists = []
        for k in range(n):
            seat = (leader + k) % n
            card = plays[p]
            legal = naive_legal_cards(rules, hands[seat], cards, leader, trump, taker)
            if card not in legal:
                raise ValueError(
                    f"play {p + 1}: {format_card(card)} by seat {seat} is illegal "
                    f"(legal: {' '.join(_fmt_sorted(legal))})"
                )
            hands[seat].remove(card)
            cards.append(card)
            legal_lists.append(_fmt_sorted(legal))
            p += 1
        winner = (leader + naive_trick_winner(cards, trump)) % n
        tricks.append(
            {
                "leader": leader,
                "cards": [format_card(c) for c in cards],
                "winner": winner,
                "legal": legal_lists,
            }
        )
        leader = winner

    # Declarations and the contest.
    if rules.declarations:
        held = [naive_declarations(h, rules.split_long_runs) for h in start_hands]
        _, winner_seat, decl_points = naive_contest(held, trump, first, rules.declaration_tie)
    else:
        held = [[] for _ in range(n)]
        winner_seat, decl_points = None, [0, 0]

    # Belote-rebelote: K and Q of a trump suit in one hand at the start of the first trick.
    belote = [0, 0]
    if rules.belote and trump != NO_TRUMPS:
        belote_suits = range(4) if trump == ALL_TRUMPS else [trump]
        for seat in range(n):
            for s in belote_suits:
                if 8 * s + RANKS.index("K") in start_hands[seat] and (
                    8 * s + RANKS.index("Q") in start_hands[seat]
                ):
                    belote[seat % 2] += 20

    # Card points and capot.
    trick_points = [0, 0]
    for t in tricks:
        trick_points[t["winner"] % 2] += sum(
            card_value(parse_card(c), trump, rules) for c in t["cards"]
        )
    trick_points[tricks[-1]["winner"] % 2] += last_trick_bonus(trump, rules)
    capot_side = None
    for side in (0, 1):
        if all(t["winner"] % 2 == side for t in tricks):
            capot_side = side
    total = deal_total(trump, rules)
    assert sum(trick_points) == total

    sc = naive_score(
        rules.tie_rule,
        trick_points,
        taker % 2,
        capot_side,
        decl_points,
        belote,
        pot_before,
        total,
    )

    out["thrown_in"] = False
    out["trump"] = TRUMP_NAMES[trump]
    out["taker"] = taker
    out["contract"] = None
    out["hands"] = [_fmt_sorted(h) for h in start_hands]
    out["tricks"] = tricks
    out["declarations"] = {"held": held, "winner_seat": winner_seat, "points": decl_points}
    out["belote"] = belote
    out["card_points"] = sc["card_points"]
    out["capot"] = None if capot_side is None else [s for s in range(n) if s % 2 == capot_side]
    out["outcome"] = sc["outcome"]
    out["pot"] = sc["pot"]
    out["pot_won_by"] = sc["pot_won_by"]
    out["deal_score"] = sc["deal_score"]
    return out


def normalize_deal(deal: dict[str, Any]) -> dict[str, Any]:
    """A copy of a deal-log object whose declaration lists are in a canonical order
    (DEAL_LOG.md: "entries in any order"), for comparisons."""
    out = dict(deal)
    decl = out.get("declarations")
    if decl is not None:
        out["declarations"] = dict(decl)
        out["declarations"]["held"] = [
            sorted(h, key=lambda d: (d["kind"], d["top"], d["length"], d["points"]))
            for h in decl["held"]
        ]
    return out
