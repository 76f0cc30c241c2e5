"""One complete deal: dealing, bidding, declarations, the tricks and the score.

:func:`play_deal` is the single implementation of a deal. The simulator calls it with
policies; replay calls it with ``bid_policy = SCRIPTED`` and the deal log's calls and
cards, which are then checked against exactly the same rule code.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.cards import POINTS
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
    ERR_ITEM,
    ERR_LEGAL,
    ERR_RULE,
    ERR_SEAT,
    ERR_STEP,
    FIRST_HAND,
    HANDS,
    LEGAL,
    MAX_CALLS,
    MAX_DECLS,
    MAX_SEATS,
    N_CALLS,
    N_PLAYS,
    N_TRICKS,
    OUT_NONE,
    OUTCOME,
    PACK,
    PLAYS,
    POT_BEFORE,
    POT_WON_BY,
    REC_SIZE,
    RETOURNE,
    RULE_FREE,
    ST_BAD_CALL,
    ST_EXTRA_CALLS,
    ST_EXTRA_PLAYS,
    ST_ILLEGAL_CARD,
    ST_MISSING_CALLS,
    ST_MISSING_PLAYS,
    ST_NOT_IN_HAND,
    ST_OK,
    STATUS,
    TAKER,
    THROWN_IN,
    TOTAL_POINTS,
    TRICK_LEADER,
    TRICK_POINTS,
    TRICK_WINNER,
    TRUMP,
)
from belote_sim.kernels.legal import legal_given_winner
from belote_sim.kernels.scoring import TOTALS, score_two_sides
from belote_sim.kernels.trick import card_power, seat_after, side_of
from belote_sim.policies.bidding import choose_call
from belote_sim.policies.play import choose_card
from belote_sim.rules import (
    R_BELOTE,
    R_DECLARATION_TIE,
    R_DECLARATIONS,
    R_FIRST_PACKETS,
    R_KING_VALUE,
    R_NT_VALUES,
    R_PLAYERS,
    R_SPLIT_LONG_RUNS,
    R_TIE_RULE,
)

BELOTE_POINTS = 20


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
def _fail(rec, status, step, seat, item, legal, rule):
    rec[STATUS] = status
    rec[ERR_STEP] = step
    rec[ERR_SEAT] = seat
    rec[ERR_ITEM] = item
    rec[ERR_LEGAL] = legal
    rec[ERR_RULE] = rule
    return status


@jit
def _call_is_legal(call, rnd, retourne):
    if call == CALL_PASS:
        return True
    if rnd == 1:
        return call == CALL_TAKE
    return CALL_SUIT <= call < CALL_SUIT + 4 and call - CALL_SUIT != retourne >> 3


@jit
def play_deal(
    rules,
    pack,
    dealer,
    pot_before,
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
    drawing randomness from the workspace's stream ``ws[6]``. Retourne games (RULES 7.1).
    """
    rec, _, hands, trick, decl, sides, rng = ws
    scripted = bid_policy < 0
    rec[:] = 0
    n = rules[R_PLAYERS]
    fh = (dealer + 1) % n
    rec[DEALER] = dealer
    rec[FIRST_HAND] = fh
    rec[POT_BEFORE] = pot_before
    for i in range(32):
        rec[PACK + i] = pack[i]
    rec[TAKER] = -1
    rec[TRUMP] = -1
    rec[DECL_WINNER_SEAT] = -1
    rec[BELOTE_SEAT] = -1
    rec[CAPOT_SIDE] = -1
    rec[POT_WON_BY] = -1
    rec[OUTCOME] = OUT_NONE
    for s in range(MAX_SEATS):
        hands[s] = 0

    # Deal: five cards in packets of 3-2 (or 2-3), then the retourne.
    first = 3 if rules[R_FIRST_PACKETS] == 0 else 2
    pos = deal_packet(pack, 0, hands, n, fh, first)
    pos = deal_packet(pack, pos, hands, n, fh, 5 - first)
    retourne = pack[pos]
    pos += 1
    rec[RETOURNE] = retourne
    for s in range(n):
        rec[DEALT + s] = hands[s]

    # Bidding: round 1 takes the retourne's suit, round 2 names another suit.
    n_calls = 0
    taker = -1
    trump = -1
    for rnd in range(1, 3):
        for i in range(n):
            seat = seat_after(fh, i, n)
            if scripted:
                if n_calls >= n_script_calls:
                    return _fail(rec, ST_MISSING_CALLS, n_calls, seat, -1, 0, 0)
                call = script_calls[n_calls]
            else:
                call = choose_call(bid_policy, bid_params, rnd, hands[seat], retourne, rng)
            if not _call_is_legal(call, rnd, retourne) or n_calls >= MAX_CALLS:
                return _fail(rec, ST_BAD_CALL, n_calls, seat, call, rnd, 0)
            rec[CALLS + n_calls] = call
            n_calls += 1
            if call != CALL_PASS:
                taker = seat
                trump = retourne >> 3 if rnd == 1 else call - CALL_SUIT
                rec[BID_ROUND] = rnd
                break
        if taker >= 0:
            break
    rec[N_CALLS] = n_calls
    if scripted and n_calls < n_script_calls:
        return _fail(rec, ST_EXTRA_CALLS, n_calls, -1, script_calls[n_calls], 0, 0)
    if taker < 0:
        rec[THROWN_IN] = 1
        if scripted and n_script_plays > 0:
            return _fail(rec, ST_EXTRA_PLAYS, 0, -1, script_plays[0], 0, 0)
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
    taker_side = sides[taker]

    # Declarations and belote, read at the start of the first trick.
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
                rec[BELOTE + sides[s]] += BELOTE_POINTS * pairs
    if rules[R_DECLARATIONS] != 0:
        w_side, w_seat = declaration_contest(
            rec[DECL_KEY : DECL_KEY + MAX_SEATS], fh, n, sides, rules[R_DECLARATION_TIE]
        )
        if w_side >= 0:
            rec[DECL_WINNER_SEAT] = w_seat
            for s in range(n):
                if sides[s] == w_side:
                    rec[DECL_POINTS + w_side] += rec[DECL_HELD + s]

    # The tricks.
    k10 = 1 if rules[R_KING_VALUE] == 10 else 0
    ace19 = rules[R_NT_VALUES]
    rec[TOTAL_POINTS] = TOTALS[k10, ace19, trump]
    last_bonus = 20 if trump == 5 and ace19 == 0 else 10
    n_tricks = 8
    leader = fh
    played = 0
    n_plays = 0
    won = np.int64(0)  # bit s: side s took a trick
    for t in range(n_tricks):
        w = 0  # position of the card winning the trick so far
        w_power = -1
        for k in range(n):
            seat = seat_after(leader, k, n)
            if k == 0:
                legal, rule = hands[seat], RULE_FREE
            else:
                legal, rule = legal_given_winner(
                    rules, hands[seat], trick, k, leader, trump, taker, w
                )
            if scripted:
                if n_plays >= n_script_plays:
                    return _fail(rec, ST_MISSING_PLAYS, n_plays, seat, -1, legal, rule)
                card = script_plays[n_plays]
                if (hands[seat] >> card) & 1 == 0:
                    return _fail(rec, ST_NOT_IN_HAND, n_plays, seat, card, legal, rule)
                if (legal >> card) & 1 == 0:
                    return _fail(rec, ST_ILLEGAL_CARD, n_plays, seat, card, legal, rule)
            else:
                card = choose_card(
                    play_policy, play_params, legal, hands[seat], trick, k, leader, played,
                    trump, taker, rng,
                )
            rec[PLAYS + n_plays] = card
            rec[LEGAL + n_plays] = legal
            n_plays += 1
            trick[k] = card
            hands[seat] ^= 1 << card
            played |= 1 << card
            power = card_power(card, trick[0] >> 3, trump)
            if power > w_power:
                w = k
                w_power = power
        winner = seat_after(leader, w, n)
        pts = 0
        for k in range(n):
            pts += POINTS[k10, ace19, trump, trick[k]]
        if t == n_tricks - 1:
            pts += last_bonus
        rec[TRICK_POINTS + sides[winner]] += pts
        rec[TRICK_LEADER + t] = leader
        rec[TRICK_WINNER + t] = winner
        won |= 1 << sides[winner]
        leader = winner
    rec[N_PLAYS] = n_plays
    rec[N_TRICKS] = n_tricks
    if scripted and n_plays < n_script_plays:
        return _fail(rec, ST_EXTRA_PLAYS, n_plays, -1, script_plays[n_plays], 0, 0)
    if won == 1:
        rec[CAPOT_SIDE] = 0
    elif won == 2:
        rec[CAPOT_SIDE] = 1
    score_two_sides(rec, taker_side, rules[R_TIE_RULE])
    return ST_OK


@jit
def replay_deal(rules, pack, dealer, pot_before, calls, plays):
    """Play a deal-log deal from its calls and cards: ``(record, status)``.

    Kernel of :func:`belote_sim.replay.replay`: :func:`play_deal` in scripted mode."""
    ws = new_workspace()
    none = np.zeros(4, dtype=np.float64)
    status = play_deal(
        rules, pack, dealer, pot_before, -1, none, -1, none, calls, len(calls), plays,
        len(plays), ws,
    )
    return ws[0].copy(), status
