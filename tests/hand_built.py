"""Hand-built deals for tests: a deal-log dict from its input fields, the replay
kernel's record and status for it, and its plays completed legally by asking that
kernel which cards are legal at each step."""

from __future__ import annotations

from typing import Any

from belote_sim.cards import format_card, format_cards, parse_cards
from belote_sim.deallog import DealInput
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L


def _strs(cards: Any) -> list[str]:
    return [format_card(c) for c in parse_cards(cards)] if cards else []


def deal_of(rules, dealer, pack, calls, plays=(), **extra) -> dict:
    """A deal-log dict from its input fields."""
    return {"rules": rules, "dealer": dealer, "pack": list(pack), "calls": list(calls),
            "plays": list(plays), **extra}


def kernel(deal: dict):
    """The replay kernel's record and status for ``deal``."""
    inp = DealInput(deal)
    rec, status, _ = replay_deal(
        inp.rules.to_array(), inp.pack, inp.dealer, inp.pot_before, inp.redeals_before,
        inp.calls, inp.plays, False,
    )
    return rec, int(status)


def play_out(deal: dict, prefs: dict | None = None) -> dict:
    """``deal`` with its plays completed legally: each seat plays the first card of its
    preference list ``prefs[seat]`` that is legal, else its lowest legal card. The legal
    set of each step comes from the replay kernel (its "plays end" error)."""
    deal = dict(deal, plays=list(deal.get("plays", [])))
    prefs = {s: _strs(p) for s, p in (prefs or {}).items()}
    for _ in range(40):
        rec, status = kernel(deal)
        if status == L.ST_OK:
            return deal
        assert status == L.ST_MISSING_PLAYS, status
        seat = int(rec[L.ERR_SEAT])
        legal = format_cards(rec[L.ERR_LEGAL])
        deal["plays"].append(next((c for c in prefs.get(seat, []) if c in legal), legal[0]))
    raise AssertionError("the deal did not end")
