"""``belote-sim compare``: paired differences that are exactly right where the answer is
known, agree with a per-deal computation, pair what can be paired, and a sequential test
whose error rates hold."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from belote_sim import load
from belote_sim.errors import BeloteError
from belote_sim.rules import Rules
from belote_sim.runner.jobs import RunInterrupted
from belote_sim.stats import paired_rate_interval
from belote_sim.studies.compare import (
    PAIRED,
    YES_NO,
    Until,
    compare,
    factorial_cells,
    holm,
    sprt_bounds,
    sprt_llr,
)
from belote_sim.studies.simulate import simulate

DEALS = 3000


def rows(df: pd.DataFrame, metric: str, group: str = "") -> pd.DataFrame:
    return df[(df.metric == metric) & (df.group == group)].reset_index(drop=True)


@pytest.fixture(scope="module")
def undertrump():
    return compare([Rules(), Rules(undertrump="free")], DEALS, seed=3,
                   play_policy="heuristic", bid_policy="threshold")


def test_a_comparison_of_the_same_rules_gives_exactly_nothing():
    df = compare([Rules(), Rules()], 2000, seed=1)
    assert list(dict.fromkeys(df.cell)) == ["classic #1", "classic #2"]
    diffs = df.dropna(subset=["diff"])
    assert len(diffs) == len(PAIRED)
    assert (diffs["diff"] == 0).all()
    yes_no_rows = [(m, g) in YES_NO for m, g in zip(diffs.metric, diffs.group, strict=True)]
    yes_no, scores = diffs[yes_no_rows], diffs[[not y for y in yes_no_rows]]
    # a score no deal changed: bounded by the deals and the range of the scores
    # (test_a_score_no_deal_changes_is_bounded_by_the_deals_and_its_range), not [0, 0]
    assert (scores.diff_ci_low < 0).all() and (scores.diff_ci_high == -scores.diff_ci_low).all()
    assert (yes_no.test == "mcnemar").all() and (yes_no.p_value == 1.0).all()
    # No deal differs: a yes/no rate's interval is bounded by its deals, not [0, 0].
    for r in yes_no.itertuples():
        assert (r.diff_ci_low, r.diff_ci_high) == pytest.approx(paired_rate_interval(0, 0, r.n))
        assert r.diff_ci_low < 0 < r.diff_ci_high


def test_a_known_effect_comes_out_exactly():
    """Ties count as made with ``tie_rule=takers`` and as ties with ``split``; the deals
    are the same otherwise, so the made rates differ by the tie rate exactly."""
    df = compare([Rules(tie_rule="split"), Rules(tie_rule="takers")], 20_000, seed=5,
                 bid_policy="threshold", play_policy="heuristic")
    made = rows(df, "made_rate")
    tie = rows(df, "tie_rate")
    assert tie.value[0] > 0
    assert made["diff"][1] == pytest.approx(tie.value[0], abs=1e-12)
    assert made.test[1] == "mcnemar"  # the same played deals in both cells
    assert rows(df, "take_rate")["diff"][1] == 0


def test_cells_give_the_catalogue_figures_of_simulate(undertrump):
    for c, rules in enumerate([Rules(), Rules(undertrump="free")]):
        run = simulate(rules, DEALS, seed=3, play_policy="heuristic", bid_policy="threshold")
        table = run.table()
        for metric, group in (("made_rate", ""), ("capot_rate", "side=takers"),
                              ("mean_taker_deal_score", ""), ("take_rate", "")):
            mine = rows(undertrump, metric, group).iloc[c]
            theirs = table[(table.metric == metric) & (table.group == group)].iloc[0]
            assert mine.value == theirs.value and mine.ci_low == theirs.ci_low


def per_deal(rules: Rules, tmp_path, name: str) -> pd.DataFrame:
    simulate(rules, DEALS, seed=3, play_policy="heuristic", bid_policy="threshold",
             records=True, out=tmp_path / name)
    return load(tmp_path / name).deals().sort_values("deal").reset_index(drop=True)


def test_paired_intervals_agree_with_a_per_deal_computation(undertrump, tmp_path):
    a = per_deal(Rules(), tmp_path, "a")
    b = per_deal(Rules(undertrump="free"), tmp_path, "b")
    n = len(a)
    # made_rate: made deals over played deals, linearised deal by deal.
    lin = []
    for d in (a, b):
        played = (~d.thrown_in).astype(float)
        made = (d.outcome == "made").fillna(False).astype(float)
        r = made.sum() / played.sum()
        lin.append((made - r * played) / played.mean())
    diff = (b.outcome == "made").sum() / (~b.thrown_in).sum() - \
        (a.outcome == "made").sum() / (~a.thrown_in).sum()
    assert len(lin[0]) == n and not lin[0].isna().any()
    se = np.std(lin[1] - lin[0], ddof=1) / math.sqrt(n)
    row = rows(undertrump, "made_rate").iloc[1]
    assert row["diff"] == pytest.approx(diff, rel=1e-12)
    # The same played deals in both cells: Tango's interval on the deals made in one
    # cell only (the normal interval, se, is what an unequal bidding would give).
    played = ~a.thrown_in
    ma, mb = (a.outcome == "made") & played, (b.outcome == "made") & played
    low, high = paired_rate_interval(int((mb & ~ma).sum()), int((ma & ~mb).sum()),
                                     int(played.sum()))
    assert (row.diff_ci_low, row.diff_ci_high) == pytest.approx((low, high), rel=1e-12)
    assert 0.5 < (high - low) / (2 * stats.norm.ppf(0.975) * se) < 2
    # Variance reduction: independent cells against the pairs.
    unpaired = np.var(lin[0], ddof=1) + np.var(lin[1], ddof=1)
    assert row.variance_reduction == pytest.approx(unpaired / np.var(lin[1] - lin[0], ddof=1),
                                                   rel=1e-9)
    assert row.variance_reduction > 2
    # McNemar on a yes/no outcome over every deal: the capot by the takers, per deal,
    # over the same played deals (the bidding does not depend on undertrump).
    assert (a.thrown_in == b.thrown_in).all()
    ca = (a.capot_side >= 0) & (a.capot_side == a.taker % 2)
    cb = (b.capot_side >= 0) & (b.capot_side == b.taker % 2)
    only_a, only_b = int((ca & ~cb).sum()), int((cb & ~ca).sum())
    capot = rows(undertrump, "capot_rate", "side=takers").iloc[1]
    assert capot.test == "mcnemar"
    expected = 1.0 if only_a + only_b == 0 else stats.binomtest(only_b, only_a + only_b).pvalue
    assert capot.p_value == pytest.approx(expected, rel=1e-12)


def test_holm_adjusts_within_each_comparison(undertrump):
    diffs = undertrump.dropna(subset=["p_value"])
    assert (diffs.p_holm >= diffs.p_value - 1e-15).all()
    assert diffs.p_holm.tolist() == pytest.approx(holm(diffs.p_value.tolist()))
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_threads_and_chunks_do_not_change_a_comparison(undertrump):
    again = compare([Rules(), Rules(undertrump="free")], DEALS, seed=3, threads=1,
                    chunk_size=700, play_policy="heuristic", bid_policy="threshold")
    pd.testing.assert_frame_equal(again, undertrump)


def test_a_factorial_gives_main_effects_and_interactions_from_the_cells():
    cells = factorial_cells("classic", {}, [("undertrump", ["forced", "free"]),
                                            ("overtrump_partner", ["on", "off"])])
    df = compare(cells, 3000, seed=4, factors=[("undertrump", ["forced", "free"]),
                                                ("overtrump_partner", ["on", "off"])],
                 bid_policy="threshold", play_policy="heuristic")
    made = rows(df, "made_rate")
    v = dict(zip(made[made.kind == "cell"].cell, made[made.kind == "cell"].value,
                 strict=True))
    v00 = v["undertrump=forced overtrump_partner=on"]
    v01 = v["undertrump=forced overtrump_partner=off"]
    v10 = v["undertrump=free overtrump_partner=on"]
    v11 = v["undertrump=free overtrump_partner=off"]
    main = made[made.kind == "main effect"].set_index("cell")["diff"]
    assert main["undertrump=free vs forced"] == pytest.approx((v10 + v11 - v00 - v01) / 2)
    assert main["overtrump_partner=off vs on"] == pytest.approx((v01 + v11 - v00 - v10) / 2)
    inter = made[made.kind == "interaction"].iloc[0]
    assert inter["diff"] == pytest.approx(v11 - v10 - v01 + v00, abs=1e-15)
    points = rows(df, "mean_taker_card_points")
    inter = points[points.kind == "interaction"].iloc[0]
    assert inter.diff_ci_low < inter["diff"] < inter.diff_ci_high
    # Play options cannot change the bidding: every effect on the take rate is exactly
    # nothing (not a round-off residue with p = 0).
    take = rows(df, "take_rate")
    effects = take[take["diff"].notna()]  # each cell against the base, and the effects
    assert len(effects) == 6
    assert (effects["diff"] == 0).all() and (effects.p_value == 1).all()
    # Each cell against the base: Tango's bound of no deal differing; the effects over
    # four cells: that bound weighed by half their coefficients' sum (a main effect's is
    # 2, an interaction's 4), never [0, 0].
    cells = effects[effects.kind == "cell"]
    bound = paired_rate_interval(0, 0, 3000)[1]
    assert len(cells) == 3 and cells.diff_ci_high.tolist() == pytest.approx([bound] * 3)
    main = effects[effects.kind == "main effect"]
    inter = effects[effects.kind == "interaction"]
    assert main.diff_ci_high.tolist() == pytest.approx([bound] * 2)
    assert inter.diff_ci_high.tolist() == pytest.approx([2 * bound])
    assert effects.diff_ci_low.tolist() == pytest.approx((-effects.diff_ci_high).tolist())


def test_matches_are_paired_match_by_match():
    cells = [Rules.from_preset("classic"), Rules.from_preset("litige")]
    df = compare(cells, matches=300, seed=2, bid_policy="threshold", play_policy="heuristic")
    assert df.attrs["provenance"]["unit"] == "matches"
    wins = rows(df, "match_win_rate", "side=0")
    assert wins.test[1] == "mcnemar" and wins.paired[1]
    for c, rules in enumerate(cells):
        run = simulate(rules, matches=300, seed=2, bid_policy="threshold",
                       play_policy="heuristic").table()
        for metric, group in (("match_win_rate", "side=0"), ("mean_deals_per_match", ""),
                              ("made_rate", "")):
            theirs = run[(run.metric == metric) & (run.group == group)].iloc[0]
            assert rows(df, metric, group).value[c] == theirs.value
    same = compare([Rules(), Rules()], matches=100, seed=3)
    assert (same.dropna(subset=["diff"])["diff"] == 0).all()


def test_cells_with_another_number_of_players_are_compared_unpaired():
    df = compare([Rules(), Rules.from_preset("three-player")], 2000, seed=1)
    diffs = df.dropna(subset=["diff"])
    assert not diffs.paired.any()
    assert (diffs.test == "unpaired z").all() and diffs.variance_reduction.isna().all()


def test_bad_cells_and_factors_are_refused():
    with pytest.raises(BeloteError, match="two cells"):
        compare([Rules()], 10)
    with pytest.raises(BeloteError, match="given twice"):
        factorial_cells("classic", {}, [("undertrump", ["forced", "free"]),
                                        ("undertrump", ["free", "forced"])])
    with pytest.raises(BeloteError, match="unknown option"):
        factorial_cells("classic", {}, [("undertrumps", ["forced", "free"])])
    with pytest.raises(BeloteError, match="not a compared metric"):
        Until.parse("made_rat", 0.01, 0.05, 0.05)


# -- The sequential test ----------------------------------------------------------------


def sequential(rng, true_diff: float, delta: float, alpha: float, beta: float,
               tests: int, look: int = 200, looks: int = 400) -> tuple[float, float]:
    """Shares of ``tests`` synthetic paired streams (unit variance) accepting H1 and H0,
    the SPRT looked at every ``look`` samples."""
    lower, upper = sprt_bounds(alpha, beta)
    x = rng.normal(true_diff, 1.0, size=(tests, look * looks)).reshape(tests, looks, look)
    sums = x.sum(axis=2).cumsum(axis=1)
    sqs = (x * x).sum(axis=2).cumsum(axis=1)
    h1 = h0 = 0
    for t in range(tests):
        for j in range(looks):
            n = look * (j + 1)
            mean = sums[t, j] / n
            var = (sqs[t, j] - n * mean * mean) / (n - 1)
            llr = sprt_llr(mean, var, n, delta)
            if llr >= upper:
                h1 += 1
                break
            if llr <= lower:
                h0 += 1
                break
    return h1 / tests, h0 / tests


def test_sprt_error_rates_hold_on_synthetic_pairs():
    rng = np.random.default_rng(2026)
    false_h1, _ = sequential(rng, 0.0, 0.05, 0.05, 0.05, tests=2000)
    _, false_h0 = sequential(rng, 0.05, 0.05, 0.05, 0.05, tests=2000)
    # Nominal 5% each; the binomial error of 2,000 tests is 0.5%.
    assert false_h1 <= 0.05 + 0.015
    assert false_h0 <= 0.05 + 0.015


def test_compare_until_stops_at_a_chunk_boundary_when_the_sprt_decides():
    until = Until.parse("made_rate", -0.05, 0.05, 0.05)
    df = compare([Rules(), Rules(undertrump="free")], 200_000, seed=6, until=until,
                 chunk_size=2000, bid_policy="threshold", play_policy="heuristic")
    sprt = df.attrs["provenance"]["sprt"]
    assert sprt["decision"] in ("H0", "H1")
    assert sprt["played"] < 200_000 and sprt["played"] % 2000 == 0
    assert df.attrs["provenance"]["played"] == sprt["played"]
    assert (sprt["llr"] >= sprt["upper"]) or (sprt["llr"] <= sprt["lower"])


# -- Runs, files and the command line --------------------------------------------------


def test_an_interrupted_comparison_resumes_to_the_same_table(tmp_path, undertrump):
    calls = {"n": 0}

    def stop() -> bool:
        calls["n"] += 1
        return calls["n"] >= 1

    with pytest.raises(RunInterrupted):
        compare([Rules(), Rules(undertrump="free")], DEALS, seed=3, chunk_size=1000,
                play_policy="heuristic", bid_policy="threshold", out=tmp_path / "c",
                should_stop=stop)
    again = compare([Rules(), Rules(undertrump="free")], DEALS, seed=3, chunk_size=1000,
                    play_policy="heuristic", bid_policy="threshold", out=tmp_path / "c",
                    resume=True)
    cols = ["metric", "group", "value", "diff", "diff_ci_low", "p_value"]
    pd.testing.assert_frame_equal(again[cols], undertrump[cols])
    table = load(tmp_path / "c").summary
    pd.testing.assert_frame_equal(table[cols], undertrump[cols])


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "belote_sim", *args],
                          capture_output=True, text=True, timeout=600)


def test_cli_compares_two_cells_and_summary_reads_it(tmp_path):
    out = tmp_path / "cmp"
    res = cli("compare", "--a", "classic", "--b", "classic", "--b-set", "undertrump=free",
              "--deals", "4000", "--seed", "2", "--bid-policy", "threshold",
              "--play-policy", "heuristic", "--out", str(out), "--quiet")
    assert res.returncode == 0, res.stderr
    assert "made_rate" in res.stdout and "mcnemar" in res.stdout
    assert (out / "compare.parquet").is_file()
    summary = cli("summary", str(out))
    assert summary.returncode == 0 and "made_rate" in summary.stdout


@pytest.mark.parametrize("args, message", [
    (["--rules", "classic", "--factor", "undertrumps=forced,free"], "unknown option"),
    (["--rules", "classic", "--factor", "undertrump=forced,free", "--factor",
      "undertrump=free,forced"], "given twice"),
    (["--rules", "classic", "--factor", "undertrump=forced,sometimes"], "undertrump"),
    (["--a", "classic", "--b", "classic", "--b-set", "all_no_trumps_round=on",
      "--b-set", "contract=stock"], "cell 'B classic"),
    (["--a", "classic", "--b", "litige", "--until", "made_rat", "--delta", "0.01"],
     "not a compared metric"),
])
def test_cli_refuses_bad_comparisons_with_one_line(tmp_path, args, message):
    res = cli("compare", *args, "--deals", "100", "--out", str(tmp_path / "x"))
    assert res.returncode == 2
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def _tango_by_brute_force(gained: int, lost: int, n: int, z: float = 1.959963984540054,
                          step: float = 1e-4) -> tuple[float, float]:
    """Tango's interval the slow way: for each difference on a grid, the constrained
    maximum of the likelihood found by scanning, then the differences whose score test
    does not reject."""
    kept = []
    for delta in np.arange(-1 + step, 1, step):
        q = np.linspace(max(0.0, -delta) + 1e-12, (1 - delta) / 2 - 1e-12, 4001)
        rest = 1 - 2 * q - delta
        ok = (q + delta > 0) & (rest > 0)
        q, rest = q[ok], rest[ok]
        if len(q) == 0:
            continue
        loglik = gained * np.log(q + delta) + lost * np.log(q) + (n - gained - lost) * np.log(
            rest)
        q21 = q[np.argmax(loglik)]
        score = (gained - lost - n * delta) / math.sqrt(n * (2 * q21 + delta * (1 - delta)))
        if abs(score) <= z:
            kept.append(delta)
    return min(kept), max(kept)


@pytest.mark.beside_warm
@pytest.mark.parametrize("gained, lost, n", [(0, 0, 200), (3, 0, 200), (5, 2, 300),
                                              (40, 15, 500), (0, 7, 150)])
def test_the_paired_rate_interval_is_tangos(gained, lost, n):
    from belote_sim.stats import paired_rate_interval

    low, high = paired_rate_interval(gained, lost, n)
    want_low, want_high = _tango_by_brute_force(gained, lost, n)
    assert low == pytest.approx(want_low, abs=3e-4)
    assert high == pytest.approx(want_high, abs=3e-4)
    assert low <= (gained - lost) / n <= high


def test_a_rate_no_deal_changes_is_bounded_by_the_deals_not_zero():
    """An A/A comparison: no deal differs, and the made rate's interval is the score
    interval's ±z²/(n+z²) over the n taken deals, not [0, 0]."""
    df = compare([Rules(), Rules()], 500, seed=3)
    row = df[(df.metric == "made_rate") & df["diff"].notna()].iloc[0]
    z2 = 1.959963984540054**2
    assert row["diff"] == 0 and row.test == "mcnemar"
    assert row.diff_ci_high == pytest.approx(z2 / (row.n + z2), rel=1e-6)
    assert row.diff_ci_low == pytest.approx(-row.diff_ci_high, rel=1e-6)


def test_a_score_no_deal_changes_is_bounded_by_the_deals_and_its_range():
    """An A/A comparison of a mean: no deal differs, and the interval is ± Tango's share
    for no discordant deal times the range the scores span times deals over played
    deals, not [0, 0]; an effect of a factorial that changes no deal likewise."""
    df = compare([Rules(), Rules(round_up_from=6)], 500, seed=3)  # no rounding in classic
    row = df[(df.metric == "mean_taker_deal_score") & df["diff"].notna()].iloc[0]
    base = df[(df.metric == "mean_taker_deal_score") & (df.kind == "cell")].iloc[0]
    played = base.n
    z2 = 1.959963984540054**2
    # the same deals as the comparison's first cell: its seed and default players
    seen = simulate(Rules(), 500, seed=3).histograms().query(
        "histogram == 'taker_deal_score'").value
    span = seen.max() - seen.min()
    assert row["diff"] == 0
    assert row.diff_ci_high == pytest.approx(z2 / (500 + z2) * span * 500 / played, rel=1e-6)
    assert row.diff_ci_low == -row.diff_ci_high
    cells = factorial_cells("classic", {}, [("round_up_from", ["5", "6"]),
                                            ("undertrump", ["forced", "free"])])
    effects = compare(cells, 500, seed=3, factors=[("round_up_from", ["5", "6"]),
                                                   ("undertrump", ["forced", "free"])])
    main = effects[(effects.metric == "made_rate") & (effects.kind == "main effect")
                   & effects.cell.str.startswith("round_up_from")].iloc[0]
    assert main["diff"] == 0 and 0 < main.diff_ci_high == -main.diff_ci_low
