"""A run directory you can trust: what a user can do to a run directory and to the
command line, tried as a user would (the real ``belote-sim`` as a subprocess where the
behaviour is the command line's), each with the promised outcome: the numbers of an
uninterrupted run, or one line that says what and where, with exit 2 for bad input,
130 for an interruption and 1 for a failure of the machine.

The table of these cases, with the test that holds each, is in docs/cli.md ("A run
directory you can trust").
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_sim import Rules, simulate
from belote_sim.errors import BeloteError
from belote_sim.runner import rundir

EXE = shutil.which("belote-sim", path=str(Path(sys.executable).parent)) or "belote-sim"
DEALS, CHUNK = 4_000, 500  # eight chunks


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=timeout)


def one_line(p: subprocess.CompletedProcess, code: int, *words: str) -> str:
    """The command's error: exit ``code``, no traceback, its last line naming ``words``."""
    assert p.returncode == code, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    for w in words:
        assert w in last, (w, p.stderr)
    return last


def sim_args(out: Path, seed: int = 5, *more: str) -> list[str]:
    return ["simulate", "--deals", str(DEALS), "--chunk-size", str(CHUNK), "--seed",
            str(seed), "--bid-policy", "random", "--play-policy", "random", "--threads", "1",
            "--quiet", "--out", str(out), *more]


def summary_of(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "summary.parquet")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """An uninterrupted run of :func:`sim_args` (seed 5), to compare resumed runs with."""
    out = tmp_path_factory.mktemp("trust") / "ref"
    p = cli(*sim_args(out))
    assert p.returncode == 0, p.stderr
    return out


@pytest.fixture
def fresh(reference, tmp_path) -> Path:
    """A copy of the reference run, to damage."""
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    return out


def chunk_files(out: Path) -> list[Path]:
    return sorted((out / "chunks").glob("chunk-*.chunk"))


def resumed_equals_reference(out: Path, reference: Path) -> subprocess.CompletedProcess:
    p = cli(*sim_args(out, 5, "--resume"))
    assert p.returncode == 0, p.stderr
    pd.testing.assert_frame_equal(summary_of(out), summary_of(reference))
    return p


# -- Chunks that prove what they are ------------------------------------------------------


@pytest.mark.beside_warm
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_flipped_bit_or_cut_of_a_chunk_fails_its_check(data):
    """Wherever a chunk's bytes change (its magic, its header, its counters) or wherever
    it is cut, reading it back fails in one line naming it: never other counters."""
    counters = np.arange(data.draw(st.integers(1, 50)), dtype=np.int64) * 7
    blob = rundir.encode_chunk("a" * 32, 3, 100, counters, None)
    assert rundir.decode_chunk(blob, "c")[1].tolist() == counters.tolist()
    at = data.draw(st.integers(0, len(blob) - 1))
    if data.draw(st.booleans()):
        damaged = bytearray(blob)
        damaged[at] ^= 1 << data.draw(st.integers(0, 7))
        damaged = bytes(damaged)
    else:
        damaged = blob[:at]
    with pytest.raises(rundir.ChunkError, match="^c: "):
        rundir.decode_chunk(damaged, "c")


def test_a_flipped_byte_in_a_chunk_is_played_again_not_summed(fresh, reference):
    f = chunk_files(fresh)[7]
    blob = bytearray(f.read_bytes())
    blob[-5] ^= 0x40
    f.write_bytes(bytes(blob))
    p = resumed_equals_reference(fresh, reference)
    assert f"{f.name}: fails its checksum" in p.stderr


def test_a_truncated_chunk_is_played_again(fresh, reference):
    f = chunk_files(fresh)[3]
    f.write_bytes(f.read_bytes()[:40])
    p = resumed_equals_reference(fresh, reference)
    assert f.name in p.stderr and "Traceback" not in p.stderr


def test_a_chunk_of_another_run_is_played_again(fresh, reference, tmp_path):
    other = tmp_path / "seed6"
    assert cli(*sim_args(other, 6)).returncode == 0
    shutil.copy(chunk_files(other)[2], chunk_files(fresh)[2])
    p = resumed_equals_reference(fresh, reference)
    assert "belongs to another run" in p.stderr


def test_a_chunk_under_another_index_is_played_again(fresh, reference):
    files = chunk_files(fresh)
    shutil.copy(files[1], files[4])
    p = resumed_equals_reference(fresh, reference)
    assert f"{files[4].name}: holds chunk 1" in p.stderr


def test_an_edited_run_json_cannot_claim_the_chunks_settings(fresh, tmp_path):
    """run.json's seed edited from 5 to 6, then resumed with seed 6: every chunk was
    played with seed 5, so every chunk is played again, and the numbers are seed 6's."""
    info = json.loads((fresh / "run.json").read_text())
    info["settings"]["seed"] = 6
    (fresh / "run.json").write_text(json.dumps(info))
    p = cli(*sim_args(fresh, 6, "--resume"))
    assert p.returncode == 0, p.stderr
    assert "belongs to another run" in p.stderr
    six = tmp_path / "six"
    assert cli(*sim_args(six, 6)).returncode == 0
    pd.testing.assert_frame_equal(summary_of(fresh), summary_of(six))


def test_summary_refuses_a_run_whose_run_json_was_edited(fresh):
    info = json.loads((fresh / "run.json").read_text())
    info["settings"]["seed"] = 6
    (fresh / "run.json").write_text(json.dumps(info))
    one_line(cli("summary", str(fresh)), 2, "run.json", "chunks")


def test_summary_refuses_a_damaged_chunk_naming_it(fresh):
    f = chunk_files(fresh)[0]
    f.write_bytes(f.read_bytes()[:-1])
    one_line(cli("summary", str(fresh)), 2, f.name, "--resume")


def test_a_stale_temporary_file_is_cleaned_up_on_resume(fresh, reference):
    stale = fresh / "chunks" / ".chunk-000003.chunk.x1y2.tmp"
    stale.write_bytes(b"half a chunk")
    (chunk_files(fresh)[3]).unlink()
    resumed_equals_reference(fresh, reference)
    assert not stale.exists()


def test_summary_of_a_killed_run_counts_its_committed_chunks(fresh):
    info = json.loads((fresh / "run.json").read_text())
    for f in chunk_files(fresh)[5:]:
        f.unlink()
    (fresh / "run.json").write_text(json.dumps({"status": "running",
                                                "settings": info["settings"]}))
    one_line(cli("summary", str(fresh)), 2, f"{5 * CHUNK:,} of {DEALS:,} deals")


# -- Every output path checked before the work --------------------------------------------


def test_odds_does_not_replace_another_commands_table(reference, tmp_path):
    before = (reference / "summary.parquet").read_bytes()
    one_line(cli("odds", "--out", str(reference)), 2, "simulate")
    assert (reference / "summary.parquet").read_bytes() == before


@pytest.mark.parametrize("command", [
    ["simulate", "--deals", "10"], ["odds"], ["bid-table", "--deals", "10"],
])
def test_an_out_name_too_long_is_one_line(command, tmp_path):
    one_line(cli(*command, "--out", str(tmp_path / ("x" * 300))), 2, "too long")


def test_summary_of_a_name_too_long_is_one_line(tmp_path):
    one_line(cli("summary", str(tmp_path / ("x" * 300))), 2, "too long")


ADVISE = ["advise", "--rules", "coinche", "--hand", "JS 9S AS TS KH 7D 8C 7C", "--seat", "0",
          "--dealer", "3", "--calls", "80S pass 90H pass pass pass", "--plays", "AS 7S 8S QS"]


def test_advise_out_onto_a_directory_or_under_a_missing_parent(tmp_path):
    (tmp_path / "advice.parquet").mkdir()
    one_line(cli(*ADVISE, "--out", str(tmp_path / "advice.parquet")), 2, "is a directory")
    one_line(cli(*ADVISE, "--out", str(tmp_path / "no" / "such" / "advice.parquet")), 2,
             "does not exist")


def test_worlds_out_is_checked_before_the_worlds_are_computed(tmp_path):
    p = cli("bid-strength", "--rules", "classic", "--hand", "JH 9H AH 7D 8C", "--retourne",
            "TH", "--worlds", "100", "--worlds-out", str(tmp_path / "missing" / "w.parquet"))
    one_line(p, 2, "does not exist")
    assert "compiling" not in p.stderr and p.stdout == ""


def test_unwritable_destinations_are_refused_before_the_work(tmp_path, monkeypatch):
    """A directory the user may not write to (shown with ``os.access`` saying so: the
    tests may run as root, who may write anywhere)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, m, **k: False if Path(p) == locked
                        else real(p, m, **k))
    with pytest.raises(BeloteError, match="not writable"):
        rundir.check_output_file(locked / "advice.json", "--out")
    with pytest.raises(BeloteError, match="not writable"):
        rundir.RunDir(locked / "run").check_writable()
    with pytest.raises(BeloteError, match="not writable"):
        rundir.check_output_file(locked / "report.md", "report")


# -- Bounds and one-line errors everywhere ------------------------------------------------

HUGE = "99999999999999999999999"


@pytest.mark.parametrize("args, name", [
    (["simulate", "--deals", HUGE], "deals"),
    (["arena", "--a", "random", "--b", "random", "--deals", HUGE], "deals"),
    (["odds", "--samples", HUGE], "samples"),
    (["bid-strength", "--rules", "classic", "--hand", "JH 9H AH 7D 8C", "--retourne", "TH",
      "--worlds", HUGE], "worlds"),
    (["simulate", "--seed", HUGE], "seed"),
    (["simulate", "--set", f"target={HUGE}"], "target"),
])
def test_counts_seeds_and_the_target_have_upper_bounds(args, name):
    one_line(cli(*args), 2, name, "..")


def test_a_run_of_too_many_chunks_says_so_before_it_starts(tmp_path):
    one_line(cli("simulate", "--deals", "1_000_000_000_000", "--chunk-size", "10",
                 "--out", str(tmp_path / "r")), 2, "chunks", "--chunk-size")
    assert not (tmp_path / "r").exists()


def test_a_run_that_would_not_fit_in_memory_says_so(tmp_path):
    one_line(cli("simulate", "--deals", "10_000_000_000", "--chunk-size", "10_000_000_000",
                 "--records", "--out", str(tmp_path / "r")), 2, "memory", "--chunk-size")


def test_bad_bytes_in_a_deal_log_are_one_line_per_deal_and_the_rest_go_on(tmp_path):
    f = tmp_path / "mixed.jsonl"
    deal = json.dumps({"dealer": 0})
    f.write_bytes(b"\x00\xff\xfe\n" + b"not json\n" + deal.encode() + b"\n")
    p = cli("replay", str(f))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert lines[0].startswith("error: deal 1: not UTF-8 text")
    assert lines[1].startswith("error: deal 2: not valid JSON")
    assert lines[2].startswith("error: deal 3:")  # checked too, though the others failed


def test_an_empty_deal_log_is_refused(tmp_path):
    f = tmp_path / "empty.jsonl"
    f.write_text("")
    one_line(cli("replay", str(f)), 2, "no deal")


def test_a_pack_with_a_duplicate_card_names_it(tmp_path):
    f = tmp_path / "dup.jsonl"
    pack = [f"{r}{s}" for s in "SHDC" for r in "789TJQKA"]
    pack[5] = pack[0]
    f.write_text(json.dumps({"dealer": 0, "pack": pack}) + "\n")
    one_line(cli("replay", str(f)), 2, f"'{pack[0]}'", "twice")


@pytest.mark.parametrize("damage, words", [
    (lambda d: (d / "run.json").write_text('{"status": "comp'), ("run.json", "not valid JSON")),
    (lambda d: (d / "run.json").write_text("[1, 2]"), ("run.json", "not a JSON object")),
    (lambda d: (d / "summary.parquet").write_bytes((d / "summary.parquet").read_bytes()[:100]),
     ("summary.parquet", "cannot be read")),
])
@pytest.mark.parametrize("command", ["summary", "report"])
def test_a_corrupt_run_directory_is_one_line(fresh, damage, words, command):
    damage(fresh)
    one_line(cli(command, str(fresh)), 2, *words)


def test_ctrl_c_in_the_first_second_is_one_line_and_exit_130(tmp_path):
    # A shell's background job inherits SIGINT ignored, and Python then leaves it so.
    proc = subprocess.Popen([EXE, "simulate", "--deals", "1000", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the command ended before the signal arrived")
    assert proc.returncode == 130, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_full_disk_is_one_line_and_exit_1(monkeypatch, capsys, tmp_path):
    """No space left (shown by the runner's write failing so: a full file system cannot
    be mounted by the tests): exit 1, one line naming the file."""
    from belote_sim import console

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "r" / "x"))

    monkeypatch.setattr(rundir, "write_text_atomic", full)
    monkeypatch.setattr(sys, "argv", ["belote-sim", *sim_args(tmp_path / "r")])
    with pytest.raises(SystemExit) as e:
        console.main()
    assert e.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: no space left on device") and "x" in err[-1]


def test_a_wrong_option_ends_with_the_line_that_says_what_is_wrong():
    p = cli("simulate", "--dealz", "5")
    assert p.returncode == 2
    assert "--dealz" in p.stderr.strip().splitlines()[-1]


# -- Consistent refusals ------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["compare", "--a", "classic", "--b", "classic", "--deals", "100", "--matches", "10"],
     ("not both",)),
    (["odds", "--resume"], ("--out",)),
    (["bid-table", "--deals", "100", "--top", "-5"], ("top", ">= 0")),
])
def test_an_option_a_command_would_ignore_is_refused(args, words):
    one_line(cli(*args), 2, *words)


# -- Faults injected at random ------------------------------------------------------------


def _inject(out: Path, other: Path, rng: random.Random) -> str:
    """Damage the run directory ``out`` one way chosen by ``rng``; return the fault's
    name."""
    files = chunk_files(out)
    fault = rng.choice(["flip", "truncate", "delete", "foreign", "swap", "stale", "empty"])
    f = rng.choice(files)
    if fault == "flip":
        blob = bytearray(f.read_bytes())
        blob[rng.randrange(len(blob))] ^= 1 << rng.randrange(8)
        f.write_bytes(bytes(blob))
    elif fault == "truncate":
        f.write_bytes(f.read_bytes()[:rng.randrange(f.stat().st_size)])
    elif fault == "delete":
        f.unlink()
    elif fault == "foreign":
        shutil.copy(chunk_files(other)[files.index(f)], f)
    elif fault == "swap":
        g = rng.choice(files)
        if g != f:
            a, b = f.read_bytes(), g.read_bytes()
            f.write_bytes(b)
            g.write_bytes(a)
    elif fault == "stale":
        (out / "chunks" / f".{f.name}.zz.tmp").write_bytes(b"\x00" * rng.randrange(100))
    else:
        f.write_bytes(b"")
    return fault


def test_faults_injected_at_random_resume_to_the_same_numbers_or_one_line(reference, tmp_path):
    """Damage a copy of a finished run one to three ways at random (a flipped bit, a cut
    or emptied chunk, a deleted one, one of another run, two swapped, a stale temporary
    file), then resume it in-process: the numbers are the uninterrupted run's, every
    time. Then kill the real command at random moments and resume: the same."""
    rng = random.Random(20261207)
    other = tmp_path / "other"
    simulate(Rules(), deals=DEALS, seed=6, bid_policy="random", play_policy="random",
             out=other, chunk_size=CHUNK, threads=1)
    want = summary_of(reference)
    outcomes: Counter = Counter()
    for trial in range(24):
        out = tmp_path / f"t{trial}"
        shutil.copytree(reference, out)
        for _ in range(rng.randint(1, 3)):
            outcomes[_inject(out, other, rng)] += 1
        simulate(Rules(), deals=DEALS, seed=5, bid_policy="random", play_policy="random",
                 out=out, chunk_size=CHUNK, threads=1, resume=True)
        pd.testing.assert_frame_equal(summary_of(out), want)
        outcomes["same numbers"] += 1
    for trial in range(4):
        out = tmp_path / f"k{trial}"
        proc = subprocess.Popen([EXE, *sim_args(out)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.5, 4.0))
        proc.kill()
        proc.wait()
        outcomes["killed"] += 1
        p = cli(*sim_args(out))
        if p.returncode != 0:  # killed before run.json was written: nothing to resume
            one_line(p, 2)
            outcomes["refused in one line"] += 1
            continue
        pd.testing.assert_frame_equal(summary_of(out), want)
        outcomes["same numbers"] += 1
    print("faults and outcomes:", dict(outcomes))
    assert outcomes["same numbers"] + outcomes["refused in one line"] == 28
