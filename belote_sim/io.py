"""Files of a run directory: Parquet tables with provenance, atomic writes, loading.

A run directory holds ``run.json`` (provenance and state), ``summary.parquet`` (tidy
long table, :data:`SUMMARY_COLUMNS`), ``histograms.parquet`` (``histogram``, ``value``,
``count``), optionally ``deals/`` (one Parquet file per chunk, one row per deal) and
``chunks/`` (the committed counters of each chunk, for resuming).

>>> import pandas as pd, tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> df = summary_frame([("p_tierce", "", 10, 4, 0.4, 0.17, 0.69)])
>>> write_parquet(df, d / "summary.parquet", {"seed": 1})
>>> read_provenance(d / "summary.parquet")["seed"]
1
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from belote_sim.errors import BeloteError

SUMMARY_COLUMNS = ("metric", "group", "n", "k", "value", "ci_low", "ci_high")
METADATA_KEY = b"belote_sim"


def summary_frame(rows: Iterable[tuple]) -> pd.DataFrame:
    """A summary table with the documented column types (``k`` nullable)."""
    df = pd.DataFrame(list(rows), columns=list(SUMMARY_COLUMNS))
    return df.astype(
        {
            "metric": "string",
            "group": "string",
            "n": "int64",
            "k": "Int64",
            "value": "float64",
            "ci_low": "float64",
            "ci_high": "float64",
        }
    )


def atomic_path(path: Path) -> tuple[int, str]:
    """A temporary file beside ``path`` (same file system, so a rename is atomic)."""
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file, then rename it over ``path``."""
    fd, tmp = atomic_path(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_parquet(df: pd.DataFrame, path: Path, provenance: dict[str, Any]) -> None:
    """Write ``df`` to ``path`` atomically, with ``provenance`` as JSON in the Parquet
    key-value metadata under the key ``belote_sim``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[METADATA_KEY] = json.dumps(provenance).encode()
    table = table.replace_schema_metadata(meta)
    fd, tmp = atomic_path(path)
    os.close(fd)
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_provenance(path: Path | str) -> dict[str, Any]:
    """The provenance stored in a Parquet file written by :func:`write_parquet`."""
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    if METADATA_KEY not in meta:
        raise BeloteError(f"{path} has no belote_sim provenance")
    return json.loads(meta[METADATA_KEY])


@dataclass
class Run:
    """A run directory read back: ``summary`` and ``histograms`` DataFrames, ``info``
    (run.json); :meth:`deals` reads the optional per-deal dataset."""

    path: Path
    info: dict[str, Any]
    summary: pd.DataFrame
    histograms: pd.DataFrame = field(repr=False)

    def metric(self, metric: str, group: str = "") -> pd.Series:
        """The summary row of ``metric`` (and ``group``)."""
        rows = self.summary[(self.summary.metric == metric) & (self.summary.group == group)]
        if rows.empty:
            raise KeyError(f"no metric {metric!r} with group {group!r} in {self.path}")
        return rows.iloc[0]

    def deals(self, columns: list[str] | None = None) -> pd.DataFrame:
        """The per-deal rows (written with ``--records``) as one DataFrame."""
        path = self.path / "deals"
        if not path.is_dir():
            raise BeloteError(f"{self.path} has no per-deal records (run with --records)")
        return pd.read_parquet(path, columns=columns)


def load(run: str | Path) -> Run:
    """Read a finished run directory.

    >>> from belote_sim import Rules, simulate, load
    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> _ = simulate(Rules(), deals=1_000, seed=1, out=out)
    >>> int(load(out).metric("take_rate").n)
    1000
    """
    path = Path(run)
    info_file = path / "run.json"
    if not info_file.is_file():
        raise BeloteError(f"{str(path)!r} is not a run directory (no run.json)")
    info = json.loads(info_file.read_text())
    if info.get("status") != "complete":
        settings = info.get("settings", {})
        raise BeloteError(
            f"run {str(path)!r} is not complete ({info.get('done', 0)} of "
            f"{settings.get('count', '?')} {settings.get('unit', 'deals')} done): resume it first"
        )
    summary = pd.read_parquet(path / "summary.parquet")
    histograms = pd.read_parquet(path / "histograms.parquet")
    return Run(path, info, summary, histograms)
