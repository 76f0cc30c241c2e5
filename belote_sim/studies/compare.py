"""Comparing rule variants: paired runs, sequential tests, factorial designs.

The library side of ``belote-sim compare``. Every deal ``i`` is played under each
*cell* (a rule set) from the same random stream: the same pack and the same players'
random draws (common random numbers), so the cells' outcomes are paired deal by deal.
Cells with another number of players than the first cannot share its packs: they play
from streams of their own (``seed`` mixed with the cell's index, :func:`cell_seed`)
and are compared *unpaired*.

Inside the kernel (:func:`belote_sim.batch.runs.compare_chunk`) each cell keeps the
run's counters (every metric of the catalogue, :func:`belote_sim.stats.summary_table`),
and for the per-deal values of the counters in :data:`PAIRED` (0 or 1 for a yes/no
outcome, points for a score) the sums and the sums of products over all cells: integer
sums, so a comparison is bit-identical for any threads, chunks or executor and needs no
per-deal memory. From them, for every metric of :data:`PAIRED`:

* each cell's value and interval (the catalogue's);
* the difference from the first cell (the *base*) with a **paired** 95% interval: a
  rate over played deals is a ratio of two per-deal sums, whose difference is
  linearised (delta method) deal by deal;
* a p-value: McNemar's exact test on the discordant deals for a yes/no outcome whose
  denominator is the same deal by deal in both cells (every deal, or the same played
  deals), else the normal test of the paired difference;
  Holm-adjusted across the metrics of one comparison;
* the **variance reduction** of pairing: the variance of the difference if the cells
  had been played independently over that of the paired difference.

A factorial design (:func:`factorial_cells`) adds main effects (a factor's level
against its first level, averaged over the other factors) and two-way interactions,
each a contrast of the cells with its paired interval.

A sequential test (``until``) stops the run at the first chunk boundary where the
normal-approximation SPRT of fishtest (``LLR_alt2``) on the paired difference of one
metric decides (:func:`sprt_llr`).

>>> df = compare([Rules(), Rules(undertrump="free")], deals=2000, seed=1)
>>> row = df[(df.metric == "made_rate") & (df.kind == "cell")].iloc[1]
>>> bool(row.diff_ci_low <= row["diff"] <= row.diff_ci_high)
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.kernels import layout as L
from belote_sim.players.seating import Players, players_of
from belote_sim.players.spec import PolicySpec, as_spec, check_policies
from belote_sim.rules import Rules
from belote_sim.runner.executors import Chunk, ChunkResult, refuse_illegal
from belote_sim.runner.jobs import (
    RunOptions,
    check_run_args,
    chunk_plan,
    deals_or_matches,
    engine_identity,
    execute,
)
from belote_sim.runner.rundir import software, write_parquet, write_text_atomic
from belote_sim.stats import (
    BY_NAME,
    DEALS,
    HISTOGRAMS,
    MATCHES,
    METRICS,
    PLAYED,
    Z95,
    Count,
    paired_rate_interval,
    summary_table,
)
from belote_sim.studies.simulate import (
    CHUNK_SOLVER,
    DEFAULT_BID_POLICY,
    DEFAULT_PLAY_POLICY,
)

#: Deals per chunk (one progress step, one SPRT look) of the fast players.
CHUNK_FAST = 10_000
#: Column order of ``compare.parquet``.
COLUMNS = ("metric", "group", "kind", "cell", "n", "value", "ci_low", "ci_high", "diff",
           "diff_ci_low", "diff_ci_high", "test", "p_value", "p_holm", "variance_reduction",
           "paired")

#: The denominator of a compared metric's rows in the catalogue, by name: every deal, the
#: deals somebody took, one per match.
DENOMINATORS: dict[Count, str] = {DEALS: "deals", PLAYED: "played", MATCHES: "matches"}


def _compared() -> tuple[tuple[str, str, Count, str], ...]:
    """``(metric, group, count, denominator)`` of each group the catalogue says
    ``compare`` pairs, with its row's counters (four players)."""
    out = []
    for m in METRICS:
        for group in m.compared:
            row = m.row(group)
            out.append((m.name, group, row.count, DENOMINATORS[row.over]))
    return tuple(out)


#: The metrics compared pair by pair, from the catalogue (:data:`stats.METRICS`, its
#: ``compared`` groups): ``(metric, group, count, denominator)``, the row's count per
#: deal (per match) summed over ``deals`` (every deal), ``played`` (the deals somebody
#: took) or ``matches``. In a comparison of matches the deal metrics are ratios over the
#: matches' deals (a match is the pair).
PAIRED: tuple[tuple[str, str, Count, str], ...] = tuple(
    p for p in _compared() if p[3] != "matches")
#: The match metrics, paired match by match (``--matches``).
PAIRED_MATCHES: tuple[tuple[str, str, Count, str], ...] = tuple(
    p for p in _compared() if p[3] == "matches")
#: The metrics whose value per unit (a deal, or a match for the match metrics) is 0 or 1:
#: the catalogue's proportions.
YES_NO = {(m, g) for m, g, _, _ in PAIRED + PAIRED_MATCHES if not BY_NAME[m].is_mean}
#: The counters the kernel pairs: the deals and the thrown-in deals first (the
#: denominators), then each metric's.
SLOTS: tuple[int, ...] = tuple(dict.fromkeys(
    [L.C_DEALS, L.C_THROWN_IN]
    + [slot for _, _, count, _ in PAIRED + PAIRED_MATCHES for slot, _ in count]
))
_SEED_MIX = 0x9E3779B97F4A7C15


def cell_seed(seed: int, index: int, paired: bool) -> int:
    """The stream seed of cell ``index``: the run's ``seed`` when it is paired with the
    base, else ``seed`` mixed with its index (an independent stream).

    >>> cell_seed(7, 3, True), cell_seed(7, 0, False) == 7
    (7, True)
    """
    if paired:
        return seed
    return (seed + index * _SEED_MIX) % (2**63)


# -- Cells ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One rule set of a comparison, with its label and, in a factorial, its levels."""

    label: str
    rules: Rules
    levels: tuple[int, ...] = ()


def _rules_of(label: str, preset: str, options: dict[str, Any]) -> Rules:
    try:
        return Rules.from_preset(preset, **options)
    except BeloteError as e:
        raise BeloteError(f"cell {label!r}: {e}") from None


def named_cells(cells: Sequence[tuple[str, str, dict[str, Any]]]) -> list[Cell]:
    """Cells from ``(label, preset, options)``, the first being the base.

    :raises BeloteError: a cell the rules refuse (the message names the cell).
    """
    return [Cell(label, _rules_of(label, preset, options)) for label, preset, options in cells]


def parse_factor(text: str) -> tuple[str, list[str]]:
    """``"undertrump=forced,free"`` -> ``("undertrump", ["forced", "free"])``.

    :raises BeloteError: not ``option=value,value...`` with two values or more.
    """
    name, eq, values = text.partition("=")
    levels = [v.strip() for v in values.split(",") if v.strip()]
    if not eq or not name.strip() or len(levels) < 2:
        raise BeloteError(f"bad --factor {text!r}: expected option=value,value[,...]")
    if len(set(levels)) != len(levels):
        raise BeloteError(f"--factor {text!r} repeats a value")
    return name.strip(), levels


def factorial_cells(preset: str, base: dict[str, Any],
                    factors: Sequence[tuple[str, Sequence[str]]]) -> list[Cell]:
    """Every combination of the factors' levels over ``preset`` (and ``base`` options),
    the first levels first: the full factorial design.

    >>> cells = factorial_cells("classic", {}, [("undertrump", ["forced", "free"]),
    ...                                         ("king_value", ["4", "10"])])
    >>> [c.label for c in cells][:2]
    ['undertrump=forced king_value=4', 'undertrump=forced king_value=10']

    :raises BeloteError: a factor that repeats an option (or one of ``base``), an
        unknown option or value, a cell the rules refuse.
    """
    names = [name for name, _ in factors]
    for name in names:
        if names.count(name) > 1:
            raise BeloteError(f"--factor {name} is given twice")
        if name in base:
            raise BeloteError(f"option {name} is both set and a factor")
    cells = []
    for levels in itertools.product(*[range(len(values)) for _, values in factors]):
        options = dict(base)
        parts = []
        for (name, values), lv in zip(factors, levels, strict=True):
            options[name] = values[lv]
            parts.append(f"{name}={values[lv]}")
        label = " ".join(parts)
        cells.append(Cell(label, _rules_of(label, preset, options), tuple(levels)))
    # The same value written twice (``on,true``) would make two equal cells.
    seen: dict[Rules, str] = {}
    for c in cells:
        if c.rules in seen:
            raise BeloteError(f"cells {seen[c.rules]!r} and {c.label!r} are the same rules")
        seen[c.rules] = c.label
    return cells


# -- Statistics from the kernel's sums --------------------------------------------------


@dataclass
class Moments:
    """The kernel's sums, split: each cell's run counters and the augmented moment
    matrix ``A`` of the per-deal vector ``z = (1, x)``: ``A[0, 0]`` deals,
    ``A[0, 1:]`` the sums of ``x``, ``A[1:, 1:]`` the sums of products."""

    counters: np.ndarray  # [K, N_COUNTERS]
    A: np.ndarray  # [1 + K Q, 1 + K Q], float64 (exact below 2**53)
    n: int
    k: int
    q: int

    @classmethod
    def of(cls, flat: np.ndarray, k: int, q: int) -> Moments:
        flat = np.asarray(flat, dtype=np.int64)
        kq = k * q
        counters = flat[: k * L.N_COUNTERS].reshape(k, L.N_COUNTERS)
        sums = flat[k * L.N_COUNTERS : k * L.N_COUNTERS + kq]
        cross = flat[k * L.N_COUNTERS + kq :].reshape(kq, kq)
        n = int(counters[0, L.C_MATCHES] or counters[0, L.C_DEALS])  # units paired
        A = np.empty((kq + 1, kq + 1))
        A[0, 0] = n
        A[0, 1:] = sums
        A[1:, 0] = sums
        A[1:, 1:] = cross
        return cls(counters, A, n, k, q)

    def unit(self, cell: int, count: Count) -> np.ndarray:
        """The vector picking the sum of counters ``count`` of ``cell`` from ``z``."""
        v = np.zeros(self.A.shape[0])
        for slot, coef in count:
            v[1 + cell * self.q + SLOTS.index(slot)] += coef
        return v

    def denominator(self, cell: int, kind: str) -> np.ndarray:
        if kind == "matches":  # one per unit
            v = np.zeros(self.A.shape[0])
            v[0] = 1.0
            return v
        return self.unit(cell, DEALS if kind == "deals" else PLAYED)

    def total(self, v: np.ndarray) -> float:
        return float(v @ self.A[0])

    def sum_sq(self, v: np.ndarray) -> float:
        return float(v @ self.A @ v)

    def variance(self, v: np.ndarray) -> float:
        """The per-deal sample variance of ``v . z``."""
        if self.n < 2:
            return math.nan
        t = self.total(v)
        return max(self.sum_sq(v) - t * t / self.n, 0.0) / (self.n - 1)


@dataclass
class Ratio:
    """A metric of one cell, ``sum(u . z) / sum(v . z)``, with its linearisation."""

    value: float
    linear: np.ndarray  # w with w . z_i the deal's influence on the value


def ratio(mo: Moments, cell: int, count: Count, den: str) -> Ratio:
    u, v = mo.unit(cell, count), mo.denominator(cell, den)
    num, d = mo.total(u), mo.total(v)
    if d <= 0:
        return Ratio(math.nan, np.zeros_like(u))
    r = num / d
    return Ratio(r, (u - r * v) / (d / mo.n))


#: A contrast, or its paired variance, this small against the size of its terms is
#: floating-point round-off (the metric is the same in the cells on every deal: a factor
#: that cannot change it), not a difference: it is set to exactly 0.
ROUND_OFF = 1e-9


def settle_rounding(d: float, var_paired: float, parts: dict[int, Ratio],
                    coef: dict[int, float], var_unpaired: float) -> tuple[float, float]:
    """``(d, var_paired)`` with round-off set to exactly 0 (:data:`ROUND_OFF`): a
    contrast of equal values over many cells (an interaction of two factors that cannot
    change a metric) sums to 1e-17, not 0, and its paired variance is a cancellation's
    residue; left as they are they give p = 0 for nothing.

    >>> r = Ratio(0.3, np.zeros(1))
    >>> settle_rounding(5.5e-17, 1e-33, {0: r, 1: r}, {0: 1.0, 1: -1.0}, 0.2)
    (0.0, 0.0)
    """
    scale = sum(abs(coef[c] * parts[c].value) for c in coef)
    if abs(d) <= ROUND_OFF * scale:
        d = 0.0
    if var_paired <= ROUND_OFF * var_unpaired:
        var_paired = 0.0
    return d, var_paired


@dataclass
class Difference:
    """A contrast ``sum_c a_c R_c`` of one metric with its interval and test."""

    diff: float
    low: float
    high: float
    p_value: float
    test: str
    variance_reduction: float
    paired: bool


def contrast(mo: Moments, count: Count, den: str, coef: dict[int, float],
             paired: bool, yes_no: bool, span: float = math.nan) -> Difference:
    """The contrast ``sum coef[c] * metric(c)`` of one metric, paired deal by deal
    (``paired``) or as if its cells were independent. ``span``: how much one unit's
    value may differ between cells (1 for a yes/no outcome), which bounds a paired
    contrast that no unit changed (:func:`unchanged_bound`)."""
    from scipy import stats

    parts = {c: ratio(mo, c, count, den) for c in coef}
    if any(math.isnan(p.value) for p in parts.values()):
        return Difference(math.nan, math.nan, math.nan, math.nan, "", math.nan, paired)
    d = sum(coef[c] * parts[c].value for c in coef)
    lin = sum(coef[c] * parts[c].linear for c in coef)
    var_unpaired = sum(coef[c] ** 2 * mo.variance(parts[c].linear) for c in coef)
    d, var_paired = settle_rounding(d, mo.variance(lin), parts, coef, var_unpaired)
    var = var_paired if paired else var_unpaired
    se = math.sqrt(var / mo.n) if mo.n > 1 else math.nan
    vr = var_unpaired / var_paired if paired and var_paired > 0 else math.nan
    test = "z" if paired else "unpaired z"
    p = float(2 * stats.norm.sf(abs(d) / se)) if se > 0 else (1.0 if d == 0 else 0.0)
    # McNemar: two cells, a yes/no outcome over the same deals in both.
    if paired and yes_no and len(coef) == 2:
        a, b = sorted(coef, key=lambda c: coef[c])
        da, db = mo.denominator(a, den), mo.denominator(b, den)
        if mo.sum_sq(da - db) == 0:
            ua, ub = mo.unit(a, count), mo.unit(b, count)
            both = float(ua @ mo.A @ ub)
            only_a = round(mo.total(ua) - both)
            only_b = round(mo.total(ub) - both)
            test = "mcnemar"
            p = 1.0 if only_a + only_b == 0 else float(
                stats.binomtest(only_b, only_a + only_b, 0.5).pvalue)
            # Few deals differ between the cells under most rule changes: the normal
            # interval covers too rarely there, and claims [0, 0] when none differs.
            low, high = paired_rate_interval(only_b, only_a, round(mo.total(da)))
            return Difference(d, low, high, p, test, vr, paired)
    if paired and var_paired == 0 and d == 0:
        # No unit changed: the normal interval would claim [0, 0].
        half = unchanged_bound(mo.n, mo.total(mo.denominator(min(coef), den)), span, coef)
        return Difference(d, -half, half, p, test, vr, paired)
    return Difference(d, d - Z95 * se, d + Z95 * se, p, test, vr, paired)


def unchanged_bound(n: int, denominator: float, span: float, coef: dict[int, float]) -> float:
    """The half-width of a paired contrast's interval when none of ``n`` units (deals,
    or matches) changed between the cells: a share of units up to Tango's bound for no
    discordant pair (:func:`~belote_sim.stats.paired_rate_interval`, ``3.84 / n``) might
    still change, each by up to ``span``, over a metric whose ``denominator`` (the
    deals, played deals or matches it is a ratio over) is summed over the ``n`` units;
    a contrast of several cells (an effect) weighs that by half its coefficients' sum.
    An unknown ``span`` gives nan.

    >>> round(unchanged_bound(1000, 1000, 1.0, {0: -1.0, 1: 1.0}), 5)
    0.00383
    """
    if not denominator > 0 or math.isnan(span):
        return math.nan
    share = paired_rate_interval(0, 0, n)[1]
    return share * span * n / denominator * sum(abs(a) for a in coef.values()) / 2


def observed_span(mo: Moments, metric: str, cells: Iterable[int], yes_no: bool,
                  per_match: bool) -> float:
    """How much one unit's value of ``metric`` may differ between ``cells``, as far as the
    run shows it: 1 for a yes/no outcome; for a mean, the range its histogram spans over
    those cells (:data:`~belote_sim.stats.HISTOGRAMS`); for a deal metric counted per
    match (``per_match``), that of a deal times the most deals a match took. nan when
    the run does not show it."""
    cells = list(cells)

    def seen(name: str) -> tuple[int, int] | None:
        base, bins = HISTOGRAMS[name]
        where = np.flatnonzero(sum(mo.counters[c, base : base + bins] for c in cells))
        return (int(where[0]), int(where[-1])) if where.size else None

    if yes_no:
        return 1.0
    if metric == "mean_deals_per_match":
        lo_hi = seen("deals_per_match")
        return float(lo_hi[1] - lo_hi[0]) if lo_hi else math.nan
    deal = 1.0
    if BY_NAME[metric].is_mean:
        lo_hi = seen(metric.removeprefix("mean_")) if metric.removeprefix(
            "mean_") in HISTOGRAMS else None
        deal = float(lo_hi[1] - lo_hi[0]) if lo_hi else math.nan
    if per_match:
        longest = seen("deals_per_match")
        deal = deal * longest[1] if longest else math.nan
    return deal


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of the p-values ``p`` (NaN stays NaN).

    >>> [round(x, 3) for x in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    idx = [i for i, x in enumerate(p) if not math.isnan(x)]
    order = sorted(idx, key=lambda i: p[i])
    m = len(order)
    out = [math.nan] * len(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def sprt_llr(diff: float, var: float, n: int, delta: float) -> float:
    """fishtest's normal-approximation GSPRT (``LLR_alt2``) for H0: mean difference 0
    against H1: ``delta``, from ``n`` paired deals with mean ``diff`` and per-deal
    variance ``var``: ``n (d1 - d0) (2 d - d0 - d1) / (2 var)``.

    >>> round(sprt_llr(0.5, 1.0, 100, 1.0), 6)
    0.0
    """
    if var <= 0 or n <= 0:
        return 0.0
    return n * delta * (2 * diff - delta) / (2 * var)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The lower and upper bounds of the log-likelihood ratio: ``ln(beta / (1 - alpha))``
    (accept H0) and ``ln((1 - beta) / alpha)`` (accept H1)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# -- The comparison --------------------------------------------------------------------


@dataclass(frozen=True)
class Until:
    """A sequential test on the paired difference (last cell minus base) of one metric."""

    metric: str
    group: str
    delta: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str, delta: float, alpha: float, beta: float) -> Until:
        """``"made_rate"`` or ``"capot_rate[side=takers]"``, checked against
        :data:`PAIRED`."""
        metric, _, group = text.partition("[")
        group = group.rstrip("]")
        names = [(m, g) for m, g, _, _ in PAIRED + PAIRED_MATCHES]
        if (metric, group) not in names:
            listed = ", ".join(m + (f"[{g}]" if g else "") for m, g in names)
            raise BeloteError(f"--until {text!r} is not a compared metric; metrics: {listed}")
        for name, v, lo, hi in (("alpha", alpha, 0, 0.5), ("beta", beta, 0, 0.5)):
            if not lo < v < hi:
                raise BeloteError(f"--{name} must be between 0 and 0.5, not {v}")
        if delta == 0 or not math.isfinite(delta):
            raise BeloteError(f"--delta must be a non-zero number, not {delta}")
        return cls(metric, group, float(delta), float(alpha), float(beta))

    def entry(self) -> tuple[str, str, Count, str]:
        return next(p for p in PAIRED + PAIRED_MATCHES
                    if (p[0], p[1]) == (self.metric, self.group))


@dataclass
class SprtResult:
    llr: float
    lower: float
    upper: float
    decision: str  # "H1", "H0" or "undecided"
    played: int  # deals (matches) the decision rests on


def _sprt(mo: Moments, until: Until, paired: bool) -> SprtResult:
    _, _, count, den = until.entry()
    last = mo.k - 1
    parts = {0: ratio(mo, 0, count, den), last: ratio(mo, last, count, den)}
    lower, upper = sprt_bounds(until.alpha, until.beta)
    if any(math.isnan(p.value) for p in parts.values()):
        return SprtResult(0.0, lower, upper, "undecided", mo.n)
    coef = {0: -1.0, last: 1.0}
    d = parts[last].value - parts[0].value
    var_unpaired = mo.variance(parts[0].linear) + mo.variance(parts[last].linear)
    d, var_paired = settle_rounding(d, mo.variance(parts[last].linear - parts[0].linear),
                                    parts, coef, var_unpaired)
    var = var_paired if paired else var_unpaired
    llr = sprt_llr(d, var, mo.n, until.delta)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else "undecided"
    return SprtResult(llr, lower, upper, decision, mo.n)


@dataclass(frozen=True)
class CompareTask:
    """A chunk of a comparison: its deals (or matches) under every cell's rules, from
    each cell's stream, into the cells' counters and the paired moments."""

    chunk: Chunk
    threads: int | None
    cells: tuple[tuple[int, ...], ...]
    cell_seeds: tuple[int, ...]
    slots: tuple[int, ...]
    players: Players

    def play(self, blocks: int) -> ChunkResult:
        from belote_sim.batch import runs

        c = self.chunk
        comparison = runs.Comparison(np.asarray(self.cells, dtype=np.int64),
                                     np.asarray(self.cell_seeds, dtype=np.int64),
                                     np.asarray(self.slots, dtype=np.int64))
        counters, errors = runs.compare_chunk(
            comparison, self.players, c.start, c.count, blocks, c.unit == "matches",
            L.MAX_MATCH_DEALS,
        )
        refuse_illegal(errors, c)
        return ChunkResult(c.index, counters)


@dataclass(frozen=True)
class CompareJob:
    """A comparison run: ``count`` deals or matches (``unit``) under each rule set of
    ``cells`` (cell ``k`` from the stream of ``cell_seeds[k]``) with the same players;
    ``slots`` are the counters whose per-deal values are paired. Its players (at the
    deals of every cell) are built once, when the job is."""

    cells: tuple[Rules, ...]
    cell_seeds: tuple[int, ...]
    slots: tuple[int, ...]
    bid_policy: PolicySpec
    play_policy: PolicySpec
    seed: int
    unit: str
    count: int
    chunk_size: int
    players: Players = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", players_of(
            self.bid_policy, self.play_policy, *(c.to_array() for c in self.cells)))

    @property
    def total(self) -> int:
        return self.count

    @property
    def n_counters(self) -> int:
        kq = len(self.cells) * len(self.slots)
        return len(self.cells) * L.N_COUNTERS + kq + kq * kq

    def to_json(self) -> dict[str, Any]:
        return {
            **engine_identity(self.n_counters),
            "command": "compare",
            "rules": self.cells[0].describe(),
            "bid_policy": str(self.bid_policy),
            "play_policy": str(self.play_policy),
            "seed": self.seed,
            "unit": self.unit,
            "count": self.count,
            "chunk_size": self.chunk_size,
            "cells": [c.describe() for c in self.cells],
            "cell_seeds": list(self.cell_seeds),
            "slots": list(self.slots),
        }

    def chunks(self) -> list[Chunk]:
        return chunk_plan([(self.unit, self.count)], self.chunk_size)

    def task(self, chunk: Chunk, threads: int | None) -> CompareTask:
        cells = tuple(tuple(int(x) for x in c.to_array()) for c in self.cells)
        return CompareTask(chunk, threads, cells, self.cell_seeds, self.slots, self.players)

    merge = staticmethod(np.add)

    @property
    def uses_solver(self) -> bool:
        """Whether its players need the double-dummy solver (the kind of its kernels)."""
        return self.bid_policy.uses_solver or self.play_policy.uses_solver


def _pairing(cells: Sequence[Cell]) -> list[bool]:
    base = cells[0].rules.players
    return [c.rules.players == base for c in cells]


#: The deals of a comparison when neither deals nor matches are given.
COMPARE_DEALS = 100_000


def compare(
    cells: Sequence[Rules | Cell],
    deals: int | None = None,
    *,
    matches: int | None = None,
    seed: int = 0,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    play_policy: str | PolicySpec = DEFAULT_PLAY_POLICY,
    factors: Sequence[tuple[str, Sequence[str]]] = (),
    until: Until | None = None,
    run: RunOptions | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Play ``deals`` deals (:data:`COMPARE_DEALS` unless given; or, given ``matches``,
    whole matches, not both: then the match metrics
    are compared too, and a match is the pair) under every cell (the first is the
    base) with the same players and compare them (see the module docstring); the
    table of :data:`COLUMNS`, with
    provenance (and the SPRT's figures under ``until``) in ``df.attrs``; written to
    ``out/compare.parquet`` (and ``run.json``) when ``out`` is given.

    ``factors`` (from :func:`factorial_cells`'s cells) adds the main effects and the
    two-way interactions. A run of the chunk runner, played as ``run`` (or its fields as
    keywords) says, as :func:`~belote_sim.studies.simulate.simulate`'s.

    :raises BeloteError: fewer than two cells, bad counts or players, a cell the players
        cannot play (before any deal is played).
    """
    run = RunOptions.of(run, **options)
    cells = [c if isinstance(c, Cell) else Cell(_label(c), c) for c in cells]
    labels = [c.label for c in cells]
    if len(set(labels)) < len(labels):  # the same rules twice (an A/A comparison)
        cells = [Cell(f"{c.label} #{i + 1}", c.rules, c.levels) for i, c in enumerate(cells)]
    if len(cells) < 2:
        raise BeloteError("a comparison needs two cells or more")
    unit, count = deals_or_matches(deals, matches, COMPARE_DEALS)
    check_run_args(count, seed, unit)
    if until is not None and unit == "deals" and until.entry() in PAIRED_MATCHES:
        raise BeloteError(f"--until {until.metric} is a match metric: it needs --matches")
    bid, play = as_spec(bid_policy, "bid"), as_spec(play_policy, "play")
    for c in cells:
        try:
            check_policies(c.rules, bid, play)
        except BeloteError as e:
            raise BeloteError(f"cell {c.label!r}: {e}") from None
        if c.rules.shuffle == "cut" and unit == "deals":
            raise BeloteError(f"cell {c.label!r}: shuffle=cut plays whole matches, which "
                              "--matches compares")
    paired = _pairing(cells)
    seeds = tuple(cell_seed(int(seed), i, p) for i, p in enumerate(paired))
    job = CompareJob(tuple(c.rules for c in cells), seeds, SLOTS, bid, play, int(seed), unit,
                     int(count), run.chunk_size_or(CHUNK_SOLVER if play.uses_solver
                                                   else CHUNK_FAST))
    k, q = len(cells), len(SLOTS)
    sprt: list[SprtResult] = []

    def watch(flat: np.ndarray, done: int) -> bool:
        sprt.append(_sprt(Moments.of(flat, k, q), until, paired[-1]))
        return sprt[-1].decision != "undecided"

    ran = execute(job, run, watch if until is not None else None)
    mo = Moments.of(ran.counters, k, q)
    table = _table(mo, cells, paired, factors, unit)
    prov = {**job.to_json(), "labels": [c.label for c in cells],
            "factors": [[n, list(v)] for n, v in factors], "played": mo.n,
            **software(), "executor": ran.executor, "wall_seconds": ran.wall_seconds,
            "started": ran.started, "finished": ran.finished}
    if until is not None:
        last = sprt[-1]
        prov["sprt"] = {"metric": until.metric, "group": until.group, "delta": until.delta,
                        "alpha": until.alpha, "beta": until.beta, "llr": last.llr,
                        "lower": last.lower, "upper": last.upper,
                        "decision": last.decision, "played": last.played}
    table.attrs["provenance"] = prov
    run_dir = ran.run_dir
    if run_dir is not None:
        import json

        write_parquet(table, run_dir.path / "compare.parquet", prov)
        write_text_atomic(run_dir.path / "compare.json", json.dumps(prov, indent=2) + "\n")
        run_dir.write_info({"status": "complete", "settings": job.to_json(),
                            "done": ran.done, "provenance": prov})
    return table


def _label(rules: Rules) -> str:
    preset = Rules.from_preset(rules.preset)
    changed = [f"{k}={v}" for k, v in rules.options().items() if preset.options()[k] != v]
    return " ".join([rules.preset, *changed])


def _cell_rows(mo: Moments, c: int, players: int) -> dict[tuple[str, str], tuple]:
    summary = summary_table(mo.counters[c], players=players)
    return {(r.metric, r.group): (r.n, r.value, r.ci_low, r.ci_high)
            for r in summary.itertuples()}


def _table(mo: Moments, cells: list[Cell], paired: list[bool],
           factors: Sequence[tuple[str, Sequence[str]]], unit: str) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    own = [_cell_rows(mo, c, cells[c].rules.players) for c in range(mo.k)]
    contrasts: list[tuple[str, str, dict[int, float]]] = [
        ("cell", cells[c].label, {0: -1.0, c: 1.0}) for c in range(1, mo.k)
    ]
    if factors:
        contrasts += _effects(cells, factors)
    # With matches a match is the pair: the deal metrics' values per match are counts.
    compared = PAIRED if unit == "deals" else PAIRED_MATCHES + PAIRED
    yes_no = YES_NO if unit == "deals" else {(m, g) for m, g, _, _ in PAIRED_MATCHES} & YES_NO
    for metric, group, count, den in compared:
        n0, v0, lo0, hi0 = own[0].get((metric, group), (0, math.nan, math.nan, math.nan))
        rows.append(dict(metric=metric, group=group, kind="cell", cell=cells[0].label,
                         n=n0, value=v0, ci_low=lo0, ci_high=hi0))
        for kind, label, coef in contrasts:
            is_paired = all(paired[c] for c in coef)
            is_yes_no = (metric, group) in yes_no
            span = observed_span(mo, metric, coef, is_yes_no,
                                 unit != "deals" and den != "matches")
            d = contrast(mo, count, den, coef, is_paired, is_yes_no, span)
            row = dict(metric=metric, group=group, kind=kind, cell=label, diff=d.diff,
                       diff_ci_low=d.low, diff_ci_high=d.high, test=d.test,
                       p_value=d.p_value, variance_reduction=d.variance_reduction,
                       paired=d.paired)
            if kind == "cell":
                c = max(coef)
                n, v, lo, hi = own[c].get((metric, group), (0, math.nan, math.nan, math.nan))
                row.update(n=n, value=v, ci_low=lo, ci_high=hi)
            else:
                row.update(n=mo.n)
            rows.append(row)
    df = pd.DataFrame(rows)
    for col in COLUMNS:
        if col not in df:
            df[col] = math.nan
    df = df[list(COLUMNS)]
    df["n"] = df.n.fillna(0).astype("int64")
    df["test"] = df.test.fillna("")
    df["paired"] = df.paired.astype("boolean")
    # Holm across the metrics of each comparison (each contrast).
    df["p_holm"] = math.nan
    for (_, _), part in df[df.kind != "cell"].groupby(["kind", "cell"]):
        df.loc[part.index, "p_holm"] = holm(part.p_value.tolist())
    for _, part in df[(df.kind == "cell") & df.p_value.notna()].groupby("cell"):
        df.loc[part.index, "p_holm"] = holm(part.p_value.tolist())
    return df.reset_index(drop=True)


def _effects(cells: list[Cell], factors: Sequence[tuple[str, Sequence[str]]]
             ) -> list[tuple[str, str, dict[int, float]]]:
    """Main effects (level ``v`` against the first level, averaged over the other
    factors) and two-way interactions (``(v, w) - (v, 0) - (0, w) + (0, 0)``, averaged)
    as coefficients over the cells."""
    out: list[tuple[str, str, dict[int, float]]] = []
    for f, (name, values) in enumerate(factors):
        for v in range(1, len(values)):
            at_v = [i for i, c in enumerate(cells) if c.levels[f] == v]
            at_0 = [i for i, c in enumerate(cells) if c.levels[f] == 0]
            coef = {i: 1.0 / len(at_v) for i in at_v}
            coef.update({i: -1.0 / len(at_0) for i in at_0})
            out.append(("main effect", f"{name}={values[v]} vs {values[0]}", coef))
    for f, g in itertools.combinations(range(len(factors)), 2):
        (nf, vf), (ng, vg) = factors[f], factors[g]
        for v in range(1, len(vf)):
            for w in range(1, len(vg)):
                coef: dict[int, float] = {}
                corners = ((v, w, 1.0), (v, 0, -1.0), (0, w, -1.0), (0, 0, 1.0))
                for lv, lw, sign in corners:
                    members = [i for i, c in enumerate(cells)
                               if c.levels[f] == lv and c.levels[g] == lw]
                    for i in members:
                        coef[i] = coef.get(i, 0.0) + sign / len(members)
                out.append(("interaction", f"{nf}={vf[v]} x {ng}={vg[w]}", coef))
    return out


def compare_report(df: pd.DataFrame, top: Iterable[str] | None = None) -> str:
    """The comparison as a few lines for people: per metric, the base value, then each
    cell's or effect's difference with its paired interval and p-value; ``*`` marks a
    Holm-adjusted p-value below 0.05."""
    lines = []
    prov = df.attrs.get("provenance", {})
    labels = prov.get("labels") or list(df[df.kind == "cell"].cell.unique())
    lines.append(f"base: {labels[0]}; {prov.get('unit', 'deals')}: {prov.get('played', 0):,}")
    wanted = set(top) if top is not None else None
    for (metric, group), part in df.groupby(["metric", "group"], sort=False):
        if wanted is not None and metric not in wanted:
            continue
        name = metric + (f" [{group}]" if group else "")
        base = part.iloc[0]
        lines.append(f"{name}: base {base.value:.4f} [{base.ci_low:.4f}, {base.ci_high:.4f}]")
        for r in part.iloc[1:].itertuples():
            mark = "*" if r.p_holm < 0.05 else " "
            vr = "" if math.isnan(r.variance_reduction) else f"  VR {r.variance_reduction:.1f}"
            lines.append(
                f"  {mark} {r.kind:<11} {r.cell:<40} {r.diff:+.4f} "
                f"[{r.diff_ci_low:+.4f}, {r.diff_ci_high:+.4f}]  p {r.p_value:.3g} "
                f"({r.test}, Holm {r.p_holm:.3g}){vr}"
            )
    sprt = prov.get("sprt")
    if sprt:
        lines.append(
            f"SPRT on {sprt['metric']}{'[' + sprt['group'] + ']' if sprt['group'] else ''}: "
            f"LLR {sprt['llr']:.3f} in [{sprt['lower']:.3f}, {sprt['upper']:.3f}], "
            f"decision {sprt['decision']} after {sprt['played']:,} "
            f"{prov.get('unit', 'deals')}"
        )
    return "\n".join(lines)


__all__ = ["PAIRED", "PAIRED_MATCHES", "Cell", "Until", "compare", "compare_report",
           "factorial_cells", "holm", "named_cells", "parse_factor", "sprt_bounds", "sprt_llr"]
