"""Shuffling, dealing in packets from the pack order, and the traditional pack rebuilt
from the tricks and cut between deals (RULES.md section 4)."""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.cards import SEVEN
from belote_sim.kernels.layout import (
    DEALT,
    EXCHANGE_SEAT,
    FIRST_HAND,
    N_PLAYS,
    PACK,
    PLAYS,
    RETOURNE,
    THROWN_IN,
    TRUMP,
)
from belote_sim.kernels.rng import below_from, rand_below
from belote_sim.kernels.trick import seat_after


@jit
def shuffle_pack(pack, rng):
    """Fill ``pack`` (int64[32]) with a uniformly random permutation of the 32 cards
    (Fisher-Yates on the stream ``rng``); top card first."""
    for i in range(32):
        pack[i] = i
    z = rng[0]  # the stream's state in a register for the 31 draws
    for i in range(31, 0, -1):
        j, z = below_from(z, i + 1)
        tmp = pack[i]
        pack[i] = pack[j]
        pack[j] = tmp
    rng[0] = z


@jit
def complete_pack(pack, fixed_pos, fixed_cards, free_pos, unseen, rng):
    """Fill ``pack`` (int64, top first) so that ``fixed_cards[j]`` lies at
    ``fixed_pos[j]`` (what one seat knows) and a uniformly random permutation of the
    ``unseen`` cards fills the ``free_pos`` positions (Fisher-Yates on the stream
    ``rng``): every completion of the seat's knowledge is equally likely, exactly, and
    no sample is ever rejected. The inputs are only read, so a world depends on its
    stream alone.

    Kernel of the worlds of :mod:`belote_sim.batch.counterfactuals`; tested against the
    enumeration of every completion of small packs."""
    for j in range(len(fixed_pos)):
        pack[fixed_pos[j]] = fixed_cards[j]
    n = len(unseen)
    for j in range(n):
        pack[free_pos[j]] = unseen[j]
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        a, b = free_pos[i], free_pos[j]
        tmp = pack[a]
        pack[a] = pack[b]
        pack[b] = tmp


@jit(inline="always")
def deal_packet(pack, pos, hands, n_players, first_hand, size):
    """Give every player, in turn order from ``first_hand``, ``size`` cards from the top
    of the pack at ``pos``; return the new ``pos``."""
    for i in range(n_players):
        seat = seat_after(first_hand, i, n_players)
        for _ in range(size):
            hands[seat] |= 1 << pack[pos]
            pos += 1
    return pos


@jit(inline="always")
def deal_rest(pack, pos, hands, n_players, first_hand, taker):
    """The deal's end after a retourne is taken (RULES 4): in turn order from
    ``first_hand``, the taker (who has picked up the retourne) gets 2 more cards from
    the pack at ``pos``, everyone else 3; return the new ``pos``."""
    for i in range(n_players):
        seat = seat_after(first_hand, i, n_players)
        for _ in range(2 if seat == taker else 3):
            hands[seat] |= 1 << pack[pos]
            pos += 1
    return pos


@jit
def rebuild_pack(rec, n_players, out):
    """The pack after a deal, before the cut (RULES 4, ``shuffle = cut``), written into
    ``out``: a played deal's tricks in the order played; a thrown-in deal's hands in
    turn order from the first hand, each in index order (its holder sorted it). Then
    every other card in the order it lay in the pack: nobody sorts cards that were never
    picked up (the cards out of play of ``three-player`` and ``no-contract-2p``; after a
    thrown-in deal the turned card, then the undealt cards).

    In ``no-contract-2p`` the seven of trumps, once exchanged, lies where the turned card
    lay (its holder put it there; the turned card was played)."""
    used = 0
    pos = 0
    if rec[THROWN_IN] != 0:
        fh = rec[FIRST_HAND]
        for i in range(n_players):
            hand = rec[DEALT + seat_after(fh, i, n_players)]
            for card in range(32):
                if hand >> card & 1:
                    out[pos] = card
                    pos += 1
                    used |= 1 << card
    else:
        for k in range(rec[N_PLAYS]):
            card = rec[PLAYS + k]
            out[pos] = card
            pos += 1
            used |= 1 << card
    seven = -1
    if rec[EXCHANGE_SEAT] >= 0:
        seven = 8 * rec[TRUMP] + SEVEN
    for k in range(32):
        card = rec[PACK + k]
        if card == seven:
            continue  # it was dealt; it lies in the turned card's place now
        if seven >= 0 and card == rec[RETOURNE]:
            card = seven
        if not (used >> card) & 1:
            out[pos] = card
            pos += 1
            used |= 1 << card


@jit
def _reverse(a, lo, hi):
    hi -= 1
    while lo < hi:
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1
        hi -= 1


@jit
def cut_pack(pack, rng):
    """Cut the 32-card pack: a cut point ``c`` uniform in ``3..29`` (RULES 4: ``3..N-3``),
    the top ``c`` cards go under the rest (in place); returns ``c``."""
    c = 3 + rand_below(rng, 32 - 5)
    # rotate left by c with three reversals: no allocation
    _reverse(pack, 0, c)
    _reverse(pack, c, 32)
    _reverse(pack, 0, 32)
    return c
