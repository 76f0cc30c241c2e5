"""Engine plumbing: bit intrinsics, random streams, reproducibility, the kernel cache."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_sim import Rules, simulate
from belote_sim._jit import PACKAGE_DIR, jit, source_hash
from belote_sim.batch import runs
from belote_sim.batch.blocks import run_blocks
from belote_sim.batch.claims import take
from belote_sim.errors import BeloteError
from belote_sim.game import deals
from belote_sim.kernels.bits import ctz, nth_bit, nth_bit_by_bytes, popcount
from belote_sim.kernels.deal import shuffle_pack
from belote_sim.kernels.rng import rand_below, seed_stream
from belote_sim.players.lookup import lookup_for
from belote_sim.players.seating import families_for, same_players, solver_need
from belote_sim.studies.simulate import play_match, simulated_deals


@settings(deadline=None)  # the first example loads (or compiles) three kernels
@given(st.integers(min_value=1, max_value=2**32 - 1))
def test_popcount_ctz_nth_bit_match_python(mask):
    assert popcount(np.int64(mask)) == bin(mask).count("1")
    assert ctz(np.int64(mask)) == (mask & -mask).bit_length() - 1
    bits = [i for i in range(32) if mask >> i & 1]
    for n, b in enumerate(bits):
        assert nth_bit(np.int64(mask), n) == b
        assert nth_bit_by_bytes(np.int64(mask), n) == b  # without pdep


def test_pure_python_fallback_matches(tmp_path):
    """With NUMBA_DISABLE_JIT=1 the bit helpers fall back to plain Python."""
    code = (
        "from belote_sim.kernels.bits import popcount, ctz, nth_bit\n"
        "print(popcount(0b1011000), ctz(0b1011000), nth_bit(0b1011000, 2))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["3", "3", "6"]


def test_random_stream_depends_only_on_key():
    a = np.zeros(1, np.uint64)
    b = np.zeros(1, np.uint64)
    seed_stream(a, 5, 9, 0)
    seed_stream(b, 5, 9, 0)
    xs = [rand_below(a, 32) for _ in range(50)]
    assert xs == [rand_below(b, 32) for _ in range(50)]
    seed_stream(b, 5, 10, 0)
    assert xs != [rand_below(b, 32) for _ in range(50)]


def test_shuffle_is_uniform_enough():
    """Chi-square of the top card over 32,000 shuffles (df = 31; 99.9% point ~61)."""
    state = np.zeros(1, np.uint64)
    pack = np.zeros(32, np.int64)
    counts = np.zeros(32)
    for i in range(32_000):
        seed_stream(state, 1, i, 0)
        shuffle_pack(pack, state)
        assert sorted(pack) == list(range(32))
        counts[pack[0]] += 1
    chi2 = ((counts - 1000) ** 2 / 1000).sum()
    assert chi2 < 61.1


def test_counts_identical_for_any_thread_count_and_split():
    rules = Rules.from_preset("litige")
    one = simulate(rules, 20_000, seed=11, threads=1).counters
    two = simulate(rules, 20_000, seed=11, threads=2).counters
    assert one == two
    arr = rules.to_array()
    args = (arr, same_players(0, 0.25, 0, 0.0, *lookup_for(0), solver_need((0,), (0,)),
                              families_for(arr)))
    whole, _, _ = runs.simulate_chunk(*args, 11, 0, 20_000, 7, False)
    first, _, _ = runs.simulate_chunk(*args, 11, 0, 12_345, 3, False)
    rest, _, _ = runs.simulate_chunk(*args, 11, 12_345, 20_000 - 12_345, 64, False)
    assert (whole == first + rest).all()
    assert whole[0] == 20_000 and one["deals"] == 20_000


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_blocks_cover_the_range_in_order(threads):
    for start, n, n_blocks in itertools.product((0, 7), (0, 1, 5, 17, 200), (1, 2, 3, 9)):
        got = run_blocks(lambda b, lo, hi: (b, lo, hi), start, n, n_blocks, threads=threads)
        assert [b for b, _, _ in got] == list(range(n_blocks))
        assert got[0][1] == start and got[-1][2] == start + n
        assert all(got[b][2] == got[b + 1][1] for b in range(n_blocks - 1))
        sizes = [hi - lo for _, lo, hi in got]
        assert max(sizes) - min(sizes) <= 1


def test_blocks_run_side_by_side_and_pass_errors_on():
    # Each block waits for the other: they can only finish if they run at the same time.
    both = threading.Barrier(2, timeout=30)
    assert run_blocks(lambda b, lo, hi: both.wait() in (0, 1), 0, 2, 2, threads=2) == [True] * 2

    def second_fails(b, lo, hi):
        if b == 1:
            raise ValueError("block 1 failed")
        return b

    with pytest.raises(ValueError, match="block 1 failed"):
        run_blocks(second_fails, 0, 4, 4, threads=2)
    with pytest.raises(ValueError, match="n_blocks must be at least 1, got 0"):
        run_blocks(second_fails, 0, 4, 0)


@jit
def _take_all(counter, end, taken):
    """Take items from ``counter[0]`` until ``end``, marking each in ``taken``."""
    while True:
        i = take(counter, 0)
        if i >= end:
            return
        taken[i] += 1


def test_blocks_taking_items_from_one_counter_get_each_once():
    """Two blocks at once take every item exactly once (the fetch-and-add is atomic)."""
    n = 2_000_000
    counter = np.zeros(1, dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    run_blocks(lambda b, lo, hi: _take_all(counter, n, taken), 0, n, 2, threads=2)
    assert (taken == 1).all()
    assert counter[0] == n + 2  # each block's last take found the items gone
    assert [take(counter, 0), take(counter, 0)] == [n + 2, n + 3]


def _two_blocks_side_by_side() -> list:
    both = threading.Barrier(2, timeout=30)
    return run_blocks(lambda b, lo, hi: both.wait() in (0, 1), 0, 2, 2, threads=2)


def test_blocks_run_in_a_forked_child():
    """A child forked after the pool's threads started (they are not copied) starts its own."""
    assert _two_blocks_side_by_side() == [True] * 2
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_two_blocks_side_by_side).get(timeout=60) == [True] * 2


def test_logged_deals_are_the_counted_deals():
    """simulated_deals(start=i) plays exactly deal i of the run."""
    all_deals = simulated_deals(Rules(), 6, seed=4)
    assert simulated_deals(Rules(), 2, seed=4, start=4) == all_deals[4:]


def test_different_seeds_differ():
    a = simulate(Rules(), 5_000, seed=1).counters
    b = simulate(Rules(), 5_000, seed=2).counters
    assert a != b


def test_threshold_bidder_takes_less_with_a_higher_threshold():
    low = simulate(Rules(), 20_000, seed=3, bid_policy="threshold:30").counters
    high = simulate(Rules(), 20_000, seed=3, bid_policy="threshold:70").counters
    assert low["thrown_in"] < high["thrown_in"]


def test_random_bidder_take_probability():
    """With p = 1 the first hand always takes the retourne in round 1."""
    c = simulate(Rules(), 2_000, seed=3, bid_policy="random:1").counters
    assert c["taken_round_1"] == 2_000
    c = simulate(Rules(), 2_000, seed=3, bid_policy="random:0").counters
    assert c["thrown_in"] == 2_000


def test_match_ends_at_target():
    m = play_match(Rules.from_preset("classic", target=300), seed=5)
    s0, s1 = m["scores"]
    assert max(s0, s1) >= 300
    totals = np.sum([d["deal_score"] for d in m["deals"] if not d["thrown_in"]], axis=0)
    assert list(totals) == [s0, s1]
    # before the last deal nobody had reached the target
    before = totals - np.asarray(m["deals"][-1].get("deal_score", [0, 0]))
    assert max(before) < 300


@pytest.mark.parametrize(
    "bad", [dict(deals=0), dict(deals=-5), dict(deals=2.5), dict(seed=-1)]
)
def test_bad_run_arguments_are_refused(bad):
    kw = dict(deals=10, seed=0) | bad
    with pytest.raises(BeloteError):
        simulate(Rules(), **kw)


def test_shuffle_cut_is_simulated_as_matches_only():
    with pytest.raises(BeloteError, match="shuffle=cut .* use --matches"):
        simulate(Rules.from_preset("classic", shuffle="cut"), 10)
    with pytest.raises(BeloteError, match="shuffle=cut"):
        simulated_deals(Rules.from_preset("classic", shuffle="cut"), 1)


def test_source_hash_changes_with_any_source_file(tmp_path):
    """The kernel cache directory is keyed on every source file, so editing a helper in
    another module can never reuse stale machine code."""
    copy = tmp_path / "belote_sim"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_hash(copy) == source_hash(PACKAGE_DIR)
    helper = copy / "kernels" / "bits.py"
    helper.write_text(helper.read_text() + "\n# edited\n")
    assert source_hash(copy) != source_hash(PACKAGE_DIR)


def test_source_hash_leaves_out_the_layers_above_the_kernels(tmp_path):
    """Editing the studies, deal-log, statistics, runner or report layers or the CLI keeps
    the compiled kernels: no kernel can depend on them (they hold none, and the import
    contract forbids importing them)."""
    from belote_sim._jit import ABOVE_KERNELS

    copy = tmp_path / "belote_sim"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("studies/simulate.py", "deallog/replay.py", "stats.py", "runner/jobs.py",
                 "report/pages.py", "cli.py"):
        (copy / name).write_text((copy / name).read_text() + "\n# edited\n")
    assert source_hash(copy) == source_hash(PACKAGE_DIR)
    above = [p for p in PACKAGE_DIR.rglob("*.py")
             if p.relative_to(PACKAGE_DIR).as_posix().startswith(ABOVE_KERNELS)]
    assert len(above) > 10
    decorators = ("import jit", "jit,", "@jit", "jit_no_refcount", "jit_refcounted", "njit",
                  "numba.jit", "python_form")
    for path in above:
        text = path.read_text()
        assert not any(d in text for d in decorators), path


def test_cache_dir_is_keyed_on_the_source_hash():
    from belote_sim._jit import SOURCE_HASH, cache_dir

    assert Path(cache_dir()).name == f"numba-{SOURCE_HASH}"
    assert deals.play_deal._cache._cache_path.startswith(cache_dir())


_BROKEN_POLICY = """
import numpy as np
from belote_sim import Rules, simulate
from belote_sim.game import tricks
from belote_sim.kernels import layout as L
from belote_sim.kernels.bits import nth_bit

def broken(legal, rng):  # the neighbour of the lowest legal card: often not legal
    return nth_bit(legal, 0) ^ 1 if legal & (legal - 1) else nth_bit(legal, 0)

def broken_from(legal, z):  # the same, as the trick loop draws it
    return broken(legal, None), z

tricks.random_card_from = broken_from
try:
    simulate(Rules(), deals=3, seed=1, bid_policy="random", play_policy="random")
except RuntimeError as e:
    print("refused:", e)
"""


def test_a_policys_illegal_card_is_refused_not_played():
    """Every card a policy chooses goes through the rule check: a broken player (here
    the random policy replaced, in plain-Python mode, by one that may pick another card)
    makes the run fail with a clear error instead of counting an illegal deal."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run([sys.executable, "-c", _BROKEN_POLICY], capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "refused:" in proc.stdout and "illegal policy choice" in proc.stdout


@pytest.mark.parametrize(("preset", "bid", "play"), [
    ("classic", "random", "random"),
    ("classic", "random", "heuristic"),
    ("classic", "threshold", "heuristic"),
    ("tout-atout", "random", "random"),
    ("three-player", "threshold", "random"),
])
def test_the_plain_loops_play_as_the_general_ones(preset, bid, play):
    """Mass runs make the calls in :func:`phases.bid_plain` (random or threshold
    bidders) and play the tricks in the kernel form of the trick loop
    (:func:`tricks.trick_loop`: without policies when every seat plays random, else
    with random or heuristic players), nothing watching. The arena's decision timing
    sends the same deals through the loop's general form, inlined in the deal, a script
    of no opening call through the general bidding too. All play the same calls
    and cards from the same draws: equal records (but for the timing's own fields) and
    equal streams after each deal. A script of calls only (the atlas's openings, here a
    first pass) leaves the tricks to the kernel form too: the same deals under it play
    alike with and without the timing."""
    from belote_sim.game.deals import play_deal_cached
    from belote_sim.game.state import new_workspace, no_script, opening_of
    from belote_sim.kernels import layout as L
    from belote_sim.kernels.deal import shuffle_pack
    from belote_sim.kernels.rng import seed_stream
    from belote_sim.players.registry import bid_policy_id, play_policy_id

    rules = Rules.from_preset(preset).to_array()
    players = same_players(bid_policy_id(bid), 0.5 if bid == "random" else 45.0,
                           play_policy_id(play), 0.0, *lookup_for(), True, families_for(rules))
    timing = np.zeros(L.REC_SIZE, dtype=bool)
    timing[L.DECISIONS:L.DECISIONS + 2] = timing[L.DECISION_CYCLES:L.DECISION_CYCLES + 2] = True
    first_pass = opening_of(np.array([L.CALL_PASS], dtype=np.int64))
    tables = [(new_workspace(players, False, False, False), no_script()),
              (new_workspace(players, True, False, False), no_script()),
              (new_workspace(players, False, False, False),
               opening_of(np.zeros(0, dtype=np.int64))),
              (new_workspace(players, False, False, False), first_pass),
              (new_workspace(players, True, False, False), first_pass)]
    played = played_after_pass = 0
    for deal in range(300):
        streams = []
        for ws, script in tables:
            seed_stream(ws.rng, 7, deal, 0)
            shuffle_pack(ws.pack, ws.rng)
            assert play_deal_cached(rules, players, script, ws, deal % 4, 0, 0) == 0
            streams.append(int(ws.rng[0]))
        assert streams[0] == streams[1] == streams[2] and streams[3] == streams[4]
        plain = tables[0][0].rec[~timing]
        for ws, _ in tables[1:3]:
            np.testing.assert_array_equal(plain, ws.rec[~timing])
        np.testing.assert_array_equal(tables[3][0].rec[~timing], tables[4][0].rec[~timing])
        played += tables[0][0].rec[L.N_PLAYS] > 0
        played_after_pass += tables[3][0].rec[L.N_PLAYS] > 0
    assert played > 100 and played_after_pass > 100  # most deals were taken and played


def test_numbas_inliner_copies_each_callee_once():
    """The installed Numba takes the inliner's one-memo copy (``_jit.copy_callees_once``):
    without it a first run compiles about a third longer. Applying it again changes
    nothing; the kernels' results under it are the golden tests'."""
    from numba.core.inline_closurecall import InlineWorker

    from belote_sim._jit import COPIES_CALLEES_ONCE, copy_callees_once

    assert COPIES_CALLEES_ONCE and InlineWorker.inline_ir.copies_callees_once
    patched = InlineWorker.inline_ir
    assert copy_callees_once() and InlineWorker.inline_ir is patched
