"""Card values: what holding a card is worth to the taker's side, in deal-score points.

The library side of ``belote-sim card-values``. In simulated deals that end in a suit
contract, every card the taker holds at the first trick (but the retourne, which names
trump) is swapped with a card drawn uniformly from the defenders' hands, and the deal is
played again with the same calls; the value of the card is the paired difference of the
takers' (own minus opponents') deal score, as dealt minus after the swap
(:func:`belote_sim.batch.counterfactuals.card_values_chunk`). Cards are grouped by role: the
trump jack, nine, ace ... and a side ace, ten, king ... (any side suit).

The table (:func:`card_values`): metric ``card_value`` (points, with its 95% interval),
``p_made_as_dealt`` and ``p_made_swapped``, groups ``model=M card=trump J``.

>>> df = card_values("classic", deals=400, seed=1)
>>> jack = df[(df.metric == "card_value") & (df.group == "model=heuristic card=trump J")]
>>> bool(jack.value.iloc[0] > 0)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.batch import counterfactuals
from belote_sim.cards import RANKS
from belote_sim.players.spec import PolicySpec
from belote_sim.rules import Rules
from belote_sim.runner.executors import Chunk, ChunkResult
from belote_sim.runner.jobs import RunOptions, check_run_args, execute
from belote_sim.runner.rundir import summary_frame
from belote_sim.stats import mean_interval, wilson_interval
from belote_sim.studies.playouts import (
    DealsPlayoutJob,
    PlayoutSetup,
    check_refused,
    finish,
    playout_setup,
    provenance,
)
from belote_sim.studies.simulate import DEFAULT_BID_POLICY

#: Default number of simulated deals of a card-value table.
CARD_VALUE_DEALS = 20_000
#: The role of each counter row, in the order of the kernel's roles.
ROLES = tuple(f"trump {r}" for r in RANKS) + tuple(f"side {r}" for r in RANKS)
#: Deals per chunk (one progress step, one committed file) for the fast models and the
#: solver models.
CHUNK_FAST = 2_000
CHUNK_SOLVER = 8


@dataclass(frozen=True)
class CardValuesTask:
    """A chunk of deals of card values: their counters ``int64[M, N_ROLES, N_CV]``."""

    chunk: Chunk
    threads: int | None
    setup: PlayoutSetup

    def play(self, blocks: int) -> ChunkResult:
        c, s = self.chunk, self.setup
        counters, refused = counterfactuals.card_values_chunk(s.rules.to_array(), s.players_table(),
                                                *s.lookup(), s.seed, c.start, c.count, blocks)
        check_refused(int(refused))
        return ChunkResult(c.index, counters)


@dataclass(frozen=True)
class CardValuesJob(DealsPlayoutJob):
    """Card values over ``deals`` simulated deals."""

    command = "card-values"
    layout = counterfactuals.N_CV
    task_type = CardValuesTask
    merge = staticmethod(np.add)


def card_values(
    rules: Rules | str,
    deals: int = CARD_VALUE_DEALS,
    *,
    seed: int = 0,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    models: str | Iterable[str | PolicySpec] = ("heuristic",),
    run: RunOptions | None = None,
    **options: Any,
) -> pd.DataFrame:
    """The card-value table of ``deals`` simulated deals (see the module docstring),
    provenance in ``df.attrs``. A pure function of (rules, policies, seed, deals)
    whatever the threads, executor or chunk size.

    A run of the chunk runner, played as ``run``
    (:class:`~belote_sim.runner.jobs.RunOptions`, or its fields as keywords) says. With
    ``out`` the chunks are committed there as they finish, and ``summary.parquet`` and
    ``run.json`` written at the end.

    :raises BeloteError: bad rules, counts, policies, models or ``out`` (before any deal
        is played); :class:`~belote_sim.runner.jobs.RunInterrupted` when ``should_stop()``
        turns true.
    """
    run = RunOptions.of(run, **options)
    check_run_args(deals, seed)
    setup = playout_setup(rules, seed=seed, bid_policy=bid_policy, models=models)
    job = CardValuesJob(setup, int(deals),
                        setup.chunk_size(run, CHUNK_FAST, CHUNK_SOLVER))
    ran = execute(job, run)
    counters = ran.counters
    rows = []
    for m, spec in enumerate(setup.models):
        for role, name in enumerate(ROLES):
            x = counters[m, role]
            n = int(x[counterfactuals.CV_N])
            if n == 0:
                continue
            group = f"model={spec} card={name}"
            mean, _, low, high = mean_interval(
                int(x[counterfactuals.CV_VALUE2]), int(x[counterfactuals.CV_VALUE2_SQ]), n
            )
            rows.append(("card_value", group, n, None, mean / 2, low / 2, high / 2))
            for metric, slot in (("p_made_as_dealt", counterfactuals.CV_MADE),
                                 ("p_made_swapped", counterfactuals.CV_MADE_SWAPPED)):
                k = int(x[slot])
                lo, hi = wilson_interval(k, n)
                rows.append((metric, group, n, k, k / n, lo, hi))
    df = summary_frame(rows)
    df.attrs["provenance"] = provenance("card-values", {}, setup, "deals", job.deals, ran)
    finish(ran, job, df, "summary.parquet")
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
