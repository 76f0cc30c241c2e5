"""The published study's page: ``results/README.md`` and its plots (``results/plots/``),
written from the study's tables alone (:mod:`belote_sim.studies.study` plays the parts and
writes the tables).

:func:`render` is a pure function of the tables: the test suite renders the committed
tables again and requires the committed README, so no figure in it can be stale.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from belote_sim.report import plots
from belote_sim.report.pages import atlas_grid_figure, pct
from belote_sim.runner.rundir import write_bytes_atomic
from belote_sim.runner.rundir import write_text_atomic as _write_text
from belote_sim.stats import BY_NAME, LABELS
from belote_sim.studies.atlas import SUMS
from belote_sim.studies.study import (
    DISPUTES,
    FACTORIALS,
    MAX_INTERACTIONS,
    RULEBOOKS,
    WORLD_KINDS,
    load_tables,
    row_where,
)


def write_study(out: str | Path) -> Path:
    """``OUT/README.md`` and ``OUT/plots/*.png`` from ``OUT/tables/``; the README's path."""
    out = Path(out)
    tables = load_tables(out)
    (out / "plots").mkdir(exist_ok=True)
    for name, fig in figures(tables).items():
        write_bytes_atomic(out / "plots" / f"{name}.png", plots.png_bytes(fig))
    readme = out / "README.md"
    _write_text(readme, render(tables))
    return readme


# -- Figures and text -------------------------------------------------------------------


def _about(tables) -> dict[str, str]:
    return dict(zip(tables["about"].key, tables["about"].value, strict=True))


def _p(r: pd.Series | None) -> str:
    return "-" if r is None else pct(float(r.value), float(r.ci_low), float(r.ci_high))


def _m(r: pd.Series | None, digits: int = 1) -> str:
    if r is None:
        return "-"
    return f"{r.value:.{digits}f} [{r.ci_low:.{digits}f}, {r.ci_high:.{digits}f}]"


def _d(value: float, low: float, high: float, scale: float = 1.0, digits: int = 2) -> str:
    f = f"{{:+.{digits}f}}"
    if math.isnan(value):
        return "-"
    if math.isnan(low) or math.isnan(high):
        return f.format(scale * value) + " (one deal)"
    return f"{f.format(scale * value)} [{f.format(scale * low)}, {f.format(scale * high)}]"


def _md_table(columns: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out + [""]


#: The rows of the presets table: (heading, unit, metric, group); a proportion or a mean
#: as the catalogue (:data:`belote_sim.stats.METRICS`) says.
PRESET_COLUMNS = (
    ("take", "deals", "take_rate", ""),
    ("made", "deals", "made_rate", ""),
    ("dedans", "deals", "dedans_rate", ""),
    ("capot by the takers", "deals", "capot_rate", "side=takers"),
    ("litige pot", "deals", "litige_rate", ""),
    ("takers' score", "deals", "mean_taker_deal_score", ""),
    ("defenders' score", "deals", "mean_defender_deal_score", ""),
)
MATCH_COLUMNS = (
    ("deals per match", "matches", "mean_deals_per_match", ""),
    ("drawn", "matches", "match_draw_rate", ""),
    ("first dealer's side wins", "matches", "first_dealer_side_win_rate", ""),
    ("first deal's winner wins", "matches", "first_deal_winner_win_rate", ""),
)


def _preset_rows(t: pd.DataFrame, columns) -> list[list[str]]:
    rows = []
    for name in dict.fromkeys(t.preset):
        cells = [f"`{name}`"]
        for _, unit, metric, group in columns:
            units = [unit] if unit == "matches" else ["deals", "matches"]
            r = None
            for u in units:  # a cut-pack preset has its deal figures from its matches
                r = r if r is not None else row_where(t, preset=name, unit=u, metric=metric,
                                                 group=group)
            cells.append(_m(r) if BY_NAME[metric].is_mean else _p(r))
        rows.append(cells)
    return rows


def figures(tables: dict[str, pd.DataFrame]) -> dict[str, object]:
    """The study's plots, by file stem."""
    out = {}
    t = tables["presets"]
    presets = list(dict.fromkeys(t.preset))
    fig, axes = plots.figure(1, 3, height=3.4)
    for ax, (title, metric, group) in zip(axes, (
            (LABELS["take_rate"], "take_rate", ""), (LABELS["dedans_rate"], "dedans_rate", ""),
            ("capot by the takers", "capot_rate", "side=takers")), strict=True):
        rows = [row_where(t, preset=p, unit="matches" if not (
            (t.preset == p) & (t.unit == "deals")).any() else "deals", metric=metric,
            group=group) for p in presets]
        pairs = [(p, r) for p, r in zip(presets, rows, strict=True) if r is not None]
        plots.draw_interval_bars(ax, [p for p, _ in pairs], [("", [r.value for _, r in pairs],
                             [r.ci_low for _, r in pairs], [r.ci_high for _, r in pairs])],
                             percent=True, horizontal=True, title=title)
        if ax is not axes[0]:
            ax.set_yticklabels([])
    out["presets"] = fig

    o = tables["odds"]
    exact = o[(o.method == "exact") & (o.cards == 8) & o.k.notna()]
    sampled = o[(o.method == "sampled") & o.k.notna()].set_index("metric")
    labels = [m.removeprefix("p_").replace("_", " ") for m in exact.metric]
    fig, (ax,) = plots.figure(height=3.6)
    plots.draw_interval_bars(ax, labels, [
        ("exact", list(exact.value), list(exact.value), list(exact.value)),
        ("sampled", [sampled.value[m] for m in exact.metric],
         [sampled.ci_low[m] for m in exact.metric], [sampled.ci_high[m] for m in exact.metric]),
    ], percent=True, horizontal=True, title="Declarations in one hand of 8 cards")
    out["odds"] = fig

    a = tables["atlas"]
    for preset in dict.fromkeys(a.preset):
        out[f"atlas-{preset}"] = atlas_grid_figure(
            a[(a.preset == preset) & (a.model == "heuristic")].drop(columns=["preset", "deals"]))

    wide = _values(tables)
    models = list(dict.fromkeys(m for m, _ in wide.columns))
    fig, (ax,) = plots.figure(height=1.0 + 0.3 * len(wide))
    plots.draw_interval_bars(ax, list(wide.index), [
        (m, list(wide[(m, "value")]), list(wide[(m, "ci_low")]), list(wide[(m, "ci_high")]))
        for m in models], horizontal=True, title="What a card is worth to the taker's side",
        axis_label="points of deal-score difference")
    out["card-values"] = fig

    f = tables["factorial"]
    fig, axes = plots.figure(1, 2, height=3.6)
    for ax, (metric, group, scale, title) in zip(axes, (
            ("dedans_rate", "", 100.0, "dedans rate (percentage points)"),
            ("mean_taker_deal_score", "", 1.0, "takers' deal score (points)")), strict=True):
        part = f[(f.unit == "deals") & (f.metric == metric) & (f.group == group)
                 & (f.kind == "main effect")]
        plots.draw_forest(ax, list(part.cell), list(scale * part["diff"]),
                      list(scale * part.diff_ci_low), list(scale * part.diff_ci_high),
                      marked=list(part.p_holm < 0.05), title=title)
        if ax is not axes[0]:
            ax.set_yticklabels([])
    out["factorial"] = fig

    ar = tables["arena"]
    fig, (ax,) = plots.figure(height=1.0 + 0.45 * len(ar))
    plots.draw_interval_bars(ax, [_matchup(r) for r in ar.itertuples()], [(
        "", list(ar.mean_score_diff), list(ar.diff_low), list(ar.diff_high))],
        horizontal=True, title="Score difference per deal, A - B",
        axis_label="points per deal")
    out["arena"] = fig
    return out


def _matchup(r) -> str:
    if r.a == r.b:
        return f"{r.a}: {r.a_bid} vs {r.b_bid} bidding"
    return f"{r.a} vs {r.b}"


def render(tables: dict[str, pd.DataFrame]) -> str:
    """``results/README.md`` from the study's tables (a pure function of them)."""
    about = _about(tables)
    sizes = {k.removeprefix("size: "): v for k, v in about.items() if k.startswith("size: ")}
    minutes = float(about["seconds"]) / 60
    L: list[str] = [
        "# The belote_sim study",
        "",
        "<!-- Generated by `make study` (belote_sim/report/study.py) from the tables in "
        "tables/: edit the code, not this file. -->",
        "",
        "What realistic belote looks like in numbers: every rule preset, declaration odds, "
        "what a hand and a card are worth, what each rule option changes, and how strong "
        "the players are. Unless said otherwise every seat bids by threshold and plays the "
        "heuristic card player; brackets are 95% intervals. "
        f"Generated by `make study` in {minutes:.0f} minutes on a 2-core machine "
        f"(belote-sim {about['version']}, commit {about['git_commit']}, Numba "
        f"{about['numba']}, NumPy {about['numpy']}, {about['started']}). Every figure "
        "below is read from the Parquet tables in [tables/](tables/); a test renders them "
        "again and requires this file.",
        "",
    ]
    if about["quick"] == "True":
        L += ["**A quick run**: a few deals per part, for the test suite. The figures mean "
              "nothing.", ""]
    L += _findings(tables)
    # Presets.
    t = tables["presets"]
    L += ["## Every preset", "",
          f"{int(sizes['preset_deals']):,} deals per preset (seed "
          f"{about['seed: presets']}), and {int(sizes['preset_matches']):,} whole matches to "
          "the target. Take: of all deals; made, dedans, capot, litige pot: of the played "
          "deals; scores: points per played deal.",
          ""]
    L += _md_table(["preset", *[c[0] for c in PRESET_COLUMNS]], _preset_rows(t, PRESET_COLUMNS))
    L += _md_table(["preset", *[c[0] for c in MATCH_COLUMNS]], _preset_rows(t, MATCH_COLUMNS))
    L += ["![take, dedans and capot rates by preset](plots/presets.png)", ""]
    # Declarations.
    o = tables["odds"]
    sh = tables["shuffle"]
    L += ["## Declarations: exact odds, sampled, and a cut pack", "",
          "One hand of 8 (or 9) cards: exact, from every hand (C(32, 8) = 10,518,300); "
          f"sampled: {int(sizes['odds_samples']):,} random hands of 8, which must agree. "
          "Then the declarations dealt in a deal of `classic` (some hand of the four holds "
          f"it), over {int(sizes['shuffle_matches']):,} matches with a shuffled pack and "
          "with a pack only cut between deals (shuffle=cut, RULES.md section 4), and the "
          "difference.", ""]
    rows = []
    for r in o[(o.method == "exact") & (o.cards == 8)].itertuples():
        ex9 = row_where(o, method="exact", cards=9, metric=r.metric)
        sm = row_where(o, method="sampled", cards=8, metric=r.metric)
        rate = r.k is not pd.NA and not (isinstance(r.k, float) and math.isnan(r.k))
        fmt = (lambda v: pct(float(v))) if rate else (lambda v: f"{float(v):.3f}")
        rows.append([r.metric.removeprefix("p_").replace("_", " "), fmt(r.value),
                     fmt(ex9.value), _p(sm) if rate else _m(sm, 3)])
    L += _md_table(["in one hand", "exact, 8 cards", "exact, 9 cards", "sampled, 8 cards"],
                   rows)
    rows = []
    for metric in ("p_any_declaration", "p_tierce", "p_quarte", "p_quinte_or_longer",
                   "p_carre_jacks", "p_carre_nines", "p_carre_other", "p_belote_held",
                   "take_rate", "dedans_rate"):
        full = row_where(sh, metric=metric, group="", kind="cell", cell="shuffle=full")
        cut = row_where(sh, metric=metric, group="", kind="cell", cell="shuffle=cut")
        if full is None or cut is None:
            continue
        rows.append([metric.removeprefix("p_").replace("_", " "), _p(full), _p(cut),
                     _d(cut["diff"], cut.diff_ci_low, cut.diff_ci_high, 100) + " pts"])
    L += _md_table(["in a deal", "shuffle=full", "shuffle=cut", "cut - full"], rows)
    L += ["![declaration odds, exact and sampled](plots/odds.png)", ""]
    # Atlas.
    L += _atlas_section(tables, about)
    # Card values.
    wide = _values(tables)
    models = list(dict.fromkeys(m for m, _ in wide.columns))
    L += ["## What a card is worth", "",
          f"`classic`, {int(sizes['card_deals']):,} deals under heuristic play and "
          f"{int(sizes['card_dd_deals']):,} under double-dummy play (seed "
          f"{about['seed: card_values']}): each card of the taker's hand swapped with a "
          "random defender's card, the deal played again with the same calls; the points "
          "of deal-score difference (own minus opponents') the card is worth. Trump Q and "
          "K include the belote they complete; a low side card is worth less than nothing, "
          "as the swap usually brings a better one.", ""]
    L += _md_table(["card", *models], [
        [card, *[_d(wide.loc[card, (m, "value")], wide.loc[card, (m, "ci_low")],
                    wide.loc[card, (m, "ci_high")], digits=1) for m in models]]
        for card in wide.index])
    L += ["![card values](plots/card-values.png)", ""]
    L += _factorial_section(tables, sizes, about)
    L += _rulebooks_section(tables, sizes, about)
    L += _arena_section(tables, about)
    L += _worlds_section(tables, sizes, about)
    L += ["## Time", "", "Minutes each part took: " + "; ".join(
        f"{k.removeprefix('seconds: ')} {float(v) / 60:.1f}" for k, v in about.items()
        if k.startswith("seconds: ")) + f"; in all {minutes:.1f}.", ""]
    return "\n".join(L)


def _findings(tables) -> list[str]:
    """Three findings a belote player may not expect, each figure read from the tables."""
    out = ["## Three findings", ""]
    first = row_where(tables["presets"], preset="classic", unit="matches",
                 metric="first_dealer_side_win_rate", group="")
    if first is not None:
        out.append(
            "- **Dealing first is a handicap**: the first dealer's side wins "
            f"{_p(first)} of classic matches to 1000 (its opponents speak and lead first "
            "in the first deal).")
    sh = tables["shuffle"]
    take = row_where(sh, metric="take_rate", group="", kind="cell", cell="shuffle=cut")
    decl = row_where(sh, metric="p_any_declaration", group="", kind="cell", cell="shuffle=cut")
    if take is not None and decl is not None:
        out.append(
            "- **A pack only cut between deals makes stronger hands**: against a shuffled "
            "pack, the take rate rises by "
            f"{_d(take['diff'], take.diff_ci_low, take.diff_ci_high, 100)} points and the "
            "chance that a deal holds some declaration by "
            f"{_d(decl['diff'], decl.diff_ci_low, decl.diff_ci_high, 100)} points: the "
            "cards of the last deal's tricks stay together.")
    wide = _values(tables)
    if "heuristic" in {m for m, _ in wide.columns}:
        def value(card: str) -> str:
            return _d(*(wide.loc[card, ("heuristic", k)] for k in ("value", "ci_low",
                                                                 "ci_high")), digits=1)

        out.append(
            f"- **A side ten is worth nothing to the taker**: {value('side T')} points, "
            f"against {value('side A')} for a side ace and {value('trump T')} for the ten "
            "of trumps (heuristic play; a card against a random defender's card).")
    return out + [""]


def _values(tables) -> pd.DataFrame:
    """The card-value table, heuristic play first."""
    from belote_sim.studies.card_values import value_table

    wide = value_table(tables["card_values"])
    models = sorted(dict.fromkeys(m for m, _ in wide.columns), key=lambda m: m == "dd")
    return wide[[c for m in models for c in wide[m].columns.map(lambda x, m=m: (m, x))]]


def atlas_summary(grid: pd.DataFrame, by: str) -> pd.DataFrame:
    """An atlas grid pooled by ``by``, with its rates
    (:func:`belote_sim.studies.atlas.with_rates`)."""
    from belote_sim.studies.atlas import with_rates

    return with_rates(grid.groupby(by, sort=False)[list(SUMS)].sum().reset_index())


def _atlas_section(tables, about) -> list[str]:
    from belote_sim.stats import wilson_interval

    a, gap = tables["atlas"], tables["atlas_gap"]
    L = ["## The bid atlas: what a holding is worth", ""]
    for preset in dict.fromkeys(a.preset):
        grid = a[(a.preset == preset) & (a.model == "heuristic")]
        deals = int(grid.deals.iloc[0])
        summ = atlas_summary(grid, "holding").sort_values("n", ascending=False, kind="stable")
        L += [f"### `{preset}`", "",
              f"The atlas the package ships ({deals:,} deals, seed 1): every bidding "
              "decision, the call played out beside the pass on the same deal, by the "
              "honours held in the strain ('-': none of J, 9, A, T; '+KQ': with the "
              "belote). The 12 most frequent holdings:", ""]
        rows = []
        for r in summ.head(12).itertuples():
            lo, hi = wilson_interval(int(r.made), int(r.n))
            rows.append([f"`{r.holding}`", f"{int(r.n):,}", pct(r.take_rate),
                         pct(r.made_rate, lo, hi), _d(r.gain, r.gain_low, r.gain_high,
                                                      digits=1)])
        L += _md_table(["holding", "decisions", "the bidder calls", "made if called",
                        "gain over passing"], rows)
        L += [f"![{preset} atlas](plots/atlas-{preset}.png)", ""]
        g = gap[gap.preset == preset]
        if not g.empty:
            L += [f"Double-dummy against heuristic play on the same decisions "
                  f"({int(about[f'size: gap_deals {preset}']):,} deals, seed "
                  f"{about['seed: atlas_gap']}): the make rate when every seat plays "
                  "perfectly, beside heuristic play.", ""]
            rows = [[f"{r.by} {r.level}", f"{int(r.n):,}", pct(r.made_rate_dd),
                     pct(r.made_rate_heuristic), f"{r.gap_points:+.1f}"]
                    for r in g.itertuples() if r.by != "holding" or r.n >= 50]
            L += _md_table(["class", "decisions", "made, dd", "made, heuristic",
                            "gap (points)"], rows)
    return L


def _factorial_section(tables, sizes, about) -> list[str]:
    f = tables["factorial"]
    metrics = [("deals", "take_rate", "", "take", 100.0),
               ("deals", "dedans_rate", "", "dedans", 100.0),
               ("deals", "capot_rate", "side=takers", "capot by the takers", 100.0),
               ("deals", "mean_taker_deal_score", "", "takers' score", 1.0),
               ("deals", "mean_defender_deal_score", "", "defenders' score", 1.0),
               ("matches", "match_win_rate", "side=0", "first dealer's side wins", 100.0)]
    L = ["## What each rule option changes", "",
         f"Two full factorials over `classic` (seed {about['seed: factorial']}): "
         f"{int(sizes['factorial_deals']):,} deals and {int(sizes['factorial_matches']):,} "
         "matches per cell, every cell on the same deals. Each option's main effect (its "
         "other value against classic's, averaged over the other options) with its paired "
         "95% interval; rates in percentage points, scores in points per deal; **bold**: "
         "Holm-adjusted p below 0.05. Threshold bidding reads none of these options, so "
         "the take rate cannot change.", ""]
    for name, factors in FACTORIALS.items():
        part = f[f.study == name]
        L += [f"### {name.capitalize()}", ""]
        L += _effects_tables(part, factors, metrics, "classic")
    L += ["![main effects of the rule options](plots/factorial.png)", ""]
    return L


def _contrast(r: pd.Series | None, scale: float) -> str:
    """A contrast's row of a comparison as a table cell: its difference and interval,
    bold where its Holm p is below 0.05."""
    if r is None:
        return "-"
    text = _d(r["diff"], r.diff_ci_low, r.diff_ci_high, scale)
    return f"**{text}**" if r.p_holm < 0.05 else text


def _effects_tables(part: pd.DataFrame, factors, metrics, base_name: str) -> list[str]:
    """A factorial's table: the base cell's values, then each factor's main effect (a
    row) on each metric of ``metrics`` (``(unit, metric, group, heading, scale)``; bold:
    Holm p below 0.05), and the two-way interactions whose Holm p is below 0.05."""
    rows = []
    base = [base_name]
    for unit, metric, group, _, scale in metrics:
        r = row_where(part, unit=unit, metric=metric, group=group, kind="cell")
        base.append("-" if r is None else
                    f"{scale * r.value:.2f} [{scale * r.ci_low:.2f}, {scale * r.ci_high:.2f}]")
    rows.append(base)
    for option, values in factors:
        label = f"{option}={values[1]} vs {values[0]}"
        cells = [f"`{option}={values[1]}`"]
        for unit, metric, group, _, scale in metrics:
            cells.append(_contrast(row_where(part, unit=unit, metric=metric, group=group,
                                             kind="main effect", cell=label), scale))
        rows.append(cells)
    L = _md_table(["option", *[m[3] for m in metrics]], rows)
    found = []
    for unit, metric, group, heading, scale in metrics:
        part_i = part[(part.unit == unit) & (part.metric == metric)
                      & (part.group == group) & (part.kind == "interaction")
                      & (part.p_holm < 0.05)]
        for r in part_i.itertuples():
            p = "< 1e-300" if r.p_holm == 0 else f"{r.p_holm:.2g}"  # 0: underflow
            found.append((r.p_holm, f"- {heading}: `{r.cell}` "
                          f"{_d(r.diff, r.diff_ci_low, r.diff_ci_high, scale)} "
                          f"(Holm p {p})"))
    found.sort(key=lambda item: item[0])
    shown = found[:MAX_INTERACTIONS]
    L.append(f"Two-way interactions with a Holm p-value below 0.05: {len(found)}"
             + (f", the {len(shown)} smallest p-values:" if len(found) > len(shown)
                else ":" if found else "."))
    return L + ([""] + [line for _, line in shown] if shown else []) + [""]


#: The columns of the rulebooks' table, from the presets part: the presets table's but
#: the litige pot (no rulebook has one) and the first deal's winner, with the coinche
#: rate.
RULEBOOK_COLUMNS = (
    *(c for c in PRESET_COLUMNS if c[2] != "litige_rate"),
    ("coinched", "deals", "coinche_rate", ""),
    *(c for c in MATCH_COLUMNS if c[2] in ("mean_deals_per_match",
                                           "first_dealer_side_win_rate")),
)
#: The paired differences shown against ``coinche``: (unit, metric, group, heading,
#: scale), as the factorials'.
RULEBOOK_CONTRASTS = (
    ("deals", "made_rate", "", "made", 100.0),
    ("deals", "dedans_rate", "", "dedans", 100.0),
    ("deals", "capot_rate", "side=takers", "capot by the takers", 100.0),
    ("deals", "mean_taker_deal_score", "", "takers' score", 1.0),
    ("deals", "mean_defender_deal_score", "", "defenders' score", 1.0),
    ("matches", "mean_deals_per_match", "", "deals per match", 1.0),
)
#: The disputes' factorials' columns.
DISPUTE_METRICS = (
    ("deals", "made_rate", "", "made", 100.0),
    ("deals", "mean_taker_deal_score", "", "takers' score", 1.0),
    ("deals", "mean_defender_deal_score", "", "defenders' score", 1.0),
)


def _rulebooks_section(tables, sizes, about) -> list[str]:
    disputes, books, skill = tables["disputes"], tables["rulebooks"], tables["skill"]
    presets = tables["presets"]
    L = ["## What the club disputes change", "",
         "The rules clubs argue about are scoring rules, and today's bidders read none "
         "of them: every seat bids by threshold and plays the heuristic card player "
         "under every rulebook, so the same hands take, and these are effects **at "
         "fixed bidding** (how the game would score, not how people would bid under it; "
         "an issue of its own makes the bidders adapt). The four rulebooks are RULES.md "
         "section 10's (`belote-sim rules` gives each choice's source).", "",
         "### The rulebooks", "",
         f"{int(sizes['preset_deals']):,} deals and {int(sizes['preset_matches']):,} "
         "matches per rulebook (the presets part). Take and coinched: of all deals; made, "
         "dedans, capot: of the played deals; scores: points per played deal; the "
         "targets are the rulebooks' own (1000, 2001 for Cannes, 2000 for colver).", ""]
    books_only = presets[presets.preset.isin(RULEBOOKS)]
    L += _md_table(["rulebook", *[c[0] for c in RULEBOOK_COLUMNS]],
                   _preset_rows(books_only, RULEBOOK_COLUMNS))
    L += [f"Each rulebook against `coinche`, paired deal by deal over "
          f"{int(sizes['rulebook_deals']):,} deals and match by match over "
          f"{int(sizes['rulebook_matches']):,} matches (seed {about['seed: rulebooks']}): "
          "rates in percentage points, scores in points per deal; **bold**: Holm-adjusted "
          "p below 0.05.", ""]
    rows = []
    for name in RULEBOOKS[1:]:
        cells = [f"`{name}`"]
        for unit, metric, group, _, scale in RULEBOOK_CONTRASTS:
            cells.append(_contrast(row_where(books, base="coinche", unit=unit, metric=metric,
                                             group=group, kind="cell", cell=name), scale))
        rows.append(cells)
    L += _md_table(["against coinche", *[c[3] for c in RULEBOOK_CONTRASTS]], rows)
    L += ["The rulebooks against one another: the row's takers' score per played deal "
          "minus the column's, paired deal by deal.", ""]
    rows = []
    for a in RULEBOOKS:
        cells = [f"`{a}`"]
        for b in RULEBOOKS:
            r = row_where(books, base=b, unit="deals", metric="mean_taker_deal_score",
                          group="", kind="cell", cell=a)
            cells.append("" if r is None else _d(r["diff"], r.diff_ci_low, r.diff_ci_high,
                                                  digits=1))
        rows.append(cells)
    L += _md_table(["takers' score, row - column", *[f"`{b}`" for b in RULEBOOKS]], rows)
    L += ["### The disputes one by one", "",
          f"Two full factorials over `coinche` (seed {about['seed: rulebooks']}), "
          f"{int(sizes['dispute_deals']):,} deals per cell, every cell on the same deals: "
          "each option's main effect (its other value against `coinche`'s, averaged over "
          "the other options of its factorial) with its paired interval, and the "
          "two-way interactions that matter. (`coinche_scoring=points` needs "
          "`coinche_multiplies=all` or `base`, so the scoring family is points + bid "
          "against points announced; the nine disputes in one factorial would be 512 "
          "cells.) `coinche` rounds its scores to ten, so a base of 162 scores as 160 "
          "does (such a score ends in 2 and rounds down), and the threshold bidders "
          "seldom surcoinche or bid a capot: those disputes change almost no deal at "
          "fixed bidding.", ""]
    for name, factors in DISPUTES.items():
        L += [f"#### {name.capitalize()}", ""]
        L += _effects_tables(disputes[disputes.study == name].assign(unit="deals"),
                             factors, DISPUTE_METRICS, "coinche")
    L += ["### How much each rulebook rewards skill", "",
          "Duplicate matches to each rulebook's target between a stronger and a weaker "
          "card player (threshold bidding on every seat; each match played twice with "
          "the sides swapped): the stronger side's share of matches won, and its score "
          "per deal over as many duplicate deals. The higher the share, the more often "
          "the rules let the better team win. (The `table` bidder reads the atlas of "
          "the coinche auction with all-trumps and no-trumps, which the rulebooks' "
          "auctions lack: no bidding match here.)", ""]
    rows = []
    for r in skill.itertuples():
        rows.append([f"`{r.preset}`", f"{r.a} against {r.b}", f"{int(r.matches):,}",
                     pct(r.a_win_rate, r.a_win_low, r.a_win_high),
                     _d(r.mean_score_diff, r.diff_low, r.diff_high, digits=1)])
    L += _md_table(["rulebook", "stronger against weaker", "matches", "stronger side wins",
                    "stronger - weaker per deal"], rows)
    return L


#: The calls a worlds table shows: the pass, and the best this many by gain under each
#: kind of worlds.
SHOWN_CALLS = 4


def _telling_calls(pos: pd.DataFrame) -> list[str]:
    """The pass and the :data:`SHOWN_CALLS` best calls of each kind of worlds, in the
    table's order."""
    keep = {"pass"}
    for given in WORLD_KINDS:
        kind = pos[pos.worlds_given == given]
        keep |= set(kind.nlargest(SHOWN_CALLS, "gain").call)
    return [c for c in dict.fromkeys(pos.call) if c in keep]


def _worlds_section(tables, sizes, about) -> list[str]:
    from belote_sim.studies.arena import format_seconds

    st, ar = tables["worlds_strength"], tables["worlds_arena"]
    L = ["## Worlds that know the auction", "",
         "Bid strength plays each call in worlds: deals of the cards the seat cannot see. "
         "Uniform worlds ignore the calls so far; worlds given the calls keep only deals "
         "in which every earlier call of another seat is the one its bidder (threshold) "
         "makes with those cards (rejection sampling; the acceptance is the share of deals "
         f"kept). {int(sizes['worlds_strength']):,} worlds per position and kind (seed "
         f"{about['seed: worlds']}), heuristic play; the gain over passing is in points of "
         "deal-score difference per deal, paired world by world. Each table shows the pass "
         f"and the {SHOWN_CALLS} best calls under either kind of worlds (every call is in "
         "tables/worlds_strength.parquet).", ""]
    for _, pos in st.groupby("position", sort=True):
        first = pos.iloc[0]
        where = json.loads(first["where"])
        said = (f"calls so far {where['calls']}" if "calls" in where
                else f"retourne {where['retourne']}, round {where['round']}")
        accept = {g: float(pos[pos.worlds_given == g].acceptance.iloc[0])
                  for g in WORLD_KINDS}
        L += [f"**{first.question}** `{first.preset}`, seat {where['seat']}, dealer "
              f"{where['dealer']}, {said}, hand `{first.hand}`; worlds given the calls: "
              f"{pct(accept['calls'])} of deals kept.", ""]
        rows = []
        for call in _telling_calls(pos):
            cells = [call]
            for given in WORLD_KINDS:
                r = row_where(pos, call=call, worlds_given=given)
                cells += [_d(r.gain, r.gain_low, r.gain_high, digits=1),
                          pct(r.p_made, r.p_made_low, r.p_made_high)]
            rows.append(cells)
        L += _md_table(["call", "gain, uniform", "P(made), uniform", "gain, given the calls",
                        "P(made), given the calls"], rows)
    L += ["`fastpimc:20` whose worlds are given the calls against `fastpimc:20:uniform`, the "
          "same deals played twice with the sides swapped, threshold bidding on both sides: "
          "the score difference per deal (A - B) and the time per decision.", ""]
    L += _md_table(
        ["rules", "deals", "given - uniform per deal", "worlds kept", "worlds short",
         "time per decision, given", "time per decision, uniform"],
        [[f"`{r.preset}`", f"{int(r.deals):,}", _d(r.mean_score_diff, r.diff_low, r.diff_high),
          pct(r.acceptance), f"{int(r.worlds_short):,} of "
          f"{int(r.worlds_short + r.worlds_given):,}", format_seconds(r.a_seconds_per_decision),
          format_seconds(r.b_seconds_per_decision)] for r in ar.itertuples()])
    return L


def _arena_section(tables, about) -> list[str]:
    from belote_sim.stats import wilson_interval
    from belote_sim.studies.arena import format_seconds

    ar = tables["arena"]
    L = ["## The players", "",
         f"Each pair plays the same deals twice, sides swapped (seed {about['seed: arena']}); "
         "the score difference per deal, A's share of matches won, and the time each "
         "player takes per decision on this machine (one core per deal).", ""]
    rows = []
    for r in ar.itertuples():
        wins = "-"
        if r.games:
            lo, hi = wilson_interval(int(r.a_match_wins), int(r.games))
            wins = pct(r.a_match_wins / r.games, lo, hi)
        rows.append([_matchup(r), f"{int(r.deals):,}", _d(r.mean_score_diff, r.diff_low,
                     r.diff_high), wins, format_seconds(r.a_seconds_per_decision),
                     format_seconds(r.b_seconds_per_decision)])
    L += _md_table(["A against B", "deals", "A - B per deal", "A wins the match",
                    "time per decision, A", "time per decision, B"], rows)
    L += ["![arena](plots/arena.png)", ""]
    if "ladder" in tables:
        L += _ladder_section(tables["ladder"])
    return L


def _ladder_section(ladder: pd.DataFrame) -> list[str]:
    """Our players against colver's, in colver's environment (the ``ladder`` table)."""
    from belote_sim.studies.arena import format_seconds

    version = ladder.colver.iloc[0]
    L = ["### Against colver", "",
         f"colver {version} (Rust, on PyPI) is the fastest public belote engine, and ships "
         "card players that need no neural model: a heuristic (documented as "
         "*perfect-information*: it may look at every hand) and a Smart IS-MCTS that "
         "samples its worlds from card beliefs, given a time per move. Our players sit "
         "in colver's own environment and play its contrée as our `colver` preset, "
         "exactly (RULES.md section 10; docs/players.md, *Against colver*); each of our "
         "seats is a `Seat` that sees every call and card colver shows. Each deal is "
         "played twice with the sides swapped; ours minus "
         "colver's deal score per deal, with its 95% interval over the duplicate pairs, "
         "the share of deals our side scored more, and the time per move of each side on "
         "this machine (one core each). Reproduce a row with "
         "`python benchmarks/bench_vs_colver.py --match OURS/THEIRS --pairs N` "
         "(colver comes with the dev extra).", ""]
    rows = []
    cards = ladder[ladder.kind == "cards"]
    for r in cards.itertuples():
        rows.append([f"`{r.ours}` vs colver's `{r.theirs}`", f"{int(r.pairs):,}",
                     _d(r.mean_difference, r.difference_low, r.difference_high),
                     pct(r.won, r.won_low, r.won_high),
                     format_seconds(r.ours_ms_per_move / 1e3),
                     format_seconds(r.theirs_ms_per_move / 1e3)])
    L += ["Card play: every seat bids with colver's default bidder (`bid_improved`), so "
          "only the cards differ.", ""]
    L += _md_table(["ours vs theirs", "pairs", "ours - theirs per deal", "deals won",
                    "time per move, ours", "time per move, theirs"], rows)
    bids = ladder[ladder.kind == "bidding"]
    if len(bids):
        rows = [[f"`{r.ours}` vs colver's `{r.theirs}`", f"{int(r.pairs):,}",
                 _d(r.mean_difference, r.difference_low, r.difference_high),
                 pct(r.won, r.won_low, r.won_high)] for r in bids.itertuples()]
        player = bids.card_player.iloc[0]
        L += [f"Bidding: our bidder on one side, colver's on the other, `{player}` card "
              "play on all four seats.", ""]
        L += _md_table(["ours vs theirs", "pairs", "ours - theirs per deal", "deals won"],
                       rows)
    return L
