"""The tricks of a deal (RULES.md section 6 and 7.2): one loop for every game.

:func:`play_tricks` plays the tricks of a plan from the hands in the workspace: each
card is chosen (by the seat's play policy, or read from the deal log's script), checked
against the rules, and recorded with its legal set, each trick's leader and winner, and
the card points won by each seat and side. The stock game's free tricks and draws and
its belote "at the first card played" are options of the same loop.

The loop is written once (:func:`_trick_loop`) and compiled in three forms:

* every game, with scripts, observers and every player: the general form, inlined
  into the deal (:func:`trick_loop_inlined`), its arguments the deal's named state;
* four players who play ``random`` or ``heuristic`` with nothing watching, the mass
  runs: the lean form, a kernel of its own (:func:`trick_loop`) that takes only the
  arrays it plays on and the seats' policies, so that the loop's state stays in
  registers;
* the same when every seat plays ``random`` (no policies handed over: Numba drops the
  branch on ``play is None`` before it compiles the rest, so no heuristic in the loop).

``tests/test_engine.py`` plays the same deals through the three forms and compares the
records and streams.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit
from belote_sim.cards import BELOTE_POINTS, CAPOT_BONUS, KING, LAST_TRICK_BONUS, QUEEN
from belote_sim.game.clock import cycles
from belote_sim.game.observers import (
    see_card,
    time_decision,
    value_card_played,
    value_end,
    value_position,
)
from belote_sim.game.state import MISSING, leaves_every_card, scripted_card
from belote_sim.kernels.layout import (
    BELOTE,
    BELOTE_SEAT,
    CAPOT_SIDE,
    ERR_ITEM,
    ERR_LEGAL,
    ERR_RULE,
    ERR_SEAT,
    ERR_STEP,
    FIRST_HAND,
    LEGAL,
    N_PLAYS,
    N_TRICKS,
    PLAYS,
    RULE_FREE,
    SEAT_POINTS,
    ST_DECIDED,
    ST_EXTRA_PLAYS,
    ST_ILLEGAL_CARD,
    ST_MISSING_PLAYS,
    ST_NOT_IN_HAND,
    ST_OK,
    STATUS,
    TAKER,
    TRICK_LEADER,
    TRICK_POINTS,
    TRICK_WINNER,
    TRUMP,
)
from belote_sim.kernels.legal import legal_given_top, rule_values
from belote_sim.kernels.scoring import deal_total
from belote_sim.kernels.trick import POWER, seat_after, trick_card_points
from belote_sim.play.dispatch import choose_card, random_card_from, valued_card
from belote_sim.play.heuristic import heuristic_card, heuristic_card_apart
from belote_sim.play.pimc import deal_value
from belote_sim.players.registry import PLAY_HEURISTIC, PLAY_RANDOM
from belote_sim.players.seating import SeatView, at_seat, table_side
from belote_sim.rules import R_BELOTE, R_NT_VALUES, R_PLAYERS

#: A trick once its last card is down, as :func:`end_trick` records it: trick ``t`` of
#: the deal, its ``cards``, the seat that led it and the seat that took it.
Trick = namedtuple("Trick", ["t", "cards", "leader", "winner"])

#: The arrays a trick loop plays on, the workspace's: the deal's record, the hands, the
#: trick, each seat's side and the random stream.
TrickArrays = namedtuple("TrickArrays", ["rec", "hands", "trick", "sides", "rng"])

#: Who and what is at the table besides the cards, for the loop of every game: the
#: :class:`~belote_sim.players.seating.Players`, the deal log's
#: :class:`~belote_sim.game.state.Script`, the workspace (its pack for the stock's draws,
#: its solver kit, what it watches) and the :class:`~belote_sim.game.state.TrickPlan`.
AtTable = namedtuple("AtTable", ["players", "script", "ws", "plan"])


@jit(inline="always")
def fail(rec, status, step, seat, item, legal, rule):
    """Record why a scripted deal is refused (see ``ERR_*``) and return ``status``.

    Inlined: its call sites pass constants, and Numba compiles a called function once
    for every combination of constant arguments (seventeen, for this one)."""
    rec[STATUS] = status
    rec[ERR_STEP] = step
    rec[ERR_SEAT] = seat
    rec[ERR_ITEM] = item
    rec[ERR_LEGAL] = legal
    rec[ERR_RULE] = rule
    return status


@jit
def solve_tricks(rules, ws, kit, leader, trump, taker, t_side, n_tricks):
    """The tricks of a four-player deal settled by one double-dummy solve
    (:func:`~belote_sim.play.pimc.deal_value`, ``ws.watch.solve``): the takers get
    the card points of perfect play by everyone, the defenders the rest; nothing is
    played (the record has no cards). A side takes every trick when the solve says the
    takers do (the capot bonus is in the value) and, for the defenders, when the takers
    get no point at all: the solve counts points, not tricks, so a trick without points
    the takers might take is not seen."""
    rec = ws.rec
    if kit is None:  # never: a workspace without kit does not solve (Watch)
        return ST_OK
    value = deal_value(rules, kit, ws.hands, leader, trump, taker)
    total = deal_total(rules, trump)
    takers = value - CAPOT_BONUS if value > total else value
    rec[TRICK_POINTS + t_side] = takers
    rec[TRICK_POINTS + 1 - t_side] = total - takers
    rec[SEAT_POINTS + taker] = takers
    rec[SEAT_POINTS + seat_after(taker, 1, 4)] = total - takers
    if value > total:
        rec[CAPOT_SIDE] = t_side
    elif value == 0:
        rec[CAPOT_SIDE] = 1 - t_side
    rec[N_TRICKS] = n_tricks
    return ST_OK


@jit(inline="always")
def lay_card(rec, hands, trick, n_plays, seat, k, card, legal):
    """Record ``card`` as the deal's play ``n_plays`` (with its ``legal`` set) and the
    trick's card ``k``, and take it from ``seat``'s hand."""
    rec[PLAYS + n_plays] = card
    rec[LEGAL + n_plays] = legal
    trick[k] = card
    hands[seat] ^= 1 << card


@jit(inline="always")
def end_trick(rules, rec, sides, done, n, trump, bonus):
    """Score the :class:`Trick` ``done`` (``bonus``: the last trick's ten) and record
    its leader and winner; return the winner's side as a bit.

    The loop names the bonus in a statement before the call: with the conditional
    expression among the call's arguments, Numba 0.68 compiled the loop's kernel form,
    which takes its arrays as arguments, without this function's stores into the record
    (the golden tests and the loop's forms' test caught it)."""
    pts = trick_card_points(rules, done.cards, n, trump) + bonus
    side = sides[done.winner]
    rec[SEAT_POINTS + done.winner] += pts
    rec[TRICK_POINTS + side] += pts
    rec[TRICK_LEADER + done.t] = done.leader
    rec[TRICK_WINNER + done.t] = done.winner
    return 1 << side


@jit(inline="always")
def end_tricks(rec, n_plays, n_tricks, won):
    """Record the number of plays and tricks, and the side that took every trick, if
    any (``won``: bit s set when side s took a trick)."""
    rec[N_PLAYS] = n_plays
    rec[N_TRICKS] = n_tricks
    if won == 1:
        rec[CAPOT_SIDE] = 0
    elif won == 2:
        rec[CAPOT_SIDE] = 1


@jit(inline="always")
def plain_players(play):
    """Whether every seat plays ``random`` or ``heuristic``: the players of mass runs,
    who need no solver kit and no knowledge (:func:`trick_loop`)."""
    plain = True
    for policy in play:
        if policy != PLAY_RANDOM and policy != PLAY_HEURISTIC:
            plain = False
    return plain


@jit(inline="always")
def random_players(play):
    """Whether every seat plays ``random`` (:func:`trick_loop` without policies)."""
    every = True
    for policy in play:
        if policy != PLAY_RANDOM:
            every = False
    return every


def _trick_loop(lean):
    """The one trick loop, its form chosen by the constant ``lean``: the lean form for
    four players of mass runs with nothing watching (``at_table`` is ``None``), else
    the general form. A constant, not a test of ``at_table``: Numba drops the branches
    of a constant before it inlines the general form into a deal function, where a test
    of an argument no longer prunes anything, and the lean branches left in would be
    compiled into every deal function."""

    def loop(rules, arrays, play, n_tricks, at_table):
        """Play the tricks of a deal from the record's first hand, trump and taker; return
        an ``ST_*`` status, in the forms of the module docstring.

        ``arrays`` is the :class:`TrickArrays` the loop plays on; ``play`` the seats'
        play policies (``players.play``), or ``None`` when every seat plays ``random``;
        ``at_table`` the :class:`AtTable` of the general form, ``None`` in the lean form
        (then ``play`` holds ``random`` and ``heuristic`` only). Each card is chosen (the
        script's, or the seat's policy's), checked against the rules whoever chose it,
        and recorded; ``arrays.sides[seat]`` gives each seat's side. The workspace's
        observers (``ws.watch``) see every position: the knowledge of the solver
        players, each side's decision time (the arena), and the double-dummy value of
        every position of a scripted deal (``analyse``).

        The stream's state is held in a local from the first card to the last (and stored
        before a policy that draws from the stream itself, a solver player, is asked); the
        rules' options are a tuple (:func:`~belote_sim.kernels.legal.rule_values`): a loop
        that stores into the record and the hands would otherwise reload both after every
        store.
        """
        rec, hands, trick = arrays.rec, arrays.hands, arrays.trick
        sides, rng = arrays.sides, arrays.rng
        values = rule_values(rules)
        n = 4
        free_tricks = 0
        stock_pos = -1
        if not lean:
            n = values[R_PLAYERS]
            free_tricks = at_table.plan.free_tricks
            stock_pos = at_table.plan.stock_pos
        leader = rec[FIRST_HAND]
        trump = rec[TRUMP]
        taker = rec[TAKER]
        last_bonus = LAST_TRICK_BONUS[values[R_NT_VALUES], trump]
        t_side = sides[taker]
        z = rng[0]
        played = 0
        won = 0  # bit s: side s took a trick
        for t in range(n_tricks):
            free = t < free_tricks
            w = 0  # position of the card winning the trick so far
            top = 0  # that card
            top_power = -1
            power_of = POWER[trump, 0]  # the powers of the suit led, from the first card on
            for k in range(n):
                seat = seat_after(leader, k, n)
                n_plays = n * t + k
                hand = hands[seat]
                if k == 0 or free:
                    legal, rule = hand, RULE_FREE
                elif lean:
                    # With four players two positions are partners' exactly when their seats
                    # are (the same parity): the positions stand for the seats.
                    legal, rule = legal_given_top(values, hand, trick[0] >> 3, top, k, w, trump,
                                                  taker)
                else:
                    legal, rule = legal_given_top(values, hand, trick[0] >> 3, top, seat,
                                                  seat_after(leader, w, n), trump, taker)
                # What the seat sees, for every policy and observer; the view's integers
                # int64: the policies compile once.
                cap = 1 if (won >> (1 - t_side)) & 1 == 0 else 0
                view = SeatView(np.int64(seat), trick, np.int64(k), np.int64(leader),
                                np.int64(played), np.int64(trump), np.int64(taker), np.int64(n),
                                np.int64(cap), free)
                # Choose: the script's card, or the seat's policy.
                card = MISSING
                start = 0
                if not lean:
                    ws, script = at_table.ws, at_table.script
                    if ws.watch.analyse:  # the value of the position, and of each legal card
                        value_position(rules, ws.kit, n_plays, rec[TRICK_POINTS + t_side], hands,
                                       view, legal, not free)
                    if ws.watch.timing:
                        start = cycles()
                    if script.on:
                        card = scripted_card(script, n_plays)
                        if card == MISSING and not script.open_end:
                            rng[0] = z
                            return fail(rec, ST_MISSING_PLAYS, n_plays, seat, -1, legal, rule)
                if card != MISSING:
                    pass
                elif play is None:  # every seat plays random
                    card, z = random_card_from(legal, z)
                else:
                    policy = at_seat(play, seat)
                    if policy == PLAY_RANDOM:
                        card, z = random_card_from(legal, z)
                    elif lean:  # the lean loop: heuristic players only
                        card = heuristic_card(np.int64(legal), np.int64(hands[seat]), view)
                    elif policy == PLAY_HEURISTIC:
                        card = heuristic_card_apart(np.int64(legal), np.int64(hands[seat]), view)
                    else:  # a solver player, who draws from the stream
                        rng[0] = z
                        script, ws = at_table.script, at_table.ws
                        players = at_table.players
                        if script.decide and n_plays == script.n_plays:  # a seat asks: values too
                            card = valued_card(players, rules, legal, hands, view, rng, ws.kit)
                        else:
                            card = choose_card(players, rules, legal, hands, view, rng, ws.kit)
                        z = rng[0]
                # Check: every card, scripted or chosen by a policy (a policy's legal set is
                # within the hand; a script's card may be anything).
                if not lean:
                    if at_table.ws.watch.timing:
                        time_decision(at_table.ws.kit, table_side(seat, n), cycles() - start)
                    if (hands[seat] >> card) & 1 == 0:
                        rng[0] = z
                        return fail(rec, ST_NOT_IN_HAND, n_plays, seat, card, legal, rule)
                if (legal >> card) & 1 == 0:
                    rng[0] = z
                    return fail(rec, ST_ILLEGAL_CARD, n_plays, seat, card, legal, rule)
                # Record, and let the observers see the card.
                if not lean:
                    ws = at_table.ws
                    if ws.watch.analyse and not free:
                        value_card_played(ws.kit, n_plays, rec[TRICK_POINTS + t_side], card)
                    if ws.watch.know and not free:  # free tricks show nothing
                        see_card(rules, ws.kit, view, card, w, rule)
                    if at_table.plan.belote_at_play and trump < 4 and card >> 3 == trump:
                        rank = card & 7
                        other = 8 * trump + (QUEEN if rank == KING else KING)
                        if (rank in (KING, QUEEN)) and (hands[seat] >> other) & 1:
                            rec[BELOTE_SEAT] = seat
                            if values[R_BELOTE] != 0:
                                rec[BELOTE + sides[seat]] += BELOTE_POINTS
                lay_card(rec, hands, trick, n_plays, seat, k, card, legal)
                if not lean:
                    script = at_table.script
                    if script.decide and n_plays >= script.n_plays:
                        rng[0] = z
                        return fail(rec, ST_DECIDED, n_plays, seat, card, legal, rule)
                played |= 1 << card
                if k == 0:
                    power_of = POWER[trump, card >> 3]
                    top = card
                    top_power = power_of[card]
                else:
                    power = power_of[card]
                    if power > top_power:
                        w = k
                        top = card
                        top_power = power
            winner = seat_after(leader, w, n)
            bonus = last_bonus if t == n_tricks - 1 else 0
            won |= end_trick(values, rec, sides, Trick(t, trick, leader, winner), n, trump, bonus)
            if not lean and stock_pos >= 0 and free:  # the stock's draws
                pack = at_table.ws.pack
                hands[winner] |= 1 << pack[stock_pos]
                hands[seat_after(winner, 1, n)] |= 1 << pack[stock_pos + 1]
                stock_pos += 2
            leader = winner
        rng[0] = z
        n_plays = n * n_tricks
        if not lean and at_table.ws.watch.analyse:
            value_end(at_table.ws.kit, n_plays, rec[TRICK_POINTS + t_side],
                      (won >> (1 - t_side)) & 1 == 0)
        end_tricks(rec, n_plays, n_tricks, won)
        if not lean:
            script = at_table.script
            if script.on and n_plays < script.n_plays:
                return fail(rec, ST_EXTRA_PLAYS, n_plays, -1, script.plays[n_plays], 0, 0)
        return ST_OK
    return loop


#: :func:`_trick_loop`'s lean form as a kernel of its own, for the mass runs: it takes only the
#: arrays it plays on and the seats' policies (a call copies every field of the named
#: tuples it is handed).
trick_loop = jit(_trick_loop(lean=True))
#: :func:`_trick_loop`'s general form compiled into the deal, for every other table: the named state
#: it reads crosses no call.
trick_loop_inlined = jit(inline="always")(_trick_loop(lean=False))


@jit(inline="always")
def play_tricks(rules, players, script, ws, plan):
    """Play the tricks of a deal (:class:`~belote_sim.game.state.TrickPlan` ``plan``)
    from the record's first hand, trump and taker; return an ``ST_*`` status.

    A four-player deal that the watch settles by one solve is solved
    (:func:`solve_tricks`). Without observers, when the players choose every card (no
    script, or one of calls only: the atlas's openings), for four random and heuristic
    players, the tricks are played by :func:`trick_loop` (given no policies when every
    seat plays ``random``); every other deal by the same loop inlined here
    (:func:`trick_loop_inlined`)."""
    watch = ws.watch
    n = rules[R_PLAYERS]
    arrays = TrickArrays(ws.rec, ws.hands, ws.trick, ws.sides, ws.rng)
    if watch.solve and n == 4 and plan.free_tricks == 0:
        rec = ws.rec
        taker = rec[TAKER]
        return solve_tricks(rules, ws, ws.kit, rec[FIRST_HAND], rec[TRUMP], taker,
                            ws.sides[taker], plan.n_tricks)
    if (n == 4 and plan.free_tricks == 0 and plan.stock_pos < 0 and not plan.belote_at_play
            and leaves_every_card(script) and not (watch.know or watch.timing or watch.analyse)
            and plain_players(players.play)):
        if random_players(players.play):
            return trick_loop(rules, arrays, None, plan.n_tricks, None)
        return trick_loop(rules, arrays, players.play, plan.n_tricks, None)
    return trick_loop_inlined(rules, arrays, players.play, plan.n_tricks,
                              AtTable(players, script, ws, plan))
