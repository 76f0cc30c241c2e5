"""Option ``second_round`` (RULES.md 7.1 step 3, 7.3 and 9): round 2 names one of the
three suits other than the turned card's (``others``, seeds 000 and 002) or any suit,
the turned card's included (``any``, seeds 003 and 004).

Hand-built deals for every game family that bids in two rounds (the retourne games with
four and three players, the stock game, both no-contract games), replayed under both
values; the three bidders' round-2 choices; the presets and the command line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hand_built import PACK_BY_INDEX, deal_of, kernel, play_out, strs

from belote_sim import Rules, replay, simulate
from belote_sim.bid.dd_bidder import BidView, dd_call
from belote_sim.bid.retourne import choose_call, forced_call
from belote_sim.cards import parse_card
from belote_sim.dd.kit import TABLE_BITS, new_solver_kit
from belote_sim.errors import IllegalPlayError
from belote_sim.kernels import layout as L
from belote_sim.kernels.rng import seed_stream
from belote_sim.players.registry import BID_RANDOM, BID_THRESHOLD
from belote_sim.studies.simulate import simulated_deals

#: A pack in index order: the turned card is JH with four players (pack[20]), AD with
#: three (pack[15]) and JD with two (pack[12]).
ALL = PACK_BY_INDEX

#: preset -> (players, position of the turned card, the turned card)
FAMILIES = {
    "classic": (4, 20, "JH"),
    "tout-atout": (4, 20, "JH"),
    "three-player": (3, 15, "AD"),
    "stock-2p": (2, 12, "JD"),
    "no-contract-2p": (2, 12, "JD"),
    "no-contract-4p": (4, 20, "JH"),
}


def _round_two_turned_suit(preset: str, second_round: str, dealer: int = 0) -> dict:
    """A deal of ``preset`` whose second seat of round 2 names the turned card's suit."""
    n, _, turned = FAMILIES[preset]
    calls = ["pass"] * (n + 1) + [turned[1]]
    rules = {"preset": preset, "options": {"second_round": second_round}}
    return deal_of(rules, dealer, ALL, calls)


@pytest.mark.parametrize("preset", FAMILIES)
def test_second_round_others_refuses_the_turned_suit_with_todays_message(preset):
    deal = _round_two_turned_suit(preset, "others")
    n, _, turned = FAMILIES[preset]
    seat = 2 % n  # dealer 0: the second seat of round 2
    with pytest.raises(IllegalPlayError) as err:
        replay(deal)
    assert str(err.value) == (
        f"deal 1, call {n + 2}: '{turned[1]}' by seat {seat} is illegal: round 2 may not "
        f"name the retourne's suit ({turned[1]})"
    )


@pytest.mark.parametrize("preset", FAMILIES)
def test_second_round_any_accepts_the_turned_suit(preset):
    n, _, turned = FAMILIES[preset]
    out = replay(play_out(_round_two_turned_suit(preset, "any")))
    assert out["thrown_in"] is False
    assert (out["taker"], out["trump"]) == (2 % n, turned[1])
    held = set(out["hands"][out["taker"]])
    if preset == "no-contract-2p":
        # Nobody picks up the turned card; seat 1 holds 7D and exchanges it (below).
        assert turned in set(out["hands"][1]) and "7D" not in held | set(out["hands"][1])
    else:
        assert turned in held  # the taker picks up the turned card


def test_second_round_any_turned_suit_in_no_contract_2p_exchanges_the_seven():
    """RULES 7.3: trump is the turned card's suit however it was chosen, so the holder
    of the seven of trumps exchanges it for the turned card."""
    d = play_out(_round_two_turned_suit("no-contract-2p", "any"))
    rec, status = kernel(d)
    assert status == L.ST_OK
    assert int(rec[L.TAKER]) == 0 and int(rec[L.EXCHANGE_SEAT]) == 1
    out = replay(d)
    assert set(out["hands"][1]) == set(strs("7C 8C 9C KC AC JD QD KD AD"))
    assert "7D" not in [c for t in out["tricks"] for c in t["cards"]]
    # under others, a suit other than the turned card's in round 2: no exchange
    other = deal_of(
        {"preset": "no-contract-2p", "options": {"second_round": "others"}}, 0, ALL,
        ["pass", "pass", "pass", "C"],
    )
    assert int(kernel(play_out(other))[0][L.EXCHANGE_SEAT]) == -1


@pytest.mark.parametrize("second_round, allowed", [("others", "a suit other than the turned "
                                                   "card's"), ("any", "a suit")])
def test_second_round_forced_stock_dealer_message_names_what_is_allowed(second_round, allowed):
    deal = deal_of({"preset": "stock-2p", "options": {"second_round": second_round}}, 0, ALL,
                   ["pass"] * 4, redeals_before=2)
    with pytest.raises(IllegalPlayError, match=f"may not pass in round 2 .*: name {allowed}$"):
        replay(deal)


@pytest.mark.parametrize("preset", ["classic", "three-player", "no-contract-4p"])
def test_second_round_any_refuses_a_non_suit_call_with_its_own_message(preset):
    n = FAMILIES[preset][0]
    deal = deal_of({"preset": preset, "options": {"second_round": "any"}}, 0, ALL,
                   ["pass"] * n + ["take"])
    with pytest.raises(IllegalPlayError, match=r"round 2 allows a suit \(C, D, H, S; "
                                               r"second_round=any\) or 'pass'"):
        replay(deal)


# --------------------------------------------------------------------------------------
# The bidders


def _turned_suit_takes(preset: str, second_round: str, bid: str, deals: int) -> tuple[int, int]:
    """(round-2 takes naming the turned card's suit, all round-2 takes) in simulated deals."""
    rules = Rules.from_preset(preset, second_round=second_round)
    pos = FAMILIES[preset][1]
    turned_suit = total = 0
    for d in simulated_deals(rules, deals, seed=5, bid_policy=bid, play_policy="random"):
        n = rules.players
        if d["thrown_in"] or len(d["calls"]) <= n or len(d["calls"]) > 2 * n:
            continue
        total += 1
        turned_suit += d["calls"][-1] == d["pack"][pos][1]
    return turned_suit, total


@pytest.mark.parametrize("preset", FAMILIES)
def test_second_round_random_bidder_names_any_suit_uniformly(preset):
    k, n = _turned_suit_takes(preset, "any", "random", 1500)
    assert n > 150
    assert 0.15 < k / n < 0.35  # one suit of four (about 0.25)
    assert _turned_suit_takes(preset, "others", "random", 600)[0] == 0


def _hand(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


def test_second_round_threshold_bidder_values_the_turned_suit_under_any():
    hand = _hand("9H AH TH AS KS")  # with the turned JH: four hearts, jack and nine
    turned = parse_card("JH")
    rng = np.zeros(1, dtype=np.uint64)
    params = 50.0
    heart = L.CALL_SUIT + 2
    assert choose_call(BID_THRESHOLD, params, 2, hand, turned, True, rng) == heart
    assert choose_call(BID_THRESHOLD, params, 2, hand, turned, False, rng) != heart
    # the dealer forced to bid (stock game) names its best suit among those allowed
    assert forced_call(hand, turned, True) == heart
    assert forced_call(hand, turned, False) == L.CALL_SUIT + 3
    # the random bidder draws from four suits under any, three under others
    seen = {True: set(), False: set()}
    for i in range(400):
        for any_suit in (True, False):
            seed_stream(rng, 3, i, 0)
            call = choose_call(BID_RANDOM, 1.0, 2, hand, turned, any_suit, rng)
            seen[any_suit].add(int(call) - L.CALL_SUIT)
    assert seen == {True: {0, 1, 2, 3}, False: {0, 1, 3}}


@pytest.mark.parametrize("second_round", ["others", "any"])
def test_second_round_dd_bidder_considers_the_turned_suit_only_under_any(second_round):
    rules = Rules.from_preset("classic", second_round=second_round).to_array()
    hand = _hand("9H AH TH KH QH")  # with JH: every high heart
    turned = parse_card("JH")
    sv = new_solver_kit(TABLE_BITS)
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, 1, 0, 0)
    call = dd_call(rules, sv, 0.5, 2, BidView(hand, turned, 1, 1, 4), rng)
    assert (call == L.CALL_SUIT + 2) == (second_round == "any")


# --------------------------------------------------------------------------------------
# Presets, options, the command line


def test_second_round_presets():
    anys = {name for name in FAMILIES | {"litige": 0, "sans-annonces": 0, "coinche": 0}
            if Rules.from_preset(name).second_round == "any"}
    assert anys == {"tout-atout", "no-contract-2p", "no-contract-4p"}
    assert Rules.from_preset("classic", second_round="any").second_round == "any"
    assert Rules.from_spec({"preset": "no-contract-2p", "options": {"second_round": "others"}}
                           ).overrides() == {"second_round": "others"}


def test_second_round_is_accepted_and_idle_in_coinche():
    base = simulate(Rules.from_preset("coinche"), deals=500, seed=2, bid_policy="threshold")
    other = simulate(Rules.from_preset("coinche", second_round="any"), deals=500, seed=2,
                     bid_policy="threshold")
    assert base.counters == other.counters


def test_second_round_on_the_command_line(tmp_path):
    exe = Path(sys.executable).parent / "belote-sim"
    listing = subprocess.run([exe, "rules"], capture_output=True, text=True, check=True).stdout
    line = next(x for x in listing.splitlines() if x.strip().startswith("second_round"))
    assert "others|any" in line and "003, 004 (any)" in line and "000, 002 (others)" in line
    run = subprocess.run(
        [exe, "simulate", "--rules", "classic", "--set", "second_round=any", "--deals", "2000",
         "--seed", "3", "--quiet", "--out", str(tmp_path / "run")],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    bad = subprocess.run(
        [exe, "simulate", "--rules", "classic", "--set", "second_round=all", "--deals", "10"],
        capture_output=True, text=True,
    )
    assert bad.returncode == 2
    assert "bad value 'all' for option 'second_round': expected one of others, any" in bad.stderr
