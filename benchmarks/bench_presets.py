"""Deals per second for every preset with random bidding and play (all threads).

Run with ``make bench`` (or ``python benchmarks/bench_presets.py [--deals N]
[--rounds R]``). The presets are measured in rounds, each round every preset once, in
alternating order (the machine's speed drifts over minutes, which would otherwise favour
the presets measured first): a preset's rate is its best round, shown beside its ratio
to classic and, for the club rulebooks (RULES.md section 10, coinche games), to
``coinche``, whose target is :data:`TARGET_VS_COINCHE`; each ratio the median over the
rounds of the two rates of one round. Writes ``results/bench_presets.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
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


def rates_by_round(presets: list[str], n: int, rounds: int) -> dict[str, list[float]]:
    """Each preset's deals per second in each of ``rounds`` rounds of ``n`` deals."""
    tasks = {}
    for name in presets:
        rules = Rules.from_preset(name)
        run_chunk(_task(rules, 1000))  # compile or load
        tasks[name] = _task(rules, n)
    rates: dict[str, list[float]] = {name: [] for name in presets}
    for k in range(rounds):
        for name in presets if k % 2 == 0 else reversed(presets):
            t0 = time.perf_counter()
            run_chunk(tasks[name])
            rates[name].append(n / (time.perf_counter() - t0))
    return rates


def ratio(rates: dict[str, list[float]], name: str, base: str) -> float:
    """The median over the rounds of ``name``'s rate over ``base``'s in the same round."""
    return statistics.median(a / b for a, b in zip(rates[name], rates[base], strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    by_round = rates_by_round(list(PRESETS), args.deals, args.rounds)
    rates = {name: max(r) for name, r in by_round.items()}
    print(f"{'preset':<18}{'deals/s':>14}  vs classic  vs coinche "
          f"(target {TARGET_VS_COINCHE:g})  ({numba.get_num_threads()} threads, "
          f"best of {args.rounds} rounds; ratios: medians of each round's)")
    vs_coinche = {}
    for name, r in rates.items():
        beside = ""
        if name in RULEBOOK_SOURCES:
            vs_coinche[name] = ratio(by_round, name, "coinche")
            beside = f"  {vs_coinche[name]:.2f} x"
        print(f"{name:<18}{r:>14,.0f}  {ratio(by_round, name, 'classic'):.2f} x{beside}")
    out = ROOT / "results" / "bench_presets.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"deals": args.deals, "rounds": args.rounds,
                               "deals_per_second": rates,
                               "vs_classic": {n: ratio(by_round, n, "classic") for n in rates},
                               "vs_coinche": vs_coinche,
                               "rulebooks": list(RULEBOOK_SOURCES),
                               "target_vs_coinche": TARGET_VS_COINCHE}, indent=2) + "\n")


if __name__ == "__main__":
    main()
