"""Counters of a run, accumulated deal by deal inside the kernels (no per-deal memory).

:func:`accumulate` adds one deal's record to a counter vector (layout ``C_*``/``H_*`` of
:mod:`belote_sim.kernels.layout`); :func:`accumulate_match` adds one match's result;
:func:`fill_row` writes the deal's row of the optional per-deal dataset.
"""

from __future__ import annotations

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.kernels.bits import popcount
from belote_sim.kernels.layout import (
    BELOTE,
    BELOTE_SEAT,
    BID_ROUND,
    C_ANY_DECLARATION,
    C_BELOTE,
    C_CAPOT_DEFENDERS,
    C_CAPOT_TAKERS,
    C_CARRE_9,
    C_CARRE_J,
    C_CARRE_OTHER,
    C_DEALS,
    C_DECL_DEFENDERS,
    C_DECL_TAKERS,
    C_DEDANS,
    C_DEDANS_POS,
    C_DEDANS_ROUND,
    C_FIRST_DEAL_DECIDED,
    C_FIRST_DEAL_WINNER_WINS,
    C_FIRST_DEALER_SIDE_WINS,
    C_LITIGE,
    C_MADE,
    C_MADE_BY_DECLARATIONS,
    C_MATCH_UNFINISHED,
    C_MATCH_WINS,
    C_MATCHES,
    C_MULTIPLIER_CONTRACTS,
    C_MULTIPLIER_MADE,
    C_QUARTE,
    C_QUINTE,
    C_RETOURNE_DEALS,
    C_RETOURNE_TAKEN,
    C_RETOURNE_TAKEN_R1,
    C_SQ_POSITION_SCORE,
    C_STRAIN_CONTRACTS,
    C_STRAIN_MADE,
    C_SUM_DECL_POINTS,
    C_SUM_DEFENDER_SCORE,
    C_SUM_MATCH_DEALS,
    C_SUM_POSITION_SCORE,
    C_SUM_TAKER_CARD_POINTS,
    C_SUM_TAKER_SCORE,
    C_TAKEN_POS,
    C_TAKEN_ROUND,
    C_THROWN_IN,
    C_TIE,
    C_TIERCE,
    C_TRUMP_DEDANS,
    C_TRUMP_PLAYED,
    C_TRUMPS_DEDANS,
    C_TRUMPS_PLAYED,
    C_VALUE_CONTRACTS,
    C_VALUE_MADE,
    CAPOT_SIDE,
    CARD_POINTS,
    CONTRACT_STRAIN,
    CONTRACT_VALUE,
    DEAL_SCORE,
    DEALER,
    DEALT,
    DECL_KINDS,
    DECL_POINTS,
    DECL_WINNER_SEAT,
    DEFENDER_DEAL_SCORE,
    H_DECL_POINTS,
    H_DEFENDER_SCORE,
    H_MATCH_DEALS,
    H_TAKER_CARD_POINTS,
    H_TAKER_SCORE,
    HANDS,
    HIST_POINTS,
    HIST_SCORE,
    HOLD_CARRE_9,
    HOLD_CARRE_J,
    HOLD_CARRE_OTHER,
    HOLD_QUARTE,
    HOLD_QUINTE,
    HOLD_TIERCE,
    MATCH_DRAW,
    MAX_MATCH_DEALS,
    MAX_SEATS,
    MULTIPLIER,
    OUT_DEDANS,
    OUT_LITIGE,
    OUT_MADE,
    OUT_TIE,
    OUTCOME,
    POT,
    RETOURNE,
    ROW_BELOTE,
    ROW_CAPOT_SIDE,
    ROW_CARD_POINTS,
    ROW_DEAL,
    ROW_DEAL_SCORE,
    ROW_DEALER,
    ROW_DECL_WINNER_SEAT,
    ROW_DECLARATIONS,
    ROW_HAND,
    ROW_OUTCOME,
    ROW_POT,
    ROW_RETOURNE,
    ROW_ROUND,
    ROW_SCORE_DEFENDERS,
    ROW_SCORE_TAKERS,
    ROW_TAKER,
    ROW_TAKER_TRUMPS,
    ROW_THROWN_IN,
    ROW_TRUMP,
    SCORE_DEFENDERS,
    SCORE_TAKERS,
    TAKER,
    TAKER_CARD_POINTS,
    TAKER_DEAL_SCORE,
    THROWN_IN,
    TRUMP,
)
from belote_sim.kernels.scoring import coinche_made
from belote_sim.kernels.trick import seat_after, side_of
from belote_sim.rules import (
    CONTRACT_COINCHE,
    COUNTS_CARDS,
    R_CAPOT_VALUE,
    R_CONTRACT,
    R_CONTRACT_COUNTS,
    R_PLAYERS,
    R_TIE_RULE,
    TIE_TAKERS,
)


@jit(inline="always")
def _add(c, sum_slot, value):
    """Add ``value`` to a sum and its square to the next slot (for standard errors)."""
    c[sum_slot] += value
    c[sum_slot + 1] += value * value


@jit(inline="always")
def _hist(c, base, bins, value):
    c[base + min(max(value, 0), bins - 1)] += 1


@jit_no_refcount
def taker_trumps(rec):
    """Trumps the taker holds at the first trick (all 8 of a suit at most; AT: every card)."""
    trump = rec[TRUMP]
    hand = rec[HANDS + rec[TAKER]]
    if trump < 4:
        return popcount((hand >> (8 * trump)) & 0xFF)
    return popcount(hand) if trump == 4 else 0


@jit_no_refcount
def accumulate(rules, rec, c):
    """Add one deal's record to the counters ``c``."""
    n = rules[R_PLAYERS]
    c[C_DEALS] += 1
    rank = rec[RETOURNE] & 7
    has_retourne = rec[RETOURNE] >= 0  # coinche deals have none
    if has_retourne:
        c[C_RETOURNE_DEALS + rank] += 1
    if rec[THROWN_IN] != 0:
        c[C_THROWN_IN] += 1
        return
    rnd = rec[BID_ROUND]
    pos = seat_after(rec[TAKER], n - 1 - rec[DEALER], n)  # from the first hand; no division
    c[C_TAKEN_ROUND + rnd] += 1
    c[C_TAKEN_POS + pos] += 1
    if has_retourne:
        c[C_RETOURNE_TAKEN + rank] += 1
        if rnd == 1:
            c[C_RETOURNE_TAKEN_R1 + rank] += 1
    n_trumps = min(taker_trumps(rec), 9)
    c[C_TRUMPS_PLAYED + n_trumps] += 1
    out = rec[OUTCOME]
    trump = rec[TRUMP]
    c[C_TRUMP_PLAYED + trump] += 1
    if out == OUT_DEDANS:
        c[C_TRUMP_DEDANS + trump] += 1
    if rules[R_CONTRACT] == CONTRACT_COINCHE:
        value = rec[CONTRACT_VALUE]
        v = 9 if value > 160 else (value - 80) // 10
        m = 0 if rec[MULTIPLIER] == 1 else (1 if rec[MULTIPLIER] == 2 else 2)
        c[C_STRAIN_CONTRACTS + rec[CONTRACT_STRAIN]] += 1
        c[C_VALUE_CONTRACTS + v] += 1
        c[C_MULTIPLIER_CONTRACTS + m] += 1
        if out == OUT_MADE:
            c[C_STRAIN_MADE + rec[CONTRACT_STRAIN]] += 1
            c[C_VALUE_MADE + v] += 1
            c[C_MULTIPLIER_MADE + m] += 1
    if n == 3:
        for s in range(n):
            p = seat_after(s, n - 1 - rec[DEALER], n)
            c[C_SUM_POSITION_SCORE + p] += rec[DEAL_SCORE + s]
            c[C_SQ_POSITION_SCORE + p] += rec[DEAL_SCORE + s] * rec[DEAL_SCORE + s]
    if out == OUT_MADE:
        c[C_MADE] += 1
    elif out == OUT_DEDANS:
        c[C_DEDANS] += 1
        c[C_DEDANS_ROUND + rnd] += 1
        c[C_DEDANS_POS + pos] += 1
        c[C_TRUMPS_DEDANS + n_trumps] += 1
    elif out == OUT_TIE:
        c[C_TIE] += 1
    elif out == OUT_LITIGE:
        c[C_LITIGE] += 1
    t = side_of(rec[TAKER], n, rec[TAKER])
    if rec[CAPOT_SIDE] == t:
        c[C_CAPOT_TAKERS] += 1
    elif rec[CAPOT_SIDE] >= 0:
        c[C_CAPOT_DEFENDERS] += 1
    kinds = 0
    for s in range(n):
        kinds |= rec[DECL_KINDS + s]
    if kinds != 0:
        c[C_ANY_DECLARATION] += 1
    if kinds & HOLD_TIERCE:
        c[C_TIERCE] += 1
    if kinds & HOLD_QUARTE:
        c[C_QUARTE] += 1
    if kinds & HOLD_QUINTE:
        c[C_QUINTE] += 1
    if kinds & HOLD_CARRE_J:
        c[C_CARRE_J] += 1
    if kinds & HOLD_CARRE_9:
        c[C_CARRE_9] += 1
    if kinds & HOLD_CARRE_OTHER:
        c[C_CARRE_OTHER] += 1
    if rec[BELOTE_SEAT] >= 0:
        c[C_BELOTE] += 1
    decl = 0
    for s in range(n):
        decl += rec[DECL_POINTS + s]
    d_t = 0
    w = rec[DECL_WINNER_SEAT]
    if w >= 0:
        if side_of(w, n, rec[TAKER]) == t:
            c[C_DECL_TAKERS] += 1
            d_t = decl
        else:
            c[C_DECL_DEFENDERS] += 1
    if out == OUT_MADE and decl > 0 and rules[R_CONTRACT_COUNTS] != COUNTS_CARDS:
        # Would the contract stand on card points and belote alone?
        bare_t = rec[SCORE_TAKERS] - d_t
        bare_e = rec[SCORE_DEFENDERS] - (decl - d_t)
        if rules[R_CONTRACT] == CONTRACT_COINCHE:
            # a made capot bid took every trick
            value = rec[CONTRACT_VALUE]
            made_bare = coinche_made(rules, value, value == rules[R_CAPOT_VALUE], True,
                                     bare_t, bare_e)
        else:
            made_bare = bare_t > bare_e or (bare_t == bare_e and rules[R_TIE_RULE] == TIE_TAKERS)
        if not made_bare:
            c[C_MADE_BY_DECLARATIONS] += 1
    _add(c, C_SUM_TAKER_CARD_POINTS, rec[TAKER_CARD_POINTS])
    _add(c, C_SUM_TAKER_SCORE, rec[TAKER_DEAL_SCORE])
    _add(c, C_SUM_DEFENDER_SCORE, rec[DEFENDER_DEAL_SCORE])
    _add(c, C_SUM_DECL_POINTS, decl)
    _hist(c, H_TAKER_CARD_POINTS, HIST_POINTS, rec[TAKER_CARD_POINTS])
    _hist(c, H_TAKER_SCORE, HIST_SCORE, rec[TAKER_DEAL_SCORE])
    _hist(c, H_DEFENDER_SCORE, HIST_SCORE, rec[DEFENDER_DEAL_SCORE])
    _hist(c, H_DECL_POINTS, HIST_SCORE, decl)


@jit
def accumulate_match(c, n_deals, winner, first_dealer_side, first_deal_winner):
    """Add one match: ``winner`` is a side (a seat with three players), ``MATCH_DRAW``,
    or -1 unfinished; ``first_deal_winner`` the side that scored most in the first played
    deal, or -1."""
    c[C_MATCHES] += 1
    _add(c, C_SUM_MATCH_DEALS, n_deals)
    _hist(c, H_MATCH_DEALS, MAX_MATCH_DEALS + 1, n_deals)
    if winner < 0:
        c[C_MATCH_UNFINISHED] += 1
        return
    c[C_MATCH_WINS + winner] += 1
    if winner == first_dealer_side:
        c[C_FIRST_DEALER_SIDE_WINS] += 1
    if first_deal_winner >= 0 and winner != MATCH_DRAW:
        c[C_FIRST_DEAL_DECIDED] += 1
        if winner == first_deal_winner:
            c[C_FIRST_DEAL_WINNER_WINS] += 1


@jit_no_refcount
def fill_row(rules, rec, deal, row):
    """Write the per-deal row (the ``ROW_*`` offsets of ``ROW_SCHEMA``) of deal ``deal``."""
    n = rules[R_PLAYERS]
    thrown = rec[THROWN_IN] != 0
    row[ROW_DEAL] = deal
    row[ROW_DEALER] = rec[DEALER]
    for s in range(MAX_SEATS):
        row[ROW_HAND + s] = 0 if s >= n else (rec[DEALT + s] if thrown else rec[HANDS + s])
    row[ROW_RETOURNE] = rec[RETOURNE]
    row[ROW_THROWN_IN] = rec[THROWN_IN]
    row[ROW_TRUMP] = rec[TRUMP]
    row[ROW_TAKER] = rec[TAKER]
    row[ROW_ROUND] = rec[BID_ROUND]
    row[ROW_TAKER_TRUMPS] = -1 if thrown else taker_trumps(rec)
    for j in range(3):
        row[ROW_CARD_POINTS + j] = rec[CARD_POINTS + j]
        row[ROW_DECLARATIONS + j] = rec[DECL_POINTS + j]
        row[ROW_BELOTE + j] = rec[BELOTE + j]
        row[ROW_DEAL_SCORE + j] = rec[DEAL_SCORE + j]
    row[ROW_DECL_WINNER_SEAT] = rec[DECL_WINNER_SEAT]
    row[ROW_CAPOT_SIDE] = rec[CAPOT_SIDE]
    row[ROW_OUTCOME] = rec[OUTCOME]
    row[ROW_SCORE_TAKERS] = rec[SCORE_TAKERS]
    row[ROW_SCORE_DEFENDERS] = rec[SCORE_DEFENDERS]
    row[ROW_POT] = rec[POT]
