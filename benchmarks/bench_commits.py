"""Engine speed of other commits beside this tree's, in one sitting.

``python benchmarks/bench_commits.py COMMIT [COMMIT ...]`` checks each commit out in a
temporary git worktree and measures, in a fresh process per tree (compile first, then
warm): classic deals per second with random play, random bidding with heuristic play,
and threshold bidding with heuristic play, each the median of 5 runs of 300,000 deals
on all threads (``--threads 1``: on one), through the public ``simulate``. It prints
each tree's rates and this tree's ratio to each commit. The machine is shared and
noisy: only figures of the same sitting are compared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEALS = 300_000
REPEATS = 5

PROBE = f"""
import json, statistics, time
from belote_sim import Rules, simulate
out = {{}}
for name, kw in (("random", {{"bid_policy": "random", "play_policy": "random"}}),
                 ("heuristic", {{"bid_policy": "random", "play_policy": "heuristic"}}),
                 ("threshold+heuristic", {{"bid_policy": "threshold",
                                           "play_policy": "heuristic"}})):
    simulate(Rules(), deals=20_000, seed=1, **kw)  # compile or load
    rates = []
    for _ in range({REPEATS}):
        t0 = time.perf_counter()
        simulate(Rules(), deals={DEALS}, seed=1, **kw)
        rates.append({DEALS} / (time.perf_counter() - t0))
    out[name] = statistics.median(rates)
print(json.dumps(out))
"""


def rates(tree: Path, threads: int) -> dict[str, float]:
    """The probe's rates for the package in ``tree`` on ``threads`` threads (0: all)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if threads:
        env["NUMBA_NUM_THREADS"] = str(threads)
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commits", nargs="+", help="commits to measure beside this tree")
    parser.add_argument("--threads", type=int, default=0,
                        help="threads of each probe (default: all the machine's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for commit in args.commits:
            path = Path(tmp) / commit
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q",
                            str(path), commit], check=True)
            trees[commit] = path
        trees["this tree"] = ROOT
        try:
            results = {}
            for name, tree in trees.items():
                results[name] = rates(tree, args.threads)
                shown = ", ".join(f"{k} {v:,.0f}" for k, v in results[name].items())
                print(f"{name:<12} deals/s: {shown}", flush=True)
        finally:
            for commit in args.commits:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(trees[commit])], check=False)
    mine = results["this tree"]
    for name in args.commits:
        ratios = ", ".join(f"{k} {mine[k] / v:.2f}x" for k, v in results[name].items())
        print(f"this tree / {name}: {ratios}")


if __name__ == "__main__":
    main()
