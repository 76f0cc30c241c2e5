"""Worlds given the auction: the check of a world's calls, the law of the worlds of
bid strength and of the pimc players against the simulator, and the errors.

The law tests (:mod:`worlds_law`) compare, at positions met in simulated deals, the
other seats' features in the worlds drawn from each deal's view with those the seats
really held. Each position's p-values are held to a Bonferroni bound at level
``ALPHA``; uniform worlds must fail the same tests where the calls say much."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from worlds_law import POSITIONS, auction_knowledge, law_test, pimc_law_test

from belote_sim import Rules
from belote_sim.errors import BeloteError
from belote_sim.infer.auction import makes_calls
from belote_sim.kernels import layout as L
from belote_sim.players.seating import players_of
from belote_sim.players.spec import PolicySpec, check_policies
from belote_sim.studies.simulate import simulate

#: Level of each position's law test, split over its p-values (Bonferroni).
ALPHA = 0.001
#: Uniform worlds must fail below this at the positions where the calls say much.
UNIFORM_FAILS = 1e-6


def _bonferroni(p: dict[str, float]) -> tuple[str, float]:
    worst = min(p, key=p.get)
    return worst, p[worst] * len(p)


@pytest.mark.parametrize("preset,bid", [("classic", "threshold"), ("coinche", "threshold"),
                                        ("tout-atout", "threshold"), ("coinche", "table"),
                                        ("classic", "table"), ("three-player", "threshold"),
                                        ("no-contract-4p", "threshold")])
def test_the_dealt_hands_make_their_own_calls(preset, bid):
    """Every deal's calls, replayed by the bidders with the hands the seats bid with (the
    first five cards in retourne games), are the calls made, from every seat's view; a
    world where the hands moved one seat round mostly is not."""
    from belote_sim.game.state import new_workspace

    rules = Rules.from_preset(preset)
    n = rules.players
    players = players_of(PolicySpec.parse(bid, "bid"), PolicySpec.parse("heuristic", "play"),
                         rules.to_array(), with_solver=True)
    kit = new_workspace(players, False, False, False).kit
    rng = np.zeros(1, dtype=np.uint64)
    deals = differ = 0
    for rec, know in auction_knowledge(preset, 300, seed=11, bid=bid):
        kit.know[:] = know
        dealt = np.zeros(4, dtype=np.int64)
        dealt[:n] = rec[L.DEALT:L.DEALT + n]
        for me in range(n):
            assert makes_calls(rules.to_array(), players, kit, dealt, me, rng), (preset, me)
        moved = dealt.copy()
        moved[:n] = np.roll(dealt[:n], 1)
        differ += not makes_calls(rules.to_array(), players, kit, moved, -1, rng)
        deals += 1
    assert deals >= 100
    assert differ >= deals // 4, f"{differ} of {deals} moved worlds refused"


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label)
def test_bid_strength_worlds_follow_the_simulators_law(position):
    """The worlds bid strength draws at each of the issue's positions agree with the
    simulated deals at that position: the other seats' J and 9 of the named suits, their
    lengths there and their aces (1,000 deals, 20 worlds each)."""
    p = law_test(position, "calls", deals=3_000_000, limit=1_000, worlds=20).p
    worst, bound = _bonferroni(p)
    assert bound > ALPHA, f"{position.label}: {worst} p = {p[worst]:.3g} of {len(p)}"


@pytest.mark.parametrize("position", [POSITIONS[0], POSITIONS[2]], ids=lambda p: p.label)
def test_uniform_worlds_fail_the_same_law(position):
    """The same tests tell uniform worlds from the deals: the tests have power."""
    p = law_test(position, "uniform", deals=3_000_000, limit=1_000, worlds=20).p
    worst = min(p, key=p.get)
    assert p[worst] < UNIFORM_FAILS, f"{position.label}: {worst} p = {p[worst]:.3g}"


@pytest.mark.parametrize("preset", ["coinche", "classic"])
def test_pimc_worlds_follow_the_simulators_law(preset):
    """The worlds ``fastpimc`` draws at the first lead agree with the hands really held
    after the same auction (deals whose worlds the budget cannot find left out: at most
    one in twenty); uniform worlds do not (the trump J and 9 of the taker's side give
    them away)."""
    law = pimc_law_test(preset, True, deals=3_000, worlds=20)
    assert law.acceptance > 0.95, f"{preset}: {law.acceptance:.1%} of deals kept"
    p = law.p
    worst, bound = _bonferroni(p)
    assert bound > ALPHA, f"{preset}: {worst} p = {p[worst]:.3g} of {len(p)}"
    p = pimc_law_test(preset, False, deals=3_000, worlds=20).p
    worst = min(p, key=p.get)
    assert p[worst] < UNIFORM_FAILS, f"{preset} uniform: {worst} p = {p[worst]:.3g}"


def test_the_dd_bidder_cannot_model_the_calls():
    """A player whose worlds read the calls refuses the dd bidder, naming the way out;
    its uniform variant plays with it."""
    rules = Rules.from_preset("classic")
    with pytest.raises(BeloteError, match="fastpimc:20:uniform"):
        check_policies(rules, PolicySpec.parse("dd", "bid"), PolicySpec.parse("fastpimc", "play"))
    check_policies(rules, PolicySpec.parse("dd", "bid"),
                   PolicySpec.parse("fastpimc:20:uniform", "play"))
    with pytest.raises(BeloteError, match="takes no ':uniform'"):
        PolicySpec.parse("heuristic:uniform", "play")


def test_uniform_players_are_their_own_policy():
    """``pimc:N:uniform`` is a policy of its own, written back as it was given, and
    plays other deals than ``pimc:N`` from the same seed (its worlds differ)."""
    spec = PolicySpec.parse("fastpimc:4:uniform", "play")
    assert str(spec) == "fastpimc:4:uniform" and spec.id != PolicySpec.parse("fastpimc:4",
                                                                               "play").id
    given = simulate(Rules.from_preset("coinche"), deals=12, seed=2, bid_policy="threshold",
                     play_policy="fastpimc:4")
    uniform = simulate(Rules.from_preset("coinche"), deals=12, seed=2, bid_policy="threshold",
                       play_policy="fastpimc:4:uniform")
    assert given.raw_counters.tolist() != uniform.raw_counters.tolist()


def _bid_strength(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "belote_sim", "bid-strength", *args],
                          capture_output=True, text=True, timeout=600)


def _error_lines(stderr: str) -> list[str]:
    """What a command wrote on stderr but the compile notice, which it writes before it
    compiles kernels it has not yet (the replay of the calls, the search for worlds)."""
    return [line for line in stderr.strip().splitlines()
            if not line.startswith("compiling the kernels for this machine")]


def test_calls_no_world_gives_stop_in_one_line():
    """A call the model never makes (the threshold bidder never opens at 250) stops the
    command with one line naming the call, the seat and the model, exit 2."""
    out = _bid_strength("--rules", "coinche", "--hand", "JS 9S AS TS KH 7D 8C 7C",
                        "--seat", "2", "--dealer", "3", "--calls", "250H pass",
                        "--worlds", "100")
    assert out.returncode == 2, out.stderr
    lines = _error_lines(out.stderr)
    assert len(lines) == 1, out.stderr
    assert "250H by seat 0" in lines[0] and "threshold" in lines[0], lines[0]


def test_worlds_beyond_the_budget_stop_in_one_line():
    """Worlds too rare for ``--max-packs`` stop before any is played, naming what to
    change; ``--worlds-given uniform`` plays them."""
    args = ["--rules", "coinche", "--hand", "JS 9S AS TS KH 7D 8C 7C", "--seat", "2",
            "--dealer", "3", "--calls", "80H pass", "--worlds", "1000"]
    out = _bid_strength(*args, "--max-packs", "2000")
    assert out.returncode == 2, out.stderr
    assert len(_error_lines(out.stderr)) == 1 and "--max-packs" in out.stderr
    out = _bid_strength(*args, "--max-packs", "2000", "--worlds-given", "uniform")
    assert out.returncode == 0, out.stderr


def test_the_dd_bidder_is_refused_as_the_model_of_bid_strength():
    out = _bid_strength("--rules", "classic", "--hand", "JH 9H 7D 8C KS", "--retourne", "TH",
                        "--seat", "1", "--dealer", "0", "--round", "2", "--bid-policy", "dd",
                        "--worlds", "10")
    assert out.returncode == 2, out.stderr
    assert "--worlds-given uniform" in out.stderr
