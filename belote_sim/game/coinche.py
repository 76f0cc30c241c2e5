"""Coinche (RULES.md 7.4): the deal in packets and the auction; the contract is scored by
:func:`belote_sim.kernels.scoring.score_coinche`.

:func:`deal_coinche` is called by :func:`belote_sim.game.deals.play_deal` for
``contract = coinche``; it follows the same phases as the retourne games (deal, bidding,
declarations and belote, the tricks of :func:`belote_sim.game.tricks.play_tricks`,
scoring) and, with scripted calls (replay), checks every call with
:func:`coinche_call_error`. A refused call is recorded by
:func:`belote_sim.game.tricks.fail` with the reason (``WHY_*``) in ``ERR_LEGAL`` and the
bid it had to beat (a call code, -1 none) in ``ERR_RULE``; replay turns them into a
sentence.
"""

from __future__ import annotations

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.bid.coinche import Auction
from belote_sim.bid.dispatch import coinche_policy_call
from belote_sim.cards import ALL_TRUMPS, NO_TRUMPS
from belote_sim.game.observers import see_call, see_deal
from belote_sim.game.phases import close_bidding, read_declarations, total_points
from belote_sim.game.state import MISSING, TrickPlan, is_checked, scripted_call
from belote_sim.game.tricks import fail, play_tricks
from belote_sim.kernels.calls import (
    CAPOT_BID,
    bid_strain,
    bid_value_index,
    contract_value,
    is_bid,
    on_ladder,
)
from belote_sim.kernels.deal import deal_packet
from belote_sim.kernels.layout import (
    CALL_COINCHE,
    CALL_PASS,
    CALL_SURCOINCHE,
    CALLS,
    CONTRACT_STRAIN,
    CONTRACT_VALUE,
    DEALT,
    FIRST_HAND,
    HANDS,
    MAX_CALLS,
    MULTIPLIER,
    N_CALLS,
    ST_BAD_CALL,
    ST_DECIDED,
    ST_MISSING_CALLS,
    ST_OK,
    ST_OTHER_CALL,
    TAKER,
    TOTAL_POINTS,
    TRUMP,
)
from belote_sim.kernels.scoring import score_coinche
from belote_sim.kernels.trick import seat_after
from belote_sim.rules import (
    AFTER_COINCHE_THREE_PASSES,
    PACKET_ROUNDS,
    PACKETS_332,
    PACKETS_LATE,
    R_AFTER_COINCHE,
    R_ALL_NO_TRUMPS_ROUND,
    R_CAPOT_VALUE,
    R_COINCHE_PACKETS,
    R_NT_VALUES,
    R_SURCOINCHE_MULT,
)

# Why a call is refused (``ERR_LEGAL`` of the record). The retourne games store their
# round (1..3) there, so these codes start at 10.
WHY_NOT_HIGHER = 10  # a bid not higher than the current bid
WHY_STRAIN = 11  # AT/NT bid without all_no_trumps_round
WHY_COINCHE_NO_BID = 12  # coinche with nothing to double
WHY_COINCHE_OWN_SIDE = 13  # coinche by the high bidder's side
WHY_SURCOINCHE_NO_COINCHE = 14  # surcoinche before any coinche
WHY_BID_AFTER_COINCHE = 15  # a bid after a coinche
WHY_COINCHE_AGAIN = 16  # coinche after a coinche
WHY_NOT_COINCHE_CALL = 17  # take, a bare suit, AT or NT: retourne calls
WHY_SURCOINCHE_DEFENCE = 18  # surcoinche by the coincher's side
WHY_LADDER = 19  # a bid of 170 .. 260 without capot_value = 270


@jit
def coinche_call_error(call, seat, auction, allow_at_nt, capot_value):
    """0 when ``call`` by ``seat`` is legal at this point of the
    :class:`~belote_sim.bid.coinche.Auction` ``auction`` (RULES 7.4) when the capot bid
    is worth ``capot_value``, else the ``WHY_*`` code of the rule it breaks."""
    high, high_seat, coinched = auction.high, auction.high_seat, auction.coinched
    if call == CALL_PASS:
        return 0
    if coinched:
        if call == CALL_SURCOINCHE:
            return 0 if (seat & 1) == (high_seat & 1) else WHY_SURCOINCHE_DEFENCE
        if call == CALL_COINCHE:
            return WHY_COINCHE_AGAIN
        if is_bid(call):
            return WHY_BID_AFTER_COINCHE
        return WHY_NOT_COINCHE_CALL
    if call == CALL_COINCHE:
        if high < 0:
            return WHY_COINCHE_NO_BID
        if (seat & 1) == (high_seat & 1):
            return WHY_COINCHE_OWN_SIDE
        return 0
    if call == CALL_SURCOINCHE:
        return WHY_SURCOINCHE_NO_COINCHE
    if not is_bid(call):
        return WHY_NOT_COINCHE_CALL
    if bid_strain(call) >= 4 and not allow_at_nt:
        return WHY_STRAIN
    if not on_ladder(call, capot_value):
        return WHY_LADDER
    if high >= 0 and contract_value(call, capot_value) <= contract_value(high, capot_value):
        return WHY_NOT_HIGHER
    return 0


@jit(inline="always")
def _auction(rec, n_calls, high, high_seat, coinched):
    """The :class:`~belote_sim.bid.coinche.Auction` of the record's first
    ``n_calls`` calls, ``high`` the current bid by ``high_seat``."""
    return Auction(rec[CALLS : CALLS + n_calls], n_calls, rec[FIRST_HAND], high, high_seat,
                   coinched)


@jit_no_refcount
def _next_call(rules, players, script, ws, seat, auction):
    """Choose the call of ``seat`` (the script's, or its bidding policy's) at this point
    of the ``auction``, check it and record it; a scripted call the script checks must
    also be the policy's (else ``ST_OTHER_CALL``). Returns ``(status, call)``."""
    rec = ws.rec
    n_calls, high, coinched = auction.n_calls, auction.high, auction.coinched
    allow_at_nt = rules[R_ALL_NO_TRUMPS_ROUND] != 0
    call = MISSING
    if script.on:
        call = scripted_call(script, n_calls)
        if call == MISSING and not script.open_end:
            return fail(rec, ST_MISSING_CALLS, n_calls, seat, -1, 0, 0), -1
    checking = script.on and is_checked(script, n_calls)
    if call == MISSING or checking:
        if coinched and (seat & 1) != (auction.high_seat & 1):
            chosen = CALL_PASS  # the coincher's side may only pass (after_coinche)
        else:
            chosen = coinche_policy_call(players, seat, ws.hands[seat], auction, allow_at_nt,
                                         ws.rng)
        if not checking:
            call = chosen
        elif chosen != call:
            return fail(rec, ST_OTHER_CALL, n_calls, seat, call, 0, high), -1
    why = coinche_call_error(call, seat, auction, allow_at_nt, rules[R_CAPOT_VALUE])
    if why != 0 or n_calls >= MAX_CALLS:
        return fail(rec, ST_BAD_CALL, n_calls, seat, call, why, high), -1
    rec[CALLS + n_calls] = call
    rec[N_CALLS] = n_calls + 1
    if ws.watch.know:
        see_call(ws.kit, n_calls, call, seat, 0, high, auction.high_seat, coinched)
    if script.decide and n_calls >= script.n_calls:
        return fail(rec, ST_DECIDED, n_calls, seat, call, 0, high), -1
    return ST_OK, call


@jit_no_refcount(inline="always")
def coinche_auction(rules, players, script, ws):
    """The auction of RULES 7.4 from the record's first hand; calls go to
    ``rec[CALLS]``.

    Returns ``(status, high, high_seat, multiplier)``: ``high`` is the final bid's call
    code, -1 when four passes threw the deal in. After a coinche the high bidder's side
    answers in turn order from the coincher; with ``after_coinche = three-passes`` the
    coincher's partner speaks between them (and may only pass), and three passes in a
    row end the auction as well.

    Inlined in :func:`deal_coinche`: a call copies its arguments onto the stack, the
    workspace (solver kit included) among them, and that copy at every deal was a
    visible share of a coinche deal's time."""
    rec = ws.rec
    fh = rec[FIRST_HAND]
    high = -1
    high_seat = -1
    passes = 0
    n_calls = 0
    rec[N_CALLS] = 0
    while True:
        seat = seat_after(fh, n_calls % 4, 4)
        status, call = _next_call(
            rules, players, script, ws, seat, _auction(rec, n_calls, high, high_seat, False)
        )
        if status != ST_OK:
            return status, -1, -1, 1
        n_calls += 1
        if call == CALL_PASS:
            passes += 1
            if high < 0 and passes == 4:
                return ST_OK, -1, -1, 1
            if high >= 0 and passes == 3:
                return ST_OK, high, high_seat, 1
        elif call == CALL_COINCHE:
            for k in (1, 3):
                if k == 3 and rules[R_AFTER_COINCHE] == AFTER_COINCHE_THREE_PASSES:
                    status, call = _next_call(
                        rules, players, script, ws, seat_after(seat, 2, 4),
                        _auction(rec, n_calls, high, high_seat, True),
                    )
                    if status != ST_OK:
                        return status, -1, -1, 1
                    n_calls += 1
                responder = seat_after(seat, k, 4)
                status, call = _next_call(
                    rules, players, script, ws, responder,
                    _auction(rec, n_calls, high, high_seat, True),
                )
                if status != ST_OK:
                    return status, -1, -1, 1
                n_calls += 1
                if call == CALL_SURCOINCHE:
                    return ST_OK, high, high_seat, rules[R_SURCOINCHE_MULT]
            return ST_OK, high, high_seat, 2
        else:
            high = call
            high_seat = seat
            passes = 0


@jit_no_refcount
def deal_coinche(rules, players, script, ws):
    """One coinche deal into ``ws.rec`` (RULES 7.4); returns an ``ST_*`` status.

    Deal in the packets of ``coinche_packets`` from the first hand (with ``3-3+2`` the
    last two cards each only once the auction has a contract), the auction,
    declarations and belote (trump = the contract's strain), 8 tricks led by the first
    hand, :func:`score_coinche`."""
    rec, pack, hands, sides = ws.rec, ws.pack, ws.hands, ws.sides
    fh = rec[FIRST_HAND]
    packets = rules[R_COINCHE_PACKETS]
    late = packets == PACKETS_LATE
    if packets == PACKETS_332:  # sizes the compiler sees: the fewest instructions
        pos = deal_packet(pack, 0, hands, 4, fh, 3)
        pos = deal_packet(pack, pos, hands, 4, fh, 3)
        pos = deal_packet(pack, pos, hands, 4, fh, 2)
    else:
        pos = 0
        for r in range(2 if late else 3):
            size = PACKET_ROUNDS[packets, r]
            if size > 0:
                pos = deal_packet(pack, pos, hands, 4, fh, size)
    for s in range(4):
        rec[DEALT + s] = hands[s]
    if ws.watch.know:
        see_deal(ws.kit, fh, -1)

    status, high, taker, m = coinche_auction(rules, players, script, ws)
    if status == ST_OK:
        status = close_bidding(rec, high, script)
    if status != ST_OK or high < 0:
        return status
    if late:
        deal_packet(pack, pos, hands, 4, fh, PACKET_ROUNDS[packets, 2])
    trump = bid_strain(high)
    rec[TAKER] = taker
    rec[TRUMP] = trump
    rec[CONTRACT_VALUE] = contract_value(high, rules[R_CAPOT_VALUE])
    rec[CONTRACT_STRAIN] = trump
    rec[MULTIPLIER] = m
    for s in range(4):
        rec[HANDS + s] = hands[s]
        sides[s] = s & 1

    read_declarations(rules, ws, False, True)
    status = play_tricks(rules, players, script, ws, TrickPlan(8, -1, 0, False))
    if status != ST_OK:
        return status
    rec[TOTAL_POINTS] = total_points(rec, 4)
    scale = trump == ALL_TRUMPS or (trump == NO_TRUMPS and rules[R_NT_VALUES] == 0)
    score_coinche(rec, taker & 1, scale, bid_value_index(high) == CAPOT_BID, rules)
    return ST_OK
