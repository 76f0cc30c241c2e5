"""Reports (``belote-sim report DIR``): one self-contained page and its PNG plots for the
output directory of every command, plots reproducible byte for byte from the Parquet
files, numbers with their intervals, and the page opened in a real headless Chromium."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from browser import find_browser, open_page
from test_cli import run

from belote_sim import Rules, arena, bid_strength, compare, simulate
from belote_sim.errors import BeloteError
from belote_sim.report import PLOTS_DIR, REPORT_FILE, write_report
from belote_sim.report.pages import pct, read_source
from belote_sim.studies.atlas import bid_table
from belote_sim.studies.card_values import card_values
from belote_sim.studies.compare import factorial_cells

#: Where the browser test leaves its screenshots (a CI job can keep the folder).
ARTIFACTS = Path(os.environ.get("BELOTE_ARTIFACTS", Path(__file__).parents[1] / ".artifacts"))


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, Path]:
    """One small output directory of each kind a report is made for."""
    base = tmp_path_factory.mktemp("outputs")
    d = {k: base / k for k in ("simulate", "matches", "compare", "arena", "strength",
                                "strength-coinche", "atlas", "card-values", "odds")}
    simulate(Rules(), deals=5_000, seed=3, bid_policy="threshold", play_policy="heuristic",
             out=d["simulate"])
    simulate(Rules(), matches=30, seed=3, out=d["matches"])
    compare(factorial_cells("classic", {}, [("undertrump", ["forced", "free"]),
                                            ("belote", ["on", "off"])]),
            3_000, seed=1, factors=[("undertrump", ["forced", "free"]),
                                    ("belote", ["on", "off"])], out=d["compare"])
    arena("heuristic", "random", deals=400, matches=4, seed=1, out=d["arena"])
    bid_strength("classic", "JH 9H AS 7D 8C", retourne="TH", worlds=400, out=d["strength"])
    bid_strength("coinche", "JH 9H AH TH AS 7D 8C 9C", worlds=100, out=d["strength-coinche"])
    bid_table("classic", 8, seed=1, models="heuristic,dd", out=d["atlas"])
    card_values("classic", 400, seed=1, out=d["card-values"])
    p = run("odds", "--samples", "20000", "--seed", "2", "--out", str(d["odds"]), "--report")
    assert p.returncode == 0, p.stderr
    assert f"report: {d['odds'] / REPORT_FILE}" in p.stderr
    return d


KIND_OF = {"simulate": "simulate", "matches": "simulate", "compare": "compare",
           "arena": "arena", "strength": "bid-strength", "strength-coinche": "bid-strength",
           "atlas": "bid-table", "card-values": "card-values", "odds": "odds"}


def _images(page: str) -> list[bytes]:
    return [base64.b64decode(x) for x in
            re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


@pytest.mark.parametrize("name", list(KIND_OF))
def test_report_is_one_self_contained_page_with_its_plots(outputs, name):
    out = outputs[name]
    assert read_source(out).kind == KIND_OF[name]
    page_path = write_report(out)
    assert page_path == out / REPORT_FILE
    page = page_path.read_text()
    # Nothing outside the file: no script, no stylesheet or image fetched from anywhere.
    assert "<script" not in page
    assert not re.search(r'(src|href)="(?!data:)', page)
    assert "http://" not in page and "https://" not in page
    images = _images(page)
    assert images, "a report without a plot"
    assert page.count("<img ") == len(images)
    files = sorted((out / PLOTS_DIR).glob("*.png"))
    assert sorted(f.read_bytes() for f in files) == sorted(images)
    for png in images:
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 2_000
    assert "How this was made" in page and "git commit" in page and "seed" in page


def test_plots_come_back_byte_for_byte_from_the_parquet_files(outputs, tmp_path):
    """The tables alone make the plots: a copy of the Parquet files (and run.json with
    another wall time) gives the same PNG files."""
    for name in ("simulate", "compare", "atlas"):
        src = outputs[name]
        first = write_report(src).read_text()
        copy = tmp_path / name
        copy.mkdir()
        for f in src.iterdir():
            if f.suffix in (".parquet", ".json"):
                shutil.copy(f, copy / f.name)
        info_file = copy / "run.json"
        if info_file.is_file():
            info = json.loads(info_file.read_text())
            info["provenance"]["wall_seconds"] = 12345.0
            info_file.write_text(json.dumps(info))
        second = write_report(copy).read_text()
        assert _images(first) == _images(second)
        for f in (src / PLOTS_DIR).iterdir():
            assert (copy / PLOTS_DIR / f.name).read_bytes() == f.read_bytes(), f.name


def test_simulate_report_quotes_every_figure_with_its_interval(outputs):
    out = outputs["simulate"]
    page = write_report(out).read_text()
    summary = pd.read_parquet(out / "summary.parquet").set_index(["metric", "group"])
    for key in [("take_rate", ""), ("dedans_rate", "taker_trumps=3"),
                ("capot_rate", "side=takers")]:
        r = summary.loc[key]
        text = pct(r.value, r.ci_low, r.ci_high)
        assert "[" in text and text in page, key
    mean = summary.loc[("mean_taker_deal_score", "")]
    assert f"{mean.value:.2f} [{mean.ci_low:.2f}, {mean.ci_high:.2f}]" in page
    for heading in ("Who takes, and when", "Going dedans", "Capot, ties and litige",
                    "Points and scores", "Declarations"):
        assert f"<h2>{heading}</h2>" in page
    # The exact odds of one hand beside the simulated figures (RULES.md section 5).
    from belote_sim.studies.odds import exact_odds

    tierce = exact_odds(8).set_index("metric").value["p_tierce"]
    assert pct(tierce) in page


def test_match_report_has_the_match_figures(outputs):
    page = write_report(outputs["matches"]).read_text()
    assert "<h2>Matches</h2>" in page and "deals per match" in page
    assert (outputs["matches"] / PLOTS_DIR / "deals-per-match.png").is_file()


def test_compare_report_has_forest_and_effects_plots(outputs):
    out = outputs["compare"]
    page = write_report(out).read_text()
    names = {f.stem for f in (out / PLOTS_DIR).glob("*.png")}
    assert {"compare-points", "effects-points"} <= names
    table = pd.read_parquet(out / "compare.parquet")
    r = table[(table.metric == "mean_taker_deal_score") & (table.kind == "main effect")].iloc[0]
    assert f"{r['diff']:+.2f} [{r.diff_ci_low:+.2f}, {r.diff_ci_high:+.2f}]" in page


def test_atlas_report_sets_dd_beside_the_realistic_model(outputs):
    page = write_report(outputs["atlas"]).read_text()
    assert "Perfect play against realistic play" in page
    assert "made_rate" not in page  # the page speaks the player's words
    assert "made, dd" in page and "made, heuristic" in page
    names = {f.stem for f in (outputs["atlas"] / PLOTS_DIR).glob("*.png")}
    assert names == {"atlas-made-rate", "atlas-gain"}


def test_report_refuses_what_is_not_an_output(tmp_path):
    with pytest.raises(BeloteError, match="holds no belote-sim output"):
        write_report(tmp_path)
    p = run("report", str(tmp_path / "missing"))
    assert p.returncode == 2 and p.stderr.strip().count("\n") == 0
    assert "no such directory" in p.stderr


def test_report_flag_needs_out_and_is_checked_before_playing():
    p = run("simulate", "--deals", "1_000_000_000", "--report")
    assert p.returncode == 2
    assert "--report writes into the output directory" in p.stderr


def test_simulate_report_flag_writes_the_report(tmp_path):
    out = tmp_path / "run"
    p = run("simulate", "--deals", "2000", "--seed", "1", "--out", str(out), "--report",
            "--quiet")
    assert p.returncode == 0, p.stderr
    assert (out / REPORT_FILE).is_file() and f"report: {out / REPORT_FILE}" in p.stderr


# -- The page in a real browser ----------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> str:
    path = find_browser()
    if path is None:
        message = ("no headless Chromium found: install Debian's `chromium` package "
                   "(apt-get install chromium) to run the real-browser test")
        if os.environ.get("CI") == "true":  # .ci/run installs it: CI must not skip
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.mark.parametrize("name", list(KIND_OF))
def test_report_reads_cleanly_in_a_real_browser(outputs, browser, name):
    out = outputs[name]
    page_path = write_report(out)
    seen = open_page(browser, page_path)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"report-{name}.png").write_bytes(seen.screenshot)
    (ARTIFACTS / f"report-{name}-first-screen.png").write_bytes(seen.first_screen)
    assert seen.errors == []
    n_plots = len(list((out / PLOTS_DIR).glob("*.png")))
    assert len(seen.image_widths) == n_plots and all(w > 0 for w in seen.image_widths)
    # No sideways scrolling on a laptop screen.
    assert seen.scroll_width <= seen.window_width
    assert "How this was made" in seen.text
    if KIND_OF[name] == "simulate":
        r = pd.read_parquet(out / "summary.parquet").set_index(["metric", "group"])
        take = r.loc[("take_rate", "")]
        assert pct(take.value, take.ci_low, take.ci_high) in seen.text
    if KIND_OF[name] == "arena":
        r = pd.read_parquet(out / "summary.parquet").set_index("metric").loc["mean_score_diff"]
        assert f"{r.value:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]" in seen.text
