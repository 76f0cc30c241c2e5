"""One complete deal: dealing, bidding, declarations, the tricks and the score.

:func:`play_deal` is the single implementation of a deal. The simulator calls it with
policies; replay calls it with ``bid_policy = SCRIPTED`` and the deal log's calls and
cards, which are then checked against exactly the same rule code.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.cards import ALL_TRUMPS, NO_TRUMPS
from belote_sim.kernels.coinche import deal_coinche
from belote_sim.kernels.deal import deal_packet
from belote_sim.kernels.declarations import (
    belote_pairs,
    best_key,
    declaration_contest,
    list_declarations,
    summarise_declarations,
)
from belote_sim.kernels.layout import (
    BELOTE,
    BELOTE_SEAT,
    BID_ROUND,
    CALL_AT,
    CALL_NT,
    CALL_PASS,
    CALL_SUIT,
    CALL_TAKE,
    CALLS,
    CAPOT_SIDE,
    DEALER,
    DEALT,
    DECL_HELD,
    DECL_KEY,
    DECL_KINDS,
    DECL_POINTS,
    DECL_WINNER_SEAT,
    EXCHANGE_SEAT,
    FIRST_HAND,
    HANDS,
    MAX_CALLS,
    MAX_DECLS,
    MAX_SEATS,
    N_CALLS,
    OUT_NONE,
    OUTCOME,
    PACK,
    POT_BEFORE,
    POT_WON_BY,
    REC_SIZE,
    REDEALS_BEFORE,
    RETOURNE,
    SEAT_POINTS,
    SHOWN_CARD,
    ST_BAD_CALL,
    ST_EXTRA_CALLS,
    ST_EXTRA_PLAYS,
    ST_MISSING_CALLS,
    ST_OK,
    TAKER,
    THROWN_IN,
    TOTAL_POINTS,
    TRUMP,
)
from belote_sim.kernels.play import BELOTE_POINTS, fail, play_tricks
from belote_sim.kernels.scoring import score_no_contract, score_three_player, score_two_sides
from belote_sim.kernels.trick import seat_after, side_of
from belote_sim.kernels.twoplayer import deal_no_contract_2p, deal_stock
from belote_sim.policies import BID_FORCED
from belote_sim.policies.bidding import choose_call
from belote_sim.rules import (
    CONTRACT_COINCHE,
    CONTRACT_NONE,
    CONTRACT_RETOURNE,
    CONTRACT_STOCK,
    R_ALL_NO_TRUMPS_ROUND,
    R_BELOTE,
    R_CONTRACT,
    R_DECLARATION_TIE,
    R_DECLARATIONS,
    R_FIRST_PACKETS,
    R_PLAYERS,
    R_SPLIT_LONG_RUNS,
    R_TIE_RULE,
)


@jit
def new_workspace():
    """Scratch arrays for :func:`play_deal`: ``(rec, pack, hands, trick, decl, sides, rng)``."""
    return (
        np.zeros(REC_SIZE, dtype=np.int64),
        np.zeros(32, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros((MAX_DECLS, 4), dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
    )


@jit
def _call_is_legal(call, rnd, retourne):
    if call == CALL_PASS:
        return True
    if rnd == 1:
        return call == CALL_TAKE
    if rnd == 2:
        return CALL_SUIT <= call < CALL_SUIT + 4 and call - CALL_SUIT != retourne >> 3
    return call in (CALL_AT, CALL_NT)


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


@jit
def _bid_retourne(rules, rec, hands, n, fh, retourne, scripted, script_calls, n_script_calls,
                  bid_policy, bid_params, rng, n_rounds, forced_seat):
    """Bidding rounds of RULES 7.1 (and 7.2/7.3, which use the same calls): round 1 takes
    the retourne's suit, round 2 names another suit, round 3 (``all_no_trumps_round``)
    all-trumps or no-trumps. ``forced_seat`` may not pass in round 2 (stock game).
    Returns ``(status, taker, trump)``; ``taker = -1`` when everybody passed."""
    n_calls = 0
    for rnd in range(1, n_rounds + 1):
        for i in range(n):
            seat = seat_after(fh, i, n)
            if scripted:
                if n_calls >= n_script_calls:
                    return fail(rec, ST_MISSING_CALLS, n_calls, seat, -1, rnd, 0), -1, -1
                call = script_calls[n_calls]
            else:
                call = choose_call(bid_policy, bid_params, rnd, hands[seat], retourne, rng)
                if call == CALL_PASS and rnd == 2 and seat == forced_seat:
                    call = choose_call(BID_FORCED, bid_params, rnd, hands[seat], retourne, rng)
            ok = _call_is_legal(call, rnd, retourne)
            if call == CALL_PASS and rnd == 2 and seat == forced_seat:
                ok = False
            if not ok or n_calls >= MAX_CALLS:
                return fail(rec, ST_BAD_CALL, n_calls, seat, call, rnd, 0), -1, -1
            rec[CALLS + n_calls] = call
            n_calls += 1
            rec[N_CALLS] = n_calls
            if call != CALL_PASS:
                rec[BID_ROUND] = rnd
                if rnd == 1:
                    return ST_OK, seat, retourne >> 3
                if rnd == 2:
                    return ST_OK, seat, call - CALL_SUIT
                return ST_OK, seat, ALL_TRUMPS if call == CALL_AT else NO_TRUMPS
    return ST_OK, -1, -1


@jit
def read_declarations(rules, rec, hands, n, fh, trump, sides, decl, per_seat):
    """Declarations and belote held at the start of the first trick (RULES 5): each
    seat's best key, points and kinds; the contest; belote points. Scores are indexed by
    seat when ``per_seat`` (three players), else by side."""
    for s in range(n):
        nd = list_declarations(hands[s], rules[R_SPLIT_LONG_RUNS], decl)
        pts, kinds = summarise_declarations(decl, nd)
        rec[DECL_KEY + s] = best_key(decl, nd, trump)
        rec[DECL_HELD + s] = pts
        rec[DECL_KINDS + s] = kinds
        pairs = belote_pairs(hands[s], trump)
        if pairs > 0:
            rec[BELOTE_SEAT] = s
            if rules[R_BELOTE] != 0:
                rec[BELOTE + (s if per_seat else sides[s])] += BELOTE_POINTS * pairs
    if rules[R_DECLARATIONS] != 0:
        w_side, w_seat = declaration_contest(
            rec[DECL_KEY : DECL_KEY + MAX_SEATS], fh, n, sides, rules[R_DECLARATION_TIE]
        )
        if w_side >= 0:
            rec[DECL_WINNER_SEAT] = w_seat
            for s in range(n):
                if sides[s] == w_side:
                    rec[DECL_POINTS + (s if per_seat else w_side)] += rec[DECL_HELD + s]


@jit
def _total_points(rec, n):
    total = 0
    for s in range(n):
        total += rec[SEAT_POINTS + s]
    return total


@jit
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
    """Play the deal of ``pack`` (int64[32], top first) dealt by ``dealer`` into the
    workspace's record ``ws[0]``; return its ``ST_*`` status.

    With ``bid_policy < 0`` (``SCRIPTED``) the calls and cards are read from
    ``script_calls``/``script_plays`` and checked; otherwise the policies choose them,
    drawing randomness from the workspace's stream ``ws[6]``. ``pot_before`` is the
    litige pot waiting, ``redeals_before`` the stock game's redeals in a row.
    """
    rec, _, hands, trick, decl, sides, rng = ws
    n = rules[R_PLAYERS]
    _start(rec, hands, pack, dealer, pot_before, redeals_before, n)
    contract = rules[R_CONTRACT]
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


@jit
def _deal_retourne(rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
                   script_calls, n_script_calls, script_plays, n_script_plays, ws):
    """Retourne games (RULES 7.1), three or four players; also the four-player game
    without contract (7.3), which deals and bids the same way."""
    _, _, hands, trick, decl, sides, rng = ws
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
    status, taker, trump = _bid_retourne(
        rules, rec, hands, n, fh, retourne, scripted, script_calls, n_script_calls,
        bid_policy, bid_params, rng, n_rounds, -1,
    )
    if status != ST_OK:
        return status
    if scripted and rec[N_CALLS] < n_script_calls:
        return fail(rec, ST_EXTRA_CALLS, rec[N_CALLS], -1, script_calls[rec[N_CALLS]], 0, 0)
    if taker < 0:
        rec[THROWN_IN] = 1
        if scripted and n_script_plays > 0:
            return fail(rec, ST_EXTRA_PLAYS, 0, -1, script_plays[0], 0, 0)
        return ST_OK
    rec[TAKER] = taker
    rec[TRUMP] = trump

    # The taker picks up the retourne and gets 2 more cards, everyone else 3.
    hands[taker] |= 1 << retourne
    for i in range(n):
        seat = seat_after(fh, i, n)
        for _ in range(2 if seat == taker else 3):
            hands[seat] |= 1 << pack[pos]
            pos += 1
    for s in range(n):
        rec[HANDS + s] = hands[s]
        sides[s] = side_of(s, n, taker)

    read_declarations(rules, rec, hands, n, fh, trump, sides, decl, n == 3)
    status = play_tricks(
        rules, rec, hands, n, 8, fh, trump, taker, sides, scripted, script_plays,
        n_script_plays, play_policy, play_params, rng, trick, pack, -1, 0, False,
    )
    if status != ST_OK:
        return status
    rec[TOTAL_POINTS] = _total_points(rec, n)
    if n == 3:
        score_three_player(rec, taker, rules[R_TIE_RULE])
    elif rules[R_CONTRACT] == CONTRACT_NONE:
        score_no_contract(rec, sides[taker])
    else:
        score_two_sides(rec, sides[taker], rules[R_TIE_RULE])
    return ST_OK


@jit
def replay_deal(rules, pack, dealer, pot_before, redeals_before, calls, plays):
    """Play a deal-log deal from its calls and cards: ``(record, status)``.

    Kernel of :func:`belote_sim.replay.replay`: :func:`play_deal` in scripted mode."""
    ws = new_workspace()
    none = np.zeros(4, dtype=np.float64)
    status = play_deal(
        rules, pack, dealer, pot_before, redeals_before, -1, none, -1, none, calls,
        len(calls), plays, len(plays), ws,
    )
    return ws[0].copy(), status
