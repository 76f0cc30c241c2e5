"""Scoring a deal (RULES.md section 8), every game: success, dedans, capot, tie rules,
litige pot (retourne and stock games, the three-player game), the no-contract games, and
the coinche contract."""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import CAPOT_BONUS, LAST_TRICK_BONUS, N_CARDS, POINTS, SCALED_TOTAL
from belote_sim.kernels.layout import (
    BELOTE,
    BID_VALUES,
    CAPOT_SIDE,
    CARD_POINTS,
    CONTRACT_VALUE,
    DEAL_SCORE,
    DECL_POINTS,
    DEFENDER_DEAL_SCORE,
    MULTIPLIER,
    OUT_DEDANS,
    OUT_LITIGE,
    OUT_MADE,
    OUT_TIE,
    OUTCOME,
    POT,
    POT_BEFORE,
    POT_WON_BY,
    SCORE_DEFENDERS,
    SCORE_TAKERS,
    SEAT_POINTS,
    TAKER_CARD_POINTS,
    TAKER_DEAL_SCORE,
    TOTAL_POINTS,
    TRICK_POINTS,
)
from belote_sim.rules import (
    CAPOT_BID_FLAT,
    COUNTS_CARDS,
    MULTIPLIES_ALL,
    MULTIPLIES_BASE,
    R_BEAT_DEFENCE,
    R_BELOTE_PRENABLE,
    R_CAPOT_BID,
    R_CAPOT_TOTAL,
    R_COINCHE_BASE,
    R_COINCHE_MULTIPLIES,
    R_COINCHE_SCORING,
    R_CONTRACT_COUNTS,
    R_EIGHTY_NEEDS,
    R_KING_VALUE,
    R_NT_VALUES,
    R_ROUND_TO_TEN,
    R_ROUND_UP_FROM,
    R_TIE_RULE,
    SCORING_BID,
    SCORING_POINTS,
    SCORING_POINTS_BID,
    TIE_LITIGE,
    TIE_SPLIT,
    TIE_TAKERS,
)


def _deal_totals() -> np.ndarray:
    """``TOTALS[king10, nt_ace19, trump]``: all card points of a deal, last trick included."""
    out = np.zeros((2, 2, 6), dtype=np.int64)
    for k in range(2):
        for a in range(2):
            for t in range(6):
                out[k, a, t] = POINTS[k, a, t, :N_CARDS].sum() + LAST_TRICK_BONUS[a, t]
    return out


TOTALS = _deal_totals()


@jit_no_refcount
def deal_total(rules, trump):
    """All the card points of a deal of ``trump`` under ``rules`` (last trick included,
    no capot): 162, 258 or 260 (:data:`TOTALS`)."""
    k10 = 1 if rules[R_KING_VALUE] == 10 else 0
    return TOTALS[k10, rules[R_NT_VALUES], trump]


@jit(inline="always")
def capot_bonus(rules):
    """The capot bonus ``K = capot_total - 162`` (RULES 8): 90, 88 or 0."""
    return rules[R_CAPOT_TOTAL] - SCALED_TOTAL


@jit(inline="always")
def record_side_points(rec, T, E):
    """``S = C + D + B`` of the takers' side ``T`` and the defenders' ``E`` (RULES 8) from
    the record's card points, declarations and belote; written as ``S_T``/``S_E`` with
    the takers' card points, and no pot yet. Returns ``(S_T, S_E)``."""
    s_t = rec[CARD_POINTS + T] + rec[DECL_POINTS + T] + rec[BELOTE + T]
    s_e = rec[CARD_POINTS + E] + rec[DECL_POINTS + E] + rec[BELOTE + E]
    rec[SCORE_TAKERS] = s_t
    rec[SCORE_DEFENDERS] = s_e
    rec[TAKER_CARD_POINTS] = rec[CARD_POINTS + T]
    rec[POT] = 0
    rec[POT_WON_BY] = -1
    return s_t, s_e


@jit(inline="always")
def counted(rules, s, c):
    """A side's counted points ``Q`` for the contract test (RULES 8): its ``S``, or its
    card points ``C`` alone with ``contract_counts = cards``."""
    return c if rules[R_CONTRACT_COUNTS] == COUNTS_CARDS else s


@jit_no_refcount
def score_two_sides(rec, taker_side, rules):
    """Score a deal between two sides from the record's trick points, capot, contest and
    belote fields; write card points, ``S_T``/``S_E``, outcome, pot and deal scores.

    Kernel of :func:`belote_sim.kernels.api.score_deal`; naive reference in
    ``tests/reference/rules_ref.py``.
    """
    T = taker_side
    E = 1 - T
    tie_rule = rules[R_TIE_RULE]
    k = capot_bonus(rules)
    total = rec[TOTAL_POINTS]
    capot = rec[CAPOT_SIDE]
    for s in range(2):
        rec[CARD_POINTS + s] = rec[TRICK_POINTS + s] + (k if capot == s else 0)
    s_t, s_e = record_side_points(rec, T, E)
    q_t = counted(rules, s_t, rec[CARD_POINTS + T])
    q_e = counted(rules, s_e, rec[CARD_POINTS + E])
    pot_before = rec[POT_BEFORE]
    if q_t > q_e or (q_t == q_e and tie_rule == TIE_TAKERS):
        rec[OUTCOME] = OUT_MADE
        rec[DEAL_SCORE + T] = s_t
        rec[DEAL_SCORE + E] = s_e
        winner = T
    elif q_t == q_e and tie_rule == TIE_SPLIT:
        rec[OUTCOME] = OUT_TIE
        rec[DEAL_SCORE + T] = s_t
        rec[DEAL_SCORE + E] = s_e
        winner = -1
    elif q_t == q_e and tie_rule == TIE_LITIGE:
        rec[OUTCOME] = OUT_LITIGE
        rec[DEAL_SCORE + T] = rec[BELOTE + T]
        rec[DEAL_SCORE + E] = s_e
        rec[POT] = s_t - rec[BELOTE + T]
        winner = -1
    else:
        # Dedans (a tie too under tie_rule = defenders): the defenders take every card
        # point (+K only for their own capot), the declarations that won the contest,
        # and their belote.
        rec[OUTCOME] = OUT_DEDANS
        rec[DEAL_SCORE + E] = (
            total
            + (k if capot == E else 0)
            + rec[DECL_POINTS + T]
            + rec[DECL_POINTS + E]
            + rec[BELOTE + E]
        )
        rec[DEAL_SCORE + T] = rec[BELOTE + T]
        winner = E
    if winner >= 0 and pot_before > 0:
        rec[DEAL_SCORE + winner] += pot_before
        rec[POT_WON_BY] = winner
    rec[TAKER_DEAL_SCORE] = rec[DEAL_SCORE + T]
    rec[DEFENDER_DEAL_SCORE] = rec[DEAL_SCORE + E]


@jit_no_refcount
def score_no_contract(rec, taker_side):
    """No-contract games (RULES 8): each side scores its own ``C + D + B``; a capot
    replaces the last trick's 10 by 100. Outcome ``dedans`` when the taker's side scores
    less than the other (statistics only), else ``made``."""
    T = taker_side
    E = 1 - T
    capot = rec[CAPOT_SIDE]
    for s in range(2):
        rec[CARD_POINTS + s] = rec[TRICK_POINTS + s] + (CAPOT_BONUS if capot == s else 0)
        rec[DEAL_SCORE + s] = rec[CARD_POINTS + s] + rec[DECL_POINTS + s] + rec[BELOTE + s]
    rec[SCORE_TAKERS] = rec[DEAL_SCORE + T]
    rec[SCORE_DEFENDERS] = rec[DEAL_SCORE + E]
    rec[OUTCOME] = OUT_DEDANS if rec[SCORE_TAKERS] < rec[SCORE_DEFENDERS] else OUT_MADE
    rec[POT] = 0
    rec[POT_WON_BY] = -1
    rec[TAKER_CARD_POINTS] = rec[CARD_POINTS + T]
    rec[TAKER_DEAL_SCORE] = rec[DEAL_SCORE + T]
    rec[DEFENDER_DEAL_SCORE] = rec[DEAL_SCORE + E]


@jit_no_refcount
def score_three_player(rec, taker, rules):
    """Three players (RULES 8): the taker alone against two defenders, every figure per
    seat. ``SEAT_POINTS``, ``DECL_POINTS`` (per seat, of the side that won the contest)
    and ``BELOTE`` (per seat) must be filled; writes ``CARD_POINTS`` and ``DEAL_SCORE``
    per seat, ``S_T``, ``S_E`` and the outcome."""
    tie_rule = rules[R_TIE_RULE]
    k = capot_bonus(rules)
    capot = rec[CAPOT_SIDE]  # side 0 = the taker, 1 = the defenders
    s_t = 0
    s_e = 0
    c_t = 0
    c_e = 0
    for s in range(3):
        c = rec[SEAT_POINTS + s]
        if s == taker and capot == 0:
            c += k
        elif s != taker and capot == 1:
            c += k // 2
        rec[CARD_POINTS + s] = c
        own = c + rec[DECL_POINTS + s] + rec[BELOTE + s]
        rec[DEAL_SCORE + s] = own
        if s == taker:
            s_t = own
            c_t = c
        else:
            s_e += own
            c_e += c
    rec[SCORE_TAKERS] = s_t
    rec[SCORE_DEFENDERS] = s_e
    rec[POT] = 0
    rec[POT_WON_BY] = -1
    rec[TAKER_CARD_POINTS] = rec[CARD_POINTS + taker]
    q_t = counted(rules, s_t, c_t)
    q_e = counted(rules, s_e, c_e)
    if q_t > q_e or (q_t == q_e and tie_rule == TIE_TAKERS):
        rec[OUTCOME] = OUT_MADE
    elif q_t == q_e and tie_rule == TIE_SPLIT:
        rec[OUTCOME] = OUT_TIE
    else:
        rec[OUTCOME] = OUT_DEDANS
        # Each defender adds half (halves up) of the taker's card points (no capot bonus:
        # a failed contract never earns it) and declarations; the taker keeps its belote.
        half = (rec[SEAT_POINTS + taker] + rec[DECL_POINTS + taker] + 1) // 2
        for s in range(3):
            if s == taker:
                rec[DEAL_SCORE + s] = rec[BELOTE + s]
            else:
                rec[DEAL_SCORE + s] += half
    rec[TAKER_DEAL_SCORE] = rec[DEAL_SCORE + taker]
    d = 0
    for s in range(3):
        if s != taker:
            d += rec[DEAL_SCORE + s]
    rec[DEFENDER_DEAL_SCORE] = d


#: The lump of a flat capot bid (``capot_bid = flat``, RULES 8, Coinche), times ``m``.
FLAT_CAPOT = 500


@jit(inline="always")
def round_to_ten(x, up_from):
    """Nearest multiple of ten: a last digit of ``up_from`` (5 or 6) or more rounds up
    (RULES 8, Coinche; ``round_up_from``)."""
    return (x + 10 - up_from) // 10 * 10


@jit(inline="always")
def scale_to_162(points, total):
    """``round(points * 162 / total)``, halves up (RULES 7.4 step 4)."""
    return (2 * SCALED_TOTAL * points + total) // (2 * total)


@jit(inline="always")
def lump(rules, value, m, base, capot_bid):
    """``P``, the lump a coinche deal's winner scores when it is not scored as a made
    contract (RULES 8, Coinche): 500·m for a flat capot bid, else ``base`` and the bid
    ``value`` as ``coinche_multiplies`` (and ``coinche_scoring = points``) combine them
    with ``m``."""
    if capot_bid and rules[R_CAPOT_BID] == CAPOT_BID_FLAT:
        return FLAT_CAPOT * m
    multiplies = rules[R_COINCHE_MULTIPLIES]
    if rules[R_COINCHE_SCORING] == SCORING_POINTS:
        return base * m
    if multiplies == MULTIPLIES_ALL:
        return (base + value) * m
    if multiplies == MULTIPLIES_BASE:
        return base * m + value
    return base + value * m


@jit(inline="always")
def coinche_made(rules, value, capot_bid, takers_capot, q_t, q_e):
    """Whether a coinche contract of ``value`` is made (RULES 7.4 step 3): a capot bid
    when the takers took every trick, any other bid when their counted points ``q_t``
    reach it (82 for a bid of 80 with ``eighty_needs = 82``); with ``beat_defence`` also
    ``q_t > q_e``."""
    if capot_bid:
        made = takers_capot
    else:
        made = q_t >= (rules[R_EIGHTY_NEEDS] if value == BID_VALUES[0] else value)
    return made and (rules[R_BEAT_DEFENCE] == 0 or q_t > q_e)


@jit
def score_coinche(rec, taker_side, scale, capot_bid, rules):
    """Score a coinche contract (RULES 7.4 steps 3-4 and 8, Coinche) from the record's
    trick points, capot, contest, belote, ``CONTRACT_VALUE``, ``MULTIPLIER`` and
    ``TOTAL_POINTS``; write card points (scaled to 162 when ``scale``: all-trumps, and
    no-trumps with ``nt_values = doubled``), ``S_T``/``S_E``, the outcome and the deal
    scores. ``capot_bid``: the contract is a capot bid. Every club dispute of section 9
    is read from ``rules``."""
    T = taker_side
    E = 1 - T
    value = rec[CONTRACT_VALUE]
    m = rec[MULTIPLIER]
    capot = rec[CAPOT_SIDE]
    k = capot_bonus(rules)
    if scale:
        total = rec[TOTAL_POINTS]
        c_t = scale_to_162(rec[TRICK_POINTS + T], total)
        rec[CARD_POINTS + T] = c_t
        rec[CARD_POINTS + E] = SCALED_TOTAL - c_t
    else:
        for s in range(2):
            rec[CARD_POINTS + s] = rec[TRICK_POINTS + s]
    if capot >= 0:
        rec[CARD_POINTS + capot] += k
    s_t, s_e = record_side_points(rec, T, E)
    q_t = counted(rules, s_t, rec[CARD_POINTS + T])
    q_e = counted(rules, s_e, rec[CARD_POINTS + E])
    made = coinche_made(rules, value, capot_bid, capot == T, q_t, q_e)
    rec[OUTCOME] = OUT_MADE if made else OUT_DEDANS
    W = T if made else E
    L = 1 - W
    scoring = rules[R_COINCHE_SCORING]
    if scoring == SCORING_BID:
        d_w = value * m
        d_l = 0
    elif made and m == 1 and not (capot_bid and rules[R_CAPOT_BID] == CAPOT_BID_FLAT):
        d_w = s_t + (value if scoring == SCORING_POINTS_BID else 0)
        d_l = s_e
    else:
        base = rules[R_COINCHE_BASE]
        if base == SCALED_TOTAL and made and capot == T:
            base += k
        # A made contract's winner keeps its own declarations; a failed one's takes the
        # contest's, whichever side won it. Belote is never multiplied.
        d_w = lump(rules, value, m, base, capot_bid) + (
            rec[DECL_POINTS + T] if made else rec[DECL_POINTS + T] + rec[DECL_POINTS + E]
        )
        if rules[R_BELOTE_PRENABLE] != 0:
            d_w += rec[BELOTE + T] + rec[BELOTE + E]
            d_l = 0
        else:
            d_w += rec[BELOTE + W]
            d_l = rec[BELOTE + L]
    if rules[R_ROUND_TO_TEN] != 0:
        up_from = rules[R_ROUND_UP_FROM]
        d_w = round_to_ten(d_w, up_from)
        d_l = round_to_ten(d_l, up_from)
    rec[DEAL_SCORE + W] = d_w
    rec[DEAL_SCORE + L] = d_l
    rec[TAKER_DEAL_SCORE] = rec[DEAL_SCORE + T]
    rec[DEFENDER_DEAL_SCORE] = rec[DEAL_SCORE + E]
