"""Who plays each seat of a deal: the :class:`Players` record the game engine reads, and
the :class:`SeatView` of the seat to play that the solver players read.

Every seat has its bidding policy and its card-play policy (ids of the registry,
:data:`belote_sim.players.POLICIES`), each with its parameter. A run seats the same
players everywhere (:func:`same_players`); the arena seats player A on one side and B
on the other (:func:`sided_players`), each side with its own bidding and card play
(:class:`SidePolicies`). The players also carry the ``table`` bidder's lookup
(``table_keys``, ``table_gains``: :func:`belote_sim.players.table_bidder.shipped_lookup`,
or :func:`no_lookup` where no seat bids by table), as arrays the kernels receive rather
than compile in.

What the players need decides what the kernels compile. Where no seat bids by table
the lookup is ``None``, and where no seat runs the double-dummy solver (``solver``,
:func:`solver_need`) so is ``players.solver``: Numba then drops every branch that tests
such an argument ``is None`` before it compiles, so the kernels of a random or
heuristic run hold neither the solver, nor the PIMC players, nor the table bidder
(minutes of compilation on a first run). The kernels that receive ``None`` test it
themselves, never through a field: Numba prunes on a function's arguments only.

Every kernel takes the players as one :class:`Players`. The one place they change form
is the entry of a parallel loop: Numba cannot capture a tuple into the body of a
``prange`` loop, so a parallel kernel turns them into arrays once
(``seats = players_to_array(players)`` and the lookup arrays as they are) and the loop
body rebuilds them (:func:`players_from_array`) before it hands its block to a compiled
function; a body may build a tuple and pass it on, only not receive one.

>>> from belote_sim.players import BID_THRESHOLD, PLAY_HEURISTIC, PLAY_RANDOM
>>> p = sided_players(SidePolicies(BID_THRESHOLD, 50.0, PLAY_HEURISTIC, 0.0),
...                   SidePolicies(BID_THRESHOLD, 60.0, PLAY_RANDOM, 0.0), 4, no_lookup(), None)
>>> [int(x) for x in p.play], [float(x) for x in p.bid_param]
([1, 0, 1, 0], [50.0, 60.0, 50.0, 60.0])
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit
from belote_sim.kernels.layout import MAX_SEATS
from belote_sim.players import BID_TABLE, SOLVER_BIDS, SOLVER_PLAYS

#: The players of a deal, one entry per seat: bidding policy id and parameter, card-play
#: policy id and parameter. Each field is a tuple of four numbers, not an array: the
#: engine reads ``at_seat(players.play, seat)`` at every card from every thread, and a tuple is a
#: value, with none of the reference counting an array shared between threads costs.
#: ``table_keys`` and ``table_gains`` are the ``table`` bidder's lookup, read once per
#: call of a seat that bids by table (``None`` where no seat does). ``solver`` is ``True``
#: when a seat plays or bids with the double-dummy solver, else ``None``
#: (:func:`solver_need`).
Players = namedtuple("Players", ["bid", "bid_param", "play", "play_param", "table_keys",
                                 "table_gains", "solver"])

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
    to play changes with every trick's winner, and the mispredicted jump cost a fifth of
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


@jit
def no_lookup():
    """The ``table`` bidder lookup of players none of whom bids by table: none."""
    return None, None


def solver_need(bids: tuple[int, ...], plays: tuple[int, ...]) -> bool | None:
    """The :class:`Players`' ``solver`` for seats with these bidding and play policy
    ids: ``True`` when one of them runs the double-dummy solver, else ``None`` (the
    kernels are then compiled without it).

    >>> from belote_sim.players import BID_DD, BID_THRESHOLD, PLAY_HEURISTIC
    >>> solver_need((BID_THRESHOLD,), (PLAY_HEURISTIC,)), solver_need((BID_DD,), (0,))
    (None, True)
    """
    if any(b in SOLVER_BIDS for b in bids) or any(p in SOLVER_PLAYS for p in plays):
        return True
    return None


def lookup_need(bids: tuple[int, ...]) -> bool:
    """Whether players with these bidding policy ids need the table bidder's lookup."""
    return BID_TABLE in bids


@jit
def same_players(bid, bid_param, play, play_param, table_keys, table_gains, solver):
    """Every seat bids with ``bid`` (parameter ``bid_param``) and plays with ``play``
    (``play_param``); ``table_keys`` and ``table_gains`` are the table bidder's
    lookup, ``solver`` the players' need of the solver (:func:`solver_need`)."""
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
    )


@jit
def sided_players(side_a, side_b, n, lookup, solver):
    """The seats of side 0 (:func:`table_side`) play as ``side_a``, the others as
    ``side_b`` (each a :class:`SidePolicies`); ``lookup`` is the table bidder's
    ``(table_keys, table_gains)`` (:func:`no_lookup`, or
    :func:`belote_sim.players.table_bidder.lookup_for`), ``solver`` the players' need
    of the solver (:func:`solver_need`)."""
    ba, bb = np.int64(side_a.bid), np.int64(side_b.bid)
    a, b = np.int64(side_a.play), np.int64(side_b.play)
    qa, qb = np.float64(side_a.bid_param), np.float64(side_b.bid_param)
    pa, pb = np.float64(side_a.play_param), np.float64(side_b.play_param)
    table_keys, table_gains = lookup
    if n == 4:
        return Players((ba, bb, ba, bb), (qa, qb, qa, qb), (a, b, a, b), (pa, pb, pa, pb),
                       table_keys, table_gains, solver)
    return Players((ba, bb, bb, bb), (qa, qb, qb, qb), (a, b, b, b), (pa, pb, pb, pb),
                   table_keys, table_gains, solver)


@jit
def players_to_array(players):
    """``players``' policies as a float64[4, MAX_SEATS] array (rows: bid, bid_param, play,
    play_param): the form in which they enter a parallel loop, which cannot receive
    tuples; :func:`players_from_array` turns it back in the loop's body, once per block."""
    out = np.empty((4, MAX_SEATS), dtype=np.float64)
    for seat in range(MAX_SEATS):
        out[0, seat] = players.bid[seat]
        out[1, seat] = players.bid_param[seat]
        out[2, seat] = players.play[seat]
        out[3, seat] = players.play_param[seat]
    return out


@jit
def players_from_array(a, table_keys, table_gains, solver):
    """The :class:`Players` of :func:`players_to_array`'s array ``a``, the lookup
    arrays and ``solver`` (which enter a parallel loop as they are)."""
    return Players(
        (np.int64(a[0, 0]), np.int64(a[0, 1]), np.int64(a[0, 2]), np.int64(a[0, 3])),
        (a[1, 0], a[1, 1], a[1, 2], a[1, 3]),
        (np.int64(a[2, 0]), np.int64(a[2, 1]), np.int64(a[2, 2]), np.int64(a[2, 3])),
        (a[3, 0], a[3, 1], a[3, 2], a[3, 3]),
        table_keys,
        table_gains,
        solver,
    )
