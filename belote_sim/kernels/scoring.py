"""Scoring a deal (RULES.md section 8): success, dedans, capot, tie rules, litige pot."""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.cards import N_CARDS, POINTS
from belote_sim.kernels.layout import (
    BELOTE,
    CAPOT_SIDE,
    CARD_POINTS,
    DEAL_SCORE,
    DECL_POINTS,
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
    TOTAL_POINTS,
    TRICK_POINTS,
)
from belote_sim.rules import TIE_LITIGE, TIE_SPLIT, TIE_TAKERS

CAPOT_BONUS = 90


def _deal_totals() -> np.ndarray:
    """``TOTALS[king10, nt_ace19, trump]``: all card points of a deal, last trick included."""
    out = np.zeros((2, 2, 6), dtype=np.int64)
    for k in range(2):
        for a in range(2):
            for t in range(6):
                out[k, a, t] = POINTS[k, a, t, :N_CARDS].sum() + (20 if t == 5 and a == 0 else 10)
    return out


TOTALS = _deal_totals()


@jit
def score_two_sides(rec, taker_side, tie_rule):
    """Score a deal between two sides from the record's trick points, capot, contest and
    belote fields; write card points, ``S_T``/``S_E``, outcome, pot and deal scores.

    Kernel of :func:`belote_sim.engine.score_deal`; naive reference in ``tests/naive.py``.
    """
    T = taker_side
    E = 1 - T
    total = rec[TOTAL_POINTS]
    capot = rec[CAPOT_SIDE]
    for s in range(2):
        rec[CARD_POINTS + s] = rec[TRICK_POINTS + s] + (CAPOT_BONUS if capot == s else 0)
    s_t = rec[CARD_POINTS + T] + rec[DECL_POINTS + T] + rec[BELOTE + T]
    s_e = rec[CARD_POINTS + E] + rec[DECL_POINTS + E] + rec[BELOTE + E]
    rec[SCORE_TAKERS] = s_t
    rec[SCORE_DEFENDERS] = s_e
    rec[POT] = 0
    rec[POT_WON_BY] = -1
    pot_before = rec[POT_BEFORE]
    if s_t > s_e or (s_t == s_e and tie_rule == TIE_TAKERS):
        rec[OUTCOME] = OUT_MADE
        rec[DEAL_SCORE + T] = s_t
        rec[DEAL_SCORE + E] = s_e
        winner = T
    elif s_t == s_e and tie_rule == TIE_SPLIT:
        rec[OUTCOME] = OUT_TIE
        rec[DEAL_SCORE + T] = s_t
        rec[DEAL_SCORE + E] = s_e
        winner = -1
    elif s_t == s_e and tie_rule == TIE_LITIGE:
        rec[OUTCOME] = OUT_LITIGE
        rec[DEAL_SCORE + T] = rec[BELOTE + T]
        rec[DEAL_SCORE + E] = s_e
        rec[POT] = s_t - rec[BELOTE + T]
        winner = -1
    else:
        # Dedans: the defenders take every card point (+90 only for their own capot),
        # the declarations that won the contest, and their belote.
        rec[OUTCOME] = OUT_DEDANS
        rec[DEAL_SCORE + E] = (
            total
            + (CAPOT_BONUS if capot == E else 0)
            + rec[DECL_POINTS + T]
            + rec[DECL_POINTS + E]
            + rec[BELOTE + E]
        )
        rec[DEAL_SCORE + T] = rec[BELOTE + T]
        winner = E
    if winner >= 0 and pot_before > 0:
        rec[DEAL_SCORE + winner] += pot_before
        rec[POT_WON_BY] = winner
