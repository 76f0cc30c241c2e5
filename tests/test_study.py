"""The published study (``make study``): its README is rendered from its tables alone,
so the committed README must be what the committed tables give (no stale figure), and
the pipeline runs end to end in its quick form."""

from __future__ import annotations

from pathlib import Path

import pytest

from belote_sim.report.study import TABLES, load_tables, render, run_study

RESULTS = Path(__file__).resolve().parents[1] / "results"


def test_committed_readme_is_what_the_committed_tables_give():
    tables = load_tables(RESULTS)
    assert dict(zip(tables["about"].key, tables["about"].value, strict=True))["quick"] == "False"
    assert render(tables) == (RESULTS / "README.md").read_text(encoding="utf-8")
    for line in (RESULTS / "README.md").read_text().splitlines():
        if line.startswith("!["):
            assert (RESULTS / line.split("](", 1)[1].rstrip(")")).is_file(), line


def test_a_changed_figure_is_caught():
    """The comparison above can fail: one table value changed changes the README."""
    tables = load_tables(RESULTS)
    presets = tables["presets"].copy()
    row = presets.index[(presets.preset == "classic") & (presets.metric == "take_rate")
                        & (presets.group == "")][0]
    presets.loc[row, "value"] += 0.01
    assert render({**tables, "presets": presets}) != render(tables)


@pytest.fixture(scope="module")
def quick_study(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("study")
    run_study(out, quick=True, say=lambda line: None)
    return out


def test_quick_study_writes_tables_readme_and_plots(quick_study):
    assert sorted(p.stem for p in (quick_study / "tables").glob("*.parquet")) == sorted(TABLES)
    text = (quick_study / "README.md").read_text()
    assert "A quick run" in text and render(load_tables(quick_study)) == text
    for section in ("## Every preset", "## Declarations", "## The bid atlas",
                    "## What a card is worth", "## What each rule option changes",
                    "## The players", "## Three findings"):
        assert section in text
    plots = {p.stem for p in (quick_study / "plots").glob("*.png")}
    assert {"presets", "odds", "atlas-classic", "atlas-coinche", "card-values",
            "factorial", "arena"} <= plots
