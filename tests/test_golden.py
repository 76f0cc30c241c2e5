"""Every golden case of ``tests/golden.py`` gives the digests recorded in
``tests/golden_outputs.json``: the counters and deal logs of every preset under every
player are what they were when the file was recorded (see that module for when and how
to record it again)."""

from __future__ import annotations

import json

import pytest
from golden import GOLDEN_FILE, cases, run_case

RECORDED = json.loads(GOLDEN_FILE.read_text())
CASES = {c.name: c for c in cases()}


def test_golden_file_holds_every_case():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_outputs_unchanged(name):
    assert run_case(CASES[name]) == RECORDED[name]
