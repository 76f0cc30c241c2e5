"""The plain-Python reference ("test oracle") of a coinche deal (``coinche`` and the
rulebooks of section 10; RULES.md 7.4 and section 8, Coinche): the deal in packets, the
auction, the play, AT/NT card points scaled to 162 and the contract's scoring.

Written independently, straight from ``docs/spec/RULES.md`` and ``docs/spec/DEAL_LOG.md`` with
Python sets and lists, not from the engine: it builds on :mod:`reference.rules_ref`
only, and imports nothing from ``belote_sim.kernels`` or ``belote_sim.kernels.api``.
"""

from __future__ import annotations

from typing import Any

from belote_sim.cards import format_card, parse_card
from belote_sim.rules import Rules
from reference.rules_ref import (
    ALL_TRUMPS,
    NO_TRUMPS,
    TRUMP_NAMES,
    belote_seats,
    deal_total,
    fmt_sorted,
    inputs_of,
    naive_coinche_score,
    naive_contest,
    naive_declarations,
    naive_legal_cards,
    naive_trick_winner,
    seat_card_points,
)

__all__ = ["BID_VALUES", "naive_auction", "naive_coinche_replay"]

#: The values a bid may name (RULES 7.4 step 2); 250 is capot.
BID_VALUES = (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)


def naive_auction(calls: list[str], first: int, at_nt: bool, rules: Rules | None = None):
    """RULES 7.4 step 2: ``(taker, strain, value, multiplier, capot_bid)``, None when
    thrown in; raises ValueError on an illegal call or a wrong number of calls."""
    rules = rules or Rules.from_preset("coinche")
    capot = rules.capot_value
    values = (*range(80, 161, 10), 250) if capot == 250 else tuple(range(80, 271, 10))
    high = None  # (value, strain, seat)
    passes = 0
    i = 0
    m = 1

    def take() -> str:
        nonlocal i
        if i >= len(calls):
            raise ValueError("the auction is not over")
        i += 1
        return calls[i - 1].lower()

    seat = first
    while True:
        c = take()
        if c == "coinche":
            if high is None or high[2] % 2 == seat % 2:
                raise ValueError(f"call {i}: coinche")
            m = 2
            # The high bidder's side answers in turn from the coincher; with
            # three-passes the coincher's partner speaks between them, and only passes.
            answer = (1, 2, 3) if rules.after_coinche == "three-passes" else (1, 3)
            for k in answer:
                c = take()
                if c == "surcoinche" and (seat + k) % 2 == high[2] % 2:
                    m = rules.surcoinche_mult
                    break
                if c != "pass":
                    raise ValueError(f"call {i}: {c} after a coinche")
            break
        if c == "pass":
            passes += 1
            if (high is None and passes == 4) or (high is not None and passes == 3):
                break
        else:
            value = int("".join(ch for ch in c if ch.isdigit()) or 0)
            strain = c.lstrip("0123456789").upper()
            if value not in values:
                raise ValueError(f"call {i}: value {value}")
            if strain not in TRUMP_NAMES or (strain in ("AT", "NT") and not at_nt):
                raise ValueError(f"call {i}: strain {strain}")
            if high is not None and value <= high[0]:
                raise ValueError(f"call {i}: not higher")
            high = (value, strain, seat)
            passes = 0
        seat = (seat + 1) % 4
    if i != len(calls):
        raise ValueError("calls after the end of the auction")
    if high is None:
        return None
    return high[2], TRUMP_NAMES.index(high[1]), high[0], m, high[0] == capot


def naive_coinche_replay(deal: dict[str, Any]) -> dict[str, Any]:
    """A whole coinche deal from its input fields, with every result field of
    DEAL_LOG.md. Raises ``ValueError`` on an illegal call or card."""
    rules = Rules.from_spec(deal["rules"])
    dealer = deal["dealer"]
    pack = [parse_card(c) for c in deal["pack"]]
    first = (dealer + 1) % 4
    order = [(first + i) % 4 for i in range(4)]
    # Step 1: the packets of coinche_packets from the first hand; "3-3+2" deals its
    # last round only after an auction that produced a contract.
    hands: list[set[int]] = [set() for _ in range(4)]
    top = 0
    before, _, after = rules.coinche_packets.partition("+")

    def deal_round(size: int) -> None:
        nonlocal top
        for seat in order:
            hands[seat].update(pack[top : top + size])
            top += size

    for size in before.split("-"):
        deal_round(int(size))
    out = inputs_of(deal)
    contract = naive_auction(deal["calls"], first, rules.all_no_trumps_round, rules)
    if contract is None:
        out["thrown_in"] = True
        out["hands"] = [fmt_sorted(h) for h in hands]
        return out
    if after:
        deal_round(int(after))
    fmt = [fmt_sorted(h) for h in hands]
    taker, trump, value, m, capot_bid = contract
    start = [set(h) for h in hands]
    plays = [parse_card(c) for c in deal["plays"]]
    assert len(plays) == 32
    tricks = []
    leader, p = first, 0
    for _ in range(8):
        cards: list[int] = []
        legal_lists = []
        for k in range(4):
            seat = (leader + k) % 4
            legal = naive_legal_cards(rules, hands[seat], cards, leader, trump, taker)
            if plays[p] not in legal:
                raise ValueError(f"play {p + 1} is illegal")
            hands[seat].remove(plays[p])
            cards.append(plays[p])
            legal_lists.append(fmt_sorted(legal))
            p += 1
        winner = (leader + naive_trick_winner(cards, trump)) % 4
        tricks.append({"leader": leader, "cards": [format_card(c) for c in cards],
                       "winner": winner, "legal": legal_lists})
        leader = winner
    if rules.declarations:
        held = [naive_declarations(h, rules.split_long_runs) for h in start]
        _, winner_seat, decl = naive_contest(held, trump, first, rules.declaration_tie)
    else:
        held, winner_seat, decl = [[] for _ in range(4)], None, [0, 0]
    belote = [0, 0]
    for seat in belote_seats(start, trump, rules):
        belote[seat % 2] += 20
    seat_points = seat_card_points(tricks, trump, rules, 4)
    trick_points = [seat_points[0] + seat_points[2], seat_points[1] + seat_points[3]]
    total = deal_total(trump, rules)
    assert sum(trick_points) == total
    capot_side = next((s for s in (0, 1) if all(t["winner"] % 2 == s for t in tricks)), None)
    scale = trump == ALL_TRUMPS or (trump == NO_TRUMPS and rules.nt_values == "doubled")
    sc = naive_coinche_score(trick_points, taker % 2, capot_side, decl, belote, value, m,
                             total, scale, rules, capot_bid)
    out.update(
        thrown_in=False, trump=TRUMP_NAMES[trump], taker=taker,
        contract={"value": value, "strain": TRUMP_NAMES[trump], "multiplier": m},
        hands=fmt, tricks=tricks,
        declarations={"held": held, "winner_seat": winner_seat, "points": decl},
        belote=belote, card_points=sc["card_points"],
        capot=None if capot_side is None else [s for s in range(4) if s % 2 == capot_side],
        outcome=sc["outcome"], pot=0, pot_won_by=None, deal_score=sc["deal_score"],
    )
    return out
