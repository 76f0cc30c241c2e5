"""The tricks of a deal (RULES.md section 6 and 7.2): one loop for every game, and a
lean copy of its steps for mass runs.

:func:`play_tricks` plays the tricks of a plan from the hands in the workspace: each
card is chosen (by the seat's play policy, or read from the deal log's script), checked
against the rules, and recorded with its legal set, each trick's leader and winner, and
the card points won by each seat and side. The stock game's free tricks and draws and
its belote "at the first card played" are options of the same loop.

Mass runs, where only ``random`` and ``heuristic`` players sit at the table and nothing
watches, take :func:`play_plain_tricks`: the same steps (:func:`lay_card`,
:func:`end_trick`, :func:`end_tricks`, the same rule functions, the same draws in the
same order) in a loop that carries nothing else, and :func:`play_random_tricks` when
every seat plays ``random`` (``docs/performance.md`` has their measurements).
``tests/test_engine.py`` plays the same deals through these loops and the general one
and compares the records.
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
from belote_sim.kernels.legal import legal_given_top, legal_given_winner, rule_values
from belote_sim.kernels.scoring import deal_total
from belote_sim.kernels.trick import POWER, card_power, seat_after, trick_card_points
from belote_sim.play.dispatch import (
    choose_card,
    heuristic_choice,
    random_card,
    random_card_from,
    valued_card,
)
from belote_sim.play.heuristic import heuristic_card_inlined
from belote_sim.play.pimc import deal_value
from belote_sim.players.registry import PLAY_HEURISTIC, PLAY_RANDOM
from belote_sim.players.seating import SeatView, at_seat, table_side
from belote_sim.rules import R_BELOTE, R_NT_VALUES, R_PLAYERS

#: A trick once its last card is down, as :func:`end_trick` records it: trick ``t`` of
#: the deal, its ``cards``, the seat that led it and the seat that took it.
Trick = namedtuple("Trick", ["t", "cards", "leader", "winner"])


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

    The lean loops name the bonus in a statement before the call: with the conditional
    expression among the call's arguments, Numba 0.68 compiled the loops that take their
    arrays as arguments without this function's stores into the record (the golden
    tests and the plain loops' test caught it)."""
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
    who need no solver kit and no knowledge (:func:`play_plain_tricks`)."""
    plain = True
    for policy in play:
        if policy != PLAY_RANDOM and policy != PLAY_HEURISTIC:
            plain = False
    return plain


@jit(inline="always")
def random_players(play):
    """Whether every seat plays ``random`` (:func:`play_random_tricks`)."""
    every = True
    for policy in play:
        if policy != PLAY_RANDOM:
            every = False
    return every


@jit
def play_plain_tricks(rules, play, rec, hands, trick, sides, rng, n_tricks):
    """The tricks of a four-player deal as :func:`play_tricks` plays them when nothing
    but the players is at the table: no card scripted, no observer, no free trick or stock,
    every seat ``random`` or ``heuristic``. The same steps with the same rule functions
    and the same draws, in a loop whose registers hold only what these players use: the
    stream's state and the rules' values are locals, not array cells reloaded after
    every store to the record or the hands. The check of the card is the legal set's
    alone: it lies within the hand. Only the players' policies and the workspace's arrays
    that the loop uses cross the call (:func:`play_tricks`)."""
    z = rng[0]  # the stream's state, in a register until the deal's last card
    values = rule_values(rules)
    leader = rec[FIRST_HAND]
    trump = rec[TRUMP]
    taker = rec[TAKER]
    last_bonus = LAST_TRICK_BONUS[rules[R_NT_VALUES], trump]
    t_side = sides[taker]
    played = 0
    won = 0
    for t in range(n_tricks):
        w = 0
        w_power = -1
        for k in range(4):
            seat = seat_after(leader, k, 4)
            if k == 0:
                legal, rule = hands[seat], RULE_FREE
            else:  # positions k and w stand for the seats, as in play_random_tricks
                legal, rule = legal_given_top(values, hands[seat], trick[0] >> 3, trick[w],
                                              k, w, trump, taker)
            if at_seat(play, seat) == PLAY_RANDOM:
                card, z = random_card_from(legal, z)
            else:
                cap = 1 if (won >> (1 - t_side)) & 1 == 0 else 0
                view = SeatView(
                    np.int64(seat), trick, np.int64(k), np.int64(leader), np.int64(played),
                    np.int64(trump), np.int64(taker), np.int64(4), np.int64(cap), False,
                )
                # Compiled into this loop: a call would copy the view's fields.
                card = heuristic_card_inlined(np.int64(legal), np.int64(hands[seat]), view)
            n_plays = 4 * t + k
            if (legal >> card) & 1 == 0:  # legal is within the hand
                rng[0] = z
                return fail(rec, ST_ILLEGAL_CARD, n_plays, seat, card, legal, rule)
            lay_card(rec, hands, trick, n_plays, seat, k, card, legal)
            played |= 1 << card
            power = card_power(card, trick[0] >> 3, trump)
            if power > w_power:
                w = k
                w_power = power
        winner = seat_after(leader, w, 4)
        bonus = last_bonus if t == n_tricks - 1 else 0
        won |= end_trick(values, rec, sides, Trick(t, trick, leader, winner), 4, trump, bonus)
        leader = winner
    rng[0] = z
    end_tricks(rec, 4 * n_tricks, n_tricks, won)
    return ST_OK


@jit
def play_random_tricks(rules, rec, hands, trick, sides, rng, n_tricks):
    """:func:`play_plain_tricks` when every seat plays ``random``: the same steps, the
    same draws and the same check of each card, in a loop that carries no other
    player: without the heuristic's call and view, the loop's state stays in registers.
    The power of each card is read from the row of
    :data:`~belote_sim.kernels.trick.POWER` of the suit led."""
    z = rng[0]  # the stream's state, in a register until the deal's last card
    values = rule_values(rules)
    leader = rec[FIRST_HAND]
    trump = rec[TRUMP]
    taker = rec[TAKER]
    last_bonus = LAST_TRICK_BONUS[values[R_NT_VALUES], trump]
    won = 0
    for t in range(n_tricks):
        legal = hands[leader]
        card, z = random_card_from(legal, z)
        if (legal >> card) & 1 == 0:  # the hand: any card leads
            rng[0] = z
            return fail(rec, ST_ILLEGAL_CARD, 4 * t, leader, card, legal, RULE_FREE)
        lay_card(rec, hands, trick, 4 * t, leader, 0, card, legal)
        led = card >> 3
        power_of = POWER[trump, led]
        w = 0
        top = card
        w_power = power_of[card]
        for k in range(1, 4):
            seat = seat_after(leader, k, 4)
            # The positions k and w in the trick stand for the two seats: with four
            # players, two positions are partners' as the seats are (the same parity).
            legal, rule = legal_given_top(values, hands[seat], led, top, k, w, trump, taker)
            card, z = random_card_from(legal, z)
            if (legal >> card) & 1 == 0:  # legal is within the hand
                rng[0] = z
                return fail(rec, ST_ILLEGAL_CARD, 4 * t + k, seat, card, legal, rule)
            lay_card(rec, hands, trick, 4 * t + k, seat, k, card, legal)
            power = power_of[card]
            if power > w_power:
                w = k
                top = card
                w_power = power
        winner = seat_after(leader, w, 4)
        bonus = last_bonus if t == n_tricks - 1 else 0
        won |= end_trick(values, rec, sides, Trick(t, trick, leader, winner), 4, trump, bonus)
        leader = winner
    rng[0] = z
    end_tricks(rec, 4 * n_tricks, n_tricks, won)
    return ST_OK


@jit(inline="always")
def play_tricks(rules, players, script, ws, plan):
    """Play the tricks of a deal (:class:`~belote_sim.game.state.TrickPlan` ``plan``)
    from the record's first hand, trump and taker; return an ``ST_*`` status.

    Each card is chosen by the seat's play policy (or taken from the script), checked
    against the rules whoever chose it, and recorded. ``ws.sides[seat]`` gives each
    seat's side. The workspace's observers (``ws.watch``) see every position: the
    knowledge of the solver players, each side's decision time (the arena), and the
    double-dummy value of every position of a scripted deal (``analyse``, see
    :func:`analyse_position`). Without observers, when the players choose every card (no
    script, or one of calls only: the atlas's openings), for random and heuristic
    players, the tricks are played by :func:`play_plain_tricks`, or
    :func:`play_random_tricks` when every seat plays ``random``.
    """
    # The solver kit is reached only under a flag or for a solver player: taking its
    # arrays out costs a reference count each, on the hot path of mass runs.
    rec, hands, trick, sides, rng = ws.rec, ws.hands, ws.trick, ws.sides, ws.rng
    watch = ws.watch
    n = rules[R_PLAYERS]
    leader = rec[FIRST_HAND]
    trump = rec[TRUMP]
    taker = rec[TAKER]
    n_tricks = plan.n_tricks
    free_tricks = plan.free_tricks
    stock_pos = plan.stock_pos
    analyse = watch.analyse
    t_side = sides[taker]
    if watch.solve and n == 4 and free_tricks == 0:
        return solve_tricks(rules, ws, ws.kit, leader, trump, taker, t_side, n_tricks)
    if (n == 4 and free_tricks == 0 and stock_pos < 0 and not plan.belote_at_play
            and leaves_every_card(script) and not (watch.know or watch.timing or analyse)
            and plain_players(players.play)):
        # The lean loops take only the arrays they use: a call copies every field of the
        # named tuples it is handed.
        if random_players(players.play):
            return play_random_tricks(rules, rec, hands, trick, sides, rng, n_tricks)
        return play_plain_tricks(rules, players.play, rec, hands, trick, sides, rng, n_tricks)
    last_bonus = LAST_TRICK_BONUS[rules[R_NT_VALUES], trump]
    played = 0
    n_plays = 0
    won = 0  # bit s: side s took a trick
    for t in range(n_tricks):
        w = 0  # position of the card winning the trick so far
        w_power = -1
        for k in range(n):
            seat = seat_after(leader, k, n)
            if k == 0 or t < free_tricks:
                legal, rule = hands[seat], RULE_FREE
            else:
                legal, rule = legal_given_winner(
                    rules, hands[seat], trick, k, leader, trump, taker, w
                )
            # What the seat sees, for every policy and observer; the view's integers int64:
            # the policies compile once (choose_card, heuristic_choice).
            cap = 1 if (won >> (1 - t_side)) & 1 == 0 else 0
            view = SeatView(
                np.int64(seat), trick, np.int64(k), np.int64(leader), np.int64(played),
                np.int64(trump), np.int64(taker), np.int64(n), np.int64(cap), t < free_tricks,
            )
            if analyse:
                # The value of the position (and of each legal card) before the card.
                value_position(rules, ws.kit, n_plays, rec[TRICK_POINTS + t_side], hands, view,
                               legal, t >= free_tricks)
            # Choose: the script's card, or the seat's policy.
            policy = at_seat(players.play, seat)
            start = cycles() if watch.timing else 0
            card = MISSING
            if script.on:
                card = scripted_card(script, n_plays)
                if card == MISSING and not script.open_end:
                    return fail(rec, ST_MISSING_PLAYS, n_plays, seat, -1, legal, rule)
            if card != MISSING:
                pass
            elif policy == PLAY_RANDOM:  # the hot path of mass runs, kept tight
                card = random_card(legal, rng)
            elif policy == PLAY_HEURISTIC:  # realistic mass runs: no solver kit
                card = heuristic_choice(legal, hands, view)
            elif script.decide and n_plays == script.n_plays:  # a seat asks: values too
                card = valued_card(players, rules, legal, hands, view, rng, ws.kit)
            else:
                card = choose_card(players, rules, legal, hands, view, rng, ws.kit)
            if watch.timing:
                time_decision(ws.kit, table_side(seat, n), cycles() - start)
            # Check: every card, scripted or chosen by a policy.
            if (hands[seat] >> card) & 1 == 0:
                return fail(rec, ST_NOT_IN_HAND, n_plays, seat, card, legal, rule)
            if (legal >> card) & 1 == 0:
                return fail(rec, ST_ILLEGAL_CARD, n_plays, seat, card, legal, rule)
            # Record, and let the observers see the card.
            if analyse and t >= free_tricks:
                value_card_played(ws.kit, n_plays, rec[TRICK_POINTS + t_side], card)
            if watch.know and t >= free_tricks:  # free tricks show nothing
                see_card(rules, ws.kit, view, card, w, rule)
            if plan.belote_at_play and trump < 4 and card >> 3 == trump:
                rank = card & 7
                other = 8 * trump + (QUEEN if rank == KING else KING)
                if (rank in (KING, QUEEN)) and (hands[seat] >> other) & 1:
                    rec[BELOTE_SEAT] = seat
                    if rules[R_BELOTE] != 0:
                        rec[BELOTE + sides[seat]] += BELOTE_POINTS
            lay_card(rec, hands, trick, n_plays, seat, k, card, legal)
            n_plays += 1
            if script.decide and n_plays > script.n_plays:
                return fail(rec, ST_DECIDED, n_plays - 1, seat, card, legal, rule)
            played |= 1 << card
            power = card_power(card, trick[0] >> 3, trump)
            if power > w_power:
                w = k
                w_power = power
        winner = seat_after(leader, w, n)
        won |= end_trick(rules, rec, sides, Trick(t, trick, leader, winner), n, trump,
                         last_bonus if t == n_tricks - 1 else 0)
        if stock_pos >= 0 and t < free_tricks:
            hands[winner] |= 1 << ws.pack[stock_pos]
            hands[seat_after(winner, 1, n)] |= 1 << ws.pack[stock_pos + 1]
            stock_pos += 2
        leader = winner
    if analyse:
        value_end(ws.kit, n_plays, rec[TRICK_POINTS + t_side], (won >> (1 - t_side)) & 1 == 0)
    end_tricks(rec, n_plays, n_tricks, won)
    if script.on and n_plays < script.n_plays:
        return fail(rec, ST_EXTRA_PLAYS, n_plays, -1, script.plays[n_plays], 0, 0)
    return ST_OK
