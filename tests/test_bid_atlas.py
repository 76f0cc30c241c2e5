"""The bid atlas (``belote-sim bid-table``): what it counts, that it pairs, that it is
reproducible, and that it agrees with ``bid-strength`` on the hands of a class."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from belote_sim.batch import counterfactuals
from belote_sim.batch.class_sums import SUMS, atlas_class_sums, group_sums, merge_sums
from belote_sim.bid import table_bidder
from belote_sim.cards import format_card, format_cards
from belote_sim.errors import BeloteError
from belote_sim.kernels.deal import shuffle_pack
from belote_sim.kernels.rng import seed_stream
from belote_sim.rules import Rules
from belote_sim.runner.rundir import read_provenance
from belote_sim.studies.atlas import _KEY_SLOTS, KEYS, bid_table, holding_text, model_gap
from belote_sim.studies.bid_strength import bid_strength
from belote_sim.studies.playouts import playout_setup
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
        for j in range(min(len(deal["calls"]), counterfactuals.ATLAS_DECISIONS)):
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


def test_the_atlas_does_not_depend_on_its_chunks(classic_atlas):
    """Seven chunks' class sums, merged in whatever order they finish, give the table of
    the default single chunk."""
    again = bid_table("classic", DEALS, seed=4, chunk_size=90)
    pd.testing.assert_frame_equal(again, classic_atlas)


def naive_group_sums(table: np.ndarray, n_keys: int) -> np.ndarray:
    """The reference of :func:`group_sums`: a pandas group-by."""
    if len(table) == 0:
        return np.zeros((0, table.shape[1]), dtype=np.int64)
    frame = pd.DataFrame(table)
    keys, values = list(range(n_keys)), list(range(n_keys, table.shape[1]))
    return (frame.groupby(keys, sort=True)[values].sum().reset_index()
            .to_numpy(dtype=np.int64))


def test_class_sums_of_atlas_rows_match_a_pandas_group_by():
    setup = playout_setup("classic", seed=2, bid_policy="threshold",
                          models=("heuristic", "random"))
    models = counterfactuals.PlayModels(setup.players_table(), *setup.lookup())
    rows, refused = counterfactuals.atlas_chunk(setup.rules.to_array(), models, 2, 0, 300, 2, True)
    assert refused == 0 and len(rows) > 300
    gain2 = rows[:, counterfactuals.AF_DIFF2] - rows[:, counterfactuals.AF_DIFF2_PASS]
    terms = [
        np.ones(len(rows), dtype=np.int64),
        rows[:, counterfactuals.AF_POLICY_CALLED],
        rows[:, counterfactuals.AF_TAKERS],
        rows[:, counterfactuals.AF_MADE],
        rows[:, counterfactuals.AF_DEDANS],
        rows[:, counterfactuals.AF_CAPOT],
        gain2,
        gain2 * gain2,
    ]
    assert len(terms) == len(SUMS)
    expected = naive_group_sums(np.column_stack([rows[:, list(_KEY_SLOTS)], *terms]),
                                len(KEYS))
    np.testing.assert_array_equal(atlas_class_sums(rows, _KEY_SLOTS), expected)
    half = len(rows) // 2
    first, second = (atlas_class_sums(part, _KEY_SLOTS) for part in (rows[:half], rows[half:]))
    np.testing.assert_array_equal(merge_sums(first, second, len(KEYS)), expected)
    np.testing.assert_array_equal(merge_sums(second, first, len(KEYS)), expected)


tables = st.integers(1, 3).flatmap(lambda n_keys: st.tuples(
    st.just(n_keys),
    arrays(np.int64, st.tuples(st.integers(0, 40), st.integers(n_keys, n_keys + 3)),
           elements=st.integers(-4, 4)),
    st.integers(-10**12, 10**12)))


@settings(max_examples=150, deadline=None)
@given(tables, st.data())
def test_group_sums_match_a_pandas_group_by(case, data):
    """Keys of any sign and offset, sums of any sign, and the merge of two tables."""
    n_keys, table, offset = case
    table = table.copy()
    table[:, 0] += offset  # a key far from zero: the codes are offsets from the smallest
    expected = naive_group_sums(table, n_keys)
    np.testing.assert_array_equal(group_sums(table, n_keys), expected)
    cut = data.draw(st.integers(0, len(table)))
    a, b = group_sums(table[:cut], n_keys), group_sums(table[cut:], n_keys)
    np.testing.assert_array_equal(merge_sums(a, b, n_keys), expected)


def test_group_sums_refuse_keys_that_do_not_fit_one_code():
    table = np.array([[0, -2**40, 1], [2**40, 2**40, 1]])
    with pytest.raises(ValueError, match="do not fit one code"):
        group_sums(table, 2)


def test_stronger_trumps_make_more_often(classic_atlas):
    first = classic_atlas[classic_atlas["round"] == 1]
    by_trumps = first.groupby("trumps")[["n", "made"]].sum()
    rate = by_trumps.made / by_trumps.n
    assert rate.loc[3] > rate.loc[1] > rate.loc[0]


def test_holding_text():
    assert holding_text(0) == "-"
    ace_ten_belote = table_bidder.HOLD_ACE | table_bidder.HOLD_TEN | table_bidder.HOLD_BELOTE
    assert holding_text(ace_ten_belote) == "AT+KQ"


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
        feats = counterfactuals.hand_features(hand, turned >> 3)
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
        [sys.executable, "-m", "belote_sim", "bid-table", "--deals", "300", "--out",
         str(out), "--quiet", "--top", "5"], capture_output=True, text=True, timeout=600,
    )
    assert res.returncode == 0, res.stderr
    assert "largest classes" in res.stdout
    atlas = pd.read_parquet(out / "atlas.parquet")
    assert {"holding", "made_rate", "gain"} <= set(atlas.columns)
    assert read_provenance(out / "atlas.parquet")["deals"] == 300
    bad = subprocess.run(
        [sys.executable, "-m", "belote_sim", "bid-table", "--deals", "0", "--out",
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
        [sys.executable, "-m", "belote_sim", "card-values", "--deals", "200", "--quiet",
         "--out", str(tmp_path / "cv")], capture_output=True, text=True, timeout=600,
    )
    assert res.returncode == 0, res.stderr
    assert "trump J" in res.stdout
    assert read_provenance(tmp_path / "cv" / "summary.parquet")["command"] == "card-values"
