"""Statistics from a run's counters: proportions with Wilson 95% intervals, means with
standard errors, histograms; the metric catalogue (:data:`METRICS`), from which the
CLI's headline and the tables of ``docs/metrics.md`` are made.

>>> from belote_sim.stats import wilson_interval, mean_interval
>>> [round(x, 4) for x in wilson_interval(50, 100)]
[0.4038, 0.5962]
>>> mean, se, lo, hi = mean_interval(total=20, total_sq=50, n=10)
>>> mean, round(se, 4)
(2.0, 0.3333)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Metric:
    """One metric of ``summary.parquet``: its section of ``docs/metrics.md``, its groups,
    what ``k / n`` (or the mean) is, and the groups the CLI prints after a run."""

    name: str
    section: str
    groups: str
    definition: str
    headline: tuple[str, ...] = ()


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

#: Every metric of :func:`summary_table`, once.
METRICS: tuple[Metric, ...] = (
    Metric("take_rate", "bidding",
           "overall; `round=1`, `round=2` (`round=3` with all-trumps/no-trumps); "
           "`position=1..4`; `retourne_rank=7..A`; `retourne=jack`, `retourne=other`",
           "deals taken (in that round, by that position) / deals (with that retourne)",
           ("", "round=1", "round=2")),
    Metric("take_rate_round1", "bidding",
           "`retourne_rank=7..A`; `retourne=jack`, `retourne=other`",
           "deals taken in round 1 / deals with that retourne"),
    Metric("thrown_in_rate", "bidding", "overall", "deals where everybody passed / deals",
           ("",)),
    Metric("made_rate", "outcomes", "overall", "contracts made / played deals", ("",)),
    Metric("dedans_rate", "outcomes",
           "overall; `round=r` (n = deals taken in round r); `position=p` (n = deals taken "
           "by position p); `taker_trumps=t` (n = played deals whose taker held t trumps at "
           "the first trick); `trump=C`, `D`, `H`, `S`, `AT`, `NT` (n = played deals in "
           "that trump)",
           "dedans / n", ("", "round=1", "round=2")),
    Metric("tie_rate", "outcomes", "overall", "`S_T == S_E` under `tie_rule=split` / played deals",
           ("",)),
    Metric("litige_rate", "outcomes", "overall",
           "points put in the litige pot / played deals", ("",)),
    Metric("capot_rate", "outcomes", "`side=takers`, `side=defenders`",
           "that side took every trick / played deals", ("side=takers", "side=defenders")),
    Metric("contract_make_rate", "coinche",
           "`strain=C` .. `strain=NT`; `value=80` .. `value=250`; `multiplier=plain`, "
           "`coinche`, `surcoinche`",
           "contracts made / contracts of that strain, value or multiplier"),
    Metric("coinche_rate", "coinche", "overall",
           "contracts coinched or surcoinched / contracts"),
    Metric("surcoinche_rate", "coinche", "overall", "contracts surcoinched / contracts"),
    Metric("mean_deal_score", "three", "`position=1..3`",
           "mean deal score of the player at that position from the first hand (each player "
           "scores individually)"),
    Metric("p_any_declaration", "declarations", "overall",
           "played deals where some hand holds a run of 3+ or a scoring carré", ("",)),
    Metric("p_tierce", "declarations", "overall",
           "... some hand holds a run of exactly 3", ("",)),
    Metric("p_quarte", "declarations", "overall", "... a run of exactly 4", ("",)),
    Metric("p_quinte_or_longer", "declarations", "overall", "... a run of 5 or more", ("",)),
    Metric("p_carre_jacks", "declarations", "overall", "... four jacks", ("",)),
    Metric("p_carre_nines", "declarations", "overall", "... four nines", ("",)),
    Metric("p_carre_other", "declarations", "overall",
           "... four aces, tens, kings or queens", ("",)),
    Metric("p_belote_held", "declarations", "overall",
           "... one hand holds the king and queen of trumps", ("",)),
    Metric("declaration_contest_won", "declarations", "`side=takers`, `side=defenders`",
           "played deals where that side won the declaration contest (scored its "
           "declarations)", ("side=takers", "side=defenders")),
    Metric("made_by_declarations_rate", "declarations", "overall",
           "played deals where the contract was made, and would have been dedans with every "
           "declaration removed (card points and belote alone)", ("",)),
    Metric("mean_taker_card_points", "means", "overall",
           "the takers' card points (last trick and capot included; coinche AT/NT: scaled to "
           "162)", ("",)),
    Metric("mean_taker_deal_score", "means", "overall",
           "what the deal adds to the takers' match score (three players: the taker's)",
           ("",)),
    Metric("mean_defender_deal_score", "means", "overall",
           "what the deal adds to the defenders' match score (three players: both "
           "defenders' together)", ("",)),
    Metric("mean_declaration_points", "means", "overall",
           "the declaration points the contest winner scores (0 when nobody does)", ("",)),
    Metric("match_win_rate", "matches", "`side=0`, `side=1`; three players: `seat=0..2`",
           "matches won by that side (seats 0 and 2 / 1 and 3; with two players side = "
           "seat) or player / matches", ("side=0", "side=1")),
    Metric("match_draw_rate", "matches", "overall", "drawn matches / matches", ("",)),
    Metric("match_unfinished_rate", "matches", "overall",
           "matches abandoned after 500 deals without a result / matches"),
    Metric("mean_deals_per_match", "matches", "overall",
           "deals per match, thrown-in deals included", ("",)),
    Metric("first_dealer_side_win_rate", "matches", "overall",
           "matches won by the first dealer's side / finished matches"),
    Metric("first_deal_winner_win_rate", "matches", "overall",
           "matches won by the side that scored more in the first played deal / finished "
           "matches whose first played deal had a higher scorer", ("",)),
)

#: The (metric, group) rows the command line prints after a run, in catalogue order.
HEADLINE: tuple[tuple[str, str], ...] = tuple(
    (m.name, g) for m in METRICS for g in m.headline
)


def metrics_markdown() -> str:
    """The catalogue's tables, one per section, as ``docs/metrics.md`` shows them
    between its ``metrics:begin`` and ``metrics:end`` markers."""
    parts = []
    for key, heading in SECTIONS.items():
        parts += [f"## {heading}", "", "| metric | groups | k / n, or the mean of |",
                  "|---|---|---|"]
        parts += [f"| `{m.name}` | {m.groups} | {m.definition} |"
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
METRICS_DOC = Path(__file__).resolve().parents[2] / "docs" / "metrics.md"
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


class _Rows:
    def __init__(self) -> None:
        self.rows: list[tuple] = []

    def prop(self, metric: str, group: str, k: int, n: int) -> None:
        if n <= 0:
            return
        lo, hi = wilson_interval(int(k), int(n))
        self.rows.append((metric, group, int(n), int(k), k / n, lo, hi))

    def mean(self, metric: str, group: str, total: int, total_sq: int, n: int) -> None:
        if n <= 0:
            return
        m, _, lo, hi = mean_interval(float(total), float(total_sq), int(n))
        self.rows.append((metric, group, int(n), None, m, lo, hi))


def summary_table(counters: np.ndarray, players: int = 4) -> pd.DataFrame:
    """The tidy summary of a run (columns of :data:`belote_sim.runner.rundir.SUMMARY_COLUMNS`):
    one row per metric and group, as ``docs/metrics.md`` lists them."""
    c = np.asarray(counters, dtype=np.int64)
    r = _Rows()
    deals = int(c[L.C_DEALS])
    played = deals - int(c[L.C_THROWN_IN])

    # Bidding, over all deals.
    r.prop("take_rate", "", played, deals)
    for rnd in (1, 2, 3):
        if c[L.C_TAKEN_ROUND + rnd] or rnd < 3:
            r.prop("take_rate", f"round={rnd}", c[L.C_TAKEN_ROUND + rnd], deals)
    for p in range(players):
        r.prop("take_rate", f"position={p + 1}", c[L.C_TAKEN_POS + p], deals)
    for rank in range(8):
        n = c[L.C_RETOURNE_DEALS + rank]
        r.prop("take_rate", f"retourne_rank={RANKS[rank]}", c[L.C_RETOURNE_TAKEN + rank], n)
        r.prop(
            "take_rate_round1", f"retourne_rank={RANKS[rank]}",
            c[L.C_RETOURNE_TAKEN_R1 + rank], n,
        )
    jack = 4
    others = [x for x in range(8) if x != jack]
    for name, ranks in (("jack", [jack]), ("other", others)):
        n = sum(int(c[L.C_RETOURNE_DEALS + x]) for x in ranks)
        r.prop("take_rate", f"retourne={name}", sum(c[L.C_RETOURNE_TAKEN + x] for x in ranks), n)
        r.prop(
            "take_rate_round1", f"retourne={name}",
            sum(c[L.C_RETOURNE_TAKEN_R1 + x] for x in ranks), n,
        )
    r.prop("thrown_in_rate", "", c[L.C_THROWN_IN], deals)

    # Outcomes, over played deals.
    r.prop("made_rate", "", c[L.C_MADE], played)
    r.prop("dedans_rate", "", c[L.C_DEDANS], played)
    for rnd in (1, 2, 3):
        r.prop("dedans_rate", f"round={rnd}", c[L.C_DEDANS_ROUND + rnd], c[L.C_TAKEN_ROUND + rnd])
    for p in range(players):
        r.prop("dedans_rate", f"position={p + 1}", c[L.C_DEDANS_POS + p], c[L.C_TAKEN_POS + p])
    for t in range(10):
        r.prop(
            "dedans_rate", f"taker_trumps={t}", c[L.C_TRUMPS_DEDANS + t], c[L.C_TRUMPS_PLAYED + t]
        )
    for t, name in enumerate(TRUMP_NAMES):
        r.prop("dedans_rate", f"trump={name}", c[L.C_TRUMP_DEDANS + t], c[L.C_TRUMP_PLAYED + t])
    for t, name in enumerate(TRUMP_NAMES):
        r.prop("contract_make_rate", f"strain={name}", c[L.C_STRAIN_MADE + t],
               c[L.C_STRAIN_CONTRACTS + t])
    for v, value in enumerate(L.BID_VALUES):
        r.prop("contract_make_rate", f"value={value}", c[L.C_VALUE_MADE + v],
               c[L.C_VALUE_CONTRACTS + v])
    coinche_played = int(c[L.C_MULTIPLIER_CONTRACTS : L.C_MULTIPLIER_CONTRACTS + 3].sum())
    for m, name in enumerate(("plain", "coinche", "surcoinche")):
        r.prop("contract_make_rate", f"multiplier={name}", c[L.C_MULTIPLIER_MADE + m],
               c[L.C_MULTIPLIER_CONTRACTS + m])
    r.prop("coinche_rate", "", c[L.C_MULTIPLIER_CONTRACTS + 1] + c[L.C_MULTIPLIER_CONTRACTS + 2],
           coinche_played)
    r.prop("surcoinche_rate", "", c[L.C_MULTIPLIER_CONTRACTS + 2], coinche_played)
    if players == 3:
        for p in range(3):
            r.mean("mean_deal_score", f"position={p + 1}", c[L.C_SUM_POSITION_SCORE + p],
                   c[L.C_SQ_POSITION_SCORE + p], played)
    r.prop("tie_rate", "", c[L.C_TIE], played)
    r.prop("litige_rate", "", c[L.C_LITIGE], played)
    r.prop("capot_rate", "side=takers", c[L.C_CAPOT_TAKERS], played)
    r.prop("capot_rate", "side=defenders", c[L.C_CAPOT_DEFENDERS], played)

    # Declarations held at the first trick, over played deals.
    for metric, idx in (
        ("p_any_declaration", L.C_ANY_DECLARATION),
        ("p_tierce", L.C_TIERCE),
        ("p_quarte", L.C_QUARTE),
        ("p_quinte_or_longer", L.C_QUINTE),
        ("p_carre_jacks", L.C_CARRE_J),
        ("p_carre_nines", L.C_CARRE_9),
        ("p_carre_other", L.C_CARRE_OTHER),
        ("p_belote_held", L.C_BELOTE),
    ):
        r.prop(metric, "", c[idx], played)
    r.prop("declaration_contest_won", "side=takers", c[L.C_DECL_TAKERS], played)
    r.prop("declaration_contest_won", "side=defenders", c[L.C_DECL_DEFENDERS], played)
    r.prop("made_by_declarations_rate", "", c[L.C_MADE_BY_DECLARATIONS], played)

    # Means over played deals.
    for metric, idx in (
        ("mean_taker_card_points", L.C_SUM_TAKER_CARD_POINTS),
        ("mean_taker_deal_score", L.C_SUM_TAKER_SCORE),
        ("mean_defender_deal_score", L.C_SUM_DEFENDER_SCORE),
        ("mean_declaration_points", L.C_SUM_DECL_POINTS),
    ):
        r.mean(metric, "", c[idx], c[idx + 1], played)

    # Matches.
    matches = int(c[L.C_MATCHES])
    if matches:
        finished = matches - int(c[L.C_MATCH_UNFINISHED])
        who = "seat" if players == 3 else "side"
        for s in range(3 if players == 3 else 2):
            r.prop("match_win_rate", f"{who}={s}", c[L.C_MATCH_WINS + s], matches)
        r.prop("match_draw_rate", "", c[L.C_MATCH_WINS + L.MATCH_DRAW], matches)
        r.prop("match_unfinished_rate", "", c[L.C_MATCH_UNFINISHED], matches)
        r.mean("mean_deals_per_match", "", c[L.C_SUM_MATCH_DEALS], c[L.C_SQ_MATCH_DEALS], matches)
        r.prop("first_dealer_side_win_rate", "", c[L.C_FIRST_DEALER_SIDE_WINS], finished)
        r.prop(
            "first_deal_winner_win_rate", "",
            c[L.C_FIRST_DEAL_WINNER_WINS], c[L.C_FIRST_DEAL_DECIDED],
        )
    return summary_frame(r.rows)


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

