"""shuffle = cut (RULES.md section 4): the pack rebuilt from the tricks, then cut."""

from __future__ import annotations

import numpy as np

from belote_sim import Rules
from belote_sim import kernels as K
from belote_sim.cards import format_card, parse_card
from belote_sim.deallog import parse_call
from belote_sim.engine import pack_array
from belote_sim.runner import simulated_deals


def _record(deal: dict) -> np.ndarray:
    rules = Rules.from_spec(deal["rules"])
    calls = np.array([parse_call(c) for c in deal["calls"]], dtype=np.int64)
    plays = np.array([parse_card(c) for c in deal["plays"]], dtype=np.int64)
    rec, status, _ = K.game.replay_deal(
        rules.to_array(), pack_array(deal["pack"]), deal["dealer"], 0, 0,
        calls, plays, False,
    )
    assert status == 0
    return rec


def _rebuilt(deal: dict) -> list[str]:
    out = np.zeros(32, dtype=np.int64)
    K.deal.rebuild_pack(_record(deal), 4, out)
    return [format_card(c) for c in out]


def test_played_deal_pack_is_the_tricks_in_play_order():
    deal = next(d for d in simulated_deals(Rules(), 20, seed=3) if not d["thrown_in"])
    assert _rebuilt(deal) == deal["plays"]  # all 32 cards were played


def test_thrown_in_pack_is_the_hands_from_the_first_hand_then_the_rest():
    deal = next(d for d in simulated_deals(Rules(), 200, seed=3) if d["thrown_in"])
    first = (deal["dealer"] + 1) % 4
    expected = []
    for i in range(4):
        expected += deal["hands"][(first + i) % 4]  # each hand in index order
    rest = sorted(set(deal["pack"]) - set(expected), key=parse_card)
    assert deal["pack"][20] in rest  # the retourne is among "every other card"
    assert _rebuilt(deal) == expected + rest


def test_cut_moves_the_top_c_cards_under_the_rest():
    state = np.zeros(1, np.uint64)
    seen = set()
    for i in range(2_000):
        K.rng.seed_stream(state, 9, i, 0)
        pack = np.arange(32, dtype=np.int64)
        c = K.deal.cut_pack(pack, state)
        assert 3 <= c <= 29
        assert list(pack) == list(range(c, 32)) + list(range(c))
        seen.add(int(c))
    assert seen == set(range(3, 30))  # every cut point 3..N-3 occurs
