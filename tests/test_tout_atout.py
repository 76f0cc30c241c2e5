"""The ``tout-atout`` preset (seed 004; RULES.md 2, 5, 6, 7.1 and 8): a third bidding
round of all-trumps (AT) and no-trumps (NT), their orders and card values (258; 260 with
``nt_values = doubled``, 162 with ``ace19``), belote in every suit in AT and none in NT,
follow-and-beat in every suit in AT, a free discard when void, and contention (a tie)
handled as a litige pot.

Hand-built deals come first, one test per rule, each with its numbers worked by hand in
the comments; property tests over simulated deals and arbitrary legal deals follow.
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
    normalize_deal,
    played_card_points,
    sorted_hand,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.retourne import naive_retourne_replay
from reference.rules_ref import TRUMP_NAMES, deal_total

from belote_sim import Rules, replay
from belote_sim.errors import IllegalPlayError
from belote_sim.kernels.api import legal_cards
from belote_sim.studies.simulate import play_match, simulate, simulated_deals

TOUT = Rules.from_preset("tout-atout")
ACE19 = {"preset": "tout-atout", "options": {"nt_values": "ace19"}}
NO_ROUND3 = {"preset": "tout-atout", "options": {"all_no_trumps_round": "off"}}
PASS2 = ["pass"] * 8  # rounds 1 and 2, four players

# --------------------------------------------------------------------------------------
# Hand-built deals (dealer 3: seat 0 is the first hand and leads). Hands are listed in
# each seat's order of preference; each seat plays the first legal card of its list.
# --------------------------------------------------------------------------------------

# Deal 1. Seat 0 holds every jack and nine but the 9S; it leads J then 9 of each suit and
# finally 7S. Belote pairs: KC QC (seat 1), KD QD and KH QH (seat 3); KS and QS split.
HANDS_1 = [
    "JC 9C JD 9D JH 9H JS 7S",
    "KC QC AD 7D AH 7H 8S 9S",
    "AC TC TD 8D TH 8H QS 8C",
    "7C KD QD KH QH AS TS KS",
]
# Deal 2: deal 1 with 9S and 7S swapped: seat 0 takes every trick in AT; seat 1 (a
# defender of seat 0) is the taker.
HANDS_2 = [
    "JC 9C JD 9D JH 9H JS 9S",
    "KC QC AD 7D AH 7H 8S 7S",
    "AC TC 8C TD 8D TH 8H QS",
    "7C KD QD KH QH AS TS KS",
]
# Deal 3: seat 0 holds every ace and ten: it takes every trick in NT. Four belote pairs:
# KC QC KD QD (seat 1), KH QH KS QS (seat 3).
HANDS_3 = [
    "AC TC AD TD AH TH AS TS",
    "KC QC KD QD 7H 8H 9H JH",
    "JC 9C 8C 7C JD 9D 8D 7D",
    "KH QH KS QS JS 9S 8S 7S",
]

# Two contention deals of the simulator (tout-atout, seed 3), kept verbatim.
# AT, taker 0: 149 card points against 109 + two belotes (KH QH and KD QD of seat 3)
# = 149: a tie, only because every suit's belote counts.
AT_TIE = {
    "rules": "tout-atout",
    "dealer": 3,
    "pack": ["8S", "7D", "AC", "QC", "TD", "AH", "JH", "AS", "KD", "QH", "9S", "KS", "8D",
             "7H", "8H", "TH", "JC", "TS", "KH", "QD", "9C", "TC", "QS", "KC", "JS", "JD",
             "9H", "9D", "7S", "8C", "7C", "AD"],
    "calls": ["pass"] * 8 + ["AT"],
    "plays": ["8S", "JS", "7S", "9S", "KC", "JC", "7C", "AC", "JH", "QH", "7H", "AH", "TS",
              "KS", "QS", "QC", "AS", "KH", "8D", "8H", "9H", "AD", "TC", "TH", "9D", "QD",
              "7D", "JD", "TD", "KD", "8C", "9C"],
}
# NT, taker 3: 130 card points each.
NT_TIE = {
    "rules": "tout-atout",
    "dealer": 2,
    "pack": ["TC", "QS", "KD", "TH", "9H", "9C", "AS", "AH", "7H", "KC", "9S", "7D", "KS",
             "KH", "7C", "8S", "8H", "8C", "8D", "QH", "QD", "7S", "JC", "AC", "JS", "TS",
             "JD", "9D", "TD", "AD", "QC", "JH"],
    "calls": ["pass"] * 8 + ["NT"],
    "plays": ["QD", "9H", "TD", "8D", "8H", "JH", "KH", "TH", "TS", "AS", "9S", "KS", "JD",
              "AD", "KD", "AC", "KC", "JC", "9C", "8C", "QC", "TC", "7C", "9D", "QS", "8S",
              "AH", "7D", "7S", "JS", "7H", "QH"],
}


def deal_1(call="AT", rules="tout-atout", **extra):
    return make_deal(rules, HANDS_1, "7S", 0, PASS2 + [call], 3, **extra)


def deal_2(**extra):
    return make_deal("tout-atout", HANDS_2, "7S", 1, PASS2 + ["pass", "AT"], 3, **extra)


def deal_3(call="NT", rules="tout-atout"):
    return make_deal(rules, HANDS_3, "TS", 0, PASS2 + [call], 3)


def test_deal_helpers_deal_the_intended_hands():
    for deal, hands in ((deal_1(), HANDS_1), (deal_2(), HANDS_2), (deal_3(), HANDS_3)):
        out = replay(deal)
        assert out["hands"] == [sorted_hand(h) for h in hands]


def test_preset_options():
    assert TOUT.players == 4 and TOUT.contract == "retourne"
    assert TOUT.all_no_trumps_round is True
    assert TOUT.tie_rule == "litige"
    assert TOUT.nt_values == "doubled"
    assert TOUT.declarations is False and TOUT.belote is True
    assert TOUT.must_trump is True and TOUT.partner_exemption is True


# --------------------------------------------------------------------------------------
# RULES 7.1 step 4: the third bidding round
# --------------------------------------------------------------------------------------


def test_round_3_all_trumps_called_after_two_rounds_of_passes():
    out = replay(deal_1("AT"))
    assert (out["trump"], out["taker"]) == ("AT", 0)
    assert out["calls"] == PASS2 + ["AT"]


def test_round_3_no_trumps_speaks_from_the_first_hand_again():
    # Dealer 3: seats 0 and 1 pass in round 3, seat 2 calls NT and picks up the retourne.
    deal = make_deal("tout-atout", HANDS_1, "8H", 2, PASS2 + ["pass", "pass", "NT"], 3)
    out = replay(deal)
    assert (out["trump"], out["taker"]) == ("NT", 2)
    assert "8H" in out["hands"][2]
    assert deal["pack"][20] == "8H"  # the retourne: the 21st card, after 4 x (3 + 2)


def test_all_pass_in_three_rounds_throws_the_deal_in():
    out = replay({"rules": "tout-atout", "dealer": 0, "pack": PACK_BY_INDEX,
                  "calls": ["pass"] * 12})
    assert out["thrown_in"] is True
    # Dealer 0, first hand 1: cards 0-2 to seat 1, 3-5 to seat 2, 6-8 to seat 3, 9-11 to
    # seat 0, then two each (12-19); card 20 (JH) is the retourne.
    assert out["hands"] == [
        ["8D", "9D", "TD", "9H", "TH"],
        ["7C", "8C", "9C", "JD", "QD"],
        ["TC", "JC", "QC", "KD", "AD"],
        ["KC", "AC", "7D", "7H", "8H"],
    ]


def test_round_3_is_required_before_throwing_in():
    with pytest.raises(IllegalPlayError, match="bidding is not over"):
        replay({"rules": "tout-atout", "dealer": 0, "pack": PACK_BY_INDEX, "calls": PASS2})


@pytest.mark.parametrize("rules", [NO_ROUND3, "classic", "sans-annonces", "litige"])
def test_round_3_not_offered_when_all_no_trumps_round_off(rules):
    out = replay({"rules": rules, "dealer": 0, "pack": PACK_BY_INDEX, "calls": PASS2})
    assert out["thrown_in"] is True
    for call in ("AT", "NT"):
        with pytest.raises(IllegalPlayError, match="after the bidding is over"):
            replay({"rules": rules, "dealer": 0, "pack": PACK_BY_INDEX,
                    "calls": PASS2 + [call]})


def test_round_3_never_taken_in_simulations_without_it():
    off = simulate(Rules.from_preset("tout-atout", all_no_trumps_round="off"), deals=3000,
                   seed=4)
    on = simulate(TOUT, deals=3000, seed=4)
    assert off.counters["taken_round_3"] == 0
    assert on.counters["taken_round_3"] > 0
    assert on.counters["trump_played_4"] + on.counters["trump_played_5"] == (
        on.counters["taken_round_3"]
    )
    assert off.counters["trump_played_4"] == off.counters["trump_played_5"] == 0


@pytest.mark.parametrize(
    "calls",
    [
        ["AT"],  # round 1: take or pass
        ["pass"] * 4 + ["NT"],  # round 2: a suit or pass
        PASS2 + ["H"],  # round 3: AT, NT or pass
        PASS2 + ["take"],
        PASS2 + ["C"],
    ],
)
def test_all_trumps_and_no_trumps_only_in_round_3(calls):
    with pytest.raises(IllegalPlayError, match=f"call {len(calls)}: "):
        replay({"rules": "tout-atout", "dealer": 0, "pack": PACK_BY_INDEX, "calls": calls})


@pytest.mark.parametrize("call", ["H", "take", "C"])
def test_illegal_round_3_call_names_round_3(call):
    with pytest.raises(IllegalPlayError) as err:
        replay({"rules": "tout-atout", "dealer": 0, "pack": PACK_BY_INDEX,
                "calls": PASS2 + [call]})
    msg = str(err.value)
    assert "round 3" in msg and "round 2" not in msg, msg


# --------------------------------------------------------------------------------------
# RULES 6: legal cards in AT and NT
# --------------------------------------------------------------------------------------


def legal(hand, trick, leader, trump="AT", rules=TOUT, taker=0):
    return str(legal_cards(rules, hand, trick, leader, trump, taker))


def test_all_trumps_follow_and_beat_in_every_suit():
    # 9D led by seat 1: seat 2 must beat it with JD (in a suit contract, 7D or JD).
    assert legal("7D JD AS", ["9D"], leader=1) == "JD"
    assert legal("7D JD AS", ["9D"], leader=1, trump="H") == "7D JD"
    # Trump order J 9 A 10 K Q 8 7: over the 10, only the ace beats among A K 7.
    assert legal("7D KD AD", ["TD"], leader=1) == "AD"
    # beat every card of the suit led already in the trick, not only the last one
    assert legal("TD JD KD", ["AD", "9D"], leader=0) == "JD"
    # unable to beat: any card of the suit led
    assert legal("7D AD KS", ["JD"], leader=1) == "7D AD"


def test_all_trumps_overtrump_partner():
    # Seat 0's 9D wins; its partner seat 2 must still beat it (overtrump_partner on) ...
    assert legal("7D JD KS", ["9D", "8D"], leader=0) == "JD"
    # ... unless overtrump_partner is off.
    off = Rules.from_preset("tout-atout", overtrump_partner="off")
    assert legal("7D JD KS", ["9D", "8D"], leader=0, rules=off) == "7D JD"
    assert legal("7D JD KS", ["8D", "9D"], leader=0, rules=off) == "JD"


@pytest.mark.parametrize("trump", ["AT", "NT"])
def test_void_player_may_play_any_card_in_all_trumps_and_no_trumps(trump):
    # Seat 2 is void in diamonds, an opponent (seat 1) winning: no obligation to "trump".
    assert legal("7C KS", ["8D"], leader=1, trump=trump) == "7C KS"
    assert legal("7C KS", ["8D", "AD"], leader=0, trump=trump) == "7C KS"
    # The same hand in a suit contract (spades) must trump.
    assert legal("7C KS", ["8D"], leader=1, trump="S") == "KS"


def test_no_trumps_any_card_of_the_suit_led():
    assert legal("7D AD KS", ["9D"], leader=1, trump="NT") == "7D AD"
    assert legal("7D JD AS", ["9D", "TD"], leader=0, trump="NT") == "7D JD"


def test_failure_to_overtrump_on_all_trumps_lead_is_refused_by_replay():
    # Seat 0 leads 8D; seat 1 holds 7D and AD: in AT 7D is illegal (AD beats 8D).
    hands = ["JC 9C JD 8D JH 9H JS 7S", HANDS_1[1],
             "AC TC 8C TD 9D TH 8H QS", HANDS_1[3]]
    deal = make_deal("tout-atout", hands, "7S", 0, PASS2 + ["AT"], 3)
    bad = {**deal, "plays": ["8D", "7D"]}
    with pytest.raises(IllegalPlayError, match=r"play 2: 7D by seat 1 is illegal: .*\(AD\)"):
        replay(bad)
    # In a suit contract (spades, the retourne taken in round 1) 7D is legal: the replay
    # only complains that the plays stop.
    suit = make_deal("tout-atout", hands, "7S", 0, ["take"], 3)
    with pytest.raises(IllegalPlayError, match="plays end after 2"):
        replay({**suit, "plays": ["8D", "7D"]})


# --------------------------------------------------------------------------------------
# RULES 2: card values and totals; RULES 6: trick winners
# --------------------------------------------------------------------------------------


def test_all_trumps_card_values_total_258():
    out = replay(deal_1("AT"))
    # Seat 0 wins the seven tricks it leads with a jack or a nine; seat 1's 9S takes the
    # last one. AT values J 20, 9 14, A 11, 10 10, K 4, Q 3:
    #  JC KC AC 7C 35 | 9C QC TC KD 31 | JD AD TD QD 44 | 9D 7D 8D KH 18
    #  JH AH TH QH 44 | 9H 7H 8H AS 25 | JS 8S QS TS 33 | 7S 9S 8C KS 18 + 10
    assert [t["winner"] for t in out["tricks"]] == [0] * 7 + [1]
    assert out["card_points"] == [230, 28]
    assert sum(out["card_points"]) == 258
    assert out["capot"] is None


def test_all_trumps_capot_adds_90_to_258():
    out = replay(deal_2())
    assert [t["winner"] for t in out["tricks"]] == [0] * 8
    assert out["card_points"] == [348, 0]
    assert out["capot"] == [0, 2]


def test_no_trumps_doubled_card_values_total_260():
    out = replay(deal_1("NT"))
    # Plain order A 10 K Q J 9 8 7; doubled values A 22, 10 20, K 8, Q 6, J 4, last 20:
    #  JC KC AC 7C 34 (seat 2) | TC KD 9C QC 34 (2) | TD QD JD AD 52 (1) | 7D 8D KH 9D 8 (0)
    #  JH AH TH QH 52 (1) | 7H 8H AS 9H 22 (0) | JS 8S QS TS 30 (3) | KS 7S 9S 8C 8+20 (3)
    assert [t["winner"] for t in out["tricks"]] == [2, 2, 1, 0, 1, 0, 3, 3]
    assert out["card_points"] == [98, 162]
    assert sum(out["card_points"]) == 260


def test_no_trumps_ace19_card_values_total_162():
    out = replay(deal_1("NT", rules=ACE19))
    # The same tricks with A 19, 10 10, K 4, Q 3, J 2 and a last trick of 10:
    # side 0: 25 + 17 + 4 + 19 = 65; side 1: 34 + 34 + 15 + 14 = 97.
    assert [t["winner"] for t in out["tricks"]] == [2, 2, 1, 0, 1, 0, 3, 3]
    assert out["card_points"] == [65, 97]


def test_no_trumps_capot_adds_90():
    assert replay(deal_3("NT"))["card_points"] == [260 + 90, 0]
    assert replay(deal_3("NT", rules=ACE19))["card_points"] == [162 + 90, 0]


def test_all_trumps_trick_won_in_trump_order_of_the_suit_led():
    out = replay(deal_1("AT"))
    # 9C beats TC and QC (nine above ten in trump order); KD, of another suit, cannot win
    assert out["tricks"][1] == {"leader": 0, "cards": ["9C", "QC", "TC", "KD"], "winner": 0,
                                "legal": [sorted_hand("9C 9D JD 9H JH JS 7S"),
                                          ["QC"], ["8C", "TC"],
                                          sorted_hand("KD QD KH QH AS TS KS")]}
    # the last trick: seat 1 had to beat 7S with 9S
    assert out["tricks"][7]["cards"] == ["7S", "9S", "8C", "KS"]
    assert out["tricks"][7]["legal"][1] == ["9S"]


# --------------------------------------------------------------------------------------
# RULES 5: belote in every suit in AT, none in NT
# --------------------------------------------------------------------------------------


def test_belote_counts_every_suit_in_all_trumps():
    # deal 1: KC QC (seat 1), KD QD and KH QH (seat 3): three pairs for side 1
    assert replay(deal_1("AT"))["belote"] == [0, 60]
    # deal 3: all four pairs, two per defender
    out = replay(deal_3("AT"))
    assert out["belote"] == [0, 80]


def test_no_belote_in_no_trumps():
    assert replay(deal_1("NT"))["belote"] == [0, 0]
    assert replay(deal_3("NT"))["belote"] == [0, 0]


def test_belote_counts_only_in_the_trump_suit_of_a_suit_contract():
    # deal 1 with spades trump (the retourne taken): KS and QS are split, no belote
    deal = make_deal("tout-atout", HANDS_1, "7S", 0, ["take"], 3)
    assert replay(deal)["belote"] == [0, 0]
    # hearts named in round 2 by seat 0: seat 3's KH QH
    deal = make_deal("tout-atout", HANDS_1, "7S", 0, ["pass"] * 4 + ["H"], 3)
    assert replay(deal)["belote"] == [0, 20]


# --------------------------------------------------------------------------------------
# RULES 8: scoring (success, dedans with 258/260, contention = litige)
# --------------------------------------------------------------------------------------


def test_all_trumps_made():
    out = replay(deal_1("AT"))
    # S_T = 230 > S_E = 28 + 60
    assert out["outcome"] == "made"
    assert out["deal_score"] == [230, 88]


def test_all_trumps_dedans_defenders_score_258_and_their_capot():
    out = replay(deal_2())
    # Taker seat 1: S_T = 0 + belote 60 against 348. The defenders (side 0) score all
    # 258 + 90 for their capot; the takers keep their three belotes.
    assert out["taker"] == 1
    assert out["belote"] == [0, 60]
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [348, 60]


def test_no_trumps_dedans_defenders_score_260():
    out = replay(deal_1("NT"))
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [0, 260]
    out = replay(deal_1("NT", rules=ACE19))
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [0, 162]


def test_no_trumps_capot_made():
    out = replay(deal_3("NT"))
    assert out["outcome"] == "made"
    assert out["deal_score"] == [350, 0]
    assert out["capot"] == [0, 2]


def test_contention_in_all_trumps_is_a_litige():
    out = replay(AT_TIE)
    assert (out["trump"], out["taker"]) == ("AT", 0)
    assert out["card_points"] == [149, 109]
    assert out["belote"] == [0, 40]  # KD QD and KH QH, both seat 3
    assert out["outcome"] == "litige"
    # the defenders score S_E now; the takers' points wait in the pot
    assert out["deal_score"] == [0, 149]
    assert out["pot"] == 149
    assert out["pot_won_by"] is None


def test_contention_in_no_trumps_is_a_litige():
    out = replay(NT_TIE)
    assert (out["trump"], out["taker"]) == ("NT", 3)
    assert out["card_points"] == [130, 130]
    assert out["outcome"] == "litige"
    assert out["deal_score"] == [130, 0]
    assert out["pot"] == 130


def test_litige_pot_carried_and_collected():
    # another tie adds to the pot, which stays open
    out = replay({**AT_TIE, "pot_before": 50})
    assert (out["outcome"], out["pot"], out["pot_won_by"]) == ("litige", 149, None)
    assert out["deal_score"] == [0, 149]
    # a made contract gives the whole pot to the takers
    out = replay(deal_1("AT", pot_before=199))
    assert (out["outcome"], out["pot_won_by"]) == ("made", 0)
    assert out["deal_score"] == [230 + 199, 88]
    # a dedans gives it to the defenders
    out = replay(deal_1("NT", pot_before=199))
    assert (out["outcome"], out["pot_won_by"]) == ("dedans", 1)
    assert out["deal_score"] == [0, 260 + 199]


def test_litige_matches_carry_the_pot():
    """Whole matches: the pot of each litige waits for the next deal without a tie."""
    litiges = 0
    for seed in range(12):
        m = play_match(TOUT, seed=seed, bid_policy="random", play_policy="random")
        pot = 0
        totals = [0, 0]
        for deal in m["deals"]:
            assert deal.get("pot_before", 0) == pot
            assert replay(inputs_of(deal)) == deal
            if deal["thrown_in"]:
                continue
            if deal["outcome"] == "litige":
                litiges += 1
                pot += deal["pot"]
            else:
                pot = 0
            totals = [totals[s] + deal["deal_score"][s] for s in (0, 1)]
        assert m["scores"] == totals
    assert litiges, "no litige in 12 matches"


# --------------------------------------------------------------------------------------
# Property tests: simulated deals
# --------------------------------------------------------------------------------------


@cache
def _deals(rules_spec: str | tuple, seed: int, bid_policy: str, n: int) -> tuple[dict, ...]:
    rules = (Rules.from_preset(rules_spec) if isinstance(rules_spec, str)
             else Rules.from_preset("tout-atout", **dict(rules_spec)))
    return tuple(simulated_deals(rules, n, seed=seed, bid_policy=bid_policy,
                                 play_policy="random"))


BATCHES = [
    ("tout-atout", 21, "random", 400),
    ("tout-atout", 22, "threshold", 300),
    ((("nt_values", "ace19"),), 23, "random", 300),
    ((("declarations", "on"), ("overtrump_partner", "off")), 24, "random", 200),
]


def all_deals():
    for spec in BATCHES:
        yield from _deals(*spec)


def played_deals():
    return [d for d in all_deals() if not d["thrown_in"]]


def expected_total(deal: dict) -> int:
    """258 in AT, 260 / 162 in NT, 162 in a suit contract (RULES 2)."""
    rules = Rules.from_spec(deal["rules"])
    total = {"AT": 258, "NT": 260 if rules.nt_values == "doubled" else 162}.get(
        deal["trump"], 162)
    assert total == deal_total(TRUMP_NAMES.index(deal["trump"]), rules)
    return total


def test_simulated_deals_replay_exactly():
    for deal in all_deals():
        assert replay(inputs_of(deal)) == deal


def test_simulated_deals_match_the_naive_oracle():
    for deal in all_deals():
        assert normalize_deal(naive_retourne_replay(inputs_of(deal))) == normalize_deal(deal)


def test_simulated_plays_are_legal():
    for deal in played_deals():
        check_plays_legal(deal)


def test_simulated_card_points_sum_to_the_deal_total():
    for deal in played_deals():
        total = expected_total(deal)
        assert played_card_points(deal) == total
        capot = 90 if deal["capot"] is not None else 0
        assert sum(deal["card_points"]) == total + capot
        sides = {t["winner"] % 2 for t in deal["tricks"]}
        if len(sides) == 1:
            side = sides.pop()
            assert deal["capot"] == [side, side + 2]
            assert deal["card_points"][side] == total + 90


def test_simulated_belote():
    for deal in played_deals():
        want = [0, 0]
        if deal["trump"] != "NT":
            suits = "CDHS" if deal["trump"] == "AT" else deal["trump"]
            for seat, hand in enumerate(deal["hands"]):
                want[seat % 2] += 20 * sum({"K" + s, "Q" + s} <= set(hand) for s in suits)
        assert deal["belote"] == want


def test_simulated_deal_scores_follow_the_outcome():
    seen = set()
    for deal in played_deals():
        rules = Rules.from_spec(deal["rules"])
        total = expected_total(deal)
        T = deal["taker"] % 2
        E = 1 - T
        C, D, B = deal["card_points"], deal["declarations"]["points"], deal["belote"]
        S = [C[s] + D[s] + B[s] for s in (0, 1)]
        score = deal["deal_score"]
        outcome = deal["outcome"]
        seen.add((deal["trump"] in ("AT", "NT"), outcome))
        if not rules.declarations:
            assert D == [0, 0]
        if outcome == "made":
            assert S[T] > S[E]
            assert score == S
        elif outcome == "dedans":
            assert S[T] < S[E]
            capot_e = 90 if deal["capot"] is not None and deal["capot"][0] % 2 == E else 0
            assert score[E] == total + capot_e + sum(D) + B[E]
            assert score[T] == B[T]
        else:
            assert outcome == "litige" and S[T] == S[E]
            assert score[E] == S[E] and score[T] == B[T]
            assert deal["pot"] == S[T] - B[T]
        if outcome != "litige":
            assert deal["pot"] == 0
        assert deal["pot_won_by"] is None  # no pot_before in simulated single deals
    for case in [(True, "made"), (True, "dedans"), (False, "made"), (False, "dedans"),
                 (False, "litige")]:
        assert case in seen, f"no {case} among the simulated deals"


def test_simulated_deals_cover_round_3_and_capots():
    deals = list(all_deals())
    trumps = {d["trump"] for d in deals if not d["thrown_in"]}
    assert {"AT", "NT", "C", "D", "H", "S"} <= trumps
    assert any(d["thrown_in"] for d in deals)
    assert all(len(d["calls"]) == 12 for d in deals if d["thrown_in"])
    at_nt = [d for d in deals if not d["thrown_in"] and d["trump"] in ("AT", "NT")]
    assert all(len(d["calls"]) > 8 for d in at_nt)
    assert any(d["capot"] for d in at_nt)


def test_simulate_counters_agree_with_the_simulated_deals():
    deals = _deals("tout-atout", 21, "random", 400)
    c = simulate(TOUT, deals=400, seed=21, bid_policy="random", play_policy="random").counters
    played = [d for d in deals if not d["thrown_in"]]
    assert c["deals"] == 400
    assert c["thrown_in"] == 400 - len(played)
    for rnd in (1, 2, 3):
        assert c[f"taken_round_{rnd}"] == sum((len(d["calls"]) - 1) // 4 + 1 == rnd
                                              for d in played)
    for name in ("made", "dedans", "litige"):
        assert c[name] == sum(d["outcome"] == name for d in played)
    for code, name in enumerate(TRUMP_NAMES):
        assert c[f"trump_played_{code}"] == sum(d["trump"] == name for d in played)
    assert c["capot_takers"] == sum(
        d["capot"] is not None and d["capot"][0] % 2 == d["taker"] % 2 for d in played)
    assert c["capot_defenders"] == sum(
        d["capot"] is not None and d["capot"][0] % 2 != d["taker"] % 2 for d in played)
    assert c["sum_taker_card_points"] == sum(d["card_points"][d["taker"] % 2] for d in played)
    assert c["sum_taker_score"] == sum(d["deal_score"][d["taker"] % 2] for d in played)
    assert c["sum_defender_score"] == sum(d["deal_score"][1 - d["taker"] % 2] for d in played)
    t = simulate(TOUT, deals=400, seed=21, bid_policy="random", play_policy="random").table()
    row = t[(t.metric == "take_rate") & (t.group == "round=3")].iloc[0]
    assert (row.n, row.k) == (400, c["taken_round_3"])


# --------------------------------------------------------------------------------------
# Property tests: arbitrary legal deals (any pack, bidding and options)
# --------------------------------------------------------------------------------------

OPTIONS = {
    "nt_values": st.sampled_from(["doubled", "ace19"]),
    "declarations": st.booleans(),
    "declaration_tie": st.sampled_from(["none", "first"]),
    "overtrump_partner": st.booleans(),
    "partner_exemption": st.booleans(),
    "must_trump": st.booleans(),
    "undertrump": st.sampled_from(["forced", "free"]),
    "first_packets": st.sampled_from(["3-2", "2-3"]),
    "tie_rule": st.sampled_from(["takers", "split", "litige"]),
    "second_round": st.sampled_from(["others", "any"]),
}


def tout_atout_deals():
    return arbitrary_retourne_deals("tout-atout", OPTIONS, (1, 2, 3, 3, 3, 0))


@settings(max_examples=80, deadline=None)
@given(tout_atout_deals())
def test_replay_of_any_tout_atout_deal_matches_naive(deal):
    got = replay(deal)
    assert normalize_deal(got) == normalize_deal(naive_retourne_replay(deal))
    if not got["thrown_in"]:
        check_plays_legal(got)
        capot = 90 if got["capot"] is not None else 0
        assert sum(got["card_points"]) == expected_total(got) + capot
