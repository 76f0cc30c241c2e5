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
from belote_sim.deallog import DealInput, format_call, record_to_deal
from belote_sim.engine import RULE_TEXT
from belote_sim.errors import IllegalPlayError
from belote_sim.kernels import layout as L
from belote_sim.kernels.game import replay_deal

#: A pack in index order, for examples.
PACK_EXAMPLE = [format_card(i) for i in range(32)]


def replay(deal: dict[str, Any], *, number: int = 1) -> dict[str, Any]:
    """Check and play one deal-log object; return it with every result field filled in.

    ``number`` is the deal's number in its file, used in error messages. Raises
    :class:`~belote_sim.errors.DealLogError` for a malformed deal and
    :class:`~belote_sim.errors.IllegalPlayError` for an illegal call or card.
    """
    inp = DealInput(deal, number)
    rec, status = replay_deal(
        inp.rules.to_array(), inp.pack, inp.dealer, inp.pot_before, inp.redeals_before,
        inp.calls, inp.plays,
    )
    if status != L.ST_OK:
        raise IllegalPlayError(_explain(rec, int(status), number))
    given = {k: v for k, v in deal.items() if k in _INPUT_FIELDS}
    return record_to_deal(rec, inp.rules, given)


_INPUT_FIELDS = ("rules", "dealer", "pack", "calls", "plays", "redeals_before", "pot_before")


def _explain(rec: np.ndarray, status: int, number: int) -> str:
    """One line naming the deal, the step, the seat, the call or card and the rule."""
    step = int(rec[L.ERR_STEP])
    seat = int(rec[L.ERR_SEAT])
    item = int(rec[L.ERR_ITEM])
    if status == L.ST_BAD_CALL:
        call = format_call(item) if item in range(8) else str(item)
        rnd = int(rec[L.ERR_LEGAL])
        if rnd == 1:
            why = "round 1 allows only 'take' or 'pass'"
        elif item - L.CALL_SUIT == int(rec[L.RETOURNE]) >> 3:
            why = f"round 2 may not name the retourne's suit ({SUITS[item - L.CALL_SUIT]})"
        else:
            why = "round 2 allows a suit other than the retourne's (C, D, H, S) or 'pass'"
        return f"deal {number}, call {step + 1}: '{call}' by seat {seat} is illegal: {why}"
    if status == L.ST_MISSING_CALLS:
        return (
            f"deal {number}: the calls end after {step} call(s) but the bidding is not over "
            f"(seat {seat} to speak)"
        )
    if status == L.ST_EXTRA_CALLS:
        return (
            f"deal {number}, call {step + 1}: '{format_call(item)}' comes after the bidding "
            "is over"
        )
    if status == L.ST_MISSING_PLAYS:
        return (
            f"deal {number}: the plays end after {step} card(s) but the deal is not over "
            f"(seat {seat} to play)"
        )
    if status == L.ST_EXTRA_PLAYS:
        return f"deal {number}, play {step + 1}: {format_card(item)} comes after the deal is over"
    card = format_card(item)
    legal = ", ".join(format_cards(rec[L.ERR_LEGAL]))
    if status == L.ST_NOT_IN_HAND:
        return (
            f"deal {number}, play {step + 1}: {card} by seat {seat} is illegal: "
            f"seat {seat} does not hold {card} (legal: {legal})"
        )
    rule = RULE_TEXT[int(rec[L.ERR_RULE])]
    return f"deal {number}, play {step + 1}: {card} by seat {seat} is illegal: {rule} ({legal})"
