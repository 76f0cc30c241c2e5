"""One complete deal: dealing, bidding, declarations, the tricks and the score.

:func:`play_deal` is the single implementation of a deal. The simulator calls it with
players; replay calls it with the deal log as a script, whose calls and cards then go
through exactly the same choose, check and record steps.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba.extending import overload

from belote_sim._jit import NO_REFCOUNT, jit, jit_no_refcount
from belote_sim.game.coinche import deal_coinche
from belote_sim.game.observers import (
    record_decisions,
    see_deal,
    see_retourne_taken,
    start_watch,
)
from belote_sim.game.phases import (
    bid_retourne,
    close_bidding,
    read_declarations,
    total_points,
)
from belote_sim.game.state import TrickPlan, new_workspace, script_of
from belote_sim.game.tricks import play_tricks
from belote_sim.game.twoplayer import deal_no_contract_2p, deal_stock
from belote_sim.kernels.deal import deal_packet, deal_rest
from belote_sim.kernels.layout import (
    BELOTE_SEAT,
    CAPOT_SIDE,
    DEALER,
    DEALT,
    DECL_WINNER_SEAT,
    EXCHANGE_SEAT,
    FIRST_HAND,
    HANDS,
    MAX_SEATS,
    OUT_NONE,
    OUTCOME,
    PACK,
    POT_BEFORE,
    POT_WON_BY,
    REDEALS_BEFORE,
    RETOURNE,
    SHOWN_CARD,
    ST_NOT_COMPILED,
    ST_OK,
    TAKER,
    TOTAL_POINTS,
    TRUMP,
)
from belote_sim.kernels.scoring import score_no_contract, score_three_player, score_two_sides
from belote_sim.kernels.trick import seat_after, side_of
from belote_sim.players.lookup import lookup_for
from belote_sim.players.seating import ALL_FAMILIES, same_players, seated
from belote_sim.rules import (
    CONTRACT_NONE,
    FAMILY_COINCHE,
    FAMILY_RETOURNE,
    FAMILY_STOCK,
    R_ALL_NO_TRUMPS_ROUND,
    R_CONTRACT,
    R_FIRST_PACKETS,
    R_PLAYERS,
    family_of,
)

_family_of = jit(inline="always")(family_of)


@jit_no_refcount
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
def play_deal(rules, players, script, ws, dealer, pot_before, redeals_before):
    """Play one deal (see :func:`_play_deal`), the integers passed on as plain int64 so
    that the deal is compiled once for the simulator and replay alike, not once per
    literal argument."""
    return _play_deal(players.families, rules, players, script, ws, np.int64(dealer),
                      np.int64(pot_before), np.int64(redeals_before))


@jit(inline="always")
def play_deal_apart(rules, players, script, ws, dealer, pot_before, redeals_before):
    """:func:`play_deal` as a call to :func:`play_deal_cached`, the integers passed on
    as plain int64 (as :func:`play_deal` does)."""
    return play_deal_cached(rules, players, script, ws, np.int64(dealer),
                            np.int64(pot_before), np.int64(redeals_before))


@jit_no_refcount
def play_deal_cached(rules, players, script, ws, dealer, pot_before, redeals_before):
    """:func:`play_deal` as a kernel of its own: compiled once per type of its
    arguments and cached on disk on its own, where each kernel that calls
    :func:`play_deal` compiles the whole deal into its own code. For the loops in which
    a call costs little beside the rest of their work (replay, logged deals, matches,
    the arena, bid strength, card values; through :func:`play_deal_apart`) and for
    Python callers. The loops whose rate is the deal's own (the simulator's and the
    comparison's counting, the atlas) inline :func:`play_deal`: a call copies every
    field of the named tuples it hands on."""
    return _play_deal(players.families, rules, players, script, ws, dealer, pot_before,
                      redeals_before)


def _deal_of_families(retourne, coinche, stock, two_player):
    """:func:`_play_deal` with the deal functions of the families whose flag is false
    left out: a deal of such a family ends with ``ST_NOT_COMPILED``."""

    def play(families, rules, players, script, ws, dealer, pot_before, redeals_before):
        rec = ws.rec
        n = rules[R_PLAYERS]
        _start(rec, ws.hands, ws.pack, dealer, pot_before, redeals_before, n)
        if ws.watch.know or ws.watch.timing:
            start_watch(ws.kit, ws.watch)
        status = ST_NOT_COMPILED
        family = _family_of(rules)
        if family == FAMILY_RETOURNE:
            if retourne:
                status = _deal_retourne(rules, players, script, ws)
        elif family == FAMILY_COINCHE:
            if coinche:
                status = deal_coinche(rules, players, script, ws)
        elif family == FAMILY_STOCK:
            if stock:
                status = deal_stock(rules, players, script, ws)
        elif two_player:
            status = deal_no_contract_2p(rules, players, script, ws)
        if ws.watch.timing:
            record_decisions(ws.kit, rec)
        return status

    return play


def _play_deal(families, rules, players, script, ws, dealer, pot_before, redeals_before):
    """Play the deal of the pack ``ws.pack`` (int64[32], top first) dealt by ``dealer``
    into the record ``ws.rec`` with the deal function of the rules' family, if the
    players' ``families`` seat them there; return its ``ST_*`` status (kernels run as
    plain Python).

    The :class:`~belote_sim.players.seating.Players` choose the calls and cards, drawing
    randomness from ``ws.rng``, unless the :class:`~belote_sim.game.state.Script` is on
    (replay): then they come from the deal log, checked by the same code.
    ``pot_before`` is the litige pot waiting, ``redeals_before`` the stock game's
    redeals in a row.
    """
    return _deal_of_families(*map(seated, families))(
        families, rules, players, script, ws, dealer, pot_before, redeals_before)


@overload(_play_deal, jit_options=NO_REFCOUNT)
def _play_deal_compiled(families, rules, players, script, ws, dealer, pot_before,
                        redeals_before):
    """:func:`_play_deal` compiled for the type of the players' ``families``: the flags
    are constants of the implementation, so Numba drops the branches of the families the
    players do not sit at before it compiles (a classic run compiles no coinche or
    two-player code).

    Compiled without reference counting (so are the family functions it calls): a deal
    hands its named tuples through many functions, and counting the references of every
    array in them cost a large share of the deal rate. Nothing here allocates; the solver
    players' entry points, which do, keep the runtime (``jit_refcounted``). A function
    of its own, not inlined: Numba types an inlined overload twice, which cost more
    compilation than the pruning saved. The start of the deal is part of it, not a
    function of its own that calls it: each call between compiled functions copies every
    field of the named tuples it is handed (the workspace, the players, the script: over
    a hundred words).
    """
    return _deal_of_families(*map(seated, families))


@jit(inline="always")
def _deal_retourne(rules, players, script, ws):
    """Retourne games (RULES 7.1), three or four players; also the four-player game
    without contract (7.3), which deals and bids the same way."""
    rec, pack, hands, sides = ws.rec, ws.pack, ws.hands, ws.sides
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
    if ws.watch.know:
        see_deal(ws.kit, fh, retourne)

    n_rounds = 3 if rules[R_ALL_NO_TRUMPS_ROUND] != 0 else 2
    status, taker, trump = bid_retourne(rules, players, script, ws, n_rounds, -1)
    if status == ST_OK:
        status = close_bidding(rec, taker, script)
    if status != ST_OK or taker < 0:
        return status
    rec[TAKER] = taker
    rec[TRUMP] = trump

    # The taker picks up the retourne and gets 2 more cards, everyone else 3.
    hands[taker] |= 1 << retourne
    if ws.watch.know:
        see_retourne_taken(ws.kit, taker, retourne)
    deal_rest(pack, pos, hands, n, fh, taker)
    for s in range(n):
        rec[HANDS + s] = hands[s]
        sides[s] = side_of(s, n, taker)

    read_declarations(rules, ws, n == 3, True)
    status = play_tricks(rules, players, script, ws, TrickPlan(8, -1, 0, False))
    if status != ST_OK:
        return status
    rec[TOTAL_POINTS] = total_points(rec, n)
    if n == 3:
        score_three_player(rec, taker, rules)
    elif rules[R_CONTRACT] == CONTRACT_NONE:
        score_no_contract(rec, sides[taker])
    else:
        score_two_sides(rec, sides[taker], rules)
    return ST_OK


def replay_deal(rules, pack, dealer, pot_before, redeals_before, calls, plays, analyse):
    """Play a deal-log deal from its calls and cards: ``(record, status, values)``.

    Kernel of :func:`belote_sim.deallog.replay.replay`: :func:`play_deal` with the deal log as
    its script. With ``analyse`` (:func:`belote_sim.deallog.analyse.analyse`) it also records the
    double-dummy value of every position: ``values[0, i]`` the takers' trick points
    (capot bonus included) under perfect play from position ``i`` (before play ``i``;
    ``i = len(plays)`` after the last card given), ``values[1, i]`` the same after play
    ``i`` was made; ``NO_VALUE`` where the solver does not apply (the stock game's free
    tricks)."""
    return _replay_deal(rules, _script_players(), pack, dealer, pot_before, redeals_before,
                        script_of(calls, plays), analyse)


@cache
def _script_players():
    """The players of a replay, whom its script stands in for (never asked): with the
    solver (for the analysis) and every family; without the table bidder's lookup, but
    under ``BELOTE_SIM_COMPILE_ALL=1``, where the kernels share the runs' players."""
    return same_players(0, 0.0, 0, 0.0, *lookup_for(), True, ALL_FAMILIES)


@jit
def _replay_deal(rules, players, pack, dealer, pot_before, redeals_before, script, analyse):
    """:func:`replay_deal`'s kernel, with the players of :func:`_script_players` and the
    deal log's script."""
    ws = new_workspace(players, False, analyse, False)
    ws.pack[:] = pack
    status = play_deal_apart(rules, players, script, ws, dealer, pot_before, redeals_before)
    return ws.rec.copy(), status, ws.kit.analysis[:2].copy()
