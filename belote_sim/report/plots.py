"""The report's plots: matplotlib figures drawn from tables, saved as PNG byte for byte
reproducibly (the Agg renderer, the fonts matplotlib ships, no timestamp or version in
the file).

Every function takes plain sequences and returns a :class:`~matplotlib.figure.Figure`
(object-oriented API, no pyplot state); :func:`png_bytes` renders one.

>>> fig = interval_bars(["made", "dedans"], [0.6, 0.4], [0.58, 0.38], [0.62, 0.42],
...                     title="Contracts", percent=True)
>>> png_bytes(fig) == png_bytes(interval_bars(["made", "dedans"], [0.6, 0.4],
...     [0.58, 0.38], [0.62, 0.42], title="Contracts", percent=True))
True
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # no display: the report is written, never shown

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

#: Width of every figure in inches; at :data:`DPI` it is the page's column width in pixels.
WIDTH = 8.6
DPI = 100
#: The two colours of a model or cell pair, then the rest (matplotlib's default cycle).
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f")
STYLE = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "svg.hashsalt": "belote_sim",
}


def figure(rows: int = 1, cols: int = 1, height: float = 3.2) -> tuple[Figure, list]:
    """A figure of ``rows x cols`` panels, the report's width; its axes as a flat list."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(WIDTH, height * rows), dpi=DPI, layout="constrained")
        axes = fig.subplots(rows, cols, squeeze=False)
    return fig, [ax for row in axes for ax in row]


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG, without the metadata that would change from one matplotlib
    build to another."""
    buf = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _errors(values: Sequence[float], lows: Sequence[float], highs: Sequence[float]):
    """Error-bar lengths below and above each value (0 where no interval is known)."""
    below = [v - lo if not math.isnan(lo) else 0.0 for v, lo in zip(values, lows, strict=True)]
    above = [hi - v if not math.isnan(hi) else 0.0 for v, hi in zip(values, highs, strict=True)]
    return [max(x, 0.0) for x in below], [max(x, 0.0) for x in above]


def draw_interval_bars(ax, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float],
                       Sequence[float], Sequence[float]]], *, percent: bool = False,
                       horizontal: bool = False, title: str = "", axis_label: str = "") -> None:
    """Grouped bars with 95% interval whiskers on ``ax``: one group per label, one bar
    per series ``(name, values, lows, highs)``."""
    n = len(series)
    width = 0.8 / max(n, 1)
    for i, (name, values, lows, highs) in enumerate(series):
        pos = [j - 0.4 + width * (i + 0.5) for j in range(len(labels))]
        err = _errors(values, lows, highs)
        colour = COLOURS[i % len(COLOURS)]
        if horizontal:
            ax.barh(pos, values, height=width, xerr=err, color=colour, label=name or None,
                    capsize=2, error_kw={"elinewidth": 1})
        else:
            ax.bar(pos, values, width=width, yerr=err, color=colour, label=name or None,
                   capsize=2, error_kw={"elinewidth": 1})
    ticks = list(range(len(labels)))
    value_axis = ax.xaxis if horizontal else ax.yaxis
    if horizontal:
        ax.set_yticks(ticks, labels)
        ax.invert_yaxis()
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_xlabel(axis_label)
    else:
        ax.set_xticks(ticks, labels)
        ax.set_ylabel(axis_label)
    if percent:
        value_axis.set_major_formatter(PercentFormatter(1.0))
    if title:
        ax.set_title(title)
    if n > 1 or (n == 1 and series[0][0]):
        ax.legend(frameon=False, fontsize=8)


def interval_bars(labels: Sequence[str], values: Sequence[float], lows: Sequence[float],
                  highs: Sequence[float], *, title: str = "", percent: bool = False,
                  horizontal: bool = False, axis_label: str = "") -> Figure:
    """One series of bars with their 95% intervals, in a figure of its own."""
    height = 0.8 + 0.28 * len(labels) if horizontal else 3.2
    fig, (ax,) = figure(height=height)
    draw_interval_bars(ax, labels, [("", values, lows, highs)], percent=percent,
                       horizontal=horizontal, title=title, axis_label=axis_label)
    return fig


def draw_forest(ax, labels: Sequence[str], diffs: Sequence[float], lows: Sequence[float],
                highs: Sequence[float], *, marked: Sequence[bool] | None = None,
                title: str = "", axis_label: str = "") -> None:
    """A forest plot on ``ax``: each difference a point with its interval as a line, the
    zero line, the ``marked`` rows (significant ones) in the second colour."""
    marked = marked if marked is not None else [False] * len(labels)
    for y, (d, lo, hi, m) in enumerate(zip(diffs, lows, highs, marked, strict=True)):
        colour = COLOURS[1] if m else COLOURS[0]
        ax.plot([lo, hi], [y, y], color=colour, linewidth=1.6)
        ax.plot([d], [y], marker="o", color=colour, markersize=4)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_yticks(list(range(len(labels))), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlabel(axis_label)
    if title:
        ax.set_title(title)


def draw_histogram(ax, values: Sequence[int], counts: Sequence[int], *, title: str = "",
                   axis_label: str = "") -> None:
    """A histogram of integer values from its non-empty bins, as frequencies."""
    total = sum(counts)
    ax.bar(values, [c / total for c in counts] if total else counts, width=1.0,
           color=COLOURS[0], linewidth=0)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(axis_label)
    if title:
        ax.set_title(title)


def draw_heatmap(ax, matrix: Sequence[Sequence[float]], rows: Sequence[str],
                 cols: Sequence[str], *, fmt: str = "{:.2f}", title: str = "",
                 centre: float | None = None, vmin: float | None = None,
                 vmax: float | None = None, xlabel: str = "", ylabel: str = "") -> None:
    """A heat map with each cell's value written in it (empty cells: nan, left white);
    ``centre`` gives a diverging scale around that value."""
    import numpy as np

    data = np.array(matrix, dtype=float)
    cmap = matplotlib.colormaps["RdBu" if centre is not None else "viridis"]
    if centre is not None:
        finite = np.abs(data[np.isfinite(data)] - centre)
        span = float(finite.max()) if finite.size else 1.0
        vmin, vmax = centre - span, centre + span
    image = ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=vmin, vmax=vmax,
                      aspect="auto")
    ax.set_xticks(list(range(len(cols))), cols)
    ax.set_yticks(list(range(len(rows))), rows)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    lo, hi = image.get_clim()
    for (i, j), v in np.ndenumerate(data):
        if math.isfinite(v):
            dark = (v - lo) / (hi - lo) if hi > lo else 0.5
            light = dark < 0.35 if centre is None else abs(dark - 0.5) > 0.3
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7,
                    color="white" if light else "black")
    if title:
        ax.set_title(title)


def draw_lines(ax, xs: Sequence, series: Sequence[tuple[str, Sequence[float]]], *,
               lows: Sequence[Sequence[float]] | None = None,
               highs: Sequence[Sequence[float]] | None = None, percent: bool = False,
               title: str = "", xlabel: str = "", ylabel: str = "") -> None:
    """Lines, one per series ``(name, ys)``, with shaded 95% bands when given."""
    for i, (name, ys) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        ax.plot(list(range(len(xs))), ys, marker="o", markersize=3, color=colour, label=name)
        if lows is not None and highs is not None:
            ax.fill_between(list(range(len(xs))), lows[i], highs[i], color=colour, alpha=0.15,
                            linewidth=0)
    ax.set_xticks(list(range(len(xs))), [str(x) for x in xs])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if percent:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if title:
        ax.set_title(title)
    ax.legend(frameon=False, fontsize=8)
