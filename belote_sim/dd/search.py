"""The search: a fail-soft alpha-beta over an explicit stack of frames, and the queries
built on it.

Besides the table (:mod:`.table`), the ordering and the collapsed cards
(:mod:`.ordering`), the bounds (:mod:`.bounds`) and the last tricks (:mod:`.endgame`),
the search uses principal variation search (``OPT_PVS``): in a window wider than a null
window, every move after the first is first tested with a null window (a scout) and
searched again only when the scout says it is better.

An exact value (:func:`dd_value`) comes from a null-window search at the caller's guess,
then one principal variation search on the side of the guess it found, in the window its
fail-soft result leaves. A bisection by null-window searches takes more nodes: several
of its searches fall close to the value, where they are expensive
(``benchmarks/bench_players.py`` times both and compares their nodes on bid deals). The
exact value of each card of a hand (:func:`dd_move_values`, for the analysis of a deal
log) comes from one principal variation search per card, the first in a full window,
the next ones in a window around the previous card's value (searched again only when
the value lies outside), which also takes fewer nodes than bisection on the same deals.

The search kernels (here and the helpers they call in the other modules) allocate
nothing and are compiled without Numba's reference counting
(:data:`belote_sim._jit.jit_no_refcount`): with it, each array handed to an inlined
helper costs two atomic operations, a visible share of a ``perf`` profile of the search.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import ALL_TRUMPS, CAPOT_BONUS
from belote_sim.dd.bounds import _cash_bounds, _trump_bounds
from belote_sim.dd.endgame import LastTwo, _trick_end, _two_tricks
from belote_sim.dd.ordering import (
    Follow,
    _lead_score,
    _opponents_reach,
    _order_score,
    _representative,
    candidates,
)
from belote_sim.dd.table import (
    CX_CUTOFFS,
    CX_FIRST_CUTOFFS,
    CX_GEN,
    CX_HITS,
    CX_LAST_BONUS,
    CX_N,
    CX_NODES,
    CX_OPTS,
    CX_PROBES,
    CX_PTS,
    CX_TAKER,
    CX_TAKERS,
    CX_TRUMP,
    INF,
    OPT_BOUNDS,
    OPT_ORDER,
    OPT_PVS,
    OPT_TT,
    PLAIN_DESC,
    TRUMP_DESC,
    TT_BUCKET,
    TT_CHECK,
    TT_VAL,
    _canonical,
    _check,
    _hash,
    _is_trump_suit,
    _tt_pack,
    _tt_victim,
    prefetch_bucket,
)
from belote_sim.kernels.bits import ctz, nonneg, popcount
from belote_sim.kernels.legal import legal_given_top, rule_values
from belote_sim.kernels.trick import card_power, seat_after, trick_winner

# ---------------------------------------------------------------------------------------
# The search, written as a loop over an explicit stack of frames. Numba 0.68 does cache a
# self-recursive kernel given an explicit signature, but each call passes every array as
# a struct of its fields, so that the call alone of a trivial recursive node costs a
# sizeable part of a whole node of this search.

MAX_TRICKS = 16
MAX_DEPTH = 4 * MAX_TRICKS + 2
DEPTH_MASK = (1 << MAX_DEPTH.bit_length()) - 1  # a no-op on depths (see _alphabeta)
F_K = 0
F_LEADER = 1
F_CAP = 2
F_A = 3  # the working window
F_B = 4
F_A0 = 5  # the window after the table narrowed it, for storing the result
F_B0 = 6
F_BEST = 7
F_BESTC = 8
F_I = 9  # next move to try
F_N = 10  # number of moves
F_SEAT = 11
F_LEFT = 12
F_GAIN = 13  # points the takers won in the trick closed on the way to the child
F_SLOT = 14
F_CHECK = 15
F_OLO = 16
F_OHI = 17
F_MAX = 18
F_PTS = 19  # card points still in play (hands and current trick)
F_INPLAY = 20  # cards still in play
F_TT = 21
F_SCOUT = 22  # 1: the move being tried got a scout window; 2: re-search it
F_RW = 23  # the re-search's narrowed bound
# The current trick before this node's card, carried from frame to frame rather than
# recomputed from its cards at every node: the place in the trick of the card winning
# it, that card's power (:func:`card_power`), the trick's points and its cards (a mask).
F_W = 24
F_WP = 25
F_TP = 26
F_TM = 27
F_SIZE = 28

M_ENTER = 0
M_NEXT = 1
M_RETURN = 2
M_CHILD = 3


#: The search's scratch, by name: the explicit stack's ``frames`` (``F_*`` fields) and
#: ``moves`` per depth; ``tricks[left]``, the trick being played when ``left`` tricks
#: remain; the ``history`` of cutoffs; ``killers[left]``, the last two leads that caused
#: a cutoff with ``left`` tricks to play.
SolverScratch = namedtuple("SolverScratch", ["frames", "moves", "tricks", "history", "killers"])
#: What every query and the search itself work with: the ``rules`` array
#: (:meth:`belote_sim.rules.Rules.to_array`), the solver ``context`` (``CX_*``,
#: :mod:`.table`), its transposition ``table`` and the search's ``scratch``
#: (:class:`SolverScratch`).
Solver = namedtuple("Solver", ["rules", "context", "table", "scratch"])
#: A position to solve: the card masks ``hands`` (changed during a query, restored on
#: return), the ``k`` cards of the current ``trick`` (card indices) led by seat
#: ``leader``, and ``cap`` = 1 while the takers have taken every trick so far.
Position = namedtuple("Position", ["hands", "trick", "k", "leader", "cap"])


@jit
def new_workspace():
    """A :class:`SolverScratch`."""
    return SolverScratch(
        np.zeros((MAX_DEPTH, F_SIZE), dtype=np.int64),
        np.zeros((MAX_DEPTH, 16), dtype=np.int64),
        np.zeros((MAX_TRICKS + 1, 4), dtype=np.int64),
        np.zeros((16, 32), dtype=np.int64),
        np.full((MAX_TRICKS + 1, 2), -1, dtype=np.int64),
    )


@jit(inline="always")
def _solve(solver, hands, k, leader, cap, alpha, beta):
    """:func:`_alphabeta` with its integers passed as plain int64. Numba compiles a
    separate copy of a function for every literal integer argument (``0``, ``INF``...),
    and the search is the largest kernel of the package: pinning the types keeps it to
    one compiled copy."""
    return _alphabeta(
        solver, hands, np.int64(k), np.int64(leader), np.int64(cap), np.int64(alpha),
        np.int64(beta),
    )


@jit_no_refcount
def _alphabeta(solver, hands, k, leader, cap, alpha, beta):
    """Fail-soft alpha-beta (with ``solver``, a :class:`Solver`) from the position whose
    current trick is already in ``solver.scratch.tricks[left]`` (its ``k`` cards, led by
    ``leader``; ``hands`` and ``cap`` as in :class:`Position`); returns the value or a
    bound on the side of the window ``(alpha, beta)`` it fails.

    The frames, moves and tricks are indexed in place (``fr[d, F_K]``), never through a
    row view (``f = fr[d]``): Numba reference-counts every view it makes, and in this
    loop that counting would cost a large share of the time."""
    rules, cx, tt, ws = solver
    fr, mv, tb, hist, kil = ws
    # The rules' options as a tuple: read from an array, they were loaded again after
    # every store to the frames (as far as the compiler knows, the arrays may overlap).
    rv = rule_values(rules)
    n = cx[CX_N]
    trump = cx[CX_TRUMP]
    opts = cx[CX_OPTS]
    last_bonus = cx[CX_LAST_BONUS]
    seat0 = seat_after(leader, k, n)
    left0 = popcount(hands[seat0])
    in_play = 0
    for s in range(n):
        in_play |= hands[s]
    pts = 0
    m = in_play
    while m != 0:
        pts += cx[CX_PTS + ctz(m)]
        m &= m - 1
    tp0 = 0
    tm0 = 0
    for i in range(k):
        tm0 |= 1 << tb[left0, i]
        pts += cx[CX_PTS + tb[left0, i]]
        tp0 += cx[CX_PTS + tb[left0, i]]
    in_play |= tm0
    w0 = 0
    wp0 = -1  # (read only inside a trick)
    if k > 0:
        w0 = trick_winner(tb[left0], k, trump)
        wp0 = card_power(tb[left0, w0], tb[left0, 0] >> 3, trump)
    d = 0
    fr[d, F_W] = w0
    fr[d, F_WP] = wp0
    fr[d, F_TP] = tp0
    fr[d, F_TM] = tm0
    fr[d, F_K] = k
    fr[d, F_LEADER] = leader
    fr[d, F_CAP] = cap
    fr[d, F_A] = alpha
    fr[d, F_B] = beta
    fr[d, F_PTS] = pts
    fr[d, F_INPLAY] = in_play
    mode = M_ENTER
    v = 0
    # Indices read from the frames pass through nonneg, and the depth through a mask:
    # Numba would otherwise wrap each access around for a negative index, a test and a
    # branch on every read. The mask bounds the depth too, so that d + 1 cannot be
    # negative either.
    while True:
        d &= DEPTH_MASK
        if mode == M_ENTER:
            cx[CX_NODES] += 1
            kk = nonneg(fr[d, F_K])
            ld = nonneg(fr[d, F_LEADER])
            cp = fr[d, F_CAP]
            a = fr[d, F_A]
            b = fr[d, F_B]
            seat = seat_after(ld, kk, n)
            left = popcount(hands[seat])
            if left == 0:
                v = CAPOT_BONUS if cp else 0
                mode = M_RETURN
                continue
            if left == 1:
                # The last trick: every card left is forced.
                for i in range(kk, n):
                    tb[1, i] = ctz(hands[seat_after(ld, i, n)])
                winner, tp = _trick_end(cx, tb, 1, n, ld, trump, True)
                v = tp + (CAPOT_BONUS if cp else 0) if cx[CX_TAKERS + winner] == 1 else 0
                mode = M_RETURN
                continue
            lo_bound = 0
            hi_bound = fr[d, F_PTS] + last_bonus + (CAPOT_BONUS if cp else 0)
            # The table's key first, and its bucket asked of memory, where it mostly
            # misses the cache: the bounds are computed meanwhile.
            use_tt = kk == 0 and left > 1 and (opts & OPT_TT) != 0
            k1 = 0
            k2 = 0
            base = 0
            cp_key = cp
            if use_tt:
                ip = fr[d, F_INPLAY]
                k1 = _canonical(cx, hands[0], ip) | (_canonical(cx, hands[1], ip) << 32)
                k2 = _canonical(cx, hands[2], ip) | (_canonical(cx, hands[3], ip) << 32)
                base = _hash(k1, k2, ld | (cp << 2) | (cx[CX_GEN] << 3), tt.shape[0]) & ~(
                    TT_BUCKET - 1)
                prefetch_bucket(tt, base)
            # (with two tricks left, the two-trick search costs less than the bounds)
            if kk == 0 and left > 2 and (opts & OPT_BOUNDS) != 0:
                sure_d = False
                def_pts = 0
                if trump < ALL_TRUMPS:
                    lo_bound, sure_d, def_pts = _trump_bounds(cx, hands, n, trump)
                cash, tricks = _cash_bounds(cx, hands, n, trump, ld)
                if tricks == left:
                    # The leader's side takes every trick left.
                    v = hi_bound if cx[CX_TAKERS + ld] == 1 else 0
                    mode = M_RETURN
                    continue
                if cx[CX_TAKERS + ld] == 1:
                    lo_bound += cash
                elif tricks > 0:
                    sure_d = True
                    def_pts += cash
                if sure_d:
                    cp = 0
                    fr[d, F_CAP] = 0
                    hi_bound = fr[d, F_PTS] + last_bonus - def_pts
            if b <= lo_bound:
                v = lo_bound
                mode = M_RETURN
                continue
            if a >= hi_bound:
                v = hi_bound
                mode = M_RETURN
                continue
            fr[d, F_SEAT] = seat
            fr[d, F_LEFT] = left
            fr[d, F_OLO] = -INF
            fr[d, F_OHI] = INF
            hint = -1
            fr[d, F_TT] = use_tt
            if use_tt:
                cx[CX_PROBES] += 1
                meta = ld | (cp << 2) | (cx[CX_GEN] << 3)
                if cp != cp_key:  # the bounds cleared the capot flag: another bucket
                    base = _hash(k1, k2, meta, tt.shape[0]) & ~(TT_BUCKET - 1)
                check = _check(k1, k2, meta)
                slot = -1
                for j in range(base, min(base + TT_BUCKET, tt.shape[0])):
                    e = nonneg(j)
                    if tt[e, TT_CHECK] == check:
                        slot = e
                fr[d, F_SLOT] = slot if slot >= 0 else -1 - base
                fr[d, F_CHECK] = check
                if slot >= 0:
                    cx[CX_HITS] += 1
                    val = tt[slot, TT_VAL]
                    lo = (val & 0xFFFF) - 1
                    hi = ((val >> 16) & 0xFFFF) - 1
                    if lo == hi or lo >= b:
                        v = lo
                        mode = M_RETURN
                        continue
                    if hi <= a:
                        v = hi
                        mode = M_RETURN
                        continue
                    if lo > a:
                        a = lo
                    if hi < b:
                        b = hi
                    fr[d, F_OLO] = lo
                    fr[d, F_OHI] = hi
                    hint = (val >> 32) & 0xFF
            fr[d, F_A] = a
            fr[d, F_B] = b
            fr[d, F_A0] = a
            fr[d, F_B0] = b
            if left == 2:
                fr[d, F_BEST] = _two_tricks(LastTwo(rv, cx, hands, tb, ld, cp), kk, a, b)
                fr[d, F_BESTC] = 0
                fr[d, F_N] = 0
                fr[d, F_I] = 0
                mode = M_NEXT
                continue
            if kk == 0:
                legal = hands[seat]
                w_power = -1
                led = -1
                partner_wins = False
            else:
                led = tb[left, 0] >> 3
                w = fr[d, F_W]
                w_power = fr[d, F_WP]
                holder = seat_after(ld, w, n)
                legal = legal_given_top(
                    rv, hands[seat], led, tb[left, w], seat, holder, trump, cx[CX_TAKER]
                )[0]
                partner_wins = cx[CX_TAKERS + holder] == cx[CX_TAKERS + seat]
            moves = candidates(cx, legal, fr[d, F_INPLAY])
            # A single card to try needs no ordering (often: following suit).
            order = (opts & OPT_ORDER) != 0 and (moves & (moves - 1)) != 0
            reach = -1
            if kk > 0 and order:
                reach = _opponents_reach(cx, hands, ld, kk, n, seat, led, trump)
            follow = Follow(seat, kk, led, w_power, partner_wins, reach)
            others = 0
            partners = 0
            if kk == 0 and order:
                for s in range(n):
                    if s != seat:
                        others |= hands[s]
                        if cx[CX_TAKERS + s] == cx[CX_TAKERS + seat]:
                            partners |= hands[s]
            maximize = cx[CX_TAKERS + seat] == 1
            fr[d, F_MAX] = maximize
            # Order the moves (insertion sort of at most 9 cards by score).
            # Scores go to the child frame, free until the first move is played.
            n_moves = 0
            m = moves
            while m != 0:
                c = ctz(m)
                m &= m - 1
                sc = 0
                if order:
                    if c == hint:
                        sc = 1 << 58
                    elif kk == 0 and c == kil[left, 0]:
                        sc = 1 << 57
                    elif kk == 0 and c == kil[left, 1]:
                        sc = 1 << 56
                    else:
                        if kk == 0:
                            sc = _lead_score(cx, hist, seat, c, others, partners, trump)
                        else:
                            sc = _order_score(cx, hist, follow, c, trump)
                j = nonneg(n_moves)
                while j > 0 and fr[d + 1, j - 1] < sc:
                    fr[d + 1, j] = fr[d + 1, j - 1]
                    mv[d, j] = mv[d, j - 1]
                    j -= 1
                fr[d + 1, j] = sc
                mv[d, j] = c
                n_moves += 1
            fr[d, F_N] = n_moves
            fr[d, F_I] = 0
            fr[d, F_SCOUT] = 0
            fr[d, F_BEST] = -INF if maximize else INF
            fr[d, F_BESTC] = mv[d, 0]
            mode = M_NEXT
        elif mode == M_NEXT:
            i = fr[d, F_I]
            if i >= fr[d, F_N] or fr[d, F_A] >= fr[d, F_B]:
                v = fr[d, F_BEST]
                if fr[d, F_TT]:
                    slot = fr[d, F_SLOT]
                    if slot < 0:
                        slot = _tt_victim(cx, tt, -1 - slot)
                    lo = fr[d, F_OLO]
                    hi = fr[d, F_OHI]
                    if v <= fr[d, F_A0]:
                        hi = min(hi, v)
                    elif v >= fr[d, F_B0]:
                        lo = max(lo, v)
                    else:
                        lo = v
                        hi = v
                    tt[slot, TT_CHECK] = fr[d, F_CHECK]
                    tt[slot, TT_VAL] = _tt_pack(
                        lo, hi, fr[d, F_BESTC], fr[d, F_LEFT], cx[CX_GEN]
                    )
                mode = M_RETURN
                continue
            c = nonneg(mv[d, nonneg(i)])
            fr[d, F_I] = i + 1
            seat = nonneg(fr[d, F_SEAT])
            kk = nonneg(fr[d, F_K])
            ld = nonneg(fr[d, F_LEADER])
            left = nonneg(fr[d, F_LEFT])
            hands[seat] ^= 1 << c
            tb[left, kk] = c
            ca = fr[d, F_A]
            cb = fr[d, F_B]
            if fr[d, F_SCOUT] == 2:
                if fr[d, F_MAX]:
                    ca = fr[d, F_RW]
                else:
                    cb = fr[d, F_RW]
                fr[d, F_SCOUT] = 0
            elif i > 0 and (opts & OPT_PVS) != 0 and cb - ca > 1:
                if fr[d, F_MAX]:
                    cb = ca + 1
                else:
                    ca = cb - 1
                fr[d, F_SCOUT] = 1
            else:
                fr[d, F_SCOUT] = 0
            # The trick with this card: its winning card's place and power, its points.
            if kk == 0:
                wi = 0
                wp = card_power(c, c >> 3, trump)
            else:
                wi = fr[d, F_W]
                wp = fr[d, F_WP]
                p = card_power(c, tb[left, 0] >> 3, trump)
                if p > wp:
                    wi = kk
                    wp = p
            tp = fr[d, F_TP] + cx[CX_PTS + c]
            if kk + 1 < n:
                fr[d, F_GAIN] = 0
                fr[d + 1, F_W] = wi
                fr[d + 1, F_WP] = wp
                fr[d + 1, F_TP] = tp
                fr[d + 1, F_TM] = fr[d, F_TM] | (1 << c)
                fr[d + 1, F_K] = kk + 1
                fr[d + 1, F_LEADER] = ld
                fr[d + 1, F_CAP] = fr[d, F_CAP]
                fr[d + 1, F_A] = ca
                fr[d + 1, F_B] = cb
                fr[d + 1, F_PTS] = fr[d, F_PTS]
                fr[d + 1, F_INPLAY] = fr[d, F_INPLAY]
                d += 1
                mode = M_ENTER
                continue
            # The trick is complete.
            played = fr[d, F_TM] | (1 << c)
            winner = seat_after(ld, wi, n)
            takers = cx[CX_TAKERS + winner] == 1
            if left == 1:
                v = tp + last_bonus + (CAPOT_BONUS if fr[d, F_CAP] else 0) if takers else 0
                mode = M_CHILD
                continue
            gain = tp if takers else 0
            fr[d, F_GAIN] = gain
            fr[d + 1, F_K] = 0
            fr[d + 1, F_LEADER] = winner
            fr[d + 1, F_CAP] = fr[d, F_CAP] if takers else 0
            fr[d + 1, F_A] = ca - gain
            fr[d + 1, F_B] = cb - gain
            fr[d + 1, F_PTS] = fr[d, F_PTS] - tp
            fr[d + 1, F_INPLAY] = fr[d, F_INPLAY] & ~played
            fr[d + 1, F_W] = 0
            fr[d + 1, F_WP] = -1
            fr[d + 1, F_TP] = 0
            fr[d + 1, F_TM] = 0
            d += 1
            mode = M_ENTER
        elif mode == M_RETURN:
            if d == 0:
                return v
            d -= 1
            v += fr[d, F_GAIN]
            mode = M_CHILD
        else:  # M_CHILD: the move just tried at depth d is worth v
            c = nonneg(mv[d, nonneg(fr[d, F_I] - 1)])
            hands[nonneg(fr[d, F_SEAT])] ^= 1 << c
            if fr[d, F_SCOUT] == 1 and fr[d, F_A] < v < fr[d, F_B]:
                # The scout says this move is better than the best so far: search it
                # again in the part of the window its result leaves.
                fr[d, F_SCOUT] = 2
                fr[d, F_RW] = v - 1 if fr[d, F_MAX] else v + 1
                fr[d, F_I] -= 1
                mode = M_NEXT
                continue
            if fr[d, F_MAX]:
                if v > fr[d, F_BEST]:
                    fr[d, F_BEST] = v
                    fr[d, F_BESTC] = c
                    if v > fr[d, F_A]:
                        fr[d, F_A] = v
            elif v < fr[d, F_BEST]:
                fr[d, F_BEST] = v
                fr[d, F_BESTC] = c
                if v < fr[d, F_B]:
                    fr[d, F_B] = v
            if fr[d, F_A] >= fr[d, F_B]:
                cx[CX_CUTOFFS] += 1
                if fr[d, F_I] == 1:
                    cx[CX_FIRST_CUTOFFS] += 1
                left = nonneg(fr[d, F_LEFT])
                hist[nonneg(4 * fr[d, F_K] + fr[d, F_SEAT]), c] += left * left
                if fr[d, F_K] == 0 and kil[left, 0] != c:
                    # killer leads: the last two leads that caused a cutoff
                    kil[left, 1] = kil[left, 0]
                    kil[left, 0] = c
            mode = M_NEXT


@jit
def _load(ws, position, n):
    """Copy the current trick of ``position`` into the workspace ``ws`` and age the
    history of cutoffs; return the tricks left."""
    hands, trick, k = position.hands, position.trick, position.k
    hist = ws.history
    for i in range(hist.shape[0]):
        for c in range(32):
            hist[i, c] >>= 2
    left = 0
    for s in range(n):
        c = popcount(hands[s])
        if c > left:
            left = c
    for i in range(k):
        ws.tricks[left, i] = trick[i]
    return left


@jit
def _exact(solver, hands, k, leader, cap, guess):
    """Exact value (see :func:`_alphabeta`): a null-window search tests ``guess``, then a
    principal variation search finds the value on the side of ``guess`` the test gave
    (in the window its fail-soft result leaves). Without ``OPT_PVS``, further
    null-window searches bisect the interval left between the bounds found so far."""
    cx = solver.context
    if cx[CX_OPTS] & OPT_TT == 0:
        return _solve(solver, hands, k, leader, cap, -INF, INF)
    n = cx[CX_N]
    seat = seat_after(leader, k, n)
    left = popcount(hands[seat])
    pts = 0
    for s in range(n):
        m = hands[s]
        while m != 0:
            pts += cx[CX_PTS + ctz(m)]
            m &= m - 1
    tb = solver.scratch.tricks
    for i in range(k):
        pts += cx[CX_PTS + tb[left, i]]
    lo = 0
    hi = pts + cx[CX_LAST_BONUS] + (CAPOT_BONUS if cap else 0)
    b = min(max(guess, lo + 1), hi)
    if cx[CX_OPTS] & OPT_PVS != 0 and lo < hi:
        g = _solve(solver, hands, k, leader, cap, b - 1, b)
        if g >= b:
            return _solve(solver, hands, k, leader, cap, g - 1, hi + 1)
        return _solve(solver, hands, k, leader, cap, lo - 1, g + 1)
    while lo < hi:
        if b <= lo:
            b = lo + 1
        elif b > hi:
            b = hi
        g = _solve(solver, hands, k, leader, cap, b - 1, b)
        if g >= b:
            lo = g
        else:
            hi = g
        b = (lo + hi + 1) >> 1
    return lo


@jit
def dd_search(solver, position, alpha, beta):
    """Value for the takers of ``position`` (a :class:`Position`), solved with
    ``solver`` (a :class:`Solver`). Fail-soft alpha-beta: the exact value when it lies
    strictly inside ``(alpha, beta)``, otherwise a bound on that side of the window."""
    _load(solver.scratch, position, solver.context[CX_N])
    hands, _, k, leader, cap = position
    return _solve(solver, hands, k, leader, cap, alpha, beta)


@jit
def dd_exact(solver, position):
    """Exact value of a position (see :func:`dd_search`) by one search in the full
    window. The way to a whole deal's value, which lies anywhere from a few points to a
    capot: a null-window test at a guess first (:func:`dd_value`) pays only when the
    guess is within a few points."""
    return dd_search(solver, position, -1, INF)


@jit
def dd_value(solver, position, guess):
    """Exact value of a position (see :func:`dd_search`): a null-window search at
    ``guess``, then a principal variation search on the side it found."""
    _load(solver.scratch, position, solver.context[CX_N])
    hands, _, k, leader, cap = position
    return _exact(solver, hands, k, leader, cap, guess)


@jit
def dd_reaches(solver, position, target):
    """True when the takers take at least ``target`` more points under perfect play
    (see :func:`dd_search`): one null-window search."""
    _load(solver.scratch, position, solver.context[CX_N])
    hands, _, k, leader, cap = position
    return _solve(solver, hands, k, leader, cap, target - 1, target) >= target


@jit(inline="always")
def _root_moves(cx, position, legal):
    """``(moves, maximize)`` at the root of a card query: the cards of ``legal`` worth
    searching (see :func:`candidates`) and whether the seat to move is a taker."""
    hands, trick, k, leader, _ = position
    n = cx[CX_N]
    in_play = 0
    for s in range(n):
        in_play |= hands[s]
    for i in range(k):
        in_play |= 1 << trick[i]
    return candidates(cx, legal, in_play), cx[CX_TAKERS + seat_after(leader, k, n)] == 1


#: Half the width of the window around the previous card's value in which
#: :func:`dd_move_values` first searches the next card.
ASPIRATION = 6


@jit
def dd_move_values(solver, position, legal, out):
    """``out[c]``: the exact value of ``position`` (see :func:`dd_search`) after the seat
    to move plays card ``c`` of ``legal`` (equivalent cards get the value of the one
    searched). Returns the best of these values for the seat to move.

    The cards are searched suit by suit, the strongest of each suit first. The first card
    is solved exactly; each next one is searched in a window of ``ASPIRATION`` points
    either side of the previous card's value (the cards of a hand are often worth a few
    points apart), and searched again on the side it failed, from the bound its
    fail-soft result gives, only when its value lies outside. On random and bid deals
    that takes fewer nodes than a full window for every card;
    a null window at the previous value first would confirm what a search finds anyway,
    and cost more. The strongest card of a suit first leaves in the table positions its
    weaker cards meet again: fewer nodes, on random and bid deals, than the cards taken
    in the order of their indices."""
    cx = solver.context
    moves, maximize = _root_moves(cx, position, legal)
    best = -INF if maximize else INF
    v = 0
    first = True
    for suit in range(4):
        if (moves >> (8 * suit)) & 0xFF == 0:
            continue
        desc = TRUMP_DESC if _is_trump_suit(suit, cx[CX_TRUMP]) else PLAIN_DESC
        for i in range(8):
            c = 8 * suit + desc[i]
            if (moves >> c) & 1 == 0:
                continue
            if first or cx[CX_OPTS] & OPT_PVS == 0:  # (without it: by bisection)
                v = dd_card_value(solver, position, c, 0, 0, v)
            else:
                a = v - ASPIRATION
                b = v + ASPIRATION
                v = dd_card_value(solver, position, c, a, b, 0)
                if v <= a:
                    v = dd_card_value(solver, position, c, -1, v + 1, 0)
                elif v >= b:
                    v = dd_card_value(solver, position, c, v - 1, INF, 0)
            first = False
            out[c] = v
            if (maximize and v > best) or (not maximize and v < best):
                best = v
    # Equivalent cards share the value of the card searched for them.
    m = legal & ~moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        out[c] = out[_representative(cx, c, moves)]
    return best


@jit(inline="always")
def dd_card_value(solver, position, c, alpha, beta, guess):
    """Value of ``position`` (see :func:`dd_search`) after the seat to move plays ``c``:
    exact (from the first ``guess``) when ``alpha >= beta``, otherwise a fail-soft search
    in ``(alpha, beta)``. (Integers pinned to int64, see :func:`_solve`.)"""
    hands, trick, k, leader, cap = position
    return _card_value(
        solver, Position(hands, trick, np.int64(k), np.int64(leader), np.int64(cap)),
        np.int64(c), np.int64(alpha), np.int64(beta), np.int64(guess),
    )


@jit
def _card_value(solver, position, c, alpha, beta, guess):
    """Value of the position after the seat to move plays ``c``: exact when
    ``alpha >= beta``, otherwise a fail-soft search in ``(alpha, beta)``.

    The exact value of a card comes from one full-window principal variation search;
    :func:`_exact`'s test at ``guess`` first (the previous card's value) would cost more
    nodes on bid deals: the cards of a hand often differ by a few points, so the test
    mostly confirms what the search finds anyway. Without ``OPT_PVS``, from
    :func:`_exact`'s bisection."""
    cx, ws = solver.context, solver.scratch
    hands, _, k, leader, cap = position
    n = cx[CX_N]
    left = _load(ws, position, n)
    seat = seat_after(leader, k, n)
    hands[seat] ^= 1 << c
    ws.tricks[left, k] = c
    exact = alpha >= beta
    bisect = exact and (cx[CX_OPTS] & OPT_PVS) == 0
    if exact:
        alpha = -1
        beta = INF
    if k + 1 < n:
        if bisect:
            v = _exact(solver, hands, k + 1, leader, cap, guess)
        else:
            v = _solve(solver, hands, k + 1, leader, cap, alpha, beta)
    else:
        winner, pts = _trick_end(cx, ws.tricks, left, n, leader, cx[CX_TRUMP], left == 1)
        takers = cx[CX_TAKERS + winner] == 1
        gain = pts if takers else 0
        ncap = cap if takers else 0
        if left == 1:
            v = gain + (CAPOT_BONUS if ncap else 0)
        elif bisect:
            v = gain + _exact(solver, hands, 0, winner, ncap, guess - gain)
        else:
            v = gain + _solve(solver, hands, 0, winner, ncap, alpha - gain, beta - gain)
    hands[seat] ^= 1 << c
    return v


@jit
def dd_best_card(solver, position, legal, guess):
    """``(card, value)``: a card of ``legal`` with the best double-dummy value for the
    seat to move at ``position`` (see :func:`dd_search`), and that value. The first
    candidate is solved exactly (first guess ``guess``), each other one first tested with
    a null window against the best so far and solved only when it is better."""
    moves, maximize = _root_moves(solver.context, position, legal)
    best_card = -1
    best = 0
    m = moves
    while m != 0:
        c = ctz(m)
        m &= m - 1
        if best_card < 0:
            best = dd_card_value(solver, position, c, 0, 0, guess)
            best_card = c
            continue
        if maximize:
            t = dd_card_value(solver, position, c, best, best + 1, 0)
            if t > best:
                best = dd_card_value(solver, position, c, 0, 0, t)
                best_card = c
        else:
            t = dd_card_value(solver, position, c, best - 1, best, 0)
            if t < best:
                best = dd_card_value(solver, position, c, 0, 0, t)
                best_card = c
    return best_card, best
