"""Statistics from a run's counters: proportions with Wilson 95% intervals, means with
standard errors, histograms; the metric catalogue (:data:`METRICS`), where each metric
is declared once (its rows' counters and denominators, label, description, headline and
compared groups) and from which :func:`summary_table`, the CLI's headline, ``compare``'s
paired metrics, the report's labels and the tables of ``docs/metrics.md`` are made.

>>> from belote_sim.stats import wilson_interval, mean_interval
>>> [round(x, 4) for x in wilson_interval(50, 100)]
[0.4038, 0.5962]
>>> mean, se, lo, hi = mean_interval(total=20, total_sq=50, n=10)
>>> mean, round(se, 4)
(2.0, 0.3333)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from belote_sim.cards import RANKS, TRUMP_NAMES
from belote_sim.kernels import layout as L
from belote_sim.runner.rundir import summary_frame

Z95 = 1.959963984540054


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (``(nan, nan)`` when ``n == 0``)."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def paired_rate_interval(gained: int, lost: int, n: int, z: float = Z95
                         ) -> tuple[float, float]:
    """Tango's score interval of the difference of two paired proportions: over ``n``
    pairs, ``gained`` are yes in the second and no in the first, ``lost`` the reverse;
    the difference is ``(gained - lost) / n`` (``(nan, nan)`` when ``n == 0``).

    Unlike the normal interval it holds its coverage when few pairs differ, and when
    none does it still bounds the difference by the number of pairs, as the rule of
    three does (Tango 1998, Statistics in Medicine 17: 891).

    >>> low, high = paired_rate_interval(0, 0, 1000)
    >>> round(low, 5), round(high, 5)
    (-0.00383, 0.00383)
    """
    from scipy.optimize import brentq

    if n <= 0:
        return math.nan, math.nan
    b, c = gained, lost

    def score(delta: float) -> float:
        # The likelihood's constrained estimate of the share of pairs that lost.
        w = b * (1 + delta) + c * (1 - delta) - 2 * n * delta
        q = (w + math.sqrt(max(w * w + 8 * n * c * delta * (1 - delta), 0.0))) / (4 * n)
        var = n * (2 * q + delta * (1 - delta))
        return (b - c - n * delta) / math.sqrt(var) if var > 0 else 0.0

    def root(target: float) -> float:
        # The score falls as delta rises; at an end of [-1, 1] it may not reach the
        # target (every pair lost, or gained), and that end is the bound.
        lo, hi = -1.0 + 1e-12, 1.0 - 1e-12  # the ends themselves leave no variance
        if score(lo) <= target:
            return -1.0
        if score(hi) >= target:
            return 1.0
        return brentq(lambda x: score(x) - target, lo, hi, xtol=1e-14)

    d = (b - c) / n
    return min(root(z), d), max(root(-z), d)


def mean_interval(
    total: float, total_sq: float, n: int, z: float = Z95
) -> tuple[float, float, float, float]:
    """``(mean, standard error, low, high)`` from a sum and a sum of squares of ``n``
    values (sample variance; the error is nan for fewer than two values)."""
    if n <= 0:
        return math.nan, math.nan, math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan, math.nan, math.nan
    var = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    se = math.sqrt(var / n)
    return mean, se, mean - z * se, mean + z * se


#: A sum of counters: ``(slot, coefficient)`` terms over the slots of
#: :mod:`belote_sim.kernels.layout`.
Count = tuple[tuple[int, int], ...]


def slots(*index: int) -> Count:
    """The sum of the counters at ``index``."""
    return tuple((i, 1) for i in index)


#: Every deal, thrown-in ones included.
DEALS: Count = slots(L.C_DEALS)
#: The played deals: those with a taker.
PLAYED: Count = ((L.C_DEALS, 1), (L.C_THROWN_IN, -1))
#: Every match.
MATCHES: Count = slots(L.C_MATCHES)
#: The matches with a result (not abandoned).
FINISHED: Count = ((L.C_MATCHES, 1), (L.C_MATCH_UNFINISHED, -1))
#: The numbers of players a rule set may have.
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)


def total(counters: np.ndarray, count: Count) -> int:
    """The value of ``count`` in a run's counters."""
    return sum(coef * int(counters[slot]) for slot, coef in count)


@dataclass(frozen=True)
class Row:
    """One row of a metric in a summary table: its group, ``count`` (``k``, or the sum of
    the values of a mean) over ``over`` (``n``) and, for a mean, the slot of the sum of
    squares. Shown for rule sets of ``players`` players and, with ``if_counted``, only
    when its count is not zero; a row whose ``n`` is 0 is left out."""

    group: str
    count: Count
    over: Count
    squares: int | None = None
    players: tuple[int, ...] = PLAYER_COUNTS
    if_counted: bool = False


def _rate(count: int, over: Count, group: str = "") -> Row:
    """A proportion's row: the counter at ``count`` over ``over``."""
    return Row(group, slots(count), over)


def _mean(total_slot: int, squares: int, over: Count, group: str = "",
          players: tuple[int, ...] = PLAYER_COUNTS) -> Row:
    """A mean's row: the sum of the values at ``total_slot``, of their squares at
    ``squares``, over ``over`` values."""
    return Row(group, slots(total_slot), over, squares, players)


def _each(prefix: str, names: Sequence[object], count: int, over: int | Count
          ) -> tuple[Row, ...]:
    """Rows ``prefix=name``, the i-th name's the counter ``count + i`` over the counter
    ``over + i`` (``over`` an int: a block of counters) or over the fixed ``over``."""
    return tuple(
        Row(f"{prefix}={name}", slots(count + i),
            slots(over + i) if isinstance(over, int) else over)
        for i, name in enumerate(names)
    )


def _positions(count: int, over: int | Count) -> tuple[Row, ...]:
    """Rows ``position=1..4`` as :func:`_each`'s, each for the rule sets that have that
    position."""
    return tuple(
        replace(row, players=tuple(n for n in PLAYER_COUNTS if n > p))
        for p, row in enumerate(_each("position", range(1, 5), count, over))
    )


_JACK = RANKS.index("J")
_NOT_JACK = tuple(r for r in range(len(RANKS)) if r != _JACK)


def _by_retourne(count: int) -> tuple[Row, ...]:
    """Rows by the retourne's rank, then ``retourne=jack`` and ``retourne=other``: the
    block of counters at ``count`` over the deals with that retourne."""
    return (
        *_each("retourne_rank", RANKS, count, L.C_RETOURNE_DEALS),
        Row("retourne=jack", slots(count + _JACK), slots(L.C_RETOURNE_DEALS + _JACK)),
        Row("retourne=other", slots(*(count + r for r in _NOT_JACK)),
            slots(*(L.C_RETOURNE_DEALS + r for r in _NOT_JACK))),
    )


_MULTIPLIERS = ("plain", "coinche", "surcoinche")
_COINCHE_CONTRACTS = slots(*(L.C_MULTIPLIER_CONTRACTS + m for m in range(3)))


@dataclass(frozen=True)
class Metric:
    """One metric of ``summary.parquet``, declared once: its rows and their counters,
    the words the report shows for it (``label``), its section and description in
    ``docs/metrics.md`` (``groups``, ``definition``), the groups the CLI prints after a
    run (``headline``) and the groups ``compare`` pairs deal by deal (``compared``).

    ``beside``: the metric whose rows this one's follow, each right after that metric's
    row of the same group, in a summary table."""

    name: str
    label: str
    section: str
    groups: str
    definition: str
    rows: tuple[Row, ...]
    headline: tuple[str, ...] = ()
    compared: tuple[str, ...] = ()
    beside: str = ""

    @property
    def is_mean(self) -> bool:
        """A mean of values (points, deals), not a proportion."""
        return self.rows[0].squares is not None

    def row(self, group: str, players: int = 4) -> Row:
        """The row of ``group`` for rule sets of ``players`` players.

        :raises KeyError: the metric has no such row.
        """
        for r in self.rows:
            if r.group == group and players in r.players:
                return r
        raise KeyError(f"{self.name} has no row {group!r} with {players} players")


#: The sections of the catalogue, in order, with their headings in ``docs/metrics.md``.
SECTIONS = {
    "bidding": "Bidding (over all deals)",
    "outcomes": "Outcomes (over played deals)",
    "coinche": "Coinche contracts (over played coinche deals)",
    "three": "Three players (over played deals)",
    "declarations": "Declarations (over played deals)",
    "means": "Means (over played deals)",
    "matches": "Matches (runs with `--matches`)",
}

#: Every metric of :func:`summary_table`, once, in the order of its rows.
METRICS: tuple[Metric, ...] = (
    Metric("take_rate", "someone takes", "bidding",
           "overall; `round=1`, `round=2` (`round=3` with all-trumps/no-trumps); "
           "`position=1..4`; `retourne_rank=7..A`; `retourne=jack`, `retourne=other`",
           "deals taken (in that round, by that position) / deals (with that retourne)",
           (Row("", PLAYED, DEALS),
            _rate(L.C_TAKEN_ROUND + 1, DEALS, "round=1"),
            _rate(L.C_TAKEN_ROUND + 2, DEALS, "round=2"),
            replace(_rate(L.C_TAKEN_ROUND + 3, DEALS, "round=3"), if_counted=True),
            *_positions(L.C_TAKEN_POS, DEALS),
            *_by_retourne(L.C_RETOURNE_TAKEN)),
           ("", "round=1", "round=2"), ("",)),
    Metric("take_rate_round1", "taken in round 1", "bidding",
           "`retourne_rank=7..A`; `retourne=jack`, `retourne=other`",
           "deals taken in round 1 / deals with that retourne",
           _by_retourne(L.C_RETOURNE_TAKEN_R1), beside="take_rate"),
    Metric("thrown_in_rate", "thrown in (nobody takes)", "bidding", "overall",
           "deals where everybody passed / deals",
           (_rate(L.C_THROWN_IN, DEALS),), ("",), ("",)),
    Metric("made_rate", "contract made", "outcomes", "overall",
           "contracts made / played deals", (_rate(L.C_MADE, PLAYED),), ("",), ("",)),
    Metric("dedans_rate", "taker goes dedans", "outcomes",
           "overall; `round=r` (n = deals taken in round r); `position=p` (n = deals taken "
           "by position p); `taker_trumps=t` (n = played deals whose taker held t trumps at "
           "the first trick); `trump=C`, `D`, `H`, `S`, `AT`, `NT` (n = played deals in "
           "that trump)",
           "dedans / n",
           (_rate(L.C_DEDANS, PLAYED),
            *_each("round", (1, 2, 3), L.C_DEDANS_ROUND + 1, L.C_TAKEN_ROUND + 1),
            *_positions(L.C_DEDANS_POS, L.C_TAKEN_POS),
            *_each("taker_trumps", range(10), L.C_TRUMPS_DEDANS, L.C_TRUMPS_PLAYED),
            *_each("trump", TRUMP_NAMES, L.C_TRUMP_DEDANS, L.C_TRUMP_PLAYED)),
           ("", "round=1", "round=2"), ("",)),
    Metric("contract_make_rate", "contract make rate", "coinche",
           "`strain=C` .. `strain=NT`; `value=80` .. `value=250`; `multiplier=plain`, "
           "`coinche`, `surcoinche`",
           "contracts made / contracts of that strain, value or multiplier",
           (*_each("strain", TRUMP_NAMES, L.C_STRAIN_MADE, L.C_STRAIN_CONTRACTS),
            *_each("value", L.BID_VALUES, L.C_VALUE_MADE, L.C_VALUE_CONTRACTS),
            *_each("multiplier", _MULTIPLIERS, L.C_MULTIPLIER_MADE,
                   L.C_MULTIPLIER_CONTRACTS))),
    Metric("coinche_rate", "coinche rate", "coinche", "overall",
           "contracts coinched or surcoinched / contracts",
           (Row("", slots(L.C_MULTIPLIER_CONTRACTS + 1, L.C_MULTIPLIER_CONTRACTS + 2),
                _COINCHE_CONTRACTS),)),
    Metric("surcoinche_rate", "surcoinche rate", "coinche", "overall",
           "contracts surcoinched / contracts",
           (_rate(L.C_MULTIPLIER_CONTRACTS + 2, _COINCHE_CONTRACTS),)),
    Metric("mean_deal_score", "mean deal score", "three", "`position=1..3`",
           "mean deal score of the player at that position from the first hand (each player "
           "scores individually)",
           tuple(_mean(L.C_SUM_POSITION_SCORE + p, L.C_SQ_POSITION_SCORE + p, PLAYED,
                       f"position={p + 1}", (3,)) for p in range(3))),
    Metric("tie_rate", "tie, points split (tie_rule=split)", "outcomes", "overall",
           "`S_T == S_E` under `tie_rule=split` / played deals",
           (_rate(L.C_TIE, PLAYED),), ("",), ("",)),
    Metric("litige_rate", "litige: points put in the pot", "outcomes", "overall",
           "points put in the litige pot / played deals",
           (_rate(L.C_LITIGE, PLAYED),), ("",), ("",)),
    Metric("capot_rate", "capot", "outcomes", "`side=takers`, `side=defenders`",
           "that side took every trick / played deals",
           (_rate(L.C_CAPOT_TAKERS, PLAYED, "side=takers"),
            _rate(L.C_CAPOT_DEFENDERS, PLAYED, "side=defenders")),
           ("side=takers", "side=defenders"), ("side=takers", "side=defenders")),
    Metric("p_any_declaration", "some declaration held", "declarations", "overall",
           "played deals where some hand holds a run of 3+ or a scoring carré",
           (_rate(L.C_ANY_DECLARATION, PLAYED),), ("",), ("",)),
    Metric("p_tierce", "tierce", "declarations", "overall",
           "... some hand holds a run of exactly 3",
           (_rate(L.C_TIERCE, PLAYED),), ("",), ("",)),
    Metric("p_quarte", "quarte", "declarations", "overall", "... a run of exactly 4",
           (_rate(L.C_QUARTE, PLAYED),), ("",), ("",)),
    Metric("p_quinte_or_longer", "quinte or longer", "declarations", "overall",
           "... a run of 5 or more", (_rate(L.C_QUINTE, PLAYED),), ("",)),
    Metric("p_carre_jacks", "carré of jacks", "declarations", "overall", "... four jacks",
           (_rate(L.C_CARRE_J, PLAYED),), ("",)),
    Metric("p_carre_nines", "carré of nines", "declarations", "overall", "... four nines",
           (_rate(L.C_CARRE_9, PLAYED),), ("",)),
    Metric("p_carre_other", "carré of A, T, K or Q", "declarations", "overall",
           "... four aces, tens, kings or queens", (_rate(L.C_CARRE_OTHER, PLAYED),), ("",)),
    Metric("p_belote_held", "belote held", "declarations", "overall",
           "... one hand holds the king and queen of trumps",
           (_rate(L.C_BELOTE, PLAYED),), ("",), ("",)),
    Metric("declaration_contest_won", "declarations scored", "declarations",
           "`side=takers`, `side=defenders`",
           "played deals where that side won the declaration contest (scored its "
           "declarations)",
           (_rate(L.C_DECL_TAKERS, PLAYED, "side=takers"),
            _rate(L.C_DECL_DEFENDERS, PLAYED, "side=defenders")),
           ("side=takers", "side=defenders"), ("side=takers", "side=defenders")),
    Metric("made_by_declarations_rate", "made thanks to declarations", "declarations",
           "overall",
           "played deals where the contract was made, and would have been dedans with every "
           "declaration removed (card points and belote alone)",
           (_rate(L.C_MADE_BY_DECLARATIONS, PLAYED),), ("",), ("",)),
    Metric("mean_taker_card_points", "takers' card points", "means", "overall",
           "the takers' card points (last trick and capot included; coinche AT/NT: scaled to "
           "162)",
           (_mean(L.C_SUM_TAKER_CARD_POINTS, L.C_SQ_TAKER_CARD_POINTS, PLAYED),),
           ("",), ("",)),
    Metric("mean_taker_deal_score", "takers' deal score", "means", "overall",
           "what the deal adds to the takers' match score (three players: the taker's)",
           (_mean(L.C_SUM_TAKER_SCORE, L.C_SQ_TAKER_SCORE, PLAYED),), ("",), ("",)),
    Metric("mean_defender_deal_score", "defenders' deal score", "means", "overall",
           "what the deal adds to the defenders' match score (three players: both "
           "defenders' together)",
           (_mean(L.C_SUM_DEFENDER_SCORE, L.C_SQ_DEFENDER_SCORE, PLAYED),), ("",), ("",)),
    Metric("mean_declaration_points", "declaration points scored", "means", "overall",
           "the declaration points the contest winner scores (0 when nobody does)",
           (_mean(L.C_SUM_DECL_POINTS, L.C_SQ_DECL_POINTS, PLAYED),), ("",), ("",)),
    Metric("match_win_rate", "matches won", "matches",
           "`side=0`, `side=1`; three players: `seat=0..2`",
           "matches won by that side (seats 0 and 2 / 1 and 3; with two players side = "
           "seat) or player / matches",
           (*(replace(r, players=(2, 4))
              for r in _each("side", range(2), L.C_MATCH_WINS, MATCHES)),
            *(replace(r, players=(3,))
              for r in _each("seat", range(3), L.C_MATCH_WINS, MATCHES))),
           ("side=0", "side=1"), ("side=0", "side=1")),
    Metric("match_draw_rate", "matches drawn", "matches", "overall",
           "drawn matches / matches",
           (_rate(L.C_MATCH_WINS + L.MATCH_DRAW, MATCHES),), ("",), ("",)),
    Metric("match_unfinished_rate", "matches unfinished", "matches", "overall",
           "matches abandoned after 500 deals without a result / matches",
           (_rate(L.C_MATCH_UNFINISHED, MATCHES),), compared=("",)),
    Metric("mean_deals_per_match", "deals per match", "matches", "overall",
           "deals per match, thrown-in deals included",
           (_mean(L.C_SUM_MATCH_DEALS, L.C_SQ_MATCH_DEALS, MATCHES),), ("",), ("",)),
    Metric("first_dealer_side_win_rate", "first dealer's side wins", "matches", "overall",
           "matches won by the first dealer's side / finished matches",
           (_rate(L.C_FIRST_DEALER_SIDE_WINS, FINISHED),)),
    Metric("first_deal_winner_win_rate", "winner of the first deal wins the match",
           "matches", "overall",
           "matches won by the side that scored more in the first played deal / finished "
           "matches whose first played deal had a higher scorer",
           (_rate(L.C_FIRST_DEAL_WINNER_WINS, slots(L.C_FIRST_DEAL_DECIDED)),), ("",)),
)

#: The catalogue by metric name.
BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}
#: The words the report shows for each metric.
LABELS: dict[str, str] = {m.name: m.label for m in METRICS}
#: The (metric, group) rows the command line prints after a run, in catalogue order.
HEADLINE: tuple[tuple[str, str], ...] = tuple(
    (m.name, g) for m in METRICS for g in m.headline
)


def is_mean(metric: str) -> bool:
    """Whether the catalogue's ``metric`` is a mean (else a proportion)."""
    return BY_NAME[metric].is_mean


def metrics_markdown() -> str:
    """The catalogue's tables, one per section, as ``docs/metrics.md`` shows them
    between its ``metrics:begin`` and ``metrics:end`` markers."""
    parts = []
    for key, heading in SECTIONS.items():
        parts += [f"## {heading}", "",
                  "| metric | groups | k / n, or the mean of | in the report |",
                  "|---|---|---|---|"]
        parts += [f"| `{m.name}` | {m.groups} | {m.definition} | {m.label} |"
                  for m in METRICS if m.section == key]
        parts.append("")
    return "\n".join(parts)


def rows_markdown() -> str:
    """The per-deal dataset's columns (:data:`belote_sim.kernels.layout.ROW_SCHEMA`) as
    ``docs/metrics.md`` lists them between its ``rows:begin`` and ``rows:end`` markers."""
    parts = ["| column | type | meaning |", "|---|---|---|"]
    for name, dtype, width, meaning in L.ROW_SCHEMA:
        shown = f"`{name}0` .. `{name}{width - 1}`" if width > 1 else f"`{name}`"
        parts.append(f"| {shown} | {dtype} | {meaning} |")
    return "\n".join(parts) + "\n"


#: The catalogue's page, in a source checkout.
METRICS_DOC = Path(__file__).resolve().parents[1] / "docs" / "metrics.md"
#: The generated blocks of the page: marker name -> what fills it.
GENERATED_BLOCKS = {"metrics": metrics_markdown, "rows": rows_markdown}


def with_metrics_tables(doc: str) -> str:
    """``doc`` (the text of ``docs/metrics.md``) with each generated block (the metric
    tables, the per-deal columns) rewritten between its ``<!-- NAME:begin`` and
    ``<!-- NAME:end -->`` markers (``make docs`` rewrites the file with it)."""
    for name, make in GENERATED_BLOCKS.items():
        begin, end = f"<!-- {name}:begin", f"<!-- {name}:end -->"
        if begin not in doc or end not in doc:
            raise ValueError(f"the document has no {begin} ... {end} markers")
        head, rest = doc.split(begin, 1)
        marker = rest.split("\n", 1)[0]
        tail = rest.split(end, 1)[1]
        doc = f"{head}{begin}{marker}\n\n{make()}{end}{tail}"
    return doc


def write_metrics_doc(path: str | Path = METRICS_DOC) -> None:
    """Rewrite the generated blocks of ``docs/metrics.md`` (``make docs``)."""
    path = Path(path)
    path.write_text(with_metrics_tables(path.read_text(encoding="utf-8")), encoding="utf-8")


def _in_order() -> tuple[tuple[Metric, Row], ...]:
    """Every row of the catalogue in the order of a summary table: the catalogue's, each
    row of a metric shown ``beside`` another right after that one's row of its group."""
    out: list[tuple[Metric, Row]] = []
    for m in METRICS:
        if m.beside:
            continue
        for row in m.rows:
            out.append((m, row))
            out += [(b, r) for b in METRICS if b.beside == m.name
                    for r in b.rows if r.group == row.group]
    return tuple(out)


#: Every (metric, row) of the catalogue, in the order of a summary table.
ROW_ORDER: tuple[tuple[Metric, Row], ...] = _in_order()


def summary_table(counters: np.ndarray, players: int = 4) -> pd.DataFrame:
    """The tidy summary of a run (columns of :data:`belote_sim.runner.rundir.SUMMARY_COLUMNS`):
    one row per metric and group of the catalogue (:data:`METRICS`) for rule sets of
    ``players`` players, each computed from the counters its :class:`Row` names."""
    c = np.asarray(counters, dtype=np.int64)
    rows: list[tuple] = []
    for metric, row in ROW_ORDER:
        if players not in row.players:
            continue
        k, n = total(c, row.count), total(c, row.over)
        if n <= 0 or (row.if_counted and k == 0):
            continue
        if row.squares is None:
            lo, hi = wilson_interval(k, n)
            rows.append((metric.name, row.group, n, k, k / n, lo, hi))
        else:
            mean, _, lo, hi = mean_interval(float(k), float(c[row.squares]), n)
            rows.append((metric.name, row.group, n, None, mean, lo, hi))
    return summary_frame(rows)


HISTOGRAMS = {
    "taker_card_points": (L.H_TAKER_CARD_POINTS, L.HIST_POINTS),
    "taker_deal_score": (L.H_TAKER_SCORE, L.HIST_SCORE),
    "defender_deal_score": (L.H_DEFENDER_SCORE, L.HIST_SCORE),
    "declaration_points": (L.H_DECL_POINTS, L.HIST_SCORE),
    "deals_per_match": (L.H_MATCH_DEALS, L.MAX_MATCH_DEALS + 1),
}


def histogram_table(counters: np.ndarray) -> pd.DataFrame:
    """Non-empty histogram bins: ``histogram`` (name), ``value``, ``count``. The last bin
    of each histogram also holds every larger value."""
    c = np.asarray(counters, dtype=np.int64)
    parts = []
    for name, (base, bins) in HISTOGRAMS.items():
        counts = c[base : base + bins]
        nz = np.nonzero(counts)[0]
        parts.append(
            pd.DataFrame({"histogram": name, "value": nz.astype(np.int64), "count": counts[nz]})
        )
    df = pd.concat(parts, ignore_index=True)
    return df.astype({"histogram": "string", "value": "int64", "count": "int64"})


def counters_to_dict(counters: np.ndarray) -> dict[str, int]:
    """The scalar counters by name (blocks as ``name_i``; histograms left out), for
    ``run.json`` and quick checks: ``deals``, ``thrown_in``, ``taken_round_1`` ..."""
    starts = sorted(
        (v, k) for k, v in vars(L).items() if k.startswith("C_") and isinstance(v, int)
    )
    first_hist = min(v for k, v in vars(L).items() if k.startswith("H_") and isinstance(v, int))
    out: dict[str, int] = {}
    for j, (start, name) in enumerate(starts):
        end = starts[j + 1][0] if j + 1 < len(starts) else first_hist
        key = name[2:].lower()
        if end - start == 1:
            out[key] = int(counters[start])
        else:
            for i in range(end - start):
                out[f"{key}_{i}"] = int(counters[start + i])
    return out

