"""Named state everywhere: no jitted function of belote_sim takes more than
:data:`MAX_PARAMS` parameters. State that travels together (a seat's view of the trick,
the solver's scratch, the strength block's inputs) goes as one named tuple.

The sources are read with ``ast``: nothing is imported, nothing compiled."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "belote_sim"
#: The decorators of :mod:`belote_sim._jit`.
JIT_DECORATORS = {"jit", "jit_no_refcount", "jit_refcounted"}
MAX_PARAMS = 8


def _decorator_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _param_count(fn: ast.FunctionDef) -> int:
    a = fn.args
    return (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None)
            + (a.kwarg is not None))


def jitted_params() -> dict[tuple[str, str], int]:
    """``{(path, name): parameter count}`` of every jitted function of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                _decorator_name(d) in JIT_DECORATORS for d in node.decorator_list
            ):
                out[(rel, node.name)] = _param_count(node)
    return out


def test_the_scan_finds_the_kernels():
    found = jitted_params()
    assert len(found) > 100
    assert ("belote_sim/game/tricks.py", "play_tricks") in found


def test_no_jitted_function_takes_more_than_eight_parameters():
    over = {key: n for key, n in jitted_params().items() if n > MAX_PARAMS}
    assert not over, f"more than {MAX_PARAMS} parameters (named tuples instead): {over}"


def test_the_scan_counts_parameters():
    tree = ast.parse("@jit\ndef f(a, b, *c, d, **e):\n    pass\n")
    fn = tree.body[0]
    assert _decorator_name(fn.decorator_list[0]) == "jit"
    assert _param_count(fn) == 5
