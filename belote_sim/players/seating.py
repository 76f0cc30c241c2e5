"""Who plays each seat of a deal: the :class:`Players` record the game engine reads.

Every seat has its bidding policy and its card-play policy (ids of the registry,
:data:`belote_sim.players.POLICIES`), each with its parameter. A run seats the same
players everywhere (:func:`same_players`); the arena seats player A on one side and B
on the other (:func:`sided_players`).

>>> from belote_sim.players import BID_THRESHOLD, PLAY_HEURISTIC, PLAY_RANDOM
>>> p = sided_players(BID_THRESHOLD, 50.0, PLAY_HEURISTIC, 0.0, PLAY_RANDOM, 0.0, 4)
>>> [int(x) for x in p.play]
[1, 0, 1, 0]
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit
from belote_sim.kernels.layout import MAX_SEATS

#: The players of a deal, one entry per seat: bidding policy id and parameter, card-play
#: policy id and parameter (int64[4], float64[4], int64[4], float64[4]).
Players = namedtuple("Players", ["bid", "bid_param", "play", "play_param"])


@jit
def table_side(seat, n):
    """The side of the table ``seat`` sits on: seats 0 and 2 are side 0 with four
    players; with two (or three) players seat 0 is side 0 and the others side 1."""
    if n == 4:
        return seat & 1
    return 0 if seat == 0 else 1


@jit
def same_players(bid, bid_param, play, play_param):
    """Every seat bids with ``bid`` (parameter ``bid_param``) and plays with ``play``
    (``play_param``)."""
    return Players(
        np.full(MAX_SEATS, bid, dtype=np.int64),
        np.full(MAX_SEATS, bid_param, dtype=np.float64),
        np.full(MAX_SEATS, play, dtype=np.int64),
        np.full(MAX_SEATS, play_param, dtype=np.float64),
    )


@jit
def sided_players(bid, bid_param, play_a, param_a, play_b, param_b, n):
    """Everyone bids with ``bid``; the seats of side 0 (:func:`table_side`) play with
    ``play_a`` (``param_a``), the others with ``play_b`` (``param_b``)."""
    players = same_players(bid, bid_param, play_a, param_a)
    for seat in range(MAX_SEATS):
        if table_side(seat, n) == 1:
            players.play[seat] = play_b
            players.play_param[seat] = param_b
    return players
