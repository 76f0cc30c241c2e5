"""Card play with the double-dummy solver: ``dd`` (sees every hand), ``pimc:N`` and
``fastpimc:N``; and the double-dummy values of a deal log's positions (``analyse``).

``pimc:N`` (perfect-information Monte Carlo) is the strong honest player: at each
decision it samples ``N`` complete deals consistent with everything its seat knows
(:mod:`belote_sim.infer.knowledge`, sampled by :mod:`belote_sim.infer.worlds`) and
with the auction (each call its seat's bidder would make there,
:mod:`belote_sim.infer.auction`), solves each double-dummy
(:mod:`belote_sim.dd`), and plays the card with the best average value for its
side. ``pimc:N:uniform`` and ``fastpimc:N:uniform`` ignore the calls (:class:`Pimc`
``given`` false), to measure what reading them is worth.

``fastpimc:N`` is ``pimc:N`` but for the value of a card in a world while the seat
holds more than :data:`EXACT_TRICKS` cards: there it is what the takers get when every
seat then plays the heuristic card (:func:`belote_sim.play.heuristic.heuristic_playout`),
not the double-dummy value. Nearly all of ``pimc``'s time goes into the first two
tricks, and the playouts play them almost as well (``docs/players.md``, *How strong,
how fast*).

``dd`` is a yardstick, not a fair player: it plays the double-dummy best card seeing
all hands. All three fall back to the heuristic player during the free tricks of the
stock game, whose draws from the stock the solver does not model.

They keep their solver context, table and knowledge in the solver kit
(:mod:`belote_sim.dd.kit`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim import dd
from belote_sim._jit import jit, jit_refcounted
from belote_sim.dd.kit import VALUES_ROW, VALUES_WORLDS, kit_solver, use_context
from belote_sim.infer.auction import auction_read
from belote_sim.infer.worlds import (
    TRIES_PER_WORLD,
    Wanted,
    draw_pimc_worlds,
    prepare_worlds,
)
from belote_sim.kernels.bits import ctz, popcount
from belote_sim.play.heuristic import heuristic_playout, view_after

#: ``fastpimc`` solves its worlds exactly once the seat holds at most this many cards
#: (from the third trick of a classic deal); before, it plays each world out with the
#: heuristic. The first two tricks are nearly all of ``pimc``'s time: on the same deals
#: ``fastpimc:20`` takes 1/80 of ``pimc:20``'s time per decision
#: (``benchmarks/bench_players.py``).
EXACT_TRICKS = 6
#: ``pimc``'s ``exact_tricks``: more cards than any hand holds, every world solved.
ALWAYS_EXACT = 32

#: How a ``pimc`` player decides: with ``worlds`` sampled deals, solved exactly once the
#: seat holds at most ``exact_tricks`` cards; ``given``, the worlds must give the
#: auction's calls under the players' bidders.
Pimc = namedtuple("Pimc", ["worlds", "exact_tricks", "given"])


@jit
def pimc_card(rules, pimc, legal, hands, view, rng, kit, players):
    """The ``pimc`` card of the seat of ``view``
    (:class:`~belote_sim.players.seating.SeatView`): the best average value over
    ``pimc.worlds`` sampled deals consistent with the seat's knowledge ``kit.know`` and,
    with ``pimc.given``, with the calls under ``players``' bidders
    (:func:`~belote_sim.infer.worlds.draw_pimc_worlds`; ties: the lowest card). A
    card's value in a world is its double-dummy value while the seat holds at most
    ``pimc.exact_tricks`` cards, otherwise the deal played out by the heuristic in every
    seat (``fastpimc``: :data:`EXACT_TRICKS`; ``pimc``: :data:`ALWAYS_EXACT`). Cards the
    solver merges as equivalent share the value of the one it keeps, played out too:
    their double-dummy values are equal, and the heuristic's whims between them are
    not worth a playout each. With exact values, :func:`_exact_choice` finds the card
    with fewer solves (the same card)."""
    if popcount(legal) == 1:
        return ctz(legal)
    seat, trick, k, played = view.seat, view.trick, view.k, view.played
    trump, taker = view.trump, view.taker
    cx = kit.context
    use_context(cx, rules, trump, taker)
    sampled = _sampled_worlds(rules, pimc, hands, view, rng, kit, players)
    if sampled.shape[0] == 0:
        return ctz(legal)
    total = np.zeros(32, dtype=np.int64)
    in_play = 0xFFFFFFFF & ~played
    for i in range(k):
        in_play |= 1 << trick[i]
    moves = dd.candidates(cx, legal, in_play)  # equivalent in every world
    # Legal cards all equivalent: the lowest, as the values would choose. The worlds are
    # still drawn, so that the deal's random stream goes on as it would.
    alike = popcount(moves) == 1
    maximize = cx[dd.CX_TAKERS + seat] == 1
    if alike:
        return ctz(legal)
    if popcount(hands[seat]) <= pimc.exact_tricks:
        return _exact_choice(rules, kit, sampled, legal, moves, view, maximize)
    out_hands = np.zeros(4, dtype=np.int64)
    out_trick = np.zeros(4, dtype=np.int64)
    for i in range(sampled.shape[0]):
        m = moves
        while m != 0:
            c = ctz(m)
            m &= m - 1
            total[c] += _played_out(rules, sampled[i], view, c, out_hands, out_trick)
    # Cards equivalent in every world (adjacent among the unplayed cards, same points)
    # share the value of the one searched.
    m = legal & ~moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        total[c] = total[dd._representative(cx, c, moves)]
    return _best_for_side(total, legal, maximize)


@jit(inline="always")
def _best_for_side(total, legal, maximize):
    """The card of ``legal`` whose ``total`` (by card) is best for the seat's side: the
    highest for the takers (``maximize``), the lowest for the defenders; ties: the
    lowest card."""
    choice = -1
    m = legal
    while m != 0:
        c = ctz(m)
        m &= m - 1
        if choice < 0 or (total[c] > total[choice] if maximize else total[c] < total[choice]):
            choice = c
    return choice


@jit
def _sampled_worlds(rules, pimc, hands, view, rng, kit, players):
    """The worlds of a ``pimc`` decision of the seat of ``view``
    (:func:`~belote_sim.infer.worlds.draw_pimc_worlds`, given the calls under
    ``players``' bidders unless ``pimc.given`` is false or the rules' auction is not
    read); none (``int64[0, 4]``) when no world is wanted or the seat's knowledge
    admits none."""
    seat = view.seat
    sampler = prepare_worlds(hands, seat, view.played, view.n, kit.know)
    need = sampler.need
    if sampler.table[0, need[0], need[1], need[2]] <= 0.0 or pimc.worlds <= 0:
        return np.zeros((0, 4), dtype=np.int64)
    given = pimc.given and auction_read(rules)
    wanted = Wanted(pimc.worlds, given, TRIES_PER_WORLD)
    return draw_pimc_worlds(rules, players, kit, sampler, seat, hands[seat], wanted, rng)


@jit
def pimc_values(rules, pimc, legal, hands, view, rng, kit, players):
    """The value of every legal card of the seat of ``view`` under the ``pimc`` player,
    over the worlds it samples as :func:`pimc_card` does: per card the takers' points
    summed over the worlds (each world's double-dummy value while the seat holds at most
    ``pimc.exact_tricks`` cards, else the heuristic playout), every card solved or played
    out in every world. Written to ``kit.analysis[VALUES_ROW, card]``, the number of
    worlds to ``kit.analysis[VALUES_WORLDS]``; returns the card with the best total for
    the seat's side (ties: the lowest). With exact values that is the card
    :func:`pimc_card` plays from the same worlds; with playouts :func:`pimc_card` plays
    out one card of each group the solver merges, so between such cards they may
    differ."""
    seat = view.seat
    cx = kit.context
    use_context(cx, rules, view.trump, view.taker)
    out = kit.analysis
    out[VALUES_ROW, :32] = 0
    out[VALUES_WORLDS] = 0
    sampled = _sampled_worlds(rules, pimc, hands, view, rng, kit, players)
    if sampled.shape[0] == 0:
        return ctz(legal)
    exact = popcount(hands[seat]) <= pimc.exact_tricks
    gen = cx[dd.CX_GEN] + 1
    out_hands = np.zeros(4, dtype=np.int64)
    out_trick = np.zeros(4, dtype=np.int64)
    for w in range(sampled.shape[0]):
        m = legal
        while m != 0:
            c = ctz(m)
            m &= m - 1
            if exact:
                out[VALUES_ROW, c] += _world_value(rules, kit, sampled[w], gen + w, view, c,
                                                   0, 0)
            else:
                out[VALUES_ROW, c] += _played_out(rules, sampled[w], view, c, out_hands,
                                                  out_trick)
    cx[dd.CX_GEN] = gen + sampled.shape[0]
    out[VALUES_WORLDS] = sampled.shape[0]
    return _best_for_side(out[VALUES_ROW], legal, cx[dd.CX_TAKERS + seat] == 1)


@jit(inline="always")
def _played_out(rules, world, view, c, out_hands, out_trick):
    """The takers' points when the seat of ``view`` plays ``c`` in ``world`` (the hands
    of one sampled deal) and every seat then plays the heuristic card; ``out_hands`` and
    ``out_trick`` are scratch."""
    out_hands[:] = world
    out_hands[view.seat] ^= 1 << c
    out_trick[:] = view.trick
    out_trick[view.k] = c
    return heuristic_playout(rules, out_hands, view_after(view, out_trick, c))


@jit(inline="always")
def _world_value(rules, kit, world, gen, view, c, alpha, beta):
    """:func:`dd.dd_card_value` of ``c`` at ``view``'s position in ``world`` (the hands
    of one sampled deal), exact when ``alpha >= beta``, with the table's generation
    ``gen``. Each world has its own generation: the solves of one world share their
    entries, and those of the other worlds count as stale, free to replace (a decision
    comes back to each world for each card)."""
    kit.context[dd.CX_GEN] = gen
    position = dd.Position(world, view.trick, view.k, view.leader, view.cap)
    return dd.dd_card_value(kit_solver(rules, kit), position, c, alpha, beta, 0)


@jit(inline="always")
def _beaten(bound, best_total, sign, loses_ties):
    """Whether a card whose total is at best ``bound`` (for the side of ``sign``: 1 the
    takers, -1 the defenders) cannot beat the reference's ``best_total``."""
    return sign * bound < sign * best_total or (bound == best_total and loses_ties)


@jit
def _exact_choice(rules, kit, sampled, legal, moves, view, maximize):
    """The card of ``legal`` whose double-dummy values at ``view``'s position summed
    over the worlds ``sampled`` are best for the seat to move (ties: the lowest card),
    solved with ``kit``'s context, table and search scratch -- the card that
    solving every candidate of ``moves`` exactly in every world would choose, with fewer
    exact solves.

    Every candidate is solved exactly in the first world, and the best there (the
    reference) in every other world. There, right after the reference, each other
    candidate is tested with a null window (does it do at least as well here?) and,
    where it does, solved exactly in the window its test left. Each world's searches
    follow one another, so that they share its entries in the table (its own
    generation: the other worlds' entries are stale to it, free to replace). Then each
    candidate, in order of its first-world value, has its other worlds solved exactly
    one at a time, until the bounds and values show that its total cannot beat the
    reference's (it is dropped); solved everywhere, it becomes the reference if its
    total is better. An equivalent card that :func:`dd.candidates` merged shares the
    total of the card kept for it, so each candidate stands for the lowest card of its
    group, and ties go to the lower group."""
    cx = kit.context
    worlds = sampled.shape[0]
    gen = cx[dd.CX_GEN] + 1  # world w's entries in the table: generation gen + w
    sign = 1 if maximize else -1
    low = np.full(32, 32, dtype=np.int64)  # the lowest card each candidate stands for
    m = moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        low[c] = c
    m = legal & ~moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        r = dd._representative(cx, c, moves)
        low[r] = min(low[r], c)
    first = np.zeros(32, dtype=np.int64)  # each candidate's value in the first world
    order = np.zeros(32, dtype=np.int64)
    n_moves = 0
    m = moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        first[c] = _world_value(rules, kit, sampled[0], gen, view, c, 0, 0)
        j = n_moves
        while j > 0 and (sign * first[c] > sign * first[order[j - 1]] or (
                first[c] == first[order[j - 1]] and low[c] < low[order[j - 1]])):
            order[j] = order[j - 1]
            j -= 1
        order[j] = c
        n_moves += 1
    # values[i, w]: order[i]'s value in world w where solved[i, w], else a bound on the
    # side where it does worse than the reference; bound[i], their sum: its total at best
    # (an upper bound for the takers, else a lower one).
    values = np.zeros((n_moves, worlds), dtype=np.int64)
    solved = np.zeros((n_moves, worlds), dtype=np.bool_)
    bound = np.zeros(n_moves, dtype=np.int64)
    for i in range(n_moves):
        values[i, 0] = first[order[i]]
        solved[i, 0] = True
        bound[i] = first[order[i]]
    ref = order[0]
    for w in range(1, worlds):
        v = _world_value(rules, kit, sampled[w], gen + w, view, ref, 0, 0)
        values[0, w] = v
        solved[0, w] = True
        bound[0] += v
        for i in range(1, n_moves):
            c = order[i]
            loses_ties = low[c] > low[ref]
            # c matters in this world when its value reaches t (takers: v >= t;
            # defenders: v < t), where it would beat or tie the reference
            t = v + (1 if loses_ties else 0) if maximize else v + (0 if loses_ties else 1)
            g = _world_value(rules, kit, sampled[w], gen + w, view, c, t - 1, t)
            if (g >= t) == maximize:
                # solved exactly in the window the test leaves (narrower: fewer nodes)
                lo, hi = (g - 1, dd.INF) if maximize else (-1, g + 1)
                g = _world_value(rules, kit, sampled[w], gen + w, view, c, lo, hi)
                solved[i, w] = True
            values[i, w] = g
            bound[i] += g
    best = 0
    best_total = bound[0]
    for i in range(1, n_moves):
        c = order[i]
        loses_ties = low[c] > low[order[best]]
        # The other worlds solved exactly one at a time, until c cannot beat the reference.
        w = 0
        while w < worlds and not _beaten(bound[i], best_total, sign, loses_ties):
            if not solved[i, w]:
                g = values[i, w]
                lo, hi = (-1, g + 1) if maximize else (g - 1, dd.INF)
                values[i, w] = _world_value(rules, kit, sampled[w], gen + w, view, c, lo, hi)
                bound[i] += values[i, w] - g
            w += 1
        if w < worlds or _beaten(bound[i], best_total, sign, loses_ties):
            continue  # it cannot beat the reference
        total = bound[i]  # every world solved
        if sign * total > sign * best_total or (total == best_total and low[c] < low[order[best]]):
            best = i
            best_total = total
    cx[dd.CX_GEN] = gen + worlds  # the next decision's first generation is new
    return low[order[best]]


@jit
def dd_card(rules, legal, hands, view, kit):
    """The ``dd`` card of the seat of ``view``: the double-dummy best card, seeing every
    hand."""
    if popcount(legal) == 1:
        return ctz(legal)
    use_context(kit.context, rules, view.trump, view.taker)
    position = dd.Position(hands.copy(), view.trick, view.k, view.leader, view.cap)
    return dd.dd_best_card(kit_solver(rules, kit), position, legal, 81)[0]


@jit_refcounted
def deal_value(rules, kit, hands, leader, trump, taker):
    """The takers' double-dummy value of a whole deal from its first lead (card points,
    last-trick bonus, the capot bonus when they take every trick), remembered in
    ``kit.outcomes[trump, taker]`` until the caller clears it (a new deal)."""
    memo = kit.outcomes
    if memo[trump, taker] < 0:
        use_context(kit.context, rules, trump, taker)
        position = dd.Position(hands.copy(), np.zeros(4, dtype=np.int64), 0, leader, 1)
        memo[trump, taker] = dd.dd_exact(kit_solver(rules, kit), position)
    return memo[trump, taker]


@jit_refcounted
def analyse_position(rules, kit, hands, view, legal):
    """Double-dummy value of ``view``'s position (takers' points still to take) for the
    analysis of a deal log; ``kit.analysis[2, c]`` gets the value after each legal card ``c``.
    The context is set at the deal's first position, so that the table serves them all.
    """
    aout = kit.analysis
    use_context(kit.context, rules, view.trump, view.taker)
    out = np.zeros(32, dtype=np.int64)
    position = dd.Position(hands, view.trick, view.k, view.leader, view.cap)
    best = dd.dd_move_values(kit_solver(rules, kit), position, legal, out)
    for c in range(32):
        aout[2, c] = out[c]
    return best
