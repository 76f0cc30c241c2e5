"""One complete deal: dealing, bidding, declarations, the tricks and the score.

:func:`play_deal` is the single implementation of a deal. The simulator calls it with
policies; replay calls it with ``bid_policy = SCRIPTED`` and the deal log's calls and
cards, which are then checked against exactly the same rule code.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.game.coinche import deal_coinche
from belote_sim.game.phases import (
    bid_retourne,
    close_bidding,
    read_declarations,
    total_points,
)
from belote_sim.game.tricks import play_tricks
from belote_sim.game.twoplayer import deal_no_contract_2p, deal_stock
from belote_sim.kernels.deal import deal_packet
from belote_sim.kernels.layout import (
    BELOTE_SEAT,
    CAPOT_SIDE,
    DEALER,
    DEALT,
    DECISION_CYCLES,
    DECISIONS,
    DECL_WINNER_SEAT,
    EXCHANGE_SEAT,
    FIRST_HAND,
    HANDS,
    MAX_DECLS,
    MAX_SEATS,
    OUT_NONE,
    OUTCOME,
    PACK,
    POT_BEFORE,
    POT_WON_BY,
    REC_SIZE,
    REDEALS_BEFORE,
    RETOURNE,
    SHOWN_CARD,
    ST_OK,
    TAKER,
    TOTAL_POINTS,
    TRUMP,
)
from belote_sim.kernels.scoring import score_no_contract, score_three_player, score_two_sides
from belote_sim.kernels.trick import seat_after, side_of
from belote_sim.players import PLAY_ANALYSE, PLAY_PIMC, PLAY_SIDES
from belote_sim.players.knowledge import KNOW_HELD, reset_knowledge, show_declarations
from belote_sim.players.solver_kit import (
    STAT_CYCLES,
    STAT_DECISIONS,
    new_solver_kit,
    solver_table_bits,
)
from belote_sim.rules import (
    CONTRACT_COINCHE,
    CONTRACT_NONE,
    CONTRACT_RETOURNE,
    CONTRACT_STOCK,
    R_ALL_NO_TRUMPS_ROUND,
    R_CONTRACT,
    R_FIRST_PACKETS,
    R_PLAYERS,
    R_TIE_RULE,
)


@jit
def new_workspace(bid_policy, play_policy, play_params):
    """Scratch arrays for :func:`play_deal`: ``(rec, pack, hands, trick, decl, sides, rng,
    solver kit)``; the solver kit's table is sized for the policies."""
    return (
        np.zeros(REC_SIZE, dtype=np.int64),
        np.zeros(32, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros((MAX_DECLS, 4), dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        new_solver_kit(solver_table_bits(bid_policy, play_policy, play_params)),
    )


@jit
def _start(rec, hands, pack, dealer, pot_before, redeals_before, n):
    rec[:] = 0
    rec[DEALER] = dealer
    rec[FIRST_HAND] = seat_after(dealer, 1, n)
    rec[POT_BEFORE] = pot_before
    rec[REDEALS_BEFORE] = redeals_before
    for i in range(32):
        rec[PACK + i] = pack[i]
    rec[RETOURNE] = -1
    rec[TAKER] = -1
    rec[TRUMP] = -1
    rec[DECL_WINNER_SEAT] = -1
    rec[BELOTE_SEAT] = -1
    rec[CAPOT_SIDE] = -1
    rec[POT_WON_BY] = -1
    rec[EXCHANGE_SEAT] = -1
    rec[SHOWN_CARD] = -1
    rec[OUTCOME] = OUT_NONE
    for s in range(MAX_SEATS):
        hands[s] = 0


@jit(inline="always")
def play_deal(
    rules,
    pack,
    dealer,
    pot_before,
    redeals_before,
    bid_policy,
    bid_params,
    play_policy,
    play_params,
    script_calls,
    n_script_calls,
    script_plays,
    n_script_plays,
    ws,
):
    """Play one deal (see :func:`_play_deal`), the integers passed on as plain int64 so
    that the deal is compiled once for the simulator and replay alike, not once per
    literal argument."""
    return _play_deal(
        rules, pack, np.int64(dealer), np.int64(pot_before), np.int64(redeals_before),
        np.int64(bid_policy), bid_params, np.int64(play_policy), play_params, script_calls,
        np.int64(n_script_calls), script_plays, np.int64(n_script_plays), ws,
    )


@jit
def _play_deal(
    rules,
    pack,
    dealer,
    pot_before,
    redeals_before,
    bid_policy,
    bid_params,
    play_policy,
    play_params,
    script_calls,
    n_script_calls,
    script_plays,
    n_script_plays,
    ws,
):
    """Play the deal of ``pack`` (int64[32], top first) dealt by ``dealer`` into the
    workspace's record ``ws[0]``; return its ``ST_*`` status.

    With ``bid_policy < 0`` (``SCRIPTED``) the calls and cards are read from
    ``script_calls``/``script_plays`` and checked; otherwise the policies choose them,
    drawing randomness from the workspace's stream ``ws[6]``. ``pot_before`` is the
    litige pot waiting, ``redeals_before`` the stock game's redeals in a row.
    """
    rec, _, hands, trick, decl, sides, rng, sv = ws
    n = rules[R_PLAYERS]
    _start(rec, hands, pack, dealer, pot_before, redeals_before, n)
    stats = sv[4]
    if play_policy >= PLAY_PIMC:  # the solver players' knowledge, the arena's timing
        reset_knowledge(sv[3])
        stats[:] = 0
    status = _dispatch(
        rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
        script_calls, n_script_calls, script_plays, n_script_plays, ws,
    )
    if play_policy == PLAY_SIDES:
        for side in range(2):
            rec[DECISIONS + side] = stats[STAT_DECISIONS + side]
            rec[DECISION_CYCLES + side] = stats[STAT_CYCLES + side]
    return status


@jit(inline="always")
def _dispatch(rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
              script_calls, n_script_calls, script_plays, n_script_plays, ws):
    contract = rules[R_CONTRACT]
    n = rules[R_PLAYERS]
    if contract == CONTRACT_RETOURNE or (contract == CONTRACT_NONE and n == 4):
        return _deal_retourne(
            rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
            script_calls, n_script_calls, script_plays, n_script_plays, ws,
        )
    if contract == CONTRACT_COINCHE:
        return deal_coinche(
            rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
            script_calls, n_script_calls, script_plays, n_script_plays, ws,
        )
    if contract == CONTRACT_STOCK:
        return deal_stock(
            rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
            script_calls, n_script_calls, script_plays, n_script_plays, ws,
        )
    return deal_no_contract_2p(
        rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
        script_calls, n_script_calls, script_plays, n_script_plays, ws,
    )


@jit(inline="always")
def _deal_retourne(rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
                   script_calls, n_script_calls, script_plays, n_script_plays, ws):
    """Retourne games (RULES 7.1), three or four players; also the four-player game
    without contract (7.3), which deals and bids the same way."""
    _, _, hands, trick, decl, sides, rng, sv = ws
    scripted = bid_policy < 0
    n = rules[R_PLAYERS]
    fh = rec[FIRST_HAND]

    # Deal: five cards in packets of 3-2 (or 2-3), then the retourne.
    first = 3 if rules[R_FIRST_PACKETS] == 0 else 2
    pos = deal_packet(pack, 0, hands, n, fh, first)
    pos = deal_packet(pack, pos, hands, n, fh, 5 - first)
    retourne = pack[pos]
    pos += 1
    rec[RETOURNE] = retourne
    for s in range(n):
        rec[DEALT + s] = hands[s]

    n_rounds = 3 if rules[R_ALL_NO_TRUMPS_ROUND] != 0 else 2
    status, taker, trump = bid_retourne(
        rules, rec, hands, n, fh, retourne, scripted, script_calls, n_script_calls,
        bid_policy, bid_params, rng, n_rounds, -1, sv,
    )
    if status == ST_OK:
        status = close_bidding(
            rec, taker, scripted, script_calls, n_script_calls, script_plays, n_script_plays
        )
    if status != ST_OK or taker < 0:
        return status
    rec[TAKER] = taker
    rec[TRUMP] = trump

    # The taker picks up the retourne and gets 2 more cards, everyone else 3.
    hands[taker] |= 1 << retourne
    sv[3][KNOW_HELD + taker] |= 1 << retourne  # everyone saw it
    for i in range(n):
        seat = seat_after(fh, i, n)
        for _ in range(2 if seat == taker else 3):
            hands[seat] |= 1 << pack[pos]
            pos += 1
    for s in range(n):
        rec[HANDS + s] = hands[s]
        sides[s] = side_of(s, n, taker)

    read_declarations(rules, rec, hands, n, fh, trump, sides, decl, n == 3, True)
    if play_policy >= PLAY_PIMC:  # only the solver players keep knowledge
        show_declarations(rules, rec, hands, n, sides, sv[3], decl)
    status = play_tricks(
        rules, rec, hands, n, 8, fh, trump, taker, sides, scripted, script_plays,
        n_script_plays, play_policy, play_params, rng, trick, pack, -1, 0, False, sv,
    )
    if status != ST_OK:
        return status
    rec[TOTAL_POINTS] = total_points(rec, n)
    if n == 3:
        score_three_player(rec, taker, rules[R_TIE_RULE])
    elif rules[R_CONTRACT] == CONTRACT_NONE:
        score_no_contract(rec, sides[taker])
    else:
        score_two_sides(rec, sides[taker], rules[R_TIE_RULE])
    return ST_OK


@jit
def replay_deal(rules, pack, dealer, pot_before, redeals_before, calls, plays, analyse):
    """Play a deal-log deal from its calls and cards: ``(record, status, values)``.

    Kernel of :func:`belote_sim.replay.replay`: :func:`play_deal` in scripted mode. With
    ``analyse`` (:func:`belote_sim.analyse.analyse`) it also records the double-dummy
    value of every position: ``values[0, i]`` the takers' trick points (capot bonus
    included) under perfect play from position ``i`` (before play ``i``; ``i =
    len(plays)`` after the last card given), ``values[1, i]`` the same after play ``i``
    was made; ``NO_VALUE`` where the solver does not apply (the stock game's free
    tricks)."""
    none = np.zeros(4, dtype=np.float64)
    mode = PLAY_ANALYSE if analyse else -1
    ws = new_workspace(-1, mode, none)
    status = play_deal(
        rules, pack, dealer, pot_before, redeals_before, -1, none, mode, none, calls,
        len(calls), plays, len(plays), ws,
    )
    return ws[0].copy(), status, ws[7][5][:2].copy()
