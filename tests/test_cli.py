"""End-to-end: the real ``belote-sim`` command run as a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import belote_sim
from belote_sim.runner.rundir import read_provenance

EXE = shutil.which("belote-sim", path=str(Path(sys.executable).parent)) or "belote-sim"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [EXE, *args], input=stdin, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "classic"
    p = run("simulate", "--rules", "classic", "--deals", "20_000", "--seed", "7",
            "--out", str(out), "--log-deals", "25", "--quiet")
    assert p.returncode == 0, p.stderr
    assert "take_rate" in p.stdout and "dedans_rate" in p.stdout and "p_tierce" in p.stdout
    return out


def test_simulate_writes_run_json_with_provenance(run_dir):
    run_json = json.loads((run_dir / "run.json").read_text())
    assert run_json["status"] == "complete"
    prov = run_json["provenance"]
    assert prov["count"] == 20_000 and prov["unit"] == "deals" and prov["seed"] == 7
    assert prov["rules"]["preset"] == "classic"
    assert prov["rules"]["options"]["tie_rule"] == "takers"
    # the defaults: realistic belote (threshold bidding, heuristic play)
    assert prov["bid_policy"] == "threshold:50" and prov["play_policy"] == "heuristic"
    for key in ("version", "numba", "numpy", "started", "finished", "wall_seconds"):
        assert key in prov
    assert run_json["counters"]["deals"] == 20_000
    summary = pd.read_parquet(run_dir / "summary.parquet")
    assert {"take_rate", "dedans_rate", "p_carre_jacks"} <= set(summary.metric)
    assert read_provenance(run_dir / "summary.parquet")["seed"] == 7


def test_log_deals_of_a_match_run_replay(tmp_path):
    """``--log-deals`` with ``--matches`` logs the deals of match 0, 1 ... (cut pack and
    litige pot included), and ``replay`` reproduces each of them."""
    p = run("simulate", "--rules", "litige", "--set", "shuffle=cut", "--matches", "3",
            "--seed", "4", "--out", str(tmp_path), "--log-deals", "30", "--quiet")
    assert p.returncode == 0, p.stderr
    logged = [json.loads(x) for x in (tmp_path / "deals.jsonl").read_text().splitlines()]
    assert len(logged) == 30 and logged[0]["dealer"] == 0
    match0 = belote_sim.play_match(belote_sim.Rules.from_preset("litige", shuffle="cut"),
                                   seed=4, match=0)["deals"]
    assert logged[: len(match0)] == match0[:30]
    r = run("replay", str(tmp_path / "deals.jsonl"))
    assert r.returncode == 0, r.stderr
    assert [json.loads(x) for x in r.stdout.splitlines()] == logged


def test_simulate_is_reproducible_from_the_cli(run_dir, tmp_path):
    p = run("simulate", "--deals", "20_000", "--seed", "7", "--threads", "1",
            "--out", str(tmp_path), "--quiet")
    assert p.returncode == 0, p.stderr
    a = json.loads((run_dir / "run.json").read_text())["counters"]
    b = json.loads((tmp_path / "run.json").read_text())["counters"]
    assert a == b


def test_replay_reproduces_logged_deals(run_dir):
    logged = (run_dir / "deals.jsonl").read_text().splitlines()
    assert len(logged) == 25
    p = run("replay", str(run_dir / "deals.jsonl"))
    assert p.returncode == 0, p.stderr
    assert [json.loads(x) for x in p.stdout.splitlines()] == [json.loads(x) for x in logged]


def test_replay_fills_results_from_inputs_only(run_dir):
    deal = json.loads((run_dir / "deals.jsonl").read_text().splitlines()[0])
    inputs = {k: deal[k] for k in ("rules", "dealer", "pack", "calls", "plays")}
    p = run("replay", "-", stdin=json.dumps(inputs) + "\n")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == deal


def _first_taken_deal(run_dir: Path) -> dict:
    for line in (run_dir / "deals.jsonl").read_text().splitlines():
        d = json.loads(line)
        if not d["thrown_in"]:
            return d
    raise AssertionError("no played deal logged")


def test_replay_illegal_card_is_one_line_and_exit_2(run_dir, tmp_path):
    deal = _first_taken_deal(run_dir)
    # find a play whose legal set is smaller than the hand, and play another held card
    for t, trick in enumerate(deal["tricks"]):
        for k, legal in enumerate(trick["legal"]):
            seat = (trick["leader"] + k) % 4
            held = set(deal["hands"][seat]) - {
                c for tr in deal["tricks"][:t] for c in tr["cards"]
            }
            illegal = sorted(held - set(legal))
            if illegal:
                step = 4 * t + k
                plays = list(deal["plays"])
                j = plays.index(illegal[0])
                plays[step], plays[j] = plays[j], plays[step]
                bad = {k2: deal[k2] for k2 in ("rules", "dealer", "pack", "calls")}
                bad["plays"] = plays
                f = tmp_path / "bad.jsonl"
                f.write_text(json.dumps(bad) + "\n")
                p = run("replay", str(f))
                assert p.returncode == 2
                assert "Traceback" not in p.stderr
                line = p.stderr.strip()
                assert "\n" not in line
                expected = f"error: deal 1, play {step + 1}: {illegal[0]} by seat {seat}"
                assert line.startswith(expected)
                assert "is illegal" in line
                return
    pytest.skip("no constrained play in this deal")


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "--rules", "nope"], "unknown preset 'nope'"),
        (["simulate", "--set", "must_trump=maybe"], "bad value 'maybe'"),
        (["simulate", "--set", "colour=red"], "unknown option 'colour'"),
        (["simulate", "--set", "players=2"], "contract=retourne needs 3 or 4 players"),
        (["simulate", "--set", "shuffle=cut"], "use --matches"),
        (["simulate", "--deals", "0"], "deals must be an integer in 1.."),
        (["simulate", "--bid-policy", "psychic"], "unknown bid policy 'psychic'"),
        (["simulate", "--log-deals", "3"], "need --out"),
        (["simulate", "--deals", "5", "--matches", "5"], "not both"),
        (["simulate", "--executor", "spark"], "unknown executor 'spark'"),
        (["simulate", "--matches", "-3"], "matches must be an integer in 1.."),
        (["summary", "/no/such/run"], "not a run directory"),
        (["replay", "/no/such/file.jsonl"], "no such file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    p = run(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert message in p.stderr
    assert "Traceback" not in p.stderr


def test_out_that_is_a_file_is_refused(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    p = run("simulate", "--deals", "10", "--out", str(f))
    assert p.returncode == 2 and "is a file" in p.stderr


def test_replay_bad_json_and_bad_card(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text('{"dealer": 0, "pack": ["XX"]}\nnot json\n')
    p = run("replay", str(f))
    assert p.returncode == 2
    assert "deal 1: pack: bad card 'XX'" in p.stderr
    assert "deal 2: not valid JSON" in p.stderr


def test_rules_lists_presets_and_options():
    p = run("rules")
    assert p.returncode == 0
    for word in ("classic", "litige", "coinche", "undertrump", "first_packets"):
        assert word in p.stdout


def test_summary_prints_headline_tables(run_dir):
    p = run("summary", str(run_dir))
    assert p.returncode == 0, p.stderr
    assert "20,000 deals" in p.stdout
    for word in ("take_rate [round=1]", "dedans_rate", "p_carre_jacks", "mean_taker_card_points"):
        assert word in p.stdout
    full = run("summary", str(run_dir), "--all")
    assert "dedans_rate [taker_trumps=3]" in full.stdout


def test_odds_writes_summary_parquet(tmp_path):
    p = run("odds", "--cards", "8", "--out", str(tmp_path / "odds"))
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(tmp_path / "odds" / "summary.parquet").set_index("metric")
    assert df.loc["p_carre_jacks", "k"] == 20_475  # C(28, 4) hands of C(32, 8)
    assert df.loc["p_carre_jacks", "n"] == 10_518_300
    assert read_provenance(tmp_path / "odds" / "summary.parquet")["method"] == "exact"
    p = run("odds", "--samples", "0")
    assert p.returncode == 2 and "samples" in p.stderr


def test_version_names_the_package_numba_and_numpy():
    import numba
    import numpy

    p = run("--version")
    assert p.returncode == 0, p.stderr
    line = p.stdout.strip()
    assert line.startswith(f"belote-sim {belote_sim.__version__} ")
    assert f"Numba {numba.__version__}" in line and f"NumPy {numpy.__version__}" in line


def test_python_m_belote_sim_is_the_same_command():
    p = subprocess.run([sys.executable, "-m", "belote_sim", "--version"], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout == run("--version").stdout
    p = subprocess.run([sys.executable, "-m", "belote_sim", "rules"], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0 and "classic" in p.stdout


def test_help_pages_read_cleanly():
    """Flags show no type, shell completion is offered, the usage line names the
    command whichever way it was started."""
    top = run("--help").stdout
    assert "--install-completion" in top and "--version" in top
    page = run("simulate", "--help").stdout
    assert "Usage: belote-sim simulate" in page
    assert "<bool>" not in page and "--resume" in page
    p = subprocess.run([sys.executable, "-m", "belote_sim", "simulate", "--help"],
                       capture_output=True, text=True, timeout=300)
    assert "Usage: belote-sim simulate" in p.stdout


def test_every_command_has_an_example_and_fits_a_laptop_terminal():
    """Every help page fits 80 columns. In process, through Typer's test runner: a
    subprocess per command would start Python fifteen times, and the pages are the same
    code (test_help_pages_read_cleanly reads them from subprocesses)."""
    from typer.testing import CliRunner

    from belote_sim.cli import EXAMPLES, app

    names = {c.name or c.callback.__name__ for c in app.registered_commands}
    assert names == set(EXAMPLES)
    runner = CliRunner()
    for name in sorted(names):
        p = runner.invoke(app, [name, "--help"], env={"COLUMNS": "80"}, prog_name="belote-sim")
        assert p.exit_code == 0, p.output
        assert "Example:" in p.stdout and f"belote-sim {name}" in p.stdout, name
        assert max(len(line) for line in p.stdout.splitlines()) <= 80, name


#: A first run in a fresh kernel cache, the command run in this process so that what it
#: compiles can be read after it: per kernel, the type its kit (or lookup) argument was
#: compiled for, in every signature.
_FIRST_RUN = """
import sys
from belote_sim.console import main
from belote_sim.game import coinche, twoplayer
from belote_sim.bid import dd_bidder, table_bidder
from belote_sim.play import dispatch, pimc
sys.argv = ["belote-sim", "simulate", "--deals", "50", "--seed", "1", "--quiet",
            "--bid-policy", "random", "--play-policy", "heuristic"]
try:
    main()
except SystemExit as stop:
    assert not stop.code, stop.code
reached = {f.__name__: sorted(str(sig[at]) for sig in f.signatures) for f, at in (
    (pimc.pimc_card, 6), (pimc.dd_card, 4), (dd_bidder.dd_call, 1),
    (table_bidder.table_call, 0), (dispatch._choose_card, 6), (coinche.deal_coinche, 0),
    (twoplayer.deal_stock, 0), (twoplayer.deal_no_contract_2p, 0))}
# Players of the run's types (the kernel it compiled), built for classic: the deals they
# refuse of 40 coinche deals, then of 40 classic ones.
from belote_sim.batch import runs
from belote_sim.players.lookup import no_lookup
from belote_sim.players.seating import families_for, same_players
from belote_sim.rules import Rules
classic_rules = Rules().to_array()
players = same_players(0, 0.25, 0, 0.0, *no_lookup(), None,
                       families_for(classic_rules, every=False))
refused = [int(runs.simulate_chunk(r, players, 1, 0, 40, 2, False)[1])
           for r in (Rules.from_preset("coinche").to_array(), classic_rules)]
print(reached)
print(refused)
"""


@pytest.mark.beside_warm
def test_a_first_run_compiles_only_what_it_plays_and_says_so_even_when_quiet(tmp_path):
    """In an empty kernel cache ``simulate --quiet`` says once, on standard error, that
    it compiles; the next run, from the cache, says nothing. Random bidding and
    heuristic play reach no solver player, no dd bidder and no table bidder: their
    kernels are never compiled, and the dispatches to them only for a kit and a lookup
    of type none (whose branches Numba prunes). A classic run compiles no deal function
    of another family either, and players built for classic, handed a coinche deal,
    refuse it (``ST_NOT_COMPILED``, counted as a broken policy) rather than play it."""
    import ast
    import os

    env = {**os.environ, "BELOTE_SIM_CACHE_DIR": str(tmp_path), "BELOTE_SIM_COMPILE_ALL": "0"}
    first = subprocess.run([sys.executable, "-c", _FIRST_RUN], env=env, capture_output=True,
                           text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    notice = "compiling the kernels for this machine, once: about"  # make bench's figure
    assert first.stderr.count(notice) == 1, first.stderr
    kept = json.loads((tmp_path / "compile-seconds.json").read_text())  # this machine's
    assert set(kept) == {"SimulateJob"} and kept["SimulateJob"] > 0
    *_, reached, refused = (ast.literal_eval(line) for line in first.stdout.splitlines()[-2:])
    assert refused == [40, 0]
    assert reached == {"pimc_card": [], "dd_card": [], "dd_call": ["none"],
                       "table_call": ["none"], "_choose_card": ["none"], "deal_coinche": [],
                       "deal_stock": [], "deal_no_contract_2p": []}, reached
    second = subprocess.run([EXE, "simulate", "--deals", "50", "--seed", "1", "--quiet",
                             "--bid-policy", "random", "--play-policy", "heuristic"],
                            env=env, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    assert notice not in second.stderr and "50 deals in" in second.stdout


def test_a_run_read_back_prints_no_rate_for_deals_it_did_not_play(tmp_path):
    """The same command again over a complete run directory plays nothing: it says the
    deals were read back, and prints no rate (its time played none of them)."""
    args = [EXE, "simulate", "--deals", "2000", "--seed", "3", "--out", str(tmp_path / "r"),
            "--quiet"]
    first, again = (subprocess.run(args, capture_output=True, text=True, timeout=600)
                    for _ in range(2))
    assert first.returncode == 0 and again.returncode == 0, first.stderr + again.stderr
    assert "2,000 deals in" in first.stdout and "deals/s" in first.stdout
    assert "2,000 deals, every one read back from" in again.stdout
    assert "deals/s" not in again.stdout


#: Each long command, with what it needs besides the run options.
LONG_COMMANDS = {
    "simulate": [],
    "odds": ["--samples", "1000"],
    "arena": ["--a", "heuristic", "--b", "random"],
    "compare": ["--a", "classic", "--b", "litige"],
    "bid-strength": ["--hand", "JH 9H AH 7D 8C", "--retourne", "TH"],
    "bid-table": [],
    "card-values": [],
    "study": [],
}


@pytest.mark.beside_warm
def test_the_run_options_are_declared_once_and_no_command_repeats_them():
    """The long commands take their run options from ``cli.RUN_OPTIONS`` through
    ``run_command``: none declares one in its own signature, and each command's options
    are its own followed by the run options, in the order they are declared."""
    import ast
    import inspect

    from belote_sim import cli

    tree = ast.parse(Path(cli.__file__).read_text(encoding="utf-8"))
    decorated = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "id", "") == "run_command":
                    decorated[deco.args[0].value] = [a.arg for a in node.args.args
                                                     + node.args.kwonlyargs]
    assert set(decorated) == set(LONG_COMMANDS)
    for name, own in decorated.items():
        repeated = (set(own) - {"out"} if name == "study" else set(own)) & set(cli.RUN_OPTIONS)
        assert not repeated, (name, repeated)
        assert own[-1] == "run", name
        command = next(c for c in cli.app.registered_commands if c.name == name)
        params = list(inspect.signature(command.callback).parameters)
        run_part = [p for p in params if p not in own]
        assert params[:len(own) - 1] == own[:-1], name
        assert run_part == [p for p in cli.RUN_OPTIONS if p in run_part], name


@pytest.mark.beside_warm
@pytest.mark.parametrize("name", sorted(LONG_COMMANDS))
def test_a_bad_run_option_is_one_line_before_anything_is_played(name, tmp_path):
    """Every long command checks its run options the same way, once, when it builds them:
    a thread count out of range, a chunk size of 0 (where it has one), a scheduler
    without Dask, ``--resume`` or ``--report`` without ``--out``, an ``--out`` that is
    a file."""
    from belote_sim import cli

    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    command = next(c for c in cli.app.registered_commands if c.name == name)
    takes = set(inspect_params(command.callback))
    cases = [(["--threads", "0"], "threads must be"),
             (["--scheduler", "tcp://nowhere:1"], "--scheduler needs --executor dask")]
    if "chunk_size" in takes:
        cases.append((["--chunk-size", "0"], "chunk size must be"))
    if "out" in takes and name != "study":
        cases += [(["--resume"], "--resume continues the run in OUT: give --out DIR too"),
                  (["--report"], "give --out DIR too"),
                  (["--out", str(a_file)], "is a file, not a directory")]
    for args, message in cases:
        p = run(name, *LONG_COMMANDS[name], *args)
        assert p.returncode == 2, (name, args, p.stderr)
        assert p.stderr.count("\n") == 1 and message in p.stderr, (name, args, p.stderr)


def inspect_params(callback) -> list[str]:
    import inspect

    return list(inspect.signature(callback).parameters)
