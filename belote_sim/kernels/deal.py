"""Shuffling and dealing in packets from the pack order (RULES.md section 4)."""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.kernels.rng import rand_below
from belote_sim.kernels.trick import seat_after


@jit
def shuffle_pack(pack, rng):
    """Fill ``pack`` (int64[32]) with a uniformly random permutation of the 32 cards
    (Fisher-Yates on the stream ``rng``); top card first."""
    for i in range(32):
        pack[i] = i
    for i in range(31, 0, -1):
        j = rand_below(rng, i + 1)
        tmp = pack[i]
        pack[i] = pack[j]
        pack[j] = tmp


@jit
def deal_packet(pack, pos, hands, n_players, first_hand, size):
    """Give every player, in turn order from ``first_hand``, ``size`` cards from the top
    of the pack at ``pos``; return the new ``pos``."""
    for i in range(n_players):
        seat = seat_after(first_hand, i, n_players)
        for _ in range(size):
            hands[seat] |= 1 << pack[pos]
            pos += 1
    return pos
