"""One chunk runner for every long command: the playouts (bid strength, the atlas, card
values, sampled odds) give the same numbers whatever the threads or chunk size, resume
after a stop to the uninterrupted numbers (from Python and from the command line after
Ctrl-C); ``tests/test_study.py`` resumes the study part by part."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from belote_sim import Rules, simulate
from belote_sim.runner.jobs import RunInterrupted
from belote_sim.studies.atlas import bid_table
from belote_sim.studies.bid_strength import bid_strength
from belote_sim.studies.card_values import card_values
from belote_sim.studies.odds import sampled_odds

EXE = Path(sys.executable).parent / "belote-sim"

PLAYOUTS = {
    "bid-strength": lambda **kw: bid_strength("classic", "JH 9H AS 7D 8C", retourne="TH",
                                              worlds=600, seed=3, **kw),
    "bid-table": lambda **kw: bid_table("coinche", 90, seed=2, **kw),
    "card-values": lambda **kw: card_values("classic", 240, seed=4, **kw),
    "odds": lambda **kw: sampled_odds(9, 30_000, seed=5, **kw),
}


def same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Equal tables, NaN equal to NaN (provenance aside)."""
    return a.shape == b.shape and list(a.columns) == list(b.columns) and all(
        a[c].equals(b[c]) for c in a.columns)


@pytest.fixture(scope="module")
def whole() -> dict[str, pd.DataFrame]:
    return {name: play(threads=1) for name, play in PLAYOUTS.items()}


@pytest.mark.parametrize("name", PLAYOUTS)
def test_a_playout_is_the_same_on_any_threads_and_chunks(whole, name):
    play = PLAYOUTS[name]
    a = play(threads=2, chunk_size=7 if name != "odds" else 7_001)
    assert same(a, whole[name])
    assert a.attrs["provenance"]["threads"] == 2


@pytest.mark.parametrize("name", PLAYOUTS)
def test_a_stopped_playout_resumes_to_the_uninterrupted_numbers(whole, name, tmp_path):
    play = PLAYOUTS[name]
    chunk = 20 if name != "odds" else 10_000
    if name == "bid-strength":
        chunk = 200
    out = tmp_path / name
    with pytest.raises(RunInterrupted, match="are committed in .*--resume"):
        play(out=out, chunk_size=chunk, should_stop=lambda: True)
    committed = list((out / "chunks").glob("chunk-*.chunk"))
    assert len(committed) == 1
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "interrupted" and info["done"] == chunk
    resumed = play(out=out, chunk_size=chunk, resume=True)
    assert same(resumed, whole[name])
    assert json.loads((out / "run.json").read_text())["status"] == "complete"
    with pytest.raises(Exception, match="cannot resume .*different chunk_size"):
        play(out=out, chunk_size=chunk + 1)


def test_a_finished_playout_is_read_back_without_playing(whole, tmp_path):
    out = tmp_path / "atlas"
    first = PLAYOUTS["bid-table"](out=out)
    again = PLAYOUTS["bid-table"](out=out)
    assert same(first, again) and same(first, whole["bid-table"])
    assert again.attrs["provenance"]["seconds"] < first.attrs["provenance"]["seconds"]


def test_cli_bid_table_ctrl_c_then_resume_equals_an_uninterrupted_run(tmp_path):
    out = tmp_path / "atlas"
    args = [str(EXE), "bid-table", "--deals", "3000", "--seed", "6", "--chunk-size", "100",
            "--threads", "1", "--out", str(out), "--quiet"]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(out.glob("chunks/chunk-*.chunk")):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the run finished before the signal arrived")
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert not (out / "atlas.parquet").exists()
    committed = len(list((out / "chunks").glob("chunk-*.chunk")))
    assert 1 <= committed < 30
    again = subprocess.run([*args, "--resume"], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    resumed = pd.read_parquet(out / "atlas.parquet")
    direct = bid_table("classic", 3000, seed=6).reset_index(drop=True)
    assert same(resumed, direct)


def test_log_deals_of_a_match_run_stop_at_its_matches(tmp_path):
    rules = Rules()
    run = simulate(rules, matches=2, seed=3, out=tmp_path / "run", log_deals=100_000)
    lines = (tmp_path / "run" / "deals.jsonl").read_text().splitlines()
    assert len(lines) == run.counters["deals"]


def test_compare_plays_with_simulates_players():
    from belote_sim.studies.compare import compare

    prov = compare([Rules(), Rules(undertrump="free")], 200, seed=1).attrs["provenance"]
    sim = simulate(Rules(), deals=200, seed=1).provenance()
    assert (prov["bid_policy"], prov["play_policy"]) == (sim["bid_policy"], sim["play_policy"])
