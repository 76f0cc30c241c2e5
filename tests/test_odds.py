"""Odds of declarations in a random hand (RULES.md section 5): the exact enumeration
against closed forms and an independent suit-by-suit count, the hand classifier against
a naive one, the Monte Carlo estimates against the exact values, files and bad input."""

from __future__ import annotations

import math
from collections import defaultdict

import numba
import numpy as np
import pandas as pd
import pytest

from belote_sim.batch import odds
from belote_sim.batch.odds import MEAN_METRIC, ODDS_METRICS
from belote_sim.errors import BeloteError
from belote_sim.runner.rundir import SUMMARY_COLUMNS, read_provenance
from belote_sim.studies.odds import exact_odds, sampled_odds, write_odds

CARDS = (8, 9)
JACK, NINE, QUEEN, KING = 4, 2, 5, 6
HEARTS = 2
CARRE_POINTS = {2: 150, 3: 100, 4: 200, 5: 100, 6: 100, 7: 100}  # rank -> points
RUN_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}  # split_long_runs off


# --- naive reference ---------------------------------------------------------------


def naive_suit_runs(ranks: set[int]) -> list[int]:
    """Lengths of the maximal runs of 3+ consecutive ranks in one suit."""
    runs, length = [], 0
    for r in range(9):  # rank 8 does not exist: it closes a run reaching the ace
        if r < 8 and r in ranks:
            length += 1
        else:
            if length >= 3:
                runs.append(length)
            length = 0
    return runs


def naive_odds_row(cards: set[int]) -> tuple[dict[str, bool], int]:
    """The metrics a hand satisfies and its declaration points, from a set of cards."""
    runs = [n for s in range(4) for n in naive_suit_runs({c % 8 for c in cards if c // 8 == s})]
    carres = [r for r in CARRE_POINTS if all(8 * s + r in cards for s in range(4))]
    holds = {
        "p_tierce": 3 in runs,
        "p_quarte": 4 in runs,
        "p_quinte_or_longer": any(n >= 5 for n in runs),
        "p_run_3plus": bool(runs),
        "p_carre_jacks": JACK in carres,
        "p_carre_nines": NINE in carres,
        "p_carre_any": bool(carres),
        "p_any_declaration": bool(runs or carres),
        "p_kq_of_a_given_suit": {8 * HEARTS + KING, 8 * HEARTS + QUEEN} <= cards,
    }
    points = sum(RUN_POINTS[n] for n in runs) + sum(CARRE_POINTS[r] for r in carres)
    return holds, points


def suit_by_suit_counts(k: int) -> tuple[dict[str, int], int]:
    """Exact hand counts of every metric but the K-Q one, and the total declaration
    points, over all hands of ``k`` cards, by a dynamic programme over the four suits
    (state: cards so far, ranks held in every suit so far, run kinds so far)."""
    suit_table = []
    for byte in range(256):
        runs = naive_suit_runs({r for r in range(8) if byte >> r & 1})
        kinds = (3 in runs) | (4 in runs) << 1 | any(n >= 5 for n in runs) << 2
        suit_table.append((bin(byte).count("1"), byte, kinds, sum(RUN_POINTS[n] for n in runs)))
    states = {(0, 0xFF, 0): (1, 0)}  # (cards, common ranks, kinds) -> (hands, run points)
    for _ in range(4):
        nxt: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0])
        for (n, common, kinds), (hands, points) in states.items():
            for size, byte, suit_kinds, suit_points in suit_table:
                if n + size <= k:
                    acc = nxt[(n + size, common & byte, kinds | suit_kinds)]
                    acc[0] += hands
                    acc[1] += points + hands * suit_points
        states = nxt
    counts = dict.fromkeys(ODDS_METRICS, 0)
    total_points = 0
    for (n, common, kinds), (hands, points) in states.items():
        if n != k:
            continue
        carres = [r for r in CARRE_POINTS if common >> r & 1]
        total_points += points + hands * sum(CARRE_POINTS[r] for r in carres)
        for metric, holds in (
            ("p_tierce", kinds & 1),
            ("p_quarte", kinds & 2),
            ("p_quinte_or_longer", kinds & 4),
            ("p_run_3plus", kinds),
            ("p_carre_jacks", JACK in carres),
            ("p_carre_nines", NINE in carres),
            ("p_carre_any", carres),
            ("p_any_declaration", kinds or carres),
        ):
            if holds:
                counts[metric] += hands
    del counts["p_kq_of_a_given_suit"]
    return counts, total_points


def table(df: pd.DataFrame) -> pd.DataFrame:
    return df.set_index("metric")


@pytest.fixture(scope="module")
def exact() -> dict[int, pd.DataFrame]:
    return {k: table(exact_odds(k)) for k in CARDS}


# --- the exact enumeration -----------------------------------------------------------


@pytest.mark.parametrize("k", CARDS)
def test_exact_table_layout(exact, k):
    df = exact[k]
    assert list(exact_odds(k).columns) == list(SUMMARY_COLUMNS)
    assert list(df.index) == [*ODDS_METRICS, MEAN_METRIC]
    assert (df.group == f"cards={k}").all()
    assert (df.n == math.comb(32, k)).all()  # the kernel counted every hand once
    assert (df.ci_low == df.value).all() and (df.ci_high == df.value).all()
    assert pd.isna(df.k[MEAN_METRIC])
    props = df.loc[list(ODDS_METRICS)]
    assert (props.value == props.k / props.n).all()


@pytest.mark.parametrize("k", CARDS)
def test_exact_closed_forms(exact, k):
    df, total = exact[k], math.comb(32, k)
    assert df.k["p_carre_jacks"] == math.comb(28, k - 4)
    assert df.k["p_carre_nines"] == math.comb(28, k - 4)
    assert df.k["p_kq_of_a_given_suit"] == math.comb(30, k - 2)
    # inclusion-exclusion over the six scoring ranks
    carre_any = sum(
        (-1) ** (j + 1) * math.comb(6, j) * math.comb(32 - 4 * j, k - 4 * j)
        for j in range(1, k // 4 + 1)
    )
    assert df.k["p_carre_any"] == carre_any
    assert df.value["p_carre_any"] == pytest.approx(carre_any / total, rel=1e-12)


@pytest.mark.parametrize("k", CARDS)
def test_exact_expected_points_by_linearity(exact, k):
    """Expected points = sum over every possible carré and maximal run of its points
    times the chance of holding its cards (and, for a run, not its neighbours)."""
    total = math.comb(32, k)
    points = sum(CARRE_POINTS.values()) * math.comb(28, k - 4)
    for length in range(3, 9):
        for low in range(0, 9 - length):
            neighbours = (low > 0) + (low + length < 8)
            held_out = length + neighbours
            points += 4 * RUN_POINTS[length] * math.comb(32 - held_out, k - length)
    assert exact[k].value[MEAN_METRIC] == pytest.approx(points / total, rel=1e-12)
    assert odds.exact_counts(k)[odds.SLOT_POINTS] == points


@pytest.mark.parametrize("k", CARDS)
def test_exact_counts_match_suit_by_suit_programme(exact, k):
    counts, total_points = suit_by_suit_counts(k)
    for metric, count in counts.items():
        assert exact[k].k[metric] == count, metric
    assert odds.exact_counts(k)[odds.SLOT_POINTS] == total_points


@pytest.mark.parametrize("k", CARDS)
def test_exact_metrics_are_consistent(exact, k):
    p = exact[k].value
    runs = ["p_tierce", "p_quarte", "p_quinte_or_longer"]
    assert all(p["p_run_3plus"] >= p[m] for m in runs)
    assert p["p_run_3plus"] <= sum(p[m] for m in runs)
    assert p["p_carre_any"] >= max(p["p_carre_jacks"], p["p_carre_nines"])
    assert max(p["p_run_3plus"], p["p_carre_any"]) <= p["p_any_declaration"]
    assert p["p_any_declaration"] <= p["p_run_3plus"] + p["p_carre_any"]
    assert 0 < p["p_quinte_or_longer"] < p["p_quarte"] < p["p_tierce"] < 1


def test_nine_cards_make_every_declaration_likelier(exact):
    assert (exact[9].value > exact[8].value).all()


def test_exact_enumeration_does_not_depend_on_threads():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = odds.exact_counts(8)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(one, odds.exact_counts(8))


def test_combinations_walk_in_mask_order():
    """The unranking that starts each block and Gosper's step agree with itertools."""
    from itertools import combinations

    masks = [sum(1 << c for c in combo) for combo in combinations(range(10), 3)]
    masks.sort()
    assert [odds.unrank_combination(r, 3) for r in range(len(masks))] == masks
    assert [odds.next_combination(m) for m in masks[:-1]] == masks[1:]
    assert odds.unrank_combination(math.comb(32, 8) - 1, 8) == 0xFF000000


# --- the classifier -----------------------------------------------------------------


def special_hands() -> list[set[int]]:
    return [
        set(range(8)),  # the whole of clubs: one run of eight
        {0, 1, 2, 4, 5, 6, 31, 30},  # two tierces in clubs, none in spades
        {8 * s + r for s in range(4) for r in (JACK, NINE)},  # carrés of jacks and nines
        {8 * s + r for s in range(4) for r in (0, 1)},  # sevens and eights: nothing
        {8 * s + 7 for s in range(4)} | {29, 30, 28},  # carré of aces + quarte in spades
        {8 * s + r for s in range(2) for r in range(1, 5)} | {22},  # 9 cards, two quartes
    ]


def test_classifier_matches_naive_classifier():
    rng = np.random.default_rng(20240601)
    hands = [
        set(int(c) for c in rng.choice(32, size=k, replace=False))
        for k in (8, 9)
        for _ in range(2_000)
    ]
    hands += special_hands()
    masks = np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)
    flags, points = odds.classify_hands(masks)
    for hand, f, pts in zip(hands, flags, points, strict=True):
        holds, naive_points = naive_odds_row(hand)
        got = {m: bool(f >> bit & 1) for bit, m in enumerate(ODDS_METRICS)}
        assert got == holds, sorted(hand)
        assert pts == naive_points, sorted(hand)


def test_run_of_eight_is_one_quinte_worth_100():
    flags, points = odds.classify_hands(np.array([0xFF], dtype=np.int64))
    assert points[0] == 100
    assert flags[0] == (1 << odds.F_QUINTE) | (1 << odds.F_RUN3) | (1 << odds.F_ANY)


# --- Monte Carlo ---------------------------------------------------------------------


@pytest.mark.parametrize("k", CARDS)
def test_sampled_odds_agree_with_exact(exact, k):
    samples = 200_000
    mc = table(sampled_odds(cards=k, samples=samples, seed=7))
    assert list(mc.index) == list(exact[k].index)
    assert (mc.n == samples).all() and (mc.group == f"cards={k}").all()
    for metric in ODDS_METRICS:
        p = exact[k].value[metric]
        se = math.sqrt(p * (1 - p) / samples)
        assert abs(mc.value[metric] - p) < 4 * se, metric
        assert mc.ci_low[metric] <= mc.value[metric] <= mc.ci_high[metric]
    mean = mc.loc[MEAN_METRIC]
    se = (mean.ci_high - mean.ci_low) / (2 * 1.959963984540054)
    assert mean.value - mean.ci_low == pytest.approx(1.959963984540054 * se)
    assert abs(mean.value - exact[k].value[MEAN_METRIC]) < 4 * se


def test_sampled_odds_reproducible_for_a_seed_and_not_across_seeds():
    a = sampled_odds(cards=8, samples=50_000, seed=11)
    b = sampled_odds(cards=8, samples=50_000, seed=11)
    c = sampled_odds(cards=8, samples=50_000, seed=12)
    pd.testing.assert_frame_equal(a, b)
    assert not a.k.equals(c.k)


def test_sampled_counts_do_not_depend_on_threads():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = odds.sampled_counts(9, 0, 100_000, 5)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(one, odds.sampled_counts(9, 0, 100_000, 5))


def test_sample_i_is_a_pure_function_of_seed_and_index():
    """The parallel kernel's totals equal those of the hands drawn one by one."""
    from belote_sim.kernels.rng import seed_stream

    n, seed = 70_000, 3  # more than two blocks, the last one partial
    state, deck = np.zeros(1, np.uint64), np.zeros(32, np.int64)
    masks = np.empty(n, dtype=np.int64)
    for i in range(n):
        seed_stream(state, seed, i, 0)
        masks[i] = odds.random_hand(state, 9, deck)
    assert all(bin(int(m)).count("1") == 9 for m in masks)
    flags, points = odds.classify_hands(masks)
    counts = odds.sampled_counts(9, 0, n, seed)
    for bit in range(odds.N_FLAGS):
        assert counts[bit] == int(((flags >> bit) & 1).sum())
    assert counts[odds.SLOT_HANDS] == n
    assert counts[odds.SLOT_POINTS] == int(points.sum())
    assert counts[odds.SLOT_POINTS_SQ] == int((points * points).sum())
    # every card equally likely: each appears in 9/32 of the hands (4 standard errors)
    freq = np.array([((masks >> c) & 1).mean() for c in range(32)])
    assert np.abs(freq - 9 / 32).max() < 4 * math.sqrt(9 / 32 * 23 / 32 / n)


def test_one_sample_has_no_interval_for_the_mean():
    row = table(sampled_odds(cards=8, samples=1, seed=0)).loc[MEAN_METRIC]
    assert row.n == 1 and math.isnan(row.ci_low) and math.isnan(row.ci_high)


# --- files -----------------------------------------------------------------------------


def test_write_odds_round_trip(tmp_path, exact):
    df = exact_odds(8)
    provenance = {"command": "odds", "cards": 8, "exact": True}
    path = write_odds(df, tmp_path / "new" / "dir", provenance)
    assert path == tmp_path / "new" / "dir" / "summary.parquet"
    back = pd.read_parquet(path)
    pd.testing.assert_frame_equal(back, df)
    assert read_provenance(path) == provenance


def test_write_odds_refuses_a_file_as_directory(tmp_path):
    target = tmp_path / "file"
    target.write_text("")
    with pytest.raises(BeloteError, match="not a directory"):
        write_odds(exact_odds(8), target, {})


# --- bad input -----------------------------------------------------------------------


@pytest.mark.parametrize("cards", [7, 10, 0, -8, "8", 8.0, True, None])
def test_bad_cards_refused(cards):
    for call in (lambda: exact_odds(cards), lambda: sampled_odds(cards, samples=10)):
        with pytest.raises(BeloteError, match="cards must be 8 or 9") as info:
            call()
        assert repr(cards) in str(info.value)


@pytest.mark.parametrize("samples", [0, -1, 1.5, "100", None])
def test_bad_samples_refused(samples):
    with pytest.raises(BeloteError, match="samples must be") as info:
        sampled_odds(8, samples=samples)
    assert repr(samples) in str(info.value)


@pytest.mark.parametrize("seed", [-1, 2**63, 0.5, "1"])
def test_bad_seed_refused(seed):
    with pytest.raises(BeloteError, match="seed must be") as info:
        sampled_odds(8, samples=10, seed=seed)
    assert repr(seed) in str(info.value)


def test_numpy_integers_accepted():
    df = sampled_odds(np.int64(9), samples=np.int32(100), seed=np.uint8(1))
    assert (df.group == "cards=9").all() and (df.n == 100).all()
