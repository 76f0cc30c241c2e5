"""The layers of the package: every module belongs to one layer of the import-linter
contract in ``pyproject.toml`` (which ``make test`` checks with ``lint-imports``), and
the picture of the layers in ``docs/design.md`` is generated from the contract and the
import graph (``docs/layers.py``, run by ``make docs``)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]


def _layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (contract,) = config["tool"]["importlinter"]["contracts"]
    return [[m.strip() for m in re.split(r"[:|]", layer)] for layer in contract["layers"]]


def test_every_module_is_in_a_layer():
    placed = {m for layer in _layers() for m in layer}
    for path in sorted((ROOT / "belote_sim").glob("*")):
        if path.name in ("__init__.py", "__pycache__"):
            continue
        if path.suffix == ".py" or (path / "__init__.py").exists():
            assert f"belote_sim.{path.stem}" in placed, f"{path.name} is in no layer"


def test_design_picture_is_generated_from_the_import_graph():
    spec = importlib.util.spec_from_file_location("layers_doc", ROOT / "docs" / "layers.py")
    layers_doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layers_doc)
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    assert layers_doc.with_picture(design) == design, "docs/design.md's picture is stale: make docs"
    picture = design[design.index(layers_doc.BEGIN):design.index(layers_doc.END)]
    for layer in _layers():  # every layer, top first
        assert all(m.removeprefix("belote_sim.") in picture for m in layer)
