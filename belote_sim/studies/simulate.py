"""Simulation: ``belote-sim simulate``, independent deals or whole matches between the
same players, counted.

A run is the pure function (rules, policies, seed, number of deals or matches) ->
counters, a :class:`SimulateJob` of the chunk runner (:mod:`belote_sim.runner.jobs`):
each chunk's integer counters are committed to the run directory as soon as it is done,
so an interrupted run resumes from its committed chunks and ends with exactly the
numbers of an uninterrupted one. :func:`simulated_deals` and :func:`play_match` give the
very deals and matches a run counts, in deal-log form.

>>> from belote_sim import Rules, simulate
>>> run = simulate(Rules.from_preset("classic"), deals=2_000, seed=7)
>>> run.counters["deals"]
2000
>>> bool(0 < run.metric("take_rate").value < 1)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.batch import runs
from belote_sim.deallog.format import dumps, record_to_deal
from belote_sim.errors import BeloteError
from belote_sim.kernels import layout as L
from belote_sim.players.seating import Players, players_of
from belote_sim.players.spec import PolicySpec, as_spec, check_policies
from belote_sim.rules import Rules
from belote_sim.runner.executors import Chunk, ChunkResult, refuse_illegal
from belote_sim.runner.jobs import (
    RunOptions,
    check_int,
    check_run_args,
    chunk_plan,
    deals_or_matches,
    engine_identity,
    execute,
)
from belote_sim.runner.rundir import RunDir, software, write_parquet, write_text_atomic
from belote_sim.stats import counters_to_dict, histogram_table, summary_table

#: Default chunk sizes: deals per chunk, matches per chunk, deals per chunk with records;
#: deals (or matches) per chunk of the solver players (seconds per deal: small chunks,
#: so that progress shows and Ctrl-C is answered quickly).
#: The players of ``simulate`` (and ``play_match``, ``simulated_deals``) unless told
#: otherwise: realistic belote, threshold bidding and heuristic card play; ``random``
#: stays available for both.
DEFAULT_BID_POLICY = "threshold"
DEFAULT_PLAY_POLICY = "heuristic"

#: The deals of a run that names neither deals nor matches.
DEFAULT_DEALS = 100_000

CHUNK_DEALS = 1_000_000
CHUNK_MATCHES = 20_000
CHUNK_RECORDS = 250_000
CHUNK_SOLVER = 16


def check_independent_deals(rules: Rules, unit: str) -> None:
    """``shuffle=cut`` makes each pack depend on the deal before (RULES 4): such rules
    are simulated as whole matches only."""
    if rules.shuffle == "cut" and unit == "deals":
        raise BeloteError(
            "shuffle=cut rebuilds each pack from the deal before, so it plays whole "
            "matches: use --matches (simulate(..., matches=M)) instead of --deals"
        )


@dataclass(frozen=True)
class DealsTask:
    """A chunk of independent deals of ``simulate``: their counters, and their per-deal
    rows with ``records``."""

    chunk: Chunk
    threads: int | None
    rules: tuple[int, ...]
    players: Players
    seed: int
    records: bool

    def play(self, blocks: int) -> ChunkResult:
        c = self.chunk
        counters, errors, rows = runs.simulate_chunk(
            np.asarray(self.rules, dtype=np.int64), self.players, self.seed, c.start, c.count,
            blocks, self.records,
        )
        refuse_illegal(errors, c)
        return ChunkResult(c.index, counters, rows if self.records else None)


@dataclass(frozen=True)
class MatchesTask:
    """A chunk of whole matches of ``simulate``: their counters."""

    chunk: Chunk
    threads: int | None
    rules: tuple[int, ...]
    players: Players
    seed: int

    def play(self, blocks: int) -> ChunkResult:
        c = self.chunk
        counters = runs.simulate_matches(
            np.asarray(self.rules, dtype=np.int64), self.players, self.seed, c.start, c.count,
            blocks, L.MAX_MATCH_DEALS,
        )
        return ChunkResult(c.index, counters)


@dataclass(frozen=True)
class SimulateJob:
    """A ``simulate`` run: ``count`` deals or matches (``unit``) of ``rules`` between the
    same players, cut into chunks of ``chunk_size``; with ``records`` every deal's row.
    Its players are built once, when the job is (every chunk's task carries them)."""

    rules: Rules
    bid_policy: PolicySpec
    play_policy: PolicySpec
    seed: int
    unit: str  # "deals" or "matches"
    count: int
    records: bool
    chunk_size: int
    players: Players = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", players_of(self.bid_policy, self.play_policy,
                                                       self.rules.to_array()))

    def to_json(self) -> dict[str, Any]:
        return {
            **engine_identity(L.N_COUNTERS),
            "rules": self.rules.describe(),
            "bid_policy": str(self.bid_policy),
            "play_policy": str(self.play_policy),
            "seed": self.seed,
            "unit": self.unit,
            "count": self.count,
            "records": self.records,
            "chunk_size": self.chunk_size,
        }

    @property
    def total(self) -> int:
        return self.count

    def chunks(self) -> list[Chunk]:
        return chunk_plan([(self.unit, self.count)], self.chunk_size)

    def chunk_bytes(self, count: int) -> int:
        """The memory a chunk of ``count`` units holds at once: its per-deal rows with
        ``records`` (the kernel's int64 rows and the table written from them); the
        counters alone are small."""
        return 2 * count * L.N_ROW * 8 if self.records else 0

    def task(self, chunk: Chunk, threads: int | None) -> DealsTask | MatchesTask:
        rules = tuple(int(x) for x in self.rules.to_array())
        if self.unit == "matches":
            return MatchesTask(chunk, threads, rules, self.players, self.seed)
        return DealsTask(chunk, threads, rules, self.players, self.seed, self.records)

    merge = staticmethod(np.add)

    @property
    def uses_solver(self) -> bool:
        """Whether its players need the double-dummy solver (the kind of its kernels)."""
        return self.bid_policy.uses_solver or self.play_policy.uses_solver


@dataclass
class SimulationResult:
    """What a run produced: its settings, counters and timing."""

    settings: SimulateJob
    raw_counters: np.ndarray = field(repr=False)
    wall_seconds: float = 0.0
    executor: dict[str, Any] = field(default_factory=dict)
    started: str = ""
    finished: str = ""
    out: Path | None = None
    #: Deals this call played in ``wall_seconds`` (fewer than the counters' when it
    #: resumed a run directory, 0 when every chunk was committed before).
    played_deals: int = 0

    @property
    def rules(self) -> Rules:
        return self.settings.rules

    @property
    def counters(self) -> dict[str, int]:
        """Scalar counters by name (``deals``, ``thrown_in``, ``taken_round_1`` ...)."""
        return counters_to_dict(self.raw_counters)

    def table(self) -> pd.DataFrame:
        """The tidy summary (metric, group, n, k, value, ci_low, ci_high)."""
        return summary_table(self.raw_counters, self.rules.players)

    def metric(self, metric: str, group: str = "") -> pd.Series:
        """One row of :meth:`table`."""
        t = self.table()
        rows = t[(t.metric == metric) & (t.group == group)]
        if rows.empty:
            raise KeyError(f"no metric {metric!r} with group {group!r}")
        return rows.iloc[0]

    def histograms(self) -> pd.DataFrame:
        """Histogram bins (histogram, value, count)."""
        return histogram_table(self.raw_counters)

    @property
    def deals_per_second(self) -> float | None:
        """The deals this call played per second of play (None when it played none)."""
        if not self.played_deals or not self.wall_seconds:
            return None
        return self.played_deals / self.wall_seconds

    def provenance(self) -> dict[str, Any]:
        """Everything needed to reproduce the run, and how it went."""

        deals = int(self.raw_counters[L.C_DEALS])
        return {
            **self.settings.to_json(),
            "deals": deals,
            **software(),
            **self.executor,
            "started": self.started,
            "finished": self.finished,
            "wall_seconds": self.wall_seconds,
            "deals_per_second": self.deals_per_second,
        }


def simulate(
    rules: Rules,
    deals: int | None = None,
    seed: int = 0,
    *,
    matches: int | None = None,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    play_policy: str | PolicySpec = DEFAULT_PLAY_POLICY,
    records: bool = False,
    log_deals: int = 0,
    run: RunOptions | None = None,
    **options: Any,
) -> SimulationResult:
    """Play ``deals`` independent deals (or ``matches`` whole matches; neither:
    :data:`DEFAULT_DEALS` deals) and count.

    The counters are a pure function of (rules, policies, seed, count): the same for any
    threads, chunk size or executor. How the run is played is ``run``
    (:class:`~belote_sim.runner.jobs.RunOptions`), or its fields as keywords
    (``out=DIR``, ``threads=2``, ``executor="dask"``, ``progress``, ``should_stop``...).
    With ``out`` each chunk is committed to that run directory as it finishes, and the
    summary, histograms and ``run.json`` are written at the end (with ``log_deals = K``
    also ``deals.jsonl``, the first K deals in deal-log form: of match 0, 1 ... with
    ``matches``); calling again with the same settings resumes (``resume=True`` insists
    that there is something to resume). ``progress(done, total)`` is called after each
    chunk; when ``should_stop()`` turns true the run stops after the current chunk and
    raises :class:`RunInterrupted`. Every argument is checked before anything runs (what
    ``belote-sim simulate`` does).
    """
    run = RunOptions.of(run, **options)
    unit, count = deals_or_matches(deals, matches, DEFAULT_DEALS)
    check_run_args(count, seed, unit)
    check_independent_deals(rules, unit)
    bid, play = as_spec(bid_policy, "bid"), as_spec(play_policy, "play")
    check_policies(rules, bid, play)
    check_int("log_deals", log_deals, 0)
    if unit == "deals" and log_deals > count:
        raise BeloteError(f"--log-deals {log_deals} is more than --deals {count}")
    if (records or log_deals) and run.out is None:
        raise BeloteError("--log-deals and --records need --out DIR")
    if records and unit == "matches":
        raise BeloteError("per-deal records are written for deal runs, not with --matches")
    default_chunk = CHUNK_MATCHES if unit == "matches" else (
        CHUNK_RECORDS if records else CHUNK_DEALS)
    if play.uses_solver:  # seconds per deal: small chunks
        default_chunk = CHUNK_SOLVER
    settings = SimulateJob(rules, bid, play, int(seed), unit, int(count), bool(records),
                           run.chunk_size_or(default_chunk))
    ran = execute(settings, run)
    run_dir = ran.run_dir
    result = SimulationResult(
        settings, ran.counters, ran.wall_seconds, ran.executor, ran.started, ran.finished,
        run_dir.path if run_dir else None,
        0 if ran.played_counters is None else int(ran.played_counters[L.C_DEALS]),
    )
    if run_dir is not None:
        write_run_outputs(run_dir, result)
        if log_deals:
            write_deal_logs(run_dir.path / "deals.jsonl", rules, log_deals, seed, bid, play,
                            unit, count)
    return result


def write_run_outputs(run_dir: RunDir, result: SimulationResult) -> None:
    """``summary.parquet``, ``histograms.parquet`` and the final ``run.json``."""
    prov = result.provenance()
    write_parquet(result.table(), run_dir.path / "summary.parquet", prov)
    write_parquet(result.histograms(), run_dir.path / "histograms.parquet", prov)
    run_dir.write_info(
        {
            "status": "complete",
            "settings": result.settings.to_json(),
            "done": result.settings.count,
            "provenance": prov,
            "counters": result.counters,
        }
    )


def write_deal_logs(path: Path, rules: Rules, k: int, seed: int, bid: PolicySpec,
                    play: PolicySpec, unit: str = "deals", count: int | None = None) -> None:
    """The first ``k`` deals of the run in deal-log form, one JSON object a line: deals
    ``0 .. k-1``, or with ``unit = "matches"`` the deals of match 0, then match 1 ...
    (each with its ``pot_before`` and ``redeals_before``), never past the run's ``count``
    matches: a run of fewer deals than ``k`` logs all of them."""
    if unit == "deals":
        logged = simulated_deals(rules, k, seed, bid_policy=bid, play_policy=play)
    else:
        logged = []
        match = 0
        while len(logged) < k and (count is None or match < count):
            logged += play_match(rules, seed, match, bid_policy=bid,
                                 play_policy=play)["deals"][: k - len(logged)]
            match += 1
    write_text_atomic(path, "".join(dumps(d) + "\n" for d in logged))


def simulated_deals(
    rules: Rules,
    deals: int,
    seed: int = 0,
    *,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    play_policy: str | PolicySpec = DEFAULT_PLAY_POLICY,
    start: int = 0,
) -> list[dict]:
    """Deal-log objects (DEAL_LOG.md, result fields included) of deals
    ``start .. start+deals-1`` of the run ``seed``: the very deals :func:`simulate` counts.

    >>> from belote_sim import Rules
    >>> d = simulated_deals(Rules(), 1, seed=3)[0]
    >>> len(d["pack"]), d["dealer"]
    (32, 0)
    """
    check_run_args(deals, seed)
    check_independent_deals(rules, "deals")
    bid, play = as_spec(bid_policy, "bid"), as_spec(play_policy, "play")
    check_policies(rules, bid, play)
    array = rules.to_array()
    recs = runs.simulate_records(array, players_of(bid, play, array), seed, start, deals)
    return [record_to_deal(r, rules) for r in recs]


def play_match(
    rules: Rules,
    seed: int = 0,
    match: int = 0,
    *,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    play_policy: str | PolicySpec = DEFAULT_PLAY_POLICY,
    max_deals: int = L.MAX_MATCH_DEALS,
) -> dict[str, Any]:
    """Play match ``match`` of the run ``seed`` to the target (RULES.md section 8,
    Match): the same match that ``simulate(..., matches=...)`` counts. Returns
    ``{"winner", "scores", "deals"}``; ``winner`` is a side (a seat with three players,
    who score individually), ``"draw"``, or ``None`` when
    ``max_deals`` deals did not finish it. ``deals`` are deal-log objects, carried litige
    pots (``pot_before``) included.

    >>> from belote_sim import Rules
    >>> m = play_match(Rules(), seed=1)
    >>> m["winner"] in (0, 1, "draw") and max(m["scores"]) >= 1000
    True
    """
    check_run_args(max_deals, seed, name="max_deals")
    check_int("match", match, 0)
    bid, play = as_spec(bid_policy, "bid"), as_spec(play_policy, "play")
    out = np.zeros((max_deals, L.REC_SIZE), dtype=np.int64)
    array = rules.to_array()
    n, winner, scores = runs.play_match(
        array, players_of(bid, play, array), seed, match, max_deals, out
    )
    return {
        "winner": {-1: None, L.MATCH_DRAW: "draw"}.get(int(winner), int(winner)),
        "scores": [int(x) for x in scores[: 3 if rules.players == 3 else 2]],
        "deals": [record_to_deal(r, rules) for r in out[:n]],
    }
