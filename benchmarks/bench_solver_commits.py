"""Solver speed of another commit beside this tree's, both measured at the same time.

``python benchmarks/bench_solver_commits.py COMMIT [--rounds N]`` checks ``COMMIT`` out
in a temporary git worktree and times, in a fresh process per tree and round, the
solver queries of ``bench_players.py`` on positions of that tree's own benchmark:
the exact value of 10 random deals under each suit trump, the make/fail query (>= 82)
on the same positions, and every card's value at the first lead of 20 bid deals (mean
time a solve, the min of 3 passes; nodes; a hash of the values); and, with
``--fastpimc``, the time per decision of ``fastpimc:20:uniform`` in an arena of
:data:`FASTPIMC_DEALS` deals against the heuristic (the min of 3 passes; its
decisions; a hash of its scores, the same when the two trees play the same cards). The
two trees run at the same time, one per core (``taskset``), and swap cores every round:
the machine is shared and its speed drifts within minutes, and what drifts then weighs
on both alike.
It prints each round's times, the ratio of the minima (this tree over the commit) and
whether the values are the same.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``--fastpimc``: the deals of the arena whose decisions are timed.
FASTPIMC_DEALS = 60

PROBE = """
import hashlib, json, os, sys
os.environ["NUMBA_NUM_THREADS"] = "1"
tree = sys.argv[1]
sys.path[:0] = [tree, tree + "/benchmarks"]
import bench_players as bp
import belote_sim
from belote_sim.studies.arena import arena
assert belote_sim.__file__.startswith(tree), belote_sim.__file__
warm = bp.every_trump(bp.random_deals(1, 0))
bp.solve_all(warm, None); bp.solve_all(warm, 82); bp.solve_all(warm, None, every_card=True)
positions = bp.every_trump(bp.random_deals(10, 1))
bid = bp.bid_deals(20, 99)
out = {}
for name, args in (("exact", (positions, None)), ("make/fail", (positions, 82)),
                   ("every card, bid deals", (bid, None, True))):
    runs = [bp.solve_all(*args) for _ in range(3)]
    values = hashlib.md5(str(runs[0]["values"]).encode()).hexdigest()
    out[name] = [min(r["mean_ms"] for r in runs), runs[0]["nodes"], values]
if int(sys.argv[2]) > 0:  # the arena's deals (0: no arena)
    runs = [arena("fastpimc:20:uniform", "heuristic", deals=int(sys.argv[2]), matches=0,
                  seed=2)
            for _ in range(3)]
    scores = hashlib.md5(str([runs[0].a_mean, runs[0].b_mean]).encode()).hexdigest()
    out["fastpimc:20 decision"] = [min(r.seconds_per_decision[0] for r in runs) * 1e3,
                                   runs[0].decisions[0], scores]
print(json.dumps(out))
"""


def _start(tree: Path, core: int, arena_deals: int) -> subprocess.Popen:
    return subprocess.Popen(["taskset", "-c", str(core), sys.executable, "-c", PROBE,
                             str(tree), str(arena_deals)], cwd=tree,
                            stdout=subprocess.PIPE, text=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="the commit to measure beside this tree")
    parser.add_argument("--rounds", type=int, default=4, help="rounds (cores swapped)")
    parser.add_argument("--fastpimc", action="store_true",
                        help="time fastpimc:20 decisions too (an arena of "
                             f"{FASTPIMC_DEALS} deals)")
    args = parser.parse_args()
    arena_deals = FASTPIMC_DEALS if args.fastpimc else 0
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q",
                        str(other), args.commit], check=True)
        trees = {args.commit: other, "this tree": ROOT}
        try:
            for tree in trees.values():  # compile or load each tree's kernels first
                subprocess.run([sys.executable, "-c", PROBE, str(tree),
                                str(arena_deals)], cwd=tree, check=True,
                               capture_output=True)
            results: dict[str, list[dict]] = {name: [] for name in trees}
            for r in range(args.rounds):
                order = list(trees) if r % 2 == 0 else list(trees)[::-1]
                procs = {name: _start(trees[name], core, arena_deals)
                         for core, name in enumerate(order)}
                for name, proc in procs.items():
                    out, _ = proc.communicate()
                    if proc.returncode:
                        raise SystemExit(f"{name}: the probe failed")
                    results[name].append(json.loads(out.strip().splitlines()[-1]))
                print(f"round {r + 1}: " + "; ".join(
                    f"{name} " + ", ".join(f"{q} {v[0]:.2f} ms" for q, v in res[-1].items())
                    for name, res in results.items()), flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], check=False)
    for query in results["this tree"][0]:
        mine = [res[query] for res in results["this tree"]]
        theirs = [res[query] for res in results[args.commit]]
        ratio = min(m[0] for m in mine) / min(t[0] for t in theirs)
        paired = statistics.median(m[0] / t[0] for m, t in zip(mine, theirs, strict=True))
        same = "same values" if mine[0][2] == theirs[0][2] else "VALUES DIFFER"
        counted = "decisions" if query.startswith("fastpimc") else "nodes"
        print(f"{query}: this tree {min(m[0] for m in mine):.3f} ms, {args.commit} "
              f"{min(t[0] for t in theirs):.3f} ms: {ratio:.3f}x the time (paired median "
              f"{paired:.3f}x); {counted} {mine[0][1]:,} against {theirs[0][1]:,}; {same}")


if __name__ == "__main__":
    main()
