"""What a report shows for each kind of output directory: the tables read back from its
Parquet files, turned into a :class:`~belote_sim.report.html.Page` of sections, tables
(every number with its 95% interval) and plots.

The plots depend on the Parquet tables alone, so they come out the same, byte for byte,
from the same files; the provenance block also reads ``run.json`` where there is one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.report import plots
from belote_sim.report.html import Page, Plot, Section, Table
from belote_sim.runner.rundir import read_provenance, read_table
from belote_sim.stats import BY_NAME, HEADLINE, LABELS, METRICS

# -- Reading a directory --------------------------------------------------------------


@dataclass
class Source:
    """An output directory read back: its ``kind`` (the command that wrote it), its main
    table, its provenance and, for a simulation, its histograms."""

    kind: str
    path: Path
    table: pd.DataFrame
    provenance: dict[str, Any]
    histograms: pd.DataFrame | None = None


#: The kinds of directory a report is made for, and the file each one's table is in.
KINDS = {
    "simulate": "summary.parquet",
    "compare": "compare.parquet",
    "arena": "summary.parquet",
    "bid-strength": "summary.parquet",
    "bid-table": "atlas.parquet",
    "card-values": "summary.parquet",
    "odds": "summary.parquet",
}


def read_source(directory: str | Path) -> Source:
    """Read an output directory of any command of :data:`KINDS`.

    :raises BeloteError: not a directory, or none of the expected files is there, or a
        run is unfinished.
    """
    path = Path(directory)
    if not path.is_dir():
        raise BeloteError(f"no such directory: {str(path)!r}")
    if (path / "run.json").is_file():  # a run of the chunk runner (resumable)
        from belote_sim.runner.rundir import load

        run = load(path)
        prov = dict(run.info.get("provenance", {}))
        kind = prov.get("command") or ("arena" if (path / "arena.json").is_file()
                                       else "simulate")
        hist = run.histograms if kind == "simulate" else None
        return Source(kind, path, run.summary, prov, hist)
    for name in ("atlas.parquet", "summary.parquet"):
        file = path / name
        if file.is_file():
            prov = read_provenance(file)
            kind = prov.get("command", "")
            if kind not in KINDS:
                raise BeloteError(f"{str(file)!r} was written by {kind or 'an unknown command'}"
                                  f"; a report is made for {', '.join(KINDS)}")
            return Source(kind, path, read_table(file), prov)
    raise BeloteError(
        f"{str(path)!r} holds no belote-sim output (run.json, summary.parquet or "
        "atlas.parquet)"
    )


# -- Numbers as text ------------------------------------------------------------------


def _digits(x: float) -> int:
    """Decimals for a percentage: 1 from 1 %, more below."""
    if x == 0 or x >= 0.01:
        return 1
    return min(4, 1 - math.floor(math.log10(x * 100)))


def pct(value: float, low: float = math.nan, high: float = math.nan) -> str:
    """A proportion as a percentage with its interval.

    >>> pct(0.58725, 0.580411, 0.594056)
    '58.7% [58.0, 59.4]'
    >>> pct(0.00177, 0.001528, 0.00205)
    '0.18% [0.15, 0.21]'
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    d = _digits(abs(value))
    text = f"{100 * value:.{d}f}%"
    if not (math.isnan(low) or math.isnan(high)) and (low != value or high != value):
        text += f" [{100 * low:.{d}f}, {100 * high:.{d}f}]"
    return text


def num(value: float, low: float = math.nan, high: float = math.nan, digits: int = 1,
        sign: bool = False) -> str:
    """A mean with its interval.

    >>> num(79.5156, 76.0501, 82.98)
    '79.5 [76.1, 83.0]'
    >>> num(5.8, 5.49, 6.1, sign=True)
    '+5.8 [+5.5, +6.1]'
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    text = f.format(value)
    if not (math.isnan(low) or math.isnan(high)):
        text += f" [{f.format(low)}, {f.format(high)}]"
    return text


def count(n: Any) -> str:
    return f"{int(n):,}"


def _nan(x: Any) -> float:
    return math.nan if x is None or x is pd.NA else float(x)


# -- Provenance -----------------------------------------------------------------------


def _rules_text(rules: dict[str, Any] | None) -> str:
    if not rules:
        return "n/a"
    options = rules.get("options", {})
    return f"{rules.get('preset')}: " + ", ".join(f"{k}={_on(v)}" for k, v in options.items())


def _on(v: Any) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


#: Provenance keys shown, in order, with the words the block uses for them.
PROVENANCE_LABELS = (
    ("command", "command"), ("version", "belote-sim version"), ("git_commit", "git commit"),
    ("numba", "Numba"), ("numpy", "NumPy"), ("rules", "rules"), ("labels", "cells"),
    ("factors", "factors"),
    ("bid_policy", "bidding"), ("play_policy", "card play"), ("models", "card-play models"),
    ("a", "player A"), ("b", "player B"), ("a_bid", "A's bidding"), ("b_bid", "B's bidding"),
    ("seed", "seed"), ("unit", "unit"), ("count", "asked"), ("deals", "deals"),
    ("matches", "matches"), ("played", "played"), ("worlds", "worlds"), ("cards", "cards"),
    ("method", "method"), ("samples", "samples"), ("executor", "executor"),
    ("threads", "threads"), ("workers", "workers"), ("started", "started"),
    ("finished", "finished"), ("wall_seconds", "time (s)"), ("seconds", "time (s)"),
    ("deals_per_second", "deals per second"), ("worlds_per_second", "worlds per second"),
)


def provenance_block(kind: str, prov: dict[str, Any]) -> list[tuple[str, str]]:
    """The (name, value) lines of a report's provenance block."""
    out = [("output of", f"belote-sim {kind}")]
    for key, label in PROVENANCE_LABELS:
        if key not in prov or prov[key] is None or key == "command":
            continue
        value = prov[key]
        if key == "rules":
            text = _rules_text(value)
        elif key == "factors":
            text = "; ".join(f"{name} = {', '.join(map(str, levels))}" for name, levels in value)
        elif isinstance(value, dict):
            text = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, float):
            text = f"{value:,.2f}" if value >= 1 else f"{value:.4g}"
        elif isinstance(value, int) and not isinstance(value, bool):
            text = f"{value:,}" if key != "seed" else str(value)
        elif isinstance(value, list | tuple):
            text = ", ".join(str(v) for v in value)
        else:
            text = str(value)
        out.append((label, text))
    if prov.get("git_commit") is None:
        out.append(("git commit", "none (not run from a git checkout)"))
    return out


# -- Summary tables (simulate, arena, odds) -------------------------------------------


def _rows(table: pd.DataFrame, metric: str, prefix: str | None = None) -> pd.DataFrame:
    """The rows of ``metric`` whose group is ``""`` (prefix None) or starts with
    ``prefix=``, with a ``level`` column (what follows the ``=``)."""
    rows = table[table.metric == metric]
    if prefix is None:
        rows = rows[rows.group == ""]
        return rows.assign(level=[""] * len(rows))
    rows = rows[rows.group.str.startswith(prefix + "=")]
    return rows.assign(level=[g.split("=", 1)[1] for g in rows.group])


def _is_rate(row: Any) -> bool:
    return row.k is not pd.NA and row.k is not None


def _cell(row: Any) -> str:
    v, lo, hi = float(row.value), _nan(row.ci_low), _nan(row.ci_high)
    return pct(v, lo, hi) if _is_rate(row) else num(v, lo, hi, digits=2)


def _label(metric: str, group: str) -> str:
    """The report's words for a row: the catalogue's label (:data:`LABELS`) of its metric,
    else the metric's name, and its group."""
    group = group.replace("=", " ").replace("side ", "")
    return LABELS.get(metric, metric.replace("_", " ")) + (f" ({group})" if group else "")


def summary_table(table: pd.DataFrame, wanted: Iterable[tuple[str, str]], caption: str = "",
                  folded: bool = False) -> Table:
    """The rows ``(metric, group)`` of a tidy summary table that it has, each value with
    its interval and ``n``."""
    index = {(r.metric, r.group): r for r in table.itertuples()}
    rows = []
    for metric, group in wanted:
        r = index.get((metric, group))
        if r is not None:
            rows.append([_label(metric, group), _cell(r), count(r.n)])
    return Table(["", "value [95% interval]", "out of"], rows, caption, folded)


#: The catalogue's match metrics (runs with ``--matches``).
MATCH_METRICS = frozenset(m.name for m in METRICS if m.section == "matches")


def _bars(table: pd.DataFrame, metric: str, prefix: str | None):
    rows = _rows(table, metric, prefix)
    return (list(rows.level), list(rows.value.astype(float)),
            [_nan(x) for x in rows.ci_low], [_nan(x) for x in rows.ci_high])


def _rank_order(levels: list[str]) -> list[str]:
    from belote_sim.cards import RANKS

    return sorted(levels, key=lambda r: RANKS.index(r) if r in RANKS else len(RANKS))


def simulate_page(src: Source) -> Page:
    t, prov = src.table, src.provenance
    rules = prov.get("rules", {})
    sections = [Section(
        "The headline",
        "Rates are of all deals (taking) or of played deals (the rest); means are points "
        "per played deal. Brackets: 95% intervals.",
        [summary_table(t, HEADLINE)],
    )]

    # Who takes, and when.
    panels = [(m, p, title) for m, p, title in (
        ("take_rate", "round", "by bidding round"),
        ("take_rate", "position", "by seat (1 = first to speak)"),
        ("take_rate", "retourne_rank", "by rank of the retourne"),
        ("take_rate", "strain", "by trump"),
        ("take_rate", "value", "by contract value"),
    ) if not _rows(t, m, p).empty]
    blocks: list[Plot | Table] = []
    if panels:
        fig, axes = plots.figure(len(panels), 1, height=2.6)
        for ax, (metric, prefix, title) in zip(axes, panels, strict=True):
            labels, values, lows, highs = _bars(t, metric, prefix)
            series = [("any round", values, lows, highs)]
            if prefix == "retourne_rank":
                order = _rank_order(labels)
                pick = [labels.index(x) for x in order]
                series = [("any round", *[[s[i] for i in pick] for s in (values, lows, highs)])]
                r1 = _bars(t, "take_rate_round1", prefix)
                if r1[0]:
                    pick1 = [r1[0].index(x) for x in order]
                    series.append(("round 1", *[[s[i] for i in pick1] for s in r1[1:]]))
                labels = order
            plots.draw_interval_bars(ax, labels, series, percent=True, title=f"Someone takes, "
                                 f"{title}", axis_label="of deals")
        blocks.append(Plot("take-rate", fig, "How often a contract is taken (bars: rate; "
                           "whiskers: 95% intervals)."))
    sections.append(Section("Who takes, and when", "", blocks))

    # Going dedans.
    blocks = []
    labels, values, lows, highs = _bars(t, "dedans_rate", "taker_trumps")
    if labels:
        order = sorted(labels, key=int)
        pick = [labels.index(x) for x in order]
        fig = plots.interval_bars(order, *[[s[i] for i in pick] for s in (values, lows, highs)],
                              title="The taker goes dedans, by trumps in the taker's hand",
                              percent=True, axis_label="of contracts")
        blocks.append(Plot("dedans-by-trumps", fig,
                           "Dedans rate by the number of trumps the taker holds after the "
                           "deal is completed."))
        blocks.append(Table(["taker's trumps", "dedans [95%]", "contracts"], [
            [lv, pct(v, lo, hi), count(n)] for lv, v, lo, hi, n in sorted(
                zip(labels, values, lows, highs, _rows(t, "dedans_rate", "taker_trumps").n,
                    strict=True), key=lambda x: int(x[0]))
        ]))
    sections.append(Section("Going dedans", "The taker's side goes dedans when it "
                            "scores fewer points than the defence (RULES.md section 7).",
                            blocks))

    # Capot, ties and litige.
    outcome = [(m, g) for m, g in (
        ("made_rate", ""), ("dedans_rate", ""), ("capot_rate", "side=takers"),
        ("capot_rate", "side=defenders"), ("tie_rate", ""), ("litige_rate", ""),
        ("thrown_in_rate", ""), ("made_by_declarations_rate", ""),
    ) if (m, g) in set(zip(t.metric, t.group, strict=True))]
    idx = {(r.metric, r.group): r for r in t.itertuples()}
    fig = plots.interval_bars([_label(m, g) for m, g in outcome],
                          [float(idx[k].value) for k in outcome],
                          [_nan(idx[k].ci_low) for k in outcome],
                          [_nan(idx[k].ci_high) for k in outcome],
                          title="How deals end", percent=True, horizontal=True)
    sections.append(Section("Capot, ties and litige", "", [
        Plot("outcomes", fig, "Outcomes of the played deals (thrown in: of all deals)."),
        summary_table(t, outcome),
    ]))

    # Points and scores.
    h = src.histograms
    if h is not None and not h.empty:
        names = [n for n in ("taker_card_points", "taker_deal_score", "defender_deal_score",
                             "declaration_points") if (h.histogram == n).any()]
        if names:
            fig, axes = plots.figure((len(names) + 1) // 2, 2, height=2.6)
            for ax, name in zip(axes, names, strict=False):
                part = h[h.histogram == name]
                plots.draw_histogram(ax, list(part.value), list(part["count"]),
                                 title=name.replace("_", " "), axis_label="points")
            for ax in axes[len(names):]:
                ax.set_visible(False)
            means = [("mean_taker_card_points", ""), ("mean_taker_deal_score", ""),
                     ("mean_defender_deal_score", ""), ("mean_declaration_points", "")]
            sections.append(Section("Points and scores", "Distribution over played deals.", [
                Plot("scores", fig, "Card points and deal scores (share of played deals "
                     "at each value)."), summary_table(t, means)]))

    # Declarations.
    sections.append(_declarations(t, rules))

    # Matches.
    if prov.get("unit") == "matches":
        wanted = [(m, g) for m, g in zip(t.metric, t.group, strict=True)
                  if m in MATCH_METRICS]
        blocks = [summary_table(t, wanted)]
        if h is not None and (h.histogram == "deals_per_match").any():
            part = h[h.histogram == "deals_per_match"]
            fig, (ax,) = plots.figure(height=2.8)
            plots.draw_histogram(ax, list(part.value), list(part["count"]),
                             title="Deals per match", axis_label="deals")
            blocks.insert(0, Plot("deals-per-match", fig, "How many deals a match lasts."))
        sections.append(Section("Matches", f"Played to {rules.get('options', {}).get('target')}"
                                " points.", blocks))

    sections.append(Section("Every figure", "", [summary_table(
        t, list(zip(t.metric, t.group, strict=True)), "every metric and group (docs/metrics.md "
        "says what each one counts)", folded=True)]))
    unit = prov.get("unit", "deals")
    return Page(
        f"belote-sim simulate: {rules.get('preset', '?')}",
        f"{count(prov.get('count', 0))} {unit}"
        + (f" ({count(prov.get('deals', 0))} deals)" if unit != "deals" else "") + ", "
        f"bidding {prov.get('bid_policy')}, card play {prov.get('play_policy')}, "
        f"seed {prov.get('seed')}",
        sections, provenance_block("simulate", prov),
    )


#: The simulator's declaration metrics (some hand of the deal) and the exact odds' metric
#: for one given hand that matches each (:data:`belote_sim.batch.odds.ODDS_METRICS`).
DECLARATION_PAIRS = (
    ("p_any_declaration", "p_any_declaration"), ("p_tierce", "p_tierce"),
    ("p_quarte", "p_quarte"), ("p_quinte_or_longer", "p_quinte_or_longer"),
    ("p_carre_jacks", "p_carre_jacks"), ("p_carre_nines", "p_carre_nines"),
    ("p_carre_other", None), ("p_belote_held", "p_kq_of_a_given_suit"),
)


def _declarations(t: pd.DataFrame, rules: dict[str, Any]) -> Section:
    options = rules.get("options", {})
    present = [(m, e) for m, e in DECLARATION_PAIRS if not _rows(t, m).empty]
    if not present:
        return Section("Declarations", "This rule set has no declarations.")
    exact = None
    if options.get("players") == 4:
        from belote_sim.studies.odds import exact_odds

        exact = exact_odds(8).set_index("metric").value
    rows = []
    labels, values, lows, highs, exact_values = [], [], [], [], []
    for m, e in present:
        r = _rows(t, m).iloc[0]
        labels.append(_label(m, ""))
        values.append(float(r.value))
        lows.append(_nan(r.ci_low))
        highs.append(_nan(r.ci_high))
        ex = float(exact[e]) if exact is not None and e is not None else math.nan
        exact_values.append(ex)
        rows.append([_label(m, ""), pct(float(r.value), _nan(r.ci_low), _nan(r.ci_high)),
                     pct(ex) if not math.isnan(ex) else "-"])
    fig, (ax,) = plots.figure(height=0.9 + 0.35 * len(labels))
    series = [("some hand of the deal (simulated)", values, lows, highs)]
    if exact is not None:
        series.append(("one given hand of 8 (exact)", exact_values, exact_values,
                       exact_values))
    plots.draw_interval_bars(ax, labels, series, percent=True, horizontal=True,
                         title="Declarations dealt")
    intro = ("Simulated: the share of played deals in which some hand holds it. Exact: the "
             "chance that one given hand of 8 cards holds it, from all C(32, 8) hands "
             "(belote: the king and queen of one named suit).")
    if options.get("shuffle") == "cut":
        intro += (" This run deals with shuffle=cut: the pack is only cut between deals, so "
                  "the exact odds of a shuffled pack need not hold.")
    return Section("Declarations", intro, [
        Plot("declarations", fig, "Declarations in the dealt hands."),
        Table(["", "in a deal (simulated) [95%]", "in one hand (exact)"], rows),
    ])


# -- compare ---------------------------------------------------------------------------

#: The metrics a comparison's plots show (rates in points of percentage, then means).
COMPARE_RATES = (("take_rate", ""), ("made_rate", ""), ("dedans_rate", ""),
                 ("capot_rate", "side=takers"), ("tie_rate", ""), ("litige_rate", ""))
COMPARE_MEANS = (("mean_taker_deal_score", ""), ("mean_defender_deal_score", ""),
                 ("mean_declaration_points", ""), ("mean_taker_card_points", ""))


def _compared(t: pd.DataFrame, wanted, kinds: tuple[str, ...]):
    have = set(zip(t.metric, t.group, strict=True))
    for metric, group in wanted:
        if (metric, group) not in have:
            continue
        part = t[(t.metric == metric) & (t.group == group) & t.kind.isin(kinds)]
        part = part[part["diff"].notna()]
        # A metric the variants cannot change (every difference exactly 0) gets no panel.
        if not part.empty and (part["diff"] != 0).any():
            yield metric, group, part


def _forest(t: pd.DataFrame, wanted, kinds, name: str, caption: str, scale: float,
            axis: str) -> Plot | None:
    parts = list(_compared(t, wanted, kinds))
    if not parts:
        return None
    rows = max(len(p) for _, _, p in parts)
    fig, axes = plots.figure(len(parts), 1, height=0.7 + 0.24 * rows)
    for ax, (metric, group, part) in zip(axes, parts, strict=True):
        plots.draw_forest(ax, list(part.cell), list(scale * part["diff"]),
                      list(scale * part.diff_ci_low), list(scale * part.diff_ci_high),
                      marked=list(part.p_holm < 0.05), title=_label(metric, group),
                      axis_label=axis)
    return Plot(name, fig, caption)


def compare_page(src: Source) -> Page:
    t, prov = src.table, src.provenance
    labels = prov.get("labels") or list(dict.fromkeys(t[t.kind == "cell"].cell))
    unit = prov.get("unit", "deals")
    sections = []
    # The cells side by side.
    wanted = [*COMPARE_RATES, *COMPARE_MEANS]
    cells = t[t.kind == "cell"]
    rows = []
    for metric, group in wanted:
        part = cells[(cells.metric == metric) & (cells.group == group)]
        if part.empty:
            continue
        for r in part.itertuples():
            value = _cell_of(metric, r.value, r.ci_low, r.ci_high)
            diff = "base" if math.isnan(_nan(r.diff)) else _diff_of(metric, r)
            rows.append([f"{_label(metric, group)}: {r.cell}", value, diff,
                         "" if math.isnan(_nan(r.p_holm)) else f"{r.p_holm:.3g}"])
    sections.append(Section(
        "The rule variants side by side",
        f"Every cell plays the same {unit}; differences are paired against the first cell "
        f"({labels[0] if labels else 'A'}), with 95% intervals and Holm-adjusted p-values.",
        [Table(["metric: cell", "value [95%]", "difference [95%]", "p (Holm)"], rows)],
    ))
    blocks = [b for b in (
        _forest(t, COMPARE_RATES, ("cell",), "compare-rates",
                "Paired differences against the first cell, in percentage points (orange: "
                "significant after Holm's adjustment).", 100.0, "percentage points"),
        _forest(t, COMPARE_MEANS, ("cell",), "compare-points",
                "Paired differences of the mean scores, in points per deal.", 1.0, "points"),
    ) if b is not None]
    sections.append(Section("What changes", "", blocks))
    effects = t[t.kind.isin(("main effect", "interaction"))]
    if not effects.empty:
        blocks = [b for b in (
            _forest(t, COMPARE_RATES, ("main effect", "interaction"), "effects-rates",
                    "Factorial effects on the rates: each option's main effect (its "
                    "second value against its first, averaged over the other options) "
                    "and the two-option interactions, in percentage points.", 100.0,
                    "percentage points"),
            _forest(t, COMPARE_MEANS, ("main effect", "interaction"), "effects-points",
                    "Factorial effects on the mean scores, in points per deal.", 1.0,
                    "points"),
        ) if b is not None]
        wanted = {*COMPARE_RATES, *COMPARE_MEANS}
        rows = [[f"{_label(r.metric, r.group)}: {r.cell}", _diff_of(r.metric, r),
                 f"{r.p_holm:.3g}" + (" *" if r.p_holm < 0.05 else "")]
                for r in effects.itertuples() if (r.metric, r.group) in wanted]
        blocks.append(Table(["effect", "size [95%]", "p (Holm)"], rows,
                            "every effect (* significant after Holm's adjustment)"))
        sections.append(Section("Factorial effects", "", blocks))
    sprt = prov.get("sprt")
    if sprt:
        sections.append(Section("Sequential test", (
            f"SPRT on {sprt['metric']}{' [' + sprt['group'] + ']' if sprt['group'] else ''}: "
            f"log-likelihood ratio {sprt['llr']:.3f} between {sprt['lower']:.3f} and "
            f"{sprt['upper']:.3f}, decision {sprt['decision']} after {sprt['played']:,} {unit}.")))
    return Page("belote-sim compare", f"{len(labels)} cells, {count(prov.get('played', 0))} "
                f"{unit}, bidding {prov.get('bid_policy')}, card play {prov.get('play_policy')}",
                sections, provenance_block("compare", prov))


def _cell_of(metric: str, v, lo, hi) -> str:
    if BY_NAME[metric].is_mean:
        return num(float(v), _nan(lo), _nan(hi))
    return pct(float(v), _nan(lo), _nan(hi))


def _diff_of(metric: str, r) -> str:
    d, lo, hi = float(r.diff), _nan(r.diff_ci_low), _nan(r.diff_ci_high)
    if BY_NAME[metric].is_mean:
        return num(d, lo, hi, digits=2, sign=True)
    return num(100 * d, 100 * lo, 100 * hi, digits=2, sign=True) + " pts"


# -- bid-strength ----------------------------------------------------------------------


def _worlds_given(prov: dict) -> str:
    """What the worlds of a bid-strength run were given, for its page."""
    if not prov.get("checked_calls"):
        return ", uniform"
    return (f" in which the other seats' calls so far are their bidder's: "
            f"{pct(prov['acceptance'])} of {count(prov['packs'])} packs tried")


def strength_page(src: Source) -> Page:
    from belote_sim.studies.bid_strength import DRAW_METRICS, MEANS, PROPORTIONS, REACH_METRIC

    t, prov = src.table, src.provenance
    calls = t[~t.metric.isin((REACH_METRIC, *DRAW_METRICS))]
    parts = calls.group.str.extract(r"model=(?P<model>\S+) call=(?P<call>\S+)")
    calls = calls.assign(model=parts.model, call=parts.call)
    models = list(dict.fromkeys(calls.model))
    sections = []
    gains = calls[calls.metric == "gain_over_pass"]
    # The calls shown: all of a retourne game's; coinche's best 12 and the pass.
    shown: dict[str, list[str]] = {}
    for m in models:
        g = gains[gains.model == m].sort_values("value", ascending=False, kind="stable")
        names = list(g.call)
        shown[m] = names if len(names) <= 12 else ["pass", *[c for c in names if c != "pass"]
                                                            [:11]]
    fig, axes = plots.figure(1, len(models), height=0.9 + 0.3 * max(len(v) for v in shown.values()))
    for ax, m in zip(axes, models, strict=True):
        g = gains[gains.model == m].set_index("call").loc[shown[m]]
        plots.draw_interval_bars(ax, list(g.index), [("", list(g.value), list(g.ci_low),
                             list(g.ci_high))], horizontal=True, title=f"play model: {m}",
                             axis_label="gain over passing, points per deal")
    blocks: list[Plot | Table] = [Plot(
        "gain-over-pass", fig, "What each call gains over passing, in points of the deal "
        "score difference (whiskers: 95% intervals)."
    )]
    for m in models:
        part = calls[calls.model == m]
        chances, scores = [], []
        for call in shown[m]:
            c = part[part.call == call].set_index("metric")

            def cell(x: str, rate: bool, c=c) -> str:
                v, lo, hi = float(c.value[x]), _nan(c.ci_low[x]), _nan(c.ci_high[x])
                return pct(v, lo, hi) if rate else num(v, lo, hi, sign=x == "gain_over_pass")

            chances.append([call, *[cell(p, True) for p, _ in PROPORTIONS
                                    if p in c.index and p != "p_thrown_in"]])
            scores.append([call, *[cell(x, False) for x in MEANS
                                   if x in c.index and x != "mean_difference"]])
        blocks.append(Table(["call", *[p.replace("p_", "P(") + ")" for p, _ in PROPORTIONS
                                       if p != "p_thrown_in"]], chances,
                            f"play model {m}: the chances"))
        blocks.append(Table(["call", "own score", "opponents' score", "gain over pass"],
                            scores, f"play model {m}: points per deal"))
    where = (f"round {prov['round']}" if prov.get("round")
             else "calls so far: " + (" ".join(prov.get("calls", [])) or "none"))
    retourne = f", retourne {prov['retourne']}" if prov.get("retourne") else ""
    sections.append(Section(
        "Every call, played out",
        f"Hand {' '.join(prov.get('hand', []))}{retourne}; seat {prov.get('seat')} "
        f"(dealer {prov.get('dealer')}), {where}. Each call is played in the same "
        f"{count(prov.get('worlds', 0))} worlds (completions of the unseen cards"
        f"{_worlds_given(prov)}).", blocks))
    reach = t[t.metric == REACH_METRIC]
    if not reach.empty:
        rp = reach.group.str.extract(r"model=(?P<model>\S+) strain=(?P<strain>\S+) "
                                     r"value=(?P<bid>\d+)")
        reach = reach.assign(model=rp.model, strain=rp.strain, bid=rp.bid.astype(int))
        fig, axes = plots.figure(1, len(models), height=3.2)
        for ax, m in zip(axes, models, strict=True):
            part = reach[reach.model == m]
            strains = list(dict.fromkeys(part.strain))
            bids = sorted(set(part.bid))
            series, lows, highs = [], [], []
            for s in strains:
                q = part[part.strain == s].set_index("bid").loc[bids]
                series.append((s, list(q.value)))
                lows.append(list(q.ci_low))
                highs.append(list(q.ci_high))
            plots.draw_lines(ax, bids, series, lows=lows, highs=highs, percent=True,
                         title=f"play model: {m}", xlabel="contract value",
                         ylabel="P(takers' score >= value)")
        sections.append(Section("How high to bid", "The chance that the seat's side scores "
                                "at least each value when the auction ends on its bid in "
                                "that strain.", [Plot("reach", fig, "P(S_T >= value) by "
                                                      "strain (bands: 95% intervals).")]))
    return Page("belote-sim bid-strength: how good is this hand?",
                f"{prov.get('rules', {}).get('preset')}: hand {' '.join(prov.get('hand', []))}"
                f"{retourne}, later calls by {prov.get('bid_policy')}",
                sections, provenance_block("bid-strength", prov))


# -- bid-table (the atlas) ---------------------------------------------------------------

#: Holdings shown in the heat maps: the most frequent ones, at most this many.
HEAT_ROWS = 14
#: A heat-map cell with fewer decisions is left blank (its rate would be noise).
HEAT_MIN_N = 20


def _pooled(atlas: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    from belote_sim.studies.atlas import SUMS, with_rates

    pooled = atlas.groupby(["model", *keys], sort=False)[list(SUMS)].sum()
    return with_rates(pooled.reset_index())


#: The two heat maps of an atlas: (column, title, cell format, centre of the scale).
HEAT_MAPS = (("made_rate", "contract made", "{:.0%}", None),
             ("gain", "gain over passing", "{:+.0f}", 0.0))


def _heat(ax, pooled: pd.DataFrame, holdings: list[str], aces: list[int], metric: str,
          title: str, fmt: str, centre: float | None) -> None:
    part = pooled[pooled.n >= HEAT_MIN_N].set_index(["holding", "side_aces"])[metric]
    matrix = [[float(part.get((h, a), math.nan)) for a in aces] for h in holdings]
    plots.draw_heatmap(ax, matrix, holdings, [str(a) for a in aces], fmt=fmt, centre=centre,
                   vmin=0.0 if centre is None else None, vmax=1.0 if centre is None else None,
                   title=title, xlabel="side aces", ylabel="trump holding (J 9 A T, +KQ)")


def _holdings(pooled: pd.DataFrame) -> list[str]:
    """The most frequent holdings, at most :data:`HEAT_ROWS`."""
    n = pooled.groupby("holding", sort=False).n.sum()
    return list(n.sort_values(ascending=False, kind="stable").index[:HEAT_ROWS])


def atlas_grid_figure(atlas: pd.DataFrame) -> plots.Figure:
    """One play model's atlas (class sums) as two heat maps side by side: make rate and
    gain over passing by trump holding and side aces."""
    pooled = _pooled(atlas, ["holding", "side_aces"])
    holdings, aces = _holdings(pooled), sorted(set(pooled.side_aces))
    fig, axes = plots.figure(1, 2, height=0.9 + 0.32 * len(holdings))
    for ax, (metric, title, fmt, centre) in zip(axes, HEAT_MAPS, strict=True):
        _heat(ax, pooled, holdings, aces, metric, title, fmt, centre)
    return fig


def atlas_page(src: Source) -> Page:
    from belote_sim.stats import wilson_interval
    from belote_sim.studies.atlas import model_gap

    atlas, prov = src.table, src.provenance
    models = list(dict.fromkeys(atlas.model))
    pooled = _pooled(atlas, ["holding", "side_aces"])
    holdings = _holdings(pooled[pooled.model == models[0]])
    aces = sorted(set(pooled.side_aces))
    sections = []
    for metric, title, fmt, centre in HEAT_MAPS:
        fig, axes = plots.figure(1, len(models), height=0.9 + 0.32 * len(holdings))
        for ax, m in zip(axes, models, strict=True):
            _heat(ax, pooled[pooled.model == m], holdings, aces, metric, f"{title}: {m}",
                  fmt, centre)
        sections.append(Section(
            f"When the call is made: {title}",
            "Every bidding decision of the simulated deals, the call played out beside the "
            "pass on the same deal; pooled over positions, rounds and trump lengths. Rows: "
            "the honours the bidder holds in the strain ('-': none of J, 9, A, T); columns: "
            f"aces held outside it. Blank: fewer than {HEAT_MIN_N} decisions.",
            [Plot(f"atlas-{metric.replace('_', '-')}", fig,
                  f"{title.capitalize()} by trump holding and side aces, one map per play "
                  "model.")]))
    rows = []
    by_holding = _pooled(atlas, ["holding"])
    for h in holdings:
        cells = [h]
        for m in models:
            r = by_holding[(by_holding.model == m) & (by_holding.holding == h)].iloc[0]
            lo, hi = wilson_interval(int(r.made), int(r.n))
            cells += [count(r.n), pct(float(r.made_rate), lo, hi),
                      num(float(r.gain), float(r.gain_low), float(r.gain_high), sign=True)]
        rows.append(cells)
    cols = ["holding"] + [f"{m}: {c}" for m in models for c in ("decisions", "made [95%]",
                                                                  "gain [95%]")]
    sections.append(Section("By trump holding", "", [Table(cols, rows)]))
    if "dd" in models and len(models) > 1:
        realistic = next(m for m in models if m != "dd")
        by = "round" if "round" in atlas.columns else "strain"
        gap_rows = []
        for key in (by, "holding"):
            gap = model_gap(atlas, realistic, by=[key])
            for r in gap.itertuples():
                if key == "holding" and r.holding not in holdings:
                    continue
                gap_rows.append([f"{key} {getattr(r, key)}", count(r.n),
                                 pct(r.made_rate_dd),
                                 pct(getattr(r, f"made_rate_{realistic}")),
                                 f"{r.gap_points:+.1f}"])
        sections.append(Section(
            "Perfect play against realistic play",
            f"How much more often a contract is made when every seat plays double-dummy "
            f"than under {realistic} play, on the same decisions.",
            [Table(["class", "decisions", "made, dd", f"made, {realistic}", "gap (points)"],
                   gap_rows)]))
    return Page(f"belote-sim bid-table: the bid atlas of {prov.get('rules', {}).get('preset')}",
                f"{count(prov.get('deals', 0))} deals, bidding {prov.get('bid_policy')}, play "
                f"models {', '.join(models)}", sections, provenance_block("bid-table", prov))


# -- card-values, arena, odds ------------------------------------------------------------


def card_values_page(src: Source) -> Page:
    from belote_sim.studies.card_values import value_table

    t, prov = src.table, src.provenance
    wide = value_table(t)
    models = list(dict.fromkeys(m for m, _ in wide.columns))
    cards = list(wide.index)
    series = [(m, list(wide[(m, "value")]), list(wide[(m, "ci_low")]),
               list(wide[(m, "ci_high")])) for m in models]
    fig, (ax,) = plots.figure(height=1.0 + 0.3 * len(cards))
    plots.draw_interval_bars(ax, cards, series, horizontal=True,
                         title="What a card is worth to the taker's side",
                         axis_label="points of deal-score difference")
    rows = [[card, *[num(float(wide.loc[card, (m, "value")]), float(wide.loc[card, (m, "ci_low")]),
                         float(wide.loc[card, (m, "ci_high")]), sign=True) for m in models]]
            for card in cards]
    return Page(
        f"belote-sim card-values: {prov.get('rules', {}).get('preset')}",
        f"{count(prov.get('deals', 0))} deals, bidding {prov.get('bid_policy')}",
        [Section("What each card is worth",
                 "Each card of the taker's hand swapped with a random defender's card and "
                 "the deal played again with the same calls; the paired difference of the "
                 "deal scores (own minus opponents'). A low side card is worth less than "
                 "nothing: the swap usually brings a better one.",
                 [Plot("card-values", fig, "Value of each card role (whiskers: 95% "
                       "intervals)."), Table(["card", *[f"{m} [95%]" for m in models]], rows)])],
        provenance_block("card-values", prov))


def arena_page(src: Source) -> Page:
    from belote_sim.studies.arena import format_seconds

    t, prov = src.table, src.provenance
    idx = {r.metric: r for r in t.itertuples()}
    d = idx["mean_score_diff"]
    blocks: list[Plot | Table] = []
    panels = [("mean_score_diff", "score difference per deal, A - B", False)]
    if "a_match_win_rate" in idx:
        panels.append(("a_match_win_rate", "A's share of matches won", True))
    fig, axes = plots.figure(1, len(panels), height=2.4)
    for ax, (metric, title, rate) in zip(axes, panels, strict=True):
        r = idx[metric]
        plots.draw_interval_bars(ax, [f"A = {prov.get('a')}"], [(
            "", [float(r.value)], [float(r.ci_low)], [float(r.ci_high)])], horizontal=True,
            percent=rate, title=title)
        if rate:
            ax.axvline(0.5, color="grey", linewidth=0.6, linestyle="--")
    blocks.append(Plot("arena", fig, "A against B on the same cards, sides swapped "
                       "(whiskers: 95% intervals)."))
    rows = [["score difference per deal, A - B", num(float(d.value), float(d.ci_low),
                                                     float(d.ci_high), digits=2, sign=True)]]
    for metric, label in (("a_mean_deal_score", "A's mean deal score"),
                          ("b_mean_deal_score", "B's mean deal score")):
        rows.append([label, num(float(idx[metric].value), digits=2)])
    for metric, label in (("a_match_win_rate", "A's share of matches won"),
                          ("match_draw_rate", "matches drawn"),
                          ("thrown_in_rate", "deals thrown in")):
        if metric in idx:
            r = idx[metric]
            rows.append([label, pct(float(r.value), float(r.ci_low), float(r.ci_high))])
    for who in "ab":
        r = idx.get(f"{who}_seconds_per_decision")
        if r is not None:
            rows.append([f"time per decision, {who.upper()} ({prov.get(who)})",
                         f"{format_seconds(float(r.value))} over {count(r.n)} decisions"])
    blocks.append(Table(["", "value [95%]"], rows))
    bidding = (prov.get("a_bid") if prov.get("a_bid") == prov.get("b_bid")
               else f"A {prov.get('a_bid')}, B {prov.get('b_bid')}")
    return Page(f"belote-sim arena: {prov.get('a')} against {prov.get('b')}",
                f"{prov.get('rules', {}).get('preset')}, {count(prov.get('deals', 0))} deals "
                f"each played twice, bidding {bidding}",
                [Section("Who plays better", "Positive: A scores more.", blocks)],
                provenance_block("arena", prov))


def odds_page(src: Source) -> Page:
    from belote_sim.batch.odds import MEAN_METRIC
    from belote_sim.studies.odds import exact_odds

    t, prov = src.table, src.provenance
    cards = int(prov.get("cards", 8))
    rates = t[t.metric != MEAN_METRIC]
    sampled = prov.get("method") != "exact"
    series = [("exact" if not sampled else f"{count(prov.get('samples', 0))} sampled hands",
               list(rates.value), list(rates.ci_low), list(rates.ci_high))]
    exact = exact_odds(cards).set_index("metric").value if sampled else None
    if exact is not None:
        ex = [float(exact[m]) for m in rates.metric]
        series.append(("exact", ex, ex, ex))
    labels = [m.replace("p_", "").replace("_", " ") for m in rates.metric]
    fig, (ax,) = plots.figure(height=1.0 + 0.35 * len(labels))
    plots.draw_interval_bars(ax, labels, series, percent=True, horizontal=True,
                         title=f"Declarations in one hand of {cards} cards")
    rows = []
    for r in t.itertuples():
        rate = r.metric != MEAN_METRIC
        cells = [r.metric.replace("p_", "").replace("_", " "),
                 pct(float(r.value), float(r.ci_low), float(r.ci_high)) if rate
                 else num(float(r.value), float(r.ci_low), float(r.ci_high), digits=3)]
        if exact is not None:
            v = float(exact[r.metric])
            cells.append(pct(v) if rate else num(v, digits=3))
        rows.append(cells)
    cols = ["", series[0][0] + " [95%]"] + (["exact"] if exact is not None else [])
    method = (f"Monte Carlo, {count(prov.get('samples', 0))} hands" if sampled
              else "exact enumeration")
    return Page(f"belote-sim odds: declarations in a hand of {cards}", method,
                [Section("How often a hand holds each declaration", "", [
                    Plot("odds", fig, "Declarations in one random hand."),
                    Table(cols, rows)])],
                provenance_block("odds", prov))


#: The page builder of each kind.
BUILDERS: dict[str, Callable[[Source], Page]] = {
    "simulate": simulate_page, "compare": compare_page, "arena": arena_page,
    "bid-strength": strength_page, "bid-table": atlas_page, "card-values": card_values_page,
    "odds": odds_page,
}
assert set(BUILDERS) == set(KINDS)


def build_page(src: Source) -> Page:
    """The report page of an output directory read by :func:`read_source`."""
    return BUILDERS[src.kind](src)
