"""The package as a user installs it: the wheel built from this tree, installed into a
fresh virtual environment without extras, runs every command once on a small input.

The commands run with ``NUMBA_DISABLE_JIT=1`` (the kernels as plain Python): what this
checks is what the wheel holds and needs (its modules, data files and dependencies),
and compiling every kernel again for the new install's paths would take minutes. The
study plays too long without the compiler; it renders the committed tables instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.beside_warm


def _run(args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=900, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The ``bin/`` of a fresh virtual environment holding the wheel of this tree."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"  # a copy: building writes build/ and egg-info beside it
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "belote_sim", source / "belote_sim",
                    ignore=shutil.ignore_patterns("__pycache__"))
    wheels = base / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                  str(wheels), str(source)])
    assert built.returncode == 0, built.stderr
    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)])
    assert made.returncode == 0, made.stderr
    wheel = next(wheels.glob("belote_sim-*.whl"))
    python = str(venv / "bin" / "python")
    # uv where `make install` put it (it resolves the wheel's dependencies as pip does,
    # several times faster), else pip.
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    install = ([uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", python,
                str(wheel)] if uv else [python, "-m", "pip", "install", "--quiet", str(wheel)])
    put = _run(install)
    assert put.returncode == 0, put.stderr
    return venv / "bin"


def test_the_wheel_installs_without_extras(installed):
    listed = _run([str(installed / "python"), "-m", "pip", "list", "--format=freeze"])
    names = {line.split("==")[0].lower() for line in listed.stdout.splitlines()}
    assert {"numba", "numpy", "pandas", "pyarrow", "typer", "scipy"} <= names
    assert "dask" not in names and "pytest" not in names
    probe = ("import belote_sim, belote_sim.players.lookup as t; "
             "print(belote_sim.__file__); print(sorted(p.name for p in t.DATA_DIR.iterdir()))")
    where = _run([str(installed / "python"), "-c", probe], cwd=installed)
    assert "site-packages" in where.stdout, where.stderr
    assert "bidder-classic.npz" in where.stdout and "atlas-coinche.parquet" in where.stdout
    assert "compile-seconds.json" in where.stdout


#: Every command once, on a small input, in the order they build on each other.
COMMANDS = (
    ["--version"],
    ["rules"],
    ["simulate", "--deals", "20", "--out", "sim", "--log-deals", "2", "--quiet"],
    ["summary", "sim"],
    ["replay", "sim/deals.jsonl"],
    ["analyse", "sim/deals.jsonl"],
    ["odds", "--samples", "200", "--out", "odds", "--quiet"],
    ["compare", "--a", "classic", "--b", "classic", "--b-set", "undertrump=free",
     "--deals", "20", "--out", "cmp", "--quiet"],
    ["arena", "--a", "heuristic", "--b", "random", "--deals", "10", "--matches", "0",
     "--quiet"],
    ["bid-strength", "--hand", "JH 9H AH 7D 8C", "--retourne", "TH", "--worlds", "8",
     "--out", "strength", "--quiet"],
    # (The first to speak: worlds given earlier calls, drawn by rejection, take half a
    # minute as plain Python.)
    ["bid-strength", "--rules", "coinche", "--hand", "JS 9S AS TS KH 7D 8C 7C",
     "--seat", "0", "--dealer", "3", "--worlds", "4", "--bid-policy", "table", "--quiet"],
    ["bid-table", "--deals", "4", "--quiet"],
    ["card-values", "--deals", "8", "--quiet"],
    ["report", "strength"],
    ["study", "--render-only", "--out", "study"],
)


def test_every_command_runs_from_the_wheel(installed, tmp_path):
    shutil.copytree(ROOT / "results" / "tables", tmp_path / "study" / "tables")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "BELOTE_SIM_CACHE_DIR": str(tmp_path)}
    for args in COMMANDS:
        p = _run([str(installed / "belote-sim"), *args], cwd=tmp_path, env=env)
        assert p.returncode == 0, (args, p.stderr[-2000:])
        assert "Traceback" not in p.stderr, (args, p.stderr[-2000:])
    assert (tmp_path / "strength" / "report.html").is_file()
    assert (tmp_path / "study" / "README.md").is_file()
