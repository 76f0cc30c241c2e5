"""Comparisons: their speed, and whether their paired intervals cover.

Run with ``make bench`` (or ``python benchmarks/bench_compare.py [--repeats N]``):

- speed: ``compare`` of classic against ``undertrump=free`` (threshold bidding,
  heuristic play, 400,000 deals, two cells) against ``simulate`` playing the same deals
  once per cell, in the same run (the pairing's cost: every deal's counters summed and
  its paired values multiplied);
- coverage: ``--repeats`` comparisons (default 500) of 1,000 deals each with different
  seeds; the share whose paired 95% interval holds the true difference, taken from one
  comparison of 4,000,000 deals (target 95% +- 2%), for ``made_rate`` (a ratio,
  linearised) and ``mean_taker_card_points`` (a mean); random players.

Writes ``results/bench_compare.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from belote_sim import Rules, simulate
from belote_sim.runs.compare import compare
from belote_sim.runs.stats import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
CELLS = [Rules(), Rules(undertrump="free")]
METRICS = ("made_rate", "mean_taker_card_points")


def speed(deals: int) -> dict[str, float]:
    players = {"bid_policy": "threshold", "play_policy": "heuristic"}
    compare(CELLS, 2000, seed=1, **players)  # compile or load
    simulate(CELLS[0], 2000, seed=1, **players)
    t0 = time.perf_counter()
    compare(CELLS, deals, seed=1, **players)
    paired = time.perf_counter() - t0
    t0 = time.perf_counter()
    for rules in CELLS:
        simulate(rules, deals, seed=1, **players)
    plain = time.perf_counter() - t0
    return {"compare_deals_per_s": deals / paired, "simulate_twice_deals_per_s": deals / plain,
            "compare_to_simulate_ratio": plain / paired}


def coverage(repeats: int, deals: int, truth_deals: int) -> dict[str, dict[str, float]]:
    truth = compare(CELLS, truth_deals, seed=10**9)
    true_diff = {m: float(truth[(truth.metric == m) & truth["diff"].notna()]["diff"].iloc[0])
                 for m in METRICS}
    hits = dict.fromkeys(METRICS, 0)
    for seed in range(repeats):
        df = compare(CELLS, deals, seed=seed)
        for m in METRICS:
            row = df[(df.metric == m) & df["diff"].notna()].iloc[0]
            hits[m] += row.diff_ci_low <= true_diff[m] <= row.diff_ci_high
    out = {}
    for m in METRICS:
        lo, hi = wilson_interval(hits[m], repeats)
        out[m] = {"true_difference": true_diff[m], "coverage": hits[m] / repeats,
                  "coverage_low": lo, "coverage_high": hi}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=500)
    parser.add_argument("--deals", type=int, default=400_000)
    args = parser.parse_args()
    figures: dict = speed(args.deals)
    print(f"compare, 2 cells, threshold + heuristic: {figures['compare_deals_per_s']:,.0f} "
          f"deals/s (each under both cells); simulate twice: "
          f"{figures['simulate_twice_deals_per_s']:,.0f} deals/s; ratio "
          f"{figures['compare_to_simulate_ratio']:.2f}")
    t0 = time.perf_counter()
    figures["coverage"] = coverage(args.repeats, 1000, 4_000_000)
    for m, c in figures["coverage"].items():
        print(f"coverage of the paired 95% interval, {m}: {c['coverage']:.3f} "
              f"[{c['coverage_low']:.3f}, {c['coverage_high']:.3f}] over {args.repeats} "
              f"comparisons of 1,000 deals (true difference {c['true_difference']:+.5f}; "
              "target 0.95 +- 0.02)")
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    out = ROOT / "results" / "bench_compare.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
