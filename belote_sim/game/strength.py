"""Bid strength: one bidding decision put to the test in many worlds.

A *world* is a pack that gives the deciding seat exactly what it knows (its cards, the
retourne) and deals every unseen card uniformly among the completions
(:func:`~belote_sim.kernels.deal.complete_pack`). In each world every *opening* (the
calls made so far, then one candidate call: an :func:`~belote_sim.game.state.opening_of`
script) is played out by :func:`~belote_sim.game.deals.play_deal` under each play
model, the players choosing every later call and card. Every opening and model of a
world plays from the same random stream (common random numbers), so differences
between candidates are paired world by world.

World ``w`` of a run with seed ``s`` deals its pack from the stream ``(s, w, 0)`` and
plays every deal from ``(s, w, 1)``: a pure function of (rules, players, seat's
knowledge, seed, w) whatever the thread count or chunking; counters are integers.

Counters per (model, opening), ``SC_*``; the scores of the deciding seat's side
(``own``), of its opponents (``opp``: their total, both defenders' in ``three-player``)
and twice the difference ``2 × (own - opp / n_opponents)`` (``diff2``: an integer in
every game). ``GAIN2`` sums ``diff2`` minus that of the pass, world by world.

Probes (coinche): an opening that ends the auction on the seat's lowest legal bid in a
strain, the others passing, gives the takers' ``S_T`` in that strain; ``reach`` counts
the worlds where it reaches each bid value (the capot bid: every trick taken).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from belote_sim._jit import jit, jit_parallel
from belote_sim.game.deals import play_deal
from belote_sim.game.state import new_workspace, opening_of
from belote_sim.kernels.calls import CAPOT_BID, N_BID_VALUES, N_STRAINS, value_at
from belote_sim.kernels.counting import sum_blocks
from belote_sim.kernels.deal import complete_pack
from belote_sim.kernels.layout import (
    CAPOT_SIDE,
    DEAL_SCORE,
    OUT_DEDANS,
    OUT_MADE,
    OUTCOME,
    SCORE_TAKERS,
    TAKER,
    THROWN_IN,
)
from belote_sim.kernels.rng import seed_stream
from belote_sim.kernels.trick import side_of
from belote_sim.players import PLAY_DD
from belote_sim.players.seating import same_players
from belote_sim.rules import R_PLAYERS

SC_WORLDS = 0  # worlds played
SC_TAKERS = 1  # the seat's side ended as takers
SC_MADE = 2  # ... and made the contract (outcome made)
SC_DEDANS = 3  # ... and went dedans
SC_CAPOT = 4  # the seat's side took every trick
SC_THROWN_IN = 5  # nobody took
SC_OWN = 6  # sum of the side's deal scores, then of their squares
SC_OWN_SQ = 7
SC_OPP = 8  # sum of the opponents' deal scores (their total), then squares
SC_OPP_SQ = 9
SC_DIFF2 = 10  # sum of 2 x (own - opp / n_opponents), then squares
SC_DIFF2_SQ = 11
SC_GAIN2 = 12  # sum of diff2 minus the pass's diff2 in the same world, then squares
SC_GAIN2_SQ = 13
SC_REFUSED = 14  # deals a player broke the rules in (0 unless a policy is broken)
N_SC = 15

#: Reach counters per (model, strain): slot ``v`` counts the probe's worlds where the
#: takers reach ``BID_VALUES[v]`` (``CAPOT_BID``: take every trick); the last slot the
#: probe's worlds.
REACH_WORLDS = N_BID_VALUES
N_REACH = N_BID_VALUES + 1

#: The stream keys of a world: its pack, and every deal played in it.
KEY_PACK = 0
KEY_PLAY = 1


@jit
def side_scores(rec, seat, n):
    """``(takers, made, dedans, capot, own, opp, diff2)`` of a played deal's record
    for ``seat``'s side (see the module's counters)."""
    taker = rec[TAKER]
    if rec[THROWN_IN] != 0 or taker < 0:
        return False, False, False, False, 0, 0, 0
    own_side = side_of(seat, n, taker)
    takers = own_side == side_of(taker, n, taker)
    made = takers and rec[OUTCOME] == OUT_MADE
    dedans = takers and rec[OUTCOME] == OUT_DEDANS
    capot = rec[CAPOT_SIDE] == own_side
    if n == 3:  # individual scores, by seat
        own = rec[DEAL_SCORE + seat]
        opp = 0
        for s in range(3):
            if s != seat:
                opp += rec[DEAL_SCORE + s]
        return takers, made, dedans, capot, own, opp, 2 * own - opp
    if n == 2:
        own = rec[DEAL_SCORE + seat]
        opp = rec[DEAL_SCORE + 1 - seat]
    else:
        own = rec[DEAL_SCORE + (seat & 1)]
        opp = rec[DEAL_SCORE + 1 - (seat & 1)]
    return takers, made, dedans, capot, own, opp, 2 * (own - opp)


@jit_parallel
def strength_chunk(rules, players_table, world, openings, probe_strain, seat, dealer, seed,
                   start, n, n_blocks, solve_dd):
    """Counters of worlds ``start .. start+n-1`` (``int64[M, C, N_SC]`` per play model
    and opening, and reach ``int64[M, N_STRAINS, N_REACH]``).

    ``players_table`` is ``float64[M, 4]``: per model the bidding policy and parameter
    (every later call) and the play policy and parameter (every card). ``world`` is
    ``(fixed_pos, fixed_cards, free_pos, unseen)`` (:func:`complete_pack`).
    ``openings[o]`` holds the call codes of opening ``o`` (-1 padded); row 0 is the
    pass, against which gains are taken. ``probe_strain[o]`` is -1 for a candidate
    call, else the strain the opening probes. With ``solve_dd`` (four players) the
    ``dd`` play model settles each deal's tricks by one double-dummy solve per contract
    and world (:func:`~belote_sim.game.tricks.solve_tricks`) instead of searching every
    card: the same takers' points, as perfect play keeps the value.

    Kernel of :func:`belote_sim.runs.strength.bid_strength`.
    """
    n_models = players_table.shape[0]
    n_open = openings.shape[0]
    per_block = np.zeros((n_blocks, n_models * n_open * N_SC), dtype=np.int64)
    reach_block = np.zeros((n_blocks, n_models * N_STRAINS * N_REACH), dtype=np.int64)
    fixed_pos, fixed_cards, free_pos, unseen = world
    for b in prange(n_blocks):
        lo, hi = start + (n * b) // n_blocks, start + (n * (b + 1)) // n_blocks
        _strength_block(rules, players_table, fixed_pos, fixed_cards, free_pos, unseen,
                        openings, probe_strain, seat, dealer, seed, lo, hi, per_block[b],
                        reach_block[b], solve_dd)
    counters = sum_blocks(per_block).reshape((n_models, n_open, N_SC))
    reach = sum_blocks(reach_block).reshape((n_models, N_STRAINS, N_REACH))
    return counters, reach


@jit
def _strength_block(rules, players_table, fixed_pos, fixed_cards, free_pos, unseen,
                    openings, probe_strain, seat, dealer, seed, lo, hi, flat, reach_flat,
                    solve_dd):
    """One block of :func:`strength_chunk`: worlds ``lo .. hi-1``."""
    n = rules[R_PLAYERS]
    n_models = players_table.shape[0]
    n_open = openings.shape[0]
    c = flat.reshape((n_models, n_open, N_SC))
    reach = reach_flat.reshape((n_models, N_STRAINS, N_REACH))
    diff2 = np.zeros(n_open, dtype=np.int64)
    for m in range(n_models):
        row = players_table[m]
        players = same_players(np.int64(row[0]), row[1], np.int64(row[2]), row[3])
        # The dd model settles the tricks by one solve per contract and world.
        solve = solve_dd and np.int64(row[2]) == PLAY_DD
        ws = new_workspace(players, False, False, solve)
        scripts = []
        for o in range(n_open):
            k = 0
            while k < openings.shape[1] and openings[o, k] >= 0:
                k += 1
            scripts.append(opening_of(openings[o, :k].copy()))
        for w in range(lo, hi):
            seed_stream(ws.rng, seed, w, KEY_PACK)
            complete_pack(ws.pack, fixed_pos, fixed_cards, free_pos, unseen, ws.rng)
            ws.kit.outcomes[:] = -1  # a new pack: no contract solved yet
            for o in range(n_open):
                seed_stream(ws.rng, seed, w, KEY_PLAY)
                if play_deal(rules, players, scripts[o], ws, dealer, 0, 0) != 0:
                    c[m, o, SC_REFUSED] += 1
                    diff2[o] = 0
                    continue
                rec = ws.rec
                takers, made, dedans, capot, own, opp, d2 = side_scores(rec, seat, n)
                strain = probe_strain[o]
                if strain >= 0:
                    r = reach[m, strain]
                    r[REACH_WORLDS] += 1
                    if takers:
                        for v in range(N_BID_VALUES):
                            if v == CAPOT_BID:
                                r[v] += 1 if capot else 0
                            elif rec[SCORE_TAKERS] >= value_at(v):
                                r[v] += 1
                    continue
                x = c[m, o]
                x[SC_WORLDS] += 1
                x[SC_TAKERS] += 1 if takers else 0
                x[SC_MADE] += 1 if made else 0
                x[SC_DEDANS] += 1 if dedans else 0
                x[SC_CAPOT] += 1 if capot else 0
                x[SC_THROWN_IN] += 1 if rec[THROWN_IN] != 0 else 0
                x[SC_OWN] += own
                x[SC_OWN_SQ] += own * own
                x[SC_OPP] += opp
                x[SC_OPP_SQ] += opp * opp
                x[SC_DIFF2] += d2
                x[SC_DIFF2_SQ] += d2 * d2
                diff2[o] = d2
            for o in range(n_open):
                if probe_strain[o] < 0:
                    g = diff2[o] - diff2[0]
                    c[m, o, SC_GAIN2] += g
                    c[m, o, SC_GAIN2_SQ] += g * g
