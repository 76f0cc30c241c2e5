"""Statistics from a run's counters: proportions with Wilson 95% intervals.

>>> from belote_sim.stats import wilson_interval
>>> [round(x, 4) for x in wilson_interval(50, 100)]
[0.4038, 0.5962]
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from belote_sim.kernels import layout as L

Z95 = 1.959963984540054


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (``(nan, nan)`` when ``n == 0``)."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# (metric, successes counter, trials: "deals" or "played")
PROPORTIONS = [
    ("take_rate", None, "deals"),
    ("take_rate_round1", ("round", 1), "deals"),
    ("take_rate_round2", ("round", 2), "deals"),
    ("thrown_in_rate", L.C_THROWN_IN, "deals"),
    ("made_rate", L.C_MADE, "played"),
    ("dedans_rate", L.C_DEDANS, "played"),
    ("tie_rate", L.C_TIE, "played"),
    ("litige_rate", L.C_LITIGE, "played"),
    ("capot_takers_rate", L.C_CAPOT_TAKERS, "played"),
    ("capot_defenders_rate", L.C_CAPOT_DEFENDERS, "played"),
    ("p_any_declaration", L.C_ANY_DECLARATION, "played"),
    ("p_tierce", L.C_TIERCE, "played"),
    ("p_quarte", L.C_QUARTE, "played"),
    ("p_quinte_or_longer", L.C_QUINTE, "played"),
    ("p_carre_jacks", L.C_CARRE_J, "played"),
    ("p_carre_nines", L.C_CARRE_9, "played"),
    ("p_carre_other", L.C_CARRE_OTHER, "played"),
    ("p_belote_held", L.C_BELOTE, "played"),
    ("declarations_won_by_takers", L.C_DECL_TAKERS, "played"),
    ("declarations_won_by_defenders", L.C_DECL_DEFENDERS, "played"),
]
MEANS = [
    ("mean_taker_card_points", L.C_SUM_TAKER_CARD_POINTS),
    ("mean_taker_deal_score", L.C_SUM_TAKER_SCORE),
    ("mean_defender_deal_score", L.C_SUM_DEFENDER_SCORE),
]


def counters_to_dict(counters: np.ndarray) -> dict[str, int]:
    """Named counters (for ``run.json``)."""
    names = {v: k for k, v in vars(L).items() if k.startswith("C_") and isinstance(v, int)}
    out = {}
    for i, value in enumerate(counters):
        if L.C_TAKEN_ROUND <= i < L.C_TAKEN_ROUND + 4:
            if i > L.C_TAKEN_ROUND:  # slot 0 of the block (round 0) is never used
                out[f"taken_round_{i - L.C_TAKEN_ROUND}"] = int(value)
        else:
            out[names[i].lower()[2:]] = int(value)
    return out


def summary_table(counters: np.ndarray) -> pd.DataFrame:
    """The headline figures of a run: one row per metric with ``n``, ``k``, ``value``,
    ``ci_low``, ``ci_high`` (Wilson 95% for proportions; means carry no interval here:
    the runner issue adds standard errors from sums of squares)."""
    c = counters
    deals = int(c[L.C_DEALS])
    played = deals - int(c[L.C_THROWN_IN])
    rows = []
    for metric, idx, base in PROPORTIONS:
        n = deals if base == "deals" else played
        if idx is None:
            k = played
        elif isinstance(idx, tuple):
            k = int(c[L.C_TAKEN_ROUND + idx[1]])
        else:
            k = int(c[idx])
        lo, hi = wilson_interval(k, n)
        rows.append((metric, n, k, k / n if n else math.nan, lo, hi))
    for metric, idx in MEANS:
        rows.append((metric, played, None, c[idx] / played if played else math.nan,
                     math.nan, math.nan))
    return pd.DataFrame(rows, columns=["metric", "n", "k", "value", "ci_low", "ci_high"])
