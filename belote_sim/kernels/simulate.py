"""Chunk kernels of the simulator: many deals (or matches) per call, in parallel.

Deal ``i`` of a run with seed ``s`` uses the random stream keyed ``(s, i, 0)`` and is
dealt by seat ``i mod players``; match ``m`` keys deal ``d`` on ``(s, m, d)`` and starts
with dealer ``m mod players``. Every deal is thus a pure function of (rules, policies,
seed, index) whatever the thread count or chunking, and counters are integers summed
per block: bit-identical totals for any split.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from belote_sim._jit import jit, jit_parallel
from belote_sim.kernels.counting import accumulate, accumulate_match, fill_row, sum_blocks
from belote_sim.kernels.deal import shuffle_pack
from belote_sim.kernels.game import new_workspace, play_deal
from belote_sim.kernels.layout import (
    DEAL_SCORE,
    N_COUNTERS,
    N_ROW,
    OUT_LITIGE,
    OUTCOME,
    POT,
    REC_SIZE,
    THROWN_IN,
)
from belote_sim.kernels.rng import seed_stream
from belote_sim.rules import MATCH_END_HIGHER, R_MATCH_END, R_PLAYERS, R_TARGET

_NO_SCRIPT = np.zeros(1, dtype=np.int64)


@jit
def simulate_deal(rules, bid_policy, bid_params, play_policy, play_params, seed, i, ws):
    """Shuffle and play deal ``i`` of the run ``seed`` into ``ws``; return its status."""
    seed_stream(ws[6], seed, i, 0)
    shuffle_pack(ws[1], ws[6])
    dealer = i % rules[R_PLAYERS]
    return play_deal(
        rules, ws[1], dealer, 0, 0, bid_policy, bid_params, play_policy, play_params,
        _NO_SCRIPT, 0, _NO_SCRIPT, 0, ws,
    )


@jit_parallel
def simulate_chunk(rules, bid_policy, bid_params, play_policy, play_params, seed, start, n,
                   n_blocks, want_rows):
    """Counters of deals ``start .. start+n-1`` played in ``n_blocks`` parallel blocks,
    the number of deals whose policies chose illegally (0 unless a policy is broken),
    and, with ``want_rows``, one row per deal (``int64[n, N_ROW]``, else empty).

    Kernel of :func:`belote_sim.runner.run_chunk`.
    """
    per_block = np.zeros((n_blocks, N_COUNTERS), dtype=np.int64)
    errors = np.zeros(n_blocks, dtype=np.int64)
    rows = np.zeros((n if want_rows else 0, N_ROW), dtype=np.int64)
    for b in prange(n_blocks):
        ws = new_workspace()
        c = per_block[b]
        for i in range(start + (n * b) // n_blocks, start + (n * (b + 1)) // n_blocks):
            status = simulate_deal(
                rules, bid_policy, bid_params, play_policy, play_params, seed, i, ws
            )
            if status != 0:
                errors[b] += 1
                continue
            accumulate(rules, ws[0], c)
            if want_rows:
                fill_row(rules, ws[0], i, rows[i - start])
    return sum_blocks(per_block), errors.sum(), rows


@jit_parallel
def simulate_records(rules, bid_policy, bid_params, play_policy, play_params, seed, start, n):
    """The full records (``int64[n, REC_SIZE]``) of deals ``start .. start+n-1``."""
    out = np.zeros((n, REC_SIZE), dtype=np.int64)
    n_blocks = min(n, 64)
    for b in prange(n_blocks):
        ws = new_workspace()
        for j in range((n * b) // n_blocks, (n * (b + 1)) // n_blocks):
            simulate_deal(
                rules, bid_policy, bid_params, play_policy, play_params, seed, start + j, ws
            )
            out[j, :] = ws[0]
    return out


@jit
def match_loop(rules, bid_policy, bid_params, play_policy, play_params, seed, match, max_deals,
               ws, counters, count, out, record):
    """Play match ``match`` of run ``seed`` to the target (RULES 8, Match).

    The deal passes to the next seat after every deal, thrown-in deals included; the
    litige pot is carried from deal to deal. With ``count`` each deal is added to
    ``counters``; with ``record`` deal ``d``'s record goes to ``out[d]``. Returns
    ``(n_deals, winner, score0, score1, first_deal_winner)``: ``winner`` is the winning
    side, 2 for a draw, -1 when ``max_deals`` deals did not finish the match;
    ``first_deal_winner`` the side that scored more in the first played deal, or -1.
    """
    n = rules[R_PLAYERS]
    target = rules[R_TARGET]
    score0 = 0
    score1 = 0
    pot = 0
    first = -2
    dealer = match % n
    for d in range(max_deals):
        seed_stream(ws[6], seed, match, d)
        shuffle_pack(ws[1], ws[6])
        play_deal(
            rules, ws[1], dealer, pot, 0, bid_policy, bid_params, play_policy, play_params,
            _NO_SCRIPT, 0, _NO_SCRIPT, 0, ws,
        )
        rec = ws[0]
        if record:
            out[d, :] = rec
        if count:
            accumulate(rules, rec, counters)
        dealer = (dealer + 1) % n
        if rec[THROWN_IN] != 0:
            continue
        d0 = rec[DEAL_SCORE]
        d1 = rec[DEAL_SCORE + 1]
        if first == -2:
            first = 0 if d0 > d1 else (1 if d1 > d0 else -1)
        score0 += d0
        score1 += d1
        if rec[OUTCOME] == OUT_LITIGE:
            pot += rec[POT]
        else:
            pot = 0
        over0 = score0 >= target
        over1 = score1 >= target
        if over0 and over1:
            if rules[R_MATCH_END] == MATCH_END_HIGHER and score0 != score1:
                return d + 1, 0 if score0 > score1 else 1, score0, score1, first
            return d + 1, 2, score0, score1, first
        if over0 or over1:
            return d + 1, 0 if over0 else 1, score0, score1, first
    return max_deals, -1, score0, score1, max(first, -1)


@jit
def play_match(rules, bid_policy, bid_params, play_policy, play_params, seed, match, max_deals,
               out):
    """Play one match, recording each deal in ``out[d]``; returns
    ``(n_deals, winner, score0, score1)`` (see :func:`match_loop`)."""
    ws = new_workspace()
    none = np.zeros(0, dtype=np.int64)
    n_deals, winner, s0, s1, _ = match_loop(
        rules, bid_policy, bid_params, play_policy, play_params, seed, match, max_deals, ws,
        none, False, out, True,
    )
    return n_deals, winner, s0, s1


@jit_parallel
def simulate_matches(rules, bid_policy, bid_params, play_policy, play_params, seed, start, n,
                     n_blocks, max_deals):
    """Counters of matches ``start .. start+n-1`` (their deals and their results)."""
    per_block = np.zeros((n_blocks, N_COUNTERS), dtype=np.int64)
    none = np.zeros((0, REC_SIZE), dtype=np.int64)
    n_players = rules[R_PLAYERS]
    for b in prange(n_blocks):
        ws = new_workspace()
        c = per_block[b]
        for m in range(start + (n * b) // n_blocks, start + (n * (b + 1)) // n_blocks):
            n_deals, winner, _, _, first = match_loop(
                rules, bid_policy, bid_params, play_policy, play_params, seed, m, max_deals,
                ws, c, True, none, False,
            )
            first_dealer_side = (m % n_players) & 1
            accumulate_match(c, n_deals, winner, first_dealer_side, first)
    return sum_blocks(per_block)
