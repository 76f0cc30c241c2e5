"""Hand-built tests of the play, declaration and scoring rules of the classic family
(RULES.md sections 3 and 5 to 8; presets ``classic``, ``sans-annonces``, ``litige``).

One test per rule, named after it; each fails if its rule is broken. Full deals are
built by hand: :func:`~hand_built.build_pack` lays out a pack that deals four chosen
hands, and :func:`~hand_built.engine_play_out` produces a legal sequence of cards from
each seat's preference order.
"""

from __future__ import annotations

import re
from itertools import chain

import numpy as np
import pytest
from hand_built import build_pack, engine_play_out, sorted_hand

from belote_sim import replay
from belote_sim.cards import RANKS, parse_card
from belote_sim.deallog.replay import PACK_EXAMPLE
from belote_sim.errors import BeloteError, DealLogError, IllegalPlayError
from belote_sim.kernels import layout as L
from belote_sim.kernels.api import (
    declarations,
    legal_cards,
    legal_cards_with_rule,
    score_deal,
    trick_winner,
    trump_code,
)
from belote_sim.kernels.declarations import declaration_contest, declaration_key
from belote_sim.rules import Rules
from belote_sim.studies.simulate import play_match

CLASSIC = Rules.from_preset("classic")
LITIGE = Rules.from_preset("litige")

# --------------------------------------------------------------------------------------
# Helpers: building full, legal deals
# --------------------------------------------------------------------------------------


def make_deal(hands, retourne, taker, calls, dealer, rules="classic", orders=None, **extra):
    """A complete deal-log deal dealing ``hands`` (:func:`~hand_built.build_pack`), bid
    with ``calls`` (ending with the taker's call), played by
    :func:`~hand_built.engine_play_out` (the engine's legal cards)."""
    first_packets = extra.pop("first_packets", "3-2")
    pack = build_pack(hands, retourne, taker, dealer, first_packets)
    trump = retourne[-1].upper() if calls[-1] == "take" else calls[-1]
    plays, _ = engine_play_out(rules, orders or hands, dealer, trump, taker)
    return {"rules": rules, "dealer": dealer, "pack": pack, "calls": calls, "plays": plays,
            **extra}


def deal_from_pack(pack, dealer, calls, hands, trump, taker, rules="classic"):
    """A deal-log deal from a given pack, played from the expected ``hands``."""
    plays, _ = engine_play_out(rules, hands, dealer, trump, taker)
    return {"rules": rules, "dealer": dealer, "pack": list(pack), "calls": calls,
            "plays": plays}


# Deal A: seat 0 (taker, first hand) holds the top trumps and the top plain cards and
# takes every trick; nobody holds a declaration or the belote.
HANDS_A = [
    "JH 9H AH KH AC TC AS TS",
    "TH 7C 9C JC 8D TD QD 7S",
    "7H 8H 8C AD 7D 9D 8S JS",
    "QH QC KC JD KD 9S QS KS",
]
# Deal B: deal A turned one seat: seat 1 (a defender) holds the strong hand and the
# defenders take every trick against taker 0.
HANDS_B = [HANDS_A[3], HANDS_A[0], HANDS_A[1], HANDS_A[2]]
# Deal C: the takers take every trick (252) but the defenders hold carré 9 + tierce
# (seat 1) and carré A + tierce (seat 3): 290 > 252, a failed capot. Seat 3 throws its
# aces on the trump tricks so that seat 0's tens make the last tricks.
HANDS_C = [
    "JH TH KH 8H 7H TS TD TC",
    "9H 8D QC 9D 9S 7C 8C 9C",
    "QH 7D 7S JD KD JS JC KC",
    "AH AD AC AS QD KS QS 8S",
]
# Deal D: taker 0 holds the belote (KH QH) and the only declaration (tierce 7S-9S) but
# the defenders hold every strong card.
HANDS_D = [
    "KH QH 7S 8S 9S 7C 7D 8D",
    "JH 9H AH 8H AC TC AD TD",
    "8C 9C JC 9D JD QD JS QS",
    "TH 7H AS TS KS KC KD QC",
]
ORDERS_D = ["7C 7D 8D 7S 8S 9S QH KH", HANDS_D[1], HANDS_D[2], HANDS_D[3]]
# Deal E: seat 0 tierce (20), seat 1 quarte (50), seat 2 carré J + tierce J-Q-K of
# spades (220: the jack of spades counts in both), seat 3 nothing.
HANDS_E = [
    "7C 8C 9C QC KD 7S 9S TS",
    "7H 8H 9H TH KH AC 9D QD",
    "JC JD JH JS QS KS AH 8D",
    "TC KC 7D TD AD QH 8S AS",
]
# Deal F: seat 0 tierce 8D-TD, seat 1 tierce 8C-TC: equal runs; nothing else anywhere.
HANDS_F = [
    "8D 9D TD KD 7C QS AS JH",
    "8C 9C TC 7H AC 7D JD 7S",
    "JC KC QD 8H TH QH 8S TS",
    "QC AD 9H KH AH 9S JS KS",
]
# Deal G: seat 0 holds all eight diamonds (a run of 8 and the belote in trump D).
HANDS_G = [
    "7D 8D 9D TD JD QD KD AD",
    "7C 9C JC KC 8H TH QH AH",
    "8C TC QC AC 7S 9S JS KS",
    "7H 9H JH KH 8S TS QS AS",
]
# An 81-81 deal of the simulator (classic, taker seat 0, no declaration, no belote).
TIE_81 = {
    "dealer": 2,
    "pack": ["KD", "9H", "QS", "8H", "JC", "TH", "8S", "AC", "QC", "TC", "9D", "7D", "7S",
             "JS", "7H", "TS", "AH", "AS", "KH", "AD", "9C", "7C", "QH", "8D", "QD", "KC",
             "TD", "KS", "9S", "JD", "JH", "8C"],
    "calls": ["pass", "take"],
    "plays": ["8D", "QD", "TD", "9D", "9S", "TC", "QS", "TS", "AD", "KD", "7H", "QC", "8S",
              "8C", "7S", "KC", "JC", "AC", "7D", "7C", "9C", "KS", "JH", "QH", "8H", "AH",
              "KH", "9H", "AS", "JD", "JS", "TH"],
}


def deal_a(rules="classic", **extra):
    return make_deal(HANDS_A, "KH", 0, ["take"], 3, rules, **extra)


def deal_b(rules="classic", **extra):
    return make_deal(HANDS_B, "QH", 0, ["take"], 3, rules, **extra)


def test_build_pack_helper_deals_the_intended_hands():
    for hands, retourne, taker, calls, dealer in [
        (HANDS_A, "KH", 0, ["take"], 3),
        (HANDS_C, "7H", 0, ["take"], 3),
        (HANDS_E, "AH", 2, ["pass", "take"], 0),
        (HANDS_F, "7H", 1, ["take"], 0),
        (HANDS_G, "7D", 0, ["pass", "pass", "take"], 1),
    ]:
        out = replay(make_deal(hands, retourne, taker, calls, dealer))
        assert out["hands"] == [sorted_hand(h) for h in hands]
        assert out["taker"] == taker
        assert out["trump"] == retourne[-1]


# --------------------------------------------------------------------------------------
# Section 6: legal cards
# --------------------------------------------------------------------------------------


def legal(hand, trick, leader, trump="H", rules=CLASSIC, taker=0):
    return str(legal_cards(rules, hand, trick, leader, trump, taker))


def test_following_suit_is_compulsory():
    # Plain suit led: any card of that suit, even a low one under a higher card.
    assert legal("8S AS 7H JD", ["7S"], leader=0) == "8S AS"
    assert legal("7S KS 7H", ["AS"], leader=0) == "7S KS"
    # The suit led is followed even after an opponent trumped: no need to trump over.
    assert legal("7S 8H", ["AS", "7H"], leader=0) == "7S"
    # The first card of a trick is free.
    assert legal("7S 8H AD", [], leader=0) == "AD 8H 7S"


def test_overtrump_on_trump_lead():
    # Trump led by an opponent: a higher trump when the player has one.
    assert legal("7H 8H JH AS", ["9H"], leader=1) == "JH"
    # "Higher than every card of L already in the trick" (J 9 A 10 K Q 8 7).
    assert legal("TH 9H KH", ["7H", "AH"], leader=0) == "9H"
    # Unable to beat: any trump, but still a trump.
    assert legal("7H 8H AS", ["JH"], leader=1) == "7H 8H"
    cs, rule = legal_cards_with_rule(CLASSIC, "7H 8H JH AS", ["9H"], 1, "H", 1)
    assert (str(cs), rule) == ("JH", L.RULE_OVERTRUMP_LEAD)


def test_overtrump_partner_on_trump_lead_with_overtrump_partner_on():
    # Seat 0 leads 9H and is winning; its partner seat 2 must still go over it.
    assert CLASSIC.overtrump_partner is True
    assert legal("7H JH AS", ["9H", "8H"], leader=0) == "JH"


def test_overtrump_partner_off_allows_any_trump_under_winning_partner():
    rules = Rules.from_preset("classic", overtrump_partner="off")
    assert legal("7H JH AS", ["9H", "8H"], leader=0, rules=rules) == "7H JH"
    # ... but an opponent's winning trump must still be beaten.
    assert legal("7H JH AS", ["AH", "9H"], leader=0, rules=rules) == "JH"


def test_must_trump_when_void_and_opponent_winning():
    assert legal("KD 7H", ["AS"], leader=0) == "7H"
    # No trump in the trick yet: any trump, even a low one.
    assert legal("KD 7H JH", ["AS"], leader=0) == "7H JH"
    cs, rule = legal_cards_with_rule(CLASSIC, "KD 7H", ["AS"], 0, "H", 0)
    assert (str(cs), rule) == ("7H", L.RULE_MUST_TRUMP)
    # Void without trumps: any card.
    assert legal("KD 7C", ["AS"], leader=0) == "7C KD"


def test_must_trump_off_allows_any_card_when_void():
    rules = Rules.from_preset("classic", must_trump="off")
    assert legal("KD 7H", ["AS"], leader=0, rules=rules) == "KD 7H"
    assert legal("KD 7H", ["AS", "8H"], leader=0, rules=rules) == "KD 7H"


def test_overtrump_when_void_and_trick_holds_trump():
    # Leader 1 AS, seat 2 trumps AH, seat 3 overtrumps 9H; seat 0 must beat every trump.
    assert legal("TH JH 7D", ["AS", "AH", "9H"], leader=1) == "JH"
    # The trump to beat is the highest in the trick, not the last one played (with
    # partner_exemption off, even the partner's winning 9H must be beaten).
    no_exemption = Rules.from_preset("classic", partner_exemption="off")
    assert legal("8H JH KD", ["AS", "9H", "7H"], leader=1, rules=no_exemption) == "JH"
    cs, rule = legal_cards_with_rule(CLASSIC, "TH JH 7D", ["AS", "AH", "9H"], 1, "H", 0)
    assert (str(cs), rule) == ("JH", L.RULE_OVERTRUMP)


def test_undertrump_forced_when_cannot_overtrump():
    # Seat 1 trumped AS with JH; seat 2 cannot beat it and must still play a trump.
    assert CLASSIC.undertrump == "forced"
    assert legal("7H 8H KD", ["AS", "JH"], leader=0) == "7H 8H"
    assert legal("TH KD", ["AS", "AH", "9H"], leader=1) == "TH"
    cs, rule = legal_cards_with_rule(CLASSIC, "7H 8H KD", ["AS", "JH"], 0, "H", 0)
    assert (str(cs), rule) == ("7H 8H", L.RULE_UNDERTRUMP)


def test_undertrump_free_allows_any_card_when_cannot_overtrump():
    rules = Rules.from_preset("classic", undertrump="free")
    assert legal("7H 8H KD", ["AS", "JH"], leader=0, rules=rules) == "KD 7H 8H"
    no_exemption = Rules.from_preset("classic", undertrump="free", partner_exemption="off")
    assert legal("8H KD", ["AS", "9H", "7H"], leader=1, rules=no_exemption) == "KD 8H"
    # Overtrumping stays compulsory when possible.
    assert legal("JH 8H KD", ["AS", "9H"], leader=0, rules=rules) == "JH"
    # With no trump in the trick the void player must still trump.
    assert legal("7H KD", ["AS"], leader=0, rules=rules) == "7H"


def test_partner_exemption_on_allows_any_card_when_partner_winning():
    # Leader 3 AS is winning; its partner seat 1 is void in spades.
    assert legal("KD 7H", ["AS", "7S"], leader=3) == "KD 7H"
    # Partner winning with a trump: no obligation to overtrump it.
    assert legal("8H QS", ["AD", "7H", "8D"], leader=0) == "8H QS"
    cs, rule = legal_cards_with_rule(CLASSIC, "KD 7H", ["AS", "7S"], 3, "H", 3)
    assert rule == L.RULE_PARTNER


def test_partner_exemption_off_requires_trumping_over_partner():
    rules = Rules.from_preset("classic", partner_exemption="off")
    assert legal("KD 7H", ["AS", "7S"], leader=3, rules=rules) == "7H"
    assert legal("8H QS", ["AD", "7H", "8D"], leader=0, rules=rules) == "8H"


def test_void_in_trump_lead_may_play_any_card():
    assert legal("7C KD", ["JH"], leader=0) == "7C KD"


def test_trick_winner_without_trumps_is_highest_of_suit_led():
    assert trick_winner(["KS", "AS", "TS", "JS"], "H") == 1
    assert trick_winner(["KS", "TS", "QS", "9S"], "H") == 1  # A 10 K Q J 9 8 7
    assert trick_winner(["7S", "AD", "AC", "8S"], "H") == 3  # off-suit cards never win
    assert trick_winner(["JS", "9S", "8S", "7S"], "D") == 0


def test_trick_winner_with_trumps_is_highest_trump():
    assert trick_winner(["AS", "7H", "TS", "JS"], "H") == 1
    assert trick_winner(["AH", "9H", "JH", "TH"], "H") == 2  # J 9 A 10 K Q 8 7
    assert trick_winner(["AH", "9H", "TH", "KH"], "H") == 1
    assert trick_winner(["AS", "8H", "7H", "AH"], "H") == 3
    assert trick_winner(["8H", "7H"], "H") == 0


def test_trick_winner_all_trumps_and_no_trumps_use_suit_led():
    assert trick_winner(["AD", "9D", "JS", "JD"], "AT") == 3
    assert trick_winner(["AD", "9D", "JS"], "AT") == 1
    assert trick_winner(["KD", "AD", "TD", "AS"], "NT") == 1
    assert trick_winner(["9D", "JD", "AS", "AC"], "NT") == 1


def test_first_hand_leads_first_trick_and_winner_leads_next():
    out = replay(make_deal(HANDS_E, "AH", 2, ["pass", "take"], 0))
    tricks = out["tricks"]
    assert tricks[0]["leader"] == 1  # dealer 0: first hand 1
    for prev, nxt in zip(tricks, tricks[1:], strict=False):
        assert nxt["leader"] == prev["winner"]
    for t in tricks:
        assert t["winner"] == (t["leader"] + trick_winner(t["cards"], "H")) % 4


# --------------------------------------------------------------------------------------
# Section 5: declarations
# --------------------------------------------------------------------------------------


def _decl(hand, split=False):
    return sorted(
        (d["kind"], d["top"], d["length"], d["points"]) for d in declarations(hand, split)
    )


def test_run_values_tierce_quarte_quinte():
    assert _decl("7C 8C 9C") == [("tierce", "9C", 3, 20)]
    assert _decl("TD JD QD KD") == [("quarte", "KD", 4, 50)]
    assert _decl("9H TH JH QH KH") == [("quinte", "KH", 5, 100)]
    assert _decl("7S 8S 9S TS JS QS") == [("quinte", "QS", 6, 100)]
    assert _decl("7S 8S 9S TS JS QS KS") == [("quinte", "KS", 7, 100)]
    assert _decl("7C 8C 9D TD JH") == []  # a run stays inside one suit
    assert _decl("QC KC AC 7C 8C") == [("tierce", "AC", 3, 20)]  # A does not wrap to 7


def test_every_maximal_run_of_a_suit_counts_separately():
    assert _decl("7C 8C 9C JC QC KC") == [("tierce", "9C", 3, 20), ("tierce", "KC", 3, 20)]
    assert _decl("7H 8H 9H TH QH KH AH") == [
        ("quarte", "TH", 4, 50), ("tierce", "AH", 3, 20)
    ]


def test_carre_values():
    assert _decl("JC JD JH JS") == [("carre", "J", 4, 200)]
    assert _decl("9C 9D 9H 9S") == [("carre", "9", 4, 150)]
    for rank in "AKQT":
        assert _decl(" ".join(rank + s for s in "CDHS")) == [("carre", rank, 4, 100)]
    for rank in "87":
        assert _decl(" ".join(rank + s for s in "CDHS")) == []


def test_card_counts_in_carre_and_run_at_once():
    assert _decl("JC JD JH JS QS KS") == [("carre", "J", 4, 200), ("tierce", "KS", 3, 20)]
    # Through a full deal: seat 2's jack of spades counts in its carré and its tierce.
    out = replay(make_deal(HANDS_E, "AH", 2, ["pass", "take"], 0))
    assert sorted(d["points"] for d in out["declarations"]["held"][2]) == [20, 200]
    assert out["declarations"]["points"] == [240, 0]


def test_split_long_runs_scores_run_of_eight_as_quinte_plus_tierce():
    eight = "7H 8H 9H TH JH QH KH AH"
    assert _decl(eight) == [("quinte", "AH", 8, 100)]
    assert _decl(eight, split=True) == [("quinte", "AH", 8, 120)]
    # Six or seven cards are a quinte either way.
    assert _decl("7H 8H 9H TH JH QH", split=True) == [("quinte", "QH", 6, 100)]
    assert _decl("8H 9H TH JH QH KH AH", split=True) == [("quinte", "AH", 7, 100)]
    # Through full deals.
    calls = ["pass", "pass", "take"]
    plain = replay(make_deal(HANDS_G, "7D", 0, calls, 1))
    split = replay(make_deal(HANDS_G, "7D", 0, calls, 1,
                             rules={"preset": "classic", "options": {"split_long_runs": "on"}}))
    assert plain["declarations"]["held"][0] == [
        {"kind": "quinte", "top": "AD", "length": 8, "points": 100}
    ]
    assert split["declarations"]["held"][0] == [
        {"kind": "quinte", "top": "AD", "length": 8, "points": 120}
    ]
    assert plain["declarations"]["points"] == [100, 0]
    assert split["declarations"]["points"] == [120, 0]
    # 252 (capot) + declarations + belote
    assert plain["deal_score"] == [252 + 100 + 20, 0]
    assert split["deal_score"] == [252 + 120 + 20, 0]


RUN_KIND = {3: L.DK_TIERCE, 4: L.DK_QUARTE}


def run_key(top: str, length: int, trump: str) -> int:
    kind = RUN_KIND.get(length, L.DK_QUINTE)
    return int(declaration_key(kind, parse_card(top), length, trump_code(trump)))


def carre_key(rank: str, trump: str = "H") -> int:
    return int(declaration_key(L.DK_CARRE, RANKS.index(rank), 4, trump_code(trump)))


SIDES = np.array([0, 1, 0, 1], dtype=np.int64)


def contest(keys_by_seat: dict[int, int], first_hand=0, tie_first=False):
    keys = np.zeros(4, dtype=np.int64)
    for seat, key in keys_by_seat.items():
        keys[seat] = key
    side, seat = declaration_contest(keys, first_hand, 4, SIDES, int(tie_first))
    return int(side), int(seat)


def test_contest_carre_beats_any_run():
    eight_run = run_key("AH", 8, "H")
    assert contest({0: eight_run, 1: carre_key("Q")}) == (1, 1)
    assert contest({1: eight_run, 2: carre_key("Q")}) == (0, 2)


def test_contest_carre_order_j_9_a_10_k_q():
    order = "J9ATKQ"
    for i, high in enumerate(order):
        for low in order[i + 1:]:
            assert contest({0: carre_key(low), 3: carre_key(high)}) == (1, 3), (high, low)
            assert contest({0: carre_key(high), 3: carre_key(low)}) == (0, 0), (high, low)


def test_contest_longer_run_wins():
    # quarte 7-10 of clubs beats a tierce Q-A of trumps
    assert contest({0: run_key("AS", 3, "S"), 1: run_key("TC", 4, "S")}) == (1, 1)
    # six cards to the queen beat five to the ace (actual length)
    assert contest({2: run_key("QD", 6, "H"), 3: run_key("AH", 5, "H")}) == (0, 2)


def test_contest_higher_top_card_wins_between_equal_lengths():
    assert contest({0: run_key("KS", 3, "S"), 1: run_key("AC", 3, "S")}) == (1, 1)
    assert contest({0: run_key("AD", 4, "H"), 1: run_key("KH", 4, "H")}) == (0, 0)


def test_contest_trump_run_wins_a_tie():
    assert contest({0: run_key("KD", 3, "S"), 1: run_key("KS", 3, "S")}) == (1, 1)
    assert contest({0: run_key("KD", 3, "D"), 1: run_key("KS", 3, "D")}) == (0, 0)
    # even against the first hand under declaration_tie=first
    assert contest({0: run_key("KD", 3, "D"), 1: run_key("KS", 3, "D")},
                   first_hand=1, tie_first=True) == (0, 0)


def test_contest_tie_none_nobody_scores():
    assert contest({0: run_key("KD", 3, "H"), 1: run_key("KS", 3, "H")}) == (-1, -1)
    assert contest({2: run_key("QC", 4, "H"), 3: run_key("QD", 4, "H")}) == (-1, -1)
    # In all-trumps and no-trumps no run is "in trump": equal runs stay level.
    assert contest({0: run_key("KD", 3, "AT"), 1: run_key("KS", 3, "AT")}) == (-1, -1)
    assert contest({0: run_key("KD", 3, "NT"), 1: run_key("KS", 3, "NT")}) == (-1, -1)
    assert contest({}) == (-1, -1)  # no declarations anywhere: nobody scores


def test_contest_tie_first_side_first_in_turn_order_wins():
    keys = {0: run_key("KD", 3, "H"), 1: run_key("KS", 3, "H")}
    assert contest(keys, first_hand=0, tie_first=True) == (0, 0)
    assert contest(keys, first_hand=1, tie_first=True) == (1, 1)
    assert contest(keys, first_hand=2, tie_first=True) == (0, 0)  # order 2 3 0 1
    keys = {2: run_key("KD", 3, "H"), 1: run_key("KS", 3, "H")}
    assert contest(keys, first_hand=3, tie_first=True) == (1, 1)  # order 3 0 1 2
    assert contest(keys, first_hand=2, tie_first=True) == (0, 2)


def test_contest_side_best_is_trump_then_first_in_turn_order():
    # Both partners hold a tierce to the king: the one in trump is the side's best.
    keys = {0: run_key("KD", 3, "S"), 2: run_key("KS", 3, "S")}
    assert contest(keys, first_hand=0) == (0, 2)
    # Neither in trump: the one first in turn order from the first hand.
    keys = {0: run_key("KD", 3, "H"), 2: run_key("KS", 3, "H")}
    assert contest(keys, first_hand=1) == (0, 2)
    assert contest(keys, first_hand=3) == (0, 0)


def test_contest_winning_side_scores_every_declaration_of_its_players():
    out = replay(make_deal(HANDS_E, "AH", 2, ["pass", "take"], 0))
    decl = out["declarations"]
    assert [sorted((d["kind"], d["points"]) for d in h) for h in decl["held"]] == [
        [("tierce", 20)],
        [("quarte", 50)],
        [("carre", 200), ("tierce", 20)],
        [],
    ]
    # Carré J (seat 2) beats seat 1's quarte: side 0 scores 200 + 20 + 20, side 1 nothing.
    assert decl["winner_seat"] == 2
    assert decl["points"] == [240, 0]
    assert out["outcome"] == "made"
    assert out["deal_score"] == [out["card_points"][0] + 240, out["card_points"][1]]


def test_declarations_off_nobody_declares():
    out = replay(make_deal(HANDS_E, "AH", 2, ["pass", "take"], 0, rules="sans-annonces"))
    assert out["declarations"] == {"held": [[], [], [], []], "winner_seat": None,
                                   "points": [0, 0]}
    # Without its 240 of declarations, side 0 (the takers) goes dedans.
    assert out["card_points"][0] < out["card_points"][1]
    assert (out["outcome"], out["deal_score"]) == ("dedans", [0, 162])


@pytest.mark.parametrize(
    ("calls", "tie", "points", "winner"),
    [
        (["take"], "none", [0, 0], None),  # trump H: equal runs, nobody scores
        (["take"], "first", [0, 20], 1),  # first hand (seat 1) wins
        (["pass"] * 4 + ["D"], "none", [20, 0], 0),  # seat 0's run is in trump
        (["pass"] * 4 + ["D"], "first", [20, 0], 0),
        (["pass"] * 4 + ["C"], "none", [0, 20], 1),  # seat 1's run is in trump
    ],
)
def test_declaration_tie_rules_in_full_deals(calls, tie, points, winner):
    rules = {"preset": "classic", "options": {"declaration_tie": tie}}
    out = replay(make_deal(HANDS_F, "7H", 1, calls, 0, rules=rules))
    assert out["taker"] == 1
    assert out["declarations"]["points"] == points
    assert out["declarations"]["winner_seat"] == winner


# --------------------------------------------------------------------------------------
# Section 8: scoring
# --------------------------------------------------------------------------------------


def test_contract_made_each_side_scores_its_own():
    s = score_deal(CLASSIC, trick_points=(100, 62), taker_side=0, declaration_points=(0, 20),
                   belote=(0, 20))
    assert (s["score_takers"], s["score_defenders"]) == (100, 102)
    assert (s["outcome"], s["deal_score"]) == ("dedans", [0, 162 + 20 + 20])
    s = score_deal(CLASSIC, trick_points=(110, 52), taker_side=0, declaration_points=(0, 20),
                   belote=(20, 20))
    assert (s["score_takers"], s["score_defenders"]) == (130, 92)
    assert (s["outcome"], s["deal_score"]) == ("made", [130, 92])


def test_dedans_when_takers_score_less_than_defenders():
    s = score_deal(CLASSIC, trick_points=(80, 82), taker_side=0)
    assert (s["outcome"], s["deal_score"]) == ("dedans", [0, 162])
    s = score_deal(CLASSIC, trick_points=(82, 80), taker_side=1)
    assert (s["outcome"], s["deal_score"]) == ("dedans", [162, 0])
    s = score_deal(CLASSIC, trick_points=(82, 80), taker_side=0)
    assert (s["outcome"], s["deal_score"]) == ("made", [82, 80])
    # Through a full deal: taker 0 against the defenders' strong cards.
    out = replay(make_deal(HANDS_D, "QH", 0, ["take"], 3, orders=ORDERS_D))
    assert out["outcome"] == "dedans"


def test_dedans_transfers_every_declaration_to_defenders():
    # The takers' own winning declaration goes to the defenders.
    s = score_deal(CLASSIC, trick_points=(50, 112), taker_side=0, declaration_points=(20, 0))
    assert (s["outcome"], s["deal_score"]) == ("dedans", [0, 162 + 20])
    # The defenders' declarations stay theirs.
    s = score_deal(CLASSIC, trick_points=(100, 62), taker_side=0, declaration_points=(0, 50))
    assert (s["outcome"], s["deal_score"]) == ("dedans", [0, 162 + 50])
    # Full deal: taker 0 holds the tierce that won the contest, and goes dedans (capot).
    out = replay(make_deal(HANDS_D, "QH", 0, ["take"], 3, orders=ORDERS_D))
    assert out["declarations"]["points"] == [20, 0]
    assert out["outcome"] == "dedans"
    bonus = 90 if out["capot"] == [1, 3] else 0
    assert out["deal_score"][1] == 162 + bonus + 20
    # Full deal: taker 1 against side 0's winning carré J (240 in all), no capot.
    out = replay(make_deal(HANDS_E, "KH", 1, ["take"], 0))
    assert out["declarations"]["points"] == [240, 0]
    assert out["capot"] is None
    assert (out["outcome"], out["deal_score"]) == ("dedans", [162 + 240, 0])


def test_belote_kept_by_its_holder_on_dedans():
    s = score_deal(CLASSIC, trick_points=(40, 122), taker_side=0, belote=(20, 0))
    assert (s["outcome"], s["deal_score"]) == ("dedans", [20, 162])
    s = score_deal(CLASSIC, trick_points=(40, 122), taker_side=0, belote=(0, 20))
    assert (s["outcome"], s["deal_score"]) == ("dedans", [0, 182])
    out = replay(make_deal(HANDS_D, "QH", 0, ["take"], 3, orders=ORDERS_D))
    assert out["belote"] == [20, 0]
    assert out["outcome"] == "dedans"
    assert out["deal_score"][0] == 20


def test_belote_scores_20_for_the_holders_side():
    out = replay(make_deal(HANDS_D, "QH", 0, ["take"], 3, orders=ORDERS_D))
    assert out["belote"] == [20, 0]
    off = replay(make_deal(HANDS_D, "QH", 0, ["take"], 3, orders=ORDERS_D,
                           rules={"preset": "classic", "options": {"belote": "off"}}))
    assert off["belote"] == [0, 0]
    # K and Q of a suit other than trump are no belote.
    out = replay(make_deal(HANDS_D, "QH", 0, ["pass"] * 4 + ["S"], 3, orders=ORDERS_D))
    assert out["trump"] == "S"
    assert out["belote"] == [0, 0]


def test_capot_by_takers_scores_252():
    s = score_deal(CLASSIC, trick_points=(162, 0), taker_side=0, capot_side=0)
    assert s["card_points"] == [252, 0]
    assert (s["outcome"], s["deal_score"]) == ("made", [252, 0])
    out = replay(deal_a())
    assert out["capot"] == [0, 2]
    assert out["card_points"] == [252, 0]
    assert (out["outcome"], out["deal_score"]) == ("made", [252, 0])


def test_capot_by_defenders_scores_252():
    s = score_deal(CLASSIC, trick_points=(0, 162), taker_side=0, capot_side=1)
    assert s["card_points"] == [0, 252]
    assert (s["outcome"], s["deal_score"]) == ("dedans", [0, 252])
    out = replay(deal_b())
    assert out["taker"] == 0
    assert out["capot"] == [1, 3]
    assert out["card_points"] == [0, 252]
    assert (out["outcome"], out["deal_score"]) == ("dedans", [0, 252])


def test_failed_capot_of_takers_earns_nobody_the_90():
    s = score_deal(CLASSIC, trick_points=(162, 0), taker_side=0, capot_side=0,
                   declaration_points=(0, 290))
    assert s["outcome"] == "dedans"
    assert s["deal_score"] == [0, 162 + 290]
    out = replay(make_deal(HANDS_C, "7H", 0, ["take"], 3))
    assert out["capot"] == [0, 2]
    assert out["declarations"]["points"] == [0, 290]
    assert out["declarations"]["winner_seat"] == 1  # carré 9 beats carré A and carré 10
    assert out["outcome"] == "dedans"
    assert out["deal_score"] == [0, 162 + 290]


def test_tie_81_81_with_tie_rule_takers_is_made():
    s = score_deal(CLASSIC, trick_points=(81, 81), taker_side=0)
    assert (s["outcome"], s["deal_score"], s["pot"]) == ("made", [81, 81], 0)
    out = replay({"rules": "classic", **TIE_81})
    assert (out["taker"], out["card_points"]) == (0, [81, 81])
    assert (out["outcome"], out["deal_score"], out["pot"]) == ("made", [81, 81], 0)


def test_tie_81_81_with_tie_rule_split_is_tie():
    rules = Rules.from_preset("classic", tie_rule="split")
    s = score_deal(rules, trick_points=(81, 81), taker_side=1)
    assert (s["outcome"], s["deal_score"], s["pot"]) == ("tie", [81, 81], 0)
    out = replay({"rules": {"preset": "classic", "options": {"tie_rule": "split"}}, **TIE_81})
    assert (out["outcome"], out["deal_score"], out["pot"]) == ("tie", [81, 81], 0)


def test_tie_81_81_with_tie_rule_litige_puts_takers_points_in_pot():
    s = score_deal(LITIGE, trick_points=(81, 81), taker_side=0)
    assert (s["outcome"], s["deal_score"], s["pot"]) == ("litige", [0, 81], 81)
    assert s["pot_won_by"] is None
    s = score_deal(LITIGE, trick_points=(81, 81), taker_side=1)
    assert (s["outcome"], s["deal_score"], s["pot"]) == ("litige", [81, 0], 81)
    # The takers score their belote now; the rest of S_T goes into the pot.
    s = score_deal(LITIGE, trick_points=(71, 91), taker_side=0, belote=(20, 0))
    assert (s["outcome"], s["deal_score"], s["pot"]) == ("litige", [20, 91], 71)
    out = replay({"rules": "litige", **TIE_81})
    assert (out["outcome"], out["deal_score"], out["pot"]) == ("litige", [0, 81], 81)
    assert out["pot_won_by"] is None


def test_litige_pot_goes_to_next_deal_winner():
    made = score_deal(LITIGE, trick_points=(100, 62), taker_side=0, pot_before=81)
    assert (made["outcome"], made["pot_won_by"], made["deal_score"]) == ("made", 0, [181, 62])
    dedans = score_deal(LITIGE, trick_points=(60, 102), taker_side=0, pot_before=81)
    assert (dedans["outcome"], dedans["pot_won_by"]) == ("dedans", 1)
    assert dedans["deal_score"] == [0, 162 + 81]
    made1 = score_deal(LITIGE, trick_points=(62, 100), taker_side=1, pot_before=71)
    assert (made1["pot_won_by"], made1["deal_score"]) == (1, [62, 171])
    # Through replayed deals with pot_before.
    out = replay(deal_a("litige", pot_before=81))
    assert (out["outcome"], out["pot_won_by"], out["deal_score"]) == ("made", 0, [333, 0])
    out = replay(deal_b("litige", pot_before=81))
    assert (out["outcome"], out["pot_won_by"], out["deal_score"]) == ("dedans", 1, [0, 333])


def test_litige_pot_accumulates_over_ties():
    # A tie with a pot waiting: the pot stays open, and this deal adds to it.
    s = score_deal(LITIGE, trick_points=(81, 81), taker_side=1, pot_before=81)
    assert (s["outcome"], s["pot_won_by"], s["pot"], s["deal_score"]) == (
        "litige", None, 81, [81, 0]
    )
    # The next decided deal collects both.
    s = score_deal(LITIGE, trick_points=(90, 72), taker_side=0, pot_before=162)
    assert (s["pot_won_by"], s["deal_score"]) == (0, [252, 72])
    out = replay({"rules": "litige", "pot_before": 81, **TIE_81})
    assert (out["outcome"], out["pot_won_by"], out["pot"], out["deal_score"]) == (
        "litige", None, 81, [0, 81]
    )


def test_pot_before_refused_without_tie_rule_litige():
    with pytest.raises(DealLogError) as exc:
        replay(deal_a("classic", pot_before=81))
    assert "pot_before" in str(exc.value)


def _decided_winner(deal):
    taker_side = deal["taker"] % 2
    return taker_side if deal["outcome"] == "made" else 1 - taker_side


def _check_match_pot(match):
    """Walk a litige match: the pot carried into each deal is the sum of the ties'
    pots since the last decided deal, and the first decided deal collects it whole."""
    pot = 0
    collected = []
    for deal in match["deals"]:
        assert deal.get("pot_before", 0) == pot
        if deal["thrown_in"]:
            continue
        if deal["outcome"] == "litige":
            assert deal["pot_won_by"] is None
            pot += deal["pot"]
            continue
        alone = replay({k: v for k, v in deal.items() if k in (
            "rules", "dealer", "pack", "calls", "plays")})
        if pot:
            w = _decided_winner(deal)
            assert deal["pot_won_by"] == w
            expected = list(alone["deal_score"])
            expected[w] += pot
            assert deal["deal_score"] == expected
            collected.append(pot)
        else:
            assert deal["pot_won_by"] is None
            assert deal["deal_score"] == alone["deal_score"]
        pot = 0
    assert match["scores"] == [
        sum(d["deal_score"][s] for d in match["deals"] if not d["thrown_in"]) for s in (0, 1)
    ]
    return collected


def _find_match(rules, condition, seeds=range(3000)):
    for seed in seeds:
        match = play_match(rules, seed=seed)
        if condition(match["deals"]):
            return seed, match
    pytest.fail("no match with the wanted deals among the searched seeds")


def _played(deals):
    return [d for d in deals if not d["thrown_in"]]


def test_litige_pot_goes_to_next_deal_winner_in_match():
    def litige_then_decided(deals):
        p = _played(deals)
        return any(a["outcome"] == "litige" and b["outcome"] != "litige"
                   for a, b in zip(p, p[1:], strict=False))

    _, match = _find_match(LITIGE, litige_then_decided)
    assert _check_match_pot(match)


def test_litige_pot_accumulates_over_ties_in_match():
    def two_ties_then_decided(deals):
        p = _played(deals)
        return any(a["outcome"] == b["outcome"] == "litige" and c["outcome"] != "litige"
                   for a, b, c in zip(p, p[1:], p[2:], strict=False))

    # Seed 2727 is the first whose match has two ties in a row: searched first, it spares
    # the plain-Python run (make test-plain) 2,727 matches; the others follow in case the
    # deals change.
    _, match = _find_match(LITIGE, two_ties_then_decided, chain([2727], range(3000)))
    played = _played(match["deals"])
    i = next(i for i in range(len(played) - 2)
             if played[i]["outcome"] == played[i + 1]["outcome"] == "litige")
    first, second, third = played[i:i + 3]
    assert second["pot_before"] == first.get("pot_before", 0) + first["pot"]
    assert third["pot_before"] == second["pot_before"] + second["pot"]
    collected = _check_match_pot(match)
    assert third["pot_before"] in collected


# --------------------------------------------------------------------------------------
# Section 7.1: bidding and dealing
# --------------------------------------------------------------------------------------

# PACK_EXAMPLE is the pack in index order; with dealer 3 the first hand is seat 0 and
# the 3-2 packets deal:
DEALT_32 = [
    "7C 8C 9C JD QD", "TC JC QC KD AD", "KC AC 7D 7H 8H", "8D 9D TD 9H TH",
]
# retourne: PACK_EXAMPLE[20] = JH; then QH KH AH 7S 8S 9S TS JS QS KS AS.


def test_thrown_in_deal_when_all_eight_calls_pass():
    out = replay({"rules": "classic", "dealer": 3, "pack": PACK_EXAMPLE,
                  "calls": ["pass"] * 8, "plays": []})
    assert out["thrown_in"] is True
    assert out["hands"] == [sorted_hand(h) for h in DEALT_32]
    assert set(out) - {"rules", "dealer", "pack", "calls", "plays"} == {"thrown_in", "hands"}


def test_round_one_take_gives_retourne_suit_and_deals_the_rest():
    # Seat 1 takes in round 1: trump = the retourne's suit; the taker picks up JH and
    # gets 2 more cards, everyone else 3, in turn order from the first hand (seat 0).
    hands = [
        DEALT_32[0] + " QH KH AH",
        DEALT_32[1] + " JH 7S 8S",
        DEALT_32[2] + " 9S TS JS",
        DEALT_32[3] + " QS KS AS",
    ]
    deal = deal_from_pack(PACK_EXAMPLE, 3, ["pass", "take"], hands, "H", 1)
    out = replay(deal)
    assert (out["thrown_in"], out["taker"], out["trump"]) == (False, 1, "H")
    assert out["hands"] == [sorted_hand(h) for h in hands]


def test_taker_picks_up_retourne_and_gets_two_more_cards():
    # Seat 2 takes: seat 0 gets QH KH AH, seat 1 7S 8S 9S, seat 2 JH + TS JS, seat 3 QS KS AS.
    hands = [
        DEALT_32[0] + " QH KH AH",
        DEALT_32[1] + " 7S 8S 9S",
        DEALT_32[2] + " JH TS JS",
        DEALT_32[3] + " QS KS AS",
    ]
    deal = deal_from_pack(PACK_EXAMPLE, 3, ["pass", "pass", "take"], hands, "H", 2)
    out = replay(deal)
    assert out["taker"] == 2
    assert out["hands"] == [sorted_hand(h) for h in hands]
    assert all(len(h) == 8 for h in out["hands"])


def test_round_two_names_another_suit():
    hands = [
        DEALT_32[0] + " QH KH AH",
        DEALT_32[1] + " JH 7S 8S",
        DEALT_32[2] + " 9S TS JS",
        DEALT_32[3] + " QS KS AS",
    ]
    deal = deal_from_pack(PACK_EXAMPLE, 3, ["pass"] * 5 + ["S"], hands, "S", 1)
    out = replay(deal)
    assert (out["taker"], out["trump"]) == (1, "S")
    assert out["hands"] == [sorted_hand(h) for h in hands]  # retourne picked up too


def test_round_two_cannot_name_retourne_suit():
    deal = {"rules": "classic", "dealer": 3, "pack": PACK_EXAMPLE,
            "calls": ["pass"] * 5 + ["H"], "plays": []}
    with pytest.raises(IllegalPlayError) as exc:
        replay(deal, number=4)
    msg = str(exc.value)
    assert "deal 4" in msg and "call 6" in msg and "seat 1" in msg
    assert "H" in msg and "retourne" in msg


def test_round_one_allows_only_take_or_pass():
    for bad in ("H", "S", "AT"):
        deal = {"rules": "classic", "dealer": 3, "pack": PACK_EXAMPLE,
                "calls": ["pass", bad], "plays": []}
        with pytest.raises(IllegalPlayError) as exc:
            replay(deal)
        assert "call 2" in str(exc.value) and "seat 1" in str(exc.value)
        assert bad in str(exc.value)


def test_round_two_allows_only_another_suit_or_pass():
    for bad in ("take", "AT", "NT"):
        deal = {"rules": "classic", "dealer": 3, "pack": PACK_EXAMPLE,
                "calls": ["pass"] * 4 + [bad], "plays": []}
        with pytest.raises(IllegalPlayError) as exc:
            replay(deal)
        assert "call 5" in str(exc.value) and "seat 0" in str(exc.value)


def test_first_packets_3_2_and_2_3_deal_different_hands():
    common = [" JH QH KH", " AH 7S 8S", " 9S TS JS", " QS KS AS"]
    dealt_23 = ["7C 8C 7D 8D 9D", "9C TC TD JD QD", "JC QC KD AD 7H", "KC AC 8H 9H TH"]
    hands_32 = [d + c for d, c in zip(DEALT_32, common, strict=True)]
    hands_23 = [d + c for d, c in zip(dealt_23, common, strict=True)]
    out = replay(deal_from_pack(PACK_EXAMPLE, 3, ["take"], hands_32, "H", 0))
    assert out["hands"] == [sorted_hand(h) for h in hands_32]
    rules = {"preset": "classic", "options": {"first_packets": "2-3"}}
    out = replay(deal_from_pack(PACK_EXAMPLE, 3, ["take"], hands_23, "H", 0, rules=rules))
    assert out["hands"] == [sorted_hand(h) for h in hands_23]
    thrown = replay({"rules": rules, "dealer": 3, "pack": PACK_EXAMPLE,
                     "calls": ["pass"] * 8})
    assert thrown["hands"] == [sorted_hand(h) for h in dealt_23]


def test_first_hand_is_after_dealer_speaks_and_leads_first():
    # Dealer 1: seat 2 speaks first, then 3, then 0, whose 'take' makes it the taker.
    out = replay(make_deal(HANDS_G, "7D", 0, ["pass", "pass", "take"], 1))
    assert out["taker"] == 0
    assert out["tricks"][0]["leader"] == 2
    # The second call of the deal is seat 3's.
    pack = build_pack(HANDS_G, "7D", 0, 1)
    with pytest.raises(IllegalPlayError) as exc:
        replay({"rules": "classic", "dealer": 1, "pack": pack, "calls": ["pass", "S"]})
    assert "call 2" in str(exc.value) and "seat 3" in str(exc.value)
    # Packets go to the first hand first: seat 2 receives the top three cards.
    thrown = replay({"rules": "classic", "dealer": 1, "pack": pack, "calls": ["pass"] * 8})
    assert set(pack[:3]) <= set(thrown["hands"][2])
    assert set(pack[3:6]) <= set(thrown["hands"][3])


def test_deal_passes_to_next_seat_also_after_thrown_in_deal():
    def has_thrown_in(deals):
        return any(d["thrown_in"] for d in deals[:-1])

    _, match = _find_match(CLASSIC, has_thrown_in)
    dealers = [d["dealer"] for d in match["deals"]]
    assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]


# --------------------------------------------------------------------------------------
# Replay: deal-log validation and error messages
# --------------------------------------------------------------------------------------


def test_replay_illegal_card_error_names_deal_play_seat_card_and_rule():
    deal = deal_b()
    # Trick 1: seat 0 leads QH; seat 1 holds JH 9H AH KH and must overtrump.
    assert deal["plays"][:2] == ["QH", "JH"]
    deal["plays"][1] = "AC"
    with pytest.raises(IllegalPlayError) as exc:
        replay(deal, number=3)
    msg = str(exc.value)
    assert re.search(r"\bdeal 3\b", msg) and re.search(r"\bplay 2\b", msg)
    assert "AC" in msg and "seat 1" in msg
    assert "higher trump" in msg
    for card in ("9H", "JH", "KH", "AH"):
        assert card in msg


def test_replay_follow_suit_error_names_rule():
    deal = deal_a()
    # Trick 1: JH led; seat 1 holds TH as its only trump and must play it.
    assert deal["plays"][:2] == ["JH", "TH"]
    deal["plays"][1] = "7C"
    with pytest.raises(IllegalPlayError) as exc:
        replay(deal, number=1)
    msg = str(exc.value)
    assert "deal 1" in msg and "play 2" in msg and "7C" in msg and "seat 1" in msg
    assert "TH" in msg and "suit led" in msg


def test_replay_must_trump_error_names_rule():
    # Find in deal E the first play of a seat void in the suit led whose choice was
    # restricted (a trump had to be played), and play a card outside the legal set.
    deal = make_deal(HANDS_E, "AH", 2, ["pass", "take"], 0)
    out = replay(deal)
    hands = [set(h) for h in out["hands"]]
    for n, (trick_no, k) in enumerate((t, k) for t in range(8) for k in range(4)):
        trick = out["tricks"][trick_no]
        seat = (trick["leader"] + k) % 4
        led = trick["cards"][0][-1]
        legal_now = set(trick["legal"][k])
        held = hands[seat]
        if k and not any(c[-1] == led for c in held) and legal_now != held:
            bad = sorted(held - legal_now, key=parse_card)[0]
            broken = dict(deal, plays=list(deal["plays"]))
            broken["plays"][n] = bad
            with pytest.raises(IllegalPlayError) as exc:
                replay(broken, number=2)
            msg = str(exc.value)
            assert f"deal 2, play {n + 1}: {bad} by seat {seat} is illegal" in msg
            assert "trump" in msg
            return
        hands[seat].discard(trick["cards"][k])
    pytest.fail("no constrained void play in the deal")


def test_replay_card_not_in_hand_is_an_error():
    deal = deal_a()
    deal["plays"][0] = "QH"  # seat 3's card, led by seat 0
    with pytest.raises(IllegalPlayError) as exc:
        replay(deal, number=5)
    msg = str(exc.value)
    assert "deal 5" in msg and "play 1" in msg and "QH" in msg and "seat 0" in msg


@pytest.mark.parametrize(
    "calls", [[], ["pass"] * 3, ["pass"] * 7, ["take", "pass"], ["pass"] * 8 + ["pass"],
              ["pass"] * 5 + ["S", "pass"]],
)
def test_too_few_or_too_many_calls_is_an_error(calls):
    deal = deal_a()
    deal["calls"] = calls  # the plays are those of the legal deal: only the calls are wrong
    with pytest.raises((IllegalPlayError, DealLogError)) as exc:
        replay(deal, number=7)
    assert "deal 7" in str(exc.value)


def test_too_few_plays_is_an_error():
    deal = deal_a()
    deal["plays"] = deal["plays"][:-1]
    with pytest.raises((IllegalPlayError, DealLogError)) as exc:
        replay(deal, number=2)
    assert "deal 2" in str(exc.value)
    deal["plays"] = []
    with pytest.raises((IllegalPlayError, DealLogError)):
        replay(deal)


def test_too_many_plays_is_an_error():
    deal = deal_a()
    deal["plays"] = deal["plays"] + ["7C"]
    with pytest.raises((IllegalPlayError, DealLogError)) as exc:
        replay(deal, number=2)
    assert "deal 2" in str(exc.value)
    thrown = {"rules": "classic", "dealer": 3, "pack": PACK_EXAMPLE,
              "calls": ["pass"] * 8, "plays": ["7C"]}
    with pytest.raises((IllegalPlayError, DealLogError)):
        replay(thrown)


def test_malformed_deal_log_is_deal_log_error():
    good = deal_a()
    for broken in (
        {k: v for k, v in good.items() if k != "pack"},
        {k: v for k, v in good.items() if k != "dealer"},
        dict(good, pack=good["pack"][:31]),
        dict(good, pack=good["pack"][:31] + [good["pack"][0]]),
        dict(good, pack=good["pack"][:31] + ["ZZ"]),
        dict(good, dealer=4),
        dict(good, calls=["grab"]),
        dict(good, plays=["JH", "1H"]),
        dict(good, rules="klaverjas"),
        dict(good, rules={"preset": "classic", "options": {"players": 2}}),
        dict(good, rules="litige", pot_before=-5),
    ):
        with pytest.raises(DealLogError) as exc:
            replay(broken, number=9)
        assert "deal 9" in str(exc.value)
    assert issubclass(DealLogError, BeloteError)


# --------------------------------------------------------------------------------------
# Section 8: the match
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("match_end", ["draw", "higher"])
def test_match_won_by_side_reaching_target_and_both_reaching_it_per_match_end(match_end):
    rules = Rules.from_preset("classic", target=200, match_end=match_end)
    both_over = 0
    for seed in range(120):
        match = play_match(rules, seed=seed)
        totals = [0, 0]
        for deal in match["deals"][:-1]:
            if not deal["thrown_in"]:
                totals = [t + s for t, s in zip(totals, deal["deal_score"], strict=True)]
            assert max(totals) < 200  # the match ends at the first deal reaching the target
        s0, s1 = match["scores"]
        if s0 >= 200 and s1 >= 200:
            both_over += 1
            if match_end == "draw" or s0 == s1:
                assert match["winner"] == "draw"
            else:
                assert match["winner"] == (0 if s0 > s1 else 1)
        else:
            assert match["winner"] == (0 if s0 >= 200 else 1)
    assert both_over  # the searched seeds hold matches where both sides reach the target
