"""Cold and warm times of the commands a new user runs first.

Run with ``make bench`` (or ``python benchmarks/bench_cold.py``). Each command runs
twice in a fresh kernel cache directory (``BELOTE_SIM_CACHE_DIR``, empty: what a first
run after installing meets, the package itself already installed): the first run
compiles every kernel it needs, the second loads them. Writes
``results/bench_cold.json``.

The compile notice's figures: each kind of job's first compilation, as the runner
measures and keeps it (``belote_sim.runner.compile_times``), from the cold runs above
and one cold run of each command of :data:`KINDS`, written to
``belote_sim/data/compile-seconds.json``: the figure a machine that never compiled
that kind of job announces.

Targets: ``simulate --deals 100000`` cold under 30 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).parent / "belote-sim")
#: The commands timed, by name, and their cold-time target in seconds (None: none).
COMMANDS = {
    "simulate --deals 100000": ([EXE, "simulate", "--deals", "100000", "--quiet"], 30.0),
}
#: One small cold run of each other kind of job, for its compile figure.
KINDS = {
    "simulate with a solver player": [EXE, "simulate", "--deals", "8", "--quiet",
                                      "--play-policy", "fastpimc:4"],
    "bid-strength": [EXE, "bid-strength", "--hand", "JH 9H AH 7D 8C", "--retourne", "TH",
                     "--worlds", "200", "--quiet"],
    "bid-table": [EXE, "bid-table", "--deals", "200", "--quiet"],
    "card-values": [EXE, "card-values", "--deals", "200", "--quiet"],
    "compare": [EXE, "compare", "--a", "classic", "--b", "litige", "--deals", "200",
                "--quiet"],
    "arena": [EXE, "arena", "--a", "heuristic", "--b", "random", "--deals", "200", "--quiet"],
    "odds --samples": [EXE, "odds", "--samples", "20000", "--quiet"],
}
SHIPPED = ROOT / "belote_sim" / "data" / "compile-seconds.json"


def cold_and_warm(cmd: list[str], runs: int = 2) -> tuple[list[float], str, dict]:
    """Wall times of ``cmd`` in a fresh cache directory, then again (``runs`` in all),
    what the cold run wrote to standard error (the compile notice, if any), and the
    compile figures the runner kept there."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "BELOTE_SIM_CACHE_DIR": cache}
        times, err = [], ""
        for _ in range(runs):
            t0 = time.perf_counter()
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            err = err or out.stderr
        kept = Path(cache) / "compile-seconds.json"
        figures = json.loads(kept.read_text()) if kept.is_file() else {}
    return times, err, figures


def main() -> None:
    results: dict = {}
    compile_seconds: dict[str, float] = {}
    for name, (cmd, target) in COMMANDS.items():
        (cold, warm), err, figures = cold_and_warm(cmd)
        compile_seconds.update(figures)
        met = "" if target is None else (
            f"  (target < {target:.0f} s: {'met' if cold < target else 'NOT met'})")
        print(f"{name:<28} cold {cold:7.1f} s  warm {warm:5.2f} s{met}")
        results[name] = {"cold_s": cold, "warm_s": warm, "target_cold_s": target,
                         "stderr_cold": err.strip()[-500:]}
    for name, cmd in KINDS.items():
        (cold,), _, figures = cold_and_warm(cmd, runs=1)
        compile_seconds.update(figures)
        print(f"{name:<28} cold {cold:7.1f} s")
    for kind, seconds in sorted(compile_seconds.items()):
        print(f"compile figure {kind:<24} {seconds:6.1f} s")
    results["compile_seconds"] = compile_seconds
    out = ROOT / "results" / "bench_cold.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    SHIPPED.write_text(json.dumps(compile_seconds, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
