"""Where chunks run. Every long run (:class:`belote_sim.runner.jobs.Job`) is split into
chunks of consecutive deals, matches or worlds (:class:`Chunk`); each kind of run has its
own task type (a frozen dataclass of plain values, cheap to pickle, following
:class:`ChunkTask`), and an executor turns tasks into :class:`ChunkResult` objects, in
any order.

* :class:`LocalExecutor` (``--executor local``, the default): this process, every chunk
  in turn, each spread over all cores (a block a thread).
* :class:`belote_sim.runner.distributed.DaskExecutor` (``--executor dask``): the chunks as tasks
  of a Dask cluster (imported only when asked for, as it needs the ``dask`` extra).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np


class Chunk(NamedTuple):
    """One chunk of a run: its index (the order results are merged and committed in),
    what it counts (``deals``, ``matches``, ``worlds``), the first item and how many."""

    index: int
    unit: str
    start: int
    count: int


@dataclass
class ChunkResult:
    """The integer results of one chunk (counters, or a table of sums), and its per-deal
    rows when asked for."""

    index: int
    counters: np.ndarray
    rows: np.ndarray | None = None


class ChunkTask(Protocol):
    """What every task type has: its chunk, the threads to play it on (all when
    None), and :meth:`play`, which plays the chunk in ``blocks`` parallel blocks."""

    chunk: Chunk
    threads: int | None

    def play(self, blocks: int) -> ChunkResult: ...


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play one chunk with the jitted kernels (what every executor's workers call).

    One block per thread (:func:`belote_sim.batch.blocks.run_blocks`, on Numba's
    thread count): more blocks would keep no more cores busy, and each block makes its
    own workspace (with a solver player, a table of megabytes to clear). Results do not
    depend on the number of blocks."""
    import numba

    if task.threads is not None:
        numba.set_num_threads(min(task.threads, numba.config.NUMBA_NUM_THREADS))
    return task.play(min(numba.get_num_threads(), task.chunk.count))


def refuse_illegal(errors: int, chunk: Chunk) -> None:
    """Refuse a chunk in which a player broke the rules (a policy bug, never the user's)."""
    if errors:
        raise RuntimeError(
            f"{int(errors)} deal(s) of chunk {chunk.index} had an illegal policy choice"
        )


class LocalExecutor:
    """Runs chunks one after the other in this process, on all cores."""

    name = "local"

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads

    def map_unordered(self, tasks: Iterable[ChunkTask]) -> Iterator[ChunkResult]:
        for task in tasks:
            yield run_chunk(task)

    def close(self) -> None:
        pass

    def describe(self) -> dict:
        import numba

        return {"executor": "local", "threads": self.threads or numba.get_num_threads()}
