"""The bid atlas (``belote-sim bid-table``): what it counts, that it pairs, that it is
reproducible, and that it agrees with ``bid-strength`` on the hands of a class."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from belote_sim.batch import counterfactuals as K
from belote_sim.cards import format_card, format_cards
from belote_sim.errors import BeloteError
from belote_sim.kernels.deal import shuffle_pack
from belote_sim.kernels.rng import seed_stream
from belote_sim.players import table_bidder as T
from belote_sim.rules import Rules
from belote_sim.runner.rundir import read_provenance
from belote_sim.studies.atlas import bid_table, holding_text, model_gap
from belote_sim.studies.bid_strength import bid_strength
from belote_sim.studies.simulate import simulated_deals

DEALS = 600


@pytest.fixture(scope="module")
def classic_atlas():
    return bid_table("classic", DEALS, seed=4)


def test_every_decision_of_the_auctions_is_tabulated(classic_atlas):
    """As many call/pass pairs as the auctions of the same deals (threshold bidding is
    deterministic, so ``simulate``'s deal logs hold the same auctions) have candidates:
    round 1 take, round 2 the three other suits."""
    expected = 0
    for deal in simulated_deals(Rules(), DEALS, 4, bid_policy="threshold"):
        for j in range(min(len(deal["calls"]), K.ATLAS_DECISIONS)):
            expected += 1 if j < 4 else 3
    assert int(classic_atlas.n.sum()) == expected


def test_a_take_always_makes_its_side_takers(classic_atlas):
    round_one = classic_atlas[classic_atlas["round"] == 1]
    assert (round_one.takers_rate == 1.0).all()
    assert set(round_one.strain) == {"retourne suit"}
    assert set(classic_atlas[classic_atlas["round"] == 2].strain) == {"other suit"}
    rates = classic_atlas[["made_rate", "dedans_rate", "take_rate", "capot_rate"]]
    assert ((rates >= 0) & (rates <= 1)).all().all()


def test_the_atlas_does_not_depend_on_threads(classic_atlas):
    again = bid_table("classic", DEALS, seed=4, threads=1)
    pd.testing.assert_frame_equal(again, classic_atlas)


def test_stronger_trumps_make_more_often(classic_atlas):
    first = classic_atlas[classic_atlas["round"] == 1]
    by_trumps = first.groupby("trumps")[["n", "made"]].sum()
    rate = by_trumps.made / by_trumps.n
    assert rate.loc[3] > rate.loc[1] > rate.loc[0]


def test_holding_text():
    assert holding_text(0) == "-"
    assert holding_text(T.HOLD_ACE | T.HOLD_TEN | T.HOLD_BELOTE) == "AT+KQ"


def test_coinche_atlas_names_each_strain_at_its_lowest_bid():
    atlas = bid_table("coinche", 200, seed=2)
    assert set(atlas.strain) <= {"suit", "AT", "NT"} and "value" in atlas.columns
    assert atlas.value.min() == 80 and "round" not in atlas.columns


def test_model_gap_needs_both_models(classic_atlas):
    with pytest.raises(BeloteError, match="no 'dd' model"):
        model_gap(classic_atlas, "heuristic")


def test_dd_and_realistic_side_by_side():
    atlas = bid_table("classic", 40, seed=1, models="heuristic,dd")
    gap = model_gap(atlas, "heuristic", by=["strain"])
    assert set(gap.columns) >= {"made_rate_dd", "made_rate_heuristic", "gap_points"}
    pairs = atlas.groupby("model").n.sum()
    assert pairs["dd"] == pairs["heuristic"]  # the same decisions under both


def test_bid_strength_of_a_class_agrees_with_its_atlas_row():
    """The first hand's round-1 decision: the atlas row of one hand class against the
    average of ``bid-strength`` over random hands of that class (worlds drawn
    independently): the gain over passing and the made rate agree within the
    intervals."""
    atlas = bid_table("classic", 4000, seed=11)
    rows = atlas[(atlas["round"] == 1) & (atlas.position == 0)]
    keys = ["holding", "trumps", "side_aces", "side_tens", "voids", "retourne"]
    row = rows.sort_values("n", ascending=False).iloc[0]
    hands = []
    rng = np.zeros(1, dtype=np.uint64)
    pack = np.zeros(32, dtype=np.int64)
    i = 0
    while len(hands) < 12:
        seed_stream(rng, 99, i, 0)
        shuffle_pack(pack, rng)
        i += 1
        hand = sum(1 << int(c) for c in pack[:5])
        turned = int(pack[5])
        feats = K.hand_features(hand, turned >> 3)
        cls = (holding_text(feats[0]), *[int(x) for x in feats[1:]], "789TJQKA"[turned & 7])
        if cls == tuple(row[k] for k in keys):
            hands.append((hand, turned))
    made, gain = [], []
    for hand, turned in hands:
        df = bid_strength("classic", " ".join(format_cards(hand)), retourne=format_card(turned),
                          worlds=300, seed=5).set_index(["metric", "group"])
        made.append(df.loc[("p_made", "model=heuristic call=take"), "value"])
        gain.append(df.loc[("gain_over_pass", "model=heuristic call=take"), "value"])
    se_gain = (row.gain_high - row.gain_low) / (2 * 1.96)
    spread = np.std(gain, ddof=1) / np.sqrt(len(gain))
    assert abs(np.mean(gain) - row.gain) < 3 * np.hypot(se_gain, spread)
    se_made = np.sqrt(row.made_rate * (1 - row.made_rate) / row.n)
    spread = np.std(made, ddof=1) / np.sqrt(len(made))
    assert abs(np.mean(made) - row.made_rate) < 3 * np.hypot(se_made, spread) + 0.01


def test_cli_writes_the_atlas(tmp_path):
    out = tmp_path / "atlas"
    res = subprocess.run(
        [sys.executable, "-m", "belote_sim.cli", "bid-table", "--deals", "300", "--out",
         str(out), "--quiet", "--top", "5"], capture_output=True, text=True, timeout=600,
    )
    assert res.returncode == 0, res.stderr
    assert "largest classes" in res.stdout
    atlas = pd.read_parquet(out / "atlas.parquet")
    assert {"holding", "made_rate", "gain"} <= set(atlas.columns)
    assert read_provenance(out / "atlas.parquet")["deals"] == 300
    bad = subprocess.run(
        [sys.executable, "-m", "belote_sim.cli", "bid-table", "--deals", "0", "--out",
         str(tmp_path / "no")], capture_output=True, text=True, timeout=600,
    )
    assert bad.returncode == 2 and not (tmp_path / "no").exists()


# -- card values --------------------------------------------------------------------------


def test_card_values_rank_the_trumps():
    from belote_sim.studies.card_values import card_values, value_table

    df = card_values("classic", 1500, seed=3)
    wide = value_table(df)["heuristic"]
    assert wide.loc["trump J", "ci_low"] > 0
    assert wide.loc["trump J", "value"] > wide.loc["trump 7", "value"]
    assert wide.loc["side A", "value"] > wide.loc["side 7", "value"]
    again = card_values("classic", 1500, seed=3, threads=1)
    pd.testing.assert_frame_equal(again, df)


def test_card_values_cli(tmp_path):
    res = subprocess.run(
        [sys.executable, "-m", "belote_sim.cli", "card-values", "--deals", "200", "--quiet",
         "--out", str(tmp_path / "cv")], capture_output=True, text=True, timeout=600,
    )
    assert res.returncode == 0, res.stderr
    assert "trump J" in res.stdout
    assert read_provenance(tmp_path / "cv" / "summary.parquet")["command"] == "card-values"
