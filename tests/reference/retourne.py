"""The plain-Python reference ("test oracle") of every retourne deal: RULES.md 7.1 with
four players (``classic``, ``litige``, ``sans-annonces``, ``tout-atout``) or three
(``three-player``), and the four-player no-contract game of 7.3 (``no-contract-4p``),
dealt and bid as 7.1; scored by section 8.

Written independently, straight from ``docs/spec/RULES.md`` and ``docs/spec/DEAL_LOG.md`` with
Python sets and lists, not from the engine: it builds on :mod:`reference.rules_ref`
only, and imports nothing from ``belote_sim.kernels`` or ``belote_sim.kernels.api``.
"""

from __future__ import annotations

from typing import Any

from belote_sim.cards import SUITS, format_card, parse_card
from belote_sim.rules import Rules
from reference.rules_ref import (
    ALL_TRUMPS,
    NO_TRUMPS,
    TRUMP_NAMES,
    belote_seats,
    deal_total,
    fmt_sorted,
    inputs_of,
    naive_contest_sides,
    naive_declarations,
    naive_legal_cards,
    naive_score,
    naive_score_no_contract,
    naive_score_three_player,
    naive_sides,
    naive_trick_winner,
    round_two_suits,
    seat_card_points,
)

__all__ = ["FAMILY", "deal_before_bidding", "pick_up", "naive_bidding", "naive_retourne_replay"]

#: (contract, players) of the deals this reference plays.
FAMILY = {("retourne", 3), ("retourne", 4), ("none", 4)}


def deal_before_bidding(rules: Rules, pack: list[int], first: int) -> tuple[list[set[int]], int]:
    """RULES 7.1 step 1: five cards each in packets (3 then 2, or 2 then 3 with
    ``first_packets = 2-3``) from the first hand, then the retourne turned. Returns the
    hands and the retourne; the next card to deal is ``pack[5 * n + 1]``."""
    n = rules.players
    order = [(first + i) % n for i in range(n)]
    hands: list[set[int]] = [set() for _ in range(n)]
    top = 0
    for size in (3, 2) if rules.first_packets == "3-2" else (2, 3):
        for seat in order:
            hands[seat].update(pack[top : top + size])
            top += size
    return hands, pack[top]


def pick_up(rules: Rules, pack: list[int], first: int, hands: list[set[int]], taker: int) -> int:
    """RULES 7.1 step 4, in place: the taker picks up the retourne and 2 more cards,
    everyone else 3, in turn order from the first hand. Returns the cards dealt so far
    (``8 * n``; with three players the last 8 cards stay out of play)."""
    n = rules.players
    top = 5 * n
    hands[taker].add(pack[top])
    top += 1
    for seat in [(first + i) % n for i in range(n)]:
        size = 2 if seat == taker else 3
        hands[seat].update(pack[top : top + size])
        top += size
    return top


def naive_bidding(
    rules: Rules, calls: list[str], order: list[int], retourne: int
) -> tuple[int | None, int | None]:
    """RULES 7.1 steps 2-3: round 1 (take the retourne's suit), round 2 (name another
    suit, any suit with ``second_round = any``), round 3 (AT/NT) when
    ``all_no_trumps_round``. Returns ``(taker, trump)``, ``(None, None)`` when everybody
    passed; raises ``ValueError`` on an illegal call or a wrong number of calls."""
    calls = [c.strip().lower() for c in calls]
    rounds = 3 if rules.all_no_trumps_round else 2
    allowed = round_two_suits(rules, retourne)
    i = 0
    for rnd in range(1, rounds + 1):
        for seat in order:
            if i >= len(calls):
                raise ValueError(f"the calls end after {i} call(s) but the bidding is not over")
            c = calls[i]
            i += 1
            if c == "pass":
                continue
            if rnd == 1 and c == "take":
                taker, trump = seat, retourne // 8
            elif rnd == 2 and c.upper() in SUITS and SUITS.index(c.upper()) in allowed:
                taker, trump = seat, SUITS.index(c.upper())
            elif rnd == 3 and c in ("at", "nt"):
                taker, trump = seat, ALL_TRUMPS if c == "at" else NO_TRUMPS
            else:
                raise ValueError(f"call {i}: {c!r} is not allowed in round {rnd}")
            if i != len(calls):
                raise ValueError(f"call {i + 1}: calls left after the bidding is over")
            return taker, trump
    if i != len(calls):
        raise ValueError(f"call {i + 1}: calls left after the bidding is over")
    return None, None


def naive_retourne_replay(deal: dict[str, Any]) -> dict[str, Any]:
    """Play a retourne deal (three or four players) or a four-player no-contract deal
    from its input fields and return it with every result field of DEAL_LOG.md. Raises
    ``ValueError`` on an illegal call or card, or on a deal of another family."""
    rules = Rules.from_spec(deal.get("rules", "classic"))
    n = rules.players
    if (rules.contract, n) not in FAMILY:
        raise ValueError("naive_retourne_replay plays 7.1 with 3 or 4 players and 7.3 with 4")
    dealer = deal["dealer"]
    pack = [parse_card(c) for c in deal["pack"]]
    if sorted(pack) != list(range(32)):
        raise ValueError("the pack must hold the 32 cards once each")
    plays = [parse_card(c) for c in deal.get("plays", [])]
    pot_before = deal.get("pot_before", 0)
    first = (dealer + 1) % n
    order = [(first + i) % n for i in range(n)]
    out = inputs_of(deal)

    hands, retourne = deal_before_bidding(rules, pack, first)
    taker, trump = naive_bidding(rules, deal.get("calls", []), order, retourne)
    if taker is None:
        out["thrown_in"] = True
        out["hands"] = [fmt_sorted(h) for h in hands]
        return out

    top = pick_up(rules, pack, first, hands, taker)
    assert top == 8 * n and all(len(h) == 8 for h in hands)
    start = [set(h) for h in hands]
    sides = naive_sides(n, taker)

    # Play: 8 tricks of n cards, the first hand leading the first (section 6).
    if len(plays) != 8 * n:
        raise ValueError(f"a deal has {8 * n} plays, got {len(plays)}")
    tricks = []
    leader = first
    p = 0
    for _ in range(8):
        cards: list[int] = []
        legal_lists = []
        for k in range(n):
            seat = (leader + k) % n
            legal = naive_legal_cards(rules, hands[seat], cards, leader, trump, taker)
            card = plays[p]
            if card not in legal:
                raise ValueError(
                    f"play {p + 1}: {format_card(card)} by seat {seat} is illegal "
                    f"(legal: {' '.join(fmt_sorted(legal))})"
                )
            hands[seat].remove(card)
            cards.append(card)
            legal_lists.append(fmt_sorted(legal))
            p += 1
        winner = (leader + naive_trick_winner(cards, trump)) % n
        tricks.append({"leader": leader, "cards": [format_card(c) for c in cards],
                       "winner": winner, "legal": legal_lists})
        leader = winner

    # Declarations and their contest (section 5): per seat with three players, else per
    # side; the winning side scores every declaration its seats hold.
    width = 3 if n == 3 else 2
    decl_points = [0] * width
    winner_seat = None
    if rules.declarations:
        held = [naive_declarations(h, rules.split_long_runs) for h in start]
        w_side, winner_seat = naive_contest_sides(held, sides, trump, first,
                                                  rules.declaration_tie)
        if w_side is not None:
            for seat in range(n):
                if sides[seat] == w_side:
                    decl_points[seat if n == 3 else w_side] += sum(d["points"] for d in held[seat])
    else:
        held = [[] for _ in range(n)]

    # Belote-rebelote: 20 per K+Q of a trump suit in one hand at the first trick.
    belote = [0] * width
    for seat in belote_seats(start, trump, rules):
        belote[seat if n == 3 else sides[seat]] += 20

    # Card points won by each seat, last trick included; a capot is every trick to one side.
    seat_points = seat_card_points(tricks, trump, rules, n)
    winning_sides = {sides[t["winner"]] for t in tricks}
    capot_side = winning_sides.pop() if len(winning_sides) == 1 else None

    out["thrown_in"] = False
    out["trump"] = TRUMP_NAMES[trump]
    out["taker"] = taker
    out["contract"] = None
    out["hands"] = [fmt_sorted(h) for h in start]
    out["tricks"] = tricks
    out["declarations"] = {"held": held, "winner_seat": winner_seat, "points": decl_points}
    out["belote"] = belote
    out["capot"] = (
        None if capot_side is None else [s for s in range(n) if sides[s] == capot_side]
    )
    out["pot"] = 0
    out["pot_won_by"] = None

    # Section 8.
    if n == 3:
        capot = None if capot_side is None else ("taker" if capot_side == 0 else "defenders")
        sc = naive_score_three_player(rules, seat_points, taker, capot, decl_points, belote)
        out["card_points"] = sc["card_points"]
        out["outcome"] = sc["outcome"]
        out["deal_score"] = sc["deal_score"]
        return out
    side_points = [sum(seat_points[s] for s in range(n) if sides[s] == side) for side in (0, 1)]
    total = deal_total(trump, rules)
    assert sum(side_points) == total  # all 32 cards are played
    if rules.contract == "none":
        out.update(naive_score_no_contract(side_points, sides[taker], capot_side, decl_points,
                                           belote))
        return out
    sc = naive_score(rules.tie_rule, side_points, sides[taker], capot_side, decl_points,
                     belote, pot_before, total, rules.capot_total, rules.contract_counts)
    out["card_points"] = sc["card_points"]
    out["outcome"] = sc["outcome"]
    out["pot"] = sc["pot"]
    out["pot_won_by"] = sc["pot_won_by"]
    out["deal_score"] = sc["deal_score"]
    return out
