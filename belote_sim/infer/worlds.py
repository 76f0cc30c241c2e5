"""Sampling the worlds of ``pimc:N`` and ``fastpimc:N``: complete deals consistent with
everything a seat knows (:mod:`belote_sim.infer.knowledge`).

The knowledge of the cards is sampled exactly without rejection: the unseen cards are
dealt suit by suit with probabilities proportional to the number of completions of the
remaining hands (:func:`_completions`), so every deal consistent with the cards is
equally likely and a sample costs a fixed amount of work. The rank inferences a
player's refusal to overtrump allows are not used.

The calls are read by rejection (:func:`draw_pimc_worlds`): a world is kept when every
call, replayed by its seat's bidder, is the call that was made
(:func:`belote_sim.infer.auction.gives_calls`), which keeps the law uniform over the
worlds consistent with the cards and the calls. A decision draws at most
:data:`TRIES_PER_WORLD` worlds per world it wants; short of them it plays on the worlds
it found, and with none on uniform worlds, and counts both (``STAT_*`` of the solver
kit, reported by the arena).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit
from belote_sim.dd.kit import STAT_DRAWN, STAT_GIVEN, STAT_SHORT
from belote_sim.infer.auction import gives_calls
from belote_sim.kernels.bits import ctz, popcount
from belote_sim.kernels.layout import KNOW_HELD, KNOW_PLAYED, KNOW_VOID
from belote_sim.kernels.rng import rand_below, rand_float, seed_stream
from belote_sim.kernels.trick import seat_after
from belote_sim.players.seating import table_side
from belote_sim.rules import R_PLAYERS

FACT = np.array([float(np.prod(np.arange(1, i + 1))) for i in range(33)], dtype=np.float64)

#: What the sampler needs for one decision (:func:`prepare_worlds`): the ``unseen``
#: cards, ``n_suit[s]`` of them in suit ``s``; the holders of the unseen cards
#: (``holders[h]``: holder ``h``'s seat, -1 for cards out of play), ``allowed[h, s]``
#: 0 when holder ``h`` cannot hold suit ``s``, ``need[h]`` the cards holder ``h`` still
#: needs; ``held[seat]`` the cards known to be in ``seat``'s hand; ``table`` the
#: completions of :func:`_completions`.
Sampler = namedtuple("Sampler", ["unseen", "n_suit", "allowed", "need", "holders", "held",
                                 "table"])


@jit
def _completions(n_suit, allowed, need, table):
    """Fill ``table[s, a, b, c]``: the number of ways to deal the unseen cards of suits
    ``s..3`` (``n_suit[s]`` each) to the four holders when holders 0-2 still need ``a``,
    ``b``, ``c`` cards (holder 3 takes the rest); ``allowed[h, s]`` is 0 when holder
    ``h`` cannot hold suit ``s``."""
    table[:] = 0.0
    table[4, 0, 0, 0] = 1.0
    rest = 0
    for s in range(3, -1, -1):
        ns = n_suit[s]
        rest += ns
        for a in range(need[0] + 1):
            for b in range(need[1] + 1):
                for c in range(need[2] + 1):
                    d = rest - a - b - c
                    if d < 0 or d > need[3]:
                        continue
                    total = 0.0
                    for x0 in range(min(ns, a) + 1 if allowed[0, s] else 1):
                        for x1 in range(min(ns - x0, b) + 1 if allowed[1, s] else 1):
                            for x2 in range(min(ns - x0 - x1, c) + 1 if allowed[2, s] else 1):
                                x3 = ns - x0 - x1 - x2
                                if x3 > d or (x3 > 0 and not allowed[3, s]):
                                    continue
                                ways = table[s + 1, a - x0, b - x1, c - x2]
                                if ways > 0.0:
                                    total += ways * FACT[ns] / (
                                        FACT[x0] * FACT[x1] * FACT[x2] * FACT[x3]
                                    )
                    table[s, a, b, c] = total


@jit
def _sample(sampler, world, rng):
    """Deal one world of the :class:`Sampler` ``sampler``: ``world[seat]`` = the known
    cards ``held`` plus the unseen cards drawn for that seat (holder ``h`` is seat
    ``holders[h]``, -1 for cards out of play). Exact: each suit's split is drawn with
    probability proportional to its number of completions."""
    n_suit, allowed, need, table = sampler.n_suit, sampler.allowed, sampler.need, sampler.table
    unseen, holders, held = sampler.unseen, sampler.holders, sampler.held
    for h in range(4):
        if holders[h] >= 0:
            world[holders[h]] = held[holders[h]]
    a = need[0]
    b = need[1]
    c = need[2]
    cards = np.empty(8, dtype=np.int64)
    for s in range(4):
        ns = n_suit[s]
        target = rand_float(rng) * table[s, a, b, c]
        acc = 0.0
        pick0 = -1
        pick1 = 0
        pick2 = 0
        for x0 in range(min(ns, a) + 1 if allowed[0, s] else 1):
            for x1 in range(min(ns - x0, b) + 1 if allowed[1, s] else 1):
                for x2 in range(min(ns - x0 - x1, c) + 1 if allowed[2, s] else 1):
                    x3 = ns - x0 - x1 - x2
                    if (x3 > 0 and not allowed[3, s]) or pick0 >= 0:
                        continue
                    ways = table[s + 1, a - x0, b - x1, c - x2]
                    if ways <= 0.0:
                        continue
                    acc += ways * FACT[ns] / (FACT[x0] * FACT[x1] * FACT[x2] * FACT[x3])
                    if acc > target:
                        pick0 = x0
                        pick1 = x1
                        pick2 = x2
        if pick0 < 0:  # rounding at the very top of the range: take the last split
            pick0, pick1, pick2 = _last_split(ns, a, b, c, allowed, table, s)
        # Shuffle the suit's unseen cards and hand them out in that split.
        m = (unseen >> (8 * s)) & 0xFF
        for i in range(ns):
            r = ctz(m)
            m &= m - 1
            cards[i] = 8 * s + r
        for i in range(ns - 1, 0, -1):
            j = rand_below(rng, i + 1)
            t = cards[i]
            cards[i] = cards[j]
            cards[j] = t
        split = (pick0, pick0 + pick1, pick0 + pick1 + pick2)
        for i in range(ns):
            h = 0 if i < split[0] else 1 if i < split[1] else 2 if i < split[2] else 3
            if holders[h] >= 0:
                world[holders[h]] |= 1 << cards[i]
        a -= pick0
        b -= pick1
        c -= pick2


@jit
def _last_split(ns, a, b, c, allowed, table, s):
    out0, out1, out2 = 0, 0, 0
    for x0 in range(min(ns, a) + 1 if allowed[0, s] else 1):
        for x1 in range(min(ns - x0, b) + 1 if allowed[1, s] else 1):
            for x2 in range(min(ns - x0 - x1, c) + 1 if allowed[2, s] else 1):
                x3 = ns - x0 - x1 - x2
                if (x3 > 0 and not allowed[3, s]) or table[s + 1, a - x0, b - x1, c - x2] <= 0:
                    continue
                out0, out1, out2 = x0, x1, x2
    return out0, out1, out2


@jit
def prepare_worlds(hands, seat, played, n, know):
    """What the sampler needs for ``seat``'s decision, a :class:`Sampler`. Holders 0-2
    are the other seats (those that exist), holder 3 the cards out of play (three
    players, two-player games)."""
    mine = hands[seat]
    holders = np.full(4, -1, dtype=np.int64)
    need = np.zeros(4, dtype=np.int64)
    allowed = np.ones((4, 4), dtype=np.bool_)
    held = np.zeros(4, dtype=np.int64)
    known = 0
    for j in range(n - 1):
        s = seat_after(seat, j + 1, n)
        holders[j] = s
        held[s] = know[KNOW_HELD + s] & hands[s]
        known |= held[s]
        need[j] = popcount(hands[s]) - popcount(held[s])
        for suit in range(4):
            if (know[KNOW_VOID + s] >> suit) & 1:
                allowed[j, suit] = False
    unseen = 0xFFFFFFFF & ~mine & ~played & ~known
    # Cards out of play (never dealt into a hand) go to holder 3.
    out = popcount(unseen) - (need[0] + need[1] + need[2] + need[3])
    if out > 0:
        need[3] = out
    n_suit = np.zeros(4, dtype=np.int64)
    for suit in range(4):
        n_suit[suit] = popcount((unseen >> (8 * suit)) & 0xFF)
    # Holder 3 takes "the rest": with four players it is the third opponent.
    table = np.zeros((5, need[0] + 1, need[1] + 1, need[2] + 1), dtype=np.float64)
    _completions(n_suit, allowed, need, table)
    return Sampler(unseen, n_suit, allowed, need, holders, held, table)


@jit(inline="always")
def _shuffled(sampler, world, cards, n_cards, rng):
    """Deal one world of the :class:`Sampler` ``sampler`` when no holder has a void:
    the known cards ``held``, and the ``n_cards`` unseen ``cards`` shuffled (partly:
    each holder's share drawn in turn, Fisher-Yates) and handed out by the holders'
    ``need``. Uniform over the splits, as :func:`_sample` is."""
    holders, need, held = sampler.holders, sampler.need, sampler.held
    pos = 0
    for h in range(4):
        owner = holders[h]
        if owner >= 0:
            world[owner] = held[owner]
        for _ in range(need[h]):
            j = pos + rand_below(rng, n_cards - pos)
            c = cards[j]
            cards[j] = cards[pos]
            cards[pos] = c
            if owner >= 0:
                world[owner] |= 1 << c
            pos += 1


#: The most worlds a decision draws, per world it wants, to find worlds that give the
#: calls.
TRIES_PER_WORLD = 500

#: The worlds a decision wants: ``count`` of them, ``given`` the calls or not, at most
#: ``tries`` worlds drawn per world wanted (:data:`TRIES_PER_WORLD` for the players).
Wanted = namedtuple("Wanted", ["count", "given", "tries"])


@jit
def draw_pimc_worlds(rules, players, kit, sampler, seat, mine, wanted, rng):
    """The worlds ``wanted`` (a :class:`Wanted`: ``int64[k, 4]`` hands, ``mine`` the
    seat's own) of the :class:`Sampler` for ``seat``'s decision, drawn from ``rng``.
    Given the calls, only worlds whose calls are the auction's under ``players``'
    bidders (:func:`~belote_sim.infer.auction.gives_calls`), by rejection within
    ``count * tries`` draws: ``k < count`` when fewer were found, and the ``count``
    uniform worlds of one more round of draws when none were (both counted in
    ``kit.stats``)."""
    count, given = wanted.count, wanted.given
    sampled = np.zeros((count, 4), dtype=np.int64)
    if not given:
        for i in range(count):
            sampled[i, seat] = mine
            _sample(sampler, sampled[i], rng)
        return sampled
    know = kit.know
    n = rules[R_PLAYERS]
    dealt = np.zeros(4, dtype=np.int64)
    # With no void shown, every split of the unseen cards is consistent: a shuffle deals
    # them, far faster than the suit-by-suit draw.
    shuffle = True
    for h in range(4):
        for suit in range(4):
            if not sampler.allowed[h, suit]:
                shuffle = False
    cards = np.empty(32, dtype=np.int64)
    n_cards = 0
    m = sampler.unseen
    while m != 0:
        cards[n_cards] = ctz(m)
        m &= m - 1
        n_cards += 1
    found = 0
    tries = 0
    while found < count and tries < count * wanted.tries:
        row = sampled[found]
        row[:] = 0
        row[seat] = mine
        if shuffle:
            _shuffled(sampler, row, cards, n_cards, rng)
        else:
            _sample(sampler, row, rng)
        tries += 1
        for s in range(n):
            dealt[s] = row[s] | know[KNOW_PLAYED + s]
        if gives_calls(rules, players, kit, dealt, seat, rng):
            found += 1
    side = table_side(seat, n)
    kit.stats[STAT_DRAWN + side] += tries
    kit.stats[STAT_GIVEN + side] += found
    kit.stats[STAT_SHORT + side] += count - found
    if found > 0:
        return sampled[:found]
    for i in range(count):
        sampled[i, :] = 0
        sampled[i, seat] = mine
        _sample(sampler, sampled[i], rng)
    return sampled


@jit
def sample_worlds(hands, seat, played, n, know, count, seed):
    """``count`` deals (``int64[count, 4]`` hands) consistent with what ``seat`` knows,
    drawn as :func:`belote_sim.play.pimc.pimc_card` draws them; for tests and for
    looking at the sampler."""
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, seed, 0, 0)
    sampler = prepare_worlds(hands, seat, played, n, know)
    out = np.zeros((count, 4), dtype=np.int64)
    for i in range(count):
        out[i, seat] = hands[seat]
        _sample(sampler, out[i], rng)
    return out
