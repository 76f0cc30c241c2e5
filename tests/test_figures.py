"""The page of current figures (``docs/performance.md``) and the README's speed lines are
generated from one sitting of ``make bench`` (``docs/figures.json``) by
``benchmarks/figures.py``: rendered again from that file, they must be the committed
ones, so that no figure is copied by hand or left behind by a newer sitting."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.beside_warm


def _figures_module():
    spec = importlib.util.spec_from_file_location("figures", ROOT / "benchmarks" / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_performance_page_is_the_sittings_figures_rendered():
    figures = _figures_module()
    sitting = json.loads(figures.FIGURES.read_text(encoding="utf-8"))
    assert figures.PAGE.read_text(encoding="utf-8") == figures.render_page(sitting), (
        "docs/performance.md is not docs/figures.json rendered: python benchmarks/figures.py "
        "--render")
    every = [section.name for section in figures.SECTIONS]
    assert set(every) == set(figures.BENCHES)
    assert all(sitting["benches"].get(name) is not None for name in every), (
        "a benchmark of make bench wrote nothing in the sitting")


def test_the_readme_quotes_the_sittings_speed():
    figures = _figures_module()
    sitting = json.loads(figures.FIGURES.read_text(encoding="utf-8"))
    readme = figures.README.read_text(encoding="utf-8")
    assert figures.with_readme_block(readme, sitting) == readme
    block = readme[readme.index(figures.BEGIN):readme.index(figures.END)]
    engine = sitting["benches"]["engine"]
    assert f"{engine['classic_all_threads_per_s']:,.0f} classic deals a second" in block
    assert sitting["sitting"]["date"] in block
    # Outside the generated lines the README quotes no rate of its own.
    rest = readme.replace(block, "")
    assert not re.search(r"[0-9.,]+ (million )?(classic )?deals (a second|/s)", rest)


def _prose(source: str) -> list[str]:
    """The comments and docstrings of ``source``, doctest examples and their outputs
    left out."""
    import ast
    import io
    import tokenize

    texts = [tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc:
                in_example = False
                for line in doc.splitlines():
                    stripped = line.strip()
                    if stripped.startswith((">>>", "...")):
                        in_example = True
                    elif not stripped:
                        in_example = False
                    if not in_example:
                        texts.append(line)
    return texts


def test_the_code_quotes_no_measured_figure_in_its_comments():
    """Comments and docstrings give the reason, never a timing or a speed-up: those are
    on the performance page, measured by ``make bench``."""
    timing = re.compile(r"\b\d+(\.\d+)? ?(ms|µs|ns)\b|\b\d+(\.\d+)? ?s (on|of|per|at|a)\b"
                        r"|\b\d+(\.\d+)? ?[x×] (faster|slower|the)|deals/s|docs/performance")
    hits = [f"{path.relative_to(ROOT)}: {text.strip()}"
            for path in sorted((ROOT / "belote_sim").rglob("*.py"))
            for text in _prose(path.read_text(encoding="utf-8")) if timing.search(text)]
    assert not hits, "\n".join(hits)
