"""Files of a run directory: Parquet tables with provenance, atomic writes, loading.

A run directory holds ``run.json`` (provenance and state), ``summary.parquet`` (tidy
long table, :data:`SUMMARY_COLUMNS`), ``histograms.parquet`` (``histogram``, ``value``,
``count``), optionally ``deals/`` (one Parquet file per chunk, one row per deal) and
``chunks/`` (the committed counters of each chunk, for resuming).

Each committed chunk proves what it is (:func:`encode_chunk`): it names the run it
belongs to (:func:`run_identity`, a digest of the settings that make its numbers), its
index and its count, with a checksum of all of it and, with ``--records``, of its deals'
file. Whatever reads chunks back (a resumed run, ``summary``, ``report``) checks them
(:func:`decode_chunk`): a chunk that fails is played again on resume, and refused in one
line naming its file elsewhere, never summed.

>>> import pandas as pd, tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> df = summary_frame([("p_tierce", "", 10, 4, 0.4, 0.17, 0.69)])
>>> write_parquet(df, d / "summary.parquet", {"seed": 1})
>>> read_provenance(d / "summary.parquet")["seed"]
1
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.kernels import layout as L
from belote_sim.runner.executors import Chunk

#: Where a resumed run says which chunks it plays again (the logger of the compile
#: notice: a user sees it on stderr).
log = logging.getLogger("belote_sim")

SUMMARY_COLUMNS = ("metric", "group", "n", "k", "value", "ci_low", "ci_high")
#: The first bytes of a committed chunk's file (:func:`encode_chunk`).
CHUNK_MAGIC = b"belote_sim chunk 1\n"
#: The longest file name most file systems take (each component of a path).
MAX_NAME_BYTES = 255
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


@functools.cache
def _file_mode() -> int:
    """The mode of a new file under this process's umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def atomic_file(path: Path) -> Iterator[str]:
    """A temporary file beside ``path`` (same file system, so a rename is atomic) for the
    block to write, renamed over ``path`` when the block ends, removed when it fails. A
    failure of the file system (a full disk) names ``path``: the write that meets it
    does not say which file it was writing."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        os.chmod(tmp, _file_mode())  # mkstemp's 0600 would keep a shared run unreadable
        yield tmp
        os.replace(tmp, path)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError) and not e.filename:
            raise OSError(e.errno, e.strerror or str(e), str(path)) from None
        raise


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file, then rename it over ``path``."""
    with atomic_file(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file, then rename it over ``path``."""
    with atomic_file(path) as tmp:
        Path(tmp).write_bytes(data)


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
    with atomic_file(path) as tmp:
        pq.write_table(table, tmp, compression=compression)


def read_provenance(path: Path | str) -> dict[str, Any]:
    """The provenance stored in a Parquet file written by :func:`write_parquet`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException) as e:
        raise BeloteError(f"{path} cannot be read ({_first_line(e)})") from None
    if METADATA_KEY not in meta:
        raise BeloteError(f"{path} has no belote_sim provenance")
    try:
        return json.loads(meta[METADATA_KEY])
    except ValueError:
        raise BeloteError(f"{path}: its belote_sim provenance is not valid JSON") from None


def _first_line(e: BaseException) -> str:
    """An error's message cut to its first line (pyarrow's span several)."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def run_identity(settings: dict[str, Any]) -> str:
    """The identity of a run: a digest of the settings that make its numbers (a job's
    ``to_json()``: rules, players, seed, counts, chunking, engine), which every chunk
    of the run carries.

    >>> run_identity({"seed": 5}) == run_identity({"seed": 5}) != run_identity({"seed": 6})
    True
    """
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def command_of(settings: dict[str, Any]) -> str:
    """The command whose run ``settings`` (a job's ``to_json()``) are: each names its
    own, but ``simulate``'s, the first command, which names none.

    >>> command_of({"command": "odds"}), command_of({"seed": 1})
    ('odds', 'simulate')
    """
    return settings.get("command", "simulate")


def _checksum(*parts: bytes) -> str:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part)
    return h.hexdigest()


def encode_chunk(run: str, index: int, count: int, counters: np.ndarray,
                 rows: str | None = None) -> bytes:
    """The bytes of a committed chunk: :data:`CHUNK_MAGIC`, a JSON line (the ``run``
    identity, the chunk's ``index`` and ``count`` of units, the counters' type and shape,
    the digest of its deals' file ``rows`` when there is one, and the checksum of this
    line and the data), then the counters' bytes.

    >>> blob = encode_chunk("abc", 3, 10, np.arange(4))
    >>> header, counters = decode_chunk(blob, "chunk-000003.chunk")
    >>> header["index"], header["count"], counters.tolist()
    (3, 10, [0, 1, 2, 3])
    """
    counters = np.ascontiguousarray(counters)
    data = counters.tobytes()
    header = {"run": run, "index": int(index), "count": int(count),
              "dtype": counters.dtype.str, "shape": list(counters.shape), "rows": rows}
    line = json.dumps(header, sort_keys=True).encode()
    header["checksum"] = _checksum(line, data)
    return CHUNK_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + data


class ChunkError(BeloteError):
    """A committed chunk that cannot be used: damaged, or another run's or index's."""


def decode_chunk(blob: bytes, name: str) -> tuple[dict[str, Any], np.ndarray]:
    """The header and counters of a chunk's bytes (:func:`encode_chunk`), checked
    against its checksum; :class:`ChunkError` naming ``name`` and what is wrong."""
    if not blob.startswith(CHUNK_MAGIC):
        why = "is empty" if not blob else "is not a committed chunk"
        raise ChunkError(f"{name}: {why}")
    end = blob.find(b"\n", len(CHUNK_MAGIC))
    try:
        header = json.loads(blob[len(CHUNK_MAGIC):end]) if end > 0 else None
        data = blob[end + 1:]
        checksum = header.pop("checksum")
        line = json.dumps(header, sort_keys=True).encode()
        ok = checksum == _checksum(line, data)
        counters = np.frombuffer(data, dtype=np.dtype(header["dtype"])).reshape(
            header["shape"]) if ok else None
    except (ValueError, TypeError, KeyError, AttributeError):
        ok = False
    if not ok:
        raise ChunkError(f"{name}: fails its checksum (damaged or cut)")
    return header, counters.copy()


def check_name(path: Path, option: str) -> None:
    """Refuse a path with a name longer than a file system takes, in one line."""
    for part in Path(path).parts:
        if len(os.fsencode(part)) > MAX_NAME_BYTES:
            raise BeloteError(f"{option} {str(path)[:60]!r}...: a name in it is too long "
                              f"({len(os.fsencode(part))} bytes; at most {MAX_NAME_BYTES})")


def _existing_parent(path: Path) -> Path:
    parent = path
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent


def check_output_file(path: Path | str, option: str) -> Path:
    """``path`` as a file a command may write, checked before the command does its work:
    a sane name, not a directory, in an existing directory the user may write to.

    >>> check_output_file("/no/such/a.json", "--out")
    Traceback (most recent call last):
    belote_sim.errors.BeloteError: --out '/no/such/a.json': its directory '/no/such' does not exist
    """
    path = Path(path)
    check_name(path, option)
    if path.is_dir():
        raise BeloteError(f"{option} {str(path)!r} is a directory: give a file name")
    parent = path.parent
    if not parent.is_dir():
        why = "is not a directory" if parent.exists() else "does not exist"
        raise BeloteError(f"{option} {str(path)!r}: its directory {str(parent)!r} {why}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise BeloteError(f"{option} {str(path)!r} is not writable")
    return path


class RunDir:
    """The files of a run directory that make it resumable (module docstring): ``run.json``,
    ``chunks/`` and ``deals/``."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.info_file = self.path / "run.json"
        self.chunk_dir = self.path / "chunks"
        self.deals_dir = self.path / "deals"
        #: The identity of the run being played here (:func:`run_identity`), once
        #: :meth:`prepare` has read or written its settings.
        self.identity: str | None = None

    def check_writable(self) -> None:
        """Refuse, before any work, an ``--out`` the run cannot be written to."""
        check_name(self.path, "--out")
        if self.path.exists() and not self.path.is_dir():
            raise BeloteError(f"--out {str(self.path)!r} is a file, not a directory")
        parent = _existing_parent(self.path)
        if not parent.is_dir():
            raise BeloteError(f"--out {str(self.path)!r}: {str(parent)!r} is not a directory")
        if not os.access(parent, os.W_OK):
            raise BeloteError(f"--out {str(self.path)!r} is not writable")

    def read_info(self) -> dict[str, Any] | None:
        """``run.json``, or None where there is none; a damaged one is refused in one
        line."""
        check_name(self.path, "run directory")
        if not self.info_file.is_file():
            return None
        try:
            info = json.loads(self.info_file.read_bytes())
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BeloteError(f"{self.info_file} is not valid JSON: not a belote_sim run, "
                              "or a damaged one") from None
        except OSError as e:
            raise BeloteError(f"cannot read {self.info_file}: {e.strerror}") from None
        if not isinstance(info, dict) or not isinstance(info.get("settings", {}), dict):
            raise BeloteError(f"{self.info_file} is not a JSON object of a belote_sim run")
        return info

    def prepare(self, job: Any, resume: bool, chunks: Iterable[Any]) -> dict[int, np.ndarray]:
        """Check a previous run's settings (``job.to_json()`` of a
        :class:`belote_sim.runner.jobs.Job`) and load its committed chunks of the plan
        ``chunks`` (``job.chunks()``), each checked (:meth:`read_chunks`); refuse to mix runs with
        different settings, naming what differs. A chunk that fails its check is played
        again (with a notice naming it), and what a crash left half-written is removed."""
        self.check_writable()
        info = self.read_info()
        settings = job.to_json()
        self.identity = run_identity(settings)
        if info is None:
            if resume:
                raise BeloteError(f"nothing to resume: {str(self.path)!r} holds no run")
            if self.path.is_dir() and any(self.path.iterdir()):
                raise BeloteError(f"--out {str(self.path)!r} exists and is not a run directory")
            self.path.mkdir(parents=True, exist_ok=True)
            self.write_info({"status": "running", "settings": settings})
            self.chunk_dir.mkdir(exist_ok=True)
            return {}
        old = info.get("settings", {})
        if command_of(old) != command_of(settings):
            raise BeloteError(f"--out {str(self.path)!r} holds a {command_of(old)} run, not a "
                              f"{command_of(settings)} run: give another directory")
        diff = [k for k in settings if old.get(k) != settings[k]]
        if diff:
            details = "; ".join(f"{k}: run has {old.get(k)!r}, asked {settings[k]!r}"
                                for k in diff)
            raise BeloteError(
                f"cannot resume {str(self.path)!r}: different {', '.join(diff)} ({details})"
            )
        self.clean_up()
        self.chunk_dir.mkdir(exist_ok=True)
        done, damaged = self.read_chunks(chunks, self.identity)
        for path, why in damaged:
            log.warning("%s: played again", why)
            path.unlink(missing_ok=True)
        return {i: counters for i, (_, counters) in done.items()}

    def clean_up(self) -> None:
        """Remove the temporary files a crash or a full disk left half-written."""
        for folder in (self.path, self.chunk_dir, self.deals_dir):
            if folder.is_dir():
                for tmp in folder.glob(".*.tmp"):
                    tmp.unlink(missing_ok=True)

    def read_chunks(self, chunks: Iterable[Any], identity: str
                    ) -> tuple[dict[int, tuple[int, np.ndarray]], list[tuple[Path, str]]]:
        """The committed chunks of the plan ``chunks`` whose files prove they belong to
        the run ``identity`` (:func:`decode_chunk`): ``{index: (count, counters)}``, and
        ``(file, why)`` for each that does not (damaged, another run's, another index's,
        its deals' file missing or changed)."""
        done: dict[int, tuple[int, np.ndarray]] = {}
        damaged: list[tuple[Path, str]] = []
        for chunk in chunks:
            path = self.chunk_file(chunk.index)
            if not path.is_file():
                continue
            try:
                header, counters = decode_chunk(path.read_bytes(), path.name)
                if header["run"] != identity:
                    raise ChunkError(f"{path.name}: belongs to another run (played with "
                                     "other settings than this run's)")
                if header["index"] != chunk.index:
                    raise ChunkError(f"{path.name}: holds chunk {header['index']}")
                if header["count"] != chunk.count:
                    raise ChunkError(f"{path.name}: holds {header['count']} {chunk.unit}, "
                                     f"not {chunk.count}")
                if header["rows"] is not None:
                    part = self.part_file(chunk.index)
                    if not part.is_file() or file_digest(part) != header["rows"]:
                        raise ChunkError(f"{path.name}: its deals' file {part.name} is "
                                         "missing or changed")
            except ChunkError as e:
                damaged.append((path, str(e)))
                continue
            done[chunk.index] = (header["count"], counters)
        return done, damaged

    def chunk_file(self, index: int) -> Path:
        return self.chunk_dir / f"chunk-{index:06d}.chunk"

    def part_file(self, index: int) -> Path:
        return self.deals_dir / f"part-{index:06d}.parquet"

    def commit(self, chunk: Any, counters: np.ndarray, rows: np.ndarray | None,
               provenance: dict[str, Any]) -> None:
        """Write a finished chunk (:class:`~belote_sim.runner.executors.Chunk`): its deal
        rows (``int64[n, N_ROW]``) first, then its counters with the run's identity
        (:func:`encode_chunk`, the marker that the chunk is done)."""
        digest = None
        if rows is not None:
            self.deals_dir.mkdir(exist_ok=True)
            part = self.part_file(chunk.index)
            write_parquet(rows_frame(rows), part, provenance)
            digest = file_digest(part)
        write_bytes_atomic(self.chunk_file(chunk.index),
                           encode_chunk(self.identity or "", chunk.index, chunk.count,
                                        counters, digest))

    def write_info(self, info: dict[str, Any]) -> None:
        write_text_atomic(self.info_file, json.dumps(info, indent=2) + "\n")


def file_digest(path: Path) -> str:
    """The checksum of a file's bytes (a chunk's deals' file)."""
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


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
    Its committed chunks are checked first (:meth:`RunDir.read_chunks`): a damaged
    run directory, or one whose ``run.json`` is not what its chunks were played with,
    is refused in one line naming the file.

    >>> from belote_sim import Rules, simulate, load
    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> _ = simulate(Rules(), deals=1_000, seed=1, out=out)
    >>> int(load(out).metric("take_rate").n)
    1000
    """
    path = Path(run)
    run_dir = RunDir(path)
    info = run_dir.read_info()
    if info is None:
        raise BeloteError(f"{str(path)!r} is not a run directory (no run.json)")
    settings = info.get("settings", {})
    unit = info.get("unit", settings.get("unit", "deals"))
    total = info.get("total", settings.get("count"))
    done = 0
    if run_dir.chunk_dir.is_dir():
        done, damaged = _committed(run_dir, settings)
        if damaged:
            _, why = damaged[0]
            raise BeloteError(f"{run_dir.chunk_dir}{os.sep}{why}; run the same command with "
                              "--resume to play it again")
    if info.get("status") != "complete":
        of = f" of {total:,}" if isinstance(total, int) else ""
        raise BeloteError(f"run {str(path)!r} is not complete ({done:,}{of} {unit} "
                          "committed): resume it first")
    command = command_of(settings)
    table = path / TABLE_FILES.get(command, "summary.parquet")
    summary = read_table(table)
    if command != "simulate":
        summary.attrs["provenance"] = read_provenance(table)
    hist_file = path / "histograms.parquet"  # an arena's run has none
    histograms = read_table(hist_file) if hist_file.is_file() else pd.DataFrame(
        {"histogram": pd.Series(dtype="string"), "value": pd.Series(dtype="int64"),
         "count": pd.Series(dtype="int64")}
    )
    return Run(path, info, summary, histograms)


def _committed(run_dir: RunDir, settings: dict[str, Any]
               ) -> tuple[int, list[tuple[Path, str]]]:
    """The units committed in ``run_dir``'s chunks, and the chunks that fail their
    check against the run of ``settings`` (every chunk file found, whatever the plan)."""
    identity = run_identity(settings)
    files = sorted(run_dir.chunk_dir.glob("chunk-*.chunk"))
    plan = []
    for f in files:
        try:
            header, _ = decode_chunk(f.read_bytes(), f.name)
            index, count = int(header["index"]), int(header["count"])
        except ChunkError:
            index, count = int(f.stem.split("-")[1]), -1
        plan.append(Chunk(index, str(settings.get("unit", "deals")), 0, count))
    done, damaged = run_dir.read_chunks(plan, identity)
    damaged = [(f, why.replace("other settings than this run's",
                               "other settings than run.json's: run.json does not hold "
                               "the settings its chunks were played with"))
               for f, why in damaged]
    return sum(count for count, _ in done.values()), damaged


def read_table(path: Path) -> pd.DataFrame:
    """A Parquet table of a run directory; a damaged one refused in one line."""
    import pyarrow as pa

    try:
        return pd.read_parquet(path)
    except (OSError, pa.ArrowException) as e:
        raise BeloteError(f"{path} cannot be read ({_first_line(e)}): the run directory is "
                          "damaged") from None
