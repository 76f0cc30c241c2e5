"""Reports a person can read: ``belote-sim report DIR`` turns any output directory
(simulate, compare, arena, bid-strength, bid-table, card-values, odds) into
``DIR/report.html``, one self-contained page, and its plots as PNG in ``DIR/plots/``.

Layers: :mod:`~belote_sim.report.pages` reads the directory and decides what to show,
:mod:`~belote_sim.report.plots` draws (matplotlib), :mod:`~belote_sim.report.html` writes
the page.

>>> import tempfile
>>> from belote_sim import Rules, simulate
>>> out = tempfile.mkdtemp() + "/run"
>>> _ = simulate(Rules(), deals=2_000, seed=1, out=out)
>>> write_report(out).name
'report.html'
"""

from __future__ import annotations

from pathlib import Path

from belote_sim.report.pages import KINDS, build_page, read_source

REPORT_FILE = "report.html"
PLOTS_DIR = "plots"


def write_report(directory: str | Path) -> Path:
    """Write ``DIRECTORY/report.html`` and ``DIRECTORY/plots/*.png`` for the output of any
    command of :data:`KINDS`; return the page's path.

    The plots are drawn from the directory's Parquet tables alone: the same tables give
    the same PNG files, byte for byte.

    :raises BeloteError: the directory holds no finished output of those commands.
    """
    from belote_sim.report.html import render
    from belote_sim.report.plots import png_bytes
    from belote_sim.runner.rundir import (
        check_output_file,
        write_bytes_atomic,
        write_text_atomic,
    )

    path = Path(directory)
    source = read_source(path)
    check_output_file(path / REPORT_FILE, "report")
    page = build_page(source)
    images = {}
    plot_dir = path / PLOTS_DIR
    plot_dir.mkdir(exist_ok=True)
    for plot in page.plots():
        images[plot.name] = png_bytes(plot.figure)
        write_bytes_atomic(plot_dir / f"{plot.name}.png", images[plot.name])
    report = path / REPORT_FILE
    write_text_atomic(report, render(page, images))
    return report


__all__ = ["KINDS", "REPORT_FILE", "write_report"]
