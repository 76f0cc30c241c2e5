"""Comparisons: their speed, and whether their paired intervals cover.

Run with ``make bench`` (or ``python benchmarks/bench_compare.py [--repeats N]``):

- speed: ``compare`` of classic against ``undertrump=free`` (threshold bidding,
  heuristic play, 400,000 deals, two cells) against one ``simulate`` of the same deals,
  timed in 5 adjacent pairs, the median of their ratios (target: the comparison costs at
  most 2.3x the one simulate; two cells play every deal twice, so 2x is the floor, and
  the rest is the pairing: every deal's paired values multiplied and summed);
- coverage: ``--repeats`` comparisons (default 500) of 1,000 deals each with different
  seeds; the share whose paired 95% interval holds the true difference, taken from one
  comparison of 4,000,000 deals (target 95% +- 2%), for ``made_rate`` (a yes/no rate
  over the same taken deals in both cells: Tango's score interval) and
  ``mean_taker_card_points`` (a mean); realistic players (``--coverage-players
  random`` for random ones);
- the sequential test: ``--sprt-runs`` comparisons (default 20, seeds 0, 1, ...) of
  ``undertrump=forced`` against ``free`` under threshold bidding and heuristic play with
  ``until`` on ``dedans_rate`` at delta 0.005 (half a percentage point), looked at every
  1,000 deals: the decisions, the mean and range of the deals they used, and the
  variance reduction of the paired dedans-rate difference in one 400,000-deal run.

Writes ``results/bench_compare.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from belote_sim import Rules, simulate
from belote_sim.stats import wilson_interval
from belote_sim.studies.compare import Until, compare

ROOT = Path(__file__).resolve().parent.parent
CELLS = [Rules(), Rules(undertrump="free")]
METRICS = ("made_rate", "mean_taker_card_points")


SPEED_TARGET = 2.3  # compare's time over one simulate's, two cells


def _seconds(run) -> float:
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


def speed(deals: int, repeats: int = 5) -> dict[str, float]:
    """Compare and simulate timed in adjacent pairs, the ratio the median of the pairs'
    (the machine's speed drifts by 20% within minutes: only neighbours compare)."""
    players = PLAYERS["realistic"]
    compare(CELLS, 2000, seed=1, **players)  # compile or load
    simulate(CELLS[0], 2000, seed=1, **players)
    paired, plain = [], []
    for _ in range(repeats):
        paired.append(_seconds(lambda: compare(CELLS, deals, seed=1, **players)))
        plain.append(_seconds(lambda: simulate(CELLS[0], deals, seed=1, **players)))
    ratios = [a / b for a, b in zip(paired, plain, strict=True)]
    return {"compare_deals_per_s": deals / statistics.median(paired),
            "simulate_deals_per_s": deals / statistics.median(plain),
            "compare_over_simulate": statistics.median(ratios),
            "ratios": ratios, "target": SPEED_TARGET}


#: The players of the runs: realistic (threshold bidding, heuristic play, compare's
#: default) and random.
PLAYERS = {
    "realistic": {"bid_policy": "threshold", "play_policy": "heuristic"},
    "random": {"bid_policy": "random", "play_policy": "random"},
}
#: The coverage check's players by default: realistic, under whom most deals of 1,000
#: play the same in both cells, the case a paired interval finds hardest (a rate's
#: difference then takes Tango's score interval, stats.paired_rate_interval).
COVERAGE_PLAYERS = "realistic"


def coverage(repeats: int, deals: int, truth_deals: int,
             players: str = COVERAGE_PLAYERS) -> dict[str, dict[str, float]]:
    kw = PLAYERS[players]
    truth = compare(CELLS, truth_deals, seed=10**9, **kw)
    true_diff = {m: float(truth[(truth.metric == m) & truth["diff"].notna()]["diff"].iloc[0])
                 for m in METRICS}
    hits = dict.fromkeys(METRICS, 0)
    for seed in range(repeats):
        df = compare(CELLS, deals, seed=seed, **kw)
        for m in METRICS:
            row = df[(df.metric == m) & df["diff"].notna()].iloc[0]
            hits[m] += row.diff_ci_low <= true_diff[m] <= row.diff_ci_high
    out = {}
    for m in METRICS:
        lo, hi = wilson_interval(hits[m], repeats)
        out[m] = {"true_difference": true_diff[m], "coverage": hits[m] / repeats,
                  "coverage_low": lo, "coverage_high": hi}
    return out


def sequential(runs: int) -> dict:
    players = PLAYERS["realistic"]
    until = Until.parse("dedans_rate", 0.005, 0.05, 0.05)
    used, decisions = [], []
    for seed in range(runs):
        df = compare(CELLS, 2_000_000, seed=seed, until=until, chunk_size=1000, **players)
        sprt = df.attrs["provenance"]["sprt"]
        used.append(sprt["played"])
        decisions.append(sprt["decision"])
    full = compare(CELLS, 400_000, seed=10**6, **players)
    row = full[(full.metric == "dedans_rate") & full["diff"].notna()].iloc[0]
    return {"delta": until.delta, "runs": runs, "deals_used": used, "decisions": decisions,
            "mean_deals": statistics.mean(used), "dedans_difference_400k": float(row["diff"]),
            "dedans_difference_ci": [float(row.diff_ci_low), float(row.diff_ci_high)],
            "variance_reduction": float(row.variance_reduction)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=500)
    parser.add_argument("--deals", type=int, default=400_000)
    parser.add_argument("--sprt-runs", type=int, default=20)
    parser.add_argument("--coverage-players", choices=sorted(PLAYERS),
                        default=COVERAGE_PLAYERS)
    args = parser.parse_args()
    figures: dict = speed(args.deals)
    verdict = "ok" if figures["compare_over_simulate"] <= SPEED_TARGET else "MISSED"
    print(f"compare, 2 cells, threshold + heuristic: {figures['compare_deals_per_s']:,.0f} "
          f"deals/s (each under both cells); one simulate: "
          f"{figures['simulate_deals_per_s']:,.0f} deals/s; compare costs "
          f"{figures['compare_over_simulate']:.2f}x one simulate (target <= "
          f"{SPEED_TARGET}: {verdict})")
    t0 = time.perf_counter()
    figures["coverage"] = coverage(args.repeats, 1000, 4_000_000, args.coverage_players)
    figures["coverage_players"] = args.coverage_players
    for m, c in figures["coverage"].items():
        print(f"coverage of the paired 95% interval, {m}: {c['coverage']:.3f} "
              f"[{c['coverage_low']:.3f}, {c['coverage_high']:.3f}] over {args.repeats} "
              f"comparisons of 1,000 deals (true difference {c['true_difference']:+.5f}; "
              "target 0.95 +- 0.02)")
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    t0 = time.perf_counter()
    sq = figures["sequential"] = sequential(args.sprt_runs)
    counts = {d: sq["decisions"].count(d) for d in sorted(set(sq["decisions"]))}
    print(f"SPRT, dedans_rate, undertrump forced vs free, delta {sq['delta']}: decisions "
          f"{counts}; deals used mean {sq['mean_deals']:,.0f} (min {min(sq['deals_used']):,}, "
          f"max {max(sq['deals_used']):,}) over {sq['runs']} seeds; the difference over "
          f"400,000 deals {sq['dedans_difference_400k']:+.5f} "
          f"[{sq['dedans_difference_ci'][0]:+.5f}, {sq['dedans_difference_ci'][1]:+.5f}], "
          f"variance reduction {sq['variance_reduction']:.1f}")
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    out = ROOT / "results" / "bench_compare.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
