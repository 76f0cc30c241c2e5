"""Bid strength: one bidding decision put to the test in many worlds.

A *world* is a pack that gives the deciding seat exactly what it knows (its cards, the
retourne) and deals every unseen card uniformly among the completions
(:func:`~belote_sim.kernels.deal.complete_pack`) that also give the calls so far: each
call the :class:`Draw` checks must be the one its seat's bidding policy makes in that
world, replayed by the engine (:func:`draw_world`, rejection sampling; with no call
checked, every completion is a world). In each world every *opening* (the
calls made so far, then one candidate call: an :func:`~belote_sim.game.state.opening_of`
script) is played out by :func:`~belote_sim.game.deals.play_deal` under each play
model, the players choosing every later call and card. Every opening and model of a
world plays from the same random stream (common random numbers), so differences
between candidates are paired world by world.

World ``w`` of a run with seed ``s`` deals its packs from the stream ``(s, w, 0)`` and
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

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit
from belote_sim.batch.blocks import run_blocks
from belote_sim.batch.claims import take
from belote_sim.bid.table_bidder import hand_features
from belote_sim.cards import ALL_TRUMPS, NO_TRUMPS
from belote_sim.game.deals import play_deal, play_deal_apart
from belote_sim.game.state import given_calls, new_workspace, no_script, opening_of
from belote_sim.kernels.bits import nth_bit, popcount
from belote_sim.kernels.calls import (
    CAPOT_BID,
    N_BID_VALUES,
    N_STRAINS,
    bid_code,
    bid_strain,
    bid_value,
    bid_value_index,
    is_bid,
    round_two_suits,
    value_at,
)
from belote_sim.kernels.deal import complete_pack, shuffle_pack
from belote_sim.kernels.layout import (
    CALL_AT,
    CALL_COINCHE,
    CALL_NT,
    CALL_PASS,
    CALL_SUIT,
    CALL_SURCOINCHE,
    CALL_TAKE,
    CALLS,
    CAPOT_SIDE,
    DEAL_SCORE,
    DEALT,
    ERR_STEP,
    FIRST_HAND,
    HANDS,
    MAX_CALLS,
    N_CALLS,
    OUT_DEDANS,
    OUT_MADE,
    OUTCOME,
    REC_SIZE,
    RETOURNE,
    SCORE_TAKERS,
    ST_MISSING_CALLS,
    TAKER,
    THROWN_IN,
    TRUMP,
)
from belote_sim.kernels.rng import rand_below, seed_stream
from belote_sim.kernels.trick import seat_after, side_of
from belote_sim.players.registry import PLAY_DD
from belote_sim.players.seating import ALL_FAMILIES, same_players
from belote_sim.rules import (
    CONTRACT_COINCHE,
    R_ALL_NO_TRUMPS_ROUND,
    R_CONTRACT,
    R_PLAYERS,
    R_SECOND_ROUND,
    SECOND_ROUND_ANY,
)

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

#: The stream keys of a world: its pack, and every deal played in it; the pilot's packs
#: (:func:`pilot_draws`).
KEY_PACK = 0
KEY_PLAY = 1
KEY_PILOT = 2

#: What drawing the worlds took (``DW_*``), summed over the worlds of a run: the worlds
#: found, the packs dealt to find them (each a uniform completion of the seat's
#: knowledge, kept when every checked call is its seat's policy's: rejection sampling),
#: the worlds not found within ``max_packs`` packs, and from ``DW_REJECTED`` the packs
#: rejected at each call of the auction (by its index).
DW_WORLDS = 0
DW_PACKS = 1
DW_MISSED = 2
DW_REJECTED = 3
N_DW = DW_REJECTED + MAX_CALLS


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


#: The play models of a run: ``players_table`` (``float64[M, 4]``: per model the bidding
#: policy and parameter and the play policy and parameter) and the table bidder's lookup
#: (``table_keys``, ``table_gains``).
PlayModels = namedtuple("PlayModels", ["players_table", "table_keys", "table_gains"])

#: What a decision's pack is completed from (:func:`complete_pack`): the known cards
#: ``fixed_cards`` at ``fixed_pos``, the ``unseen`` cards dealt to ``free_pos``.
World = namedtuple("World", ["fixed_pos", "fixed_cards", "free_pos", "unseen"])

#: What the worlds of a decision are drawn from: the :class:`World` (the seat's
#: knowledge), the calls so far (``calls``) and the mask of those the worlds must give
#: (``checked``, bit ``i`` for call ``i``: each must be its seat's bidding policy's call
#: in the world; 0, uniform worlds), at most ``max_packs`` packs a world.
Draw = namedtuple("Draw", ["world", "calls", "checked", "max_packs"])

#: What the worlds of one decision are played with: ``players_table`` (``float64[M, 4]``:
#: per model the bidding policy and parameter, every later call, and the play policy and
#: parameter, every card), ``table_keys`` and ``table_gains`` (the table bidder's
#: lookup), the :class:`Draw`, ``openings`` (``openings[o]``: the call codes of opening
#: ``o``, -1 padded; row 0 the pass, against which gains are taken), ``probe_strain``
#: (per opening -1 for a candidate call, else the strain it probes), the deciding
#: ``seat``, the ``dealer``, the ``seed`` and ``solve_dd``.
StrengthInputs = namedtuple(
    "StrengthInputs",
    ["players_table", "table_keys", "table_gains", "draw", "openings", "probe_strain",
     "seat", "dealer", "seed", "solve_dd"],
)


@jit
def draw_world(rules, players, ws, draw, dealer, draws):
    """Deal into ``ws.pack`` a world of the :class:`Draw` from the stream ``ws.rng``:
    uniform completions of the seat's knowledge until one gives every checked call (the
    calls replayed by :func:`~belote_sim.game.deals.play_deal` with the players'
    bidding policies, :func:`~belote_sim.game.state.given_calls`), at most
    ``draw.max_packs``. Adds to ``draws`` (``DW_*``); returns whether a world was found.

    Rejection keeps the law exact: a found world is uniform among the completions that
    give the calls, and a world not found says nothing about the others."""
    world = draw.world
    check = given_calls(draw.calls, draw.checked)
    for _ in range(draw.max_packs):
        complete_pack(ws.pack, world.fixed_pos, world.fixed_cards, world.free_pos,
                      world.unseen, ws.rng)
        draws[DW_PACKS] += 1
        if draw.checked == 0:
            draws[DW_WORLDS] += 1
            return True
        if play_deal_apart(rules, players, check, ws, dealer, 0, 0) == ST_MISSING_CALLS:
            draws[DW_WORLDS] += 1
            return True
        draws[DW_REJECTED + ws.rec[ERR_STEP]] += 1
    draws[DW_MISSED] += 1
    return False


def strength_chunk(rules, inputs, start, n, n_blocks):
    """Counters of worlds ``start .. start+n-1`` (``int64[M, C, N_SC]`` per play model
    and opening, reach ``int64[M, N_STRAINS, N_REACH]``, and what drawing them took,
    ``int64[N_DW]``, the first model's) of the decision's :class:`StrengthInputs`. With
    ``solve_dd`` (four players) the ``dd`` play model settles each deal's tricks by one
    double-dummy solve per contract and world
    (:func:`~belote_sim.game.tricks.solve_tricks`) instead of searching every card: the
    same takers' points, as perfect play keeps the value.

    The blocks take the worlds one at a time, per model (:mod:`~belote_sim.batch.claims`):
    under the ``dd`` model their costs vary by orders of magnitude.

    Kernel of :func:`belote_sim.studies.bid_strength.bid_strength`.
    """
    n_models = inputs.players_table.shape[0]
    n_open = inputs.openings.shape[0]
    per_block = np.zeros((n_blocks, n_models * n_open * N_SC), dtype=np.int64)
    reach_block = np.zeros((n_blocks, n_models * N_STRAINS * N_REACH), dtype=np.int64)
    draws_block = np.zeros((n_blocks, N_DW), dtype=np.int64)
    claims = np.full(n_models, start, dtype=np.int64)
    run_blocks(lambda b, lo, hi: _strength_block(rules, inputs, claims, start + n,
                                                 per_block[b], reach_block[b],
                                                 draws_block[b]),
               start, n, n_blocks)
    counters = per_block.sum(axis=0).reshape((n_models, n_open, N_SC))
    reach = reach_block.sum(axis=0).reshape((n_models, N_STRAINS, N_REACH))
    return counters, reach, draws_block.sum(axis=0)


@jit
def _strength_block(rules, inputs, claims, end, flat, reach_flat, draws):
    """One block of :func:`strength_chunk`: under each model ``m``, the worlds it takes
    from ``claims[m]`` (:func:`~belote_sim.batch.claims.take`) below ``end``. Every
    model meets the same worlds (they share the bidding policy that draws them); a world
    not found is played by none."""
    players_table, table_keys, table_gains = (
        inputs.players_table, inputs.table_keys, inputs.table_gains
    )
    openings, probe_strain = inputs.openings, inputs.probe_strain
    seat, dealer, seed, solve_dd = inputs.seat, inputs.dealer, inputs.seed, inputs.solve_dd
    n = rules[R_PLAYERS]
    n_models = players_table.shape[0]
    n_open = openings.shape[0]
    c = flat.reshape((n_models, n_open, N_SC))
    reach = reach_flat.reshape((n_models, N_STRAINS, N_REACH))
    diff2 = np.zeros(n_open, dtype=np.int64)
    model_draws = np.zeros(N_DW, dtype=np.int64)
    for m in range(n_models):
        row = players_table[m]
        players = same_players(np.int64(row[0]), row[1], np.int64(row[2]), row[3],
                               table_keys, table_gains, True, ALL_FAMILIES)
        # The dd model settles the tricks by one solve per contract and world.
        solve = solve_dd and np.int64(row[2]) == PLAY_DD
        ws = new_workspace(players, False, False, solve)
        scripts = []
        for o in range(n_open):
            k = 0
            while k < openings.shape[1] and openings[o, k] >= 0:
                k += 1
            scripts.append(opening_of(openings[o, :k].copy()))
        while True:
            w = take(claims, m)
            if w >= end:
                break
            seed_stream(ws.rng, seed, w, KEY_PACK)
            if not draw_world(rules, players, ws, inputs.draw, dealer,
                              draws if m == 0 else model_draws):
                continue
            ws.kit.outcomes[:] = -1  # a new pack: no contract solved yet
            for o in range(n_open):
                seed_stream(ws.rng, seed, w, KEY_PLAY)
                if play_deal_apart(rules, players, scripts[o], ws, dealer, 0, 0) != 0:
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


@jit
def draw_worlds(rules, players, draw, dealer, seed, start, n):
    """The worlds ``start .. start+n-1`` of a decision as :func:`strength_chunk` draws
    them (the same streams): their packs (``int64[n, 32]``), whether each was found,
    and the ``DW_*`` counters."""
    ws = new_workspace(players, False, False, False)
    packs = np.zeros((n, 32), dtype=np.int64)
    found = np.zeros(n, dtype=np.bool_)
    draws = np.zeros(N_DW, dtype=np.int64)
    for j in range(n):
        seed_stream(ws.rng, seed, start + j, KEY_PACK)
        if draw_world(rules, players, ws, draw, dealer, draws):
            packs[j] = ws.pack
            found[j] = True
    return packs, found, draws


@jit
def pilot_draws(rules, players, draw, dealer, seed, packs):
    """The ``DW_*`` counters of ``packs`` packs, one try each, from the pilot's streams
    (``(seed, k, KEY_PILOT)``): how often a pack gives the calls, and at which call the
    others fail. Sizes a run's budget before any world is played."""
    ws = new_workspace(players, False, False, False)
    once = Draw(draw.world, draw.calls, draw.checked, np.int64(1))
    draws = np.zeros(N_DW, dtype=np.int64)
    for k in range(packs):
        seed_stream(ws.rng, seed, k, KEY_PILOT)
        draw_world(rules, players, ws, once, dealer, draws)
    return draws


# -- The bid atlas: every decision met in simulated deals, as call / pass pairs ----------

#: Fields of an atlas row: one per (deal, decision, candidate call, play model).
AF_DEAL = 0  # deal index
AF_CALL_INDEX = 1  # the decision is the auction's call number ...
AF_SEAT = 2
AF_POSITION = 3  # 0 = first hand
AF_ROUND = 4  # retourne bidding round (1..3), 0 in coinche
AF_STRAIN = 5  # the candidate's strain: 0..3 suits, 4 all-trumps, 5 no-trumps
AF_VALUE = 6  # coinche: the candidate bid's value (the lowest legal in its strain), else 0
AF_RETOURNE = 7  # the retourne's rank 0..7 (7 8 9 T J Q K A), -1 none
AF_HOLDING = 8  # bits of the strain's J, 9, A, T and belote (K+Q) in the hand (HOLD_*)
AF_TRUMPS = 9  # cards of the strain in the hand (AT: jacks, NT: aces)
AF_SIDE_ACES = 10  # aces outside the strain (AT/NT: all aces)
AF_SIDE_TENS = 11
AF_VOIDS = 12  # suits other than the strain with no card
AF_POLICY_CALLED = 13  # the bidding policy made this call here (coinche: a bid in its strain)
AF_MODEL = 14
AF_TAKERS = 15  # after the call: the seat's side ended as takers ...
AF_MADE = 16
AF_DEDANS = 17
AF_CAPOT = 18
AF_DIFF2 = 19  # 2 x (own - opponents' score) after the call
AF_DIFF2_PASS = 20  # ... and after a pass at the same decision, same world
N_AF = 21

#: Decisions tabulated per deal (the first calls of its auction), candidates per decision.
ATLAS_DECISIONS = 12
ATLAS_CANDIDATES = 6
ROWS_PER_DEAL = ATLAS_DECISIONS * ATLAS_CANDIDATES


@jit
def _candidates(rules, rec, j, out):
    """The calls put to the test at decision ``j`` of the record's auction (its first
    ``j`` calls made): retourne games, round 1 take, round 2 every suit it may name,
    round 3 all-trumps and no-trumps; coinche, the lowest legal bid in each strain
    (none once the bid is coinched). Returns how many, written to ``out``."""
    n = rules[R_PLAYERS]
    if rules[R_CONTRACT] == CONTRACT_COINCHE:
        high = -1
        for i in range(j):
            call = rec[CALLS + i]
            if call in (CALL_COINCHE, CALL_SURCOINCHE):
                return 0
            if is_bid(call):
                high = call
        vi = 0 if high < 0 else bid_value_index(high) + 1
        if vi >= N_BID_VALUES:
            return 0
        n_strains = N_STRAINS if rules[R_ALL_NO_TRUMPS_ROUND] != 0 else 4
        for s in range(n_strains):
            out[s] = bid_code(vi, s)
        return n_strains
    rnd = j // n + 1
    if rnd == 1:
        out[0] = CALL_TAKE
        return 1
    if rnd == 2:
        turned = rec[RETOURNE] >> 3
        allowed = round_two_suits(turned, rules[R_SECOND_ROUND] == SECOND_ROUND_ANY)
        k = 0
        for s in range(4):
            if (allowed >> s) & 1:
                out[k] = CALL_SUIT + s
                k += 1
        return k
    out[0] = CALL_AT
    out[1] = CALL_NT
    return 2


@jit
def call_strain(call, retourne):
    """The strain a call names: take names the retourne's suit."""
    if call == CALL_TAKE:
        return retourne >> 3
    if call == CALL_AT:
        return ALL_TRUMPS
    if call == CALL_NT:
        return NO_TRUMPS
    if is_bid(call):
        return bid_strain(call)
    return call - CALL_SUIT


def atlas_chunk(rules, models, seed, start, n, n_blocks, solve_dd):
    """Atlas rows (``int64[rows, N_AF]``, in the order the blocks wrote them: their sums
    do not depend on it) of deals ``start .. start+n-1``, and the deals refused (0 unless
    a policy is broken).

    Deal ``i`` is shuffled from the stream ``(seed, i, 0)`` and dealt by seat
    ``i mod players``, like a simulated deal; its auction is played by the bidding
    policy (model 0 of the :class:`PlayModels`). At each of its first ``ATLAS_DECISIONS`` calls
    (up to a coinche), every candidate call (:func:`_candidates`) and the pass are
    played out from the calls before it, under every model, all from the stream
    ``(seed, i, 1)``: a counterfactual pair per candidate, paired world by world.

    The blocks take the deals one at a time (:mod:`~belote_sim.batch.claims`): under
    the ``dd`` model their costs vary by orders of magnitude.

    Kernel of :func:`belote_sim.studies.atlas.bid_table`.
    """
    per_deal = ROWS_PER_DEAL * models.players_table.shape[0]
    # Room for the most rows the deals can have, of which they use a few: the blocks
    # take the rows one at a time from the front, and the memory of the rest, left
    # uninitialised, is never touched (filling it would be a large share of the atlas's
    # time).
    rows = np.empty((n * per_deal, N_AF), dtype=np.int64)
    claims = np.array([start, 0], dtype=np.int64)  # the next deal, the next row
    refused = run_blocks(
        lambda b, lo, hi: _atlas_block(rules, models, seed, claims, start, start + n, rows,
                                       solve_dd),
        start, n, n_blocks)
    return rows[: claims[1]], sum(refused)


@jit
def _atlas_block(rules, models, seed, claims, start, end, rows, solve_dd):
    """One block of :func:`atlas_chunk`: the deals it takes from ``claims[0]``
    (:func:`~belote_sim.batch.claims.take`) below ``end``, their rows in the rows of
    ``rows`` it takes from ``claims[1]``."""
    players_table, table_keys, table_gains = models
    n = rules[R_PLAYERS]
    n_models = players_table.shape[0]
    workspaces = []
    players_of = []
    for m in range(n_models):
        row = players_table[m]
        players = same_players(np.int64(row[0]), row[1], np.int64(row[2]), row[3],
                               table_keys, table_gains, True, ALL_FAMILIES)
        players_of.append(players)
        workspaces.append(
            new_workspace(players, False, False, solve_dd and np.int64(row[2]) == PLAY_DD)
        )
    pack = np.zeros(32, dtype=np.int64)
    auction = np.zeros(REC_SIZE, dtype=np.int64)
    cands = np.zeros(ATLAS_CANDIDATES, dtype=np.int64)
    opening = np.zeros(ATLAS_DECISIONS + 1, dtype=np.int64)
    refused = 0
    while True:
        i = take(claims, 0)
        if i >= end:
            break
        ws0 = workspaces[0]
        seed_stream(ws0.rng, seed, i, KEY_PACK)
        shuffle_pack(ws0.pack, ws0.rng)
        pack[:] = ws0.pack
        for m in range(n_models):
            workspaces[m].kit.outcomes[:] = -1  # a new pack
        seed_stream(ws0.rng, seed, i, KEY_PLAY)
        if play_deal(rules, players_of[0], no_script(), ws0, i % n, 0, 0) != 0:
            refused += 1
            continue
        auction[:] = ws0.rec
        fh = auction[FIRST_HAND]
        retourne = auction[RETOURNE]
        for j in range(min(auction[N_CALLS], ATLAS_DECISIONS)):
            k = _candidates(rules, auction, j, cands)
            if k == 0:
                break
            seat = seat_after(fh, j, n)
            for t in range(j):
                opening[t] = auction[CALLS + t]
            for m in range(n_models):
                ws = workspaces[m]
                # The pass, then each candidate, from the same stream.
                opening[j] = CALL_PASS
                ws.pack[:] = pack
                seed_stream(ws.rng, seed, i, KEY_PLAY)
                if play_deal(rules, players_of[m], opening_of(opening[: j + 1].copy()), ws,
                             i % n, 0, 0) != 0:
                    refused += 1
                    continue
                d2_pass = side_scores(ws.rec, seat, n)[6]
                for c in range(k):
                    call = cands[c]
                    opening[j] = call
                    ws.pack[:] = pack
                    seed_stream(ws.rng, seed, i, KEY_PLAY)
                    if play_deal(rules, players_of[m], opening_of(opening[: j + 1].copy()), ws,
                                 i % n, 0, 0) != 0:
                        refused += 1
                        continue
                    takers, made, dedans, capot, _, _, d2 = side_scores(ws.rec, seat, n)
                    strain = call_strain(call, retourne)
                    hold, trumps, aces, tens, voids = hand_features(auction[DEALT + seat],
                                                                    strain)
                    r = rows[take(claims, 1)]
                    r[AF_DEAL] = i
                    r[AF_CALL_INDEX] = j
                    r[AF_SEAT] = seat
                    r[AF_POSITION] = (seat - fh) % n
                    r[AF_ROUND] = 0 if rules[R_CONTRACT] == CONTRACT_COINCHE else j // n + 1
                    r[AF_STRAIN] = strain
                    r[AF_VALUE] = bid_value(call) if is_bid(call) else 0
                    r[AF_RETOURNE] = retourne & 7 if retourne >= 0 else -1
                    r[AF_HOLDING] = hold
                    r[AF_TRUMPS] = trumps
                    r[AF_SIDE_ACES] = aces
                    r[AF_SIDE_TENS] = tens
                    r[AF_VOIDS] = voids
                    made_call = auction[CALLS + j]
                    if is_bid(call):  # coinche: the policy bid this strain, at any value
                        same = is_bid(made_call) and bid_strain(made_call) == bid_strain(call)
                    else:
                        same = made_call == call
                    r[AF_POLICY_CALLED] = 1 if same else 0
                    r[AF_MODEL] = m
                    r[AF_TAKERS] = 1 if takers else 0
                    r[AF_MADE] = 1 if made else 0
                    r[AF_DEDANS] = 1 if dedans else 0
                    r[AF_CAPOT] = 1 if capot else 0
                    r[AF_DIFF2] = d2
                    r[AF_DIFF2_PASS] = d2_pass
    return refused


# -- Card values: a card of the taker swapped with an opponent's, on the same deal -------

#: Roles of a card in a suit contract: ``rank`` for a trump, ``8 + rank`` for a side card
#: (ranks 0..7 = 7 8 9 T J Q K A).
N_ROLES = 16
CV_N = 0  # swaps measured
CV_VALUE2 = 1  # sum of 2 x (difference kept - difference after the swap), then squares
CV_VALUE2_SQ = 2
CV_MADE = 3  # the contract made as dealt ...
CV_MADE_SWAPPED = 4  # ... and after the swap
N_CV = 5
#: The stream that picks the opponents' cards of a deal's swaps.
KEY_SWAPS = 2


def card_values_chunk(rules, players_table, table_keys, table_gains, seed, start, n,
                      n_blocks):
    """Card-value counters (``int64[M, N_ROLES, N_CV]``) of deals ``start .. start+n-1``
    and the deals refused.

    Deal ``i`` is dealt and bid as a simulated deal (stream ``(seed, i, 0)`` for the
    pack, ``(seed, i, 1)`` for the play; the auction by ``players_table`` row 0's
    bidding policy). When it ends in a suit contract, each card the taker holds at the
    first trick (the retourne aside: it names trump) is swapped in the pack with a card
    drawn uniformly from the defenders' hands (stream ``(seed, i, 2)``, the same draws
    for every model), and the deal is played again with the same calls (an opening
    script) under each model, as is the deal as dealt: the card's value is the paired
    difference of the takers' (own minus opponents') deal score.

    The blocks take the deals one at a time (:mod:`~belote_sim.batch.claims`): under
    a solver model their costs vary by orders of magnitude.

    Kernel of :func:`belote_sim.studies.card_values.card_values`.
    """
    n_models = players_table.shape[0]
    per_block = np.zeros((n_blocks, n_models * N_ROLES * N_CV), dtype=np.int64)
    claims = np.full(1, start, dtype=np.int64)
    refused = run_blocks(
        lambda b, lo, hi: _card_values_block(rules, players_table, table_keys, table_gains,
                                             seed, claims, start + n, per_block[b]),
        start, n, n_blocks)
    return per_block.sum(axis=0).reshape((n_models, N_ROLES, N_CV)), sum(refused)


@jit
def _card_values_block(rules, players_table, table_keys, table_gains, seed, claims, end,
                       flat):
    """One block of :func:`card_values_chunk`: the deals it takes from ``claims[0]``
    (:func:`~belote_sim.batch.claims.take`) below ``end``."""
    n = rules[R_PLAYERS]
    n_models = players_table.shape[0]
    c = flat.reshape((n_models, N_ROLES, N_CV))
    workspaces = []
    players_of = []
    for m in range(n_models):
        row = players_table[m]
        players = same_players(np.int64(row[0]), row[1], np.int64(row[2]), row[3],
                               table_keys, table_gains, True, ALL_FAMILIES)
        players_of.append(players)
        workspaces.append(new_workspace(players, False, False, False))
    pack = np.zeros(32, dtype=np.int64)
    where = np.zeros(32, dtype=np.int64)
    picks = np.zeros(1, dtype=np.uint64)
    swaps = np.zeros((32, 2), dtype=np.int64)
    refused = 0
    while True:
        i = take(claims, 0)
        if i >= end:
            break
        ws0 = workspaces[0]
        seed_stream(ws0.rng, seed, i, KEY_PACK)
        shuffle_pack(ws0.pack, ws0.rng)
        pack[:] = ws0.pack
        seed_stream(ws0.rng, seed, i, KEY_PLAY)
        if play_deal_apart(rules, players_of[0], no_script(), ws0, i % n, 0, 0) != 0:
            refused += 1
            continue
        rec = ws0.rec
        taker = rec[TAKER]
        trump = rec[TRUMP]
        if taker < 0 or trump >= 4:
            continue
        calls = rec[CALLS : CALLS + rec[N_CALLS]].copy()
        retourne = rec[RETOURNE]
        mine = rec[HANDS + taker]
        if retourne >= 0:
            mine &= ~(1 << retourne)
        opponents = 0
        t_side = side_of(taker, n, taker)
        for s in range(n):
            if side_of(s, n, taker) != t_side:
                opponents |= rec[HANDS + s]
        for p in range(32):
            where[pack[p]] = p
        seed_stream(picks, seed, i, KEY_SWAPS)
        n_swaps = 0
        for card in range(32):
            if (mine >> card) & 1:
                swaps[n_swaps, 0] = card
                swaps[n_swaps, 1] = nth_bit(opponents, rand_below(picks, popcount(opponents)))
                n_swaps += 1
        script = opening_of(calls)
        for m in range(n_models):
            ws = workspaces[m]
            ws.pack[:] = pack
            seed_stream(ws.rng, seed, i, KEY_PLAY)
            if play_deal_apart(rules, players_of[m], script, ws, i % n, 0, 0) != 0:
                refused += 1
                continue
            _, made, _, _, _, _, d2 = side_scores(ws.rec, taker, n)
            for k in range(n_swaps):
                card, other = swaps[k, 0], swaps[k, 1]
                ws.pack[:] = pack
                ws.pack[where[card]] = other
                ws.pack[where[other]] = card
                seed_stream(ws.rng, seed, i, KEY_PLAY)
                if play_deal_apart(rules, players_of[m], script, ws, i % n, 0, 0) != 0:
                    refused += 1
                    continue
                _, made_sw, _, _, _, _, d2_sw = side_scores(ws.rec, taker, n)
                role = card & 7 if card >> 3 == trump else 8 + (card & 7)
                x = c[m, role]
                v = d2 - d2_sw
                x[CV_N] += 1
                x[CV_VALUE2] += v
                x[CV_VALUE2_SQ] += v * v
                x[CV_MADE] += 1 if made else 0
                x[CV_MADE_SWAPPED] += 1 if made_sw else 0
    return refused
