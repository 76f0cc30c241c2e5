"""The ``colver`` preset is the game colver's engine plays (RULES.md section 10).

Deals are played in colver's own ``Env`` (colver is a dev dependency; never one of the
package): random legal calls, coinches and surcoinches included, then random legal
cards or colver's heuristic card player. Each deal is then replayed by our engine from
its pack, its calls and its cards under ``--rules colver``: at every card our legal
cards must be colver's, and at the end our two deal scores colver's ``Env.rewards``.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from belote_sim import replay
from belote_sim.cards import format_card, parse_card

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from colver_bridge import (  # noqa: E402
    COINCHE,
    PASS,
    SURCOINCHE,
    colver_call_name,
    from_colver_card,
    to_colver_card,
)

try:
    import colver
except ImportError:  # pragma: no cover - the dev extra installs it
    if os.environ.get("CI") == "true":  # .ci/run installs it: CI must not skip
        raise
    pytest.skip("colver is not installed (pip install -e '.[dev]')", allow_module_level=True)

#: Deals played with each card player; a fixed seed each, so a failure names its deal.
DEALS = 300


def _call(rng: random.Random, legal: list[int]) -> int:
    """A random legal call, weighted so that auctions run long and coinches, surcoinches
    and passes after a coinche all occur often."""
    bids = [a for a in legal if a not in (PASS, COINCHE, SURCOINCHE)]
    r = rng.random()
    if SURCOINCHE in legal and r < 0.3:
        return SURCOINCHE
    if COINCHE in legal and r < 0.25:
        return COINCHE
    if bids and r > 0.6:
        return rng.choice(bids[:3] if rng.random() < 0.8 else bids)
    return PASS if PASS in legal else rng.choice(legal)


def play_in_colver(number: int, heuristic: bool) -> dict:
    """Deal ``number`` played in colver's Env: its dealer, hands, calls, cards, the legal
    cards before each card (colver's numbering) and the rewards."""
    rng = random.Random(number)
    env = colver.Env.deal(dealer=number % 4, seed=10_000 + number)
    hands = [list(h) for h in env.get_hands()]
    legal_before = []
    while not env.is_terminal():
        legal = env.legal_actions()
        if env.phase() == 0:
            action = _call(rng, legal)
        else:
            legal_before.append(sorted(legal))
            action = env.action_heuristic_play() if heuristic else rng.choice(legal)
        env.step(action)
    return {
        "dealer": env.get_dealer(), "hands": hands,
        "calls": [colver_call_name(a) for _, a in env.get_bid_history()],
        "plays": [format_card(from_colver_card(c)) for c in env.get_play_order()],
        "legal": legal_before, "rewards": [int(r) for r in env.rewards()],
    }


def deal_log(played: dict) -> dict:
    """Our deal log of a deal colver played: the pack that deals colver's hands in the
    packets 3-3-2 from the first hand (RULES 7.4 step 1)."""
    first = (played["dealer"] + 1) % 4
    pack = [c for lo, hi in ((0, 3), (3, 6), (6, 8))
            for k in range(4) for c in played["hands"][(first + k) % 4][lo:hi]]
    return {"rules": "colver", "dealer": played["dealer"],
            "pack": [format_card(from_colver_card(c)) for c in pack],
            "calls": played["calls"], "plays": played["plays"]}


@pytest.mark.parametrize("card_player", ["random", "heuristic"])
def test_colvers_deals_replay_with_its_legal_cards_and_deal_scores(card_player):
    counts = {"deals": 0, "thrown_in": 0, "coinched": 0, "surcoinched": 0, "cards": 0,
              "passes_after_coinche": 0}
    for number in range(DEALS):
        played = play_in_colver(number, card_player == "heuristic")
        out = replay(deal_log(played))
        counts["deals"] += 1
        if out["thrown_in"]:
            assert played["rewards"] == [0, 0], number
            counts["thrown_in"] += 1
            continue
        ours = [sorted(to_colver_card(parse_card(c)) for c in legal)
                for trick in out["tricks"] for legal in trick["legal"]]
        assert ours == played["legal"], f"deal {number}: legal cards differ"
        assert out["deal_score"] == played["rewards"], (number, out["contract"])
        counts["cards"] += len(ours)
        m = out["contract"]["multiplier"]
        counts["coinched"] += m > 1
        counts["surcoinched"] += m == 3
        if "coinche" in played["calls"]:
            after = played["calls"][played["calls"].index("coinche") + 1:]
            counts["passes_after_coinche"] += after.count("pass")
    print(counts)
    # the deals hold what the rules decide: coinches, surcoinches, the coincher's side's
    # passes, thrown-in deals
    assert all(counts[k] > 10 for k in counts), counts
