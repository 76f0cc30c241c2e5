"""Batch runs: chunks, resume, interruption, Parquet outputs, matches, reproducibility."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from belote_sim import Rules, load, simulate
from belote_sim.errors import BeloteError
from belote_sim.runner.jobs import RunInterrupted
from belote_sim.runner.rundir import SUMMARY_COLUMNS, read_provenance
from belote_sim.stats import mean_interval, wilson_interval
from belote_sim.studies.simulate import play_match

LITIGE = Rules.from_preset("litige")


@pytest.fixture(scope="module")
def reference():
    """An uninterrupted in-memory run that every split of the same run must equal."""
    return simulate(LITIGE, deals=30_000, seed=5, chunk_size=30_000)


def test_chunk_size_does_not_change_the_numbers(reference):
    for chunk in (7_000, 10_000, 29_999):
        run = simulate(LITIGE, deals=30_000, seed=5, chunk_size=chunk)
        assert (run.raw_counters == reference.raw_counters).all()


def test_thread_count_does_not_change_the_numbers(reference):
    run = simulate(LITIGE, deals=30_000, seed=5, chunk_size=9_000, threads=1)
    assert (run.raw_counters == reference.raw_counters).all()


def test_interrupted_run_resumes_to_the_same_numbers(reference, tmp_path):
    out = tmp_path / "run"
    calls = []

    def stop_after_two():
        calls.append(1)
        return len(calls) >= 2

    with pytest.raises(RunInterrupted) as info:
        simulate(LITIGE, deals=30_000, seed=5, chunk_size=7_000, out=out,
                 should_stop=stop_after_two)
    assert info.value.done == 14_000
    assert "--resume" in str(info.value)
    assert len(list((out / "chunks").glob("chunk-*.chunk"))) == 2
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
    with pytest.raises(BeloteError, match="not complete"):
        load(out)
    done = []
    run = simulate(LITIGE, deals=30_000, seed=5, chunk_size=7_000, out=out, resume=True,
                   progress=lambda d, t: done.append(d))
    assert done[0] == 14_000  # resumed from the committed chunks
    assert (run.raw_counters == reference.raw_counters).all()
    # The rate is that of the deals played now, in the time they took.
    assert run.played_deals == 16_000
    assert run.provenance()["deals_per_second"] == 16_000 / run.wall_seconds
    loaded = load(out)
    assert int(loaded.metric("take_rate").n) == 30_000
    pd.testing.assert_frame_equal(loaded.summary, reference.table(), check_dtype=False)


def test_resume_refuses_different_settings_naming_them(tmp_path):
    out = tmp_path / "run"
    simulate(LITIGE, deals=2_000, seed=5, out=out)
    with pytest.raises(BeloteError, match=r"different seed \(.*run has 5, asked 6"):
        simulate(LITIGE, deals=2_000, seed=6, out=out)
    with pytest.raises(BeloteError, match="different rules"):
        simulate(Rules.from_preset("classic"), deals=2_000, seed=5, out=out)
    with pytest.raises(BeloteError, match="different bid_policy"):
        simulate(LITIGE, deals=2_000, seed=5, out=out, bid_policy="random")
    # the same settings again: nothing to redo, same numbers
    again = simulate(LITIGE, deals=2_000, seed=5, out=out)
    assert again.counters["deals"] == 2_000
    assert again.played_deals == 0 and again.provenance()["deals_per_second"] is None


def test_resume_needs_a_run(tmp_path):
    with pytest.raises(BeloteError, match="nothing to resume"):
        simulate(LITIGE, deals=10, out=tmp_path / "new", resume=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(BeloteError, match="not a run directory"):
        simulate(LITIGE, deals=10, out=tmp_path / "other")


def test_parquet_outputs_read_back(tmp_path):
    out = tmp_path / "run"
    run = simulate(Rules(), deals=20_000, seed=9, out=out, records=True, chunk_size=6_000)
    summary = pd.read_parquet(out / "summary.parquet")
    assert tuple(summary.columns) == SUMMARY_COLUMNS
    prov = read_provenance(out / "summary.parquet")
    assert prov["seed"] == 9 and prov["count"] == 20_000 and prov["rules"]["preset"] == "classic"
    assert prov["deals_per_second"] > 0
    take = summary[(summary.metric == "take_rate") & (summary.group == "")].iloc[0]
    assert take.n == 20_000 and take.k == 20_000 - run.counters["thrown_in"]
    lo, hi = wilson_interval(int(take.k), int(take.n))
    assert (take.ci_low, take.ci_high) == pytest.approx((lo, hi))
    assert summary.k.isna().sum() == (summary.metric.str.startswith("mean_")).sum()

    hist = pd.read_parquet(out / "histograms.parquet")
    played = 20_000 - run.counters["thrown_in"]
    for name in ("taker_card_points", "taker_deal_score", "declaration_points"):
        assert hist[hist.histogram == name]["count"].sum() == played

    deals = pd.read_parquet(out / "deals")
    assert sorted(deals.deal) == list(range(20_000))
    assert len(list((out / "deals").glob("part-*.parquet"))) == 4
    assert deals.hand0.dtype == np.uint32
    taken = deals[~deals.thrown_in]
    # per-deal rows agree with the counters
    assert (taken.outcome == "dedans").sum() == run.counters["dedans"]
    assert len(taken) == played
    # the hands are disjoint 8-card masks covering the pack
    full = taken.hand0 | taken.hand1 | taken.hand2 | taken.hand3
    assert (full == 0xFFFFFFFF).all()
    assert all(bin(h).count("1") == 8 for h in taken.hand0.head(200))
    # mean and its interval from the rows equal the counters' figures
    t_side = taken.taker % 2
    taker_points = np.where(t_side == 0, taken.card_points0, taken.card_points1)
    row = run.metric("mean_taker_card_points")
    m, _, lo, hi = mean_interval(
        float(taker_points.sum()), float((taker_points.astype(np.int64) ** 2).sum()), played
    )
    assert row.value == pytest.approx(taker_points.mean())
    assert (row.ci_low, row.ci_high) == pytest.approx((lo, hi))
    assert load(out).deals(columns=["deal"]).shape == (20_000, 1)


def test_duckdb_query_over_a_run(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    out = tmp_path / "run"
    simulate(Rules(), deals=5_000, seed=2, out=out, records=True)
    query = f"select count(*) from read_parquet('{out}/deals/*.parquet') where outcome = 'dedans'"
    got = duckdb.connect().execute(query).fetchall()[0][0]
    assert got == load(out).info["counters"]["dedans"]


def test_matches_count_the_same_matches_as_play_match():
    rules = Rules.from_preset("litige", target=500)
    run = simulate(rules, matches=40, seed=3, chunk_size=15)
    wins = [0, 0, 0]
    deals = 0
    for m in range(40):
        res = play_match(rules, seed=3, match=m)
        wins[{0: 0, 1: 1, "draw": 2}[res["winner"]]] += 1
        deals += len(res["deals"])
    c = run.counters
    assert [c["match_wins_0"], c["match_wins_1"], c["match_wins_3"]] == wins  # 3: draws
    assert c["match_wins_2"] == 0  # only three-player matches have a third winner
    assert c["matches"] == 40 and c["deals"] == deals == c["sum_match_deals"]
    assert 0 < run.metric("match_win_rate", "side=0").value < 1


def test_records_need_out_and_deal_runs():
    with pytest.raises(BeloteError, match="--out"):
        simulate(Rules(), deals=10, records=True)
    with pytest.raises(BeloteError, match="either a number of deals or a number of matches"):
        simulate(Rules(), deals=10, matches=3)


def _cli(*args):
    exe = Path(sys.executable).parent / "belote-sim"
    return [str(exe), *args]


def test_ctrl_c_stops_cleanly_and_resume_gives_the_same_numbers(tmp_path):
    """A real SIGINT to the real CLI: it commits the current chunk, says how to resume
    and exits 130; the resumed run equals an uninterrupted one."""
    out = tmp_path / "run"
    args = ["simulate", "--deals", "3_000_000", "--seed", "4", "--chunk-size", "100_000",
            "--threads", "1", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(_cli(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not list((out / "chunks").glob("chunk-*.chunk")):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the run finished before the signal arrived")
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    committed = len(list((out / "chunks").glob("chunk-*.chunk")))
    assert 1 <= committed < 30
    again = subprocess.run(_cli(*args, "--resume"), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    direct = simulate(Rules(), deals=3_000_000, seed=4)
    assert load(out).info["counters"] == direct.counters
    assert os.path.isfile(out / "summary.parquet")


def test_three_player_matches_count_each_seat():
    rules = Rules.from_preset("three-player", target=400)
    run = simulate(rules, matches=30, seed=4)
    wins = [0, 0, 0, 0]
    for m in range(30):
        res = play_match(rules, seed=4, match=m)
        assert len(res["scores"]) == 3
        wins[3 if res["winner"] == "draw" else res["winner"]] += 1
    assert [run.counters[f"match_wins_{i}"] for i in range(4)] == wins
    groups = set(run.table().query("metric == 'match_win_rate'").group)
    assert {f"seat={s}" for s in range(3)} <= groups


def test_shuffle_cut_changes_declaration_odds_visibly():
    """The pack rebuilt from the tricks keeps suits together: hands dealt from it hold
    runs far more often than hands from a full shuffle (RULES 4)."""
    full = simulate(Rules.from_preset("classic"), matches=300, seed=8)
    cut = simulate(Rules.from_preset("classic", shuffle="cut"), matches=300, seed=8)
    f, c = full.metric("p_any_declaration"), cut.metric("p_any_declaration")
    assert c.ci_low > f.ci_high or c.ci_high < f.ci_low  # intervals do not overlap


def test_resume_refuses_chunks_of_another_engine(tmp_path):
    out = tmp_path / "run"
    simulate(LITIGE, deals=1_000, seed=5, out=out)
    info = json.loads((out / "run.json").read_text())
    info["settings"]["engine"] = "0.0.1/12"
    (out / "run.json").write_text(json.dumps(info))
    with pytest.raises(BeloteError, match="different engine"):
        simulate(LITIGE, deals=1_000, seed=5, out=out)


class _SlowStartJob:
    """A job of ``count`` units whose empty chunk (the warm-up) takes ``start`` seconds,
    as a kernel's compilation would, and compiles a function Numba has not seen."""

    unit = "deals"

    def __init__(self, count: int, start: float) -> None:
        self.count, self.start, self.played = count, start, []

    total = property(lambda self: self.count)

    def to_json(self) -> dict:
        return {"count": self.count}

    def chunks(self):
        from belote_sim.runner.jobs import chunk_plan

        return chunk_plan([(self.unit, self.count)], 10)

    def task(self, chunk, threads):
        job = self

        class Task:
            def play(self, blocks):
                from belote_sim.runner.executors import ChunkResult

                job.played.append(chunk.count)
                if chunk.count == 0:
                    import numba

                    numba.njit(lambda x: x + 1)(1)  # a compilation, never cached
                    time.sleep(job.start)
                return ChunkResult(chunk.index, np.array([chunk.count]))

        t = Task()
        t.chunk, t.threads = chunk, threads
        return t

    merge = staticmethod(np.add)


def test_the_kernels_load_before_the_clock_and_a_compilation_is_announced(caplog, tmp_path,
                                                                         monkeypatch):
    """The warm-up compiles before the run's clock starts and says so once; how long
    Numba spent compiling (not the warm-up's play, here a second's sleep) is kept on this
    machine (beside the kernel caches), and the next compilation of the same kind of job
    announces that figure."""
    from belote_sim.runner import compile_times
    from belote_sim.runner.jobs import RunOptions, execute

    monkeypatch.setenv("BELOTE_SIM_CACHE_DIR", str(tmp_path))
    notices, measured = [], []
    for start in (1.0, 0.5):
        job = _SlowStartJob(30, start=start)
        with caplog.at_level("WARNING", logger="belote_sim"):
            run = execute(job, RunOptions())
        assert job.played == [0, 10, 10, 10]  # an empty chunk first, then the run's
        assert int(run.counters[0]) == 30 and run.done == 30
        assert run.wall_seconds < job.start  # the warm-up's second is not the run's
        notices.append([r.getMessage() for r in caplog.records
                        if "compiling the kernels" in r.getMessage()])
        measured.append(compile_times.local_figures()["_SlowStartJob"])
        caplog.clear()
    assert notices[0] == ["compiling the kernels for this machine, once"]  # nothing measured
    assert 0 < measured[0] < 1.0 and 0 < measured[1] < 0.5  # the sleeps are not compiling
    assert notices[1] == [f"compiling the kernels for this machine, once: about "
                          f"{measured[0]:.0f} s"]


def test_a_study_and_its_runner_compiling_the_same_kind_say_so_once(caplog, tmp_path,
                                                                     monkeypatch):
    """A block of ``compiling`` inside one of the same kind (bid strength's search for
    its worlds around its run's warm-up) joins it: one notice, and one figure that adds
    up both blocks' compilations."""
    import numba

    from belote_sim.runner import compile_times

    monkeypatch.setenv("BELOTE_SIM_CACHE_DIR", str(tmp_path))
    with caplog.at_level("WARNING", logger="belote_sim"), compile_times.compiling("Outer"):
        numba.njit(lambda x: x + 1)(1)
        with compile_times.compiling("Outer"):
            numba.njit(lambda x: x + 2)(1)
        assert compile_times.local_figures() == {}  # kept when the outer block ends
    notices = [r.getMessage() for r in caplog.records if "compiling the kernels" in r.getMessage()]
    assert notices == ["compiling the kernels for this machine, once"]
    assert set(compile_times.local_figures()) == {"Outer"}
