"""The layers of the package: every module belongs to one layer of the import-linter
contract in ``pyproject.toml`` (which ``make test`` checks with ``lint-imports``), and
the README's picture of the layers names the same modules in the same order."""

from __future__ import annotations

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


def test_readme_picture_shows_the_layers_in_order():
    readme = (ROOT / "README.md").read_text()
    picture = readme[readme.index("## Design"):].split("```")[1]
    positions = []
    for layer in _layers():
        names = [m.removeprefix("belote_sim.") for m in layer]
        found = [picture.find(n + ".py") if n + ".py" in picture else picture.find(n + "/")
                 for n in names]
        assert min(found) >= 0, (layer, found)
        positions.append(min(found))
    assert positions == sorted(positions)  # top layer first, as in the contract
