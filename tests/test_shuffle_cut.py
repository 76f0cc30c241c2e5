"""shuffle = cut (RULES.md section 4): the pack rebuilt from the tricks, then cut.

Nobody sorts cards that were never picked up: after a played deal the cards out of play
(``three-player``, ``no-contract-2p``) go to the bottom in the order they lay in the
pack; after a thrown-in deal the hands (each sorted by its holder) come first, then the
rest of the pack as it lay (the turned card, then the undealt cards). Hand-built deals
are compared card by card with the expected pack, and whole simulated matches with the
plain-Python reference :func:`reference.rules_ref.naive_rebuilt_pack`.
"""

from __future__ import annotations

import numpy as np
import pytest
from hand_built import PACK_BY_INDEX, deal_of, kernel, play_out
from reference.rules_ref import naive_rebuilt_pack

from belote_sim import Rules, replay
from belote_sim.cards import format_card, parse_card
from belote_sim.kernels import layout as L
from belote_sim.kernels.deal import cut_pack, rebuild_pack
from belote_sim.kernels.rng import seed_stream
from belote_sim.studies.simulate import play_match, simulated_deals

ALL = PACK_BY_INDEX


def _rebuilt(deal: dict) -> list[str]:
    """The engine's pack after ``deal`` (the kernel ``rebuild_pack``)."""
    rec, status = kernel(deal)
    assert status == L.ST_OK
    out = np.full(32, -1, dtype=np.int64)
    rebuild_pack(rec, Rules.from_spec(deal["rules"]).players, out)
    return [format_card(c) for c in out]


def _scrambled(seed: int) -> list[str]:
    return [ALL[i] for i in np.random.default_rng(seed).permutation(32)]


def _hands_from_first_hand(deal: dict, n: int) -> list[str]:
    first = (deal["dealer"] + 1) % n
    return [c for i in range(n) for c in sorted(deal["hands"][(first + i) % n], key=parse_card)]


def test_cut_pack_after_a_played_four_player_deal_is_the_tricks_in_play_order():
    deal = next(d for d in simulated_deals(Rules(), 20, seed=3) if not d["thrown_in"])
    assert _rebuilt(deal) == deal["plays"]  # all 32 cards were played


def test_cut_pack_after_a_played_three_player_deal_keeps_the_cards_out_of_play_as_they_lay():
    # The 8 cards out of play lie at the bottom of the pack in reverse index order.
    pack = ALL[:24] + ALL[24:][::-1]
    deal = play_out(deal_of("three-player", 0, pack, ["take"]))
    out = replay(deal)
    assert set(out["plays"]) == set(pack[:24])
    assert _rebuilt(deal) == out["plays"] + ALL[24:][::-1]  # not sorted: as they lay


@pytest.mark.parametrize("calls, exchanged", [(["take"], True), (["pass", "pass", "pass", "C"],
                                                                  False)])
def test_cut_pack_after_a_played_no_contract_2p_deal_keeps_the_cards_out_of_play_as_they_lay(
    calls, exchanged
):
    # JD turned (pack[12]); seat 1 holds 7D; the 13 undealt cards lie in reverse order.
    pack = ALL[:19] + ALL[19:][::-1]
    deal = play_out(deal_of("no-contract-2p", 0, pack, calls))
    rec, _ = kernel(deal)
    assert (int(rec[L.EXCHANGE_SEAT]) == 1) == exchanged
    plays = replay(deal)["plays"]
    # The exchanged seven lies where the turned card lay; otherwise the turned card does.
    assert _rebuilt(deal) == plays + ["7D" if exchanged else "JD"] + ALL[19:][::-1]


@pytest.mark.parametrize(
    "preset, n, turned_at",
    [("classic", 4, 20), ("three-player", 3, 15), ("stock-2p", 2, 12),
     ("no-contract-2p", 2, 12), ("tout-atout", 4, 20), ("no-contract-4p", 4, 20),
     ("coinche", 4, 32)],
)
def test_cut_pack_after_a_thrown_in_deal_is_the_sorted_hands_then_the_pack_as_it_lay(
    preset, n, turned_at
):
    pack = _scrambled(7)
    rules = Rules.from_preset(preset)
    rounds = 3 if rules.all_no_trumps_round and rules.contract == "retourne" else 2
    calls = ["pass"] * (n * rounds if preset != "coinche" else 4)
    deal = replay(deal_of(preset, 1, pack, calls))
    assert deal["thrown_in"] is True
    expected = _hands_from_first_hand(deal, n) + pack[turned_at:]
    assert len(expected) == 32
    assert _rebuilt(deal) == expected  # the turned card, then the undealt cards, unsorted


@pytest.mark.parametrize(
    "preset", ["classic", "three-player", "no-contract-2p", "stock-2p", "no-contract-4p",
               "tout-atout", "coinche"],
)
@pytest.mark.parametrize("bid", ["random", "threshold"])
def test_cut_matches_deal_each_pack_from_the_reference_rebuild_then_a_cut(preset, bid):
    rules = Rules.from_preset(preset, shuffle="cut", target=301)
    checked = 0
    for match in range(8):
        deals = play_match(rules, seed=12, match=match, bid_policy=bid)["deals"]
        for before, after in zip(deals, deals[1:], strict=False):
            rebuilt = naive_rebuilt_pack(before)
            cuts = [c for c in range(3, 30) if rebuilt[c:] + rebuilt[:c] == after["pack"]]
            assert len(cuts) == 1, (before, after["pack"])
            checked += 1
    assert checked >= 8


def test_cut_moves_the_top_c_cards_under_the_rest():
    state = np.zeros(1, np.uint64)
    seen = set()
    for i in range(2_000):
        seed_stream(state, 9, i, 0)
        pack = np.arange(32, dtype=np.int64)
        c = cut_pack(pack, state)
        assert 3 <= c <= 29
        assert list(pack) == list(range(c, 32)) + list(range(c))
        seen.add(int(c))
    assert seen == set(range(3, 30))  # every cut point 3..N-3 occurs
