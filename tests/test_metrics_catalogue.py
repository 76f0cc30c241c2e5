"""The metric catalogue (``belote_sim.stats.METRICS``) is the one list of the metrics
and the one place each metric's facts are declared: ``summary_table`` computes exactly its
rows, ``compare`` pairs its ``compared`` groups with the same counters, the CLI's headline
and the report's labels come from it, and the tables of ``docs/metrics.md`` are generated
from it (``make docs``); likewise the per-deal row schema (``ROW_SCHEMA``) types the
Parquet rows and lists them in the docs."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from belote_sim import PRESETS, Rules, simulate
from belote_sim.kernels.layout import (
    C_DEALS,
    C_MATCH_UNFINISHED,
    C_MATCHES,
    C_THROWN_IN,
    N_COUNTERS,
    N_ROW,
    OUT_LITIGE,
    OUT_MADE,
    OUT_NONE,
    ROW_COLUMNS,
    ROW_OUTCOME,
    ROW_SCHEMA,
    ROW_TYPES,
)
from belote_sim.report import pages, study
from belote_sim.runner.rundir import rows_frame
from belote_sim.stats import (
    BY_NAME,
    HEADLINE,
    LABELS,
    METRICS,
    METRICS_DOC,
    PLAYER_COUNTS,
    ROW_ORDER,
    SECTIONS,
    summary_table,
    with_metrics_tables,
)
from belote_sim.studies.compare import DENOMINATORS, PAIRED, PAIRED_MATCHES, SLOTS, YES_NO


@cache
def _emitted() -> set[tuple[str, str]]:
    rows = set()
    for name in PRESETS:
        for unit in ({"deals": 2_000}, {"matches": 20}):
            table = simulate(Rules.from_preset(name), seed=3, bid_policy="threshold",
                             **unit).table()
            rows |= set(zip(table.metric, table.group, strict=True))
    return rows


def test_summary_table_emits_exactly_the_catalogued_metrics():
    assert {m for m, _ in _emitted()} == {m.name for m in METRICS}
    assert len({m.name for m in METRICS}) == len(METRICS)
    assert {m.section for m in METRICS} <= set(SECTIONS)


def test_headline_rows_exist():
    assert set(HEADLINE) <= _emitted()
    assert HEADLINE[:3] == (("take_rate", ""), ("take_rate", "round=1"), ("take_rate", "round=2"))


@pytest.mark.skipif(not Path(METRICS_DOC).exists(), reason="no docs/ beside the package")
def test_docs_metrics_md_is_generated_from_the_catalogue():
    text = Path(METRICS_DOC).read_text(encoding="utf-8")
    assert with_metrics_tables(text) == text, "docs/metrics.md is stale: run `make docs`"
    for m in METRICS:
        assert f"| `{m.name}` |" in text
    for name, dtype, width, _ in ROW_SCHEMA:
        assert f"`{name}{'0' if width > 1 else ''}`" in text and f"| {dtype} |" in text


def test_rows_frame_follows_the_row_schema():
    rows = np.zeros((3, N_ROW), dtype=np.int64)
    rows[:, ROW_OUTCOME] = [OUT_NONE, OUT_MADE, OUT_LITIGE]
    df = rows_frame(rows)
    assert tuple(df.columns) == ROW_COLUMNS
    assert {c: str(t) for c, t in df.dtypes.items()} == ROW_TYPES
    assert df["outcome"].tolist()[1:] == ["made", "litige"] and df["outcome"].isna()[0]


def test_with_metrics_tables_refuses_a_page_without_markers():
    with pytest.raises(ValueError, match="markers"):
        with_metrics_tables("# no markers here\n")


def _declared(players: int | None = None) -> set[tuple[str, str]]:
    return {(m.name, r.group) for m in METRICS for r in m.rows
            if players is None or players in r.players}


def test_summary_table_rows_are_the_declared_rows():
    assert _emitted() <= _declared()
    # Every counter non-zero: every declared row of a rule set's players is emitted, once.
    counters = np.full(N_COUNTERS, 2, dtype=np.int64)
    counters[C_DEALS] = counters[C_MATCHES] = 100
    for players in PLAYER_COUNTS:
        table = summary_table(counters, players=players)
        rows = list(zip(table.metric, table.group, strict=True))
        assert len(rows) == len(set(rows))
        assert set(rows) == _declared(players)
    assert [(m.name, r.group) for m, r in ROW_ORDER] == list(dict.fromkeys(
        (m.name, r.group) for m, r in ROW_ORDER))
    assert len(ROW_ORDER) == sum(len(m.rows) for m in METRICS)


def test_summary_table_values_are_the_declared_counters():
    rng = np.random.default_rng(5)
    counters = rng.integers(1, 50, N_COUNTERS).astype(np.int64)
    for m in METRICS:  # each denominator larger than every count
        for row in m.rows:
            for slot, _ in row.over:
                counters[slot] = rng.integers(1_000, 2_000)
    counters[C_DEALS] = counters[C_MATCHES] = 100_000
    counters[C_THROWN_IN], counters[C_MATCH_UNFINISHED] = 100, 10
    table = summary_table(counters)
    index = {(r.metric, r.group): r for r in table.itertuples()}
    for m in METRICS:
        for row in m.rows:
            if (m.name, row.group) not in index:
                continue
            r = index[(m.name, row.group)]
            k = sum(c * int(counters[s]) for s, c in row.count)
            n = sum(c * int(counters[s]) for s, c in row.over)
            assert r.n == n
            assert r.value == pytest.approx(k / n)
            assert (r.k is pd.NA) == m.is_mean


def test_every_metric_has_its_label_description_and_kind():
    for m in METRICS:
        assert m.label.strip() and m.definition.strip() and m.groups.strip(), m.name
        assert m.section in SECTIONS
        assert m.rows and len({r.squares is None for r in m.rows}) == 1, m.name
        assert m.beside in ("", *BY_NAME)
        for group in (*m.headline, *m.compared):
            assert (m.name, group) in _declared(), (m.name, group)
    assert len(set(LABELS.values())) == len(LABELS)
    assert set(HEADLINE) <= _declared()


def test_every_compared_metric_is_a_catalogue_row_with_its_counters():
    compared = [(m.name, g) for m in METRICS for g in m.compared]
    assert [(m, g) for m, g, _, _ in PAIRED + PAIRED_MATCHES] == compared
    for metric, group, count, denominator in PAIRED + PAIRED_MATCHES:
        row = BY_NAME[metric].row(group)
        assert row.count == count and DENOMINATORS[row.over] == denominator
        assert ((metric, group) in YES_NO) == (not BY_NAME[metric].is_mean)
        assert {s for s, _ in count} <= set(SLOTS)
    assert all(d == "matches" for *_, d in PAIRED_MATCHES)
    assert all(d != "matches" for *_, d in PAIRED)
    assert {(m, g) for m, g, _, _ in PAIRED + PAIRED_MATCHES} <= _emitted()


def test_the_report_reads_the_catalogue():
    assert pages.LABELS is LABELS
    for m in METRICS:
        assert pages._label(m.name, "") == m.label
    assert pages._label("capot_rate", "side=takers") == f"{LABELS['capot_rate']} (takers)"
    assert {m.name for m in METRICS if m.section == "matches"} == pages.MATCH_METRICS
    paired = {(m, g) for m, g, _, _ in PAIRED}
    for wanted, mean in ((pages.COMPARE_RATES, False), (pages.COMPARE_MEANS, True)):
        assert set(wanted) <= paired
        assert all(BY_NAME[m].is_mean == mean for m, _ in wanted)
    for _, _, metric, group in study.PRESET_COLUMNS + study.MATCH_COLUMNS:
        assert (metric, group) in _declared()
