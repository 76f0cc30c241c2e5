"""Phases shared by the deal kernels of every game: the retourne bidding rounds,
declarations and belote at the first trick, the total of card points played."""

from __future__ import annotations

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.bid.dd_bidder import BidView
from belote_sim.bid.dispatch import retourne_policy_call
from belote_sim.bid.retourne import call_from, forced_call
from belote_sim.cards import ALL_TRUMPS, BELOTE_POINTS, NO_TRUMPS
from belote_sim.game.observers import see_call, see_declarations
from belote_sim.game.state import MISSING, is_checked, scripted_call
from belote_sim.game.tricks import fail
from belote_sim.kernels.calls import call_is_legal
from belote_sim.kernels.declarations import (
    belote_pairs,
    declaration_contest,
    hand_declarations,
    may_declare,
)
from belote_sim.kernels.layout import (
    BELOTE,
    BELOTE_SEAT,
    BID_ROUND,
    CALL_AT,
    CALL_PASS,
    CALL_SUIT,
    CALLS,
    DECL_HELD,
    DECL_KEY,
    DECL_KINDS,
    DECL_POINTS,
    DECL_WINNER_SEAT,
    FIRST_HAND,
    MAX_CALLS,
    MAX_SEATS,
    N_CALLS,
    RETOURNE,
    SEAT_POINTS,
    ST_BAD_CALL,
    ST_DECIDED,
    ST_EXTRA_CALLS,
    ST_EXTRA_PLAYS,
    ST_MISSING_CALLS,
    ST_OK,
    ST_OTHER_CALL,
    THROWN_IN,
    TRUMP,
)
from belote_sim.kernels.trick import seat_after
from belote_sim.players.registry import BID_RANDOM, BID_THRESHOLD
from belote_sim.players.seating import at_seat
from belote_sim.rules import (
    R_BELOTE,
    R_DECLARATION_TIE,
    R_DECLARATIONS,
    R_PLAYERS,
    R_SECOND_ROUND,
    R_SPLIT_LONG_RUNS,
    SECOND_ROUND_ANY,
)


@jit(inline="always")
def bid_retourne(rules, players, script, ws, n_rounds, forced_seat):
    """Bidding rounds of RULES 7.1 (and 7.2/7.3, which use the same calls) from the
    record's first hand: round 1 takes the retourne's suit, round 2 names another suit
    (any suit with ``second_round = any``), round 3 (``all_no_trumps_round``)
    all-trumps or no-trumps. ``forced_seat`` may not pass in round 2 (stock game). Each
    call is chosen (the script's, or the seat's bidding policy's; ``forced_seat`` names
    its best suit, :func:`~belote_sim.bid.retourne.forced_call`), checked and
    recorded; a scripted call the script checks (:func:`~belote_sim.game.state.is_checked`)
    must also be the policy's. Returns ``(status, taker, trump)``; ``taker = -1`` when everybody
    passed. Without script or an observer of the calls, for ``random`` and ``threshold``
    bidders, the calls are made by :func:`bid_plain`."""
    if not script.on and not ws.watch.know and plain_bidders(players.bid):
        return bid_plain(rules, players.bid, players.bid_param, ws.rec, ws.hands, ws.rng,
                         n_rounds, forced_seat)
    rec, hands, rng = ws.rec, ws.hands, ws.rng  # once: each costs a reference count
    n = rules[R_PLAYERS]
    fh = rec[FIRST_HAND]
    retourne = rec[RETOURNE]
    any_suit = rules[R_SECOND_ROUND] == SECOND_ROUND_ANY
    n_calls = 0
    for rnd in range(1, n_rounds + 1):
        for i in range(n):
            seat = seat_after(fh, i, n)
            # Choose.
            call = MISSING
            if script.on:
                call = scripted_call(script, n_calls)
                if call == MISSING and not script.open_end:
                    return fail(rec, ST_MISSING_CALLS, n_calls, seat, -1, rnd, 0), -1, -1
            checking = script.on and is_checked(script, n_calls)
            if call == MISSING or checking:
                bidder = BidView(hands[seat], retourne, seat, fh, n)
                chosen = retourne_policy_call(rules, players, ws.kit, rnd, bidder, rng)
                if chosen == CALL_PASS and rnd == 2 and seat == forced_seat:
                    chosen = forced_call(hands[seat], retourne, any_suit)
                if not checking:
                    call = chosen
                elif chosen != call:
                    return fail(rec, ST_OTHER_CALL, n_calls, seat, call, rnd, 0), -1, -1
            # Check.
            ok = call_is_legal(call, rnd, retourne, any_suit)
            if call == CALL_PASS and rnd == 2 and seat == forced_seat:
                ok = False
            if not ok or n_calls >= MAX_CALLS:
                return fail(rec, ST_BAD_CALL, n_calls, seat, call, rnd, 0), -1, -1
            # Record.
            rec[CALLS + n_calls] = call
            if ws.watch.know:
                see_call(ws.kit, n_calls, call, seat, rnd, -1, -1, False)
            n_calls += 1
            rec[N_CALLS] = n_calls
            if script.decide and n_calls > script.n_calls:
                return fail(rec, ST_DECIDED, n_calls - 1, seat, call, rnd, 0), -1, -1
            if call != CALL_PASS:
                rec[BID_ROUND] = rnd
                return ST_OK, seat, contract_of(call, rnd, retourne)
    return ST_OK, -1, -1


@jit(inline="always")
def plain_bidders(bid):
    """Whether every seat bids ``random`` or ``threshold``: bidders who need neither
    the solver kit nor the table's lookups (:func:`bid_plain`)."""
    plain = True
    for policy in bid:
        if policy != BID_RANDOM and policy != BID_THRESHOLD:
            plain = False
    return plain


@jit
def bid_plain(rules, bid, bid_param, rec, hands, rng, n_rounds, forced_seat):
    """:func:`bid_retourne` when nothing but the players is at the table (no script,
    no observer) and every seat bids ``random`` or ``threshold`` (the players' ``bid``
    and ``bid_param``): the same calls from the same draws, each checked by the same
    rule, in a loop that carries nothing else. Only what it uses crosses the call: a
    call copies every field of the named tuples it is handed."""
    z = rng[0]  # the stream's state, in a register until the last call
    n = rules[R_PLAYERS]
    fh = rec[FIRST_HAND]
    retourne = rec[RETOURNE]
    any_suit = rules[R_SECOND_ROUND] == SECOND_ROUND_ANY
    n_calls = 0
    for rnd in range(1, n_rounds + 1):
        for i in range(n):
            seat = seat_after(fh, i, n)
            call, z = call_from(at_seat(bid, seat), at_seat(bid_param, seat),
                                rnd, hands[seat], retourne, any_suit, z)
            if call == CALL_PASS and rnd == 2 and seat == forced_seat:
                call = forced_call(hands[seat], retourne, any_suit)
            ok = call_is_legal(call, rnd, retourne, any_suit)
            if not ok or (call == CALL_PASS and rnd == 2 and seat == forced_seat):
                rng[0] = z
                return fail(rec, ST_BAD_CALL, n_calls, seat, call, rnd, 0), -1, -1
            rec[CALLS + n_calls] = call
            n_calls += 1
            if call != CALL_PASS:
                rng[0] = z
                rec[N_CALLS] = n_calls
                rec[BID_ROUND] = rnd
                return ST_OK, seat, contract_of(call, rnd, retourne)
    rng[0] = z
    rec[N_CALLS] = n_calls
    return ST_OK, -1, -1


@jit(inline="always")
def contract_of(call, rnd, retourne):
    """The trump (``0..3`` a suit, ``ALL_TRUMPS``, ``NO_TRUMPS``) of the call that ends
    the retourne bidding in round ``rnd``."""
    if rnd == 1:
        return retourne >> 3
    if rnd == 2:
        return call - CALL_SUIT
    return ALL_TRUMPS if call == CALL_AT else NO_TRUMPS


@jit(inline="always")
def close_bidding(rec, taker, script):
    """End of any auction: a deal log may hold no call after it (``ST_EXTRA_CALLS``);
    with no taker the deal is thrown in and may hold no card (``ST_EXTRA_PLAYS``)."""
    if script.on and rec[N_CALLS] < script.n_calls:
        return fail(rec, ST_EXTRA_CALLS, rec[N_CALLS], -1, script.calls[rec[N_CALLS]], 0, 0)
    if taker < 0:
        rec[THROWN_IN] = 1
        if script.on and script.n_plays > 0:
            return fail(rec, ST_EXTRA_PLAYS, 0, -1, script.plays[0], 0, 0)
    return ST_OK


@jit(inline="always")
def read_declarations(rules, ws, per_seat, belote_at_start):
    """Declarations and belote held at the start of the first trick (RULES 5), by
    :func:`declarations_at_first_trick`; with ``ws.watch.know`` the cards of the winning
    side's declarations become known to every seat (they are shown)."""
    declarations_at_first_trick(rules, ws.rec, ws.hands, ws.sides, per_seat, belote_at_start)
    if ws.watch.know:
        see_declarations(rules, ws.kit, ws.rec, ws.hands, rules[R_PLAYERS], ws.sides, ws.decl)


@jit_no_refcount
def declarations_at_first_trick(rules, rec, hands, sides, per_seat, belote_at_start):
    """Each seat's best declaration key, points and kinds; the contest; belote points.
    Scores are indexed by seat when ``per_seat`` (three players), else by side. Without
    ``belote_at_start`` (the stock game, where belote scores at play) belote is left to
    the trick loop. Only the arrays it needs cross the call: each costs a reference
    count."""
    n = rules[R_PLAYERS]
    fh = rec[FIRST_HAND]
    trump = rec[TRUMP]
    declared = False
    for s in range(n):
        if may_declare(hands[s]):  # most hands hold nothing: their slots stay 0
            declared = True
            pts, kinds, key = hand_declarations(hands[s], rules[R_SPLIT_LONG_RUNS], trump)
            rec[DECL_KEY + s] = key
            rec[DECL_HELD + s] = pts
            rec[DECL_KINDS + s] = kinds
        pairs = belote_pairs(hands[s], trump) if belote_at_start else 0
        if pairs > 0:
            rec[BELOTE_SEAT] = s
            if rules[R_BELOTE] != 0:
                rec[BELOTE + (s if per_seat else sides[s])] += BELOTE_POINTS * pairs
    if declared and rules[R_DECLARATIONS] != 0:
        w_side, w_seat = declaration_contest(
            rec[DECL_KEY : DECL_KEY + MAX_SEATS], fh, n, sides, rules[R_DECLARATION_TIE]
        )
        if w_side >= 0:
            rec[DECL_WINNER_SEAT] = w_seat
            for s in range(n):
                if sides[s] == w_side:
                    rec[DECL_POINTS + (s if per_seat else w_side)] += rec[DECL_HELD + s]


@jit_no_refcount
def total_points(rec, n):
    """Card points won by all seats together (last-trick bonus included)."""
    total = 0
    for s in range(n):
        total += rec[SEAT_POINTS + s]
    return total
