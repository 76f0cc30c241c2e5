"""The ``coinche`` preset (RULES.md 7.4 and section 8 "Coinche"): the 3-3-2 deal, every
auction rule, the contract test, AT/NT scaling to 162 and every scoring formula.

Hand-built deals are deal-log objects replayed with :func:`belote_sim.deallog.replay`:
:func:`~hand_built.coinche_pack` lays out a pack that deals four chosen hands,
:func:`~hand_built.engine_play_out` plays each seat's first legal card in a preference
order. Most layouts give every seat two cards of each suit, so every suit is led exactly
twice, everybody follows, and the seat holding a suit's two best cards takes both its
tricks: each side's card points can be read off the layout.
:func:`~reference.coinche.naive_coinche_replay` (``tests/reference/coinche.py``), a
plain-Python reference of the whole deal written from RULES.md, is checked against the
kernels on the hand-built and simulated deals.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hand_built import (
    PACK_BY_INDEX,
    coinche_pack,
    engine_play_out,
    inputs_of,
    normalize_deal,
    strs,
)
from reference.coinche import naive_auction, naive_coinche_replay
from reference.rules_ref import TRUMP_NAMES as STRAINS
from reference.rules_ref import card_value, last_trick_bonus, naive_coinche_score

from belote_sim import replay
from belote_sim.bid.coinche import side_estimate
from belote_sim.cards import CardSet, parse_card
from belote_sim.deallog.format import parse_call
from belote_sim.errors import DealLogError, IllegalPlayError
from belote_sim.kernels import layout as L
from belote_sim.kernels.scoring import score_coinche
from belote_sim.rules import Rules
from belote_sim.studies.simulate import simulate, simulated_deals

COINCHE = Rules.from_preset("coinche")

# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def _is_bid(call: str) -> bool:
    return call[0].isdigit()


def contract_of(calls: list[str], dealer: int) -> tuple[int, str] | None:
    """``(taker, strain)`` of an auction: every bid comes before any coinche, so call
    ``i`` of a bid was made by seat ``first hand + i``."""
    bids = [(i, c) for i, c in enumerate(calls) if _is_bid(c)]
    if not bids:
        return None
    i, c = bids[-1]
    return (dealer + 1 + i) % 4, c.lstrip("0123456789").upper()


def make_deal(hands, calls, dealer=3, rules: Any = "coinche", orders=None):
    """A complete coinche deal-log deal: ``hands`` dealt by ``dealer``, the auction
    ``calls``, the cards played by :func:`~hand_built.engine_play_out` (none when thrown in)."""
    deal = {"rules": rules, "dealer": dealer, "pack": coinche_pack(hands, dealer),
            "calls": list(calls), "plays": []}
    contract = contract_of(calls, dealer)
    if contract is not None:
        taker, strain = contract
        deal["plays"], _ = engine_play_out(rules, orders or hands, dealer, strain, taker)
    return deal


def with_options(**options) -> dict:
    return {"preset": "coinche", "options": options}


def illegal(deal: dict) -> str:
    with pytest.raises(IllegalPlayError) as exc:
        replay(deal)
    return str(exc.value)


# --------------------------------------------------------------------------------------
# Layouts (dealer 3, so seat 0 is the first hand and leads the first trick)
# --------------------------------------------------------------------------------------

# H1 (trump H): every seat holds two cards of each suit. Seat 0 holds J9 of hearts,
# seat 1 AT of clubs and of spades, seat 3 AT of diamonds: the takers (0, 2) take the
# two heart tricks (62), the defenders 90 + the last trick (seat 3, diamonds) = 100.
# Seat 2 holds carré of kings (100) and the belote (KH QH): S_T = 62 + 100 + 20 = 182.
H1 = [
    "JH 9H QC JC QD 9D 9S 8S",
    "AC TC AS TS JD 7D TH 7H",
    "KH QH KC 7C KD 8D KS 7S",
    "AD TD AH 8H 9C 8C QS JS",
]
# H2 (trump H): seat 0 holds J9 of hearts and carré of jacks (200); seat 2 AT of clubs
# and diamonds; seat 1 AT of spades and takes the last trick. Takers 62 + 30 + 30 = 122,
# defenders 30 + 10 = 40: S_T = 322, but only six tricks.
H2 = [
    "JH 9H JC 7C JD 8D JS 8S",
    "AS TS AH KH KC 9C QD 7D",
    "AC TC AD TD KS 7S TH 7H",
    "QH 8H QC 8C KD 9D QS 9S",
]
# SUITS (trump H, taker seat 2): each seat holds one whole suit; seat 2's hearts take
# every trick: capot (252). Every seat holds a run of eight (100); the one in trumps
# wins the contest: 200 for the takers, and seat 2 holds the belote.
SUITS = [
    "7C 8C 9C TC JC QC KC AC",
    "7D 8D 9D TD JD QD KD AD",
    "7H 8H 9H TH JH QH KH AH",
    "7S 8S 9S TS JS QS KS AS",
]
# NT1 (no-trumps, doubled values: suits of 60, last trick 20, 260 in all): seat 0 holds
# AT of clubs, seat 2 AT of diamonds, seat 1 of hearts, seat 3 of spades. Seat 0 leads
# clubs, then hearts; the takers take clubs, diamonds and the last trick: 140 -> 87,
# defenders 120 -> 75. No declaration anywhere.
NT1 = [
    "AC TC JH 9H KD QD 8S 7S",
    "AH TH KS QS KC QC JD 9D",
    "AD TD JC 9C KH QH JS 9S",
    "AS TS 8D 7D 8C 7C 8H 7H",
]
# AT1 (all-trumps: suits of 62, 258 in all): J9 of clubs at seat 0, of diamonds at
# seat 2, of hearts at seat 1, of spades at seat 3; the takers take clubs, diamonds and
# the last trick: 134 -> 84, defenders 124 -> 78. Seats 0 and 2 each hold two K+Q pairs:
# 80 of belote for the takers.
AT1 = [
    "JC 9C AH TH KD QD KS QS",
    "JH 9H AS TS AC TC AD TD",
    "JD 9D KC QC KH QH 8S 7S",
    "JS 9S 8D 7D 8C 7C 8H 7H",
]


# --------------------------------------------------------------------------------------
# RULES 7.4 step 1: the deal
# --------------------------------------------------------------------------------------


def test_deal_3_3_2_from_the_first_hand():
    pack = PACK_BY_INDEX
    out = replay({"rules": "coinche", "dealer": 0, "pack": pack, "calls": ["pass"] * 4})
    assert out["thrown_in"] is True
    # first hand 1: pack[0:3], [12:15], [24:26]; seat 2: [3:6], [15:18], [26:28] ...
    for i in range(4):
        seat = (1 + i) % 4
        idx = list(range(3 * i, 3 * i + 3)) + list(range(12 + 3 * i, 15 + 3 * i)) + list(
            range(24 + 2 * i, 26 + 2 * i)
        )
        assert out["hands"][seat] == [pack[j] for j in idx]


def test_coinche_pack_helper_deals_the_intended_hands():
    for hands in (H1, H2, SUITS, NT1, AT1):
        for dealer in range(4):
            out = replay({"rules": "coinche", "dealer": dealer,
                          "pack": coinche_pack(hands, dealer), "calls": ["pass"] * 4})
            assert out["hands"] == [sorted(strs(h), key=parse_card) for h in hands]


def test_first_hand_leads_the_first_trick():
    for dealer in range(4):
        out = replay(make_deal(H1, ["pass"] * ((3 - dealer) % 4) + ["80H"] + ["pass"] * 3,
                               dealer=dealer, orders=H1))
        assert out["tricks"][0]["leader"] == (dealer + 1) % 4


# --------------------------------------------------------------------------------------
# RULES 7.4 step 2: the auction
# --------------------------------------------------------------------------------------


def test_three_passes_after_a_bid_end_the_auction():
    out = replay(make_deal(H1, ["pass", "pass", "90D", "pass", "pass", "pass"]))
    assert out["taker"] == 2 and out["trump"] == "D"
    assert out["contract"] == {"value": 90, "strain": "D", "multiplier": 1}
    assert len(out["tricks"]) == 8


def test_a_bid_restarts_the_three_passes():
    calls = ["80H", "pass", "pass", "90S", "pass", "pass", "pass"]
    out = replay(make_deal(H1, calls))
    assert out["taker"] == 3 and out["contract"]["value"] == 90
    # after 80H and two passes the auction is not over
    deal = make_deal(H1, ["80H", "pass", "pass", "pass"])
    deal["calls"] = ["80H", "pass", "pass"]
    assert "the calls end after 3 call(s)" in illegal(deal)


def test_a_call_after_the_end_of_the_auction_is_refused():
    deal = make_deal(H1, ["80H", "pass", "pass", "pass"])
    deal["calls"].append("pass")
    assert "call 5: 'pass' comes after the bidding is over" in illegal(deal)


def test_four_passes_throw_the_deal_in():
    out = replay(make_deal(H1, ["pass"] * 4))
    assert out["thrown_in"] is True and "tricks" not in out
    deal = make_deal(H1, ["pass"] * 4)
    deal["plays"] = ["JH"]
    assert "comes after the deal is over" in illegal(deal)
    deal = make_deal(H1, ["pass"] * 4)
    deal["calls"] = ["pass"] * 3
    assert "bidding is not over (seat 3 to speak)" in illegal(deal)


def test_a_bid_must_be_higher_than_the_current_bid():
    # dealer 1: seat 2 speaks first and fifth
    deal = make_deal(H1, ["80H", "100S", "pass", "pass", "pass"], dealer=1)
    deal["calls"] = ["80H", "100S", "pass", "pass", "90H"]
    msg = illegal(deal)
    assert msg.startswith("deal 1, call 5: '90H' by seat 2 is illegal: a bid must be higher "
                          "than 100")
    deal["calls"] = ["80H", "100S", "pass", "pass", "100H"]  # equal value, other strain
    assert "a bid must be higher than 100" in illegal(deal)
    deal["calls"] = ["100S", "80H"]
    assert "call 2: '80H' by seat 3 is illegal: a bid must be higher than 100" in illegal(deal)


def test_bid_values_run_from_80_to_160_then_250_capot():
    calls = ["80C", "90D", "100H", "110S", "120AT", "130NT", "140C", "150D", "160H", "250S",
             "pass", "pass", "pass"]
    out = replay(make_deal(H1, calls))
    assert out["contract"] == {"value": 250, "strain": "S", "multiplier": 1}
    assert out["taker"] == 1  # call 10 from seat 0
    # nothing is higher than a capot bid
    deal = make_deal(H1, ["250H", "pass", "pass", "pass"])
    deal["calls"] = ["250H", "250NT"]
    assert "a bid must be higher than 250" in illegal(deal)
    # values outside the scale are not calls at all
    for bad in ("170H", "85H", "70C", "260S"):
        with pytest.raises(DealLogError, match="unknown call"):
            replay(dict(make_deal(H1, ["pass"] * 4), calls=[bad]))


def test_all_trumps_and_no_trumps_bids_need_all_no_trumps_round():
    out = replay(make_deal(AT1, ["90AT", "pass", "pass", "pass"]))
    assert out["trump"] == "AT"
    off = with_options(all_no_trumps_round=False)
    for call in ("90AT", "90NT"):
        deal = dict(make_deal(H1, ["pass"] * 4, rules=off), calls=[call])
        assert "need all_no_trumps_round=on" in illegal(deal)
    out = replay(make_deal(H1, ["80H", "pass", "pass", "pass"], rules=off))
    assert out["trump"] == "H"


def test_coinche_only_by_an_opponent_of_the_high_bidder():
    out = replay(make_deal(H1, ["80H", "coinche", "pass", "pass"]))
    assert out["contract"]["multiplier"] == 2
    deal = make_deal(H1, ["pass"] * 4)
    deal["calls"] = ["pass", "pass", "80H", "pass", "coinche"]  # seat 0, partner of 2
    msg = illegal(deal)
    assert msg == ("deal 1, call 5: 'coinche' by seat 0 is illegal: coinche only by an "
                   "opponent of the high bidder (seat 2 bid 80H)")
    deal["calls"] = ["coinche"]
    assert "coinche only once there is a bid" in illegal(deal)
    deal["calls"] = ["pass", "coinche"]
    assert "coinche only once there is a bid" in illegal(deal)


def test_nobody_may_bid_after_a_coinche():
    deal = make_deal(H1, ["pass"] * 4)
    deal["calls"] = ["80H", "coinche", "90S"]
    assert "nobody may bid after a coinche" in illegal(deal)
    deal["calls"] = ["80H", "coinche", "pass", "90H"]
    assert "nobody may bid after a coinche" in illegal(deal)
    deal["calls"] = ["80H", "coinche", "coinche"]
    assert "already coinched" in illegal(deal)


def test_after_a_coinche_the_bidders_side_answers_in_turn_from_the_coincher():
    # 80H by seat 0, coinche by seat 3: seat 0 (the coincher's next) then seat 2 answer.
    calls = ["80H", "pass", "pass", "coinche", "pass", "surcoinche"]
    out = replay(make_deal(H1, calls))
    assert out["contract"]["multiplier"] == 4 and out["taker"] == 0
    # both pass: the auction ends after them, coinched
    calls = ["80H", "pass", "pass", "coinche", "pass", "pass"]
    out = replay(make_deal(H1, calls))
    assert out["contract"]["multiplier"] == 2
    deal = make_deal(H1, calls)
    deal["calls"].append("pass")  # the coincher's partner has no say
    assert "comes after the bidding is over" in illegal(deal)
    # a coinche waits for the bidder's side: the calls may not stop after it
    deal["calls"] = calls[:5]
    assert "bidding is not over (seat 2 to speak)" in illegal(deal)


def test_a_surcoinche_ends_the_auction_at_once():
    calls = ["80H", "coinche", "surcoinche"]
    out = replay(make_deal(H1, calls))
    assert out["contract"] == {"value": 80, "strain": "H", "multiplier": 4}
    deal = make_deal(H1, calls)
    deal["calls"].append("pass")
    assert "call 4: 'pass' comes after the bidding is over" in illegal(deal)


def test_surcoinche_only_by_the_bidders_side_after_a_coinche():
    deal = make_deal(H1, ["pass"] * 4)
    deal["calls"] = ["80H", "surcoinche"]
    msg = illegal(deal)
    assert msg == ("deal 1, call 2: 'surcoinche' by seat 1 is illegal: surcoinche only by "
                   "the high bidder's side after a coinche")
    deal["calls"] = ["surcoinche"]
    assert "surcoinche only by the high bidder's side" in illegal(deal)


def test_retourne_calls_are_not_coinche_calls():
    deal = make_deal(H1, ["pass"] * 4)
    for call in ("take", "H", "AT"):
        deal["calls"] = ["pass", call]
        assert "a coinche call is a bid" in illegal(deal)


# --------------------------------------------------------------------------------------
# RULES 7.4 step 3 and 8: the contract and its score
# --------------------------------------------------------------------------------------


def test_contract_made_with_declarations_and_belote():
    # H1: card points 62 (defenders 100), carré of kings 100, belote 20: S_T = 182.
    out = replay(make_deal(H1, ["160H", "pass", "pass", "pass"]))
    assert out["card_points"] == [62, 100]
    assert out["declarations"]["points"] == [100, 0] and out["belote"] == [20, 0]
    assert out["outcome"] == "made"
    # made, m = 1: T scores V + S_T = 160 + 182 = 342 -> 340; E its S_E = 100
    assert out["deal_score"] == [340, 100]
    # without declarations S_T = 82 < 160: dedans, E scores 160 + 160, T its belote
    out = replay(make_deal(H1, ["160H", "pass", "pass", "pass"],
                           rules=with_options(declarations=False)))
    assert out["outcome"] == "dedans" and out["deal_score"] == [20, 320]


def test_contract_needs_only_its_value_not_more_than_the_defenders():
    # S_T = 62 + 20 = 82 >= 80 although S_E = 100: made (no retourne-style comparison)
    out = replay(make_deal(H1, ["80H", "pass", "pass", "pass"],
                           rules=with_options(declarations=False, round_to_ten=False)))
    assert out["outcome"] == "made" and out["deal_score"] == [80 + 82, 100]
    out = replay(make_deal(H1, ["90H", "pass", "pass", "pass"],
                           rules=with_options(declarations=False, round_to_ten=False)))
    assert out["outcome"] == "dedans" and out["deal_score"] == [20, 160 + 90]


def test_made_coinched_and_surcoinched_scores():
    no_ten = with_options(round_to_ten=False)
    # made, m = 2: T 160 + V*2 + D_T + B_T = 160 + 320 + 100 + 20; E only its belote (0)
    out = replay(make_deal(H1, ["160H", "coinche", "pass", "pass"], rules=no_ten))
    assert out["outcome"] == "made" and out["deal_score"] == [600, 0]
    # made, m = 4
    out = replay(make_deal(H1, ["160H", "coinche", "surcoinche"], rules=no_ten))
    assert out["deal_score"] == [160 + 640 + 120, 0]
    # seat 1 bids 80H on H1 (same tricks: side 1 makes 100): coinched by seat 2, seat 3
    # then seat 1 answer; made: 160 + 160; the defenders keep only their belote (20)
    out = replay(make_deal(H1, ["pass", "80H", "coinche", "pass", "pass"], rules=no_ten))
    assert out["taker"] == 1 and out["card_points"] == [62, 100]
    assert out["outcome"] == "made" and out["deal_score"] == [20, 320]


def test_failed_contract_scores():
    no_decl = with_options(declarations=False)
    # failed, m = 2: E 160 + V*2 + its belote (0); T only its belote (20)
    out = replay(make_deal(H1, ["160H", "coinche", "pass", "pass"], rules=no_decl))
    assert out["outcome"] == "dedans" and out["deal_score"] == [20, 480]
    out = replay(make_deal(H1, ["160H", "coinche", "surcoinche"], rules=no_decl))
    assert out["deal_score"] == [20, 160 + 640]
    # the contest's declarations go to E whichever side holds them: H1's carré of kings
    # belongs to the takers, who fail a capot bid
    out = replay(make_deal(H1, ["250H", "pass", "pass", "pass"]))
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [20, 160 + 250 + 100]
    out = replay(make_deal(H1, ["250H", "coinche", "pass", "pass"]))
    assert out["deal_score"] == [20, 160 + 500 + 100]


def test_failed_contract_defenders_keep_their_belote():
    no_ten = with_options(round_to_ten=False)
    # seat 1 bids 110H on H1: S_T = 100 < 110. E (side 0) scores 160 + 110, the contest's
    # declarations (its own carré of kings, 100) and its belote (20).
    out = replay(make_deal(H1, ["pass", "110H", "pass", "pass", "pass"], rules=no_ten))
    assert out["taker"] == 1 and out["outcome"] == "dedans"
    assert out["deal_score"] == [160 + 110 + 100 + 20, 0]
    # made with m = 1 the defenders score their own S_E = 62 + 100 + 20
    out = replay(make_deal(H1, ["pass", "80H", "pass", "pass", "pass"], rules=no_ten))
    assert out["outcome"] == "made" and out["deal_score"] == [182, 80 + 100]


def test_capot_bid_is_made_exactly_when_the_takers_take_every_trick():
    # SUITS: seat 2 (hearts) takes every trick: capot 252 + runs 200 + belote 20.
    calls = ["pass", "pass", "250H", "pass", "pass", "pass"]
    out = replay(make_deal(SUITS, calls))
    assert out["capot"] == [0, 2] and out["card_points"] == [252, 0]
    assert out["declarations"]["points"] == [200, 0] and out["belote"] == [20, 0]
    assert out["outcome"] == "made"
    assert out["deal_score"] == [720, 0]  # 250 + 472 = 722 -> 720
    # H2: S_T = 122 + 200 = 322 >= 250, but only six tricks: a capot bid fails
    out = replay(make_deal(H2, ["250H", "pass", "pass", "pass"]))
    assert out["card_points"] == [122, 40] and out["declarations"]["points"] == [200, 0]
    assert out["capot"] is None and out["outcome"] == "dedans"
    assert out["deal_score"] == [0, 160 + 250 + 200]
    # ... while any lower bid is made
    out = replay(make_deal(H2, ["160H", "pass", "pass", "pass"]))
    assert out["outcome"] == "made" and out["deal_score"] == [480, 40]  # 482 -> 480


def test_capot_of_a_lower_bid_scores_its_90():
    out = replay(make_deal(SUITS, ["pass", "pass", "80H", "pass", "pass", "pass"],
                           rules=with_options(round_to_ten=False)))
    assert out["outcome"] == "made" and out["deal_score"] == [80 + 252 + 200 + 20, 0]


def test_round_to_ten_rounds_halves_up():
    # NT1: 87 and 75 after scaling; 80 + 87 = 167 -> 170 and 75 -> 80 (half up)
    out = replay(make_deal(NT1, ["80NT", "pass", "pass", "pass"]))
    assert out["card_points"] == [87, 75]
    assert out["deal_score"] == [170, 80]
    out = replay(make_deal(NT1, ["80NT", "pass", "pass", "pass"],
                           rules=with_options(round_to_ten=False)))
    assert out["deal_score"] == [167, 75]
    # S_T = 65 + 20 = 85: 80 + 85 = 165 -> 170 (half up), 97 -> 100; 342 -> 340 above
    rec = _score_record(taker_side=0, trick_points=(65, 97), value=80, decl=(20, 0))
    score_coinche(rec, 0, False, False, _array(round_to_ten=True))
    assert list(rec[L.DEAL_SCORE : L.DEAL_SCORE + 2]) == [170, 100]
    score_coinche(rec, 0, False, False, _array(round_to_ten=False))
    assert list(rec[L.DEAL_SCORE : L.DEAL_SCORE + 2]) == [165, 97]


# --------------------------------------------------------------------------------------
# RULES 7.4 step 4: all-trumps and no-trumps scaled to 162
# --------------------------------------------------------------------------------------


def test_no_trumps_card_points_are_scaled_to_162():
    out = replay(make_deal(NT1, ["90NT", "pass", "pass", "pass"]))
    # raw 140 and 120 of 260: round(140 * 162 / 260) = round(87.2) = 87; 162 - 87 = 75
    assert out["card_points"] == [87, 75]
    assert out["outcome"] == "dedans" and out["deal_score"] == [0, 250]
    # with nt_values = ace19 the deal holds 162: nothing to scale
    out = replay(make_deal(NT1, ["80NT", "pass", "pass", "pass"],
                           rules=with_options(nt_values="ace19", round_to_ten=False)))
    assert out["card_points"] == [86, 76]  # suits of 38: 38 + 38 + 10 against 38 + 38
    assert out["outcome"] == "made" and out["deal_score"] == [166, 76]


def test_all_trumps_card_points_are_scaled_to_162_and_every_pair_is_belote():
    out = replay(make_deal(AT1, ["90AT", "pass", "pass", "pass"],
                           rules=with_options(round_to_ten=False)))
    # raw 134 and 124 of 258: round(84.14) = 84, 162 - 84 = 78; two pairs each at 0, 2
    assert out["card_points"] == [84, 78] and out["belote"] == [80, 0]
    assert out["outcome"] == "made" and out["deal_score"] == [90 + 84 + 80, 78]
    out = replay(make_deal(AT1, ["90AT", "pass", "pass", "pass"],
                           rules=with_options(belote=False)))
    assert out["outcome"] == "dedans" and out["deal_score"] == [0, 250]


def test_scaling_rounds_halves_up_for_the_takers():
    # 65 of 260 is 40.5 of 162: the takers get 41 (not Python's banker's 40), the
    # defenders 162 - 41 = 121, for either taker side. (Real NT deals hold only even
    # points, so the kernel is fed a record directly.)
    for t in (0, 1):
        pts = [0, 0]
        pts[t], pts[1 - t] = 65, 195
        rec = _score_record(taker_side=t, trick_points=pts, value=80, total=260)
        score_coinche(rec, t, True, False, _array(round_to_ten=False))
        assert rec[L.CARD_POINTS + t] == 41 and rec[L.CARD_POINTS + 1 - t] == 121
    assert round(40.5) == 40  # what a naive round() would have given
    # all-trumps: 86 of 258 is exactly 54
    rec = _score_record(taker_side=0, trick_points=(86, 172), value=80, total=258)
    score_coinche(rec, 0, True, False, _array(round_to_ten=False))
    assert rec[L.CARD_POINTS] == 54 and rec[L.CARD_POINTS + 1] == 108


def test_capot_in_all_trumps_and_no_trumps_adds_90_to_162():
    # SUITS: the first hand (seat 0, clubs) leads clubs eight times: nobody can follow.
    for strain, belote in (("NT", [0, 0]), ("AT", [40, 40])):
        out = replay(make_deal(SUITS, [f"250{strain}", "pass", "pass", "pass"],
                               rules=with_options(round_to_ten=False)))
        assert out["capot"] == [0, 2] and out["card_points"] == [252, 0]
        assert out["declarations"]["points"] == [0, 0]  # four equal runs: nobody
        assert out["belote"] == belote
        assert out["outcome"] == "made"
        assert out["deal_score"] == [250 + 252 + belote[0], belote[1]]


# --------------------------------------------------------------------------------------
# The scoring kernel on its own
# --------------------------------------------------------------------------------------


def _array(**options):
    return Rules.from_preset("coinche", **options).to_array()


def _score_record(taker_side, trick_points, value, total=162, multiplier=1, decl=(0, 0),
                  belote=(0, 0), capot=-1):
    rec = np.zeros(L.REC_SIZE, dtype=np.int64)
    for s in (0, 1):
        rec[L.TRICK_POINTS + s] = trick_points[s]
        rec[L.DECL_POINTS + s] = decl[s]
        rec[L.BELOTE + s] = belote[s]
    rec[L.TOTAL_POINTS] = total
    rec[L.CONTRACT_VALUE] = value
    rec[L.MULTIPLIER] = multiplier
    rec[L.CAPOT_SIDE] = capot
    return rec


@pytest.mark.parametrize("taker_side", [0, 1])
@pytest.mark.parametrize("multiplier", [1, 2, 4])
@pytest.mark.parametrize("value", [80, 110, 160, 250])
@pytest.mark.parametrize("capot", [False, True])
def test_score_coinche_against_the_formulas(taker_side, multiplier, value, capot):
    T, E = taker_side, 1 - taker_side
    pts = [0, 0]
    pts[T], pts[E] = (162, 0) if capot else (97, 65)
    decl, belote = [0, 0], [0, 0]
    decl[T], belote[E] = 50, 20
    rec = _score_record(T, pts, value, multiplier=multiplier, decl=decl, belote=belote,
                        capot=T if capot else -1)
    rules = Rules.from_preset("coinche", round_to_ten=False)
    score_coinche(rec, T, False, value == 250, rules.to_array())
    got = naive_coinche_score(pts, T, T if capot else None, decl, belote, value, multiplier,
                              162, False, rules, value == 250)
    assert rec[L.OUTCOME] == (L.OUT_MADE if got["outcome"] == "made" else L.OUT_DEDANS)
    assert list(rec[L.DEAL_SCORE : L.DEAL_SCORE + 2]) == got["deal_score"]
    assert list(rec[L.CARD_POINTS : L.CARD_POINTS + 2]) == got["card_points"]
    assert rec[L.TAKER_DEAL_SCORE] == got["deal_score"][T]
    assert rec[L.DEFENDER_DEAL_SCORE] == got["deal_score"][E]
    assert rec[L.SCORE_TAKERS] == got["card_points"][T] + 50
    assert rec[L.SCORE_DEFENDERS] == got["card_points"][E] + 20


# --------------------------------------------------------------------------------------
# The plain-Python reference (tests/reference/coinche.py) on the hand-built deals
# --------------------------------------------------------------------------------------


def test_naive_reference_agrees_on_the_hand_built_deals():
    for hands, calls, rules in (
        (H1, ["160H", "pass", "pass", "pass"], "coinche"),
        (H1, ["160H", "coinche", "surcoinche"], with_options(declarations=False)),
        (H2, ["250H", "pass", "pass", "pass"], "coinche"),
        (SUITS, ["pass", "pass", "250H", "pass", "pass", "pass"], "coinche"),
        (SUITS, ["250AT", "pass", "pass", "pass"], "coinche"),
        (NT1, ["80NT", "pass", "pass", "pass"], "coinche"),
        (AT1, ["90AT", "pass", "pass", "pass"], with_options(round_to_ten=False)),
    ):
        deal = make_deal(hands, calls, rules=rules)
        assert normalize_deal(replay(deal)) == normalize_deal(naive_coinche_replay(deal))


# --------------------------------------------------------------------------------------
# Properties of simulated deals
# --------------------------------------------------------------------------------------

@pytest.fixture(scope="module", params=["threshold", "random"])
def simulated(request):
    return request.param, simulated_deals(COINCHE, 300, seed=11, bid_policy=request.param)


def test_simulated_deals_replay_exactly(simulated):
    _, deals = simulated
    for d in deals:
        assert replay(inputs_of(d)) == d


def test_simulated_deals_agree_with_the_naive_reference(simulated):
    _, deals = simulated
    for d in deals:
        assert normalize_deal(naive_coinche_replay(d)) == normalize_deal(d)


def test_simulated_auctions_are_legal_and_give_the_contract(simulated):
    _, deals = simulated
    for d in deals:
        contract = naive_auction(d["calls"], (d["dealer"] + 1) % 4, True)
        if contract is None:
            assert d["thrown_in"]
            continue
        taker, strain, value, m, _ = contract
        assert (d["taker"], d["trump"]) == (taker, STRAINS[strain])
        assert d["contract"] == {"value": value, "strain": STRAINS[strain], "multiplier": m}


def test_simulated_plays_are_in_their_legal_sets(simulated):
    _, deals = simulated
    for d in deals:
        for t in d.get("tricks", []):
            for card, legal in zip(t["cards"], t["legal"], strict=True):
                assert card in legal


def test_simulated_card_points_sum_to_162_after_scaling(simulated):
    _, deals = simulated
    for d in deals:
        if d["thrown_in"]:
            continue
        assert sum(d["card_points"]) == 162 + (90 if d["capot"] else 0)
        if d["trump"] in ("AT", "NT"):
            trump = STRAINS.index(d["trump"])
            raw = [0, 0]
            for t in d["tricks"]:
                raw[t["winner"] % 2] += sum(card_value(parse_card(c), trump) for c in t["cards"])
            raw[d["tricks"][-1]["winner"] % 2] += last_trick_bonus(trump)
            T = d["taker"] % 2
            assert d["card_points"][T] - (90 if d["capot"] and d["capot"][0] % 2 == T else 0) \
                == (2 * 162 * raw[T] + sum(raw)) // (2 * sum(raw))


def test_simulated_deal_scores_follow_the_outcome_formulas(simulated):
    _, deals = simulated
    for d in deals:
        if d["thrown_in"]:
            continue
        T, E = d["taker"] % 2, 1 - d["taker"] % 2
        c = d["contract"]
        v, m = c["value"], c["multiplier"]
        decl, bel, cp = d["declarations"]["points"], d["belote"], d["card_points"]
        s_t = cp[T] + decl[T] + bel[T]
        made = bool(d["capot"]) and d["capot"][0] % 2 == T if v == 250 else s_t >= v
        assert d["outcome"] == ("made" if made else "dedans")
        if made and m == 1:
            want = {T: v + s_t, E: cp[E] + decl[E] + bel[E]}
        elif made:
            want = {T: 160 + v * m + decl[T] + bel[T], E: bel[E]}
        else:
            want = {T: bel[T], E: 160 + v * m + sum(decl) + bel[E]}
        assert d["deal_score"] == [(want[s] + 5) // 10 * 10 for s in (0, 1)]


def test_simulated_auctions_use_every_kind_of_call(simulated):
    policy, deals = simulated
    calls = {c for d in deals for c in d["calls"]}
    assert "pass" in calls and any(_is_bid(c) for c in calls)
    if policy == "random":
        assert {"coinche", "surcoinche"} <= calls
        assert any(c.startswith("250") for c in calls)
        assert any(d["thrown_in"] for d in deals)


# --------------------------------------------------------------------------------------
# The heuristic bidder
# --------------------------------------------------------------------------------------


def test_threshold_bidder_is_deterministic_and_sees_only_its_cards():
    a = simulated_deals(COINCHE, 40, seed=5, bid_policy="threshold")
    assert a == simulated_deals(COINCHE, 40, seed=5, bid_policy="threshold")
    # the first hand's call depends on its own cards only: deal the other 24 cards anew
    shuffle = random.Random(3)
    for d in a:
        first = (d["dealer"] + 1) % 4
        hands = [list(h) for h in d["hands"]]  # as dealt: coinche has no exchange
        others = [c for s in range(4) if s != first for c in hands[s]]
        shuffle.shuffle(others)
        for s in range(4):
            if s != first:
                hands[s], others = others[:8], others[8:]
        out = _policy_calls(coinche_pack(hands, d["dealer"]), d["dealer"], "threshold")
        assert out["calls"][0] == d["calls"][0]


def test_threshold_bidder_estimate_scale():
    params = 50.0
    hand = int(CardSet("JH 9H AH TH AC AS 7D 8D"))
    # hand_value: 20 + 14 + 11 + 10 + 10*(4-2) + 11 + 11 = 97 in hearts
    assert side_estimate(params, hand, 2, -1) == pytest.approx(80 + 1.3 * (97 - 50))
    # support: the partner's 100H raises it to 100 + 1.3 (97 - 30)
    assert side_estimate(params, hand, 2, parse_call("100H")) == pytest.approx(
        100 + 1.3 * 67)
    # the partner's bid in another strain does not
    assert side_estimate(params, hand, 2, parse_call("100S")) == pytest.approx(141.1)
    # a higher threshold lowers the estimate one for one (x 1.3)
    assert side_estimate(60.0, hand, 2, -1) == pytest.approx(128.1)


def test_threshold_bidder_bids_its_strong_suit_at_its_estimate():
    # seat 0 holds J9AT of hearts and two aces: 80 + 1.3 * 47 = 141.1 -> 140H
    hands = [
        "JH 9H AH TH AC AS 7D 8D",
        "7C 8C 9C TC 7S 8S 9S TS",
        "KH QH 8H 7H JC QC KC 9D",
        "JS QS KS TD JD QD KD AD",
    ]
    pack = coinche_pack(hands, 3)
    recs = _policy_calls(pack, dealer=3, policy="threshold")
    assert recs["calls"][0] == "140H"


def _policy_calls(pack, dealer, policy):
    """Play ``pack`` with a bidding policy (the deal's own kernel, as replay plays it)."""
    from belote_sim.deallog.format import record_to_deal
    from belote_sim.game.deals import play_deal_cached
    from belote_sim.game.state import new_workspace, no_script
    from belote_sim.players.lookup import lookup_for
    from belote_sim.players.registry import bid_policy_id
    from belote_sim.players.seating import families_for, same_players, solver_need

    players = same_players(bid_policy_id(policy), 50.0, 0, 0.0,
                           *lookup_for(bid_policy_id(policy)),
                           solver_need((bid_policy_id(policy),), (0,)),
                           families_for(COINCHE.to_array()))
    ws = new_workspace(players, False, False, False)
    ws.pack[:] = [parse_card(c) for c in pack]
    status = play_deal_cached(COINCHE.to_array(), players, no_script(), ws, dealer, 0, 0)
    assert status == 0
    return record_to_deal(ws.rec, COINCHE)


# --------------------------------------------------------------------------------------
# The statistics of a run
# --------------------------------------------------------------------------------------


@pytest.mark.many_deals
def test_simulate_coinche_counts_contracts_by_strain_value_and_coinche():
    res = simulate(COINCHE, deals=20_000, seed=1, bid_policy="random", play_policy="random")
    t = res.table()
    rows = t[t.metric == "contract_make_rate"]
    groups = set(rows.group)
    assert {f"strain={s}" for s in STRAINS} <= groups
    assert {f"value={v}" for v in (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)} <= groups
    coinche = t[t.metric == "coinche_rate"]
    assert len(coinche) == 1 and 0 < coinche.iloc[0]["value"] < 1
    played = int(res.counters["deals"]) - int(res.counters["thrown_in"])
    assert int(rows[rows.group.str.startswith("strain=")].n.sum()) == played
