"""Chunk kernels of the simulator: many deals (or matches) per call, their blocks on
parallel threads (:mod:`belote_sim.batch.blocks`).

Deal ``i`` of a run with seed ``s`` uses the random stream keyed ``(s, i, 0)`` and is
dealt by seat ``i mod players``; match ``m`` keys deal ``d`` on ``(s, m, d)`` and starts
with dealer ``m mod players``. Every deal is thus a pure function of (rules, policies,
seed, index) whatever the thread count or chunking, and counters are integers summed
per block: bit-identical totals for any split.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.batch.blocks import run_blocks
from belote_sim.batch.counting import accumulate, accumulate_match, fill_row
from belote_sim.game.deals import play_deal, play_deal_apart
from belote_sim.game.state import new_workspace, no_script
from belote_sim.kernels.deal import cut_pack, rebuild_pack, shuffle_pack
from belote_sim.kernels.layout import (
    AR_CYCLES,
    AR_DEALS,
    AR_DECISIONS,
    AR_DIFF,
    AR_DIFF_SQ,
    AR_DRAWS,
    AR_GAMES,
    AR_SCORE,
    AR_THROWN_IN,
    AR_UNFINISHED,
    AR_WINS,
    AR_WORLDS_DRAWN,
    AR_WORLDS_GIVEN,
    AR_WORLDS_SHORT,
    DEAL_SCORE,
    DECISION_CYCLES,
    DECISIONS,
    MATCH_DRAW,
    MAX_MATCH_DEALS,
    N_ARENA_COUNTERS,
    N_COUNTERS,
    N_ROW,
    OUT_LITIGE,
    OUTCOME,
    POT,
    REC_SIZE,
    THROWN_IN,
    WORLDS_DRAWN,
    WORLDS_GIVEN,
    WORLDS_SHORT,
)
from belote_sim.kernels.rng import seed_stream
from belote_sim.kernels.trick import seat_after
from belote_sim.rules import (
    CONTRACT_NONE,
    CONTRACT_STOCK,
    MATCH_END_DRAW,
    MATCH_END_PLAY_ON,
    R_CONTRACT,
    R_MATCH_END,
    R_PLAYERS,
    R_SHUFFLE,
    R_TARGET,
    R_TARGET_RULE,
    SHUFFLE_FULL,
    TARGET_EXCEED,
)

#: Where a loop of deals puts what it plays, each an array that may be empty (then
#: nothing goes there): ``counters`` (int64[N_COUNTERS]) every deal is added to;
#: ``records``, one row per deal (a match's deal ``d``'s full record, ``REC_SIZE`` wide;
#: a block of a run's deals, its summary rows, ``N_ROW`` wide); ``scores`` (int64[3]) a
#: match's totals.
Sink = namedtuple("Sink", ["counters", "records", "scores"])

#: What a comparison plays: each cell's rule set (``cells``, int64[K, R]) and the seed of
#: its streams (``cell_seeds``, int64[K]), and the counters whose per-unit values are
#: paired (``slots``, int64[Q]).
Comparison = namedtuple("Comparison", ["cells", "cell_seeds", "slots"])


@jit(inline="always")
def _shuffled(rules, seed, i, ws):
    """Shuffle the pack of deal ``i`` of the run ``seed`` into ``ws``; return its
    dealer."""
    seed_stream(ws.rng, seed, i, 0)
    shuffle_pack(ws.pack, ws.rng)
    n = rules[R_PLAYERS]
    return i & 3 if n == 4 else i % n  # a division costs more than the dealing


@jit(inline="always")
def simulate_deal(rules, players, script, seed, i, ws):
    """Shuffle and play deal ``i`` of the run ``seed`` into ``ws``; return its status.

    Independent deals start with no litige pot and no redeals (``redeals_before = 0``):
    the stock game's redeals, and the dealer forced to bid after two of them, arise only
    in matches (:func:`match_loop`). The deal is compiled into the caller's code
    (:func:`~belote_sim.game.deals.play_deal`): for the loops whose rate is the deal's.
    """
    dealer = _shuffled(rules, seed, i, ws)
    return play_deal(rules, players, script, ws, dealer, 0, 0)


@jit(inline="always")
def simulate_deal_apart(rules, players, script, seed, i, ws):
    """:func:`simulate_deal` with the deal a call to its own cached kernel
    (:func:`~belote_sim.game.deals.play_deal_apart`): for the loops whose rate is not
    the deal's own (:func:`~belote_sim.game.deals.play_deal_cached`)."""
    dealer = _shuffled(rules, seed, i, ws)
    return play_deal_apart(rules, players, script, ws, dealer, 0, 0)


def simulate_chunk(rules, players, seed, start, n, n_blocks, want_rows):
    """Counters of deals ``start .. start+n-1`` played in ``n_blocks`` parallel blocks,
    the number of deals refused because a player chose illegally (0 unless a policy is
    broken), and, with ``want_rows``, one row per deal (``int64[n, N_ROW]``, else
    empty).

    Kernel of :func:`belote_sim.runner.executors.run_chunk`.
    """
    per_block = np.zeros((n_blocks, N_COUNTERS), dtype=np.int64)
    rows = np.zeros((n if want_rows else 0, N_ROW), dtype=np.int64)
    errors = run_blocks(
        lambda b, lo, hi: _count_deals(rules, players, seed, lo, hi, per_block[b], start, rows),
        start, n, n_blocks)
    return per_block.sum(axis=0), sum(errors), rows


@jit
def _count_deals(rules, players, seed, lo, hi, counters, start, rows):
    """One block of :func:`simulate_chunk`: deals ``lo .. hi-1`` added to ``counters``
    (rows to ``rows[i - start]`` when it has any); returns the deals refused."""
    ws = new_workspace(players, False, False, False)
    sink = Sink(counters, rows[lo - start : hi - start], np.zeros(0, dtype=np.int64))
    return _count_deal_range(rules, players, no_script(), seed, lo, hi, ws, sink)


@jit_no_refcount
def _count_deal_range(rules, players, script, seed, lo, hi, ws, sink):
    """The loop of :func:`_count_deals`: deals ``lo .. hi-1`` into ``sink``'s counters
    and, when it has any, deal ``i``'s row into ``sink.records[i - lo]``. Compiled
    without reference counting: in a function that keeps them, taking the record or the
    stream out of the workspace at every deal would cost an atomic increment and
    decrement each."""
    refused = 0
    for i in range(lo, hi):
        if simulate_deal(rules, players, script, seed, i, ws) != 0:
            refused += 1
            continue
        accumulate(rules, ws.rec, sink.counters)
        if len(sink.records) > 0:
            fill_row(rules, ws.rec, i, sink.records[i - lo])
    return refused


def compare_chunk(comparison, players, start, n, n_blocks, matches, max_deals):
    """Counters of deals (with ``matches``: matches) ``start .. start+n-1`` played under
    each rule set of ``comparison.cells`` (``int64[K, R]``, a :class:`Comparison`), deal
    (match) ``i`` of cell ``k`` from the streams of ``cell_seeds[k]`` (cells with the same
    seed play the same packs and random streams: common random numbers), and the number
    of deals refused (0 unless a policy is broken: the counters are then not to be
    used).

    Returns one flat vector: each cell's run counters (``K x N_COUNTERS``); then, for
    the per-unit quantities ``x`` (what deal or match ``i`` adds to counter ``slots[q]``
    in cell ``k``, at ``k * Q + q``), their sums (``K Q``) and the sums of their
    products (``(K Q)^2``, row-major): every paired difference, main effect or
    interaction follows from these, with its variance.

    Kernel of :func:`belote_sim.studies.compare.compare`.
    """
    cells, slots = comparison.cells, comparison.slots
    k, q = cells.shape[0], slots.shape[0]
    size = k * N_COUNTERS + k * q + (k * q) * (k * q)
    per_block = np.zeros((n_blocks, size), dtype=np.int64)
    errors = run_blocks(
        lambda b, lo, hi: _compare_deals(comparison, players, lo, hi, per_block[b], matches,
                                         max_deals),
        start, n, n_blocks)
    return per_block.sum(axis=0), sum(errors)


@jit
def _compare_deals(comparison, players, lo, hi, flat, matches, max_deals):
    """One block of :func:`compare_chunk`: deals (matches) ``lo .. hi-1`` added to
    ``flat``."""
    cells, cell_seeds, slots = comparison
    ws = new_workspace(players, False, False, False)
    script = no_script()
    k, q = cells.shape[0], slots.shape[0]
    kq = k * q
    counters = flat[: k * N_COUNTERS].reshape((k, N_COUNTERS))
    sums = flat[k * N_COUNTERS : k * N_COUNTERS + kq]
    cross = flat[k * N_COUNTERS + kq :].reshape((kq, kq))
    before = np.zeros(q, dtype=np.int64)
    x = np.zeros(kq, dtype=np.int64)
    nonzero = np.zeros(kq, dtype=np.int64)
    none = np.zeros((0, REC_SIZE), dtype=np.int64)
    scores = np.zeros(3, dtype=np.int64)
    refused = 0
    for i in range(lo, hi):
        m = 0
        ok = True
        for c in range(k):
            # A deal's value of a counter is what it adds to it (the counters are
            # thousands of slots: no copy of them per deal).
            for j in range(q):
                before[j] = counters[c, slots[j]]
            if matches:
                rules = cells[c]
                n_deals, winner, first = match_loop(
                    rules, players, script, cell_seeds[c], i, max_deals, ws,
                    Sink(counters[c], none, scores),
                )
                accumulate_match(counters[c], n_deals, winner,
                                 first_dealer_side(i, rules[R_PLAYERS]), first)
            elif simulate_deal(cells[c], players, script, cell_seeds[c], i, ws) != 0:
                refused += 1  # a broken policy: the caller refuses the whole chunk
                ok = False
                break
            else:
                accumulate(cells[c], ws.rec, counters[c])
            for j in range(q):
                v = counters[c, slots[j]] - before[j]
                x[c * q + j] = v
                if v != 0:
                    nonzero[m] = c * q + j
                    m += 1
        if ok:
            for a in range(m):  # most values are 0 in a deal: only the others' products
                ia = nonzero[a]
                sums[ia] += x[ia]
                for b in range(m):
                    ib = nonzero[b]
                    cross[ia, ib] += x[ia] * x[ib]
    return refused


def simulate_records(rules, players, seed, start, n):
    """The full records (``int64[n, REC_SIZE]``) of deals ``start .. start+n-1``."""
    out = np.zeros((n, REC_SIZE), dtype=np.int64)
    run_blocks(lambda b, lo, hi: _record_deals(rules, players, seed, start, lo, hi, out),
               0, n, max(1, min(n, 64)))
    return out


@jit
def _record_deals(rules, players, seed, start, lo, hi, out):
    """One block of :func:`simulate_records`: deals ``start + lo .. start + hi - 1``."""
    ws = new_workspace(players, False, False, False)
    script = no_script()
    for j in range(lo, hi):
        simulate_deal_apart(rules, players, script, seed, start + j, ws)
        out[j, :] = ws.rec


@jit(inline="always")
def first_dealer_side(match, n):
    """The side of match ``match``'s first dealer (seat ``match mod n``; with two or
    three players the seat itself)."""
    first_dealer = match % n
    return first_dealer & 1 if n == 4 else first_dealer


@jit
def match_loop(rules, players, script, seed, match, max_deals, ws, sink):
    """Play match ``match`` of run ``seed`` (RULES 8, Match).

    Matches go to the target, and the deal passes to the next seat after every deal,
    thrown-in deals included, except in the two-player games:

    * stock game (RULES 7.2): exactly two *played* deals, each player dealing once; a
      thrown-in deal is redealt by the same dealer with the redeal counter (the deal's
      ``redeals_before``, 2 forbids the dealer's pass in round 2) one higher; the
      higher total wins, equal totals draw, the target plays no part;
    * otherwise a side wins alone over the target (``>= target``, or ``> target`` with
      ``target_rule = exceed``); sides over it together draw (``match_end = draw``), or
      the higher total wins (``higher``: equal totals draw; ``play-on``: equal totals
      play another deal);
    * two-player game without contract (7.3): after a played deal the player with the
      higher deal score deals next (on a tie the deal passes as usual).

    With ``shuffle = cut`` every deal after the first is dealt from the pack of the deal
    before, rebuilt from its tricks and cut (RULES 4). The litige pot is carried from deal
    to deal. Each deal is added to ``sink.counters`` unless it is empty, and deal ``d``'s
    record goes to ``sink.records[d]`` unless it has no rows (a :class:`Sink`); the
    totals go to ``sink.scores`` (int64[3]: each side's, or with three players each
    seat's). Returns
    ``(n_deals, winner, first_deal_winner)``: ``winner`` is the winning side (the winning
    seat with three players, who score individually), ``MATCH_DRAW`` for a draw, -1 when
    ``max_deals`` deals did not finish the match; ``first_deal_winner`` the side that
    scored most in the first played deal, or -1. Nothing is allocated: the loops that
    call it run without reference counting.
    """
    n = rules[R_PLAYERS]
    target = rules[R_TARGET]
    exceed = rules[R_TARGET_RULE] == TARGET_EXCEED
    match_end = rules[R_MATCH_END]
    stock = rules[R_CONTRACT] == CONTRACT_STOCK
    winner_deals = rules[R_CONTRACT] == CONTRACT_NONE and n == 2
    n_scores = 3 if n == 3 else 2  # three players score individually
    counters, out, scores = sink
    count = len(counters) > 0
    record = out.shape[0] > 0
    scores[:] = 0
    pot = 0
    first = -2
    dealer = match % n
    redeals = 0
    played = 0
    for d in range(max_deals):
        seed_stream(ws.rng, seed, match, d)
        if d == 0 or rules[R_SHUFFLE] == SHUFFLE_FULL:
            shuffle_pack(ws.pack, ws.rng)
        else:  # the pack of the deal before, rebuilt from its tricks, then cut
            rebuild_pack(ws.rec, n, ws.pack)
            cut_pack(ws.pack, ws.rng)
        play_deal_apart(rules, players, script, ws, dealer, pot, redeals if stock else 0)
        rec = ws.rec
        if record:
            out[d, :] = rec
        if count:
            accumulate(rules, rec, counters)
        if rec[THROWN_IN] != 0:
            if stock:
                redeals += 1  # the same dealer deals again
            else:
                dealer = seat_after(dealer, 1, n)
            continue
        redeals = 0
        played += 1
        dealer = seat_after(dealer, 1, n)
        best = _unique_best(rec[DEAL_SCORE : DEAL_SCORE + n_scores])
        if winner_deals and best >= 0:
            dealer = best  # the higher deal score deals next
        if first == -2:
            first = best
        for s in range(n_scores):
            scores[s] += rec[DEAL_SCORE + s]
        if rec[OUTCOME] == OUT_LITIGE:
            pot += rec[POT]
        else:
            pot = 0
        if stock:
            if played == 2:
                w = _unique_best(scores[:n_scores])
                return d + 1, (MATCH_DRAW if w < 0 else w), first
            continue
        n_over = 0
        over = -1
        for s in range(n_scores):
            if scores[s] > target or (scores[s] == target and not exceed):
                n_over += 1
                over = s
        if n_over == 1:
            return d + 1, over, first
        if n_over > 1:
            w = _unique_best(scores[:n_scores]) if match_end != MATCH_END_DRAW else -1
            if w >= 0 or match_end != MATCH_END_PLAY_ON:
                return d + 1, (MATCH_DRAW if w < 0 else w), first
    return max_deals, -1, max(first, -1)


@jit
def _unique_best(values):
    """Index of the strictly highest value, -1 on a tie for the top."""
    best = 0
    tie = False
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
            tie = False
        elif values[i] == values[best]:
            tie = True
    return -1 if tie else best


@jit
def play_match(rules, players, seed, match, max_deals, out):
    """Play one match, recording each deal in ``out[d]``; returns
    ``(n_deals, winner, scores)`` (see :func:`match_loop`)."""
    ws = new_workspace(players, False, False, False)
    none = np.zeros(0, dtype=np.int64)
    scores = np.zeros(3, dtype=np.int64)
    n_deals, winner, _ = match_loop(
        rules, players, no_script(), seed, match, max_deals, ws, Sink(none, out, scores)
    )
    return n_deals, winner, scores


def simulate_matches(rules, players, seed, start, n, n_blocks, max_deals):
    """Counters of matches ``start .. start+n-1`` (their deals and their results)."""
    per_block = np.zeros((n_blocks, N_COUNTERS), dtype=np.int64)
    run_blocks(lambda b, lo, hi: _count_matches(rules, players, seed, lo, hi, max_deals,
                                                per_block[b]),
               start, n, n_blocks)
    return per_block.sum(axis=0)


@jit
def _count_matches(rules, players, seed, lo, hi, max_deals, counters):
    """One block of :func:`simulate_matches`: matches ``lo .. hi-1``."""
    ws = new_workspace(players, False, False, False)
    script = no_script()
    sink = Sink(counters, np.zeros((0, REC_SIZE), dtype=np.int64), np.zeros(3, dtype=np.int64))
    for m in range(lo, hi):
        n_deals, winner, first = match_loop(rules, players, script, seed, m, max_deals, ws, sink)
        accumulate_match(counters, n_deals, winner, first_dealer_side(m, rules[R_PLAYERS]),
                         first)


def arena_chunk(rules, ab, ba, seed, start, n, n_blocks, matches):
    """Arena counters (``AR_*``) of deals (or, with ``matches``, matches) ``start ..
    start+n-1``, each played twice from the same random stream: by the players ``ab``
    (player A on side 0, :func:`~belote_sim.players.seating.sided_players`), then by
    ``ba`` (A on side 1). Each side's decisions are timed.

    Kernel of :func:`belote_sim.studies.arena.arena`."""
    per_block = np.zeros((n_blocks, N_ARENA_COUNTERS), dtype=np.int64)
    run_blocks(lambda b, lo, hi: _arena_block(rules, ab, ba, seed, lo, hi, matches,
                                              per_block[b]),
               start, n, n_blocks)
    return per_block.sum(axis=0)


@jit
def _arena_block(rules, ab, ba, seed, lo, hi, matches, c):
    """One block of :func:`arena_chunk`: deals (or matches) ``lo .. hi-1``."""
    ws = new_workspace(ab, True, False, False)
    script = no_script()
    sink = Sink(np.zeros(0, dtype=np.int64), np.zeros((0, REC_SIZE), dtype=np.int64),
                np.zeros(3, dtype=np.int64))
    for i in range(lo, hi):
        if matches:
            for a_side in range(2):
                _, winner, _ = match_loop(
                    rules, ba if a_side else ab, script, seed, i, MAX_MATCH_DEALS, ws, sink
                )
                c[AR_GAMES] += 1
                if winner < 0:
                    c[AR_UNFINISHED] += 1
                elif winner == MATCH_DRAW:
                    c[AR_DRAWS] += 1
                elif winner == a_side:
                    c[AR_WINS] += 1
            continue
        c[AR_DEALS] += 1
        diff = 0
        for a_side in range(2):
            simulate_deal_apart(rules, ba if a_side else ab, script, seed, i, ws)
            rec = ws.rec
            if a_side == 0 and rec[THROWN_IN] != 0:
                c[AR_THROWN_IN] += 1
            for player in range(2):  # A, B
                side = a_side if player == 0 else 1 - a_side
                c[AR_SCORE + player] += rec[DEAL_SCORE + side]
                c[AR_DECISIONS + player] += rec[DECISIONS + side]
                c[AR_CYCLES + player] += rec[DECISION_CYCLES + side]
                c[AR_WORLDS_DRAWN + player] += rec[WORLDS_DRAWN + side]
                c[AR_WORLDS_GIVEN + player] += rec[WORLDS_GIVEN + side]
                c[AR_WORLDS_SHORT + player] += rec[WORLDS_SHORT + side]
            diff += rec[DEAL_SCORE + a_side] - rec[DEAL_SCORE + 1 - a_side]
        c[AR_DIFF] += diff
        c[AR_DIFF_SQ] += diff * diff
