"""The Dask executor on a real LocalCluster: merged counts identical to a local run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

from belote_sim import Rules, simulate  # noqa: E402
from belote_sim.runner.distributed import DaskExecutor  # noqa: E402

RULES = Rules.from_preset("litige")


@pytest.fixture(scope="module")
def local_counts():
    return simulate(RULES, deals=40_000, seed=21, chunk_size=40_000).raw_counters


def test_in_process_cluster_matches_local_run(local_counts, tmp_path):
    ex = DaskExecutor(n_workers=1, processes=False)
    try:
        run = simulate(RULES, deals=40_000, seed=21, chunk_size=6_000, executor=ex,
                       out=tmp_path / "run")
    finally:
        ex.close()
    assert (run.raw_counters == local_counts).all()
    assert run.provenance()["executor"] == "dask"


def test_two_worker_processes_match_local_run(local_counts):
    ex = DaskExecutor(n_workers=2, processes=True, threads=1)
    try:
        assert ex.describe()["workers"] == 2
        run = simulate(RULES, deals=40_000, seed=21, chunk_size=5_000, executor=ex)
        matches = simulate(RULES, matches=30, seed=2, chunk_size=7, executor=ex)
    finally:
        ex.close()
    assert (run.raw_counters == local_counts).all()
    local_matches = simulate(RULES, matches=30, seed=2)
    assert (matches.raw_counters == local_matches.raw_counters).all()


def test_cli_dask_executor(tmp_path, local_counts):
    exe = Path(sys.executable).parent / "belote-sim"
    out = tmp_path / "run"
    p = subprocess.run(
        [str(exe), "simulate", "--rules", "litige", "--deals", "40_000", "--seed", "21",
         "--chunk-size", "10_000", "--executor", "dask", "--workers", "1", "--quiet",
         "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert p.returncode == 0, p.stderr
    counters = json.loads((out / "run.json").read_text())["counters"]
    assert counters["deals"] == 40_000
    assert counters == simulate(RULES, deals=40_000, seed=21).counters


def test_a_comparison_on_a_cluster_matches_a_local_one():
    from belote_sim.studies.compare import compare

    cells = [RULES, Rules.from_preset("litige", undertrump="free")]
    local = compare(cells, 6000, seed=4)
    ex = DaskExecutor(n_workers=1, processes=False)
    try:
        remote = compare(cells, 6000, seed=4, chunk_size=1500, executor=ex)
    finally:
        ex.close()
    cols = ["metric", "group", "cell", "value", "diff", "diff_ci_low", "p_value", "p_holm"]
    assert remote[cols].equals(local[cols])
    assert remote.attrs["provenance"]["executor"]["executor"] == "dask"


def test_a_bid_table_on_a_local_scheduler_matches_a_local_one(tmp_path):
    """The atlas's tasks on a Dask scheduler reached by its address (a run of the chunk
    runner like any other), committed and read back: the same table as a local run."""
    from dask.distributed import LocalCluster

    from belote_sim.studies.atlas import bid_table

    local = bid_table("coinche", 120, seed=2)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster:
        remote = bid_table("coinche", 120, seed=2, chunk_size=30, executor="dask",
                           scheduler=cluster.scheduler_address, out=tmp_path / "atlas")
    assert remote.attrs["provenance"]["executor"] == "dask"
    assert remote.shape == local.shape
    assert all(remote[c].equals(local[c]) for c in local.columns)
