"""Engine benchmark: complete classic deals per second and peak memory.

Run with ``make bench`` (or ``python benchmarks/bench_engine.py [--deals N]``). Prints a
table and writes ``results/bench_engine.json``. Every figure is measured in this run:

* ``shuffle only``: the same counter-based stream and Fisher-Yates shuffle per deal,
  nothing else - the floor of what a deal can cost, as a baseline;
* ``classic, 1 thread`` and ``classic, all threads``: random bidding (take probability
  0.25) and random play, declarations and scoring included (best of 3 repeats);
* ``colver Env.rollout, 1 thread``: the fastest peer engine (colver, Rust, on PyPI;
  ``make bench`` installs it when it can) playing random auctions and random play of a
  dealt hand, no declarations, in the same run, and our one-thread rate as a ratio to
  it; without colver the line says so and ours stands alone;
* ``classic, threshold + heuristic, all threads``: the realistic players (threshold
  bidding at 50, heuristic play), as a ratio to random play in the same run: a
  slowdown of the heuristic's path shows here;
* peak memory (max RSS) of fresh processes that run aggregate simulations of growing
  size (``--memory-deals``, default 1M, 10M and 100M deals), beside one that only
  imports the package: flat in the number of deals;
* time from command start to the first deal with a warm cache: the wall time of
  ``belote-sim simulate --deals 1 --quiet`` (best of 5);
* ``CLI, 1 thread``: the rate a user sees, start-up excluded: the wall time of
  ``belote-sim simulate --rules classic --threads 1 --bid-policy random --play-policy
  random --quiet --out DIR`` for 3,000,000 deals minus that for 1,000,000 (best of 5
  each, as a difference of wall times moves more than either: counting, chunking and
  the Parquet write included), against the wall time of colver's
  ``Env.rollout(400000)`` in the same run (best of 3).

``--scaling N`` measures only the one-thread and all-thread rates, N times in a row in
one process with nothing changed between, and prints each pair: how much of the
all-threads figure's spread is the machine's.

Targets: at least 1,000,000 complete classic deals per second on
2 cores, one thread at least 1.5 x colver's rollouts per second (the goal is 2 x), all
threads at least 1.8 x one thread, heuristic play at least 0.6 x random
play, peak memory of a
100,000,000-deal run under 500 MB and flat, start to first deal under 1.5 s, and the CLI
on one thread at least 2 x colver's rollout.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from belote_sim import Rules
from belote_sim.batch import runs
from belote_sim.kernels.deal import shuffle_pack
from belote_sim.kernels.rng import seed_stream
from belote_sim.players.lookup import no_lookup
from belote_sim.players.registry import BID_THRESHOLD, PLAY_HEURISTIC
from belote_sim.players.seating import families_for, same_players

ROOT = Path(__file__).resolve().parent.parent


@numba.njit(cache=False, nogil=True)
def _shuffle_only(seed, n):
    state = np.zeros(1, dtype=np.uint64)
    pack = np.zeros(32, dtype=np.int64)
    acc = 0
    for i in range(n):
        seed_stream(state, seed, i, 0)
        shuffle_pack(pack, state)
        acc += pack[0]
    return acc


def _best_rate(fn, n: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - t0)
    return n / best


def _simulate(n: int) -> None:
    rules = Rules().to_array()
    runs.simulate_chunk(
        rules, same_players(0, 0.25, 0, 0.0, *no_lookup(), None, families_for(rules)), 1, 0, n,
        64, False,
    )


def _simulate_realistic(n: int) -> None:
    rules = Rules().to_array()
    runs.simulate_chunk(
        rules,
        same_players(BID_THRESHOLD, 50.0, PLAY_HEURISTIC, 0.0, *no_lookup(), None,
                     families_for(rules)),
        1, 0, n, 64, False,
    )


def colver_rollouts_per_s(total: int = 600_000, repeats: int = 3) -> float | None:
    """colver's random rollouts per second on one thread (best of ``repeats``), each
    from a fresh deal of a fixed seed; None when colver is not installed."""
    if importlib.util.find_spec("colver") is None:
        return None
    import colver

    per_env = 20_000
    envs = [colver.Env.deal(dealer=d % 4, seed=d) for d in range(total // per_env)]
    envs[0].rollout(1000)  # warm
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for env in envs:
            env.rollout(per_env)
        best = min(best, time.perf_counter() - t0)
    return per_env * len(envs) / best


#: The CLI measurement: the deals of its two runs, and colver's one rollout call.
CLI_DEALS = (1_000_000, 3_000_000)
COLVER_ROLLOUT = 400_000


def cli_rate_one_thread(exe: str, repeats: int = 5) -> float:
    """Deals per second of ``belote-sim simulate`` on one thread without its start-up:
    the difference of the best wall times of :data:`CLI_DEALS` runs, each into a fresh
    run directory, the two sizes in turn."""
    best = dict.fromkeys(CLI_DEALS, float("inf"))
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(repeats):  # the sizes alternate: the machine's speed drifts
            for n in CLI_DEALS:
                cmd = [exe, "simulate", "--rules", "classic", "--threads", "1",
                       "--bid-policy", "random", "--play-policy", "random", "--deals",
                       str(n), "--seed", "1", "--quiet", "--out", f"{tmp}/{n}-{k}"]
                t0 = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                best[n] = min(best[n], time.perf_counter() - t0)
    low, high = CLI_DEALS
    return (high - low) / (best[high] - best[low])


def colver_rollout_rate(repeats: int = 3) -> float | None:
    """colver's rollouts per second from the wall time of one
    ``Env.rollout(COLVER_ROLLOUT)`` call (best of ``repeats``); None without colver."""
    if importlib.util.find_spec("colver") is None:
        return None
    import colver

    env = colver.Env.deal(dealer=0, seed=1)
    env.rollout(1000)  # warm
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        env.rollout(COLVER_ROLLOUT)
        best = min(best, time.perf_counter() - t0)
    return COLVER_ROLLOUT / best


def _peak_rss_mb(code: str) -> float:
    """Peak memory of a fresh process running ``code``: ``VmHWM`` where Linux has it.
    Not ``ru_maxrss``: Linux carries the parent's peak over into a child at ``exec``, so
    that after this process had compiled the kernels every probe would read the
    compiler's peak."""
    probe = (
        f"{code}\nimport os, resource\n"
        "status = '/proc/self/status'\n"
        "hwm = [l for l in open(status) if l.startswith('VmHWM')] if os.path.exists(status)"
        " else []\n"
        "print(int(hwm[0].split()[1]) if hwm else "
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout
    return int(out.split()[-1]) / 1024  # in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000_000)
    parser.add_argument(
        "--memory-deals", type=int, nargs="+", default=[1_000_000, 10_000_000, 100_000_000]
    )
    parser.add_argument("--scaling", type=int, default=0, metavar="N",
                        help="only time one thread and all threads, N times in a row")
    args = parser.parse_args()

    _simulate(1000)  # compile or load from cache
    _simulate_realistic(1000)
    _shuffle_only(1, 10)
    all_threads = numba.config.NUMBA_NUM_THREADS
    if args.scaling:
        for k in range(args.scaling):
            numba.set_num_threads(1)
            one = _best_rate(_simulate, args.deals)
            numba.set_num_threads(all_threads)
            many = _best_rate(_simulate, args.deals)
            print(f"{k + 1}: 1 thread {one:,.0f} deals/s, {all_threads} threads {many:,.0f}"
                  f" ({many / one:.2f} x)", flush=True)
        return
    numba.set_num_threads(1)
    shuffle = _best_rate(lambda n: _shuffle_only(1, n), args.deals)
    one = _best_rate(_simulate, args.deals)
    peer = colver_rollouts_per_s()
    numba.set_num_threads(all_threads)
    many = _best_rate(_simulate, args.deals)
    realistic = _best_rate(_simulate_realistic, args.deals)

    rss_import = _peak_rss_mb("import belote_sim")
    rss = {
        n: _peak_rss_mb(
            f"from belote_sim import Rules, simulate\nsimulate(Rules(), deals={n}, seed=1)"
        )
        for n in args.memory_deals
    }
    exe = str(Path(sys.executable).parent / "belote-sim")
    subprocess.run([exe, "simulate", "--deals", "1", "--quiet"], check=True, capture_output=True)
    startup = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([exe, "simulate", "--deals", "1", "--quiet"], check=True,
                       capture_output=True)
        startup = min(startup, time.perf_counter() - t0)
    cli = cli_rate_one_thread(exe)
    peer_cli = colver_rollout_rate()

    rows = [
        ("shuffle only, 1 thread (baseline)", f"{shuffle:,.0f} deals/s", ""),
        ("classic, 1 thread", f"{one:,.0f} deals/s", f"{one / shuffle:.3f} x baseline"),
        ("colver Env.rollout, 1 thread",
         "not installed" if peer is None else f"{peer:,.0f} rollouts/s",
         "" if peer is None else f"classic 1 thread = {one / peer:.2f} x colver"),
        (f"classic, {all_threads} threads", f"{many:,.0f} deals/s", f"{many / one:.2f} x 1 thread"),
        (f"classic, threshold + heuristic, {all_threads} threads", f"{realistic:,.0f} deals/s",
         f"{realistic / many:.2f} x random play"),
        ("peak RSS, import only", f"{rss_import:,.0f} MB", ""),
    ]
    for n, mb in rss.items():
        rows.append((f"peak RSS, {n:,} deals", f"{mb:,.0f} MB", f"{mb - rss_import:+,.0f} MB"))
    rows.append(("command start to first deal", f"{startup:.2f} s", "warm cache, best of 5"))
    rows.append(("CLI, 1 thread, start-up excluded", f"{cli:,.0f} deals/s",
                 "" if peer_cli is None else
                 f"{cli / peer_cli:.2f} x colver's Env.rollout({COLVER_ROLLOUT:,}) "
                 f"({peer_cli:,.0f}/s)"))
    width = max(len(r[0]) for r in rows)
    for name, value, ratio in rows:
        print(f"{name:<{width}}  {value:>18}  {ratio}")
    checks = {
        "1,000,000 deals/s on all threads": many >= 1_000_000,
        "one thread >= 1.5 x colver": None if peer is None else one / peer >= 1.5,
        "all threads >= 1.8 x one thread": many / one >= 1.8,
        "heuristic play >= 0.6 x random play": realistic / many >= 0.6,
        "peak RSS < 500 MB": max(rss.values()) < 500,
        "start to first deal < 1.5 s": startup < 1.5,
        "CLI one thread >= 2 x colver": None if peer_cli is None else cli / peer_cli >= 2,
    }
    for name, ok in checks.items():
        verdict = "colver not installed" if ok is None else "met" if ok else "NOT met"
        print(f"target {name}: {verdict}")
    out = ROOT / "results" / "bench_engine.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "deals": args.deals,
                "threads": all_threads,
                "shuffle_only_per_s": shuffle,
                "classic_1_thread_per_s": one,
                "colver_rollouts_per_s": peer,
                "ratio_to_colver": None if peer is None else one / peer,
                "classic_all_threads_per_s": many,
                "thread_ratio": many / one,
                "classic_threshold_heuristic_per_s": realistic,
                "heuristic_to_random_ratio": realistic / many,
                "peak_rss_import_mb": rss_import,
                "peak_rss_run_mb": {str(k): v for k, v in rss.items()},
                "start_to_first_deal_s": startup,
                "cli_1_thread_per_s": cli,
                "colver_rollout_call_per_s": peer_cli,
                "cli_ratio_to_colver": None if peer_cli is None else cli / peer_cli,
                "targets": checks,
            },
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
