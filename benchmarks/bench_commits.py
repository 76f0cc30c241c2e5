"""Engine speed of other commits beside this tree's, in one sitting.

``python benchmarks/bench_commits.py COMMIT [COMMIT ...]`` checks each commit out in a
temporary git worktree and measures, in a fresh process per tree (compile first, then
warm): classic deals per second with random play, random bidding with heuristic play,
and threshold bidding with heuristic play, each the median of 5 runs of 300,000 deals
on all threads (``--threads 1``: on one), through the public ``simulate``, in
``--rounds`` rounds (default 3) that measure every tree in turn, in alternating order,
each tree's figure the median of its rounds. It prints each tree's rates and this
tree's ratio to each commit. The machine is shared and its speed drifts within
minutes: only trees measured in the same rounds are compared.

``--probe presets`` measures the same way the presets whose tricks the trick loop's
general form plays (two and three players, the stock game) and coinche.
``--probe rundir`` measures random-play classic deals written to a run directory in
chunks of 100,000 (forty committed chunks a run): the cost of committing and checking.
``--probe loops`` times instead the loops outside ``simulate``: those that call the
deal's cached kernel (``belote_sim.game.deals.play_deal_cached``) rather than inline
it (bid strength, card values, matches and an arena of cheap players) and the bid
atlas, whose scripted openings play in the lean trick loop, each the best of 2 runs,
in seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEALS = 300_000
REPEATS = 5

#: ``--probe loops``: the loops outside ``simulate`` (see the module docstring), each the
#: best of 2 runs, seconds.
LOOPS_PROBE = """
import json, time
from belote_sim import Rules, simulate
try:
    from belote_sim.studies.arena import arena
    from belote_sim.studies.atlas import bid_table
    from belote_sim.studies.bid_strength import bid_strength
    from belote_sim.studies.card_values import card_values
except ImportError:  # trees before the studies had a package of their own
    from belote_sim.runs.arena import arena
    from belote_sim.runs.atlas import bid_table
    from belote_sim.runs.card_values import card_values
    from belote_sim.runs.strength import bid_strength
jobs = {
    "bid strength 300,000 worlds": lambda w=300_000: bid_strength(
        "classic", "JH 9H AH 7D 8C", retourne="TH", worlds=w, models="heuristic", seed=1),
    "card values 40,000 deals": lambda w=40_000: card_values("classic", w, seed=1),
    "100,000 matches": lambda w=100_000: simulate(Rules(), matches=w, seed=1),
    "arena 500,000 deals": lambda w=500_000: arena("heuristic", "random", deals=w,
                                                     matches=0, seed=2),
    "atlas 100,000 deals": lambda w=100_000: bid_table("classic", w, seed=1),
}
out = {}
for name, job in jobs.items():
    job(200)  # compile or load
    times = []
    for _ in range(2):
        t0 = time.perf_counter()
        job()
        times.append(time.perf_counter() - t0)
    out[name] = min(times)
print(json.dumps(out))
"""

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

#: ``--probe presets``: deals/s of the presets whose deals the trick loop's general form
#: plays (two and three players, the stock's free tricks) and of coinche, under random
#: and realistic players, each the median of the same runs as the engine probe's.
PRESETS_PROBE = f"""
import json, statistics, time
from belote_sim import Rules, simulate
out = {{}}
for preset in ("three-player", "stock-2p", "no-contract-2p", "coinche"):
    for name, kw in (("random", {{"bid_policy": "random", "play_policy": "random"}}),
                     ("realistic", {{"bid_policy": "threshold", "play_policy": "heuristic"}})):
        rules = Rules.from_preset(preset)
        simulate(rules, deals=20_000, seed=1, **kw)  # compile or load
        rates = []
        for _ in range({REPEATS}):
            t0 = time.perf_counter()
            simulate(rules, deals={DEALS}, seed=1, **kw)
            rates.append({DEALS} / (time.perf_counter() - t0))
        out[f"{{preset}} {{name}}"] = statistics.median(rates)
print(json.dumps(out))
"""


#: ``--probe rundir``: deals/s of random-play classic deals committed to a run directory
#: in chunks of 100,000, the median of the same runs as the engine probe's.
RUNDIR_PROBE = f"""
import json, statistics, tempfile, time
from belote_sim import Rules, simulate
kw = {{"bid_policy": "random", "play_policy": "random", "chunk_size": 100_000}}
simulate(Rules(), deals=20_000, seed=1, **kw)  # compile or load
rates = []
for r in range({REPEATS}):
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        simulate(Rules(), deals=4_000_000, seed=r, out=tmp + "/run", **kw)
        rates.append(4_000_000 / (time.perf_counter() - t0))
print(json.dumps({{"random, 40 chunks committed": statistics.median(rates)}}))
"""


def rates(tree: Path, threads: int, probe: str = PROBE) -> dict[str, float]:
    """The ``probe``'s figures for the package in ``tree`` on ``threads`` threads (0:
    all)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    if threads:
        env["NUMBA_NUM_THREADS"] = str(threads)
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commits", nargs="+", help="commits to measure beside this tree")
    parser.add_argument("--threads", type=int, default=0,
                        help="threads of each probe (default: all the machine's)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds, each measuring every tree once (default 3)")
    parser.add_argument("--probe", choices=("engine", "presets", "rundir", "loops"),
                        default="engine",
                        help="engine: deals/s of simulate's classic deals (default); "
                             "presets: deals/s of the two- and three-player presets and "
                             "coinche; rundir: deals/s written to a run directory; loops: "
                             "seconds of the loops outside simulate and of the bid atlas")
    args = parser.parse_args()
    probe, unit, fmt = {"engine": (PROBE, "deals/s", ",.0f"),
                        "presets": (PRESETS_PROBE, "deals/s", ",.0f"),
                        "rundir": (RUNDIR_PROBE, "deals/s", ",.0f"),
                        "loops": (LOOPS_PROBE, "s", ".3f")}[args.probe]
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for commit in args.commits:
            path = Path(tmp) / commit
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q",
                            str(path), commit], check=True)
            trees[commit] = path
        trees["this tree"] = ROOT
        try:
            rounds: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
            order = list(trees)
            for r in range(args.rounds):
                for name in order if r % 2 == 0 else order[::-1]:
                    rounds[name].append(rates(trees[name], args.threads, probe))
                    shown = ", ".join(f"{k} {v:{fmt}}" for k, v in rounds[name][-1].items())
                    print(f"round {r + 1}, {name:<12} {unit}: {shown}", flush=True)
            results = {name: {k: statistics.median(x[k] for x in got) for k in got[0]}
                       for name, got in rounds.items()}
            for name, got in results.items():
                shown = ", ".join(f"{k} {v:{fmt}}" for k, v in got.items())
                print(f"median, {name:<12} {unit}: {shown}")
        finally:
            for commit in args.commits:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(trees[commit])], check=False)
    mine = results["this tree"]
    for name in args.commits:
        ratios = ", ".join(f"{k} {mine[k] / v:.2f}x" for k, v in results[name].items())
        print(f"this tree / {name} ({'rates' if unit == 'deals/s' else 'times'}): {ratios}")


if __name__ == "__main__":
    main()
