"""Bid strength (``belote-sim bid-strength``): the world sampler, the decision checks,
the paired figures, and the command line."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from belote_sim.batch import counterfactuals
from belote_sim.cards import cards_of, parse_cards
from belote_sim.deallog.format import format_call
from belote_sim.errors import BeloteError
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.kernels.deal import complete_pack
from belote_sim.kernels.rng import seed_stream
from belote_sim.players.lookup import lookup_for
from belote_sim.players.registry import BID_THRESHOLD, PLAY_DD, PLAY_HEURISTIC
from belote_sim.rules import Rules
from belote_sim.runner.rundir import read_provenance
from belote_sim.studies.bid_strength import (
    _openings,
    bid_strength,
    decision,
    reach_table,
    strength_table,
)

HAND = "JH 9H AH 7D 8C"


def _calls(dec) -> list[str]:
    return [format_call(c) for c in dec.candidates]


# -- the worlds ---------------------------------------------------------------------------


def test_complete_pack_draws_every_completion_equally_often():
    """Chi-square against the enumeration of every completion of a small pack: two
    known cards at fixed positions, four unseen cards over four free positions."""
    fixed_pos = np.array([1, 4], dtype=np.int64)
    fixed_cards = np.array([10, 11], dtype=np.int64)
    free_pos = np.array([0, 2, 3, 5], dtype=np.int64)
    unseen = np.array([3, 5, 7, 9], dtype=np.int64)
    completions = {}
    for perm in itertools.permutations(unseen.tolist()):
        pack = [0] * 6
        pack[1], pack[4] = 10, 11
        for p, c in zip(free_pos.tolist(), perm, strict=True):
            pack[p] = c
        completions[tuple(pack)] = 0
    assert len(completions) == 24
    rng = np.zeros(1, dtype=np.uint64)
    pack = np.zeros(6, dtype=np.int64)
    samples = 24_000
    for i in range(samples):
        seed_stream(rng, 5, i, 0)
        complete_pack(pack, fixed_pos, fixed_cards, free_pos, unseen, rng)
        completions[tuple(pack.tolist())] += 1  # a pack outside the enumeration: KeyError
    observed = np.array(list(completions.values()))
    assert len(completions) == 24 and observed.sum() == samples
    assert stats.chisquare(observed).pvalue > 1e-4
    assert unseen.tolist() == [3, 5, 7, 9]  # only read


def test_worlds_keep_what_the_seat_knows():
    """Every world deals the seat its own cards and turns the retourne up: replayed by
    the engine, the dealt hand and the retourne are the decision's."""
    dec = decision("classic", HAND, retourne="TH", seat=2, round=2)
    rng = np.zeros(1, dtype=np.uint64)
    pack = np.zeros(32, dtype=np.int64)
    seen = set()
    for w in range(50):
        seed_stream(rng, 9, w, 0)
        complete_pack(pack, dec.fixed_pos, dec.fixed_cards, dec.free_pos, dec.unseen, rng)
        assert sorted(pack.tolist()) == list(range(32))
        rec, _, _ = replay_deal(dec.rules.to_array(), pack, dec.dealer, 0, 0,
                                np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                                False)
        assert int(rec[L.DEALT + 2]) == dec.hand
        assert int(rec[L.RETOURNE]) == dec.retourne
        seen.add(int(rec[L.DEALT + 0]))
    assert len(seen) == 50  # the other hands vary


# -- the decision -------------------------------------------------------------------------


def test_candidates_are_the_calls_the_engine_accepts():
    assert _calls(decision("classic", HAND, retourne="TH")) == ["pass", "take"]
    assert _calls(decision("classic", HAND, retourne="TH", round=2)) == ["pass", "C", "D", "S"]
    anyr = Rules.from_preset("classic", second_round="any")
    assert _calls(decision(anyr, HAND, retourne="TH", round=2)) == ["pass", "C", "D", "H", "S"]
    at = Rules.from_preset("classic", all_no_trumps_round=True)
    assert _calls(decision(at, HAND, retourne="TH", round=3)) == ["pass", "AT", "NT"]
    coinche = decision("coinche", "JH 9H AH TH 7D 8C AS TS", calls="80C", seat=1)
    calls = _calls(coinche)
    assert calls[0] == "pass" and "80H" not in calls and "90C" in calls and "250S" in calls
    assert "coinche" in calls and "surcoinche" not in calls
    assert [s for s, _ in coinche.probes] == [0, 1, 2, 3, 4, 5]
    suits_only = Rules.from_preset("coinche", all_no_trumps_round=False)
    plain = decision(suits_only, "JH 9H AH TH 7D 8C AS TS", calls="80C", seat=1)
    assert [s for s, _ in plain.probes] == [0, 1, 2, 3] and "90AT" not in _calls(plain)


def test_the_calls_before_a_decision_follow_seat_dealer_and_round():
    dec = decision("classic", HAND, retourne="TH", seat=1, round=2)
    assert dec.dealer == 0 and dec.calls == (L.CALL_PASS,) * 4  # first hand, round 2
    dec = decision("classic", HAND, retourne="TH", seat=1, dealer=2, round=1)
    assert dec.calls == (L.CALL_PASS,) * 2  # seats 3 and 0 passed
    dec = decision("coinche", "JH 9H AH TH 7D 8C AS TS", calls="80H pass", seat=2)
    assert dec.dealer == 3  # seat 0 opened, seat 1 passed


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"hand": "JH JH 9H AS 7D"}, "duplicate card"),
        ({"hand": "JH 9H AS 7D"}, "deals 5 cards .* the hand has 4"),
        ({"hand": "JH 9H AS 7D ZZ"}, "bad card 'ZZ'"),
        ({"retourne": "JH"}, "retourne JH is also in the hand"),
        ({"retourne": None}, "turns a card up: give the retourne"),
        ({"round": 3}, "round must be an integer in 1..2"),
        ({"seat": 4}, "seat must be an integer in 0..3"),
        ({"calls": "pass"}, "every call before a decision .* is a pass"),
        ({"rules": "coinche", "hand": "JH 9H AH TH 7D 8C AS TS", "retourne": None,
          "calls": "90H 80S"}, "call 2: '80S' .* is illegal: a bid must be higher than 90"),
        ({"rules": "coinche", "hand": "JH 9H AH TH 7D 8C AS TS", "retourne": None,
          "calls": "80H pass pass pass"}, "the auction is over"),
        ({"rules": "coinche", "hand": "JH 9H AH TH 7D 8C AS TS", "retourne": None,
          "calls": "80H", "seat": 0, "dealer": 3}, "seat 1 speaks, not seat 0"),
        ({"rules": "coinche", "hand": "JH 9H AH TH 7D 8C AS TS", "retourne": "TD"},
         "has no retourne"),
        ({"rules": "coinche", "hand": "JH 9H AH TH 7D 8C AS TS", "retourne": None,
          "calls": "80H kontra"}, "unknown call 'kontra'"),
    ],
)
def test_bad_decisions_are_refused_in_one_line(kwargs, message):
    args = {"rules": "classic", "hand": HAND, "retourne": "TH", **kwargs}
    with pytest.raises(BeloteError, match=message) as e:
        decision(args.pop("rules"), args.pop("hand"), **args)
    assert "\n" not in str(e.value)


def test_every_preset_deals_the_seat_its_bidding_hand():
    """The hand size comes from the engine's own deal, for every family."""
    for preset, size, turned in [("classic", 5, True), ("three-player", 5, True),
                                 ("stock-2p", 6, True), ("no-contract-2p", 6, True),
                                 ("coinche", 8, False)]:
        rules = Rules.from_preset(preset)
        hand = " ".join(["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"][:size])
        probe = decision(rules, hand, retourne="AS" if turned else None)
        assert len(cards_of(probe.hand)) == size, preset


# -- the figures --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def classic_take():
    return bid_strength("classic", HAND, retourne="TH", worlds=400, seed=3,
                        models="heuristic,random")


def test_gain_over_pass_is_the_paired_difference(classic_take):
    df = classic_take.set_index(["metric", "group"])
    for model in ("heuristic", "random"):
        take, pass_ = f"model={model} call=take", f"model={model} call=pass"
        diff = df.loc[("mean_difference", take), "value"] - df.loc[("mean_difference", pass_),
                                                                   "value"]
        assert df.loc[("gain_over_pass", take), "value"] == pytest.approx(diff)
        zero = df.loc[("gain_over_pass", pass_)]
        assert (zero.value, zero.ci_low, zero.ci_high) == (0.0, 0.0, 0.0)
        assert df.loc[("p_takers", take), "value"] == 1.0
        made = df.loc[("p_made", take), "k"] + df.loc[("p_dedans", take), "k"]
        assert made <= df.loc[("p_takers", take), "k"]


def test_a_strong_hand_gains_by_taking(classic_take):
    wide = strength_table(classic_take)
    assert wide.loc[("heuristic", "take"), "best"]
    assert wide.loc[("heuristic", "take"), "gain_low"] > 0


def test_results_do_not_depend_on_threads(classic_take):
    again = bid_strength("classic", HAND, retourne="TH", worlds=400, seed=3,
                         models="heuristic,random", threads=1)
    pd.testing.assert_frame_equal(again, classic_take)


def test_nobody_takes_when_nobody_bids():
    """The last seat of round 2 passing under a bidder that never takes: every world is
    thrown in, scores 0."""
    df = bid_strength("classic", HAND, retourne="TH", seat=3, dealer=3, round=2,
                      bid_policy="random:0", worlds=50).set_index(["metric", "group"])
    group = "model=heuristic call=pass"
    assert df.loc[("p_thrown_in", group), "value"] == 1.0
    assert df.loc[("mean_own_score", group), "value"] == 0.0


def test_coinche_reach_falls_with_the_value():
    df = bid_strength("coinche", "JH 9H AH TH KH 8C AS TS", worlds=300, seed=1)
    reach = reach_table(df)
    hearts = reach.loc[("heuristic", "H")]
    assert hearts.is_monotonic_decreasing and hearts[80] > 0.9
    assert (reach.loc[("heuristic", "C")] <= hearts + 1e-12).all()


@pytest.mark.parametrize(("hand", "where", "worlds"), [
    (HAND, {"seat": 1, "round": 2}, 12),
    # the decision of bench_strength's `--models dd` figure, near the take threshold
    ("JH 9H 7D 8C KS", {"seat": 1, "dealer": 0}, 240),
])
def test_the_dd_model_solves_what_dd_play_plays(hand, where, worlds):
    """One double-dummy solve per contract and world gives the deal that playing every
    card by the dd policy gives (perfect play keeps the value): same outcomes, same
    scores, world by world."""
    dec = decision("classic", hand, retourne="TH", **where)
    openings, strains = _openings(dec)
    table = np.array([[BID_THRESHOLD, 50.0, PLAY_DD, 0.0]])
    world = counterfactuals.World(dec.fixed_pos, dec.fixed_cards, dec.free_pos, dec.unseen)
    draw = counterfactuals.Draw(
        world, np.zeros(0, dtype=np.int64), np.int64(0), np.int64(1)
    )  # uniform
    inputs = counterfactuals.StrengthInputs(
        table, *lookup_for(BID_THRESHOLD), draw, openings, strains, dec.seat, dec.dealer, 7, True
    )
    solved, _, _ = counterfactuals.strength_chunk(dec.rules.to_array(), inputs, 0, worlds, 2)
    played, _, _ = counterfactuals.strength_chunk(
        dec.rules.to_array(), inputs._replace(solve_dd=False), 0, worlds, 2)
    assert solved[0, :, counterfactuals.SC_TAKERS].sum() > worlds  # contracts were played
    np.testing.assert_array_equal(solved, played)


def test_the_dd_model_counts_the_same_worlds_whoever_takes_them():
    """The blocks take worlds one at a time from a shared counter: with one block or
    three, and in two parts, every world is counted once, and the counters are equal."""
    dec = decision("classic", "JH 9H 7D 8C KS", retourne="TH", seat=1, dealer=0)
    openings, strains = _openings(dec)
    table = np.array(
        [[BID_THRESHOLD, 50.0, PLAY_DD, 0.0], [BID_THRESHOLD, 50.0, PLAY_HEURISTIC, 0.0]]
    )
    world = counterfactuals.World(dec.fixed_pos, dec.fixed_cards, dec.free_pos, dec.unseen)
    uniform = np.zeros(0, dtype=np.int64)
    draw = counterfactuals.Draw(world, uniform, np.int64(0), np.int64(1))
    inputs = counterfactuals.StrengthInputs(
        table, *lookup_for(BID_THRESHOLD), draw, openings, strains, dec.seat, dec.dealer, 3, True
    )
    rules = dec.rules.to_array()
    one = counterfactuals.strength_chunk(rules, inputs, 0, 60, 1)
    three = counterfactuals.strength_chunk(rules, inputs, 0, 60, 3)
    parts = [counterfactuals.strength_chunk(rules, inputs, lo, n, 2)
             for lo, n in ((0, 23), (23, 37))]
    assert one[0][:, :, counterfactuals.SC_WORLDS].tolist() == [[60, 60], [60, 60]]
    summed = [first + second for first, second in zip(*parts, strict=True)]
    for a, b, c in zip(one, three, summed, strict=True):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)


def test_the_dd_model_in_coinche_reaches_less_higher():
    df = bid_strength("coinche", "JH 9H AH TH KH 8C AS TS", worlds=16, seed=2, models="dd")
    reach = reach_table(df)
    assert reach.loc[("dd", "H")].is_monotonic_decreasing


# -- the command line ---------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "belote_sim", *args], capture_output=True,
                          text=True, timeout=600)


def test_cli_prints_the_calls_and_writes_the_table(tmp_path):
    out = tmp_path / "strength"
    res = _cli("bid-strength", "--hand", HAND, "--retourne", "TH", "--worlds", "300",
               "--out", str(out), "--quiet")
    assert res.returncode == 0, res.stderr
    assert "<- best" in res.stdout and "take" in res.stdout
    df = pd.read_parquet(out / "summary.parquet")
    assert set(df.metric) >= {"p_made", "gain_over_pass"}
    prov = read_provenance(out / "summary.parquet")
    assert prov["hand"] == sorted(prov["hand"], key=lambda c: parse_cards(c)[0])
    assert prov["worlds"] == 300 and prov["retourne"] == "TH"
    json.dumps(prov)


def test_cli_refuses_bad_input_and_writes_nothing(tmp_path):
    out = tmp_path / "never"
    res = _cli("bid-strength", "--hand", "JH 9H AS 7D", "--retourne", "TH", "--out", str(out))
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "the hand has 4" in res.stderr
    assert not out.exists()


def test_a_stopped_decision_resumes_to_the_uninterrupted_table(tmp_path):
    from belote_sim.runner.jobs import RunInterrupted

    out = tmp_path / "stopped"
    kw = dict(retourne="TH", worlds=3_000, seed=5, chunk_size=1_000)
    with pytest.raises(RunInterrupted, match="1,000 of 3,000 worlds are committed in .*--resume"):
        bid_strength("classic", HAND, **kw, threads=1, out=out, should_stop=lambda: True)
    assert not (out / "summary.parquet").exists()  # nothing partial
    resumed = bid_strength("classic", HAND, **kw, out=out, resume=True)
    whole = bid_strength("classic", HAND, **kw)
    assert resumed.drop(columns="n").equals(whole.drop(columns="n"))
    assert list(resumed.n) == list(whole.n)
    assert read_provenance(out / "summary.parquet")["worlds"] == 3_000


def test_only_the_dd_model_alone_gets_the_long_chunks():
    """``dd`` settles a world by one solve per contract (long chunks share the threads
    evenly); a sampling model or the dd bidder searches at every decision (short ones)."""
    from belote_sim.studies.playouts import playout_setup

    def once(bid: str, models: str) -> bool:
        return playout_setup("classic", seed=0, bid_policy=bid, models=models).solves_once

    assert once("threshold", "dd") and once("threshold", "heuristic,dd")
    assert not once("threshold", "dd,pimc:3") and not once("dd", "dd")
    assert not once("threshold", "heuristic")
