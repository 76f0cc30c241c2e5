"""How long a first run compiles its kernels: measured, never written in the code.

Where a run may compile kernels (the runner's warm-up,
:func:`belote_sim.runner.jobs.warm_up`, and what a study compiles before it, such as
bid strength's search for the worlds), :func:`compiling` says so once (the compile
notice, logger ``belote_sim``) and adds up the seconds Numba spends compiling. It keeps
them per kind of job (:func:`compile_kind`: the job's type, and whether its players need
the double-dummy solver) in ``compile-seconds.json`` beside the kernel caches
(:func:`belote_sim._jit.cache_base`). The notice announces the figure of the last
compilation of that kind on this machine, else the one ``make bench`` measured on the
project's machine (:data:`SHIPPED`, written by ``benchmarks/bench_cold.py``), else no
figure.

>>> compile_kind(type("SimulateJob", (), {"uses_solver": True})())
'SimulateJob+solver'
>>> compile_kind(type("StrengthJob", (), {}), uses_solver=False)
'StrengthJob'
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from belote_sim._jit import cache_base

#: The figures ``make bench`` measured, by kind, in a fresh cache on the project's
#: machine (``benchmarks/bench_cold.py``).
SHIPPED = Path(__file__).resolve().parents[1] / "data" / "compile-seconds.json"
#: The name of this machine's figures, in :func:`belote_sim._jit.cache_base`.
LOCAL_NAME = "compile-seconds.json"

#: Where the runner says what the user should know but need not act on: the compile
#: notice. The CLI prints its records on standard error, ``--quiet`` or not; a library
#: user sees them through Python's last-resort handler, or their own logging setup.
log = logging.getLogger("belote_sim")


def compile_kind(job: Any, uses_solver: bool | None = None) -> str:
    """The kind of ``job``'s kernels (a job, or its type): the type's name, ``+solver``
    when its players need the double-dummy solver (``uses_solver``, else the job's own
    ``uses_solver`` where it has one)."""
    if uses_solver is None:
        uses_solver = getattr(job, "uses_solver", False)
    name = job.__name__ if isinstance(job, type) else type(job).__name__
    return name + ("+solver" if uses_solver else "")


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
    figures = {**local_figures(), kind: round(float(seconds), 3)}
    try:
        base.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=base, prefix=".compile-seconds-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(tmp, base / LOCAL_NAME)
    except OSError:
        pass


class _Compiling:
    """The compilations of one :func:`compiling` block: whether they were announced,
    and the seconds of the outermost ones (a kernel's callees compile inside it)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.announced = False
        self.depth = 0
        self.started = 0.0
        self.seconds = 0.0

    def start(self) -> None:
        if self.depth == 0:
            self.started = time.perf_counter()
            if not self.announced:
                self.announced = True
                figure = estimate(self.kind)
                about = f": about {figure:.0f} s" if figure is not None else ""
                log.warning("compiling the kernels for this machine, once%s", about)
        self.depth += 1

    def end(self) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.perf_counter() - self.started


_open = threading.local()


@contextmanager
def compiling(kind: str) -> Iterator[None]:
    """Inside the block, the first time Numba compiles anything (not: loads it from the
    cache), log the compile notice with :func:`estimate`'s figure for ``kind``; at its
    end, when something compiled, :func:`record` the seconds spent compiling (play in
    the block does not count). A block inside a block of the same kind joins it: one
    notice, one figure (a study's own kernels and its runner's warm-up)."""
    from numba.core import event

    current = getattr(_open, "block", None)
    if current is not None and current.kind == kind:
        yield
        return
    block = _Compiling(kind)

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            block.start()

        def on_end(self, ev: event.Event) -> None:
            block.end()

    _open.block = block
    try:
        with event.install_listener("numba:compile", Listener()):
            yield
    finally:
        _open.block = current
    if block.announced:
        record(kind, block.seconds)
