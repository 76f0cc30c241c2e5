"""The ``three-player`` preset (seed 000; RULES.md 3, 5, 6, 7.1 and 8): the taker alone
against two defenders who are partners for the play rules; 24 cards dealt (8 face down
out of play); the contest is the taker against the defenders together; every figure per
seat; capot +90 to the taker or +45 to each defender; a failed contract gives each
defender half (halves up) of the taker's card points (no capot bonus) and declarations.

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
from reference.rules_ref import TRUMP_NAMES

from belote_sim import Rules, replay
from belote_sim.errors import DealLogError, IllegalPlayError
from belote_sim.kernels.api import legal_cards
from belote_sim.studies.simulate import play_match, simulate, simulated_deals

THREE = Rules.from_preset("three-player")


# --------------------------------------------------------------------------------------
# Hand-built deals. Dealer 2: seat 0 is the first hand, leads, and is the taker (the
# retourne taken in round 1). Seats 1 and 2 defend. Hands are listed in each seat's
# order of preference; each plays the first legal card of its list. The 8 cards in no
# hand are the face-down remainder.
# --------------------------------------------------------------------------------------

# Deal 1 (spades): the taker takes every trick (J then the other spades, AC last) but
# seat 1's carré of nines beats its quinte: a failed capot.
HANDS_1 = [
    "JS AS TS KS QS 8S 7S AC",
    "9S 9C 9D 9H 7C 8C 7D 8D",
    "QC 7H 8H TH JH QH KH AH",
]
# Deal 2 (hearts): the taker wins only the first trick (AC 7C 9C: 11 points, odd).
HANDS_2 = [
    "AC 7D 7H 9D JD KD 7S 9S",
    "7C AD JH 9H AS TS TD 8C",
    "9C 8D TH AH 8S QS KS QC",
]
# Deal 3 (hearts): seat 1 takes every trick, seat 2 none: the defenders' capot. Seat 1
# holds the four aces.
HANDS_3 = [
    "7C 8C 7D 8D 7S 8S 7H 8H",
    "AC JH 9H AH KH AD AS TS",
    "QC 9C TC 9D TD QD 9S KS",
]
# Deal 4 (hearts): the taker takes every trick with five trumps and three aces, and
# holds the only declarations (carré of aces, tierce 9H-JH).
HANDS_4 = [
    "JH 9H AH TH KH AC AD AS",
    "QH 8H 7C 9C JC 7D 9D JD",
    "7H 7S 9S JS 8C TC 8D TD",
]

# Deals of the simulator (three-player), kept verbatim.
# An exact tie, 70 = 47 + 20 + 3: the taker (seat 0) succeeds (tie_rule = takers).
TIE_70 = {
    "rules": "three-player",
    "dealer": 2,
    "pack": ["AS", "KS", "TH", "AH", "JC", "QH", "JH", "8S", "AC", "8C", "9H", "8H", "9D",
             "JS", "8D", "KC", "TC", "JD", "KH", "QD", "TD", "QC", "7C", "9S", "AD", "7S",
             "QS", "7D", "7H", "KD", "TS", "9C"],
    "calls": ["take"],
    "plays": ["JD", "TD", "8D", "QH", "JH", "TH", "KC", "JC", "AC", "8H", "QC", "9H", "7C",
              "TC", "KH", "KS", "QD", "JS", "8C", "9D", "8S", "AS", "AH", "9S"],
}
# The taker (seat 2) wins the contest (tierce, 20) but fails with 41 card points.
FAILED_WITH_DECLARATION = {
    "rules": "three-player",
    "dealer": 0,
    "pack": ["TS", "7H", "KC", "QH", "8H", "JH", "TC", "AC", "JS", "JC", "TD", "AD", "KD",
             "KS", "8S", "7D", "QS", "9S", "9D", "AS", "KH", "JD", "9C", "TH", "8C", "9H",
             "7S", "QC", "QD", "AH", "7C", "8D"],
    "calls": ["pass", "take"],
    "plays": ["QS", "AS", "8S", "KD", "JD", "TD", "9C", "KC", "AD", "QH", "TH", "7H", "TC",
              "JC", "7D", "JH", "KS", "9D", "9S", "8H", "JS", "AC", "TS", "KH"],
}


def deal(hands, retourne, rules="three-player", dealer=2, taker=0, calls=("take",)):
    return make_deal(rules, hands, retourne, taker, list(calls), dealer)


def test_deal_helpers_deal_the_intended_hands():
    for hands, ret in ((HANDS_1, "7S"), (HANDS_2, "7H"), (HANDS_3, "8H"), (HANDS_4, "TH")):
        out = replay(deal(hands, ret))
        assert out["hands"] == [sorted_hand(h) for h in hands]
        assert out["taker"] == 0


def test_preset_options():
    assert THREE.players == 3 and THREE.contract == "retourne"
    assert THREE.declarations and THREE.belote
    assert THREE.must_trump and THREE.partner_exemption and THREE.overtrump_partner
    assert THREE.tie_rule == "takers" and not THREE.all_no_trumps_round


# --------------------------------------------------------------------------------------
# RULES 7.1: dealing 24 cards, 8 face down; two bidding rounds of three calls
# --------------------------------------------------------------------------------------

# Pack in index order, dealer 0 (first hand 1, turn order 1 2 0): threes (cards 0-8),
# twos (9-14), the retourne AD (15); after seat 2 takes, threes to seats 1 and 0 and two
# to the taker (16-23). The spades (24-31) stay face down.
DEALT = [["KC", "AC", "7D", "QD", "KD"], ["7C", "8C", "9C", "8D", "9D"],
         ["TC", "JC", "QC", "TD", "JD"]]
HELD = [["KC", "AC", "7D", "QD", "KD", "QH", "KH", "AH"],
        ["7C", "8C", "9C", "8D", "9D", "7H", "8H", "9H"],
        ["TC", "JC", "QC", "TD", "JD", "AD", "TH", "JH"]]


def index_pack_deal():
    rules = THREE
    plays, _ = naive_play_out(rules, [" ".join(h) for h in HELD], 0, 1, 2)
    return {"rules": "three-player", "dealer": 0, "pack": PACK_BY_INDEX,
            "calls": ["pass", "take"], "plays": plays}


def test_dealing_five_cards_in_packets_then_the_retourne():
    out = replay({"rules": "three-player", "dealer": 0, "pack": PACK_BY_INDEX,
                  "calls": ["pass"] * 6})
    assert out["thrown_in"] is True
    assert out["hands"] == DEALT


def test_taker_picks_up_the_retourne_and_eight_cards_stay_out_of_play():
    out = replay(index_pack_deal())
    assert (out["taker"], out["trump"]) == (2, "D")
    assert out["hands"] == HELD
    assert len(out["plays"]) == 24 and len(out["tricks"]) == 8
    assert all(len(t["cards"]) == 3 for t in out["tricks"])
    assert not {c for c in out["plays"] if c.endswith("S")}


def test_a_face_down_card_cannot_be_played():
    d = index_pack_deal()
    bad = {**d, "plays": ["AS"] + d["plays"][1:]}
    with pytest.raises(IllegalPlayError, match="does not hold AS"):
        replay(bad)


def test_a_deal_has_24_plays():
    d = index_pack_deal()
    with pytest.raises(IllegalPlayError, match="plays end after 23"):
        replay({**d, "plays": d["plays"][:23]})
    with pytest.raises(IllegalPlayError, match="comes after the deal is over"):
        replay({**d, "plays": d["plays"] + ["AS"]})


def test_two_bidding_rounds_of_three_calls_and_no_round_3():
    base = {"rules": "three-player", "dealer": 0, "pack": PACK_BY_INDEX}
    with pytest.raises(IllegalPlayError, match="bidding is not over"):
        replay({**base, "calls": ["pass"] * 5})
    for call in ("AT", "NT", "pass"):
        with pytest.raises(IllegalPlayError, match="after the bidding is over"):
            replay({**base, "calls": ["pass"] * 6 + [call]})


def test_round_2_named_suit_by_the_second_speaker():
    hands = [" ".join(h) for h in HELD]
    plays, _ = naive_play_out(THREE, hands, 0, 2, 2)
    out = replay({"rules": "three-player", "dealer": 0, "pack": PACK_BY_INDEX,
                  "calls": ["pass"] * 4 + ["H"], "plays": plays})
    assert (out["taker"], out["trump"]) == (2, "H")
    assert out["hands"] == HELD


def test_pot_before_is_refused():
    with pytest.raises(DealLogError, match="pot_before"):
        replay({**index_pack_deal(), "pot_before": 10})


# --------------------------------------------------------------------------------------
# RULES 6 and 3: the two defenders are partners, the taker has none
# --------------------------------------------------------------------------------------


def legal(hand, trick, leader, taker=0, rules=THREE, trump="H"):
    return str(legal_cards(rules, hand, trick, leader, trump, taker))


def test_defender_void_may_discard_while_the_other_defender_wins():
    # Taker 0. Seat 1 leads AS; seat 2, void in spades, holds a trump: any card.
    assert legal("KD 7H", ["AS"], leader=1) == "KD 7H"
    # Seat 0 (taker) leads, seat 1 trumps with 7H: seat 2 need not overtrump its partner.
    assert legal("KD 8H", ["AS", "7H"], leader=0) == "KD 8H"


def test_taker_has_no_partner():
    # The same positions with seat 2 as the taker: it must trump.
    assert legal("KD 7H", ["AS"], leader=1, taker=2) == "7H"
    # A defender behind the taker's winning card must trump too.
    assert legal("KD 7H", ["AS"], leader=0) == "7H"
    # ... and overtrump the taker's trump.
    assert legal("KD 8H", ["AS", "7H"], leader=2) == "8H"


def test_partner_exemption_off_makes_defenders_trump_over_each_other():
    off = Rules.from_preset("three-player", partner_exemption="off")
    assert legal("KD 7H", ["AS"], leader=1, rules=off) == "7H"
    assert legal("KD 8H", ["AS", "7H"], leader=0, rules=off) == "8H"


def test_defender_overtrumps_the_other_defender_on_a_trump_lead():
    assert legal("7H JH AS", ["9H"], leader=1) == "JH"
    off = Rules.from_preset("three-player", overtrump_partner="off")
    assert legal("7H JH AS", ["9H"], leader=1, rules=off) == "7H JH"
    # the taker's trump lead must always be beaten
    assert legal("7H JH AS", ["9H"], leader=0, rules=off) == "JH"


# --------------------------------------------------------------------------------------
# RULES 2 and 8: card points of the 24 played cards + 10, per seat
# --------------------------------------------------------------------------------------


def test_card_points_are_the_24_played_cards_plus_10():
    out = replay(deal(HANDS_2, "7H"))
    # Tricks: AC 7C 9C (taker, 11) | 7D AD 8D (1, 11) | JH 7H TH (1, 30) |
    # 9H 9D AH (1, 25) | AS 7S 8S (1, 11) | TS 9S QS (1, 13) | TD JD KS (1, 16) |
    # 8C KD QC (2, 7 + 10). Played cards: 124 points, out of play QC KC QD ... excluded.
    assert [t["winner"] for t in out["tricks"]] == [0, 1, 1, 1, 1, 1, 1, 2]
    assert out["card_points"] == [11, 106, 17]
    assert sum(out["card_points"]) == 124 + 10


# --------------------------------------------------------------------------------------
# RULES 8: scoring
# --------------------------------------------------------------------------------------


def test_failed_contract_defenders_add_half_of_taker_card_points_halves_up():
    out = replay(deal(HANDS_2, "7H"))
    # S_T = 11 < S_E = 123: dedans. Half of 11, halves up, is 6.
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [0, 106 + 6, 17 + 6]


def test_failed_contract_half_includes_the_taker_declarations():
    out = replay(FAILED_WITH_DECLARATION)
    assert out["taker"] == 2
    assert out["declarations"]["winner_seat"] == 2
    assert out["declarations"]["points"] == [0, 0, 20]
    assert out["card_points"] == [84, 20, 41]
    # half of 41 + 20, halves up: 31 to each defender; the taker keeps only its belote
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [84 + 31, 20 + 31, 0]


def test_failed_taker_capot_earns_no_90():
    out = replay(deal(HANDS_1, "7S"))
    assert [t["winner"] for t in out["tricks"]] == [0] * 8
    assert out["capot"] == [0]
    # all 24 cards: spades 62 + AC 11 + seat 2's hearts and QC 33 = 106, + 10 = 116
    assert out["card_points"] == [116 + 90, 0, 0]
    # Contest: the taker's quinte (AS) against the defenders' carré of nines: the
    # defenders win and score all their declarations, seat 2's quinte included.
    assert out["declarations"]["winner_seat"] == 1
    assert out["declarations"]["points"] == [0, 150 + 20 + 20, 100]
    assert out["belote"] == [20, 0, 0]
    # S_T = 206 + 20 = 226 < S_E = 290: dedans. Half of 116 (no +90), halves up: 58.
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [20, 190 + 58, 100 + 58]


def test_defenders_capot_gives_45_to_each_defender():
    out = replay(deal(HANDS_3, "8H"))
    assert [t["winner"] for t in out["tricks"]] == [1] * 8  # seat 2 takes no trick
    assert out["capot"] == [1, 2]
    # 24 cards: seat 1's 92 + seat 2's 30 + 10 = 132 to seat 1; 45 each on top
    assert out["card_points"] == [0, 132 + 45, 45]
    # the taker's fours of sevens and eights count nothing; seat 1's aces 100
    assert out["declarations"]["held"] == [
        [], [{"kind": "carre", "top": "A", "length": 4, "points": 100}], []]
    assert out["declarations"]["points"] == [0, 100, 0]
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [0, 177 + 100, 45]


def test_taker_capot_adds_90():
    out = replay(deal(HANDS_4, "TH"))
    assert out["capot"] == [0]
    # taker's cards 92 + seat 1's 7 + seat 2's 22 + 10 = 131, + 90
    assert out["card_points"] == [221, 0, 0]
    # carré of aces 100 + tierce 9H-JH 20
    assert out["declarations"]["points"] == [120, 0, 0]
    assert out["outcome"] == "made"
    assert out["deal_score"] == [221 + 120, 0, 0]


def test_exact_tie_succeeds_and_defenders_score_their_own():
    out = replay(TIE_70)
    assert out["taker"] == 0
    assert out["card_points"] == [70, 47, 3]
    assert out["declarations"]["points"] == [0, 20, 0]
    assert out["outcome"] == "made"  # 70 >= 47 + 20 + 3
    assert out["deal_score"] == [70, 67, 3]


def test_tie_fails_under_tie_rule_split_is_a_tie():
    rules = {"preset": "three-player", "options": {"tie_rule": "split"}}
    out = replay({**TIE_70, "rules": rules})
    assert out["outcome"] == "tie"
    assert out["deal_score"] == [70, 67, 3]


def test_result_lists_are_per_seat():
    out = replay(deal(HANDS_2, "7H"))
    for key in ("belote", "card_points", "deal_score"):
        assert len(out[key]) == 3
    assert len(out["declarations"]["points"]) == 3
    assert len(out["declarations"]["held"]) == 3
    assert out["pot"] == 0 and out["pot_won_by"] is None


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_three_player_match_scores_every_seat(seed):
    """RULES 8: each player scores individually; the match ends after the first deal
    that brings someone to the target (seed 3: seat 2 gets there first)."""
    m = play_match(THREE, seed=seed)
    totals = [0, 0, 0]
    for i, d in enumerate(m["deals"]):
        if i:
            assert d["dealer"] == (m["deals"][i - 1]["dealer"] + 1) % 3
        if d["thrown_in"]:
            continue
        totals = [t + s for t, s in zip(totals, d["deal_score"], strict=True)]
        if i < len(m["deals"]) - 1:
            assert max(totals) < THREE.target, f"the match should have ended at deal {i}"
    assert m["scores"] == totals
    leaders = [s for s in range(3) if totals[s] >= THREE.target]
    assert m["winner"] in (leaders if len(leaders) == 1 else ["draw"])


# --------------------------------------------------------------------------------------
# Property tests: simulated deals
# --------------------------------------------------------------------------------------


@cache
def _deals(options: tuple, seed: int, bid_policy: str, n: int) -> tuple[dict, ...]:
    rules = Rules.from_preset("three-player", **dict(options))
    return tuple(simulated_deals(rules, n, seed=seed, bid_policy=bid_policy,
                                 play_policy="random"))


BATCHES = [
    ((), 31, "random", 500),
    ((), 32, "threshold", 400),
    ((("partner_exemption", "off"), ("undertrump", "free")), 33, "random", 200),
    ((("overtrump_partner", "off"), ("declaration_tie", "first"), ("tie_rule", "split")),
     34, "random", 200),
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
        # the 8 face-down cards: the last 8 of the pack
        played = set(d["plays"])
        assert played == set(d["pack"][:24])
        assert not played & set(d["pack"][24:])


def test_simulated_card_points_sum_to_24_played_cards_plus_10():
    for d in played_deals():
        total = played_card_points(d)  # 24 played cards + 10
        t = d["taker"]
        winners = {tr["winner"] for tr in d["tricks"]}
        C = d["card_points"]
        if winners == {t}:
            assert d["capot"] == [t]
            assert C[t] == total + 90 and sum(C) == total + 90
        elif t not in winners:
            assert d["capot"] == sorted(s for s in range(3) if s != t)
            assert C[t] == 0
            assert sum(C) == total + 90
            assert all(C[s] >= 45 for s in range(3) if s != t)
        else:
            assert d["capot"] is None
            assert sum(C) == total


def test_simulated_deal_scores_follow_the_outcome():
    seen = set()
    for d in played_deals():
        rules = Rules.from_spec(d["rules"])
        t = d["taker"]
        C, D, B = d["card_points"], d["declarations"]["points"], d["belote"]
        own = [C[s] + D[s] + B[s] for s in range(3)]
        s_t = own[t]
        s_e = sum(own) - s_t
        score = d["deal_score"]
        outcome = d["outcome"]
        capot_t = d["capot"] == [t]
        seen.add((outcome, d["capot"] is not None, capot_t))
        if outcome == "made":
            assert s_t > s_e or (s_t == s_e and rules.tie_rule == "takers")
            assert score == own
        elif outcome == "tie":
            assert rules.tie_rule == "split" and s_t == s_e
            assert score == own
        else:
            assert outcome == "dedans"
            assert s_t < s_e or (s_t == s_e and rules.tie_rule == "litige")
            half = -(-(C[t] - (90 if capot_t else 0) + D[t]) // 2)
            assert score == [B[s] if s == t else own[s] + half for s in range(3)]
        assert d["pot"] == 0 and d["pot_won_by"] is None
        w = d["declarations"]["winner_seat"]
        if w is None:
            assert D == [0, 0, 0]
        else:
            side = [s for s in range(3) if (s == t) == (w == t)]
            for s in range(3):
                own_decl = sum(x["points"] for x in d["declarations"]["held"][s])
                assert D[s] == (own_decl if s in side else 0)
    for case in [("made", False, False), ("dedans", False, False), ("dedans", True, False),
                 ("made", True, True)]:
        assert case in seen, f"no {case} among the simulated deals"


def test_simulated_belote_per_seat():
    for d in played_deals():
        s = d["trump"]
        assert d["belote"] == [20 * ({"K" + s, "Q" + s} <= set(h)) for h in d["hands"]]


def test_simulate_counters_agree_with_the_simulated_deals():
    deals = _deals((), 31, "random", 500)
    c = simulate(THREE, deals=500, seed=31, bid_policy="random", play_policy="random").counters
    played = [d for d in deals if not d["thrown_in"]]
    assert c["deals"] == 500
    assert c["thrown_in"] == 500 - len(played)
    assert all(len(d["calls"]) == 6 for d in deals if d["thrown_in"])
    for rnd in (1, 2):
        assert c[f"taken_round_{rnd}"] == sum((len(d["calls"]) - 1) // 3 + 1 == rnd
                                              for d in played)
    assert c["taken_round_3"] == 0
    for name in ("made", "dedans", "tie", "litige"):
        assert c[name] == sum(d["outcome"] == name for d in played)
    assert c["capot_takers"] == sum(d["capot"] == [d["taker"]] for d in played)
    assert c["capot_defenders"] == sum(
        d["capot"] is not None and d["capot"] != [d["taker"]] for d in played)
    for p in range(3):
        assert c[f"sum_position_score_{p}"] == sum(
            d["deal_score"][(d["dealer"] + 1 + p) % 3] for d in played)
    assert c["sum_taker_card_points"] == sum(d["card_points"][d["taker"]] for d in played)
    assert c["sum_taker_score"] == sum(d["deal_score"][d["taker"]] for d in played)
    assert c["sum_defender_score"] == sum(
        sum(d["deal_score"]) - d["deal_score"][d["taker"]] for d in played)


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
    "tie_rule": st.sampled_from(["takers", "split"]),
    "king_value": st.sampled_from([4, 10]),
    "second_round": st.sampled_from(["others", "any"]),
}


def three_player_deals():
    return arbitrary_retourne_deals("three-player", OPTIONS, (1, 1, 2, 0))


@settings(max_examples=80, deadline=None)
@given(three_player_deals())
def test_replay_of_any_three_player_deal_matches_naive(d):
    got = replay(d)
    assert normalize_deal(got) == normalize_deal(naive_retourne_replay(d))
    if not got["thrown_in"]:
        check_plays_legal(got)
        capot = 90 if got["capot"] is not None else 0
        assert sum(got["card_points"]) == played_card_points(got) + capot
        assert got["trump"] in TRUMP_NAMES[:4]
