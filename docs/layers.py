"""The picture of the package's layers in ``docs/design.md``, generated from the
import-linter contract (``pyproject.toml``) and the import graph that ``lint-imports``
checks (grimp).

``make docs`` rewrites the picture between ``docs/design.md``'s ``layers:begin`` and
``layers:end`` markers; ``tests/test_layers.py`` fails when it is stale. Each layer
lists its modules as they are on disk and the layers it really imports.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
BEGIN = "<!-- layers:begin"
END = "<!-- layers:end -->"
#: The contract's layers, top first, as the picture names them.
LABELS = ("entry point", "cli", "reports, seat", "studies", "logs, stats", "runner",
          "batch kernels", "deal engine", "card play", "inference", "bidders", "solver",
          "players", "rule kernels", "facts")
WIDTH = 88


def contract_layers() -> list[list[str]]:
    """The layers of the contract, top first, each a list of module names."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (contract,) = config["tool"]["importlinter"]["contracts"]
    return [[m.strip() for m in re.split(r"[:|]", layer)] for layer in contract["layers"]]


def _shown(module: str, graph) -> str:
    """``name.py``, or ``name/`` with the package's modules (and subpackages)."""
    short = module.removeprefix("belote_sim.")
    children = sorted(m for m in graph.find_children(module))
    if not children:
        return f"{short}.py"
    parts = []
    for child in children:
        name = child.rsplit(".", 1)[1]
        grand = sorted(g.rsplit(".", 1)[1] for g in graph.find_children(child))
        parts.append(f"{name}/ ({', '.join(grand)})" if grand else name)
    return f"{short}/ " + ", ".join(parts)


def picture() -> str:
    """The picture: each layer's modules, then the lower layers it imports."""
    import grimp

    graph = grimp.build_graph("belote_sim")
    layers = contract_layers()
    owner = {}
    for i, layer in enumerate(layers):
        for top in layer:
            for m in graph.find_descendants(top) | {top}:
                owner[m] = i
    lines = []
    for i, (label, layer) in enumerate(zip(LABELS, layers, strict=True)):
        text = ", ".join(_shown(m, graph) for m in sorted(layer))
        wrapped = textwrap.wrap(text, WIDTH - 16) or [""]
        lines.append(f"{label:<15} {wrapped[0]}")
        lines += [f"{'':<15} {w}" for w in wrapped[1:]]
        below = set()
        for top in layer:
            for m in graph.find_descendants(top) | {top}:
                for imported in graph.find_modules_directly_imported_by(m):
                    if imported in owner and owner[imported] != i:
                        below.add(owner[imported])
        if i < len(layers) - 1:
            names = ", ".join(LABELS[j] for j in sorted(below)) or "nothing"
            wrapped = textwrap.wrap(f"imports: {names}", WIDTH - 16)
            lines.append(f"{'  |':<15} {wrapped[0]}")
            lines += [f"{'  |':<15} {w}" for w in wrapped[1:]]
    return "```\n" + "\n".join(lines) + "\n```\n"


def with_picture(page: str) -> str:
    """``page`` with the generated picture between its markers."""
    if BEGIN not in page or END not in page:
        raise ValueError(f"docs/design.md has no {BEGIN} ... {END} markers")
    head, rest = page.split(BEGIN, 1)
    marker = rest.split("\n", 1)[0]
    tail = rest.split(END, 1)[1]
    return f"{head}{BEGIN}{marker}\n{picture()}{END}{tail}"


if __name__ == "__main__":
    DESIGN.write_text(with_picture(DESIGN.read_text(encoding="utf-8")), encoding="utf-8")
    sys.exit(0)
