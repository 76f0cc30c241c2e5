"""Card play with the double-dummy solver: ``dd`` (sees every hand), ``pimc:N`` and
``fastpimc:N``.

``pimc:N`` (perfect-information Monte Carlo) is the strong honest player: at each
decision it samples ``N`` complete deals consistent with everything its seat knows,
solves each double-dummy (:mod:`belote_sim.players.dd`), and plays the card with the
best average value for its side. What a seat knows, kept card by card by the trick
loop in the *knowledge* array (``KNOW_*``):

- its own hand, every card played, and how many cards each player holds;
- suits a player has shown to be void: a player who does not follow the suit led is
  void in it, and one who then plays neither a trump nor is excused by the rules (no
  partner exemption, no free undertrump) is void in trumps too;
- cards known to be in a hand, until played: the retourne with the taker, and the
  cards of the declarations shown by the side that won the contest (RULES 5).

``fastpimc:N`` is ``pimc:N`` but for the value of a card in a world while the seat
holds more than :data:`EXACT_TRICKS` cards: there it is what the takers get when every
seat then plays the heuristic card (:func:`belote_sim.players.heuristic.heuristic_playout`),
not the double-dummy value. Nearly all of ``pimc``'s time goes into the first two
tricks, and the playouts play them almost as well (README, *How strong, how fast*).

Sampling is exact and never rejects: the unseen cards are dealt suit by suit with
probabilities proportional to the number of completions of the remaining hands
(:func:`_completions`), so every consistent deal is equally likely and a sample costs
a fixed amount of work. The rank inferences a player's refusal to overtrump allows
are not used.

``dd`` is a yardstick, not a fair player: it plays the double-dummy best card seeing
all hands. All three fall back to the heuristic player during the free tricks of the
stock game, whose draws from the stock the solver does not model.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.cards import ALL_TRUMPS
from belote_sim.kernels.bits import nth_bit, popcount
from belote_sim.kernels.calls import round_two_suits
from belote_sim.kernels.declarations import list_declarations
from belote_sim.kernels.layout import (
    CALL_AT,
    CALL_NT,
    CALL_PASS,
    CALL_SUIT,
    CALL_TAKE,
    DECL_HELD,
    DECL_WINNER_SEAT,
    DK_CARRE,
    RULE_FREE,
)
from belote_sim.kernels.rng import rand_below, rand_float, seed_stream
from belote_sim.kernels.scoring import TOTALS
from belote_sim.kernels.trick import seat_after
from belote_sim.players import (
    BID_DD,
    PLAY_ANALYSE,
    PLAY_SIDES,
    SOLVER_PLAYS,
    dd,
)
from belote_sim.players.heuristic import heuristic_playout
from belote_sim.rules import (
    R_DECLARATIONS,
    R_KING_VALUE,
    R_MUST_TRUMP,
    R_NT_VALUES,
    R_SECOND_ROUND,
    R_SPLIT_LONG_RUNS,
    R_UNDERTRUMP,
    SECOND_ROUND_ANY,
    UNDERTRUMP_FREE,
)

#: Knowledge array: suits each seat has shown void in (4-bit masks), cards known to be
#: in each seat's hand.
KNOW_VOID = 0
KNOW_HELD = 4
KNOW_SIZE = 8

#: Per-run statistics of the solver players (see :mod:`belote_sim.arena`).
STAT_DECISIONS = 0  # 2 slots, per side of the arena
STAT_CYCLES = 2  # 2 slots
STAT_SIZE = 4

#: Analysis of a deal log (``sv[5]``): row 0 the value of each position, row 1 the value
#: after the card played there, row 2 scratch (the value after each card, by card).
MAX_POSITIONS = 40
NO_VALUE = -1

#: ``fastpimc`` solves its worlds exactly once the seat holds at most this many cards
#: (from the third trick of a classic deal); before, it plays each world out with the
#: heuristic. The first two tricks are nearly all of ``pimc``'s time: on the same deals
#: ``fastpimc:20`` takes 1/80 of ``pimc:20``'s time per decision
#: (``benchmarks/bench_players.py``).
EXACT_TRICKS = 6
#: ``pimc``'s ``exact_tricks``: more cards than any hand holds, every world solved.
ALWAYS_EXACT = 32

TABLE_BITS = 20  # 2**20 entries, 32 MB per workspace of a solver player
ANALYSE_TABLE_BITS = 20

FACT = np.array([float(np.prod(np.arange(1, i + 1))) for i in range(33)], dtype=np.float64)


@jit
def new_solver_kit(bits):
    """What the solver players need per workspace: ``(context, table, search scratch,
    knowledge, statistics, analysis)``; ``bits = 0`` gives a 1-entry table for runs
    without solver players."""
    return (
        dd.new_context(),
        dd.new_table(bits),
        dd.new_workspace(),
        np.zeros(KNOW_SIZE, dtype=np.int64),
        np.zeros(STAT_SIZE, dtype=np.int64),
        np.full((3, MAX_POSITIONS), NO_VALUE, dtype=np.int64),
    )


@jit
def use_context(cx, rules, trump, taker):
    """Point the solver context at ``trump`` and ``taker``. The table's entries depend
    only on the rules (fixed for a workspace's life), trump and the taker, so they are
    kept, across decisions and deals, as long as these stay the same."""
    if cx[dd.CX_GEN] == 0 or cx[dd.CX_TRUMP] != trump or cx[dd.CX_TAKER] != taker:
        dd.set_context(cx, rules, trump, taker, dd.OPT_ALL)


@jit
def reset_knowledge(know):
    """Nothing known yet (a new deal)."""
    know[:] = 0


@jit(inline="always")
def learn_from_card(rules, know, seat, card, trick, k, w, trump, rule):
    """Update what everyone knows after ``seat`` played ``card`` as the ``k``-th card of
    the trick, ``w`` being the position winning the trick before it and ``rule`` the
    rule that decided the legal set."""
    know[KNOW_HELD + seat] &= ~(1 << card)
    if k == 0:
        return
    led = trick[0] >> 3
    if card >> 3 == led:
        return
    know[KNOW_VOID + seat] |= 1 << led
    if (
        rule == RULE_FREE
        and rules[R_MUST_TRUMP] != 0
        and trump < ALL_TRUMPS
        and led != trump
        and card >> 3 != trump
        and not (trick[w] >> 3 == trump and rules[R_UNDERTRUMP] == UNDERTRUMP_FREE)
    ):
        know[KNOW_VOID + seat] |= 1 << trump


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
def _sample(n_suit, allowed, need, table, unseen, holders, held, world, rng):
    """Deal one world: ``world[seat]`` = the known cards ``held`` plus the unseen cards
    drawn for that seat (holder ``h`` is seat ``holders[h]``, -1 for cards out of
    play). Exact: each suit's split is drawn with probability proportional to its
    number of completions."""
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
            r = nth_bit(m, 0)
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
    """What the sampler needs for ``seat``'s decision: ``(unseen, n_suit, allowed,
    need, holders, held, table)``. Holders 0-2 are the other seats (those that exist),
    holder 3 the cards out of play (three players, two-player games)."""
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
    return unseen, n_suit, allowed, need, holders, held, table


@jit
def pimc_card(rules, worlds, legal, hands, seat, trick, k, leader, played, trump, taker, n,
              rng, sv, cap, exact_tricks):
    """The ``pimc`` card: the best average value over ``worlds`` sampled deals
    consistent with the seat's knowledge ``sv[3]`` (ties: the lowest card). A card's
    value in a world is its double-dummy value while the seat holds at most
    ``exact_tricks`` cards, otherwise the deal played out by the heuristic in every seat
    (``fastpimc``: :data:`EXACT_TRICKS`; ``pimc``: :data:`ALWAYS_EXACT`). Cards the
    solver merges as equivalent share the value of the one it keeps, played out too:
    their double-dummy values are equal, and the heuristic's whims between them are
    not worth a playout each."""
    if popcount(legal) == 1:
        return nth_bit(legal, 0)
    cx, tt, dws, know, _, _ = sv
    use_context(cx, rules, trump, taker)
    unseen, n_suit, allowed, need, holders, held, table = prepare_worlds(
        hands, seat, played, n, know
    )
    if table[0, need[0], need[1], need[2]] <= 0.0:  # inconsistent knowledge: cannot happen
        return nth_bit(legal, 0)
    world = np.zeros(4, dtype=np.int64)
    total = np.zeros(32, dtype=np.int64)
    in_play = 0xFFFFFFFF & ~played
    for i in range(k):
        in_play |= 1 << trick[i]
    moves = dd.candidates(cx, legal, in_play)  # equivalent in every world
    exact = popcount(hands[seat]) <= exact_tricks
    out_hands = np.zeros(4, dtype=np.int64)
    out_trick = np.zeros(4, dtype=np.int64)
    for _ in range(worlds):
        world[:] = 0
        world[seat] = hands[seat]
        _sample(n_suit, allowed, need, table, unseen, holders, held, world, rng)
        if exact:
            dd.new_generation(cx)  # another world: the last one's entries would only crowd
        m = moves
        while m != 0:
            c = nth_bit(m, 0)
            m &= m - 1
            if exact:
                # exact (one full-window search: no first guess needed)
                total[c] += dd.dd_card_value(rules, cx, tt, dws, world, trick, k, leader, cap,
                                             c, 0, 0, 0)
            else:
                out_hands[:] = world
                out_hands[seat] ^= 1 << c
                out_trick[:] = trick
                out_trick[k] = c
                total[c] += heuristic_playout(rules, out_hands, out_trick, k + 1, leader,
                                              played | (1 << c), trump, taker, n, cap)
    # Cards equivalent in every world (adjacent among the unplayed cards, same points)
    # share the value of the one searched.
    m = legal & ~moves
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        total[c] = total[dd._representative(cx, c, moves)]
    maximize = cx[dd.CX_TAKERS + seat] == 1
    choice = -1
    m = legal
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        if choice < 0 or (total[c] > total[choice] if maximize else total[c] < total[choice]):
            choice = c
    return choice


@jit
def dd_card(rules, legal, hands, seat, trick, k, leader, trump, taker, sv, cap):
    """The ``dd`` card: the double-dummy best card, seeing every hand."""
    if popcount(legal) == 1:
        return nth_bit(legal, 0)
    cx, tt, dws, _, _, _ = sv
    use_context(cx, rules, trump, taker)
    return dd.dd_best_card(rules, cx, tt, dws, hands.copy(), trick, k, leader, cap, legal, 81)[0]


@jit
def solver_table_bits(bid_policy, play_policy, play_params):
    """Size of the transposition table a workspace needs for these policies."""
    if bid_policy == BID_DD:
        return TABLE_BITS
    if play_policy == PLAY_ANALYSE:
        return ANALYSE_TABLE_BITS
    if play_policy in SOLVER_PLAYS:
        return TABLE_BITS
    if play_policy == PLAY_SIDES and (
        int(play_params[0]) in SOLVER_PLAYS or int(play_params[2]) in SOLVER_PLAYS
    ):
        return TABLE_BITS
    return 0


@jit
def analyse_position(rules, sv, hands, trick, k, leader, trump, taker, cap, legal):
    """Double-dummy value of the position (takers' points still to take) for the
    analysis of a deal log; ``sv[5][2, c]`` gets the value after each legal card ``c``.
    The context is set at the deal's first position, so that the table serves them all.
    """
    cx, tt, dws, _, _, aout = sv
    use_context(cx, rules, trump, taker)
    out = np.zeros(32, dtype=np.int64)
    best = dd.dd_move_values(rules, cx, tt, dws, hands, trick, k, leader, cap, legal, out)
    for c in range(32):
        aout[2, c] = out[c]
    return best


@jit
def sample_worlds(hands, seat, played, n, know, count, seed):
    """``count`` deals (``int64[count, 4]`` hands) consistent with what ``seat`` knows,
    drawn as :func:`pimc_card` draws them; for tests and for looking at the sampler."""
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, seed, 0, 0)
    unseen, n_suit, allowed, need, holders, held, table = prepare_worlds(
        hands, seat, played, n, know
    )
    out = np.zeros((count, 4), dtype=np.int64)
    for i in range(count):
        out[i, seat] = hands[seat]
        _sample(n_suit, allowed, need, table, unseen, holders, held, out[i], rng)
    return out


@jit
def _make_target(rules, trump):
    """Card points the takers need to beat the defenders on cards alone: more than half
    of the deal's total."""
    k10 = 1 if rules[R_KING_VALUE] == 10 else 0
    return TOTALS[k10, rules[R_NT_VALUES], trump] // 2 + 1


@jit
def make_chance(rules, sv, hand, retourne, seat, fh, n, trump, samples, rng):
    """Share of ``samples`` random completions of the deal in which ``seat``, taking
    ``trump`` with ``hand`` and the retourne, reaches more than half the card points
    under double-dummy play (one null-window query each)."""
    cx, tt, dws, _, _, _ = sv
    use_context(cx, rules, trump, seat)
    target = _make_target(rules, trump)
    mine = hand | (1 << retourne)
    unseen = np.empty(32, dtype=np.int64)
    n_unseen = 0
    for c in range(32):
        if not (mine >> c) & 1:
            unseen[n_unseen] = c
            n_unseen += 1
    world = np.zeros(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    made = 0
    for _ in range(samples):
        dd.new_generation(cx)
        for i in range(n_unseen - 1, 0, -1):
            j = rand_below(rng, i + 1)
            t = unseen[i]
            unseen[i] = unseen[j]
            unseen[j] = t
        world[:] = 0
        world[seat] = mine
        pos = 0
        for _ in range(2):  # the taker's two more cards
            world[seat] |= 1 << unseen[pos]
            pos += 1
        for i in range(1, n):
            s = seat_after(seat, i, n)
            for _ in range(8):
                world[s] |= 1 << unseen[pos]
                pos += 1
        if dd.dd_reaches(rules, cx, tt, dws, world, trick, 0, fh, 1, target):
            made += 1
    return made / samples


#: Sampled completions per candidate contract of the ``dd`` bidder.
DD_BID_SAMPLES = 8


@jit
def dd_call(rules, sv, params, rnd, hand, retourne, seat, fh, n, rng):
    """The ``dd`` bidder's call in round ``rnd`` of the retourne bidding: the contract
    (round 1 the retourne's suit; round 2 the best suit it may name, the retourne's
    included with ``second_round = any``; round 3 all-trumps or no-trumps) whose chance
    of making, by :func:`make_chance` over ``DD_BID_SAMPLES`` completions, is highest,
    if it reaches ``params[0]``; else pass."""
    turned = retourne >> 3
    if rnd == 1:
        p = make_chance(rules, sv, hand, retourne, seat, fh, n, turned, DD_BID_SAMPLES, rng)
        return CALL_TAKE if p >= params[0] else CALL_PASS
    best = -1.0
    best_call = CALL_PASS
    nameable = round_two_suits(turned, rules[R_SECOND_ROUND] == SECOND_ROUND_ANY)
    for t in range(6):
        if (rnd == 2 and (t >= ALL_TRUMPS or ((nameable >> t) & 1) == 0)) or (
            rnd == 3 and t < ALL_TRUMPS
        ):
            continue
        p = make_chance(rules, sv, hand, retourne, seat, fh, n, t, DD_BID_SAMPLES, rng)
        if p > best:
            best = p
            best_call = CALL_SUIT + t if t < ALL_TRUMPS else (
                CALL_AT if t == ALL_TRUMPS else CALL_NT
            )
    return best_call if best >= params[0] else CALL_PASS


@jit
def show_declarations(rules, rec, hands, n, sides, know, decl):
    """The declarations of the side that won the contest are shown at the first trick
    (RULES 5): their cards become known to everyone."""
    w = rec[DECL_WINNER_SEAT]
    if rules[R_DECLARATIONS] == 0 or w < 0:
        return
    for s in range(n):
        if sides[s] != sides[w] or rec[DECL_HELD + s] == 0:
            continue
        nd = list_declarations(hands[s], rules[R_SPLIT_LONG_RUNS], decl)
        for i in range(nd):
            if decl[i, 0] == DK_CARRE:
                r = decl[i, 1]
                know[KNOW_HELD + s] |= (1 << r) | (1 << (r + 8)) | (1 << (r + 16)) | (1 << (r + 24))
            else:
                top = decl[i, 1]
                for j in range(decl[i, 2]):
                    know[KNOW_HELD + s] |= 1 << (top - j)
