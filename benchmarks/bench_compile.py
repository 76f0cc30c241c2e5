"""Where a first run's compilation goes: every kernel compiled, with its time, nested.

``python benchmarks/bench_compile.py`` plays a first classic ``simulate`` (1,000 deals,
the default players) in a fresh, empty kernel cache directory and prints each compiled
function's time (callees indented under their caller, those over 0.5 s), from Numba's
own compile events. Numba links each function's callees into its module and optimises
and compiles the whole again, so a caller's time includes its callees' and its own layer
over them: the difference is what the layer costs.

``--all`` times the test suite's compilation instead: ``BELOTE_SIM_COMPILE_ALL=1``, its
warm-up (``tests/warm.py``), then the arena, the bid atlas, card values and a comparison,
each step's wall time printed. ``--tree DIR`` imports ``belote_sim`` from another checkout
(e.g. a ``git worktree`` of an older commit) to compare the two in one sitting.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="the test suite's kernels")
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout to import")
    args = parser.parse_args()
    os.environ["BELOTE_SIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-compile-")
    if args.all:
        os.environ["BELOTE_SIM_COMPILE_ALL"] = "1"
    sys.path[:0] = [str(args.tree), str(args.tree / "tests")]

    from numba.core import event

    started: list[float] = []

    class CompileTimes(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            started.append(time.perf_counter())

        def on_end(self, ev: event.Event) -> None:
            seconds = time.perf_counter() - started.pop()
            if seconds > 0.5:
                fn = ev.data["dispatcher"].py_func
                print(f"{'  ' * len(started)}{fn.__module__}.{fn.__name__} {seconds:.1f} s",
                      flush=True)

    event.register("numba:compile", CompileTimes())

    import belote_sim
    from belote_sim import Rules
    from belote_sim.studies.simulate import simulate

    print(f"belote_sim from {Path(belote_sim.__file__).parent}", flush=True)

    if not args.all:
        steps = {"simulate, classic, 1,000 deals": lambda: simulate(Rules(), deals=1000)}
    else:
        from warm import warm

        from belote_sim.studies.arena import arena
        from belote_sim.studies.atlas import bid_table
        from belote_sim.studies.card_values import card_values
        from belote_sim.studies.compare import compare

        steps = {
            "tests/warm.py": warm,
            "arena fastpimc:4:uniform vs heuristic": lambda: arena(
                "fastpimc:4:uniform", "heuristic", deals=4, matches=0, threads=1),
            "bid_table classic": lambda: bid_table("classic", 40, threads=1),
            "card_values classic": lambda: card_values("classic", 50, threads=1),
            "compare classic vs classic": lambda: compare([Rules(), Rules()], 64, threads=1),
        }
    for name, step in steps.items():
        t0 = time.perf_counter()
        step()
        print(f"== {name}: {time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
