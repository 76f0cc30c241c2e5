"""The plain-Python reference ("test oracle") of the two-player games: the stock game
(``stock-2p``, RULES.md 7.2) and the two-player no-contract game (``no-contract-2p``,
7.3), scored by section 8.

Written independently, straight from ``docs/spec/RULES.md`` and ``docs/spec/DEAL_LOG.md`` with
Python sets and lists, not from the engine: it builds on :mod:`reference.rules_ref`
only, and imports nothing from ``belote_sim.kernels`` or ``belote_sim.kernels.api``.
"""

from __future__ import annotations

from typing import Any

from belote_sim.cards import SUITS, format_card, parse_card
from belote_sim.rules import Rules
from reference.rules_ref import (
    TRUMP_NAMES,
    card_value,
    fmt_sorted,
    inputs_of,
    naive_contest,
    naive_declarations,
    naive_legal_cards,
    naive_score,
    naive_score_no_contract,
    naive_trick_winner,
    round_two_suits,
)

__all__ = ["naive_two_player_replay"]


def naive_two_player_replay(deal: dict[str, Any]) -> dict[str, Any]:
    """Play a ``stock-2p`` or two-player no-contract deal from its input fields and
    return every result field of DEAL_LOG.md. Raises ``ValueError`` on a bad call/card."""
    rules = Rules.from_spec(deal["rules"])
    stock = rules.contract == "stock"
    assert rules.players == 2 and rules.contract in ("stock", "none")
    dealer = deal["dealer"]
    hand = 1 - dealer
    order = [hand, dealer]
    pack = [parse_card(c) for c in deal["pack"]]
    calls = [c.strip().lower() for c in deal.get("calls", [])]
    plays = [parse_card(c) for c in deal.get("plays", [])]
    redeals = deal.get("redeals_before", 0)
    out = inputs_of(deal)

    hands: list[set[int]] = [set(), set()]
    top = 0
    for _ in range(2):  # 3 + 3, the non-dealer first
        for seat in order:
            hands[seat].update(pack[top : top + 3])
            top += 3
    turned = pack[top]
    top += 1

    taker = trump = None
    i = 0
    for rnd in (1, 2):
        for seat in order:
            if i >= len(calls):
                raise ValueError("the calls end before the bidding is over")
            c = calls[i]
            i += 1
            if c == "pass":
                if stock and rnd == 2 and seat == dealer and redeals == 2:
                    raise ValueError("the dealer may not pass")
                continue
            if rnd == 1 and c == "take":
                taker, trump = seat, turned // 8
            elif rnd == 2 and c.upper() in SUITS and (
                SUITS.index(c.upper()) in round_two_suits(rules, turned)
            ):
                taker, trump = seat, SUITS.index(c.upper())
            else:
                raise ValueError(f"bad call {c!r}")
            break
        if taker is not None:
            break
    if i != len(calls):
        raise ValueError("calls after the bidding")
    if taker is None:
        if plays:
            raise ValueError("plays after a thrown-in deal")
        out["thrown_in"] = True
        out["hands"] = [fmt_sorted(h) for h in hands]
        return out

    if stock:
        hands[taker].add(turned)
        for seat in order:
            k = 2 if seat == taker else 3
            hands[seat].update(pack[top : top + k])
            top += k
        stock_cards = pack[top:]
        assert len(stock_cards) == 14
    else:
        for seat in order:
            hands[seat].update(pack[top : top + 3])
            top += 3
        seven = 8 * trump
        if trump == turned // 8:
            for seat in (0, 1):
                if seven in hands[seat]:
                    hands[seat] = hands[seat] - {seven} | {turned}
    out["thrown_in"] = False
    out["trump"] = TRUMP_NAMES[trump]
    out["taker"] = taker
    out["contract"] = None
    out["hands"] = [fmt_sorted(h) for h in hands]

    held = [naive_declarations(h, rules.split_long_runs) if rules.declarations else []
            for h in hands]
    if rules.declarations:
        _, winner_seat, decl_points = naive_contest(held, trump, hand, rules.declaration_tie)
    else:
        winner_seat, decl_points = None, [0, 0]
    belote = [0, 0]
    kq = {8 * trump + 5, 8 * trump + 6}
    if not stock and rules.belote:
        for seat in (0, 1):
            if kq <= hands[seat]:
                belote[seat] += 20

    n_tricks = 16 if stock else 9
    leader = hand
    k = 0
    pts = [0, 0]
    tricks = []
    for t in range(n_tricks):
        cards: list[int] = []
        legal_sets = []
        for j in range(2):
            seat = (leader + j) % 2
            if k >= len(plays):
                raise ValueError("the plays end before the deal is over")
            card = plays[k]
            k += 1
            if j == 0 or (stock and t < 7):
                legal = set(hands[seat])
            else:
                legal = naive_legal_cards(rules, hands[seat], cards, leader, trump, taker)
            if card not in legal:
                raise ValueError(f"play {k}: {format_card(card)} is illegal")
            # stock game: belote when the first of K and Q is played holding the other
            if stock and rules.belote and card in kq and (kq - {card}) <= hands[seat]:
                belote[seat] += 20
            hands[seat].remove(card)
            cards.append(card)
            legal_sets.append(fmt_sorted(legal))
        w = (leader + naive_trick_winner(cards, trump)) % 2
        pts[w] += sum(card_value(c, trump, rules) for c in cards) + (10 if t == n_tricks - 1 else 0)
        if stock and t < 7:
            hands[w].add(stock_cards[2 * t])
            hands[1 - w].add(stock_cards[2 * t + 1])
        tricks.append({"leader": leader, "cards": [format_card(c) for c in cards],
                       "winner": w, "legal": legal_sets})
        leader = w
    if k != len(plays):
        raise ValueError("plays after the deal")
    winners = {t["winner"] for t in tricks}
    capot_side = next(iter(winners)) if len(winners) == 1 else None
    out["tricks"] = tricks
    out["declarations"] = {"held": held, "winner_seat": winner_seat, "points": decl_points}
    out["belote"] = belote
    out["capot"] = None if capot_side is None else [capot_side]
    out["pot"] = 0
    out["pot_won_by"] = None
    if stock:
        sc = naive_score(rules.tie_rule, pts, taker, capot_side, decl_points, belote,
                         total=162, capot_total=rules.capot_total,
                         contract_counts=rules.contract_counts)
        out["card_points"] = sc["card_points"]
        out["outcome"] = sc["outcome"]
        out["pot"] = sc["pot"]
        out["pot_won_by"] = sc["pot_won_by"]
        out["deal_score"] = sc["deal_score"]
    else:
        # the capot's 100 replaces the last trick's 10
        out.update(naive_score_no_contract(pts, taker, capot_side, decl_points, belote))
    return out
