"""Bidding and card-play policies, chosen by integer id inside the kernels.

A policy sees only what its seat may see: the bidding policy gets the seat's own five
cards, the retourne, the round and its position; the play policy gets the seat's hand,
its legal cards, the cards of the current trick, every card played so far, trump and
the taker. A new player is an id and a row of :data:`POLICIES`, the registry that the
command line, the runner and the arena read.

>>> from belote_sim.players.registry import play_policy_id, bid_policy_id
>>> play_policy_id("random"), bid_policy_id("threshold")
(0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from belote_sim.errors import BeloteError

PLAY_RANDOM = 0
PLAY_HEURISTIC = 1
PLAY_PIMC = 2
PLAY_DD = 3
PLAY_FASTPIMC = 4
#: ``pimc`` and ``fastpimc`` whose worlds ignore the calls (written ``pimc:N:uniform``).
PLAY_PIMC_UNIFORM = 5
PLAY_FASTPIMC_UNIFORM = 6

BID_RANDOM = 0
BID_THRESHOLD = 1
BID_DD = 2
BID_TABLE = 3

#: ``pimc``'s and ``fastpimc``'s default and largest number of sampled worlds per decision.
DEFAULT_WORLDS = 20
MAX_WORLDS = 1000


@dataclass(frozen=True)
class Policy:
    """One player of the registry: what the command line, the runner and the arena
    know of it. ``param`` names its parameter (``None``: it takes none), with its
    default and allowed range (``whole``: a whole number)."""

    kind: str  # "bid" or "play"
    name: str
    id: int
    param: str | None = None
    default: float | None = None
    low: float | None = None
    high: float | None = None
    whole: bool = False
    solver: bool = False  # runs the double-dummy solver: seconds per deal
    #: A player that samples worlds: the id of its variant whose worlds ignore the calls
    #: (written ``name:param:uniform``).
    uniform_id: int | None = None


#: Every player, once. The threshold bidder's value scale is documented in
#: :mod:`belote_sim.bid.retourne`; the dd bidder's chance in
#: :mod:`belote_sim.bid.dd_bidder`; the table bidder's gain (points per deal over
#: passing, from the shipped bid atlas) in :mod:`belote_sim.bid.table_bidder`.
POLICIES: tuple[Policy, ...] = (
    Policy("bid", "random", BID_RANDOM, "take probability", 0.25, 0.0, 1.0),
    Policy("bid", "threshold", BID_THRESHOLD, "minimum hand value", 50.0),
    Policy("bid", "dd", BID_DD, "minimum chance", 0.5, 0.0, 1.0, solver=True),
    Policy("bid", "table", BID_TABLE, "minimum gain", 0.0, -500.0, 500.0),
    Policy("play", "random", PLAY_RANDOM),
    Policy("play", "heuristic", PLAY_HEURISTIC),
    Policy("play", "pimc", PLAY_PIMC, "worlds", DEFAULT_WORLDS, 1, MAX_WORLDS, whole=True,
           solver=True, uniform_id=PLAY_PIMC_UNIFORM),
    Policy("play", "dd", PLAY_DD, solver=True),
    Policy("play", "fastpimc", PLAY_FASTPIMC, "worlds", DEFAULT_WORLDS, 1, MAX_WORLDS,
           whole=True, solver=True, uniform_id=PLAY_FASTPIMC_UNIFORM),
)
PLAY_POLICIES = {p.name: p.id for p in POLICIES if p.kind == "play"}
BID_POLICIES = {p.name: p.id for p in POLICIES if p.kind == "bid"}
#: The play policies that run the double-dummy solver: a workspace needs a table.
SOLVER_PLAYS = tuple(p.id for p in POLICIES if p.kind == "play" and p.solver) + tuple(
    p.uniform_id for p in POLICIES if p.uniform_id is not None)
#: The bidding policies that run the double-dummy solver.
SOLVER_BIDS = tuple(p.id for p in POLICIES if p.kind == "bid" and p.solver)
#: The players that sample worlds, with or without the calls.
PIMC_PLAYS = (PLAY_PIMC, PLAY_FASTPIMC, PLAY_PIMC_UNIFORM, PLAY_FASTPIMC_UNIFORM)
#: The ``fastpimc`` players (a small solver table).
FASTPIMC_PLAYS = (PLAY_FASTPIMC, PLAY_FASTPIMC_UNIFORM)


def policy(kind: str, name: str) -> Policy:
    """The registry's entry for a ``kind`` ("bid" or "play") policy, refusing unknown
    names.

    >>> policy("play", "fastpimc").default
    20
    """
    for p in POLICIES:
        if p.kind == kind and p.name == name:
            return p
    names = ", ".join(p.name for p in POLICIES if p.kind == kind)
    raise BeloteError(f"unknown {kind} policy {name!r}; available: {names}")


def policy_usage(kind: str) -> str:
    """How to write a ``kind`` policy on the command line, from the registry.

    >>> policy_usage("bid").split(", ")
    ['random[:TAKE_PROBABILITY]', 'threshold[:MINIMUM_HAND_VALUE]', 'dd[:MINIMUM_CHANCE]',
     'table[:MINIMUM_GAIN]']
    """
    return ", ".join(
        p.name + (f"[:{p.param.upper().replace(' ', '_')}]" if p.param else "")
        + ("[:uniform]" if p.uniform_id is not None else "")
        for p in POLICIES if p.kind == kind
    )


def play_policy_id(name: str) -> int:
    """Integer id of a card-play policy, refusing unknown names."""
    return policy("play", name).id


def bid_policy_id(name: str) -> int:
    """Integer id of a bidding policy, refusing unknown names."""
    return policy("bid", name).id
