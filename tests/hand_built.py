"""Helpers shared by the tests: cards as text, the pack in index order, hand-built
deals (a deal-log dict from its input fields, the replay kernel's record and status
for it, and its plays completed legally by asking that kernel which cards are legal at
each step)."""

from __future__ import annotations

from typing import Any

from belote_sim.cards import format_card, format_cards, parse_card, parse_cards
from belote_sim.deallog import DealInput
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L

#: The 32 cards in index order (RULES 1): as a pack, the deal every test can read off.
PACK_BY_INDEX = [format_card(i) for i in range(32)]
#: The input fields of a deal-log deal (DEAL_LOG.md).
INPUT_FIELDS = ("rules", "dealer", "pack", "calls", "plays", "redeals_before", "pot_before")


def strs(cards: Any) -> list[str]:
    """Cards as text in the output notation (``"10s qh"`` -> ``["TS", "QH"]``), in the
    order given; ``[]`` for nothing."""
    return [format_card(c) for c in parse_cards(cards)] if cards else []


def sorted_hand(cards: str) -> list[str]:
    """The cards of ``cards`` in index order, as the deal log writes a hand."""
    return sorted(strs(cards), key=parse_card)


def inputs_of(deal: dict) -> dict:
    """The input fields of a deal-log deal."""
    return {k: deal[k] for k in INPUT_FIELDS if k in deal}


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
    prefs = {s: strs(p) for s, p in (prefs or {}).items()}
    for _ in range(40):
        rec, status = kernel(deal)
        if status == L.ST_OK:
            return deal
        assert status == L.ST_MISSING_PLAYS, status
        seat = int(rec[L.ERR_SEAT])
        legal = format_cards(rec[L.ERR_LEGAL])
        deal["plays"].append(next((c for c in prefs.get(seat, []) if c in legal), legal[0]))
    raise AssertionError("the deal did not end")
