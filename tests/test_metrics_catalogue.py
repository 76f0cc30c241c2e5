"""The metric catalogue (``belote_sim.stats.METRICS``) is the one list of the metrics:
``summary_table`` emits exactly its metrics, the CLI's headline comes from it, and the
tables of ``docs/metrics.md`` are generated from it (``make docs``); likewise the per-deal
row schema (``ROW_SCHEMA``) types the Parquet rows and lists them in the docs."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from belote_sim import PRESETS, Rules, simulate
from belote_sim.kernels.layout import (
    N_ROW,
    OUT_LITIGE,
    OUT_MADE,
    OUT_NONE,
    ROW_COLUMNS,
    ROW_OUTCOME,
    ROW_SCHEMA,
    ROW_TYPES,
)
from belote_sim.runner.rundir import rows_frame
from belote_sim.stats import HEADLINE, METRICS, METRICS_DOC, SECTIONS, with_metrics_tables


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
