"""Bid strength: the time of one decision, as a user meets it.

Run with ``make bench`` (or ``python benchmarks/bench_strength.py [--dd-worlds N]``):

- ``belote-sim bid-strength`` with 10,000 worlds and the heuristic model, start-up
  included (the command run as a subprocess, warm kernel cache), target under 2 s;
- in-process: 10,000 worlds heuristic (the kernel alone), 200 worlds ``fastpimc:20``
  (target under 60 s);
- the double-dummy answer to a decision near the take threshold (``--hand "JH 9H 7D 8C
  KS" --retourne TH --seat 1 --dealer 0 --models dd``), ``--dd-worlds`` worlds (default
  2,000), the command as a subprocess, start-up included (target under 20 s);
- the bid atlas of 100,000 classic deals with the heuristic model: the deals it plays
  per second (each deal, then per decision the pass and every candidate) against the
  plain ``simulate`` rate of the same players in the same run (target at least 0.4);
- the ``table`` bidder: ``simulate`` with it and heuristic play against threshold
  bidding, 300,000 deals each, timed in 5 adjacent pairs, the median ratio (its atlas
  lookup's cost).

Writes ``results/bench_strength.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from belote_sim import Rules, simulate
from belote_sim.studies.atlas import bid_table
from belote_sim.studies.bid_strength import bid_strength

ROOT = Path(__file__).resolve().parent.parent
HAND, RETOURNE = "JH 9H AH 7D 8C", "TH"
#: A hand near the take threshold, seat 1 after dealer 0: the double-dummy decision.
DD_DECISION = ["--hand", "JH 9H 7D 8C KS", "--retourne", "TH", "--seat", "1", "--dealer", "0"]


def timed(models: str, worlds: int) -> float:
    t0 = time.perf_counter()
    bid_strength("classic", HAND, retourne=RETOURNE, worlds=worlds, models=models, seed=1)
    return time.perf_counter() - t0


def table_against_threshold(deals: int = 300_000, repeats: int = 5
                            ) -> tuple[float, float, float]:
    """``simulate`` with threshold and with table bidding (heuristic play) timed in
    adjacent pairs: both rates (medians) and the median of the pairs' ratios (the
    machine's speed drifts within minutes: only neighbours compare)."""
    simulate(Rules(), deals=1000, bid_policy="table", play_policy="heuristic")
    rates: dict[str, list[float]] = {"threshold": [], "table": []}
    for _ in range(repeats):
        for bid in rates:
            t0 = time.perf_counter()
            simulate(Rules(), deals=deals, bid_policy=bid, play_policy="heuristic")
            rates[bid].append(deals / (time.perf_counter() - t0))
    ratios = [a / b for a, b in zip(rates["table"], rates["threshold"], strict=True)]
    return (statistics.median(rates["threshold"]), statistics.median(rates["table"]),
            statistics.median(ratios))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dd-worlds", type=int, default=2000)
    args = parser.parse_args()
    timed("heuristic,fastpimc:1,dd", 2)  # compile or load
    simulate(Rules(), deals=1000, bid_policy="threshold", play_policy="heuristic")
    command = [sys.executable, "-m", "belote_sim", "bid-strength", "--hand", HAND,
               "--retourne", RETOURNE, "--worlds", "10000", "--quiet"]
    t0 = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    cli = time.perf_counter() - t0
    heuristic = timed("heuristic", 10_000)
    fastpimc = timed("fastpimc:20", 200)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "belote_sim", "bid-strength", *DD_DECISION,
                    "--models", "dd", "--worlds", str(args.dd_worlds), "--quiet"],
                   check=True, capture_output=True)
    dd = time.perf_counter() - t0
    plain, table, ratio = table_against_threshold()
    bid_table("classic", 2_000, seed=1)  # compile or load
    t0 = time.perf_counter()
    atlas = bid_table("classic", 100_000, seed=1)
    atlas_s = time.perf_counter() - t0
    # Round 1 puts one candidate (take) to the test, round 2 three suits: a decision
    # plays its pass and its candidates, a deal its own auction first.
    round_one = int(atlas[atlas["round"] == 1].n.sum())
    round_two = int(atlas[atlas["round"] == 2].n.sum())
    played = 100_000 + round_one * 2 + round_two + round_two // 3
    atlas_rate = played / atlas_s
    figures = {
        "cli_10000_worlds_heuristic_s": cli,
        "heuristic_10000_worlds_s": heuristic,
        "fastpimc20_200_worlds_s": fastpimc,
        "dd_worlds": args.dd_worlds,
        "dd_command_s": dd,
        "simulate_threshold_heuristic_deals_per_s": plain,
        "strength_heuristic_worlds_per_s": 10_000 / heuristic,
        "atlas_100000_deals_s": atlas_s,
        "atlas_deals_played_per_s": atlas_rate,
        "atlas_to_simulate_ratio": atlas_rate / plain,
        "simulate_table_heuristic_deals_per_s": table,
        "table_to_threshold_ratio": ratio,
    }
    print(f"bid-strength, one classic decision ({HAND}, retourne {RETOURNE}):")
    print(f"  command, 10,000 worlds, heuristic, start-up included {cli:8.2f} s  (target < 2 s)")
    print(f"  in-process, 10,000 worlds, heuristic                 {heuristic:8.2f} s  "
          f"({10_000 / heuristic:,.0f} worlds/s; simulate plays {plain:,.0f} deals/s)")
    print(f"  200 worlds, fastpimc:20                             {fastpimc:8.2f} s  "
          "(target < 60 s)")
    print(f"  command, {args.dd_worlds:,} worlds, dd ({' '.join(DD_DECISION[:2])}...)"
          f" {dd:8.2f} s  (target < 20 s)")
    print(f"bid-table, 100,000 classic deals, heuristic               {atlas_s:8.2f} s  "
          f"({atlas_rate:,.0f} deals played/s, {atlas_rate / plain:.2f} x simulate's "
          f"{plain:,.0f}; target >= 0.4)")
    print(f"simulate, table bidder, heuristic play     {table:12,.0f} deals/s  "
          f"({ratio:.2f} x threshold bidding's {plain:,.0f}, median of 5 adjacent pairs)")
    out = ROOT / "results" / "bench_strength.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
