"""The bid atlas: how often a bid made in a hand class makes, and what it gains over
passing, from every bidding decision met in simulated deals.

The library side of ``belote-sim bid-table``. For each deal (dealt as ``simulate``
deals it, the auction played by the bidding policy) and each of the first calls of its
auction, every candidate call (retourne games: round 1 take, round 2 each suit it may
name, round 3 all-trumps and no-trumps; coinche: the lowest legal bid in each strain)
and the pass are played out from the calls before it, under each play model, from the
same random stream: a counterfactual pair (:func:`belote_sim.game.strength.atlas_chunk`).
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

from collections.abc import Callable, Iterable
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from belote_sim.cards import RANKS, TRUMP_NAMES
from belote_sim.errors import BeloteError
from belote_sim.game import strength as K
from belote_sim.players import table_bidder as T
from belote_sim.players.spec import PolicySpec, as_spec, check_policies
from belote_sim.players.table_bidder import lookup_for
from belote_sim.rules import Rules
from belote_sim.runs.io import read_provenance, write_parquet
from belote_sim.runs.stats import Z95
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

#: The columns of a hand class, in the order tables show them.
CLASS_COLUMNS = ("round", "position", "strain", "value", "retourne", "holding", "trumps",
                 "side_aces", "side_tens", "voids")
#: Deals per chunk (one progress step) for the fast models and the solver models.
CHUNK_FAST = 2_000
CHUNK_SOLVER = 4
#: The integer sums of an atlas class, from which :func:`with_rates` derives its rates
#: (pooling classes is summing these).
SUMS = ("n", "policy_calls", "takers", "made", "dedans", "capot", "gain2", "gain2_sq")


def holding_text(bits: int) -> str:
    """The honours of a holding (``AF_HOLDING`` bits) as text: ``J9A`` , ``T+KQ``, ``-``.

    >>> holding_text(T.HOLD_JACK | T.HOLD_NINE | T.HOLD_BELOTE)
    'J9+KQ'
    """
    text = "".join(name for bit, name in ((T.HOLD_JACK, "J"), (T.HOLD_NINE, "9"),
                                          (T.HOLD_ACE, "A"), (T.HOLD_TEN, "T"))
                   if bits & bit)
    if bits & T.HOLD_BELOTE:
        text += "+KQ"
    return text or "-"


def _rows_frame(rows: np.ndarray, coinche: bool) -> pd.DataFrame:
    """The used atlas rows of a chunk as a frame of class columns and sums."""
    rows = rows[rows[:, K.AF_DEAL] >= 0]
    strain = rows[:, K.AF_STRAIN]
    if coinche:
        kind = np.where(strain < 4, "suit", np.array(TRUMP_NAMES, dtype=object)[strain])
    else:
        turned = np.where(rows[:, K.AF_ROUND] == 1, True, False)
        kind = np.where(strain >= 4, np.array(TRUMP_NAMES, dtype=object)[strain],
                        np.where(turned, "retourne suit", "other suit"))
    gain2 = rows[:, K.AF_DIFF2] - rows[:, K.AF_DIFF2_PASS]
    return pd.DataFrame({
        "model": rows[:, K.AF_MODEL],
        "round": rows[:, K.AF_ROUND],
        "position": rows[:, K.AF_POSITION],
        "strain": kind,
        "value": rows[:, K.AF_VALUE],
        "retourne": rows[:, K.AF_RETOURNE],
        "holding": rows[:, K.AF_HOLDING],
        "trumps": rows[:, K.AF_TRUMPS],
        "side_aces": rows[:, K.AF_SIDE_ACES],
        "side_tens": rows[:, K.AF_SIDE_TENS],
        "voids": rows[:, K.AF_VOIDS],
        "n": 1,
        "policy_calls": rows[:, K.AF_POLICY_CALLED],
        "takers": rows[:, K.AF_TAKERS],
        "made": rows[:, K.AF_MADE],
        "dedans": rows[:, K.AF_DEDANS],
        "capot": rows[:, K.AF_CAPOT],
        "gain2": gain2,
        "gain2_sq": gain2 * gain2,
    })


def _totals(frame: pd.DataFrame) -> pd.DataFrame:
    """Integer sums per class and model."""
    keys = ["model", *CLASS_COLUMNS]
    return frame.groupby(keys, sort=True, observed=True)[list(SUMS)].sum()


def _fold(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The sums of several chunks' :func:`_totals`, per class and model."""
    return pd.concat(parts).groupby(level=list(range(1 + len(CLASS_COLUMNS))),
                                    sort=True).sum()


def bid_table(
    rules: Rules | str,
    deals: int = 100_000,
    *,
    seed: int = 0,
    bid_policy: str | PolicySpec = "threshold",
    models: str | Iterable[str | PolicySpec] = ("heuristic",),
    threads: int | None = None,
    out: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> pd.DataFrame:
    """The bid atlas of ``deals`` simulated deals (see the module docstring): one row per
    hand class and model, provenance in ``df.attrs``; written to ``out/atlas.parquet``
    when ``out`` is given. A pure function of (rules, policies, seed, deals) whatever
    ``threads``.

    :raises BeloteError: bad rules, counts, policies, models or ``out`` (before any
        deal is played); :class:`~belote_sim.runs.runner.RunInterrupted` when
        ``should_stop()`` turns true (nothing is written).
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
    coinche = rules.contract == "coinche"
    table = players_table(bid, specs)
    lookup = lookup_for(bid.id)
    rules_arr = rules.to_array()
    parts: list[pd.DataFrame] = []

    def play(start: int, count: int, n_blocks: int) -> None:
        rows, refused = K.atlas_chunk(rules_arr, table, *lookup, seed, start, count, n_blocks,
                                      rules.players == 4)
        check_refused(int(refused))
        parts.append(_totals(_rows_frame(rows, coinche)))
        if len(parts) > 16:  # bounded memory: fold the chunks' sums as they come
            parts[:] = [_fold(parts)]

    run = play_in_chunks(deals, CHUNK_SOLVER if uses_solver(bid, specs) else CHUNK_FAST,
                         "deals", play, threads, progress, should_stop)
    atlas = _rates(_fold(parts).reset_index(), specs, coinche)
    atlas.attrs["provenance"] = provenance(
        "bid-table", {"rules": {"preset": rules.preset, "options": rules.options()}}, seed,
        bid, specs, run, "deals", deals,
    )
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_parquet(atlas, out_dir / "atlas.parquet", atlas.attrs["provenance"])
    return atlas


#: The columns :func:`with_rates` derives from an atlas's sums.
RATE_COLUMNS = ("takers_rate", "made_rate", "dedans_rate", "capot_rate", "take_rate", "gain",
                "gain_low", "gain_high")


def _rates(sums: pd.DataFrame, specs: list[PolicySpec], coinche: bool) -> pd.DataFrame:
    """The atlas of the integer sums of each class: names for its codes, then rates."""
    df = sums.copy()
    df["model"] = [str(specs[m]) for m in df.model]
    df["holding"] = [holding_text(h) for h in df.holding]
    df["retourne"] = ["-" if r < 0 else RANKS[r] for r in df.retourne]
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

    >>> holding_bits("J9+KQ") == T.HOLD_JACK | T.HOLD_NINE | T.HOLD_BELOTE
    True
    """
    bits = 0
    honours, _, belote = text.partition("+")
    for name, bit in (("J", T.HOLD_JACK), ("9", T.HOLD_NINE), ("A", T.HOLD_ACE),
                      ("T", T.HOLD_TEN)):
        if name in honours:
            bits |= bit
    return bits | (T.HOLD_BELOTE if belote == "KQ" else 0)


def class_features(atlas: pd.DataFrame) -> pd.DataFrame:
    """An atlas's classes as the table bidder's integer features
    (:data:`belote_sim.players.table_bidder.FEATURES`), with ``model``, ``n`` and
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
    of :data:`belote_sim.players.table_bidder.LEVELS` and each class's gain over
    passing, shrunk towards its parent class's (``PRIOR_DECISIONS``; the coarsest
    level towards 0).

    :raises BeloteError: the atlas has no ``model`` rows.
    """
    feats = class_features(atlas)
    feats = feats[feats.model == model]
    if feats.empty:
        raise BeloteError(f"the atlas has no {model!r} model (it has "
                          f"{', '.join(sorted(set(atlas.model)))})")
    names = list(T.FEATURES)
    keys: list[int] = []
    gains: list[float] = []
    parent: dict[tuple, float] = {}
    for level in reversed(range(T.N_LEVELS)):
        kept = T.LEVELS[level]
        coarser = T.LEVELS[level + 1] if level + 1 < T.N_LEVELS else ()
        g = feats.copy()
        for f in names:
            if f not in kept:
                g[f] = 0
        sums = g.groupby(names, sort=True)[["n", "gain2"]].sum()
        shrunk: dict[tuple, float] = {}
        for cls, n, gain2 in zip(sums.index, sums.n, sums.gain2, strict=True):
            up = tuple(v if f in coarser else 0 for f, v in zip(names, cls, strict=True))
            prior = parent.get(up, 0.0)
            gain = (gain2 / 2 + T.PRIOR_DECISIONS * prior) / (n + T.PRIOR_DECISIONS)
            shrunk[cls] = gain
            keys.append(int(T.class_key(level, *(int(v) for v in cls))))
            gains.append(gain)
        parent = shrunk
    order = np.argsort(np.array(keys, dtype=np.int64), kind="stable")
    return np.array(keys, dtype=np.int64)[order], np.array(gains, dtype=np.float64)[order]


def atlas_path(preset: str) -> Path:
    """Where the shipped atlas of ``preset`` lives."""
    return T.DATA_DIR / f"atlas-{preset}.parquet"


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
        T.DATA_DIR.mkdir(parents=True, exist_ok=True)
        # The sums only: the rates follow from them (:func:`with_rates`), and the file
        # is a quarter of the size.
        write_parquet(atlas.drop(columns=list(RATE_COLUMNS)), atlas_path(preset),
                      atlas.attrs["provenance"], compression="zstd")
        keys, gains = bidder_lookup(atlas)
        np.savez_compressed(T.lookup_path(preset), keys=keys, gains=gains)
        written += [atlas_path(preset), T.lookup_path(preset)]
    return written


__all__ = ["CLASS_COLUMNS", "SHIPPED", "bid_table", "bidder_lookup", "class_columns",
           "holding_text", "model_gap", "ship_atlases", "shipped_atlas", "with_rates"]
