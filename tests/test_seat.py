"""The seat object: one seat's view of a deal, and its player's choice there, the same as
inside ``simulate`` at every position of logged deals."""

from __future__ import annotations

import numpy as np
import pytest

from belote_sim import Rules
from belote_sim.cards import format_card, parse_card
from belote_sim.deallog.format import parse_call
from belote_sim.errors import BeloteError
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.studies.seat import Seat
from belote_sim.studies.simulate import simulated_deals


def _dealt(rules: Rules, log: dict, calls: list[str]) -> np.ndarray:
    """The engine's record of the logged deal's first ``calls``: who holds what, whose
    turn it is."""
    codes = np.array([parse_call(c) for c in calls], dtype=np.int64)
    pack = np.array([parse_card(c) for c in log["pack"]], dtype=np.int64)
    rec, _, _ = replay_deal(rules.to_array(), pack, log["dealer"], 0, 0, codes,
                            np.zeros(0, dtype=np.int64), False)
    return rec


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in range(32) if mask >> c & 1]


def positions_of(rules: Rules, log: dict):
    """Every decision of a logged deal: ``(seat, kind, calls so far, plays so far,
    what was chosen)``."""
    n = rules.players
    calls = log["calls"]
    for i, call in enumerate(calls):
        rec = _dealt(rules, log, calls[:i])
        yield int(rec[L.ERR_SEAT]), "call", calls[:i], [], call
    plays = log["plays"]
    for i, card in enumerate(plays):
        trick = log["tricks"][i // n]
        yield (trick["leader"] + i % n) % n, "card", calls, plays[:i], card


def seat_at(rules: Rules, log: dict, seat: int, calls: list[str], plays: list[str],
            bid: str, play: str) -> Seat:
    """A :class:`Seat` shown what ``seat`` saw of the logged deal up to a position."""
    first = _dealt(rules, log, [])
    retourne = int(first[L.RETOURNE])
    s = Seat(rules, seat, player=play, bid_policy=bid)
    s.start(_cards(int(first[L.DEALT + seat])), dealer=log["dealer"],
            retourne=format_card(retourne) if retourne >= 0 else None)
    for c in calls:
        s.observe_call(c)
    if len(calls) == len(log["calls"]) and log["plays"]:  # the auction is over
        after = _dealt(rules, log, log["calls"])
        later = int(after[L.HANDS + seat]) & ~int(first[L.DEALT + seat])
        if later:
            s.receive(_cards(later))
    for c in plays:
        s.observe_card(c)
    return s


CASES = [("classic", "threshold"), ("coinche", "threshold"), ("coinche", "table"),
         ("tout-atout", "threshold"), ("classic", "table"), ("three-player", "threshold")]


@pytest.mark.parametrize("preset,bid", CASES)
def test_the_seat_chooses_as_simulate_does(preset, bid):
    """At every position of logged deals (every call, every card), a seat shown only
    its own view and driven by the deterministic players (threshold or table bidding,
    heuristic play) makes the call or plays the card ``simulate`` logged."""
    rules = Rules.from_preset(preset)
    positions = 0
    for log in simulated_deals(rules, 12, seed=21, bid_policy=bid, play_policy="heuristic"):
        for seat, kind, calls, plays, chosen in positions_of(rules, log):
            s = seat_at(rules, log, seat, calls, plays, bid, "heuristic")
            choice = s.decide()
            assert choice.kind == kind
            if kind == "call":
                assert parse_call(choice.item) == parse_call(chosen), (calls, seat)
            else:
                assert parse_card(choice.item) == parse_card(chosen), (plays, seat)
                assert chosen in choice.legal
            positions += 1
    assert positions >= 120


def test_the_seat_refuses_what_it_cannot_have_seen():
    s = Seat("classic", 1)
    with pytest.raises(BeloteError, match="start the deal"):
        s.decide()
    with pytest.raises(BeloteError, match="5 cards before the auction, not 4"):
        s.start("JH 9H AH 7D", dealer=0, retourne="TH")
    with pytest.raises(BeloteError, match="retourne TH is in the hand"):
        s.start("JH 9H TH 7D 8C", dealer=0, retourne="TH")
    s.start("JH 9H AH 7D 8C", dealer=0, retourne="TH")
    s.observe_call("pass")
    with pytest.raises(BeloteError, match="seat 2's turn"):
        s.decide()
    s2 = Seat("classic", 1)
    s2.start("JH 9H AH 7D 8C", dealer=0, retourne="TH")
    s2.observe_call("NT")
    with pytest.raises(BeloteError, match="call 1"):
        s2.decide()
