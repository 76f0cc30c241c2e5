"""The simulation runner: chunked, reproducible, resumable runs.

A run is the pure function (rules, policies, seed, number of deals or matches) -> counters.
It is cut into chunks of consecutive deals (or matches); each chunk's integer counters
are committed to the run directory as soon as it is done (temporary file, then rename),
so an interrupted run resumes from its committed chunks and ends with exactly the numbers
of an uninterrupted one.

>>> from belote_sim import Rules, simulate
>>> run = simulate(Rules.from_preset("classic"), deals=2_000, seed=7)
>>> run.counters["deals"]
2000
>>> bool(0 < run.metric("take_rate").value < 1)
True
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from belote_sim.deallog import record_to_deal
from belote_sim.errors import BeloteError
from belote_sim.executors import ChunkResult, ChunkTask, LocalExecutor
from belote_sim.game import chunks
from belote_sim.io import atomic_path, write_parquet, write_text_atomic
from belote_sim.kernels import layout as L
from belote_sim.players import policy, policy_params
from belote_sim.rules import Rules
from belote_sim.stats import counters_to_dict, histogram_table, summary_table

#: Default chunk sizes: deals per chunk, matches per chunk, deals per chunk with records;
#: deals per chunk of the solver players (seconds per deal: small chunks, so that
#: progress shows and Ctrl-C is answered quickly; the arena uses it too).
CHUNK_DEALS = 1_000_000
CHUNK_MATCHES = 20_000
CHUNK_RECORDS = 250_000
CHUNK_SOLVER = 16


@dataclass(frozen=True)
class PolicySpec:
    """A policy name with its optional parameter, as written ``name[:param]``.

    >>> PolicySpec.parse("threshold:60", kind="bid")
    PolicySpec(kind='bid', name='threshold', param=60.0)
    """

    kind: str
    name: str
    param: float | None = None

    @classmethod
    def parse(cls, text: str, kind: str) -> PolicySpec:
        """Read ``name[:param]``, checking the name and the parameter against the
        registry (:data:`belote_sim.players.POLICIES`)."""
        name, _, raw = str(text).partition(":")
        entry = policy(kind, name.strip().lower())
        param = None
        if raw:
            try:
                param = float(raw)
            except ValueError:
                raise BeloteError(f"bad parameter {raw!r} in {kind} policy {text!r}") from None
        if entry.param is None:
            if param is not None:
                raise BeloteError(
                    f"{kind} policy {entry.name!r} takes no parameter ({text!r})"
                )
            return cls(kind, entry.name, None)
        if param is None:
            param = float(entry.default)
        low, high = entry.low, entry.high
        if entry.whole:
            if param != int(param) or not low <= param <= high:
                raise BeloteError(
                    f"{entry.name} needs a whole number of {entry.param} in "
                    f"{low:g}..{high:g}, not {raw!r} ({text!r})"
                )
        elif low is not None and not low <= param <= high:
            raise BeloteError(f"{entry.param} {param} of {text!r} is not in {low:g}..{high:g}")
        return cls(kind, entry.name, param)

    @property
    def id(self) -> int:
        return policy(self.kind, self.name).id

    def params(self) -> np.ndarray:
        return policy_params(*(() if self.param is None else (self.param,)))

    def __str__(self) -> str:
        return self.name if self.param is None else f"{self.name}:{self.param:g}"

    @property
    def uses_solver(self) -> bool:
        """True for the players that run the double-dummy solver (slow, see README)."""
        return policy(self.kind, self.name).solver


def _spec(policy: str | PolicySpec, kind: str) -> PolicySpec:
    return policy if isinstance(policy, PolicySpec) else PolicySpec.parse(policy, kind)


def _check_int(name: str, value: Any, low: int, high: int | None = None) -> None:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not ok or value < low or (high is not None and value > high):
        bound = f"an integer >= {low}" if high is None else f"an integer in {low}..{high}"
        raise BeloteError(f"{name} must be {bound}, not {value!r}")


def check_policies(rules: Rules, bid: PolicySpec) -> None:
    """Refuse a bidding policy the rules' auction cannot use: the ``dd`` bidder knows the
    retourne bidding of 7.1 only."""
    if bid.name == "dd" and rules.contract != "retourne":
        raise BeloteError(
            f"the dd bidder plays the retourne bidding only, not the {rules.contract} "
            f"auction of {rules.preset} rules"
        )


def check_run_args(count: int, seed: int, threads: int | None = None, name="deals") -> None:
    """Refuse non-positive counts, negative seeds and bad thread counts."""
    _check_int(name, count, 1)
    _check_int("seed", seed, 0, 2**63 - 1)
    if threads is not None:
        _check_int("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)


def check_independent_deals(rules: Rules, unit: str) -> None:
    """``shuffle=cut`` makes each pack depend on the deal before (RULES 4): such rules
    are simulated as whole matches only."""
    if rules.shuffle == "cut" and unit == "deals":
        raise BeloteError(
            "shuffle=cut rebuilds each pack from the deal before, so it plays whole "
            "matches: use --matches (simulate(..., matches=M)) instead of --deals"
        )


@dataclass(frozen=True)
class RunSettings:
    """What determines a run's numbers (plus how it is cut into chunks)."""

    rules: Rules
    bid_policy: PolicySpec
    play_policy: PolicySpec
    seed: int
    unit: str  # "deals" or "matches"
    count: int
    records: bool
    chunk_size: int

    def to_json(self) -> dict[str, Any]:
        import belote_sim

        return {
            # chunks of another engine version or counter layout cannot be merged
            "engine": f"{belote_sim.__version__}/{L.N_COUNTERS}",
            "rules": {"preset": self.rules.preset, "options": self.rules.options()},
            "bid_policy": str(self.bid_policy),
            "play_policy": str(self.play_policy),
            "seed": self.seed,
            "unit": self.unit,
            "count": self.count,
            "records": self.records,
            "chunk_size": self.chunk_size,
        }

    def chunks(self) -> list[tuple[int, int, int]]:
        """``(index, start, count)`` of every chunk."""
        size = self.chunk_size
        return [(i, s, min(size, self.count - s)) for i, s in enumerate(range(0, self.count, size))]

    def task(self, index: int, start: int, count: int, threads: int | None) -> ChunkTask:
        return ChunkTask(
            index=index, unit=self.unit, start=start, count=count, seed=self.seed,
            rules=tuple(int(x) for x in self.rules.to_array()),
            bid_policy=self.bid_policy.id, bid_params=tuple(self.bid_policy.params()),
            play_policy=self.play_policy.id, play_params=tuple(self.play_policy.params()),
            records=self.records, threads=threads,
        )


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
class SimulationResult:
    """What a run produced: its settings, counters and timing."""

    settings: RunSettings
    raw_counters: np.ndarray = field(repr=False)
    wall_seconds: float = 0.0
    executor: dict[str, Any] = field(default_factory=dict)
    started: str = ""
    finished: str = ""
    out: Path | None = None

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

    def provenance(self) -> dict[str, Any]:
        """Everything needed to reproduce the run, and how it went."""
        import belote_sim

        deals = int(self.raw_counters[L.C_DEALS])
        return {
            **self.settings.to_json(),
            "deals": deals,
            "version": belote_sim.__version__,
            "numba": numba.__version__,
            "numpy": np.__version__,
            **self.executor,
            "started": self.started,
            "finished": self.finished,
            "wall_seconds": self.wall_seconds,
            "deals_per_second": deals / self.wall_seconds if self.wall_seconds else None,
        }


class RunDir:
    """The files of a run directory that make it resumable (see :mod:`belote_sim.io`)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.info_file = self.path / "run.json"
        self.chunk_dir = self.path / "chunks"
        self.deals_dir = self.path / "deals"

    def check_writable(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise BeloteError(f"--out {str(self.path)!r} is a file, not a directory")
        parent = self.path
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir() or not os.access(parent, os.W_OK):
            raise BeloteError(f"--out {str(self.path)!r} is not writable")

    def read_info(self) -> dict[str, Any] | None:
        if not self.info_file.is_file():
            return None
        try:
            return json.loads(self.info_file.read_text())
        except json.JSONDecodeError:
            raise BeloteError(f"{self.info_file} is not valid JSON: not a belote_sim run") from None

    def prepare(self, settings: RunSettings, resume: bool) -> dict[int, np.ndarray]:
        """Check a previous run's settings and load its committed chunks; refuse to mix
        runs with different settings, naming what differs."""
        self.check_writable()
        info = self.read_info()
        if info is None:
            if resume:
                raise BeloteError(f"nothing to resume: {str(self.path)!r} holds no run")
            if self.path.is_dir() and any(self.path.iterdir()):
                raise BeloteError(f"--out {str(self.path)!r} exists and is not a run directory")
            self.path.mkdir(parents=True, exist_ok=True)
            self.chunk_dir.mkdir(exist_ok=True)
            self.write_info({"status": "running", "settings": settings.to_json()})
            return {}
        old = info.get("settings", {})
        new = settings.to_json()
        diff = [k for k in new if old.get(k) != new[k]]
        if diff:
            details = "; ".join(f"{k}: run has {old.get(k)!r}, asked {new[k]!r}" for k in diff)
            raise BeloteError(
                f"cannot resume {str(self.path)!r}: different {', '.join(diff)} ({details})"
            )
        self.chunk_dir.mkdir(exist_ok=True)
        done = {}
        for i, _, _ in settings.chunks():
            f = self.chunk_file(i)
            if f.is_file():
                done[i] = np.load(f)
        return done

    def chunk_file(self, index: int) -> Path:
        return self.chunk_dir / f"chunk-{index:06d}.npy"

    def commit(self, result: ChunkResult, rules: Rules, provenance: dict[str, Any]) -> None:
        """Write a finished chunk: its deal rows first, then its counters (the marker)."""
        if result.rows is not None:
            self.deals_dir.mkdir(exist_ok=True)
            write_parquet(
                rows_frame(result.rows, rules), self.deals_dir / f"part-{result.index:06d}.parquet",
                provenance,
            )
        path = self.chunk_file(result.index)
        fd, tmp = atomic_path(path)
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, result.counters)
        os.replace(tmp, path)

    def write_info(self, info: dict[str, Any]) -> None:
        write_text_atomic(self.info_file, json.dumps(info, indent=2) + "\n")


def rows_frame(rows: np.ndarray, rules: Rules) -> pd.DataFrame:
    """Per-deal rows as a typed DataFrame (columns in ``docs/metrics.md``)."""
    df = pd.DataFrame(rows, columns=list(L.ROW_COLUMNS))
    df["outcome"] = df["outcome"].map(L.OUTCOME_LABELS)
    return df.astype(L.ROW_TYPES)


def simulate(
    rules: Rules,
    deals: int | None = None,
    seed: int = 0,
    *,
    matches: int | None = None,
    bid_policy: str | PolicySpec = "random",
    play_policy: str | PolicySpec = "random",
    threads: int | None = None,
    out: str | Path | None = None,
    records: bool = False,
    chunk_size: int | None = None,
    resume: bool = False,
    executor: Any = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> SimulationResult:
    """Play ``deals`` independent deals (or ``matches`` whole matches) and count.

    The counters are a pure function of (rules, policies, seed, count): the same for any
    ``threads``, ``chunk_size`` or executor. With ``out`` each chunk is committed to that
    run directory as it finishes, and the summary, histograms and ``run.json`` are
    written at the end; calling again with the same settings resumes (``resume=True``
    insists that there is something to resume). ``progress(done, total)`` is called after
    each chunk; when ``should_stop()`` turns true the run stops after the current chunk
    and raises :class:`RunInterrupted`.
    """
    if (deals is None) == (matches is None):
        raise BeloteError("give either a number of deals or a number of matches")
    unit, count = ("deals", deals) if matches is None else ("matches", matches)
    check_run_args(count, seed, threads, unit)
    check_independent_deals(rules, unit)
    check_policies(rules, _spec(bid_policy, "bid"))
    if records and out is None:
        raise BeloteError("per-deal records need an output directory (--out)")
    if records and unit == "matches":
        raise BeloteError("per-deal records are written for deal runs, not with --matches")
    if chunk_size is None:
        chunk_size = CHUNK_MATCHES if unit == "matches" else (
            CHUNK_RECORDS if records else CHUNK_DEALS
        )
        if _spec(play_policy, "play").uses_solver:  # seconds per deal: small chunks
            chunk_size = CHUNK_SOLVER
    _check_int("chunk size", chunk_size, 1)
    settings = RunSettings(
        rules, _spec(bid_policy, "bid"), _spec(play_policy, "play"), int(seed), unit,
        int(count), bool(records), int(chunk_size),
    )
    run_dir = RunDir(Path(out)) if out is not None else None
    done: dict[int, np.ndarray] = run_dir.prepare(settings, resume) if run_dir else {}
    if executor is None:
        executor = LocalExecutor(threads)
    started = datetime.now(timezone.utc).isoformat()
    chunks = settings.chunks()
    sizes = {i: n for i, _, n in chunks}
    done_units = sum(sizes[i] for i in done)
    tasks = (settings.task(i, s, n, threads) for i, s, n in chunks if i not in done)
    base_provenance = {**settings.to_json(), "started": started}
    old_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    t0 = time.perf_counter()
    try:
        if progress is not None:
            progress(done_units, count)
        for result in executor.map_unordered(tasks):
            if run_dir is not None:
                run_dir.commit(result, rules, base_provenance)
            done[result.index] = result.counters
            done_units += sizes[result.index]
            if progress is not None:
                progress(done_units, count)
            if should_stop is not None and should_stop() and done_units < count:
                if run_dir is not None:
                    run_dir.write_info(
                        {"status": "interrupted", "settings": settings.to_json(),
                         "done": done_units}
                    )
                    raise RunInterrupted(run_dir.path, done_units, count, unit)
                raise RunInterrupted(None, done_units, count, unit)
    finally:
        numba.set_num_threads(old_threads)
    wall = time.perf_counter() - t0
    total = np.zeros(L.N_COUNTERS, dtype=np.int64)
    for i, _, _ in chunks:  # fixed order
        total += done[i]
    result = SimulationResult(
        settings, total, wall, executor.describe(), started,
        datetime.now(timezone.utc).isoformat(), run_dir.path if run_dir else None,
    )
    if run_dir is not None:
        write_run_outputs(run_dir, result)
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


def simulated_deals(
    rules: Rules,
    deals: int,
    seed: int = 0,
    *,
    bid_policy: str | PolicySpec = "random",
    play_policy: str | PolicySpec = "random",
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
    check_policies(rules, _spec(bid_policy, "bid"))
    bid, play = _spec(bid_policy, "bid"), _spec(play_policy, "play")
    recs = chunks.simulate_records(
        rules.to_array(), bid.id, bid.params(), play.id, play.params(), seed, start, deals
    )
    return [record_to_deal(r, rules) for r in recs]


def play_match(
    rules: Rules,
    seed: int = 0,
    match: int = 0,
    *,
    bid_policy: str | PolicySpec = "random",
    play_policy: str | PolicySpec = "random",
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
    _check_int("match", match, 0)
    bid, play = _spec(bid_policy, "bid"), _spec(play_policy, "play")
    out = np.zeros((max_deals, L.REC_SIZE), dtype=np.int64)
    n, winner, scores = chunks.play_match(
        rules.to_array(), bid.id, bid.params(), play.id, play.params(), seed, match,
        max_deals, out,
    )
    return {
        "winner": {-1: None, L.MATCH_DRAW: "draw"}.get(int(winner), int(winner)),
        "scores": [int(x) for x in scores[: 3 if rules.players == 3 else 2]],
        "deals": [record_to_deal(r, rules) for r in out[:n]],
    }
