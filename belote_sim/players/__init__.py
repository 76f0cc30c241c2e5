"""Bidding and card-play policies, chosen by integer id inside the kernels.

A policy sees only what its seat may see: the bidding policy gets the seat's own five
cards, the retourne, the round and its position; the play policy gets the seat's hand,
its legal cards, the cards of the current trick, every card played so far, trump and
the taker. Stronger players (issue 5) add ids here without changing the kernels' form.

>>> from belote_sim.players import play_policy_id, bid_policy_id
>>> play_policy_id("random"), bid_policy_id("threshold")
(0, 1)
"""

from __future__ import annotations

import numpy as np

from belote_sim.errors import BeloteError

PLAY_RANDOM = 0
PLAY_HEURISTIC = 1
PLAY_PIMC = 2
PLAY_DD = 3
PLAY_FASTPIMC = 4
#: The play policies that run the double-dummy solver: a workspace needs a table.
SOLVER_PLAYS = (PLAY_PIMC, PLAY_DD, PLAY_FASTPIMC)
#: Internal: a different play policy for each side (the arena), see ``choose_card``.
PLAY_SIDES = 10
#: Internal: replay a deal log and record the double-dummy value of every position.
PLAY_ANALYSE = -2

BID_RANDOM = 0
BID_THRESHOLD = 1
BID_DD = 2

#: Replay: calls and cards come from the deal log, not from a policy.
SCRIPTED = -1
#: Internal: a dealer who may not pass (stock game after two redeals) names the suit
#: its hand values most.
BID_FORCED = 99

PLAY_POLICIES = {
    "random": PLAY_RANDOM, "heuristic": PLAY_HEURISTIC, "pimc": PLAY_PIMC, "dd": PLAY_DD,
    "fastpimc": PLAY_FASTPIMC,
}
BID_POLICIES = {"random": BID_RANDOM, "threshold": BID_THRESHOLD, "dd": BID_DD}

#: Default parameter of each bidding policy: random's take probability per turn,
#: threshold's minimum hand value (see :mod:`belote_sim.players.bidding`), dd's minimum
#: chance of making the contract (see :mod:`belote_sim.players.solver_play`).
DEFAULT_BID_PARAM = {"random": 0.25, "threshold": 50.0, "dd": 0.5}

#: ``pimc``'s and ``fastpimc``'s default and largest number of sampled worlds per decision.
DEFAULT_WORLDS = 20
MAX_WORLDS = 1000

N_POLICY_PARAMS = 4


def play_policy_id(name: str) -> int:
    """Integer id of a card-play policy, refusing unknown names."""
    try:
        return PLAY_POLICIES[name]
    except KeyError:
        raise BeloteError(
            f"unknown play policy {name!r}; available: {', '.join(PLAY_POLICIES)}"
        ) from None


def bid_policy_id(name: str) -> int:
    """Integer id of a bidding policy, refusing unknown names."""
    try:
        return BID_POLICIES[name]
    except KeyError:
        raise BeloteError(
            f"unknown bid policy {name!r}; available: {', '.join(BID_POLICIES)}"
        ) from None


def policy_params(*values: float) -> np.ndarray:
    """The float64 parameter array a kernel policy reads (unused slots are 0)."""
    out = np.zeros(N_POLICY_PARAMS, dtype=np.float64)
    out[: len(values)] = values
    return out
