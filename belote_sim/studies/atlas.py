"""The bid atlas: how often a bid made in a hand class makes, and what it gains over
passing, from every bidding decision met in simulated deals.

The library side of ``belote-sim bid-table``. For each deal (dealt as ``simulate``
deals it, the auction played by the bidding policy) and each of the first calls of its
auction, every candidate call (retourne games: round 1 take, round 2 each suit it may
name, round 3 all-trumps and no-trumps; coinche: the lowest legal bid in each strain)
and the pass are played out from the calls before it, under each play model, from the
same random stream: a counterfactual pair (:func:`belote_sim.batch.counterfactuals.atlas_chunk`).
The pairs are tabulated by hand class (:data:`CLASS_COLUMNS`): the strain the call names
(``retourne suit``, ``other suit``, ``suit`` in coinche, ``AT``, ``NT``), the seat's
holding in it (``J``, ``9``, ``A``, ``T`` and ``KQ`` for belote), how many cards of it
(all-trumps: jacks; no-trumps: aces), side aces and tens, voids, position in the
auction, round and the retourne's rank (retourne games), the bid value (coinche).

Per class and model (:func:`bid_table`'s table): ``n`` decisions, ``take_rate`` (the
bidding policy itself made that call there; in coinche, a bid of any value in that
strain), ``made_rate`` / ``dedans_rate`` /
``capot_rate`` after the call (the seat's side took and made, went dedans, took every
trick), and ``gain`` over passing: the mean paired difference of (own - opponents')
deal score, with its 95% interval. :func:`model_gap` sets the double-dummy figures
beside a realistic model's, class by class.

>>> atlas = bid_table("classic", deals=300, seed=1)
>>> int(atlas.n.sum()) > 300
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.batch import counterfactuals
from belote_sim.batch.class_sums import SUMS, atlas_class_sums, merge_sums
from belote_sim.bid import table_bidder
from belote_sim.cards import RANKS, TRUMP_NAMES
from belote_sim.errors import BeloteError
from belote_sim.players import lookup
from belote_sim.players.spec import PolicySpec
from belote_sim.rules import Rules
from belote_sim.runner.executors import Chunk, ChunkResult
from belote_sim.runner.jobs import RunOptions, check_run_args, execute
from belote_sim.runner.rundir import read_provenance, write_parquet
from belote_sim.stats import Z95
from belote_sim.studies.playouts import (
    DealsPlayoutJob,
    PlayoutSetup,
    check_refused,
    finish,
    playout_setup,
    provenance,
)
from belote_sim.studies.simulate import DEFAULT_BID_POLICY

#: Default number of simulated deals of an atlas.
ATLAS_DEALS = 100_000
#: The columns of a hand class, in the order tables show them.
CLASS_COLUMNS = ("round", "position", "strain", "value", "retourne", "holding", "trumps",
                 "side_aces", "side_tens", "voids")
#: Deals per chunk (one progress step, one committed file) for the fast models, the
#: solver models, and ``dd`` as the only searching model (one exact solve per contract:
#: longer chunks, which the threads' blocks share more evenly). A fast chunk also pays
#: for merging its class sums into the table of every class met so far, a cost per
#: chunk that grows with that table.
CHUNK_FAST = 20_000
CHUNK_SOLVER = 8
CHUNK_DD = 64


def holding_text(bits: int) -> str:
    """The honours of a holding (``AF_HOLDING`` bits) as text: ``J9A`` , ``T+KQ``, ``-``.

    >>> from belote_sim.bid.table_bidder import HOLD_BELOTE, HOLD_JACK, HOLD_NINE
    >>> holding_text(HOLD_JACK | HOLD_NINE | HOLD_BELOTE)
    'J9+KQ'
    """
    text = "".join(
        name
        for bit, name in (
            (table_bidder.HOLD_JACK, "J"),
            (table_bidder.HOLD_NINE, "9"),
            (table_bidder.HOLD_ACE, "A"),
            (table_bidder.HOLD_TEN, "T"),
        )
        if bits & bit
    )
    if bits & table_bidder.HOLD_BELOTE:
        text += "+KQ"
    return text or "-"


#: The columns of a chunk's result, an ``int64`` table of class sums: the model, the
#: class as the kernel codes it (the strain as 0..5, the retourne's rank as 0..7 or -1),
#: then :data:`SUMS`.
KEYS = ("model", *CLASS_COLUMNS)
_KEY_SLOTS = (
    counterfactuals.AF_MODEL,
    counterfactuals.AF_ROUND,
    counterfactuals.AF_POSITION,
    counterfactuals.AF_STRAIN,
    counterfactuals.AF_VALUE,
    counterfactuals.AF_RETOURNE,
    counterfactuals.AF_HOLDING,
    counterfactuals.AF_TRUMPS,
    counterfactuals.AF_SIDE_ACES,
    counterfactuals.AF_SIDE_TENS,
    counterfactuals.AF_VOIDS,
)


def merge_class_sums(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two chunks' class sums as one table (the same whatever the order)."""
    return merge_sums(a, b, len(KEYS))


@dataclass(frozen=True)
class AtlasTask:
    """A chunk of deals of the atlas: the class sums of their decisions."""

    chunk: Chunk
    threads: int | None
    setup: PlayoutSetup

    def play(self, blocks: int) -> ChunkResult:
        c, s = self.chunk, self.setup
        models = counterfactuals.PlayModels(s.players_table(), *s.lookup())
        rows, refused = counterfactuals.atlas_chunk(
            s.rules.to_array(), models, s.seed, c.start, c.count, blocks, s.rules.players == 4
        )
        check_refused(int(refused))
        return ChunkResult(c.index, atlas_class_sums(rows, _KEY_SLOTS))


@dataclass(frozen=True)
class AtlasJob(DealsPlayoutJob):
    """The bid atlas of ``deals`` simulated deals."""

    command = "bid-table"
    layout = counterfactuals.N_AF
    task_type = AtlasTask
    merge = staticmethod(merge_class_sums)


def bid_table(
    rules: Rules | str,
    deals: int = ATLAS_DEALS,
    *,
    seed: int = 0,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    models: str | Iterable[str | PolicySpec] = ("heuristic",),
    run: RunOptions | None = None,
    **options: Any,
) -> pd.DataFrame:
    """The bid atlas of ``deals`` simulated deals (see the module docstring): one row per
    hand class and model, provenance in ``df.attrs``. A pure function of (rules,
    policies, seed, deals) whatever the threads, executor or chunk size.

    A run of the chunk runner, played as ``run``
    (:class:`~belote_sim.runner.jobs.RunOptions`, or its fields as keywords) says. With
    ``out`` the chunks are committed there as they finish (an interrupted run resumes),
    and ``atlas.parquet`` and ``run.json`` written at the end.

    :raises BeloteError: bad rules, counts, policies, models or ``out`` (before any
        deal is played); :class:`~belote_sim.runner.jobs.RunInterrupted` when
        ``should_stop()`` turns true.
    """
    run = RunOptions.of(run, **options)
    check_run_args(deals, seed)
    setup = playout_setup(rules, seed=seed, bid_policy=bid_policy, models=models)
    job = AtlasJob(setup, int(deals),
                   setup.chunk_size(run, CHUNK_FAST, CHUNK_SOLVER, CHUNK_DD))
    ran = execute(job, run)
    sums = pd.DataFrame(ran.counters, columns=[*KEYS, *SUMS])
    atlas = _rates(sums, setup.models, setup.rules.contract == "coinche")
    atlas.attrs["provenance"] = provenance("bid-table", {}, setup, "deals", job.deals, ran)
    finish(ran, job, atlas, "atlas.parquet")
    return atlas


#: The columns :func:`with_rates` derives from an atlas's sums.
RATE_COLUMNS = ("takers_rate", "made_rate", "dedans_rate", "capot_rate", "take_rate", "gain",
                "gain_low", "gain_high")


def _rates(sums: pd.DataFrame, specs: Sequence[PolicySpec], coinche: bool) -> pd.DataFrame:
    """The atlas of the coded class sums: names for the codes (the strains named by
    kind, which pools the suits of one kind), then rates."""
    df = sums.copy()
    strain = df.strain.to_numpy()
    names = np.array(TRUMP_NAMES, dtype=object)
    if coinche:
        kind = np.where(strain < 4, "suit", names[strain])
    else:
        kind = np.where(strain >= 4, names[strain],
                        np.where(df["round"].to_numpy() == 1, "retourne suit", "other suit"))
    df["strain"] = kind
    df = df.groupby(list(KEYS), sort=True)[list(SUMS)].sum().reset_index()
    # Each column holds few distinct codes: name those, not every row.
    df["model"] = df.model.map({m: str(specs[m]) for m in df.model.unique()})
    df["holding"] = df.holding.map({h: holding_text(h) for h in df.holding.unique()})
    df["retourne"] = df.retourne.map({r: "-" if r < 0 else RANKS[r]
                                      for r in df.retourne.unique()})
    df = df.drop(columns=["round", "retourne"] if coinche else ["value"])
    return with_rates(df.reset_index(drop=True))


def with_rates(atlas: pd.DataFrame) -> pd.DataFrame:
    """``atlas`` with its :data:`RATE_COLUMNS` computed from its sums (``n``, ``takers``,
    ``made``, ``dedans``, ``capot``, ``policy_calls``, ``gain2``, ``gain2_sq``)."""
    df = atlas.drop(columns=[c for c in RATE_COLUMNS if c in atlas.columns])
    n = df.n.astype(float)
    for name in ("takers", "made", "dedans", "capot"):
        df[f"{name}_rate"] = df[name] / n
    df["take_rate"] = df.policy_calls / n
    mean2 = df.gain2 / n
    var2 = (df.gain2_sq - n * mean2 * mean2).clip(lower=0) / (n - 1).where(n > 1)
    se = np.sqrt(var2 / n) / 2
    df["gain"] = mean2 / 2
    df["gain_low"] = df.gain - Z95 * se
    df["gain_high"] = df.gain + Z95 * se
    return df


def class_columns(atlas: pd.DataFrame) -> list[str]:
    """The class columns an atlas has (coinche has no round or retourne, the retourne
    games no bid value)."""
    return [c for c in CLASS_COLUMNS if c in atlas.columns]


def model_gap(atlas: pd.DataFrame, realistic: str, by: Iterable[str] | None = None,
              dd: str = "dd") -> pd.DataFrame:
    """The double-dummy make rate beside ``realistic``'s, and the gap (dd minus
    realistic, in percentage points), per class (or per the columns ``by``, pooling the
    classes within), with ``n``.

    :raises BeloteError: the atlas lacks one of the two models.
    """
    models = set(atlas.model)
    for m in (dd, realistic):
        if m not in models:
            raise BeloteError(f"the atlas has no {m!r} model (it has {', '.join(sorted(models))})")
    keys = list(by) if by is not None else class_columns(atlas)
    pooled = atlas.groupby(["model", *keys], sort=False)[["n", "made"]].sum()
    a = pooled.loc[dd]
    b = pooled.loc[realistic]
    out = pd.DataFrame({"n": a.n, f"made_rate_{dd}": a.made / a.n,
                        f"made_rate_{realistic}": b.made / b.n})
    out["gap_points"] = 100 * (out[f"made_rate_{dd}"] - out[f"made_rate_{realistic}"])
    return out.reset_index()


# -- The table bidder's lookup, and the atlases the package ships ---------------------

#: The atlases shipped in ``belote_sim/data/`` (``make atlas``): preset -> (deals,
#: seed), with threshold bidding and heuristic play; the table bidder reads the
#: heuristic model's gains.
SHIPPED = {"classic": (1_000_000, 1), "coinche": (1_000_000, 1)}
#: The play model whose gains the table bidder reads.
BIDDER_MODEL = "heuristic"
_STRAIN_KIND = {"retourne suit": 0, "other suit": 0, "suit": 0, "AT": 1, "NT": 2}


def holding_bits(text: str) -> int:
    """The ``HOLD_*`` bits of a holding written by :func:`holding_text`.

    >>> from belote_sim.bid.table_bidder import HOLD_BELOTE, HOLD_JACK, HOLD_NINE
    >>> holding_bits("J9+KQ") == HOLD_JACK | HOLD_NINE | HOLD_BELOTE
    True
    """
    bits = 0
    honours, _, belote = text.partition("+")
    for name, bit in (("J", table_bidder.HOLD_JACK), ("9", table_bidder.HOLD_NINE),
                      ("A", table_bidder.HOLD_ACE), ("T", table_bidder.HOLD_TEN)):
        if name in honours:
            bits |= bit
    return bits | (table_bidder.HOLD_BELOTE if belote == "KQ" else 0)


def class_features(atlas: pd.DataFrame) -> pd.DataFrame:
    """An atlas's classes as the table bidder's integer features
    (:data:`belote_sim.players.lookup.FEATURES`), with ``model``, ``n`` and
    ``gain2``."""
    from belote_sim.kernels.calls import BID_VALUES

    rows = len(atlas)
    zeros = np.zeros(rows, dtype=np.int64)
    value_index = {v: i for i, v in enumerate(BID_VALUES)}
    return pd.DataFrame({
        "model": atlas.model.to_numpy(),
        "round": atlas["round"].to_numpy() if "round" in atlas else zeros,
        "position": atlas.position.to_numpy(),
        "strain": [_STRAIN_KIND[s] for s in atlas.strain],
        "value": [value_index[v] for v in atlas["value"]] if "value" in atlas else zeros,
        "retourne": ([0 if r == "-" else RANKS.index(r) + 1 for r in atlas.retourne]
                     if "retourne" in atlas else zeros),
        "holding": [holding_bits(h) for h in atlas.holding],
        "trumps": atlas.trumps.to_numpy(),
        "side_aces": atlas.side_aces.to_numpy(),
        "side_tens": atlas.side_tens.to_numpy(),
        "voids": atlas.voids.to_numpy(),
        "n": atlas.n.to_numpy(),
        "gain2": atlas.gain2.to_numpy(),
    })


def bidder_lookup(atlas: pd.DataFrame, model: str = BIDDER_MODEL
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The ``table`` bidder's lookup from an atlas: the sorted class keys of every level
    of :data:`belote_sim.players.lookup.LEVELS` and each class's gain over
    passing, shrunk towards its parent class's (``PRIOR_DECISIONS``; the coarsest
    level towards 0).

    :raises BeloteError: the atlas has no ``model`` rows.
    """
    feats = class_features(atlas)
    feats = feats[feats.model == model]
    if feats.empty:
        raise BeloteError(f"the atlas has no {model!r} model (it has "
                          f"{', '.join(sorted(set(atlas.model)))})")
    names = list(lookup.FEATURES)
    keys: list[int] = []
    gains: list[float] = []
    parent: dict[tuple, float] = {}
    for level in reversed(range(lookup.N_LEVELS)):
        kept = lookup.LEVELS[level]
        coarser = lookup.LEVELS[level + 1] if level + 1 < lookup.N_LEVELS else ()
        g = feats.copy()
        for f in names:
            if f not in kept:
                g[f] = 0
        sums = g.groupby(names, sort=True)[["n", "gain2"]].sum()
        shrunk: dict[tuple, float] = {}
        for cls, n, gain2 in zip(sums.index, sums.n, sums.gain2, strict=True):
            up = tuple(v if f in coarser else 0 for f, v in zip(names, cls, strict=True))
            prior = parent.get(up, 0.0)
            prior_n = lookup.PRIOR_DECISIONS
            gain = (gain2 / 2 + prior_n * prior) / (n + prior_n)
            shrunk[cls] = gain
            cls_of = lookup.HandClass(*(int(v) for v in cls))
            keys.append(int(lookup.class_key(level, cls_of)))
            gains.append(gain)
        parent = shrunk
    order = np.argsort(np.array(keys, dtype=np.int64), kind="stable")
    return np.array(keys, dtype=np.int64)[order], np.array(gains, dtype=np.float64)[order]


def atlas_path(preset: str) -> Path:
    """Where the shipped atlas of ``preset`` lives."""
    return lookup.DATA_DIR / f"atlas-{preset}.parquet"


def shipped_atlas(preset: str) -> pd.DataFrame:
    """The atlas of ``preset`` shipped with the package (see :data:`SHIPPED`), as
    :func:`bid_table` returns it.

    >>> atlas = shipped_atlas("classic")
    >>> int(atlas.attrs["provenance"]["deals"]), sorted(set(atlas["round"]))
    (1000000, [1, 2])

    :raises BeloteError: no atlas is shipped for ``preset``.
    """
    if preset not in SHIPPED or not atlas_path(preset).exists():
        raise BeloteError(f"no atlas is shipped for {preset!r} (there are: "
                          f"{', '.join(SHIPPED)})")
    atlas = with_rates(pd.read_parquet(atlas_path(preset)))
    atlas.attrs["provenance"] = read_provenance(atlas_path(preset))
    return atlas


def ship_atlases(presets: Iterable[str] = tuple(SHIPPED), threads: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Build the shipped atlases (:data:`SHIPPED`, ``make atlas``) and the table
    bidder's lookups derived from them; return the files written."""
    written = []
    for preset in presets:
        deals, seed = SHIPPED[preset]
        atlas = bid_table(preset, deals, seed=seed, models=(BIDDER_MODEL,), threads=threads,
                          progress=progress)
        lookup.DATA_DIR.mkdir(parents=True, exist_ok=True)
        # The sums only: the rates follow from them (:func:`with_rates`), and the file
        # is smaller.
        write_parquet(atlas.drop(columns=list(RATE_COLUMNS)), atlas_path(preset),
                      atlas.attrs["provenance"], compression="zstd")
        keys, gains = bidder_lookup(atlas)
        np.savez_compressed(lookup.lookup_path(preset), keys=keys, gains=gains)
        written += [atlas_path(preset), lookup.lookup_path(preset)]
    return written


__all__ = ["CLASS_COLUMNS", "SHIPPED", "bid_table", "bidder_lookup", "class_columns",
           "holding_text", "model_gap", "ship_atlases", "shipped_atlas", "with_rates"]
