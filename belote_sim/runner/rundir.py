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

import functools
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.kernels import layout as L

SUMMARY_COLUMNS = ("metric", "group", "n", "k", "value", "ci_low", "ci_high")
#: The main table of a finished run directory, by the command that wrote it (the others
#: write ``summary.parquet``).
TABLE_FILES = {"compare": "compare.parquet", "bid-table": "atlas.parquet"}
METADATA_KEY = b"belote_sim"


def software() -> dict[str, Any]:
    """The versions a run's numbers depend on, for its provenance: the package, Numba,
    NumPy and, when the package runs from a git checkout, its commit (:func:`git_commit`).

    >>> sorted(software())[:3]
    ['git_commit', 'numba', 'numpy']
    """
    import numba

    from belote_sim._version import __version__

    return {"version": __version__, "numba": numba.__version__,
            "numpy": np.__version__, "git_commit": git_commit()}


@functools.cache
def git_commit() -> str | None:
    """The commit of the git checkout the package runs from (``+dirty`` when tracked files
    differ from it), or None: installed from a wheel, or git missing."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists() or not (root / "pyproject.toml").is_file():
        return None
    try:
        def git(*args: str) -> str:
            return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                                  text=True, timeout=5, check=True).stdout.strip()

        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


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


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file, then rename it over ``path``."""
    fd, tmp = atomic_path(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_parquet(df: pd.DataFrame, path: Path, provenance: dict[str, Any],
                  compression: str = "snappy") -> None:
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
        pq.write_table(table, tmp, compression=compression)
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


class RunDir:
    """The files of a run directory that make it resumable (module docstring): ``run.json``,
    ``chunks/`` and ``deals/``."""

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

    def prepare(self, job: Any, resume: bool) -> dict[int, np.ndarray]:
        """Check a previous run's settings (``job.to_json()`` of a
        :class:`belote_sim.runner.jobs.Job`) and load its committed chunks
        (``job.chunks()``); refuse to mix runs with different settings, naming what
        differs."""
        self.check_writable()
        info = self.read_info()
        if info is None:
            if resume:
                raise BeloteError(f"nothing to resume: {str(self.path)!r} holds no run")
            if self.path.is_dir() and any(self.path.iterdir()):
                raise BeloteError(f"--out {str(self.path)!r} exists and is not a run directory")
            self.path.mkdir(parents=True, exist_ok=True)
            self.chunk_dir.mkdir(exist_ok=True)
            self.write_info({"status": "running", "settings": job.to_json()})
            return {}
        old = info.get("settings", {})
        new = job.to_json()
        diff = [k for k in new if old.get(k) != new[k]]
        if diff:
            details = "; ".join(f"{k}: run has {old.get(k)!r}, asked {new[k]!r}" for k in diff)
            raise BeloteError(
                f"cannot resume {str(self.path)!r}: different {', '.join(diff)} ({details})"
            )
        self.chunk_dir.mkdir(exist_ok=True)
        done = {}
        for chunk in job.chunks():
            f = self.chunk_file(chunk.index)
            if f.is_file():
                done[chunk.index] = np.load(f)
        return done

    def chunk_file(self, index: int) -> Path:
        return self.chunk_dir / f"chunk-{index:06d}.npy"

    def commit(self, index: int, counters: np.ndarray, rows: np.ndarray | None,
               provenance: dict[str, Any]) -> None:
        """Write a finished chunk: its deal rows (``int64[n, N_ROW]``) first, then its
        counters (the marker that the chunk is done)."""
        if rows is not None:
            self.deals_dir.mkdir(exist_ok=True)
            write_parquet(
                rows_frame(rows), self.deals_dir / f"part-{index:06d}.parquet", provenance
            )
        path = self.chunk_file(index)
        fd, tmp = atomic_path(path)
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, counters)
        os.replace(tmp, path)

    def write_info(self, info: dict[str, Any]) -> None:
        write_text_atomic(self.info_file, json.dumps(info, indent=2) + "\n")


def rows_frame(rows: np.ndarray) -> pd.DataFrame:
    """Per-deal rows as a typed DataFrame (columns in ``docs/metrics.md``)."""
    df = pd.DataFrame(rows, columns=list(L.ROW_COLUMNS))
    df["outcome"] = df["outcome"].map(L.OUTCOME_LABELS)
    return df.astype(L.ROW_TYPES)


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
    """Read a finished run directory of any command of the chunk runner; its ``summary``
    is the command's main table (:data:`TABLE_FILES`: the comparison's, the atlas).

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
        total = info.get("total", settings.get("count", "?"))
        unit = info.get("unit", settings.get("unit", "deals"))
        raise BeloteError(
            f"run {str(path)!r} is not complete ({info.get('done', 0)} of {total} {unit} "
            "done): resume it first"
        )
    command = info.get("settings", {}).get("command", "simulate")
    table = path / TABLE_FILES.get(command, "summary.parquet")
    summary = pd.read_parquet(table)
    if command != "simulate":
        summary.attrs["provenance"] = read_provenance(table)
    hist_file = path / "histograms.parquet"  # an arena's run has none
    histograms = pd.read_parquet(hist_file) if hist_file.is_file() else pd.DataFrame(
        {"histogram": pd.Series(dtype="string"), "value": pd.Series(dtype="int64"),
         "count": pd.Series(dtype="int64")}
    )
    return Run(path, info, summary, histograms)
