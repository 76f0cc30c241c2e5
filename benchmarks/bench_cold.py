"""Cold and warm times of the commands a new user runs first.

Run with ``make bench`` (or ``python benchmarks/bench_cold.py``). Each command runs
twice in a fresh kernel cache directory (``BELOTE_SIM_CACHE_DIR``, empty: what a first
run after installing meets, the package itself already installed): the first run
compiles every kernel it needs, the second loads them. Writes
``results/bench_cold.json``.

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


def cold_and_warm(cmd: list[str]) -> tuple[float, float, str]:
    """Wall times of ``cmd`` in a fresh cache directory, then again, and what the
    cold run wrote to standard error (the compile notice, if any)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "BELOTE_SIM_CACHE_DIR": cache}
        times, err = [], ""
        for _ in range(2):
            t0 = time.perf_counter()
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            err = err or out.stderr
    return times[0], times[1], err


def main() -> None:
    results = {}
    for name, (cmd, target) in COMMANDS.items():
        cold, warm, err = cold_and_warm(cmd)
        met = "" if target is None else (
            f"  (target < {target:.0f} s: {'met' if cold < target else 'NOT met'})")
        print(f"{name:<28} cold {cold:7.1f} s  warm {warm:5.2f} s{met}")
        results[name] = {"cold_s": cold, "warm_s": warm, "target_cold_s": target,
                         "stderr_cold": err.strip()[-500:]}
    out = ROOT / "results" / "bench_cold.json"
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
