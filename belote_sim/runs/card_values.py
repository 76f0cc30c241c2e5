"""Card values: what holding a card is worth to the taker's side, in deal-score points.

The library side of ``belote-sim card-values``. In simulated deals that end in a suit
contract, every card the taker holds at the first trick (but the retourne, which names
trump) is swapped with a card drawn uniformly from the defenders' hands, and the deal is
played again with the same calls; the value of the card is the paired difference of the
takers' (own minus opponents') deal score, as dealt minus after the swap
(:func:`belote_sim.game.strength.card_values_chunk`). Cards are grouped by role: the
trump jack, nine, ace ... and a side ace, ten, king ... (any side suit).

The table (:func:`card_values`): metric ``card_value`` (points, with its 95% interval),
``p_made_as_dealt`` and ``p_made_swapped``, groups ``model=M card=trump J``.

>>> df = card_values("classic", deals=400, seed=1)
>>> jack = df[(df.metric == "card_value") & (df.group == "model=heuristic card=trump J")]
>>> bool(jack.value.iloc[0] > 0)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from belote_sim.cards import RANKS
from belote_sim.game import strength as K
from belote_sim.players.spec import PolicySpec, as_spec, check_policies
from belote_sim.players.table_bidder import lookup_for
from belote_sim.rules import Rules
from belote_sim.runs.io import summary_frame, write_parquet
from belote_sim.runs.stats import mean_interval, wilson_interval
from belote_sim.runs.strength import (
    check_out_dir,
    check_refused,
    play_in_chunks,
    play_models,
    players_table,
    provenance,
    rules_of,
    uses_solver,
    whole_number,
)

#: The role of each counter row, in the order of the kernel's roles.
ROLES = tuple(f"trump {r}" for r in RANKS) + tuple(f"side {r}" for r in RANKS)
CHUNK_FAST = 1_000
CHUNK_SOLVER = 4


def card_values(
    rules: Rules | str,
    deals: int = 20_000,
    *,
    seed: int = 0,
    bid_policy: str | PolicySpec = "threshold",
    models: str | Iterable[str | PolicySpec] = ("heuristic",),
    threads: int | None = None,
    out: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> pd.DataFrame:
    """The card-value table of ``deals`` simulated deals (see the module docstring),
    provenance in ``df.attrs``, written to ``out/summary.parquet`` when ``out`` is
    given. A pure function of (rules, policies, seed, deals) whatever ``threads``.

    :raises BeloteError: bad rules, counts, policies, models or ``out`` (before any deal
        is played); :class:`~belote_sim.runs.runner.RunInterrupted` when ``should_stop()``
        turns true (nothing is written).
    """
    rules = rules_of(rules)
    deals = whole_number("deals", deals, 1, 10**12)
    seed = whole_number("seed", seed, 0, 2**63 - 1)
    if threads is not None:
        threads = whole_number("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    bid = as_spec(bid_policy, "bid")
    check_policies(rules, bid)
    specs = play_models(models)
    out_dir = check_out_dir(out)
    table = players_table(bid, specs)
    lookup = lookup_for(bid.id)
    rules_arr = rules.to_array()
    counters = np.zeros((len(specs), K.N_ROLES, K.N_CV), dtype=np.int64)

    def play(start: int, count: int, n_blocks: int) -> None:
        c, refused = K.card_values_chunk(rules_arr, table, *lookup, seed, start, count, n_blocks)
        check_refused(int(refused))
        counters[:] += c

    run = play_in_chunks(deals, CHUNK_SOLVER if uses_solver(bid, specs) else CHUNK_FAST,
                         "deals", play, threads, progress, should_stop)
    rows = []
    for m, spec in enumerate(specs):
        for role, name in enumerate(ROLES):
            x = counters[m, role]
            n = int(x[K.CV_N])
            if n == 0:
                continue
            group = f"model={spec} card={name}"
            mean, _, low, high = mean_interval(int(x[K.CV_VALUE2]), int(x[K.CV_VALUE2_SQ]), n)
            rows.append(("card_value", group, n, None, mean / 2, low / 2, high / 2))
            for metric, slot in (("p_made_as_dealt", K.CV_MADE),
                                 ("p_made_swapped", K.CV_MADE_SWAPPED)):
                k = int(x[slot])
                lo, hi = wilson_interval(k, n)
                rows.append((metric, group, n, k, k / n, lo, hi))
    df = summary_frame(rows)
    df.attrs["provenance"] = provenance(
        "card-values", {"rules": {"preset": rules.preset, "options": rules.options()}}, seed,
        bid, specs, run, "deals", deals,
    )
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_parquet(df, out_dir / "summary.parquet", df.attrs["provenance"])
    return df


def value_table(df: pd.DataFrame) -> pd.DataFrame:
    """The card values side by side: one row per card role, per model the value and its
    interval."""
    values = df[df.metric == "card_value"]
    parts = values.group.str.extract(r"model=(?P<model>\S+) card=(?P<card>.+)")
    values = values.assign(model=parts.model, card=parts.card)
    wide = values.pivot_table(index="card", columns="model",
                              values=["n", "value", "ci_low", "ci_high"], sort=False)
    return wide.swaplevel(axis=1).sort_index(axis=1, level=0, sort_remaining=False)
