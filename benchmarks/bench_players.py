"""The double-dummy solver and the players: times on one core.

Run with ``make bench`` (or ``python benchmarks/bench_players.py [--deals N]``):

- exact double-dummy value from the start of a classic deal, for each of the four suit
  trumps (taker seat 0, seat 0 leads): mean, median and 95th percentile time, nodes per
  second;
- the make/fail query "can the takers reach 82" on the same positions;
- time per decision of ``pimc:20`` (and of ``heuristic`` beside it), from the arena's
  in-kernel timing, over whole deals;
- the same deals through the ``colver`` package when it is installed (a peer solver
  for coinche), else a note that it is not.

Writes ``results/bench_players.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from belote_sim import Rules  # noqa: E402
from belote_sim.arena import arena  # noqa: E402
from belote_sim.kernels import dd  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def random_deals(n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        order = rng.permutation(32)
        hands = np.zeros(4, dtype=np.int64)
        for s in range(4):
            for c in order[8 * s : 8 * s + 8]:
                hands[s] |= 1 << int(c)
        out.append(hands)
    return out


def solve_all(deals: list[np.ndarray], query: int | None) -> dict:
    rules = Rules().to_array()
    cx = dd.new_context()
    tt = dd.new_table(20)
    ws = dd.new_workspace()
    trick = np.zeros(4, dtype=np.int64)
    times = []
    nodes = 0
    values = []
    for hands in deals:
        for trump in range(4):
            dd.set_context(cx, rules, trump, 0, dd.OPT_ALL)
            cx[dd.CX_NODES] = 0
            t0 = time.perf_counter()
            if query is None:
                v = dd.dd_value(rules, cx, tt, ws, hands, trick, 0, 0, 1, 81)
            else:
                v = dd.dd_reaches(rules, cx, tt, ws, hands, trick, 0, 0, 1, query)
            times.append(time.perf_counter() - t0)
            nodes += int(cx[dd.CX_NODES])
            values.append(int(v))
    t = np.array(times)
    return {
        "solves": len(times),
        "mean_ms": float(t.mean() * 1e3),
        "median_ms": float(np.median(t) * 1e3),
        "p95_ms": float(np.percentile(t, 95) * 1e3),
        "nodes_per_second": nodes / float(t.sum()),
        "values": values,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=25, help="deals for the solver timings")
    parser.add_argument("--pimc-deals", type=int, default=2, help="deals for the pimc timing")
    args = parser.parse_args()
    solve_all(random_deals(1, 0), None)  # compile or load
    deals = random_deals(args.deals, 1)
    exact = solve_all(deals, None)
    query = solve_all(deals, 82)
    print(f"double-dummy exact value, {exact['solves']} (deal, trump) from the start, 1 core:")
    print(
        f"  mean {exact['mean_ms']:.1f} ms, median {exact['median_ms']:.1f} ms, "
        f"p95 {exact['p95_ms']:.1f} ms, {exact['nodes_per_second'] / 1e6:.1f} M nodes/s"
    )
    print(
        f"make/fail query (takers >= 82): mean {query['mean_ms']:.2f} ms, median "
        f"{query['median_ms']:.2f} ms, p95 {query['p95_ms']:.2f} ms "
        f"({exact['mean_ms'] / query['mean_ms']:.1f} x faster than the exact value)"
    )
    res = arena("pimc:20", "heuristic", deals=args.pimc_deals, matches=0, seed=1)
    pimc_s, heur_s = res.seconds_per_decision
    print(
        f"time per decision: pimc:20 {pimc_s * 1e3:.1f} ms over {res.decisions[0]} decisions,"
        f" heuristic {heur_s * 1e6:.2f} µs"
    )
    peer = importlib.util.find_spec("colver") is not None
    print("colver:", "installed, comparison not written yet" if peer else "not installed")
    out = ROOT / "results" / "bench_players.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({
        "exact": {k: v for k, v in exact.items() if k != "values"},
        "query82": {k: v for k, v in query.items() if k != "values"},
        "pimc20_seconds_per_decision": pimc_s,
        "heuristic_seconds_per_decision": heur_s,
        "colver_installed": peer,
    }, indent=2) + "\n")


if __name__ == "__main__":
    main()
