"""The tricks of a deal (RULES.md section 6 and 7.2): one loop for every game.

:func:`play_tricks` plays ``n_tricks`` tricks from the hands in the workspace, each card
chosen by the play policy (or read from the deal log and checked), and records every
card, its legal set, each trick's leader and winner, and the card points won by each
seat and side. The stock game's free tricks and draws and its belote "at the first
card played" are options of the same loop.
"""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.cards import CAPOT_BONUS, KING, LAST_TRICK_BONUS, POINTS, QUEEN
from belote_sim.kernels.layout import (
    BELOTE,
    BELOTE_SEAT,
    CAPOT_SIDE,
    ERR_ITEM,
    ERR_LEGAL,
    ERR_RULE,
    ERR_SEAT,
    ERR_STEP,
    LEGAL,
    N_PLAYS,
    N_TRICKS,
    PLAYS,
    RULE_FREE,
    SEAT_POINTS,
    ST_EXTRA_PLAYS,
    ST_ILLEGAL_CARD,
    ST_MISSING_PLAYS,
    ST_NOT_IN_HAND,
    ST_OK,
    STATUS,
    TRICK_LEADER,
    TRICK_POINTS,
    TRICK_WINNER,
)
from belote_sim.kernels.legal import legal_given_winner
from belote_sim.kernels.trick import card_power, seat_after
from belote_sim.players import PLAY_ANALYSE, PLAY_HEURISTIC, PLAY_PIMC, PLAY_RANDOM
from belote_sim.players.knowledge import learn_from_card
from belote_sim.players.pimc import analyse_position
from belote_sim.players.play import choose_card, heuristic_choice, random_card
from belote_sim.players.solver_kit import NO_VALUE
from belote_sim.rules import R_BELOTE, R_KING_VALUE, R_NT_VALUES

BELOTE_POINTS = 20


@jit
def fail(rec, status, step, seat, item, legal, rule):
    """Record why a scripted deal is refused (see ``ERR_*``) and return ``status``."""
    rec[STATUS] = status
    rec[ERR_STEP] = step
    rec[ERR_SEAT] = seat
    rec[ERR_ITEM] = item
    rec[ERR_LEGAL] = legal
    rec[ERR_RULE] = rule
    return status


@jit(inline="always")
def play_tricks(rules, rec, hands, n, n_tricks, leader, trump, taker, sides, scripted,
                script_plays, n_script_plays, play_policy, play_params, rng, trick, pack,
                stock_pos, free_tricks, belote_at_play, sv):
    """Play the tricks of a deal; return an ``ST_*`` status.

    ``hands`` (int64 masks) are played out; ``sides[seat]`` gives each seat's side.
    The first ``free_tricks`` tricks allow any card; while ``stock_pos >= 0`` the winner
    then draws ``pack[stock_pos]`` and the other player the next card (stock game).
    With ``belote_at_play`` a player scores belote when playing the first of the trump
    king and queen while holding the other (RULES 5, stock game).

    ``sv`` is the solver kit of :func:`belote_sim.players.solver_kit.new_solver_kit`:
    the trick loop keeps its knowledge array (voids shown, known cards) up to date for
    the ``pimc`` player, and with ``play_policy = PLAY_ANALYSE`` in scripted mode it
    records the double-dummy value of every position (see :func:`analyse_position`).
    """
    analyse = scripted and play_policy == PLAY_ANALYSE
    t_side = sides[taker]
    k10 = 1 if rules[R_KING_VALUE] == 10 else 0
    ace19 = rules[R_NT_VALUES]
    last_bonus = LAST_TRICK_BONUS[ace19, trump]
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
            if analyse:
                # The value of the position (and of each legal card) before the card.
                aout = sv[5]
                aout[0, n_plays] = NO_VALUE
                if t >= free_tricks:
                    cap = 1 if (won >> (1 - t_side)) & 1 == 0 else 0
                    aout[0, n_plays] = rec[TRICK_POINTS + t_side] + analyse_position(
                        rules, sv, hands, trick, k, leader, trump, taker, cap, legal
                    )
            if scripted:
                if n_plays >= n_script_plays:
                    return fail(rec, ST_MISSING_PLAYS, n_plays, seat, -1, legal, rule)
                card = script_plays[n_plays]
                if (hands[seat] >> card) & 1 == 0:
                    return fail(rec, ST_NOT_IN_HAND, n_plays, seat, card, legal, rule)
            elif play_policy == PLAY_RANDOM:  # the hot path of mass runs, kept tight
                card = random_card(legal, rng)
            elif play_policy == PLAY_HEURISTIC:  # realistic mass runs: no solver kit
                card = heuristic_choice(legal, hands, seat, trick, k, leader, played, trump,
                                        taker, n)
            else:
                cap = 1 if (won >> (1 - t_side)) & 1 == 0 else 0
                card = choose_card(
                    play_policy, play_params, rules, legal, hands, seat, trick, k, leader,
                    played, trump, taker, n, rng, sv, cap, t < free_tricks,
                )
            if (legal >> card) & 1 == 0:  # a deal log's card, or a policy's bug: refused
                return fail(rec, ST_ILLEGAL_CARD, n_plays, seat, card, legal, rule)
            if analyse and t >= free_tricks:
                sv[5][1, n_plays] = rec[TRICK_POINTS + t_side] + sv[5][2, card]
            if play_policy >= PLAY_PIMC and t >= free_tricks:  # free tricks show nothing
                learn_from_card(rules, sv[3], seat, card, trick, k, w, trump, rule)
            if belote_at_play and trump < 4 and card >> 3 == trump:
                rank = card & 7
                other = 8 * trump + (QUEEN if rank == KING else KING)
                if (rank in (KING, QUEEN)) and (hands[seat] >> other) & 1:
                    rec[BELOTE_SEAT] = seat
                    if rules[R_BELOTE] != 0:
                        rec[BELOTE + sides[seat]] += BELOTE_POINTS
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
        rec[SEAT_POINTS + winner] += pts
        rec[TRICK_POINTS + sides[winner]] += pts
        rec[TRICK_LEADER + t] = leader
        rec[TRICK_WINNER + t] = winner
        won |= 1 << sides[winner]
        if stock_pos >= 0 and t < free_tricks:
            hands[winner] |= 1 << pack[stock_pos]
            hands[seat_after(winner, 1, n)] |= 1 << pack[stock_pos + 1]
            stock_pos += 2
        leader = winner
    if analyse:
        takers_all = (won >> (1 - t_side)) & 1 == 0
        sv[5][0, n_plays] = rec[TRICK_POINTS + t_side] + (CAPOT_BONUS if takers_all else 0)
    rec[N_PLAYS] = n_plays
    rec[N_TRICKS] = n_tricks
    if won == 1:
        rec[CAPOT_SIDE] = 0
    elif won == 2:
        rec[CAPOT_SIDE] = 1
    if scripted and n_plays < n_script_plays:
        return fail(rec, ST_EXTRA_PLAYS, n_plays, -1, script_plays[n_plays], 0, 0)
    return ST_OK
