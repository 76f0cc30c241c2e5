"""Double-dummy analysis of deal logs: where was the deal won or lost?

For each position of a deal (before each card played, and after the last card given),
:func:`analyse` gives the double-dummy value: the takers' card points, counted as the
deal log's ``card_points`` counts them (the last-trick bonus and capot included, scaled
to 162 in coinche all-trumps and no-trumps), under perfect play by everyone from that
position. ``cost[i]`` is what play ``i`` cost its own side against the best card there.
The deal is replayed by the same kernels as :func:`belote_sim.deallog.replay`, so an illegal
card is refused with the same message; the plays may stop anywhere.

>>> from belote_sim.deallog.analyse import analyse
>>> from belote_sim.deallog.replay import PACK_EXAMPLE
>>> deal = {"rules": "classic", "dealer": 0, "pack": PACK_EXAMPLE,
...         "calls": ["take"], "plays": []}
>>> out = analyse(deal)
>>> len(out["dd"]), out["cost"]
(1, [])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from belote_sim.cards import CAPOT_BONUS, SCALED_TOTAL
from belote_sim.dd.kit import NO_VALUE
from belote_sim.deallog.format import DealInput
from belote_sim.deallog.replay import _INPUT_FIELDS, explain
from belote_sim.errors import IllegalPlayError
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.kernels.scoring import TOTALS, scale_to_162
from belote_sim.rules import Rules


def analyse(deal: dict[str, Any], *, number: int = 1) -> dict[str, Any]:
    """The deal-log object's input fields plus ``dd`` (``len(plays) + 1`` values, ``None``
    in the stock game's free tricks, which the solver does not model) and ``cost`` (one
    per play). A thrown-in deal has no takers: ``dd`` is ``[None]``.

    Raises :class:`~belote_sim.errors.DealLogError` for a malformed deal and
    :class:`~belote_sim.errors.IllegalPlayError` for an illegal call or card, or when
    the calls stop before the bidding is over.
    """
    inp = DealInput(deal, number)
    rec, status, values = replay_deal(
        inp.rules.to_array(), inp.pack, inp.dealer, inp.pot_before, inp.redeals_before,
        inp.calls, inp.plays, True,
    )
    status = int(status)
    if status not in (L.ST_OK, L.ST_MISSING_PLAYS):
        raise IllegalPlayError(explain(rec, status, number, inp.rules))
    out = {k: v for k, v in deal.items() if k in _INPUT_FIELDS}
    n_plays = len(inp.plays)
    if status == L.ST_OK and int(rec[L.THROWN_IN]) != 0:
        out["dd"] = [None]
        out["cost"] = []
        return out
    to_points = _card_points(inp.rules, int(rec[L.TRUMP]), rec)
    before = [to_points(int(values[0, i])) for i in range(n_plays + 1)]
    after = [to_points(int(values[1, i])) for i in range(n_plays)]
    out["dd"] = before
    out["cost"] = [
        None if b is None or a is None else abs(b - a)
        for b, a in zip(before[:-1], after, strict=True)
    ]
    return out


def _card_points(rules: Rules, trump: int, rec: np.ndarray):
    """The map from the kernel's value (takers' trick points, +90 for their capot) to the
    deal log's ``card_points``: coinche scales all-trumps, and no-trumps counted doubled,
    to 162 (RULES 7.4 step 4)."""
    k10 = 1 if rules.king_value == 10 else 0
    ace19 = 1 if rules.nt_values == "ace19" else 0
    total = int(TOTALS[k10, ace19, trump])
    scale = rules.contract == "coinche" and (trump == 4 or (trump == 5 and not ace19))

    def convert(value: int) -> int | None:
        if value == NO_VALUE:
            return None
        if not scale:
            return value
        if value >= total + CAPOT_BONUS:
            return SCALED_TOTAL + CAPOT_BONUS
        return int(scale_to_162(value, total))

    return convert
