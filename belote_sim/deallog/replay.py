"""Replay of deal logs: every call and card checked by the simulator's own kernels.

>>> from belote_sim import replay
>>> deal = {"rules": "classic", "dealer": 3, "pack": PACK_EXAMPLE, "calls": ["pass"] * 8}
>>> replay(deal)["thrown_in"]
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from belote_sim.cards import SUITS, format_card, format_cards
from belote_sim.deallog.format import CALL_NAMES, DealInput, format_call, record_to_deal
from belote_sim.errors import IllegalPlayError
from belote_sim.game import coinche
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.kernels.api import RULE_TEXT
from belote_sim.kernels.calls import contract_value, is_bid
from belote_sim.rules import Rules

#: A pack in index order, for examples.
PACK_EXAMPLE = [format_card(i) for i in range(32)]


def replay(deal: dict[str, Any], *, number: int = 1) -> dict[str, Any]:
    """Check and play one deal-log object; return it with every result field filled in.

    ``number`` is the deal's number in its file, used in error messages. Raises
    :class:`~belote_sim.errors.DealLogError` for a malformed deal and
    :class:`~belote_sim.errors.IllegalPlayError` for an illegal call or card.
    """
    inp = DealInput(deal, number)
    rec, status, _ = replay_deal(
        inp.rules.to_array(), inp.pack, inp.dealer, inp.pot_before, inp.redeals_before,
        inp.calls, inp.plays, False,
    )
    if status != L.ST_OK:
        raise IllegalPlayError(explain(rec, int(status), number, inp.rules))
    given = {k: v for k, v in deal.items() if k in _INPUT_FIELDS}
    return record_to_deal(rec, inp.rules, given)


_INPUT_FIELDS = ("rules", "dealer", "pack", "calls", "plays", "redeals_before", "pot_before")


def explain(rec: np.ndarray, status: int, number: int, rules: Rules,
            where: str | None = None) -> str:
    """One line naming the deal (``where``, default ``deal NUMBER``), the step, the
    seat, the call or card and the rule a refused deal broke."""
    where = f"deal {number}" if where is None else where
    step = int(rec[L.ERR_STEP])
    seat = int(rec[L.ERR_SEAT])
    item = int(rec[L.ERR_ITEM])
    if status == L.ST_BAD_CALL and int(rec[L.ERR_LEGAL]) >= coinche.WHY_NOT_HIGHER:
        why = _coinche_call_rule(rec, step, int(rec[L.ERR_LEGAL]), rules)
        call = format_call(item, rules.capot_value)
        return f"{where}, call {step + 1}: '{call}' by seat {seat} is illegal: {why}"
    if status == L.ST_BAD_CALL:
        call = format_call(item) if item in CALL_NAMES else str(item)
        rnd = int(rec[L.ERR_LEGAL])
        any_suit = rules.second_round == "any"
        suits = "a suit" if any_suit else "a suit other than the turned card's"
        if (
            rnd == 2
            and item == L.CALL_PASS
            and seat == int(rec[L.DEALER])
            and int(rec[L.REDEALS_BEFORE]) >= 2
        ):
            why = (
                "after two redeals in a row the dealer may not pass in round 2 "
                f"(RULES 7.2, stock game): name {suits}"
            )
        elif rnd == 1:
            why = "round 1 allows only 'take' or 'pass'"
        elif rnd == 3:
            why = "round 3 allows only 'AT' (all-trumps), 'NT' (no-trumps) or 'pass'"
        elif not any_suit and item - L.CALL_SUIT == int(rec[L.RETOURNE]) >> 3:
            why = f"round 2 may not name the retourne's suit ({SUITS[item - L.CALL_SUIT]})"
        elif any_suit:
            why = "round 2 allows a suit (C, D, H, S; second_round=any) or 'pass'"
        else:
            why = "round 2 allows a suit other than the retourne's (C, D, H, S) or 'pass'"
        return f"{where}, call {step + 1}: '{call}' by seat {seat} is illegal: {why}"
    if status == L.ST_MISSING_CALLS:
        return (
            f"{where}: the calls end after {step} call(s) but the bidding is not over "
            f"(seat {seat} to speak)"
        )
    if status == L.ST_EXTRA_CALLS:
        return (
            f"{where}, call {step + 1}: '{format_call(item, rules.capot_value)}' comes "
            "after the bidding is over"
        )
    if status == L.ST_MISSING_PLAYS:
        return (
            f"{where}: the plays end after {step} card(s) but the deal is not over "
            f"(seat {seat} to play)"
        )
    if status == L.ST_EXTRA_PLAYS:
        return f"{where}, play {step + 1}: {format_card(item)} comes after the deal is over"
    card = format_card(item)
    legal = ", ".join(format_cards(rec[L.ERR_LEGAL]))
    if status == L.ST_NOT_IN_HAND:
        return (
            f"{where}, play {step + 1}: {card} by seat {seat} is illegal: "
            f"seat {seat} does not hold {card} (legal: {legal})"
        )
    rule = RULE_TEXT[int(rec[L.ERR_RULE])]
    return f"{where}, play {step + 1}: {card} by seat {seat} is illegal: {rule} ({legal})"


def _coinche_call_rule(rec: np.ndarray, step: int, why: int, rules: Rules) -> str:
    """The coinche auction rule (RULES 7.4) a refused call breaks: ``why`` is the kernel's
    ``WHY_*`` code, ``ERR_RULE`` the bid the call had to beat."""
    high = int(rec[L.ERR_RULE])
    cv = rules.capot_value
    if why == coinche.WHY_NOT_HIGHER:
        value = int(contract_value(high, cv))
        return (f"a bid must be higher than {value} (the current bid is "
                f"{format_call(high, cv)})")
    if why == coinche.WHY_STRAIN:
        return "all-trumps (AT) and no-trumps (NT) bids need all_no_trumps_round=on"
    if why == coinche.WHY_LADDER:
        return "bids of 170 to 260 need capot_value=270 (the capot bid is 250 here)"
    if why == coinche.WHY_COINCHE_NO_BID:
        return "coinche only once there is a bid (nobody has bid yet)"
    if why == coinche.WHY_COINCHE_OWN_SIDE:
        # Every bid comes before any coinche: call i was made by seat first hand + i.
        bids = [i for i in range(step) if is_bid(int(rec[L.CALLS + i]))]
        bidder = (int(rec[L.FIRST_HAND]) + bids[-1]) % 4 if bids else -1
        return (
            f"coinche only by an opponent of the high bidder (seat {bidder} bid "
            f"{format_call(high, cv)})"
        )
    if why in (coinche.WHY_SURCOINCHE_NO_COINCHE, coinche.WHY_SURCOINCHE_DEFENCE):
        return "surcoinche only by the high bidder's side after a coinche"
    after = ("the high bidder's side may only surcoinche or pass, the coincher's partner "
             "only pass" if rules.after_coinche == "three-passes"
             else "the high bidder's side may only surcoinche or pass")
    if why == coinche.WHY_BID_AFTER_COINCHE:
        return f"nobody may bid after a coinche: {after}"
    if why == coinche.WHY_COINCHE_AGAIN:
        return f"the bid is already coinched: {after}"
    return (
        f"a coinche call is a bid (80..160 or {cv} with C, D, H, S, AT or NT, e.g. 90H), "
        "pass, coinche or surcoinche"
    )
