"""How long a first run compiles its kernels: measured, never written in the code.

The runner's warm-up (:func:`belote_sim.runner.jobs.warm_up`) times every compilation
it meets and keeps the seconds per kind of job (:func:`compile_kind`: the job's type,
and whether its players need the double-dummy solver) in ``compile-seconds.json``
beside the kernel caches (:func:`belote_sim._jit.cache_base`). The compile notice reads
the figure of the last compilation of that kind on this machine, else the one
``make bench`` measured on the project's machine (:data:`SHIPPED`, written by
``benchmarks/bench_cold.py``), else says no figure.

>>> compile_kind(type("SimulateJob", (), {"uses_solver": True})())
'SimulateJob+solver'
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from belote_sim._jit import cache_base

#: The figures ``make bench`` measured, by kind, in a fresh cache on the project's
#: machine (``benchmarks/bench_cold.py``).
SHIPPED = Path(__file__).resolve().parents[1] / "data" / "compile-seconds.json"
#: The name of this machine's figures, in :func:`belote_sim._jit.cache_base`.
LOCAL_NAME = "compile-seconds.json"


def compile_kind(job: Any) -> str:
    """The kind of ``job``'s kernels: its type's name, ``+solver`` when its players need
    the double-dummy solver (its ``uses_solver``, where it has one)."""
    return type(job).__name__ + ("+solver" if getattr(job, "uses_solver", False) else "")


def _read(path: Path) -> dict[str, float]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, (int, float))}


def local_figures() -> dict[str, float]:
    """This machine's figures, by kind (empty before its first compilation)."""
    return _read(Path(cache_base()) / LOCAL_NAME)


def estimate(kind: str) -> float | None:
    """The seconds kernels of ``kind`` took to compile: on this machine the last time,
    else on the project's machine (:data:`SHIPPED`), else None."""
    for figures in (local_figures(), _read(SHIPPED)):
        if kind in figures:
            return figures[kind]
    return None


def record(kind: str, seconds: float) -> None:
    """Keep ``seconds`` as this machine's figure for ``kind`` (written atomically; a
    cache directory that cannot be written keeps nothing, and the run goes on)."""
    base = Path(cache_base())
    figures = {**local_figures(), kind: round(float(seconds), 1)}
    try:
        base.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=base, prefix=".compile-seconds-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(tmp, base / LOCAL_NAME)
    except OSError:
        pass
