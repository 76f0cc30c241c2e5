"""Arena kernels: two play policies against each other on the same cards.

Every deal ``i`` (and every match ``m``) is played twice from the same random stream,
so with the same cards and the same bidding: once with policy A on side 0 and B on
side 1, once with the sides swapped. Side 0 is seats 0 and 2 (seat 0 with two
players). Kernels of :mod:`belote_sim.arena`.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from belote_sim._jit import jit_parallel
from belote_sim.kernels.game import new_workspace
from belote_sim.kernels.layout import DEAL_SCORE, REC_SIZE, THROWN_IN
from belote_sim.kernels.simulate import match_loop, simulate_deal
from belote_sim.policies import PLAY_SIDES
from belote_sim.policies.solver_play import STAT_CYCLES, STAT_DECISIONS

#: Per-player timing: decisions and cycles of A, then of B.
T_DECISIONS = 0
T_CYCLES = 2
T_SIZE = 4




@jit_parallel
def arena_deals(rules, bid_policy, bid_params, ab_params, seed, start, n, n_blocks):
    """Deal scores of deals ``start .. start+n-1``, each played twice:
    ``scores[i, p, 0]`` is A's deal score and ``scores[i, p, 1]`` B's in pass ``p`` (A on
    side ``p``), ``thrown[i]`` 1 for a thrown-in deal; and the players' timing
    (``T_*``). ``ab_params`` is ``[policy A, param A, policy B, param B]``."""
    scores = np.zeros((n, 2, 2), dtype=np.int64)
    thrown = np.zeros(n, dtype=np.int64)
    timing = np.zeros((n_blocks, T_SIZE), dtype=np.int64)
    ba_params = ab_params.copy()
    ba_params[0] = ab_params[2]
    ba_params[1] = ab_params[3]
    ba_params[2] = ab_params[0]
    ba_params[3] = ab_params[1]
    for b in prange(n_blocks):
        ws = new_workspace(bid_policy, PLAY_SIDES, ab_params)
        stats = ws[7][4]
        for i in range(start + (n * b) // n_blocks, start + (n * (b + 1)) // n_blocks):
            for p in range(2):
                stats[:] = 0
                params = ab_params if p == 0 else ba_params
                simulate_deal(rules, bid_policy, bid_params, PLAY_SIDES, params, seed, i, ws)
                rec = ws[0]
                scores[i - start, p, 0] = rec[DEAL_SCORE + p]
                scores[i - start, p, 1] = rec[DEAL_SCORE + 1 - p]
                thrown[i - start] = rec[THROWN_IN]
                # Side p played A.
                timing[b, T_DECISIONS] += stats[STAT_DECISIONS + p]
                timing[b, T_CYCLES] += stats[STAT_CYCLES + p]
                timing[b, T_DECISIONS + 1] += stats[STAT_DECISIONS + 1 - p]
                timing[b, T_CYCLES + 1] += stats[STAT_CYCLES + 1 - p]
    return scores, thrown, timing.sum(axis=0)


@jit_parallel
def arena_matches(rules, bid_policy, bid_params, ab_params, seed, start, n, n_blocks,
                  max_deals):
    """Results of matches ``start .. start+n-1``, each played twice: ``winner[m, p]`` is
    0 when A won pass ``p`` (A on side ``p``), 1 when B won, 2 for a draw and -1 for an
    unfinished match; ``deals[m, p]`` the deals it took."""
    winner = np.zeros((n, 2), dtype=np.int64)
    deals = np.zeros((n, 2), dtype=np.int64)
    ba_params = ab_params.copy()
    ba_params[0] = ab_params[2]
    ba_params[1] = ab_params[3]
    ba_params[2] = ab_params[0]
    ba_params[3] = ab_params[1]
    none = np.zeros((0, REC_SIZE), dtype=np.int64)
    counters = np.zeros(0, dtype=np.int64)
    for b in prange(n_blocks):
        ws = new_workspace(bid_policy, PLAY_SIDES, ab_params)
        for m in range(start + (n * b) // n_blocks, start + (n * (b + 1)) // n_blocks):
            for p in range(2):
                params = ab_params if p == 0 else ba_params
                n_deals, w, _, _ = match_loop(
                    rules, bid_policy, bid_params, PLAY_SIDES, params, seed, m, max_deals,
                    ws, counters, False, none, False,
                )
                deals[m - start, p] = n_deals
                if w < 0:
                    winner[m - start, p] = -1
                elif w > 1:
                    winner[m - start, p] = 2
                else:
                    winner[m - start, p] = 0 if w == p else 1
    return winner, deals
