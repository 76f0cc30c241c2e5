"""Odds of declarations in one random hand (RULES.md section 5): exact and Monte Carlo.

The library side of ``belote-sim odds [--cards 8|9] --out DIR``. Each function returns
the tidy summary table of :func:`belote_sim.runner.rundir.summary_frame`, one row per metric of
:data:`~belote_sim.batch.odds.ODDS_METRICS` with group ``"cards=8"`` or ``"cards=9"``, then the mean
``expected_declaration_points`` (sum of the points of every declaration held,
``split_long_runs`` off). Kernels: :mod:`belote_sim.batch.odds`.

>>> from belote_sim.studies.odds import sampled_odds
>>> df = sampled_odds(cards=8, samples=20_000, seed=1)
>>> list(df.metric[:3]), int(df.n[0])
(['p_tierce', 'p_quarte', 'p_quinte_or_longer'], 20000)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.batch import odds
from belote_sim.batch.odds import MEAN_METRIC, ODDS_METRICS
from belote_sim.errors import BeloteError
from belote_sim.runner.executors import Chunk, ChunkResult
from belote_sim.runner.jobs import (
    RunOptions,
    check_run_args,
    chunk_plan,
    engine_identity,
    execute,
)
from belote_sim.runner.rundir import (
    RunDir,
    command_of,
    read_provenance,
    software,
    summary_frame,
    write_parquet,
)
from belote_sim.stats import mean_interval, wilson_interval
from belote_sim.studies.playouts import finish

CARDS = (8, 9)


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_cards(cards: Any) -> int:
    if not _is_int(cards) or int(cards) not in CARDS:
        raise BeloteError(f"cards must be 8 or 9, got {cards!r}")
    return int(cards)


def exact_odds(cards: int = 8) -> pd.DataFrame:
    """Exact odds of declarations in a hand of ``cards`` cards (8 or 9), by enumerating
    all ``C(32, cards)`` hands.

    ``n`` is the number of hands, ``k`` the number with the property, ``value = k / n``
    and ``ci_low = ci_high = value``; the mean row has ``k`` empty.

    :raises BeloteError: ``cards`` is not 8 or 9.

    >>> from belote_sim.studies.odds import exact_odds
    >>> df = exact_odds(8).set_index("metric")
    >>> int(df.n["p_carre_jacks"]), int(df.k["p_carre_jacks"])
    (10518300, 20475)
    """
    cards = _check_cards(cards)
    counts = odds.exact_counts(cards)
    n = int(counts[odds.SLOT_HANDS])
    group = f"cards={cards}"
    rows = []
    for f, metric in enumerate(ODDS_METRICS):
        k = int(counts[f])
        rows.append((metric, group, n, k, k / n, k / n, k / n))
    mean = int(counts[odds.SLOT_POINTS]) / n
    rows.append((MEAN_METRIC, group, n, None, mean, mean, mean))
    return summary_frame(rows)


#: Hands per chunk of a sampled table (one progress step, one committed file).
CHUNK_SAMPLES = 5_000_000


@dataclass(frozen=True)
class SampledOddsTask:
    """A chunk of random hands: their declaration counters."""

    chunk: Chunk
    threads: int | None
    cards: int
    seed: int

    def play(self, blocks: int) -> ChunkResult:
        c = self.chunk
        return ChunkResult(c.index, odds.sampled_counts(self.cards, c.start, c.count, self.seed))


@dataclass(frozen=True)
class SampledOddsJob:
    """``samples`` random hands of ``cards`` cards."""

    cards: int
    samples: int
    seed: int
    chunk_size: int
    unit = "hands"

    @property
    def total(self) -> int:
        return self.samples

    def to_json(self) -> dict[str, Any]:
        return {**engine_identity(odds.N_SLOTS), "command": "odds", "cards": self.cards,
                "method": "monte carlo", "samples": self.samples, "seed": self.seed,
                "chunk_size": self.chunk_size}

    def chunks(self) -> list[Chunk]:
        return chunk_plan([("hands", self.samples)], self.chunk_size)

    def task(self, chunk: Chunk, threads: int | None) -> SampledOddsTask:
        return SampledOddsTask(chunk, threads, self.cards, self.seed)

    merge = staticmethod(np.add)


def sampled_odds(cards: int = 8, samples: int = 1_000_000, seed: int = 0, *,
                 run: RunOptions | None = None, **options: Any) -> pd.DataFrame:
    """Monte Carlo odds of declarations over ``samples`` random hands of ``cards`` cards.

    Hand ``i`` is a pure function of ``(seed, i)``, so a table is reproducible whatever
    the threads, executor or chunk size. Proportions have Wilson 95% intervals; the mean
    has ``mean ± 1.96 × standard error`` (sample variance; nan for one sample). A run of
    the chunk runner, played as ``run`` (:class:`~belote_sim.runner.jobs.RunOptions`, or
    its fields as keywords) says: ``out`` commits the chunks there, and
    ``summary.parquet`` and ``run.json`` at the end.

    :raises BeloteError: ``cards`` is not 8 or 9, ``samples <= 0`` or ``seed < 0``.

    >>> from belote_sim.studies.odds import sampled_odds
    >>> row = sampled_odds(cards=9, samples=10_000, seed=3).iloc[-1]
    >>> row.metric, bool(row.ci_low < row.value < row.ci_high)
    ('expected_declaration_points', True)
    """
    run = RunOptions.of(run, **options)
    cards = _check_cards(cards)
    check_run_args(samples, seed, "samples")
    job = SampledOddsJob(cards, int(samples), int(seed), run.chunk_size_or(CHUNK_SAMPLES))
    ran = execute(job, run)
    counts = ran.counters
    group = f"cards={cards}"
    rows = []
    for f, metric in enumerate(ODDS_METRICS):
        k = int(counts[f])
        low, high = wilson_interval(k, samples)
        rows.append((metric, group, samples, k, k / samples, low, high))
    mean, _, low, high = mean_interval(
        int(counts[odds.SLOT_POINTS]), int(counts[odds.SLOT_POINTS_SQ]), samples
    )
    rows.append((MEAN_METRIC, group, samples, None, mean, low, high))
    df = summary_frame(rows)
    df.attrs["provenance"] = {**job.to_json(), **software(), **ran.executor,
                              "started": ran.started, "wall_seconds": ran.wall_seconds}
    finish(ran, job, df, "summary.parquet")
    return df


def check_odds_out(out_dir: str | Path) -> Path:
    """``out_dir`` as the directory of an exact enumeration's table, checked before the
    work: writable, and holding no file of another command (no run directory, no
    ``summary.parquet`` that ``odds`` did not write), which it would replace."""
    out = Path(out_dir)
    run_dir = RunDir(out)
    run_dir.check_writable()
    info = run_dir.read_info()
    if info is not None:
        raise BeloteError(f"--out {str(out)!r} holds a {command_of(info.get('settings', {}))} "
                          "run (run.json): give another directory")
    table = out / "summary.parquet"
    if table.exists():
        try:
            command = read_provenance(table).get("command")
        except (BeloteError, OSError, ValueError):  # another's table, or a damaged one
            command = None
        if command != "odds":
            raise BeloteError(f"--out {str(out)!r}: its summary.parquet was not written by "
                              "odds: give another directory")
    return out


def write_odds(df: pd.DataFrame, out_dir: str | Path, provenance: dict[str, Any]) -> Path:
    """Write ``df`` to ``out_dir/summary.parquet`` (creating ``out_dir``) with
    ``provenance`` in its metadata (:func:`belote_sim.runner.rundir.write_parquet`);
    return the path.

    >>> import tempfile
    >>> from belote_sim.runner.rundir import read_provenance
    >>> from belote_sim.studies.odds import sampled_odds, write_odds
    >>> path = write_odds(sampled_odds(samples=1_000), tempfile.mkdtemp(), {"seed": 0})
    >>> path.name, read_provenance(path)["seed"]
    ('summary.parquet', 0)
    """
    out = check_odds_out(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "summary.parquet"
    write_parquet(df, path, provenance)
    return path
