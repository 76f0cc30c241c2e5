"""The first rule study: what each two-valued play or scoring option of RULES.md section 9
does to `classic`, as paired factorial comparisons: ``docs/rule_study.md``.

Run with ``python docs/rule_study.py [--deals N] [--matches M] [--quick]`` (the kernels
compiled; the default sizes take about 5 minutes on 2 cores). Threshold bidding and
heuristic card play for every seat; every cell plays the same deals (common random
numbers, ``belote_sim.compare``). Two full factorials over `classic`:

- the play options ``must_trump``, ``partner_exemption``, ``overtrump_partner`` and
  ``undertrump`` (16 cells);
- the scoring options ``declarations``, ``belote``, ``split_long_runs``,
  ``declaration_tie`` and ``king_value`` (32 cells).

Each factorial is run twice: over single deals (take, dedans and capot rates, mean deal
scores) and over whole matches to 1000 points (the match win of the first dealer's
side). Per option the table gives its main effect (its other value against classic's,
averaged over the other factors' values) with the paired 95% interval and the variance
reduction pairing gave (the variance of the difference had the cells been played
independently, over that of the paired difference; in a factorial "independently"
means every cell on deals of its own, 16 or 32 times the deals, so an effect that
changes every deal, like ``declarations``, can show a VR below 1); two-way interactions
whose Holm p-value is below 0.05 are listed after it. Threshold bidding reads none of
these options, so the take rate cannot change: its effects are exactly 0.
``nt_values`` and ``round_to_ten`` are two-valued too but cannot change a classic deal
(no no-trump contract without ``all_no_trumps_round``; ``round_to_ten`` rounds coinche
scores only): they are left out.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import pandas as pd

from belote_sim.rules import BOOL_OPTIONS, CHOICES, Rules
from belote_sim.runs.compare import compare, factorial_cells

OUT = Path(__file__).resolve().parent / "rule_study.md"
SEED = 15
PLAYERS = {"bid_policy": "threshold", "play_policy": "heuristic"}
PRESET = "classic"
PLAY_OPTIONS = ("must_trump", "partner_exemption", "overtrump_partner", "undertrump")
SCORING_OPTIONS = ("declarations", "belote", "split_long_runs", "declaration_tie",
                   "king_value")


def _word(value) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def factor(name: str) -> tuple[str, list[str]]:
    """A two-valued option as a factor, the preset's value first (the base of its main
    effect), its values as ``belote_sim.rules`` declares them."""
    values = (True, False) if name in BOOL_OPTIONS else CHOICES[name]
    base = getattr(Rules.from_preset(PRESET), name)
    others = [v for v in values if v != base]
    if len(others) != 1:
        raise ValueError(f"{name} is not a two-valued option: {values}")
    return name, [_word(base), _word(others[0])]


PLAY = [factor(name) for name in PLAY_OPTIONS]
SCORING = [factor(name) for name in SCORING_OPTIONS]
#: (metric, group, heading, format) of the deal comparisons, then of the matches.
DEAL_METRICS = [
    ("take_rate", "", "take", "rate"),
    ("dedans_rate", "", "dedans", "rate"),
    ("capot_rate", "side=takers", "capot by the takers", "rate"),
    ("mean_taker_deal_score", "", "takers' deal score", "points"),
    ("mean_defender_deal_score", "", "defenders' deal score", "points"),
]
MATCH_METRICS = [("match_win_rate", "side=0", "first dealer's side wins the match", "rate")]
#: Interactions listed per factorial (the smallest Holm p-values).
MAX_INTERACTIONS = 10


def _fmt(v: float, kind: str) -> str:
    return f"{100 * v:+.2f}" if kind == "rate" else f"{v:+.2f}"


def _p(p: float) -> str:
    return "< 1e-300" if p == 0 else f"{p:.2g}"  # 0 is a float's underflow


def _cell(row: pd.Series, kind: str) -> str:
    mark = "**" if row.p_holm < 0.05 else ""
    v = row.variance_reduction
    vr = "" if math.isnan(v) else f" (VR {v:.0f})" if v >= 10 else f" (VR {v:.2g})"
    return (f"{mark}{_fmt(row['diff'], kind)}{mark} [{_fmt(row.diff_ci_low, kind)}, "
            f"{_fmt(row.diff_ci_high, kind)}]{vr}")


def _base(df: pd.DataFrame, metric: str, group: str, kind: str) -> str:
    row = df[(df.metric == metric) & (df.group == group) & (df.kind == "cell")].iloc[0]
    scale = 100 if kind == "rate" else 1
    return f"{scale * row.value:.2f} [{scale * row.ci_low:.2f}, {scale * row.ci_high:.2f}]"


def study_section(title: str, factors: list, deals: pd.DataFrame,
                  matches: pd.DataFrame) -> list[str]:
    """One factorial's markdown: the main effects table and the significant
    interactions."""
    metrics = [(deals, *m) for m in DEAL_METRICS] + [(matches, *m) for m in MATCH_METRICS]
    lines = [f"## {title}", ""]
    lines.append("| option | " + " | ".join(h for _, _, _, h, _ in metrics) + " |")
    lines.append("|---|" + "---|" * len(metrics))
    lines.append("| classic (the base cell) | " + " | ".join(
        _base(df, m, g, k) for df, m, g, _, k in metrics) + " |")
    for name, values in factors:
        label = f"{name}={values[1]} vs {values[0]}"
        cells = []
        for df, m, g, _, k in metrics:
            row = df[(df.metric == m) & (df.group == g) & (df.kind == "main effect")
                     & (df.cell == label)].iloc[0]
            cells.append(_cell(row, k))
        lines.append(f"| `{name}={values[1]}` | " + " | ".join(cells) + " |")
    lines.append("")
    found = []
    for df, m, g, h, k in metrics:
        part = df[(df.metric == m) & (df.group == g) & (df.kind == "interaction")
                  & (df.p_holm < 0.05)]
        for r in part.itertuples():
            found.append((r.p_holm, f"- {h}: `{r.cell}` {_fmt(r.diff, k)} "
                                    f"[{_fmt(r.diff_ci_low, k)}, {_fmt(r.diff_ci_high, k)}] "
                                    f"(Holm p {_p(r.p_holm)})"))
    found.sort(key=lambda item: item[0])
    shown = found[:MAX_INTERACTIONS]
    lines.append(f"Two-way interactions with a Holm p-value below 0.05: {len(found)}"
                 + (f", the {len(shown)} smallest p-values:" if len(found) > len(shown)
                    else ":" if found else "."))
    if shown:
        lines += [""] + [line for _, line in shown]
    lines.append("")
    return lines


def run(deals: int, matches: int) -> tuple[list[str], dict[str, float]]:
    """Play both factorials over deals and over matches; the markdown and the timings."""
    body: list[str] = []
    times: dict[str, float] = {}
    for title, factors in (("Play options", PLAY), ("Scoring options", SCORING)):
        cells = factorial_cells(PRESET, {}, factors)
        t0 = time.perf_counter()
        by_deal = compare(cells, deals, seed=SEED, factors=factors, **PLAYERS)
        times[f"{title}, {deals:,} deals"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        by_match = compare(cells, matches=matches, seed=SEED, factors=factors, **PLAYERS)
        times[f"{title}, {matches:,} matches"] = time.perf_counter() - t0
        body += study_section(f"{title} ({len(cells)} cells)", factors, by_deal, by_match)
    return body, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000_000)
    parser.add_argument("--matches", type=int, default=50_000)
    parser.add_argument("--quick", action="store_true",
                        help="2,000 deals and 100 matches, printed, nothing written")
    args = parser.parse_args()
    deals, matches = (2_000, 100) if args.quick else (args.deals, args.matches)
    body, times = run(deals, matches)
    head = [
        "# The first rule study: play and scoring options of classic",
        "",
        f"Generated by `python docs/rule_study.py --deals {deals} --matches {matches}` "
        f"(seed {SEED}; threshold bidding, heuristic play for every seat): each option's "
        "main effect, its other value against classic's averaged over the other options' "
        "values, with its paired 95% interval; **bold** where the Holm-adjusted p-value "
        "(across the metrics of that effect) is below 0.05. Rates in percentage points, "
        "scores in points per played deal; VR is the variance reduction pairing gave "
        "(against every cell played on deals of its own). Threshold bidding reads none "
        "of these options: the take rate cannot change. "
        f"The deal metrics come from {deals:,} deals per cell, the match win from "
        f"{matches:,} matches to 1000 points per cell. See the script's docstring for "
        "the design.",
        "",
    ]
    tail = ["Time on this repository's 2-core machine: " + "; ".join(
        f"{k} {v / 60:.1f} min" for k, v in times.items()) + ".", ""]
    text = "\n".join(head + body + tail)
    if args.quick:
        sys.stdout.write(text)
    else:
        OUT.write_text(text)
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
