"""The ``no-contract-4p`` preset (seed 003; RULES.md 2, 5, 6, 7.1, 7.3 and 8): dealt and
bid as 7.1 (the taker picks up the retourne; no third round), kings worth 10 (186 per
deal), declaration ties to the side first in turn order, an 8-card run as quinte +
tierce, ``must_trump`` and ``partner_exemption`` off but a trump lead still overtrumped,
a capot whose last trick counts 100 instead of 10, and no transfer of points: a deal
where the taker's side scores less is only *called* dedans.

Hand-built deals come first, one test per rule, with their numbers worked by hand in the
comments; property tests over simulated deals and arbitrary legal deals follow.
"""

from __future__ import annotations

from functools import cache

import pytest
from hand_built import (
    PACK_BY_INDEX,
    arbitrary_retourne_deals,
    check_plays_legal,
    inputs_of,
    make_deal,
    naive_play_out,
    normalize_deal,
    played_card_points,
    sorted_hand,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.retourne import naive_retourne_replay

from belote_sim import Rules, replay
from belote_sim.errors import DealLogError, IllegalPlayError, RulesConflictError
from belote_sim.kernels.api import legal_cards
from belote_sim.studies.simulate import play_match, simulate, simulated_deals

NC = Rules.from_preset("no-contract-4p")


# --------------------------------------------------------------------------------------
# Hand-built deals (dealer 3: seat 0 is the first hand and leads). Hands are listed in
# each seat's order of preference; each seat plays the first legal card of its list.
# --------------------------------------------------------------------------------------

# Deal 1 (hearts, taker 0): seat 0 leads JH 9H AH TH then AC AD AS TS and takes every
# trick. Seat 0 holds a carré of aces (100) and the tierce 9H-JH (20).
HANDS_1 = [
    "JH 9H AH TH AC AD AS TS",
    "7C 9C JC 7D 9D JD 8S QH",
    "8C TC QC 8D TD QD QS KH",
    "KC KD 7S 9S JS KS 7H 8H",
]
# Deal 2 (hearts, taker 1 with the retourne QH): as deal 1 but seat 0 leads 7S fifth and
# seat 1's TS takes that trick; everything else goes to seat 0.
HANDS_2 = [
    "JH 9H AH TH 7S AC AD AS",
    "QH JD 9D 7D TS 7C 9C JC",
    "KH QD TD 8D QS TC 8C QC",
    "8H 7H KD KC 8S 9S JS KS",
]
# Deal 3 (hearts, taker 0): seat 0 tierce 7C-9C and seat 1 tierce 7D-9D, equal and
# neither in trump; no other declaration anywhere.
HANDS_3 = [
    "7C 8C 9C JD KD 7H 9H QS",
    "7D 8D 9D JC KC 8H TH 9S",
    "TC QC AC TD QD AD JH KH",
    "QH AH 7S 8S TS JS KS AS",
]
# Deal 4 (diamonds, taker 0): seat 0 holds all eight diamonds, seat 3 all eight spades.
HANDS_4 = [
    "JD 9D AD TD KD QD 8D 7D",
    "7C 9C JC KC 7H 9H JH KH",
    "8C TC QC AC 8H TH QH AH",
    "7S 8S 9S TS JS QS KS AS",
]
# A deal of the simulator (no-contract-4p): 93 card points each, taker 2.
TIE_93 = {
    "rules": "no-contract-4p",
    "dealer": 3,
    "pack": ["AC", "7H", "8S", "QH", "QD", "9C", "8H", "AD", "KS", "KH", "TH", "JC", "7D",
             "9H", "TC", "KD", "9S", "TD", "TS", "8C", "QC", "7C", "JD", "AS", "KC", "AH",
             "9D", "JH", "JS", "QS", "7S", "8D"],
    "calls": ["pass", "pass", "take"],
    "plays": ["AS", "AH", "JS", "QS", "9H", "QH", "JH", "TH", "8D", "7D", "QD", "TD", "9S",
              "7S", "8S", "KC", "TC", "QC", "JC", "7C", "8C", "AC", "9C", "KS", "9D", "AD",
              "KH", "JD", "8H", "TS", "7H", "KD"],
}


def deal_1(rules="no-contract-4p"):
    return make_deal(rules, HANDS_1, "TH", 0, ["take"], 3)


def deal_2(rules="no-contract-4p"):
    return make_deal(rules, HANDS_2, "QH", 1, ["pass", "take"], 3)


def test_deal_helpers_deal_the_intended_hands():
    for d, hands in ((deal_1(), HANDS_1), (deal_2(), HANDS_2)):
        assert replay(d)["hands"] == [sorted_hand(h) for h in hands]


def test_preset_options():
    assert NC.players == 4 and NC.contract == "none"
    assert NC.king_value == 10
    assert NC.declaration_tie == "first" and NC.split_long_runs
    assert not NC.must_trump and not NC.partner_exemption and NC.overtrump_partner
    assert not NC.all_no_trumps_round and NC.belote and NC.declarations


# --------------------------------------------------------------------------------------
# RULES 7.3 / 7.1: dealing with pickup, two bidding rounds
# --------------------------------------------------------------------------------------


def test_dealing_and_thrown_in_after_two_rounds():
    out = replay({"rules": "no-contract-4p", "dealer": 0, "pack": PACK_BY_INDEX,
                  "calls": ["pass"] * 8})
    assert out["thrown_in"] is True
    # first hand 1: threes (0-11) then twos (12-19) from seat 1; card 20 is the retourne
    assert out["hands"] == [
        ["8D", "9D", "TD", "9H", "TH"],
        ["7C", "8C", "9C", "JD", "QD"],
        ["TC", "JC", "QC", "KD", "AD"],
        ["KC", "AC", "7D", "7H", "8H"],
    ]


# Index pack, dealer 0 (first hand 1, turn order 1 2 3 0); seat 3 takes the retourne JH
# (card 20) in round 1. Then, in turn order from the first hand, seat 1 gets 21-23, seat
# 2 24-26, seat 3 (the taker) 27-28 and seat 0 29-31 (RULES 7.1 step 6).
PICKUP_HANDS = [
    ["8D", "9D", "TD", "9H", "TH", "QS", "KS", "AS"],
    ["7C", "8C", "9C", "JD", "QD", "QH", "KH", "AH"],
    ["TC", "JC", "QC", "KD", "AD", "7S", "8S", "9S"],
    ["KC", "AC", "7D", "7H", "8H", "JH", "TS", "JS"],
]


def test_taker_picks_up_the_retourne_and_two_cards():
    plays, _ = naive_play_out(NC, [" ".join(h) for h in PICKUP_HANDS], 0, 2, 3)
    out = replay({"rules": "no-contract-4p", "dealer": 0, "pack": PACK_BY_INDEX,
                  "calls": ["pass", "pass", "take"], "plays": plays})
    assert (out["taker"], out["trump"]) == (3, "H")
    assert out["hands"] == PICKUP_HANDS
    assert out["tricks"][0]["leader"] == 1


def test_round_2_names_a_suit_and_no_round_3():
    base = {"rules": "no-contract-4p", "dealer": 0, "pack": PACK_BY_INDEX}
    for call in ("AT", "NT"):
        with pytest.raises(IllegalPlayError, match="after the bidding is over"):
            replay({**base, "calls": ["pass"] * 8 + [call]})
        with pytest.raises(IllegalPlayError, match="call 5: "):
            replay({**base, "calls": ["pass"] * 4 + [call]})
    with pytest.raises(RulesConflictError, match="all_no_trumps_round"):
        Rules.from_preset("no-contract-4p", all_no_trumps_round="on")
    # Seat 2 names spades in round 2: seat 2 is the taker (it chose trump).
    plays, _ = naive_play_out(NC, [" ".join(h) for h in PICKUP_HANDS[:2]] + [
        "TC JC QC KD AD 7S 8S JH", "KC AC 7D 7H 8H 9S TS JS"], 0, 3, 2)
    out = replay({**base, "calls": ["pass"] * 5 + ["S"], "plays": plays})
    assert (out["taker"], out["trump"]) == (2, "S")
    # the taker picked up JH and got 24-25; seat 3 got 26-28, seat 0 29-31
    assert out["hands"][2] == ["TC", "JC", "QC", "KD", "AD", "JH", "7S", "8S"]
    assert out["hands"][3] == ["KC", "AC", "7D", "7H", "8H", "9S", "TS", "JS"]


def test_pot_before_is_refused():
    with pytest.raises(DealLogError, match="pot_before"):
        replay({**TIE_93, "pot_before": 10})


# --------------------------------------------------------------------------------------
# RULES 6 and 7.3: must_trump off, partner_exemption off, trump lead overtrumped
# --------------------------------------------------------------------------------------


def legal(hand, trick, leader, rules=NC, trump="H", taker=0):
    return str(legal_cards(rules, hand, trick, leader, trump, taker))


def test_void_player_need_not_trump():
    # Seat 1, void in spades, an opponent winning: any card (classic: must trump).
    assert legal("KD 7H", ["AS"], leader=0) == "KD 7H"
    assert legal("KD 7H", ["AS"], leader=0, rules=Rules.from_preset("classic")) == "7H"
    # ... nor overtrump an opponent's trump
    assert legal("KD 9H", ["AS", "JH"], leader=3) == "KD 9H"
    assert legal("KD 7H", ["AS", "JH"], leader=3) == "KD 7H"


def test_void_player_with_partner_winning_may_play_any_card():
    # partner_exemption is off but must_trump is off too: still any card
    assert legal("KD 7H", ["AS", "7S"], leader=3) == "KD 7H"
    assert legal("KC 7H", ["AD", "8H", "7D"], leader=3) == "KC 7H"


def test_trump_lead_must_still_be_overtrumped():
    assert legal("7H JH AS", ["9H"], leader=1) == "JH"
    # even over the partner's trump (overtrump_partner on)
    assert legal("7H JH AS", ["9H", "8H"], leader=0) == "JH"
    # unable to beat: any trump, still following suit
    assert legal("7H 8H AS", ["JH"], leader=1) == "7H 8H"
    # a plain suit led: any card of it
    assert legal("7S AS 7H", ["9S"], leader=1) == "7S AS"


def test_replay_refuses_failure_to_overtrump_a_trump_lead():
    # Deal 2's hands with spades trump (seat 0 takes the retourne 7S): seat 0 leads 7S,
    # seat 1 TS, seat 2 QS; seat 3 (8S 9S JS KS) must beat TS with 9S or JS.
    hands = ["7S JH 9H AH TH AC AD AS"] + HANDS_2[1:]
    d = make_deal("no-contract-4p", hands, "7S", 0, ["take"], 3)
    assert d["plays"][:3] == ["7S", "TS", "QS"]
    assert d["plays"][3] in ("9S", "JS")
    with pytest.raises(IllegalPlayError,
                       match=r"play 4: 8S by seat 3 is illegal: .*\(9S, JS\)"):
        replay({**d, "plays": ["7S", "TS", "QS", "8S"]})


# --------------------------------------------------------------------------------------
# RULES 2 and 8: kings 10 (186 per deal), capot 100, no transfer
# --------------------------------------------------------------------------------------


def test_capot_last_trick_counts_100():
    out = replay(deal_1())
    assert [t["winner"] for t in out["tricks"]] == [0] * 8
    assert out["capot"] == [0, 2]
    # 176 in the pack with kings at 10; the last trick 100 instead of 10
    assert out["card_points"] == [176 + 100, 0]
    assert out["declarations"]["points"] == [120, 0]
    assert out["outcome"] == "made"
    assert out["deal_score"] == [276 + 120, 0]


def test_king_worth_10():
    out = replay(deal_2())
    # Tricks (winner, points with K = 10):
    #  JH QH KH 8H (0, 33) | 9H JD QD 7H (0, 19) | AH 9D TD KD (0, 31) |
    #  TH 7D 8D KC (0, 20) | 7S TS QS 8S (1, 13) | 7C TC 9S AC (0, 21) |
    #  AD 9C 8C JS (0, 13) | AS JC QC KS (0, 36 with the last 10)
    assert [t["winner"] for t in out["tricks"]] == [0, 0, 0, 0, 1, 0, 0, 0]
    assert out["card_points"] == [173, 13]
    assert sum(out["card_points"]) == 186
    # the same deal with king_value = 4: the four kings (all side 0's) lose 6 each
    four = replay(deal_2({"preset": "no-contract-4p", "options": {"king_value": 4}}))
    assert four["card_points"] == [149, 13]


def test_dedans_transfers_nothing():
    out = replay(deal_2())
    # taker 1's side: 13 against side 0's 173 + 120 (carré of aces, tierce 9H-JH)
    assert out["taker"] == 1
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [173 + 120, 13]
    assert out["pot"] == 0 and out["pot_won_by"] is None


def test_equal_scores_are_made():
    out = replay(TIE_93)
    assert out["taker"] == 2
    assert out["card_points"] == [93, 93]
    assert out["outcome"] == "made"
    assert out["deal_score"] == [93, 93]


def test_made_each_side_scores_its_own():
    out = replay(deal_1())
    assert out["outcome"] == "made"
    assert out["deal_score"] == [c + d + b for c, d, b in zip(
        out["card_points"], out["declarations"]["points"], out["belote"], strict=True)]


# --------------------------------------------------------------------------------------
# RULES 5: declaration_tie = first, split_long_runs, belote
# --------------------------------------------------------------------------------------


def test_declaration_tie_goes_to_the_side_first_in_turn_order():
    # dealer 3: seat 0 is the first hand, its tierce wins
    d = make_deal("no-contract-4p", HANDS_3, "7H", 0, ["take"], 3)
    out = replay(d)
    assert out["declarations"]["winner_seat"] == 0
    assert out["declarations"]["points"] == [20, 0]
    # dealer 0: seat 1 is the first hand, its tierce wins
    d = make_deal("no-contract-4p", HANDS_3, "7H", 0, ["pass", "pass", "pass", "take"], 0)
    out = replay(d)
    assert out["declarations"]["winner_seat"] == 1
    assert out["declarations"]["points"] == [0, 20]
    # with declaration_tie = none nobody scores
    none = {"preset": "no-contract-4p", "options": {"declaration_tie": "none"}}
    out = replay(make_deal(none, HANDS_3, "7H", 0, ["take"], 3))
    assert out["declarations"]["winner_seat"] is None
    assert out["declarations"]["points"] == [0, 0]


def test_split_long_runs_eight_card_run_scores_120():
    d = make_deal("no-contract-4p", HANDS_4, "7D", 0, ["take"], 3)
    out = replay(d)
    run8 = {"kind": "quinte", "length": 8, "points": 120}
    assert out["declarations"]["held"][0] == [{**run8, "top": "AD"}]
    assert out["declarations"]["held"][3] == [{**run8, "top": "AS"}]
    # equal runs: the one in trump (diamonds) wins
    assert out["declarations"]["winner_seat"] == 0
    assert out["declarations"]["points"] == [120, 0]
    assert out["belote"] == [20, 0]
    assert out["card_points"] == [276, 0]
    assert out["deal_score"] == [276 + 120 + 20, 0]
    off = {"preset": "no-contract-4p", "options": {"split_long_runs": "off"}}
    assert replay(make_deal(off, HANDS_4, "7D", 0, ["take"], 3))["declarations"][
        "points"] == [100, 0]


def test_matches_end_at_the_target_and_the_higher_total_wins():
    """RULES 8, Match, with ``match_end = higher`` (the preset's value): both sides over
    the target in one deal, the higher total wins (equal totals draw)."""
    assert NC.match_end == "higher"
    both = 0
    for seed in range(30):
        m = play_match(NC, seed=seed)
        totals = [0, 0]
        for i, d in enumerate(m["deals"]):
            if i:
                assert d["dealer"] == (m["deals"][i - 1]["dealer"] + 1) % 4
            if not d["thrown_in"]:
                totals = [totals[s] + d["deal_score"][s] for s in (0, 1)]
                if i < len(m["deals"]) - 1:
                    assert max(totals) < NC.target
        assert m["scores"] == totals
        reached = [s for s in (0, 1) if totals[s] >= NC.target]
        if len(reached) == 2:
            both += 1
            want = "draw" if totals[0] == totals[1] else int(totals[1] > totals[0])
        else:
            want = reached[0]
        assert m["winner"] == want
    assert both, "no match where both sides reached the target in one deal"


# --------------------------------------------------------------------------------------
# Property tests: simulated deals
# --------------------------------------------------------------------------------------


@cache
def _deals(options: tuple, seed: int, bid_policy: str, n: int) -> tuple[dict, ...]:
    rules = Rules.from_preset("no-contract-4p", **dict(options))
    return tuple(simulated_deals(rules, n, seed=seed, bid_policy=bid_policy,
                                 play_policy="random"))


BATCHES = [
    ((), 41, "random", 500),
    ((), 42, "threshold", 400),
    ((("king_value", 4), ("declaration_tie", "none"), ("split_long_runs", "off")),
     43, "random", 200),
]


def all_deals():
    for spec in BATCHES:
        yield from _deals(*spec)


def played_deals():
    return [d for d in all_deals() if not d["thrown_in"]]


def test_simulated_deals_replay_exactly():
    for d in all_deals():
        assert replay(inputs_of(d)) == d


def test_simulated_deals_match_the_naive_oracle():
    for d in all_deals():
        assert normalize_deal(naive_retourne_replay(inputs_of(d))) == normalize_deal(d)


def test_simulated_plays_are_legal():
    for d in played_deals():
        check_plays_legal(d)


def test_simulated_card_points_sum_to_186_plus_90_for_a_capot():
    for d in played_deals():
        rules = Rules.from_spec(d["rules"])
        total = 186 if rules.king_value == 10 else 162
        assert played_card_points(d) == total
        sides = {t["winner"] % 2 for t in d["tricks"]}
        if len(sides) == 1:
            side = sides.pop()
            assert d["capot"] == [side, side + 2]
            assert d["card_points"][side] == total + 90  # last trick 100, not 10
            assert d["card_points"][1 - side] == 0
        else:
            assert d["capot"] is None
            assert sum(d["card_points"]) == total


def test_simulated_deal_scores_are_each_sides_own():
    seen = set()
    for d in played_deals():
        C, D, B = d["card_points"], d["declarations"]["points"], d["belote"]
        S = [C[s] + D[s] + B[s] for s in (0, 1)]
        T = d["taker"] % 2
        assert d["deal_score"] == S
        assert d["outcome"] == ("dedans" if S[T] < S[1 - T] else "made")
        assert d["pot"] == 0 and d["pot_won_by"] is None
        seen.add((d["outcome"], d["capot"] is not None))
        s = d["trump"]
        want_b = [0, 0]
        for seat, h in enumerate(d["hands"]):
            want_b[seat % 2] += 20 * ({"K" + s, "Q" + s} <= set(h))
        assert d["belote"] == want_b
    for case in [("made", False), ("dedans", False), ("made", True), ("dedans", True)]:
        assert case in seen, f"no {case} among the simulated deals"


def test_simulate_counters_agree_with_the_simulated_deals():
    deals = _deals((), 41, "random", 500)
    c = simulate(NC, deals=500, seed=41, bid_policy="random", play_policy="random").counters
    played = [d for d in deals if not d["thrown_in"]]
    assert c["deals"] == 500
    assert c["thrown_in"] == 500 - len(played)
    assert all(len(d["calls"]) == 8 for d in deals if d["thrown_in"])
    assert c["taken_round_3"] == 0
    for name in ("made", "dedans", "tie", "litige"):
        assert c[name] == sum(d["outcome"] == name for d in played)
    assert c["capot_takers"] == sum(
        d["capot"] is not None and d["capot"][0] % 2 == d["taker"] % 2 for d in played)
    assert c["sum_taker_card_points"] == sum(d["card_points"][d["taker"] % 2] for d in played)
    assert c["sum_taker_score"] == sum(d["deal_score"][d["taker"] % 2] for d in played)
    assert c["sum_defender_score"] == sum(d["deal_score"][1 - d["taker"] % 2] for d in played)


# --------------------------------------------------------------------------------------
# Property tests: arbitrary legal deals (any pack, bidding and options)
# --------------------------------------------------------------------------------------

OPTIONS = {
    "declarations": st.booleans(),
    "declaration_tie": st.sampled_from(["none", "first"]),
    "split_long_runs": st.booleans(),
    "overtrump_partner": st.booleans(),
    "partner_exemption": st.booleans(),
    "must_trump": st.booleans(),
    "undertrump": st.sampled_from(["forced", "free"]),
    "first_packets": st.sampled_from(["3-2", "2-3"]),
    "king_value": st.sampled_from([4, 10]),
    "second_round": st.sampled_from(["others", "any"]),
}


def no_contract_deals():
    return arbitrary_retourne_deals("no-contract-4p", OPTIONS, (1, 1, 2, 0))


@settings(max_examples=80, deadline=None)
@given(no_contract_deals())
def test_replay_of_any_no_contract_deal_matches_naive(d):
    got = replay(d)
    assert normalize_deal(got) == normalize_deal(naive_retourne_replay(d))
    if not got["thrown_in"]:
        check_plays_legal(got)
        capot = 90 if got["capot"] is not None else 0
        assert sum(got["card_points"]) == played_card_points(got) + capot
