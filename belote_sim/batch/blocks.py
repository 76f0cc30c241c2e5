"""The blocks of a chunk, played side by side on threads.

A chunk kernel splits its deals (matches, worlds, hands) ``start .. start+n-1`` into
``n_blocks`` blocks of consecutive indices, plays each with a compiled block function
into counters of its own, and adds the blocks' counters in block order: the totals are
the same for any number of blocks or threads.

The blocks run on Python threads, each calling the compiled block function, which
releases the GIL (every kernel is ``nogil``), rather than in a Numba ``prange`` loop.
The speed is the same; the compilation is not. Numba links everything a function calls
into that function's module and optimises and compiles the whole module again, and a
parallel loop adds two such layers above its block function (the loop's body and the
kernel around it). With the deal below them, those layers were a large part of a first
run's compilation, paid again by each chunk kernel that plays deals (the simulator's,
the arena's, the atlas's...); ``benchmarks/bench_compile.py`` measures them.

>>> run_blocks(lambda b, lo, hi: (b, lo, hi), 10, 7, 3, threads=2)
[(0, 10, 12), (1, 12, 14), (2, 14, 17)]
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numba

T = TypeVar("T")

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def block_bounds(start: int, n: int, n_blocks: int, b: int) -> tuple[int, int]:
    """The indices ``lo .. hi-1`` of block ``b`` of ``start .. start+n-1`` split into
    ``n_blocks`` blocks (their sizes differ by one at most).

    >>> [block_bounds(0, 10, 4, b) for b in range(4)]
    [(0, 2), (2, 5), (5, 7), (7, 10)]
    """
    return start + (n * b) // n_blocks, start + (n * (b + 1)) // n_blocks


def _forget_pool() -> None:
    """In a forked child: the parent's pool threads do not exist there, start anew."""
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _threads_pool() -> ThreadPoolExecutor:
    """The process's pool of block threads: as many as Numba may use, less the caller's."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max(1, numba.config.NUMBA_NUM_THREADS - 1),
                                       thread_name_prefix="belote-sim-block")
        return _pool


def run_blocks(block: Callable[[int, int, int], T], start: int, n: int, n_blocks: int,
               threads: int | None = None) -> list[T]:
    """``[block(b, lo, hi) for b in range(n_blocks)]``, ``lo .. hi-1`` block ``b`` of
    ``start .. start+n-1`` (:func:`block_bounds`), on ``threads`` threads at once
    (default: Numba's thread count, ``numba.get_num_threads()``, which the runner sets):
    the calling thread and threads of a pool, each playing a run of consecutive blocks.
    Consecutive, not every ``threads``-th: the blocks' outputs are usually rows of one
    array, and two threads writing neighbouring rows at every deal would share their
    cache lines.

    ``block`` must call a compiled function that releases the GIL and writes only its
    own block's outputs; its results come back in block order.
    """
    if n_blocks < 1:
        raise ValueError(f"n_blocks must be at least 1, got {n_blocks}")
    width = min(n_blocks, threads if threads is not None else numba.get_num_threads())
    results: list = [None] * n_blocks

    def lane(j: int) -> None:
        for b in range(*block_bounds(0, n_blocks, width, j)):
            results[b] = block(b, *block_bounds(start, n, n_blocks, b))

    others = [_threads_pool().submit(lane, j) for j in range(1, width)]
    try:
        lane(0)
    finally:
        for future in others:
            future.result()
    return results
