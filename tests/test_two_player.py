"""The two-player presets: ``stock-2p`` (RULES.md 7.2, seed 002) and ``no-contract-2p``
(RULES.md 7.3, seed 003), their scoring (section 8) and their matches.

Hand-built deals are deal-log dicts replayed with :func:`belote_sim.deallog.replay`: packs are
laid out by :func:`~hand_built.two_player_pack`, and :func:`~hand_built.play_out`
completes the plays with legal cards, asking the replay kernel itself which cards are
legal at each step. The plain-Python reference of both games
(:func:`~reference.two_player.naive_two_player_replay`, ``tests/reference/two_player.py``,
written from RULES.md with sets) is checked against simulated deals and matches.
"""

from __future__ import annotations

import pytest
from hand_built import (
    PACK_BY_INDEX,
    deal_of,
    inputs_of,
    kernel,
    normalize_deal,
    play_out,
    strs,
    two_player_pack,
)
from reference.rules_ref import TRUMP_NAMES, card_value, naive_legal_cards
from reference.two_player import naive_two_player_replay

from belote_sim import Rules, replay, simulate
from belote_sim.cards import SUITS, format_card, parse_card
from belote_sim.errors import IllegalPlayError
from belote_sim.kernels import layout as L
from belote_sim.studies.simulate import play_match, simulated_deals

STOCK = "stock-2p"
NC2 = "no-contract-2p"
ALL = PACK_BY_INDEX

# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def played(deal: dict, rules: str, dealer: int, pack, calls, prefs=None, **extra) -> dict:
    """Replay of a hand-built deal whose plays :func:`play_out` completes."""
    return replay(play_out(deal_of(rules, dealer, pack, calls, **extra), prefs))


def hand_sets(deal: dict) -> list[set[str]]:
    return [set(h) for h in deal["hands"]]


def plays_of(deal: dict) -> list[str]:
    return [c for t in deal["tricks"] for c in t["cards"]]


def remaining(deal: dict, seat: int, t: int) -> set[str]:
    """What ``seat`` holds at the start of trick ``t`` once no card is drawn any more:
    every card it plays from then on."""
    return {c for tr in deal["tricks"][t:] for k, c in enumerate(tr["cards"])
            if (tr["leader"] + k) % 2 == seat}


# ======================================================================================
# stock-2p (RULES 7.2)
# ======================================================================================

# The index-order pack, dealer 0: seat 1 (the non-dealer) gets 7C 8C 9C + KC AC 7D,
# seat 0 TC JC QC + 8D 9D TD; JD is turned; QD KD AD 7H 8H follow; the stock is 9H .. AS.
DEALT_0 = {1: "7C 8C 9C KC AC 7D", 0: "TC JC QC 8D 9D TD"}


@pytest.mark.parametrize("dealer", [0, 1])
def test_stock_deals_six_each_three_by_three_non_dealer_first_then_turns_next_card(dealer):
    d = deal_of(STOCK, dealer, ALL, ["pass"] * 4)
    out = replay(d)
    assert out["thrown_in"] is True
    first, second = set(strs("7C 8C 9C KC AC 7D")), set(strs("TC JC QC 8D 9D TD"))
    assert hand_sets(out)[1 - dealer] == first
    assert hand_sets(out)[dealer] == second
    rec, _ = kernel(d)
    assert format_card(rec[L.RETOURNE]) == "JD"


@pytest.mark.parametrize(
    "calls, taker, trump, more_taker, more_other",
    [
        (["take"], 1, "D", "JD QD KD", "AD 7H 8H"),  # non-dealer, round 1
        (["pass", "take"], 0, "D", "JD 7H 8H", "QD KD AD"),  # dealer, round 1
        (["pass", "pass", "H"], 1, "H", "JD QD KD", "AD 7H 8H"),  # non-dealer, round 2
        (["pass", "pass", "pass", "S"], 0, "S", "JD 7H 8H", "QD KD AD"),  # dealer, round 2
    ],
)
def test_stock_taker_picks_up_turned_card_then_two_more_and_other_three(
    calls, taker, trump, more_taker, more_other
):
    out = replay(play_out(deal_of(STOCK, 0, ALL, calls)))
    assert (out["taker"], out["trump"]) == (taker, trump)
    hands = hand_sets(out)
    assert hands[taker] == set(strs(DEALT_0[taker])) | set(strs(more_taker))
    assert hands[1 - taker] == set(strs(DEALT_0[1 - taker])) | set(strs(more_other))
    assert [len(h) for h in hands] == [9, 9]
    # 14 cards stay in the stock, and all 32 cards are played in 16 tricks
    assert not (hands[0] | hands[1]) & set(ALL[18:])
    assert len(out["tricks"]) == 16
    assert sorted(plays_of(out), key=parse_card) == ALL


def test_stock_bidding_non_dealer_first_and_round_2_names_another_suit():
    assert replay(play_out(deal_of(STOCK, 1, ALL, ["take"])))["taker"] == 0
    assert replay(play_out(deal_of(STOCK, 1, ALL, ["pass", "take"])))["taker"] == 1
    with pytest.raises(IllegalPlayError, match=r"call 3: 'D' by seat 1 .*retourne's suit"):
        replay(deal_of(STOCK, 0, ALL, ["pass", "pass", "D"]))
    with pytest.raises(IllegalPlayError, match=r"call 2: 'H' by seat 0 .*round 1"):
        replay(deal_of(STOCK, 0, ALL, ["pass", "H"]))


@pytest.mark.parametrize("redeals", [0, 1])
def test_stock_all_pass_twice_throws_the_deal_in(redeals):
    d = deal_of(STOCK, 0, ALL, ["pass"] * 4, redeals_before=redeals)
    out = replay(d)
    assert out["thrown_in"] is True and set(out) == set(d) | {"thrown_in", "hands"}
    with pytest.raises(IllegalPlayError, match="comes after the deal is over"):
        replay(dict(d, plays=["7C"]))
    with pytest.raises(IllegalPlayError, match="comes after the bidding is over"):
        replay(dict(d, calls=["pass"] * 5))


@pytest.mark.parametrize("dealer", [0, 1])
def test_stock_dealer_may_not_pass_in_round_2_after_two_redeals(dealer):
    d = deal_of(STOCK, dealer, ALL, ["pass"] * 4, redeals_before=2)
    with pytest.raises(IllegalPlayError) as exc:
        replay(d)
    msg = str(exc.value)
    assert f"deal 1, call 4: 'pass' by seat {dealer} is illegal" in msg
    assert "after two redeals in a row the dealer may not pass in round 2" in msg
    assert "RULES 7.2" in msg
    # the non-dealer still may pass in round 2, and the dealer may name a suit
    out = replay(play_out(dict(d, calls=["pass", "pass", "pass", "S"])))
    assert (out["taker"], out["trump"], out["redeals_before"]) == (dealer, "S", 2)
    # in round 1 the dealer may still pass
    assert replay(play_out(dict(d, calls=["pass", "pass", "H"])))["taker"] == 1 - dealer


def test_stock_non_dealer_leads_the_first_trick():
    for dealer in (0, 1):
        out = replay(play_out(deal_of(STOCK, dealer, ALL, ["take"])))
        assert out["tricks"][0]["leader"] == 1 - dealer
        for prev, nxt in zip(out["tricks"], out["tricks"][1:], strict=False):
            assert nxt["leader"] == prev["winner"]


def test_stock_winner_draws_top_stock_card_then_loser_the_next():
    # seat 1 leads 7C, seat 0 wins it with TC: seat 0 draws 9H (pack[18]), seat 1 TH
    d = deal_of(STOCK, 0, ALL, ["take"])
    out = replay(play_out(d, {1: ["7C", "TH", "JH"], 0: ["TC", "9H", "QH"]}))
    assert [t["cards"] for t in out["tricks"][:3]] == [["7C", "TC"], ["9H", "TH"], ["JH", "QH"]]
    assert [t["winner"] for t in out["tricks"][:3]] == [0, 1, 0]
    with pytest.raises(IllegalPlayError, match="seat 0 does not hold TH"):
        replay(dict(d, plays=["7C", "TC", "TH"]))
    with pytest.raises(IllegalPlayError, match="seat 1 does not hold 9H"):
        replay(dict(d, plays=["7C", "TC", "8H", "9H"]))


def test_stock_first_seven_tricks_free_then_section_6_in_full():
    d = deal_of(STOCK, 0, ALL, ["take"])
    # trick 1: seat 0 discards 7H on the 7C lead although it holds clubs
    out = replay(play_out(d, {1: ["7C"], 0: ["7H"]}))
    assert out["tricks"][0]["cards"] == ["7C", "7H"]
    rules = Rules.from_preset(STOCK)
    trump = SUITS.index(out["trump"])
    found = None
    for t, tr in enumerate(out["tricks"]):
        second = (tr["leader"] + 1) % 2
        if t < 7:
            assert [len(x) for x in tr["legal"]] == [9, 9]  # free: the whole hand
            continue
        hand = remaining(out, second, t)
        want = naive_legal_cards(
            rules, {parse_card(c) for c in hand}, [parse_card(tr["cards"][0])], tr["leader"],
            trump, out["taker"],
        )
        assert set(tr["legal"][1]) == {format_card(c) for c in want}
        if found is None and set(tr["legal"][1]) != hand:
            found = (t, sorted(hand - set(tr["legal"][1]))[0])
    assert found, "no trick 8-16 restricted the second player"
    t, bad = found
    plays = plays_of(out)[: 2 * t + 1] + [bad]
    with pytest.raises(IllegalPlayError, match=rf"play {2 * t + 2}: {bad} by seat"):
        replay(dict(d, plays=plays))


def test_stock_must_trump_in_tricks_8_to_16():
    rules = Rules.from_preset(STOCK)
    assert rules.must_trump
    seen = 0
    for deal in simulated_deals(rules, 300, seed=5):
        if deal["thrown_in"]:
            continue
        trump = deal["trump"]
        for t, tr in enumerate(deal["tricks"][7:], start=7):
            second = (tr["leader"] + 1) % 2
            hand = remaining(deal, second, t)
            led = tr["cards"][0][-1]
            if led != trump and not any(c[-1] == led for c in hand) and any(
                c[-1] == trump for c in hand
            ):
                assert all(c[-1] == trump for c in tr["legal"][1])
                seen += 1
    assert seen > 20


# Belote: seat 1 takes diamonds holding KD; QD is the top card of the stock.
BELOTE_PACK = two_player_pack(
    0, {1: "KD 7C 8C 9C TC JC", 0: "7S 8S 9S TS JS QS"}, "JD",
    {1: "7H 8H", 0: "9H TH JH"}, stock=["QD"],
)


@pytest.mark.parametrize(
    "prefs, belote",
    [
        ({1: ["KD"], 0: ["7S"]}, [0, 0]),  # KD played, then QD drawn: no belote
        ({1: ["7C", "KD"], 0: ["7S"]}, [0, 20]),  # QD drawn, then KD played holding it
    ],
)
def test_stock_belote_scores_when_first_of_k_q_is_played_holding_the_other(prefs, belote):
    out = played({}, STOCK, 0, BELOTE_PACK, ["take"], prefs)
    assert out["tricks"][0]["winner"] == 1  # seat 1 draws QD after trick 1
    assert "QD" not in out["hands"][1]  # not held at the first trick
    assert out["belote"] == belote


def test_stock_belote_held_from_the_start_scores_for_either_side_and_respects_option():
    # index pack: the taker (seat 1) holds QD KD; with the dealer taking, seat 1 defends
    assert played({}, STOCK, 0, ALL, ["take"])["belote"] == [0, 20]
    out = played({}, STOCK, 0, ALL, ["pass", "take"])
    assert out["taker"] == 0 and out["belote"] == [0, 20]
    no_belote = {"preset": STOCK, "options": {"belote": False}}
    assert played({}, no_belote, 0, ALL, ["take"])["belote"] == [0, 0]


def _stock_deals(n=3000, seed=1):
    return [d for d in simulated_deals(Rules.from_preset(STOCK), n, seed=seed)
            if not d["thrown_in"]]


def _s(deal):
    C, B = deal["card_points"], deal["belote"]
    return [C[s] + B[s] + deal["declarations"]["points"][s] for s in (0, 1)]


def test_stock_strict_success_exact_tie_split_and_dedans():
    deals = _stock_deals()
    by = {o: next(d for d in deals if d["outcome"] == o) for o in ("made", "tie", "dedans")}
    for outcome, deal in by.items():
        assert replay(inputs_of(deal)) == deal
        T = deal["taker"]
        E = 1 - T
        S = _s(deal)
        if outcome == "made":
            assert S[T] > S[E] and deal["deal_score"] == S
        elif outcome == "tie":
            assert S[T] == S[E] and deal["deal_score"] == S  # each keeps its own
        else:
            assert S[T] < S[E]
            assert deal["deal_score"][E] == 162 + deal["belote"][E]
            assert deal["deal_score"][T] == deal["belote"][T]
    # the tie only splits under tie_rule = split: takers would make it, litige pots it
    tie = inputs_of(by["tie"])
    takers = replay(dict(tie, rules={"preset": STOCK, "options": {"tie_rule": "takers"}}))
    assert takers["outcome"] == "made"
    litige = replay(dict(tie, rules={"preset": STOCK, "options": {"tie_rule": "litige"}}))
    assert litige["outcome"] == "litige" and litige["pot"] > 0


# Capot: seat 1 ends up with all eight hearts and A T K Q of spades and clubs, seat 0
# with everything else; seat 1 leads every trick and wins it, whatever either plays.
_CAPOT_STOCK = ["TS", "9S", "KS", "8S", "QS", "7S", "AC", "JC", "TC", "9C", "KC", "8C",
                "QC", "7C"]  # fmt: skip


@pytest.mark.parametrize(
    "turned, calls, more, taker, outcome",
    [
        ("8H", ["take"], {1: "7H AS", 0: "7D AD JS"}, 1, "made"),
        ("7D", ["pass", "pass", "pass", "H"], {1: "8H 7H AS", 0: "AD JS"}, 0, "dedans"),
    ],
)
def test_stock_capot_is_252(turned, calls, more, taker, outcome):
    pack = two_player_pack(
        0, {1: "JH 9H AH TH KH QH", 0: "8D 9D TD JD QD KD"}, turned, more, _CAPOT_STOCK
    )
    out = played({}, STOCK, 0, pack, calls)
    assert out["taker"] == taker and out["trump"] == "H"
    assert all(t["winner"] == 1 for t in out["tricks"])
    assert out["capot"] == [1]
    assert out["card_points"] == [0, 252]
    assert out["belote"] == [0, 20]
    assert out["outcome"] == outcome
    assert out["deal_score"] == [0, 272]  # 162 + 90 + belote, made or dedans


# ======================================================================================
# no-contract-2p (RULES 7.3)
# ======================================================================================


def test_no_contract_deals_nine_each_nobody_picks_up_and_bottom_card_is_shown():
    d = play_out(deal_of(NC2, 0, ALL, ["pass", "pass", "S"]))
    out = replay(d)
    assert (out["taker"], out["trump"]) == (1, "S")
    hands = hand_sets(out)
    assert hands[1] == set(strs("7C 8C 9C KC AC 7D QD KD AD"))  # 3 + 3, 3 more, hand first
    assert hands[0] == set(strs("TC JC QC 8D 9D TD 7H 8H 9H"))
    assert "JD" not in hands[0] | hands[1]  # nobody picks up the turned card
    assert len(out["tricks"]) == 9 and out["tricks"][0]["leader"] == 1
    assert set(plays_of(out)) == hands[0] | hands[1]  # 14 cards out of play
    rec, _ = kernel(d)
    assert format_card(rec[L.SHOWN_CARD]) == "AS"  # the bottom card (pack[31])
    assert format_card(rec[L.RETOURNE]) == "JD"
    assert rec[L.EXCHANGE_SEAT] == -1


def test_no_contract_bidding_hand_then_dealer_and_thrown_in():
    assert replay(play_out(deal_of(NC2, 0, ALL, ["take"])))["taker"] == 1
    assert replay(play_out(deal_of(NC2, 0, ALL, ["pass", "take"])))["taker"] == 0
    assert replay(play_out(deal_of(NC2, 0, ALL, ["pass", "pass", "pass", "C"])))["taker"] == 0
    out = replay(deal_of(NC2, 0, ALL, ["pass"] * 4))
    assert out["thrown_in"] is True and [len(h) for h in out["hands"]] == [6, 6]
    with pytest.raises(IllegalPlayError, match="comes after the deal is over"):
        replay(deal_of(NC2, 0, ALL, ["pass"] * 4, ["7C"]))
    # The preset's second_round=any lets round 2 name the turned card's suit; others not.
    assert replay(play_out(deal_of(NC2, 0, ALL, ["pass", "pass", "D"])))["trump"] == "D"
    others = {"preset": NC2, "options": {"second_round": "others"}}
    with pytest.raises(IllegalPlayError, match="retourne's suit"):
        replay(deal_of(others, 0, ALL, ["pass", "pass", "D"]))


@pytest.mark.parametrize("calls", [["take"], ["pass", "take"]])
def test_no_contract_holder_of_seven_of_trumps_exchanges_it_for_turned_card(calls):
    # index pack: JD turned, seat 1 (the hand) holds 7D; whoever took, seat 1 exchanges
    d = play_out(deal_of(NC2, 0, ALL, calls))
    out = replay(d)
    assert out["trump"] == "D"
    assert hand_sets(out)[1] == set(strs("7C 8C 9C KC AC JD QD KD AD"))
    assert "7D" not in plays_of(out)
    rec, _ = kernel(d)
    assert rec[L.EXCHANGE_SEAT] == 1


def test_no_contract_dealer_holding_the_seven_exchanges_it():
    pack = two_player_pack(
        0, {1: "7C 8C 9C TC JC QC", 0: "7D 8H 9S KC AC 7H"}, "JD",
        {1: "QD KD AD", 0: "8S TS JS"},
    )
    d = play_out(deal_of(NC2, 0, pack, ["take"]))
    out = replay(d)
    assert hand_sets(out)[0] == set(strs("JD 8H 9S KC AC 7H 8S TS JS"))
    assert kernel(d)[0][L.EXCHANGE_SEAT] == 0


_NO_SEVEN = {1: "7C 8C 9C KC AC 8D", 0: "TC JC QC 9D TD QD"}


@pytest.mark.parametrize(
    "pack, calls",
    [
        # the seven of trumps is the turned card itself
        (two_player_pack(0, {1: "7C 8C 9C KC AC 8D", 0: "TC JC QC 9D TD JD"}, "7D",
                         {1: "QD KD AD", 0: "7H 8H 9H"}), ["take"]),
        # the seven of trumps is out of play, in the undealt pack (pack[19])
        (two_player_pack(0, _NO_SEVEN, "JD", {1: "KD AD 7H", 0: "8H 9H TH"}), ["take"]),
        # the seven of trumps is the shown bottom card
        (two_player_pack(0, _NO_SEVEN, "JD", {1: "KD AD 7H", 0: "8H 9H TH"}, bottom="7D"),
         ["take"]),
        # another suit named in round 2: the turned card's suit is not trump
        (ALL, ["pass", "pass", "C"]),
    ],
    ids=["seven-turned", "seven-in-pack", "seven-shown", "round-2"],
)
def test_no_contract_no_exchange_cases(pack, calls):
    d = play_out(deal_of(NC2, 0, pack, calls))
    out = replay(d)
    rec, _ = kernel(d)
    assert rec[L.EXCHANGE_SEAT] == -1
    turned = pack[12]
    assert turned not in hand_sets(out)[0] | hand_sets(out)[1]
    dealt = [set(pack[3:6] + pack[9:12] + pack[16:19]), set(pack[0:3] + pack[6:9] + pack[13:16])]
    assert hand_sets(out) == dealt  # 3 + 3, 3 more each, the hand first
    assert format_card(rec[L.SHOWN_CARD]) == pack[31]


def test_no_contract_king_is_worth_10():
    d = play_out(deal_of(NC2, 0, ALL, ["pass", "pass", "S"]))
    out = replay(d)
    trump = 3
    kings = [c for c in plays_of(out) if c[0] == "K"]
    assert kings  # KC, KD are in play
    table = {"A": 11, "T": 10, "K": 10, "Q": 3, "J": 2}
    trump_table = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 10, "Q": 3}
    total = sum(
        (trump_table if parse_card(c) // 8 == trump else table).get(c[0], 0)
        for c in plays_of(out)
    )
    bonus = 100 if out["capot"] else 10
    assert sum(out["card_points"]) == total + bonus
    k4 = replay(dict(d, rules={"preset": NC2, "options": {"king_value": 4}}))
    assert sum(out["card_points"]) - sum(k4["card_points"]) == 6 * len(kings)


# Seat 1 (the hand) holds all eight spades; hearts are trump, 7H out of play.
RUN8_PACK = two_player_pack(
    0, {1: "7S 8S 9S TS JS QS", 0: "7D 9D JD KD 8C TC"}, "8H",
    {1: "KS AS 7C", 0: "QC 9H JH"},
)


@pytest.mark.parametrize("split, points", [(True, 120), (False, 100)])
def test_no_contract_split_long_runs_eight_card_run_is_quinte_plus_tierce(split, points):
    rules = {"preset": NC2, "options": {} if split else {"split_long_runs": False}}
    out = played({}, rules, 0, RUN8_PACK, ["take"])
    assert out["declarations"]["held"] == [
        [], [{"kind": "quinte", "top": "AS", "length": 8, "points": points}]
    ]
    assert out["declarations"]["winner_seat"] == 1
    assert out["declarations"]["points"] == [0, points]
    assert out["deal_score"][1] == out["card_points"][1] + points + out["belote"][1]


# Seat 1 (the hand) holds 7C 8C 9C, seat 0 7D 8D 9D; no other declaration.
TIERCES_PACK = two_player_pack(
    0, {1: "7C 8C 9C JH KS AH", 0: "7D 8D 9D JC KH AS"}, "8S",
    {1: "TD QH 9S", 0: "QC TS 7H"},
)


@pytest.mark.parametrize(
    "trump, tie, winner, points",
    [
        ("H", "first", 1, [0, 20]),  # equal tierces: the hand (first in turn order) wins
        ("H", "none", None, [0, 0]),  # seed 000's rule: nobody scores
        ("D", "first", 0, [20, 0]),  # the tierce in trump wins before turn order
    ],
)
def test_no_contract_declaration_tie_first(trump, tie, winner, points):
    rules = {"preset": NC2, "options": {} if tie == "first" else {"declaration_tie": "none"}}
    out = played({}, rules, 0, TIERCES_PACK, ["pass", "pass", trump])
    assert [len(h) for h in out["declarations"]["held"]] == [1, 1]
    assert out["declarations"]["winner_seat"] == winner
    assert out["declarations"]["points"] == points


# Seat 1 holds the eight hearts and AS; seat 0 holds no heart: seat 1 takes every trick.
CAPOT_NC_PACK = two_player_pack(
    0, {1: "JH 9H AH TH KH QH", 0: "7C 9C JC KC 7D 9D"}, "8S",
    {1: "8H 7H AS", 0: "JD KD 7S"},
)


def test_no_contract_capot_is_100_instead_of_last_trick_10():
    out = played({}, NC2, 0, CAPOT_NC_PACK, ["pass", "pass", "H"])
    assert out["capot"] == [1] and all(t["winner"] == 1 for t in out["tricks"])
    # hearts 68 (king 10) + AS 11 + seat 0's cards 24 + 100 for the capot
    assert out["card_points"] == [0, 68 + 11 + 24 + 100]
    assert out["declarations"]["points"] == [0, 120] and out["belote"] == [0, 20]
    assert out["deal_score"] == [0, 203 + 120 + 20]
    assert out["outcome"] == "made"


def test_no_contract_dedans_transfers_nothing():
    # seat 0 (the dealer) names hearts holding none; seat 1 leads 7C into seat 0's AC
    pack = two_player_pack(
        0, {1: "JH 9H AH TH KH QH", 0: "AC 9C JC 7D 9D JD"}, "TS",
        {1: "8H AS 7C", 0: "KD 7S 8S"},
    )
    out = played({}, NC2, 0, pack, ["pass", "pass", "pass", "H"], {1: ["7C"], 0: ["AC"]})
    assert out["taker"] == 0 and out["tricks"][0]["winner"] == 0
    assert out["outcome"] == "dedans"
    own = [out["card_points"][s] + out["declarations"]["points"][s] + out["belote"][s]
           for s in (0, 1)]
    assert out["deal_score"] == own
    assert 0 < out["deal_score"][0] < out["deal_score"][1]


# Overtrumping and the void player (must_trump off): hearts named by the hand.
OVERTRUMP_PACK = two_player_pack(
    0, {1: "8H QH 7C 9C JC KC", 0: "JH 7H TS QS AS 8C"}, "8S",
    {1: "7D 9D JD", 0: "TC QC 9S"},
)


def test_no_contract_trump_lead_must_be_overtrumped():
    d = deal_of(NC2, 0, OVERTRUMP_PACK, ["pass", "pass", "H"], ["8H", "7H"])
    with pytest.raises(IllegalPlayError, match=r"7H by seat 0 is illegal: a higher trump "
                                               r"must be played \(JH\)"):
        replay(d)
    out = replay(play_out(dict(d, plays=["8H", "JH"])))
    assert out["tricks"][0]["legal"][1] == ["JH"]


def test_no_contract_void_player_need_not_trump():
    d = deal_of(NC2, 0, OVERTRUMP_PACK, ["pass", "pass", "H"], ["7D", "8C"])
    out = replay(play_out(d))
    assert len(out["tricks"][0]["legal"][1]) == 9  # void in diamonds: any card
    forced = dict(d, rules={"preset": NC2, "options": {"must_trump": True}})
    with pytest.raises(IllegalPlayError, match="void in the suit led: a trump must be played"):
        replay(forced)


# ======================================================================================
# Matches (RULES 8, Match)
# ======================================================================================


def test_stock_match_is_two_played_deals_with_same_dealer_redealing():
    rules = Rules.from_preset(STOCK)
    seen_redeal2 = 0
    for m in range(150):
        match = play_match(rules, seed=7, match=m)
        dealer, redeals, n_played = m % 2, 0, 0
        totals = [0, 0]
        for deal in match["deals"]:
            assert deal["dealer"] == dealer
            assert deal.get("redeals_before", 0) == redeals
            assert replay(inputs_of(deal)) == deal
            if redeals == 2:
                seen_redeal2 += 1
                assert not deal["thrown_in"]
                if len(deal["calls"]) == 4:  # the dealer spoke in round 2
                    assert deal["calls"][3] != "pass"
            if deal["thrown_in"]:
                redeals += 1
            else:
                redeals, n_played, dealer = 0, n_played + 1, 1 - dealer
                totals = [a + b for a, b in zip(totals, deal["deal_score"], strict=True)]
        assert n_played == 2 and not match["deals"][-1]["thrown_in"]
        assert match["scores"] == totals
        want = "draw" if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        assert match["winner"] == want
    assert seen_redeal2 > 0


def test_stock_match_ignores_the_target():
    rules = Rules.from_preset(STOCK, target=50)
    for m in range(20):
        match = play_match(rules, seed=3, match=m)
        assert sum(not d["thrown_in"] for d in match["deals"]) == 2


def test_no_contract_match_higher_deal_score_deals_next_and_match_end_higher():
    rules = Rules.from_preset(NC2, target=300)
    assert rules.match_end == "higher"
    both_over = 0
    for m in range(120):
        match = play_match(rules, seed=11, match=m)
        dealer = m % 2
        totals = [0, 0]
        for i, deal in enumerate(match["deals"]):
            assert deal["dealer"] == dealer
            assert "redeals_before" not in deal
            if deal["thrown_in"]:
                dealer = 1 - dealer  # the hand deals next
                continue
            s0, s1 = deal["deal_score"]
            dealer = (0 if s0 > s1 else 1) if s0 != s1 else 1 - dealer
            totals = [totals[0] + s0, totals[1] + s1]
            if i < len(match["deals"]) - 1:
                assert max(totals) < 300
        assert match["scores"] == totals
        s0, s1 = totals
        if s0 >= 300 and s1 >= 300:
            both_over += 1
            assert match["winner"] == ("draw" if s0 == s1 else (0 if s0 > s1 else 1))
        else:
            assert match["winner"] == (0 if s0 >= 300 else 1)
    assert both_over > 0


@pytest.mark.parametrize("preset", [STOCK, NC2])
def test_simulate_matches_reports_match_win_rate(preset):
    run = simulate(Rules.from_preset(preset), matches=200, seed=1)
    table = run.table()
    rates = table[table.metric == "match_win_rate"]
    assert set(rates.group) == {"side=0", "side=1"}
    assert all(rates.n == 200)
    assert run.counters["matches"] == 200


# ======================================================================================
# Properties over simulated deals and matches
# ======================================================================================


def _check(deal: dict, rules: Rules) -> None:
    # replay of the input fields reproduces the deal exactly, and so does the reference
    assert replay(inputs_of(deal)) == deal
    assert normalize_deal(naive_two_player_replay(inputs_of(deal))) == normalize_deal(deal)
    if deal["thrown_in"]:
        assert [len(h) for h in deal["hands"]] == [6, 6]
        return
    for t in deal["tricks"]:
        for card, legal in zip(t["cards"], t["legal"], strict=True):
            assert card in legal
    trump = TRUMP_NAMES.index(deal["trump"])
    capot = deal["capot"] is not None
    if rules.contract == "stock":
        assert len(deal["tricks"]) == 16
        assert sum(deal["card_points"]) == (252 if capot else 162)
    else:
        assert len(deal["tricks"]) == 9
        cards = [parse_card(c) for c in plays_of(deal)]
        assert len(set(cards)) == 18
        want = sum(card_value(c, trump, rules) for c in cards) + (100 if capot else 10)
        assert sum(deal["card_points"]) == want


@pytest.mark.parametrize("preset", [STOCK, NC2])
@pytest.mark.parametrize("seed", [1, 2])
def test_simulated_deals_replay_and_reference(preset, seed):
    rules = Rules.from_preset(preset)
    deals = simulated_deals(rules, 400, seed=seed)
    for deal in deals:
        assert "redeals_before" not in deal  # independent deals never follow a redeal
        _check(deal, rules)
    outcomes = {d.get("outcome") for d in deals}
    assert {None, "made", "dedans"} <= outcomes  # thrown in, made and dedans all seen
    if preset == NC2:
        assert any(d["capot"] for d in deals if not d["thrown_in"])


@pytest.mark.parametrize(
    "preset, options",
    [(STOCK, {}), (STOCK, {"declarations": True}), (NC2, {}),
     (NC2, {"must_trump": True, "king_value": 4})],
)
def test_simulated_deals_with_options_match_reference(preset, options):
    rules = Rules.from_preset(preset, **options)
    for deal in simulated_deals(rules, 200, seed=4, bid_policy="threshold"):
        _check(deal, rules)


@pytest.mark.parametrize("preset", [STOCK, NC2])
def test_match_deals_replay_and_reference(preset):
    rules = Rules.from_preset(preset)
    redeals = 0
    for m in range(25):
        for deal in play_match(rules, seed=2, match=m)["deals"]:
            redeals = max(redeals, deal.get("redeals_before", 0))
            _check(deal, rules)
    if preset == STOCK:
        assert redeals >= 1
