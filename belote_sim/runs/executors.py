"""Where chunks run. A run is split into :class:`ChunkTask` objects (seed, first index,
count, rules, policies) whose results merge exactly; an executor turns tasks into
:class:`ChunkResult` objects, in any order.

* :class:`LocalExecutor` (``--executor local``, the default): this process, every chunk
  in turn, each spread over all cores by Numba threads.
* :class:`belote_sim.runs.distributed.DaskExecutor` (``--executor dask``): the chunks as tasks
  of a Dask cluster (imported only when asked for, as it needs the ``dask`` extra).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ChunkTask:
    """Everything a worker needs to play one chunk; plain values, cheap to pickle."""

    index: int
    unit: str  # "deals" or "matches"
    start: int
    count: int
    seed: int
    rules: tuple[int, ...]
    bid_policy: int
    bid_param: float
    play_policy: int
    play_param: float
    records: bool = False
    threads: int | None = None
    #: The arena: ``play_policy`` is player A, this player B (-1: not an arena); A bids
    #: with ``bid_policy``, B with ``versus_bid_policy``.
    versus_policy: int = -1
    versus_param: float = 0.0
    versus_bid_policy: int = -1
    versus_bid_param: float = 0.0
    #: A comparison: the rule set of each cell, its stream seed, the paired counters.
    cells: tuple[tuple[int, ...], ...] = ()
    cell_seeds: tuple[int, ...] = ()
    slots: tuple[int, ...] = ()


@dataclass
class ChunkResult:
    """Counters of one chunk, and its per-deal rows when asked for."""

    index: int
    counters: np.ndarray
    rows: np.ndarray | None = None


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play one chunk with the jitted kernels (what every executor's workers call)."""
    import numba

    from belote_sim.game import chunks as S
    from belote_sim.kernels import layout as L
    from belote_sim.players.seating import same_players, sided_players
    from belote_sim.players.table_bidder import lookup_for
    from belote_sim.rules import R_PLAYERS

    if task.threads is not None:
        numba.set_num_threads(min(task.threads, numba.config.NUMBA_NUM_THREADS))
    rules = np.asarray(task.rules, dtype=np.int64)
    # One block per thread: Numba hands each thread an equal share of a parallel loop's
    # iterations, so more blocks keep no more cores busy, and each block makes its own
    # workspace (with a solver player, a table of megabytes to clear, which with a block
    # per deal of a solver chunk cost an arena a third of its time: commit 19fd4aa).
    # Results do not depend on it.
    blocks = min(numba.get_num_threads(), task.count)
    bid = (task.bid_policy, task.bid_param)
    lookup = lookup_for(task.bid_policy, task.versus_bid_policy)
    if task.cells:  # a comparison: every deal under each cell's rules
        counters, errors = S.compare_chunk(
            np.asarray(task.cells, dtype=np.int64), np.asarray(task.cell_seeds, dtype=np.int64),
            same_players(*bid, task.play_policy, task.play_param, *lookup),
            np.asarray(task.slots, dtype=np.int64), task.start, task.count, blocks,
            task.unit == "matches", L.MAX_MATCH_DEALS,
        )
        if errors:
            raise RuntimeError(f"{errors} deal(s) of chunk {task.index} had an illegal policy "
                               "choice")
        return ChunkResult(task.index, counters)
    if task.versus_policy >= 0:  # the arena: both pairings of each deal or match
        a = (*bid, task.play_policy, task.play_param)
        b = (task.versus_bid_policy, task.versus_bid_param, task.versus_policy,
             task.versus_param)
        n = int(rules[R_PLAYERS])
        counters = S.arena_chunk(
            rules, sided_players(*a, *b, n, *lookup), sided_players(*b, *a, n, *lookup), task.seed,
            task.start, task.count, blocks, task.unit == "matches",
        )
        return ChunkResult(task.index, counters)
    players = same_players(*bid, task.play_policy, task.play_param, *lookup)
    if task.unit == "matches":
        counters = S.simulate_matches(
            rules, players, task.seed, task.start, task.count, blocks, L.MAX_MATCH_DEALS
        )
        return ChunkResult(task.index, counters)
    counters, errors, rows = S.simulate_chunk(
        rules, players, task.seed, task.start, task.count, blocks, task.records
    )
    if errors:
        raise RuntimeError(f"{errors} deal(s) of chunk {task.index} had an illegal policy choice")
    return ChunkResult(task.index, counters, rows if task.records else None)


class LocalExecutor:
    """Runs chunks one after the other in this process, on all cores (Numba threads)."""

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
