"""Deals per second for every preset with random bidding and play (all threads).

Run with ``make bench`` (or ``python benchmarks/bench_presets.py [--deals N]``). Each
preset's rate is the best of 3 repeats, shown beside its ratio to classic measured in the
same run, and for the club rulebooks (RULES.md section 10, coinche games) beside its
ratio to ``coinche``, whose target is :data:`TARGET_VS_COINCHE`. Writes
``results/bench_presets.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numba

from belote_sim import PRESETS, Rules
from belote_sim.players.seating import players_of
from belote_sim.players.spec import PolicySpec
from belote_sim.rules import RULEBOOK_SOURCES
from belote_sim.runner.executors import Chunk, run_chunk
from belote_sim.studies.simulate import DealsTask

ROOT = Path(__file__).resolve().parent.parent
#: A club rulebook plays at no less than this share of ``coinche``'s rate.
TARGET_VS_COINCHE = 0.9


def _task(rules: Rules, n: int) -> DealsTask:
    players = players_of(PolicySpec.parse("random", "bid"), PolicySpec.parse("random", "play"),
                         rules.to_array())
    return DealsTask(Chunk(0, "deals", 0, n), None, tuple(int(x) for x in rules.to_array()),
                     players, seed=1, records=False)


def rate(rules: Rules, n: int, repeats: int = 3) -> float:
    run_chunk(_task(rules, 1000))  # compile or load
    task = _task(rules, n)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        run_chunk(task)
        best = min(best, time.perf_counter() - t0)
    return n / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    args = parser.parse_args()
    rates = {name: rate(Rules.from_preset(name), args.deals) for name in PRESETS}
    base, coinche = rates["classic"], rates["coinche"]
    print(f"{'preset':<18}{'deals/s':>14}  vs classic  vs coinche "
          f"(target {TARGET_VS_COINCHE:g})  ({numba.get_num_threads()} threads)")
    for name, r in rates.items():
        beside = f"  {r / coinche:.2f} x" if name in RULEBOOK_SOURCES else ""
        print(f"{name:<18}{r:>14,.0f}  {r / base:.2f} x{beside}")
    out = ROOT / "results" / "bench_presets.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"deals": args.deals, "deals_per_second": rates,
                               "rulebooks": list(RULEBOOK_SOURCES),
                               "target_vs_coinche": TARGET_VS_COINCHE}, indent=2) + "\n")


if __name__ == "__main__":
    main()
