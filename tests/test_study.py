"""The published study (``make study``): its README is rendered from its tables alone,
so the committed README must be what the committed tables give (no stale figure), and
the pipeline runs end to end in its quick form."""

from __future__ import annotations

from pathlib import Path

import pytest

from belote_sim.errors import BeloteError
from belote_sim.report.study import render, write_study
from belote_sim.studies.study import TABLES, load_tables, run_study

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
    write_study(out)
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


def test_a_stopped_study_resumes_part_by_part_to_the_same_tables(quick_study, tmp_path):
    said: list[str] = []

    def say_then_stop_at_the_shuffle(line: str) -> None:
        said.append(line)
        if line == "study: shuffle ...":
            raise KeyboardInterrupt

    out = tmp_path / "study"
    with pytest.raises(KeyboardInterrupt):
        run_study(out, quick=True, say=say_then_stop_at_the_shuffle)
    said.clear()
    run_study(out, quick=True, say=said.append)
    assert said[:3] == ["study: presets already done", "study: odds already done",
                        "study: shuffle ..."]
    a, b = load_tables(out), load_tables(quick_study)
    for name in TABLES:
        cols = [c for c in a[name].columns if "seconds" not in c]
        if name != "about":
            assert a[name][cols].equals(b[name][cols]), name
    assert list(a["about"].key) == list(b["about"].key)


def test_the_study_refuses_a_folder_of_other_runs(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "mine.txt").write_text("not the study's")
    with pytest.raises(BeloteError, match="does not hold the study's runs"):
        run_study(tmp_path, quick=True, say=lambda line: None)
