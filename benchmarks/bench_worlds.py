"""Worlds given the auction: what reading the calls costs, as a user meets it.

Run with ``make bench`` (or ``python benchmarks/bench_worlds.py [--deals N]``), in one
sitting:

- ``belote-sim bid-strength --rules coinche --calls "80H pass"`` with 10,000 worlds under
  heuristic play, start-up included (the command run as a subprocess, warm kernel
  cache), target under 3 s; the same with uniform worlds beside it;
- the same with four earlier calls (``pass 80S 90H pass``), target under 10 s;
- ``fastpimc:20`` with worlds given the calls against ``fastpimc:20:uniform`` on the same
  deals (the arena, sides swapped), coinche and classic: each one's time per decision
  and the ratio, target at most 1.5; the share of worlds drawn that give the calls.

Writes ``results/bench_worlds.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from belote_sim import Rules
from belote_sim.studies.arena import arena
from belote_sim.studies.bid_strength import bid_strength

ROOT = Path(__file__).resolve().parent.parent
#: (the decision, the target in seconds)
POSITIONS = (
    ({"rules": "coinche", "hand": "AH TH 7H AS TS 8C 9D 7D", "seat": 2, "dealer": 3,
      "calls": "80H pass"}, 3.0),
    ({"rules": "coinche", "hand": "7H 8H AS 7C 8C 9D TD 7S", "seat": 0, "dealer": 3,
      "calls": "pass 80S 90H pass"}, 10.0),
)
WORLDS = 10_000


def command_seconds(position: dict, given: str) -> float:
    """Wall time of ``belote-sim bid-strength`` at ``position`` with 10,000 worlds and
    ``--worlds-given GIVEN``, start-up included (best of 2)."""
    flags = [x for key, value in position.items() for x in (f"--{key}", str(value))]
    command = [sys.executable, "-m", "belote_sim", "bid-strength", *flags, "--worlds",
               str(WORLDS), "--worlds-given", given, "--quiet"]
    best = float("inf")
    for _ in range(2):
        t0 = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300,
                        help="arena deals per preset for the time per decision")
    args = parser.parse_args()
    bid_strength("coinche", "AH TH 7H AS TS 8C 9D 7D", seat=2, dealer=3, calls="80H pass",
                 worlds=10)  # compile or load
    figures: dict[str, object] = {"strength": [], "pimc": []}
    print(f"bid-strength, {WORLDS:,} worlds, heuristic, start-up included (best of 2):")
    for position, target in POSITIONS:
        label = f"{position['rules']}, {position['calls']}"
        given = command_seconds(position, "calls")
        uniform = command_seconds(position, "uniform")
        df = bid_strength(**position, worlds=1000)
        accept = float(df[df.metric == "world_acceptance"].value.iloc[0])
        figures["strength"].append({"position": label, "given_s": given, "uniform_s": uniform,
                                    "acceptance": accept, "target_s": target})
        print(f"  {label:28s} given the calls {given:6.2f} s (target < {target:g} s), "
              f"uniform {uniform:6.2f} s; {accept:.1%} of packs give the calls")
    print(f"fastpimc:20, worlds given the calls against uniform worlds, {args.deals} deals "
          "played twice (sides swapped):")
    for preset in ("coinche", "classic"):
        arena("fastpimc:20", "fastpimc:1:uniform", rules=Rules.from_preset(preset), deals=2,
              matches=0)  # compile or load
        r = arena("fastpimc:20", "fastpimc:20:uniform", rules=Rules.from_preset(preset),
                  deals=args.deals, matches=0, seed=1)
        given, uniform = r.seconds_per_decision
        figures["pimc"].append({
            "preset": preset, "deals": args.deals, "given_ms": given * 1e3,
            "uniform_ms": uniform * 1e3, "ratio": given / uniform,
            "acceptance": r.world_acceptance(0), "worlds_short": r.worlds_short[0],
            "worlds_given": r.worlds_given[0],
        })
        print(f"  {preset:8s} given {given * 1e3:.2f} ms, uniform {uniform * 1e3:.2f} ms per "
              f"decision: {given / uniform:.2f} x (target <= 1.5); "
              f"{r.world_acceptance(0):.1%} of worlds drawn give the calls, "
              f"{r.worlds_short[0]:,} short of {r.worlds_short[0] + r.worlds_given[0]:,} asked")
    out = ROOT / "results" / "bench_worlds.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
