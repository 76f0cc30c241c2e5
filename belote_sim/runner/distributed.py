"""The Dask executor: each chunk of a run is one task of a Dask cluster.

Needs ``pip install 'belote_sim[dask]'``. Tasks carry only plain values (seed, first
index, count, rules as integers, policy ids), workers play them with the cached jitted
kernels and send back integer counters, which the client sums in chunk order: the
merged counts are bit-identical to a local run.

Running on a real cluster::

    # on the scheduler machine
    dask scheduler --port 8786
    # on every worker machine (same belote_sim version installed; one worker per
    # machine, all its cores used by Numba threads)
    dask worker tcp://SCHEDULER:8786 --nworkers 1 --nthreads 1
    # anywhere
    belote-sim simulate --deals 1_000_000_000 --executor dask \\
        --scheduler tcp://SCHEDULER:8786 --out results/big
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from belote_sim.errors import BeloteError
from belote_sim.runner.executors import ChunkResult, ChunkTask, run_chunk

try:
    from dask.distributed import Client, LocalCluster, as_completed
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "the Dask executor needs dask[distributed]: pip install 'belote_sim[dask]'"
    ) from e


def _warm(threads: int | None) -> int:
    """Run on each worker once: set its Numba threads and load (or compile) the kernels."""
    import numba

    from belote_sim.batch import runs
    from belote_sim.players.seating import players_of
    from belote_sim.players.spec import as_spec
    from belote_sim.rules import Rules

    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    rules = Rules().to_array()
    players = players_of(as_spec("random", "bid"), as_spec("random", "play"), rules)
    runs.simulate_chunk(rules, players, 0, 0, 1, 1, False)
    return numba.get_num_threads()


class DaskExecutor:
    """Chunks as Dask tasks, on an existing scheduler (``scheduler="tcp://host:port"``),
    a ready ``client``, or a :class:`LocalCluster` started here (``n_workers``,
    ``processes``) and closed by :meth:`close`. At most ``window`` tasks are in flight,
    so a long run never holds all its results in memory."""

    name = "dask"

    def __init__(
        self,
        scheduler: str | None = None,
        *,
        client: Client | None = None,
        n_workers: int | None = None,
        processes: bool = True,
        threads: int | None = None,
        window: int | None = None,
    ) -> None:
        self._own: list = []
        self.threads = threads
        if client is None:
            if scheduler:
                try:
                    client = Client(scheduler, timeout="10s")
                except OSError as e:
                    raise BeloteError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
            else:
                cluster = LocalCluster(
                    n_workers=n_workers or 1,
                    threads_per_worker=1,
                    processes=processes,
                    dashboard_address=None,
                )
                client = Client(cluster)
                self._own = [client, cluster]
        self.client = client
        self.client.run(_warm, threads)
        n = len(self.client.scheduler_info().get("workers", {})) or 1
        self.window = window or 2 * n

    def map_unordered(self, tasks: Iterable[ChunkTask]) -> Iterator[ChunkResult]:
        pending = iter(tasks)
        futures = as_completed()
        in_flight = 0
        for task in pending:
            futures.add(self.client.submit(run_chunk, task, pure=False))
            in_flight += 1
            if in_flight >= self.window:
                break
        try:
            for future in futures:
                result = future.result()
                in_flight -= 1
                nxt = next(pending, None)
                if nxt is not None:
                    futures.add(self.client.submit(run_chunk, nxt, pure=False))
                    in_flight += 1
                yield result
        finally:
            for f in list(futures.futures):
                f.cancel()

    def close(self) -> None:
        for obj in self._own:
            obj.close()
        self._own = []

    def describe(self) -> dict:
        return {
            "executor": "dask",
            "scheduler": self.client.scheduler.address,
            "workers": len(self.client.scheduler_info().get("workers", {})),
        }
