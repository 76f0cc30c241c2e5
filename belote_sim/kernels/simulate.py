"""Chunk kernels of the simulator: many deals (or matches) per call, in parallel.

Deal ``i`` of a run with seed ``s`` uses the random stream keyed ``(s, i, 0)`` and is
dealt by seat ``i mod players``, so every deal is a pure function of (rules, policies,
seed, i) whatever the thread count or chunking. Counters are integers summed per block,
hence bit-identical for any split.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from belote_sim._jit import jit, jit_parallel
from belote_sim.kernels.deal import shuffle_pack
from belote_sim.kernels.game import new_workspace, play_deal
from belote_sim.kernels.layout import (
    BELOTE_SEAT,
    BID_ROUND,
    C_ANY_DECLARATION,
    C_BELOTE,
    C_CAPOT_DEFENDERS,
    C_CAPOT_TAKERS,
    C_CARRE_9,
    C_CARRE_J,
    C_CARRE_OTHER,
    C_DEALS,
    C_DECL_DEFENDERS,
    C_DECL_TAKERS,
    C_DEDANS,
    C_LITIGE,
    C_MADE,
    C_QUARTE,
    C_QUINTE,
    C_SUM_DEFENDER_SCORE,
    C_SUM_TAKER_CARD_POINTS,
    C_SUM_TAKER_SCORE,
    C_TAKEN_ROUND,
    C_THROWN_IN,
    C_TIE,
    C_TIERCE,
    CAPOT_SIDE,
    CARD_POINTS,
    DEAL_SCORE,
    DECL_KINDS,
    DECL_POINTS,
    HOLD_CARRE_9,
    HOLD_CARRE_J,
    HOLD_CARRE_OTHER,
    HOLD_QUARTE,
    HOLD_QUINTE,
    HOLD_TIERCE,
    N_COUNTERS,
    OUT_DEDANS,
    OUT_LITIGE,
    OUT_MADE,
    OUT_TIE,
    OUTCOME,
    POT,
    REC_SIZE,
    TAKER,
    THROWN_IN,
)
from belote_sim.kernels.rng import seed_stream
from belote_sim.rules import MATCH_END_HIGHER, R_MATCH_END, R_PLAYERS, R_TARGET

_NO_SCRIPT = np.zeros(1, dtype=np.int64)


@jit
def accumulate(rec, c):
    """Add one played deal's record to the counters ``c`` (layout ``C_*``)."""
    c[C_DEALS] += 1
    if rec[THROWN_IN] != 0:
        c[C_THROWN_IN] += 1
        return
    c[C_TAKEN_ROUND + rec[BID_ROUND]] += 1
    out = rec[OUTCOME]
    if out == OUT_MADE:
        c[C_MADE] += 1
    elif out == OUT_DEDANS:
        c[C_DEDANS] += 1
    elif out == OUT_TIE:
        c[C_TIE] += 1
    elif out == OUT_LITIGE:
        c[C_LITIGE] += 1
    t_side = rec[TAKER] & 1
    if rec[CAPOT_SIDE] == t_side:
        c[C_CAPOT_TAKERS] += 1
    elif rec[CAPOT_SIDE] >= 0:
        c[C_CAPOT_DEFENDERS] += 1
    kinds = 0
    for s in range(4):
        kinds |= rec[DECL_KINDS + s]
    if kinds != 0:
        c[C_ANY_DECLARATION] += 1
    if kinds & HOLD_TIERCE:
        c[C_TIERCE] += 1
    if kinds & HOLD_QUARTE:
        c[C_QUARTE] += 1
    if kinds & HOLD_QUINTE:
        c[C_QUINTE] += 1
    if kinds & HOLD_CARRE_J:
        c[C_CARRE_J] += 1
    if kinds & HOLD_CARRE_9:
        c[C_CARRE_9] += 1
    if kinds & HOLD_CARRE_OTHER:
        c[C_CARRE_OTHER] += 1
    if rec[BELOTE_SEAT] >= 0:
        c[C_BELOTE] += 1
    if rec[DECL_POINTS + t_side] > 0:
        c[C_DECL_TAKERS] += 1
    elif rec[DECL_POINTS + 1 - t_side] > 0:
        c[C_DECL_DEFENDERS] += 1
    c[C_SUM_TAKER_CARD_POINTS] += rec[CARD_POINTS + t_side]
    c[C_SUM_TAKER_SCORE] += rec[DEAL_SCORE + t_side]
    c[C_SUM_DEFENDER_SCORE] += rec[DEAL_SCORE + 1 - t_side]


@jit
def simulate_deal(rules, bid_policy, bid_params, play_policy, play_params, seed, i, ws):
    """Shuffle and play deal ``i`` of the run ``seed`` into ``ws``; return its status."""
    seed_stream(ws[6], seed, i, 0)
    shuffle_pack(ws[1], ws[6])
    dealer = i % rules[R_PLAYERS]
    return play_deal(
        rules, ws[1], dealer, 0, bid_policy, bid_params, play_policy, play_params,
        _NO_SCRIPT, 0, _NO_SCRIPT, 0, ws,
    )


@jit_parallel
def simulate_counts(rules, bid_policy, bid_params, play_policy, play_params, seed, start, n,
                    n_blocks):
    """Counters of deals ``start .. start+n-1``, played in ``n_blocks`` parallel blocks.

    Kernel of :func:`belote_sim.runner.simulate`. Returns ``(counters, n_errors)``;
    ``n_errors`` counts deals whose policies made an illegal choice (always 0 unless a
    policy is broken).
    """
    per_block = np.zeros((n_blocks, N_COUNTERS + 1), dtype=np.int64)
    for b in prange(n_blocks):
        ws = new_workspace()
        lo = start + (n * b) // n_blocks
        hi = start + (n * (b + 1)) // n_blocks
        row = per_block[b]
        for i in range(lo, hi):
            status = simulate_deal(
                rules, bid_policy, bid_params, play_policy, play_params, seed, i, ws
            )
            if status != 0:
                row[N_COUNTERS] += 1
            else:
                accumulate(ws[0], row)
    total = np.zeros(N_COUNTERS + 1, dtype=np.int64)
    for b in range(n_blocks):
        total += per_block[b]
    return total[:N_COUNTERS].copy(), total[N_COUNTERS]


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
def play_match(rules, bid_policy, bid_params, play_policy, play_params, seed, match, max_deals,
               out):
    """Play match ``match`` of run ``seed`` to the target (RULES 8, Match), writing each
    deal's record into ``out[d]``. Deal ``d`` uses the stream ``(seed, match, d)``; the
    first dealer is ``match mod players`` and the deal passes to the right after every
    deal, thrown-in deals included; the litige pot is carried from deal to deal.

    Returns ``(n_deals, winner, score0, score1)`` with ``winner`` the winning side, 2
    for a draw, -1 when ``max_deals`` were played without a result.
    """
    n = rules[R_PLAYERS]
    target = rules[R_TARGET]
    ws = new_workspace()
    score0 = 0
    score1 = 0
    pot = 0
    dealer = match % n
    for d in range(max_deals):
        seed_stream(ws[6], seed, match, d)
        shuffle_pack(ws[1], ws[6])
        play_deal(
            rules, ws[1], dealer, pot, bid_policy, bid_params, play_policy, play_params,
            _NO_SCRIPT, 0, _NO_SCRIPT, 0, ws,
        )
        rec = ws[0]
        out[d, :] = rec
        dealer = (dealer + 1) % n
        if rec[THROWN_IN] != 0:
            continue
        score0 += rec[DEAL_SCORE]
        score1 += rec[DEAL_SCORE + 1]
        if rec[OUTCOME] == OUT_LITIGE:
            pot += rec[POT]
        else:
            pot = 0
        over0 = score0 >= target
        over1 = score1 >= target
        if over0 and over1:
            if rules[R_MATCH_END] == MATCH_END_HIGHER and score0 != score1:
                return d + 1, 0 if score0 > score1 else 1, score0, score1
            return d + 1, 2, score0, score1
        if over0 or over1:
            return d + 1, 0 if over0 else 1, score0, score1
    return max_deals, -1, score0, score1
