"""Where the kernels spend their time: Linux ``perf`` over jitted code.

``perf record`` sees jitted code as anonymous memory. This script plays a workload,
then writes ``/tmp/perf-<pid>.map`` (the file ``perf report`` reads to name such code)
with every compiled kernel's address, and copies the machine code of the kernels whose
name contains ``--dump`` into ``/tmp/belote-jit/`` for ``objdump`` (their hot
instructions), then plays the workload again under the profiler's eye::

    BELOTE_SIM_CACHE_DIR=$(mktemp -d) perf record -F 1000 -o /tmp/perf.data \\
        python benchmarks/perf_kernels.py --workload random
    perf report -i /tmp/perf.data --sort sym

The kernels must be compiled in this process (Numba keeps no symbol names for kernels
loaded from its cache): hence the empty cache directory above. Workloads: ``random``
and ``heuristic`` (classic deals on one thread), ``solver`` (exact values and every
card's value at the first lead), ``fastpimc`` (an arena of ``fastpimc:20`` against the
heuristic), ``atlas`` (the bid atlas of classic deals, heuristic model, on one thread).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import re
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from numba.core.dispatcher import Dispatcher  # noqa: E402
from numba.core.registry import cpu_target  # noqa: E402

DUMP_DIR = Path("/tmp/belote-jit")
WORKLOADS = ("random", "heuristic", "solver", "fastpimc", "atlas")


def write_perf_map(dump: str) -> int:
    """Write ``/tmp/perf-<pid>.map`` for every kernel compiled in this process; return
    how many. Each function's size is taken as the distance to the next one."""
    engine = cpu_target.target_context.codegen()._engine
    addresses: dict[int, str] = {}
    libraries = set()
    for obj in gc.get_objects():
        if isinstance(obj, Dispatcher):
            for cres in obj.overloads.values():
                if id(cres.library) in libraries:
                    continue
                libraries.add(id(cres.library))
                module = getattr(cres.library, "_final_module", None)
                if module is None:
                    continue
                for fn in module.functions:
                    if not fn.is_declaration:
                        address = engine.get_function_address(fn.name)
                        if address:
                            addresses[address] = fn.name
    items = sorted(addresses.items())
    DUMP_DIR.mkdir(exist_ok=True)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(items):
            size = items[i + 1][0] - address if i + 1 < len(items) else 4096
            short = re.sub(r"^_ZN\d+", "", name)[:120]
            out.write(f"{address:x} {size:x} {short}\n")
            if dump and dump in name and not short.startswith(("cpython", "cfunc")):
                code = ctypes.string_at(address, size)
                (DUMP_DIR / f"{address:x}_{short[:60]}.bin").write_bytes(code)
    return len(items)


def workload(kind: str, scale: int) -> None:
    """Play the workload ``kind`` (see the module's docstring) ``scale`` times over."""
    if kind in ("random", "heuristic"):
        from belote_sim import Rules
        from belote_sim.batch import runs
        from belote_sim.players.lookup import no_lookup
        from belote_sim.players.registry import (
            BID_RANDOM,
            BID_THRESHOLD,
            PLAY_HEURISTIC,
            PLAY_RANDOM,
        )
        from belote_sim.players.seating import families_for, same_players

        rules = Rules().to_array()
        players = (same_players(BID_RANDOM, 0.25, PLAY_RANDOM, 0.0, *no_lookup(), None,
                                families_for(rules))
                   if kind == "random" else
                   same_players(BID_THRESHOLD, 50.0, PLAY_HEURISTIC, 0.0, *no_lookup(), None,
                                families_for(rules)))
        runs.simulate_chunk(rules, players, 1, 0, 1_000_000 * scale, 1, False)
    elif kind == "solver":
        sys.path.insert(0, str(Path(__file__).parent))
        import bench_players as bp

        positions = bp.every_trump(bp.random_deals(5 * scale, 1))
        bp.solve_all(positions, None)
        bp.solve_all(positions, None, every_card=True)
    elif kind == "fastpimc":
        from belote_sim.studies.arena import arena

        arena("fastpimc:20", "heuristic", deals=20 * scale, matches=0, seed=2)
    elif kind == "atlas":
        from belote_sim.studies.atlas import bid_table

        bid_table("classic", 10_000 * scale, seed=1, threads=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", default="random", choices=WORKLOADS)
    parser.add_argument("--scale", type=int, default=10, help="size of the profiled run")
    parser.add_argument("--dump", default="play_deal",
                        help="copy the code of kernels whose name holds this (for objdump)")
    args = parser.parse_args()
    workload(args.workload, 1)  # compile
    print(f"{write_perf_map(args.dump)} kernels mapped", file=sys.stderr)
    t0 = time.perf_counter()
    workload(args.workload, args.scale)
    print(f"profiled run: {time.perf_counter() - t0:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
