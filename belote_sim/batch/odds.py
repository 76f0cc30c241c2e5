"""Odds of declarations in one random hand of 8 or 9 cards (RULES.md section 5).

Every hand is classified by :func:`belote_sim.kernels.declarations.list_declarations`
(``split_long_runs`` off), the package's single declaration finder, into the flags
``F_*`` below and its total declaration points. :func:`exact_counts` enumerates every
``C(32, k)`` hand; :func:`sampled_counts` draws ``n`` hands, hand ``i`` from the random
stream keyed ``(seed, i, 0)``. Both return ``int64[N_SLOTS]``: the number of hands with
each flag, the number of hands, the sum of points and the sum of squared points. Work is split into
blocks with their own integer counters, summed in a fixed order, so totals are
bit-identical for any thread count. Wrappers: :mod:`belote_sim.studies.odds`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.batch.blocks import run_blocks
from belote_sim.kernels.bits import ctz
from belote_sim.kernels.declarations import list_declarations, summarise_declarations
from belote_sim.kernels.layout import (
    HOLD_CARRE_9,
    HOLD_CARRE_J,
    HOLD_CARRE_OTHER,
    HOLD_QUARTE,
    HOLD_QUINTE,
    HOLD_TIERCE,
    MAX_DECLS,
)
from belote_sim.kernels.rng import rand_below, seed_stream

#: What a hand is classified by: one flag bit each, bit ``f`` counted as the metric
#: ``ODDS_METRICS[f]`` of the odds table (``belote-sim odds``).
ODDS_METRICS = (
    "p_tierce",  # a run of exactly 3
    "p_quarte",  # a run of exactly 4
    "p_quinte_or_longer",  # a run of 5 or more
    "p_run_3plus",  # a run of 3 or more
    "p_carre_jacks",
    "p_carre_nines",
    "p_carre_any",  # any scoring carré: 9s, 10s, Js, Qs, Ks, As
    "p_any_declaration",  # any run of 3+ or scoring carré
    "p_kq_of_a_given_suit",  # K and Q of hearts (any one named suit, by symmetry)
)
(F_TIERCE, F_QUARTE, F_QUINTE, F_RUN3, F_CARRE_J, F_CARRE_9, F_CARRE_ANY, F_ANY,
 F_KQ_HEARTS) = range(len(ODDS_METRICS))
N_FLAGS = len(ODDS_METRICS)
#: The mean metric of the table, from ``SLOT_POINTS``: its last row.
MEAN_METRIC = "expected_declaration_points"
SLOT_HANDS = N_FLAGS  # number of hands counted
SLOT_POINTS = N_FLAGS + 1  # sum of declaration points
SLOT_POINTS_SQ = N_FLAGS + 2  # sum of squared declaration points
N_SLOTS = N_FLAGS + 3

_KQ_HEARTS = (1 << (8 * 2 + 5)) | (1 << (8 * 2 + 6))
_EXACT_BLOCKS = 64  # blocks of the enumeration (independent of the thread count)
_SAMPLE_BLOCK = 1 << 15  # hands per block of the Monte Carlo kernel, at most


@jit
def classify_hand(hand, decls):
    """``(flags, points)`` of ``hand`` (an int64 card mask): the ``F_*`` bits it holds
    and the sum of the points of all its declarations, ``split_long_runs`` off.
    ``decls`` is scratch space, ``int64[MAX_DECLS, 4]``."""
    n = list_declarations(hand, 0, decls)
    points, kinds = summarise_declarations(decls, n)
    flags = 0
    if kinds & HOLD_TIERCE:
        flags |= (1 << F_TIERCE) | (1 << F_RUN3)
    if kinds & HOLD_QUARTE:
        flags |= (1 << F_QUARTE) | (1 << F_RUN3)
    if kinds & HOLD_QUINTE:
        flags |= (1 << F_QUINTE) | (1 << F_RUN3)
    if kinds & (HOLD_CARRE_J | HOLD_CARRE_9 | HOLD_CARRE_OTHER):
        flags |= 1 << F_CARRE_ANY
    if kinds & HOLD_CARRE_J:
        flags |= 1 << F_CARRE_J
    if kinds & HOLD_CARRE_9:
        flags |= 1 << F_CARRE_9
    if n > 0:
        flags |= 1 << F_ANY
    if hand & _KQ_HEARTS == _KQ_HEARTS:
        flags |= 1 << F_KQ_HEARTS
    return flags, points


@jit
def classify_hands(hands):
    """Flags and points (two ``int64`` arrays) of every mask in ``hands``; a test hook
    for :func:`classify_hand`."""
    decls = np.zeros((MAX_DECLS, 4), dtype=np.int64)
    flags = np.zeros(hands.shape[0], dtype=np.int64)
    points = np.zeros(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        flags[i], points[i] = classify_hand(hands[i], decls)
    return flags, points


@jit(inline="always")
def _count(hand, decls, c):
    flags, points = classify_hand(hand, decls)
    for f in range(N_FLAGS):
        c[f] += (flags >> f) & 1
    c[SLOT_HANDS] += 1
    c[SLOT_POINTS] += points
    c[SLOT_POINTS_SQ] += points * points


@jit
def binomial(n, k):
    """``C(n, k)`` as an int64 (0 outside ``0 <= k <= n``); exact for the pack's sizes."""
    if k < 0 or k > n:
        return 0
    r = 1
    for j in range(min(k, n - k)):
        r = r * (n - j) // (j + 1)
    return r


@jit
def unrank_combination(rank, k):
    """The mask of the ``rank``-th ``k``-subset of ``0..31`` in increasing mask order
    (colexicographic: rank = sum of ``C(c_i, i)`` over its cards ``c_1 < ... < c_k``)."""
    mask = 0
    for i in range(k, 0, -1):
        c = i - 1
        while binomial(c + 1, i) <= rank:
            c += 1
        rank -= binomial(c, i)
        mask |= 1 << c
    return mask


@jit(inline="always")
def next_combination(x):
    """Gosper's hack: the next larger mask with as many set bits as ``x``."""
    low = x & -x
    ripple = x + low
    return ripple | (((ripple ^ x) >> 2) >> ctz(low))


def exact_counts(k):
    """Counters (``int64[N_SLOTS]``) over all ``C(32, k)`` hands of ``k`` cards, walked
    with Gosper's hack in ``_EXACT_BLOCKS`` disjoint rank ranges run in parallel.

    Kernel of :func:`belote_sim.studies.odds.exact_odds`; RULES.md section 5.
    """
    per_block = np.zeros((_EXACT_BLOCKS, N_SLOTS), dtype=np.int64)
    decls = np.zeros((_EXACT_BLOCKS, MAX_DECLS, 4), dtype=np.int64)
    run_blocks(lambda b, lo, hi: _count_ranks(k, lo, hi, decls[b], per_block[b]),
               0, int(binomial(32, k)), _EXACT_BLOCKS)
    return per_block.sum(axis=0)


@jit_no_refcount
def _count_ranks(k, lo, hi, decls, c):
    """One block of :func:`exact_counts`: the hands of ranks ``lo .. hi-1`` added to
    ``c`` (``decls``: scratch space). Compiled without reference counting: the
    declarations of every hand are listed into ``decls``, and counting its references at
    each call slowed the whole count down."""
    if hi > lo:
        hand = unrank_combination(lo, k)
        for _ in range(lo, hi - 1):
            _count(hand, decls, c)
            hand = next_combination(hand)
        _count(hand, decls, c)


@jit
def random_hand(state, k, deck):
    """Mask of ``k`` distinct cards drawn by a partial Fisher-Yates shuffle of ``deck``
    (``int64[32]``, reset here) with the stream ``state``."""
    for j in range(32):
        deck[j] = j
    hand = 0
    for j in range(k):
        r = j + rand_below(state, 32 - j)
        card = deck[r]
        deck[r] = deck[j]
        deck[j] = card
        hand |= 1 << card
    return hand


#: The scratch space of one block of :func:`sampled_counts`: the declarations of a hand
#: (``int64[MAX_DECLS, 4]``), the deck it is drawn from (``int64[32]``), the stream
#: (``uint64[1]``).
_Scratch = namedtuple("_Scratch", ["decls", "deck", "state"])


def sampled_counts(k, start, n, seed):
    """Counters (``int64[N_SLOTS]``) over the ``n`` random hands ``start .. start+n-1``
    of ``k`` cards; hand ``i`` is drawn from the stream keyed ``(seed, i, 0)``, whatever
    the thread count, so the counters of consecutive ranges add up to those of their
    union.

    Kernel of :func:`belote_sim.studies.odds.sampled_odds`; RULES.md section 5.
    """
    n_blocks = max(1, (n + _SAMPLE_BLOCK - 1) // _SAMPLE_BLOCK)
    per_block = np.zeros((n_blocks, N_SLOTS), dtype=np.int64)
    scratch = _Scratch(np.zeros((n_blocks, MAX_DECLS, 4), dtype=np.int64),
                       np.zeros((n_blocks, 32), dtype=np.int64),
                       np.zeros((n_blocks, 1), dtype=np.uint64))
    run_blocks(lambda b, lo, hi: _sample_hands(
        k, lo, hi, seed, _Scratch(scratch.decls[b], scratch.deck[b], scratch.state[b]),
        per_block[b]), start, n, n_blocks)
    return per_block.sum(axis=0)


@jit_no_refcount
def _sample_hands(k, lo, hi, seed, scratch, c):
    """One block of :func:`sampled_counts`: hands ``lo .. hi-1`` added to ``c``. Without
    reference counting, as :func:`_count_ranks`."""
    decls, deck, state = scratch
    for i in range(lo, hi):
        seed_stream(state, seed, i, 0)
        _count(random_hand(state, k, deck), decls, c)
