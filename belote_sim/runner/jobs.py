"""The chunk runner: every long run, cut into chunks, played on an executor, committed
chunk by chunk, resumable, with the same numbers whatever the threads, executor or chunk
size.

A run is a :class:`Job`: what it counts, its identity (the settings that make its
numbers), its chunks and the task of each (the task types live beside the commands they
serve, in :mod:`belote_sim.studies`), and how two results merge exactly; how it is
played (where it is committed, threads, chunk size, executor, progress, stop) is its
:class:`RunOptions`, none of which changes its numbers. :func:`execute`
plays the chunks not yet committed in the run directory on an executor
(:mod:`belote_sim.runner.executors`, :mod:`belote_sim.runner.distributed`), commits each
as it finishes (:class:`belote_sim.runner.rundir.RunDir`), reports progress and stops
cleanly when asked, so an interrupted run resumes to exactly the numbers of an
uninterrupted one.

>>> [(c.index, c.start, c.count) for c in chunk_plan([("deals", 5)], 2)]
[(0, 0, 2), (1, 2, 2), (2, 4, 1)]
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

import numba
import numpy as np

from belote_sim.errors import BeloteError
from belote_sim.runner import compile_times
from belote_sim.runner.executors import Chunk, ChunkTask, LocalExecutor
from belote_sim.runner.rundir import RunDir

#: The largest seed: seeds are unsigned 63-bit integers.
MAX_SEED = 2**63 - 1
#: The most deals (matches, worlds, hands) of one run: the counters are int64 sums,
#: squares of deal scores among them (a few thousand points squared), which stay below
#: 2**63 up to about 10**12 deals.
MAX_COUNT = 10**12
#: The most chunks of one run: each committed chunk is a file in ``chunks/``, and the
#: plan of a run's chunks is held in memory.
MAX_CHUNKS = 1_000_000


def check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low .. high`` (no upper bound when ``high`` is None),
    refused in one line naming ``name``: the one integer check of every command.

    >>> check_int("seat", 4, 0, 3)
    Traceback (most recent call last):
    belote_sim.errors.BeloteError: seat must be an integer in 0..3, not 4
    """
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not ok or value < low or (high is not None and value > high):
        bound = f"an integer >= {low}" if high is None else f"an integer in {low}..{high}"
        raise BeloteError(f"{name} must be {bound}, not {value!r}")
    return int(value)


def check_run_args(count: int, seed: int, name: str = "deals") -> None:
    """Refuse a count of ``name`` out of ``1 .. MAX_COUNT`` and a seed out of range.

    >>> check_run_args(10**13, 0)
    Traceback (most recent call last):
    belote_sim.errors.BeloteError: deals must be an integer in 1..1000000000000, not 10000000000000
    """
    check_int(name, count, 1, MAX_COUNT)
    check_int("seed", seed, 0, MAX_SEED)


def deals_or_matches(deals: int | None, matches: int | None, default: int) -> tuple[str, int]:
    """The unit and count of a run of ``deals`` deals or ``matches`` matches (``default``
    deals when neither is given), refusing both.

    >>> deals_or_matches(None, 5, 100)
    ('matches', 5)
    """
    if deals is not None and matches is not None:
        raise BeloteError("give either a number of deals or a number of matches, not both")
    return ("deals", default if deals is None else deals) if matches is None else (
        "matches", matches)


def check_chunk_size(chunk_size: int) -> None:
    """Refuse a chunk size that is not a positive integer."""
    check_int("chunk size", chunk_size, 1)


@dataclass(frozen=True)
class RunOptions:
    """How a run is played, none of which changes its numbers: where it is committed
    (``out``, a run directory; ``resume`` insists that it holds a run to resume), the
    ``threads``, the items per committed chunk (``chunk_size``; each job has its
    default), the executor (``"local"``, ``"dask"`` with a ``scheduler`` address or the
    ``workers`` of a local cluster, or an executor object), and what the caller watches:
    ``progress(done, total)`` after each chunk, and ``should_stop()``, which stops the
    run after the current chunk.

    Built once per run (the command line's run options, or a library call's keywords:
    :meth:`of`) and checked when built, before anything is played; every study and the
    runner (:func:`execute`) take it whole.

    >>> RunOptions(chunk_size=0)
    Traceback (most recent call last):
    belote_sim.errors.BeloteError: chunk size must be an integer >= 1, not 0
    >>> RunOptions.of(None, out="results/run", threads=1).out.name
    'run'
    """

    out: Path | None = None
    resume: bool = False
    threads: int | None = None
    chunk_size: int | None = None
    executor: Any = "local"
    scheduler: str | None = None
    workers: int | None = None
    progress: Callable[[int, int], None] | None = None
    should_stop: Callable[[], bool] | None = None

    def __post_init__(self) -> None:
        if self.out is not None:
            object.__setattr__(self, "out", Path(self.out))
            RunDir(self.out).check_writable()
        elif self.resume:
            raise BeloteError("--resume continues the run in OUT: give --out DIR too")
        if self.threads is not None:
            check_int("threads", self.threads, 1, numba.config.NUMBA_NUM_THREADS)
        if self.chunk_size is not None:
            check_chunk_size(self.chunk_size)
        if self.workers is not None:
            check_int("workers", self.workers, 1)
        check_executor(self.executor, self.scheduler)

    @classmethod
    def of(cls, run: RunOptions | None = None, **options: Any) -> RunOptions:
        """``run`` (or the defaults) with the fields ``options`` names: what a study
        takes as its ``run`` and keywords (``simulate(..., out="DIR", threads=2)``).

        :raises TypeError: a keyword that is no run option.
        """
        unknown = sorted(set(options) - {f.name for f in fields(cls)})
        if unknown:
            names = ", ".join(f.name for f in fields(cls))
            raise TypeError(f"unknown run option {unknown[0]!r}: the run options are {names}")
        return replace(run, **options) if run is not None else cls(**options)

    def run_dir(self) -> RunDir | None:
        """The run directory of ``out`` (checked writable when built), or None."""
        return None if self.out is None else RunDir(self.out)

    def chunk_size_or(self, default: int) -> int:
        """The chunk size given, else the job's ``default``."""
        return int(self.chunk_size) if self.chunk_size is not None else int(default)


class Job(Protocol):
    """A long run the runner (:func:`execute`) plays: what it counts, its identity (a
    resumed run must have the same), its chunks, the task of each chunk, and how two
    results merge (exactly, in any order: integer sums). Every long command is one
    (:mod:`belote_sim.studies`): ``SimulateJob`` (deals or matches), ``ArenaJob``,
    ``CompareJob``, ``StrengthJob``, ``AtlasJob``, ``CardValuesJob``,
    ``SampledOddsJob``."""

    unit: str

    @property
    def total(self) -> int: ...

    # Optional: ``uses_solver``, whether its players need the double-dummy solver (the
    # kind of its kernels, runner.compile_times.compile_kind); ``chunk_bytes(count)``,
    # the memory a chunk of ``count`` units holds at once (check_memory).

    def to_json(self) -> dict[str, Any]: ...

    def chunks(self) -> list[Chunk]: ...

    def task(self, chunk: Chunk, threads: int | None) -> ChunkTask: ...

    def merge(self, a: np.ndarray, b: np.ndarray) -> np.ndarray: ...


def chunk_plan(parts: Sequence[tuple[str, int]], chunk_size: int) -> list[Chunk]:
    """The chunks of ``parts`` (``(unit, count)`` in turn), ``chunk_size`` at most each,
    numbered in order.

    >>> [(c.index, c.unit, c.start, c.count) for c in chunk_plan([("deals", 5), ("matches", 2)], 2)]
    [(0, 'deals', 0, 2), (1, 'deals', 2, 2), (2, 'deals', 4, 1), (3, 'matches', 0, 2)]
    """
    n_chunks = sum(-(-total // chunk_size) for _, total in parts)
    if n_chunks > MAX_CHUNKS:
        what = " and ".join(f"{total:,} {unit}" for unit, total in parts)
        raise BeloteError(f"{what} in chunks of {chunk_size:,} make {n_chunks:,} chunks, "
                          f"more than {MAX_CHUNKS:,} (a file each): give a larger "
                          "--chunk-size")
    out: list[Chunk] = []
    for unit, total in parts:
        for s in range(0, total, chunk_size):
            out.append(Chunk(len(out), unit, s, min(chunk_size, total - s)))
    return out


def engine_identity(n_counters: int) -> dict[str, str]:
    """The ``engine`` entry of a job's identity: chunks of another package version or
    counter layout cannot be merged."""
    from belote_sim._version import __version__

    return {"engine": f"{__version__}/{n_counters}"}


class RunInterrupted(BeloteError):  # noqa: N818 - a state, not a failure
    """A run stopped cleanly after a committed chunk; ``done`` of ``total`` are saved."""

    def __init__(self, out: Path | None, done: int, total: int, unit: str) -> None:
        self.out, self.done, self.total, self.unit = out, done, total, unit
        if out is None:
            msg = f"interrupted after {done:,} of {total:,} {unit} (no --out: nothing saved)"
        else:
            msg = (
                f"interrupted: {done:,} of {total:,} {unit} are committed in {out}; "
                "run the same command again (or add --resume) to continue"
            )
        super().__init__(msg)


@dataclass
class Execution:
    """How a run went: its summed counters, where and how long."""

    counters: np.ndarray
    wall_seconds: float
    executor: dict[str, Any]
    started: str
    finished: str
    run_dir: RunDir | None
    #: Units (deals or matches) the counters hold: all of the run's, or fewer when
    #: ``watch`` stopped it.
    done: int = 0
    #: The units this call played, and the merge of their chunks' counters (None when
    #: it played none: every chunk was committed before). ``wall_seconds`` times them
    #: alone, so a rate divides these by it, never the counters of a resumed run.
    played: int = 0
    played_counters: np.ndarray | None = None


def check_executor(executor: Any, scheduler: str | None = None) -> None:
    """Refuse an unknown executor name, and a scheduler without Dask."""
    if isinstance(executor, str) and executor not in ("local", "dask"):
        raise BeloteError(f"unknown executor {executor!r}: expected local or dask")
    if scheduler and executor != "dask":
        raise BeloteError("--scheduler needs --executor dask")


def make_executor(executor: Any = "local", scheduler: str | None = None,
                  workers: int | None = None, threads: int | None = None) -> Any:
    """The executor named ``executor`` (``"local"`` or ``"dask"``), or ``executor``
    itself when it is already one (an object with ``map_unordered``)."""
    check_executor(executor, scheduler)
    if executor is None or executor == "local":
        return LocalExecutor(threads)
    if executor == "dask":
        try:
            from belote_sim.runner.distributed import DaskExecutor
        except ImportError as e:
            raise BeloteError(str(e)) from None
        return DaskExecutor(scheduler, n_workers=workers, threads=threads)
    return executor


def available_memory() -> int | None:
    """Bytes of memory this machine has available (Linux's ``MemAvailable``, else its
    physical memory), or None where neither can be read."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(job: Job, chunks: Sequence[Chunk]) -> None:
    """Refuse, before it starts, a run whose largest chunk would not fit in the memory
    available (a job's optional ``chunk_bytes(count)``: what a chunk of ``count`` units
    holds at once, its per-deal rows)."""
    chunk_bytes = getattr(job, "chunk_bytes", None)
    if chunk_bytes is None or not chunks:
        return
    largest = max(c.count for c in chunks)
    need, have = chunk_bytes(largest), available_memory()
    if have is not None and need > have:
        raise BeloteError(f"a chunk of {largest:,} {job.unit} needs about "
                          f"{need / 1e9:,.1f} GB of memory, and {have / 1e9:,.1f} GB are "
                          "available: give a smaller --chunk-size")


def warm_up(job: Job, chunk: Chunk, threads: int | None) -> None:
    """Load the kernels of ``job``'s chunks from the cache, or compile them, by playing
    ``chunk`` with nothing in it: then the clock of :func:`execute` times play alone,
    and a first run says that it compiles before it does, and keeps how long it took for
    the next compilation of its kind (:func:`compile_times.compiling`)."""
    with compile_times.compiling(compile_times.compile_kind(job)):
        job.task(chunk._replace(count=0), threads).play(1)


def execute(job: Job, run: RunOptions,
            watch: Callable[[np.ndarray, int], bool] | None = None) -> Execution:
    """Play the chunks of ``job`` not yet committed in the run directory of ``run``
    (:class:`RunOptions`) on its executor (see :func:`make_executor`; one it creates is
    closed at the end), committing each as it finishes, and merge them.
    ``run.progress(done, total)`` is called after each chunk; when ``run.should_stop()``
    turns true the run stops after the current chunk and raises :class:`RunInterrupted`.
    Every long command goes through here.

    ``watch(result, units)`` sees the merge of the first chunks as soon as they are all
    done (chunk 0, then 0 and 1, ...: the same merges whatever the executor's order);
    when it returns true the run ends there, and its result is that merge.

    On the local executor the kernels are loaded or compiled first (:func:`warm_up`),
    outside the run's wall time; a Dask cluster's workers load them on their first
    chunk, which its wall time includes."""
    run_dir = run.run_dir()
    threads, progress, should_stop = run.threads, run.progress, run.should_stop
    chunk_list = job.chunks()
    check_memory(job, chunk_list)
    done: dict[int, np.ndarray] = (run_dir.prepare(job, run.resume, chunk_list) if run_dir
                                   else {})
    owned = run.executor is None or isinstance(run.executor, str)
    executor = make_executor(run.executor, run.scheduler, run.workers, threads)
    started = datetime.now(timezone.utc).isoformat()
    by_index = {c.index: c for c in chunk_list}
    sizes = {i: c.count for i, c in by_index.items()}
    done_units = sum(sizes[i] for i in done)
    total = job.total
    todo = [c for c in chunk_list if c.index not in done]
    tasks = (job.task(c, threads) for c in todo)
    base_provenance = {**job.to_json(), "started": started}
    old_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    described = executor.describe()
    merged: np.ndarray | None = None
    # Without ``watch`` each result is merged as it comes (integer sums: any order gives
    # the same); with it, results wait in ``pending`` until the prefix reaches them.
    pending: dict[int, np.ndarray] = {}
    prefix: np.ndarray | None = None
    prefix_units = 0
    prefix_end = 0  # chunks 0 .. prefix_end-1 are merged in ``prefix``
    watched = False

    def merge(a: np.ndarray | None, b: np.ndarray) -> np.ndarray:
        return b if a is None else job.merge(a, b)

    def extend_prefix() -> bool:
        nonlocal prefix, prefix_units, prefix_end
        while prefix_end < len(chunk_list) and prefix_end in pending:
            prefix = merge(prefix, pending.pop(prefix_end))
            prefix_units += sizes[prefix_end]
            prefix_end += 1
            if watch(prefix, prefix_units):
                return True
        return False

    def take(index: int, result: np.ndarray) -> None:
        nonlocal merged
        if watch is not None:
            pending[index] = result
        merged = merge(merged, result)

    played_units = 0
    played: np.ndarray | None = None

    for index in sorted(done):
        take(index, done.pop(index))
    try:
        if todo and getattr(executor, "name", None) == "local":
            warm_up(job, todo[0], threads)
        t0 = time.perf_counter()
        if progress is not None:
            progress(done_units, total)
        if watch is not None:
            watched = extend_prefix()
        for result in [] if watched else executor.map_unordered(tasks):
            if run_dir is not None:
                run_dir.commit(by_index[result.index], result.counters, result.rows,
                               base_provenance)
            take(result.index, result.counters)
            played = merge(played, result.counters)
            played_units += sizes[result.index]
            done_units += sizes[result.index]
            if progress is not None:
                progress(done_units, total)
            if watch is not None and extend_prefix():
                watched = True
                break
            if should_stop is not None and should_stop() and done_units < total:
                if run_dir is not None:
                    run_dir.write_info({"status": "interrupted", "settings": job.to_json(),
                                        "done": done_units, "total": total, "unit": job.unit})
                    raise RunInterrupted(run_dir.path, done_units, total, job.unit)
                raise RunInterrupted(None, done_units, total, job.unit)
    finally:
        numba.set_num_threads(old_threads)
        if owned:
            executor.close()
    wall = time.perf_counter() - t0
    finished = datetime.now(timezone.utc).isoformat()
    if watched:
        return Execution(prefix, wall, described, started, finished, run_dir, prefix_units,
                         played_units, played)
    return Execution(merged, wall, described, started, finished, run_dir, total,
                     played_units, played)
