"""Every golden case of ``tests/golden.py`` gives the digests recorded in
``tests/golden_outputs.json``: the counters and deal logs of every preset under every
player are what they were when the file was recorded (see that module for when and how
to record it again)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from golden import GOLDEN_FILE, cases, run_case

RECORDED = json.loads(GOLDEN_FILE.read_text())
CASES = {c.name: c for c in cases()}


def test_golden_file_holds_every_case():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_outputs_unchanged(name):
    assert run_case(CASES[name]) == RECORDED[name]


#: Cases small enough to play without the compiler in a few seconds.
PLAIN_CASES = [
    "classic[] threshold/heuristic 3000d", "coinche[] threshold/heuristic 3000d",
    "three-player[shuffle=cut] threshold/heuristic 40m", "no-contract-2p[] random/random 40m",
]


def test_plain_python_kernels_give_the_golden_outputs():
    """With NUMBA_DISABLE_JIT=1 the kernels run as plain Python (for debugging and
    coverage): the same engine, so the same digests."""
    code = (
        "import json, sys; sys.path.insert(0, 'tests'); import golden; "
        f"cases = {{c.name: c for c in golden.cases()}}; names = {PLAIN_CASES!r}; "
        "print(json.dumps({n: golden.run_case(cases[n]) for n in names}))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", code],
                         env=env, cwd=GOLDEN_FILE.parents[1], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out) == {n: RECORDED[n] for n in PLAIN_CASES}
