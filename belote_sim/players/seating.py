"""Who plays each seat of a deal: the :class:`Players` record the game engine reads, and
the :class:`SeatView` of the seat to play that the solver players read.

Every seat has its bidding policy and its card-play policy (ids of the registry,
:data:`belote_sim.players.registry.POLICIES`), each with its parameter. A run seats the same
players everywhere (:func:`same_players`); the arena seats player A on one side and B
on the other (:func:`sided_players`), each side with its own bidding and card play
(:class:`SidePolicies`). The players also carry the ``table`` bidder's lookup
(``table_keys``, ``table_gains``: :func:`belote_sim.players.lookup.shipped_lookup`,
or :func:`~belote_sim.players.lookup.no_lookup` where no seat bids by table), as
arrays the kernels receive rather than compile in.

What the players need decides what the kernels compile. Where no seat bids by table
the lookup is ``None``, and where no seat runs the double-dummy solver (``solver``,
:func:`solver_need`) so is ``players.solver``: Numba then drops every branch that tests
such an argument ``is None`` before it compiles (the kernels that receive ``None`` test
it themselves, never through a field: Numba prunes on a function's arguments only).
``players.families`` says in its type which families of rule sets they sit at
(:func:`families_for`, :class:`Seated`, :class:`Away`), and the deal compiles the deal
functions of those only (``belote_sim.game.deals``). So the kernels of a random or
heuristic classic run hold neither the solver, nor the PIMC players, nor the table
bidder, nor the deal functions of coinche and the two-player games (minutes of
compilation on a first run).

Every kernel takes the players as one :class:`Players`, handed from Python to the
compiled block functions of the chunk kernels as it is.

>>> from belote_sim.players.lookup import no_lookup
>>> from belote_sim.players.registry import BID_THRESHOLD, PLAY_HEURISTIC, PLAY_RANDOM
>>> p = sided_players(SidePolicies(BID_THRESHOLD, 50.0, PLAY_HEURISTIC, 0.0),
...                   SidePolicies(BID_THRESHOLD, 60.0, PLAY_RANDOM, 0.0), 4, no_lookup(), None,
...                   ALL_FAMILIES)
>>> [int(x) for x in p.play], [float(x) for x in p.bid_param]
([1, 0, 1, 0], [50.0, 60.0, 50.0, 60.0])
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np
from numba import types
from numba.extending import overload

from belote_sim._jit import COMPILE_ALL, jit
from belote_sim.players.lookup import lookup_for
from belote_sim.players.registry import SOLVER_BIDS, SOLVER_PLAYS
from belote_sim.rules import N_FAMILIES, family_of

if TYPE_CHECKING:
    from belote_sim.players.spec import PolicySpec

#: The players of a deal, one entry per seat: bidding policy id and parameter, card-play
#: policy id and parameter. Each field is a tuple of four numbers, not an array: the
#: engine reads ``at_seat(players.play, seat)`` at every card from every thread, and a tuple is a
#: value, with none of the reference counting an array shared between threads costs.
#: ``table_keys`` and ``table_gains`` are the ``table`` bidder's lookup, read once per
#: call of a seat that bids by table (``None`` where no seat does). ``solver`` is ``True``
#: when a seat plays or bids with the double-dummy solver, else ``None``
#: (:func:`solver_need`). ``families`` has one entry for each family of rule sets
#: (``belote_sim.rules.FAMILY_*``): :class:`Seated` where the players may sit at its
#: deals, :class:`Away` where its deal function is left out; the constructors take them
#: as flags, ``True`` or ``None`` (:func:`families_for`).
Players = namedtuple("Players", ["bid", "bid_param", "play", "play_param", "table_keys",
                                 "table_gains", "solver", "families"])

#: The families' flags of kernels that play any rule set (replay, the kernels of the
#: studies).
ALL_FAMILIES = (True,) * N_FAMILIES

#: The entries of :class:`Players`' ``families``. Empty named tuples are types without
#: data: the entries tell Numba which deal functions to compile (:func:`seated`) and
#: add no data to the players handed by value to every hot function.
#: :func:`family_entries` makes them from flags.
Seated = namedtuple("Seated", [])
Away = namedtuple("Away", [])


def seated(entry) -> bool:
    """Whether an entry of the :class:`Players`' ``families`` (or its Numba type) seats
    the players at that family's deals.

    >>> seated(Seated()), seated(Away())
    (True, False)
    """
    if isinstance(entry, types.BaseNamedTuple):
        return entry.instance_class is not Away
    return not isinstance(entry, Away)


def _entry_of(flag):
    return Away() if flag is None else Seated()


@overload(_entry_of, inline="always")
def _entry_of_type(flag):
    if isinstance(flag, types.NoneType):
        return lambda flag: Away()
    return lambda flag: Seated()


@jit(inline="always")
def family_entries(flags):
    """The :class:`Players`' ``families`` of the flags ``flags`` (:func:`families_for`)."""
    retourne, coinche, stock, two_player = flags
    return (_entry_of(retourne), _entry_of(coinche), _entry_of(stock), _entry_of(two_player))


#: A player's answer where its code was left out of the kernels (its seat's ``solver``
#: or lookup is ``None``): no call and no card, so the deal is refused as an illegal
#: choice rather than played on. Only a caller that builds :class:`Players` by hand
#: with the wrong needs meets it.
NOT_COMPILED = -1

#: One side's players in :func:`sided_players`: its bidding policy id and parameter, its
#: card-play policy id and parameter.
SidePolicies = namedtuple("SidePolicies", ["bid", "bid_param", "play", "play_param"])

#: What ``seat`` sees of the trick in play when it chooses a card: the ``trick``'s first
#: ``k`` cards, led by ``leader``; ``played`` (a mask of every card played, the trick's
#: included), ``trump``, the ``taker``, the number of players ``n``; ``cap`` (1 while the
#: takers have taken every trick) and ``free`` (a free trick of the stock game).
SeatView = namedtuple("SeatView", ["seat", "trick", "k", "leader", "played", "trump", "taker",
                                   "n", "cap", "free"])


@jit(inline="always")
def at_seat(values, seat):
    """``values[seat]`` of one of the players' four-entry tuples (``players.play``...).

    By selects, not the jump table Numba makes of a tuple indexed at run time: the seat
    to play changes with every trick's winner, and the mispredicted jump cost a visible share of
    a random card."""
    if seat == 0:
        return values[0]
    return values[1] if seat == 1 else (values[2] if seat == 2 else values[3])


@jit
def table_side(seat, n):
    """The side of the table ``seat`` sits on: seats 0 and 2 are side 0 with four
    players; with two (or three) players seat 0 is side 0 and the others side 1."""
    if n == 4:
        return seat & 1
    return 0 if seat == 0 else 1


def solver_need(bids: tuple[int, ...], plays: tuple[int, ...],
                every: bool = COMPILE_ALL) -> bool | None:
    """The :class:`Players`' ``solver`` for seats with these bidding and play policy
    ids: ``True`` when one of them runs the double-dummy solver, else ``None`` (the
    kernels are then compiled without it).

    >>> from belote_sim.players.registry import BID_DD, BID_THRESHOLD, PLAY_HEURISTIC
    >>> solver_need((BID_THRESHOLD,), (PLAY_HEURISTIC,), every=False), solver_need((BID_DD,), (0,))
    (None, True)
    """
    if every or any(b in SOLVER_BIDS for b in bids) or any(p in SOLVER_PLAYS for p in plays):
        return True
    return None


def families_for(*rule_sets, every: bool = COMPILE_ALL) -> tuple[bool | None, ...]:
    """The :class:`Players`' ``families`` for players who sit at the deals of these rule
    sets (each a :meth:`belote_sim.rules.Rules.to_array`, or any sequence of its
    integers): ``True`` for their families, ``None`` for the others; with ``every``
    (default: ``BELOTE_SIM_COMPILE_ALL=1``, :data:`belote_sim._jit.COMPILE_ALL`)
    ``True`` for all.

    >>> from belote_sim.rules import Rules
    >>> families_for(Rules.from_preset("classic").to_array(), every=False)
    (True, None, None, None)
    """
    if not rule_sets:
        raise TypeError("families_for needs at least one rule set")
    if every:
        return ALL_FAMILIES
    mine = {family_of(rules) for rules in rule_sets}
    return tuple(True if f in mine else None for f in range(N_FAMILIES))


@jit
def same_players(bid, bid_param, play, play_param, table_keys, table_gains, solver, families):
    """Every seat bids with ``bid`` (parameter ``bid_param``) and plays with ``play``
    (``play_param``); ``table_keys`` and ``table_gains`` are the table bidder's
    lookup, ``solver`` the players' need of the solver (:func:`solver_need`),
    ``families`` the families they sit at (:func:`families_for`)."""
    bid, play = np.int64(bid), np.int64(play)
    bid_param, play_param = np.float64(bid_param), np.float64(play_param)
    return Players(
        (bid, bid, bid, bid),
        (bid_param, bid_param, bid_param, bid_param),
        (play, play, play, play),
        (play_param, play_param, play_param, play_param),
        table_keys,
        table_gains,
        solver,
        family_entries(families),
    )


@jit
def sided_players(side_a, side_b, n, lookup, solver, families):
    """The seats of side 0 (:func:`table_side`) play as ``side_a``, the others as
    ``side_b`` (each a :class:`SidePolicies`); ``lookup`` is the table bidder's
    ``(table_keys, table_gains)`` (:func:`no_lookup`, or
    :func:`belote_sim.players.lookup.lookup_for`), ``solver`` the players' need
    of the solver (:func:`solver_need`), ``families`` the families they sit at
    (:func:`families_for`)."""
    ba, bb = np.int64(side_a.bid), np.int64(side_b.bid)
    a, b = np.int64(side_a.play), np.int64(side_b.play)
    qa, qb = np.float64(side_a.bid_param), np.float64(side_b.bid_param)
    pa, pb = np.float64(side_a.play_param), np.float64(side_b.play_param)
    table_keys, table_gains = lookup
    if n == 4:
        return Players((ba, bb, ba, bb), (qa, qb, qa, qb), (a, b, a, b), (pa, pb, pa, pb),
                       table_keys, table_gains, solver, family_entries(families))
    return Players((ba, bb, bb, bb), (qa, qb, qb, qb), (a, b, b, b), (pa, pb, pb, pb),
                   table_keys, table_gains, solver, family_entries(families))


def players_of(bid: PolicySpec, play: PolicySpec, *rule_sets, with_solver: bool = False,
               ) -> Players:
    """The :class:`Players` of a run whose every seat bids with ``bid`` and plays with
    ``play`` (the table bidder's lookup loaded when it bids), at the deals of
    ``rule_sets`` (each a :meth:`~belote_sim.rules.Rules.to_array` or a tuple of its
    integers): built with the solver when a player needs it, or ``with_solver`` (kernels
    that value or solve positions whoever plays), and with the deal functions of these
    rule sets' families only. A run builds its players once, here.

    >>> from belote_sim.players.spec import PolicySpec
    >>> from belote_sim.rules import Rules
    >>> p = players_of(PolicySpec.parse("threshold", "bid"), PolicySpec.parse("random", "play"),
    ...                Rules().to_array())
    >>> [int(x) for x in p.bid], [float(x) for x in p.bid_param]
    ([1, 1, 1, 1], [50.0, 50.0, 50.0, 50.0])
    """
    solver = True if with_solver else solver_need((bid.id,), (play.id,))
    return same_players(bid.id, bid.value, play.id, play.value, *lookup_for(bid.id), solver,
                        families_for(*rule_sets))
