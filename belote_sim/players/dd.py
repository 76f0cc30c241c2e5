"""Double-dummy solver: the exact card points of the takers under perfect play by all.

With every hand known, :func:`dd_search` is an alpha-beta search over the cards still
to play, from any position (mid-trick included), under the play rules of any preset
(the legal cards are those of :func:`belote_sim.kernels.legal.legal_given_top`, the
same kernel the deals use). Its value is what the takers' side still takes: the card
points of the tricks it wins, the last-trick bonus, and the capot bonus when the takers
have taken, and go on to take, every trick. Points already won add on top; they do not
change which card is best.

Speed comes from standard devices, each of which can be switched off for the reference
configuration of the tests (``OPT_*``):

- a transposition table at trick boundaries, keyed by the four hands, the leader and
  whether a takers' capot is still possible, storing lower and upper bounds (so the
  null-window searches that find an exact value share their work); its buckets hold two
  entries, the first kept for the position with more tricks to play;
- move ordering: the table's best lead first, then the last two leads that caused a
  cutoff with as many tricks left (killer moves), then cheap rules of thumb (leads: a
  card no other hand beats in its suit, then a low card to a partner holding the suit's
  best card, then a low card; followers: give points to a partner who holds the trick,
  unless an opponent still to play can beat it and our card cannot be beaten; win as
  cheaply as possible, first with a card no opponent still to play can beat; otherwise
  discard cheaply), ties by a history of cutoffs (per seat and place in the trick);
- principal variation search: in a window wider than a null window, every move after
  the first is first tested with a null window (a scout) and searched again only when
  the scout says it is better;
- equivalent cards collapsed: two cards of one hand, adjacent in rank among the cards
  still in play (the current trick included) and worth the same points, lead to the
  same outcomes, so only one is searched;
- bounds at trick boundaries: the takers cannot get less than 0 nor more than the points
  left; in a suit contract a side surely takes the points of its trumps that beat every
  trump of the other side, and a defenders' such trump rules out the capot (the capot
  flag is then cleared, so the table merges positions); the leader surely cashes the
  cards that beat every other card of their suit when nobody can ruff them (trumps, no
  trump suit, or the others' trumps drawn first by the leader's top trumps), with the
  others' cheapest cards of those suits -- and when such cards are all the leader
  holds, the leader's side takes every trick left (an exact value).

Besides, the last trick is played out directly, and with two tricks left (after the
table and the bounds) a plain depth-first search without frames, table or ordering is
cheaper than the general one.

An exact value (:func:`dd_value`) comes from a null-window search at the caller's guess,
then one principal variation search on the side of the guess it found, in the window its
fail-soft result leaves. It replaced a bisection by null-window searches, several of
which fell close to the value, where they are expensive: ``benchmarks/bench_players.py``
times both, and on its bid deals the bisection takes 1.95x the nodes. The exact value of
each card of a hand (:func:`dd_move_values`, the ``pimc`` player) comes from one
full-window principal variation search per card: on the same deals, bisection takes
2.8x the nodes (measured there too).

The search kernels allocate nothing and are compiled without Numba's reference
counting (:data:`belote_sim._jit.jit_no_refcount`): with it, each array handed to an
inlined helper cost two atomic operations (15% of the samples in a ``perf`` profile; the
change, commit 0b3160a, made the search about 10% faster at the same node count).
Per-suit lookup tables replace loops over ranks where a node needs them (the cards worth
searching, the best card of a suit).

The solver context ``cx`` (see ``CX_*``) holds what the search reads besides the hands;
``tt`` is the table of :func:`new_table`, reusable across positions and deals (entries
carry the context's generation).
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import (
    ALL_TRUMPS,
    CAPOT_BONUS,
    LAST_TRICK_BONUS,
    PLAIN_ABOVE,
    POINTS,
    TRUMP_ABOVE,
)
from belote_sim.kernels.bits import nth_bit, popcount
from belote_sim.kernels.legal import legal_given_top
from belote_sim.kernels.trick import card_power, seat_after
from belote_sim.rules import R_KING_VALUE, R_NT_VALUES, R_PLAYERS

INF = 1 << 20

# Solver options (bit flags of CX_OPTS).
OPT_TT = 1
OPT_ORDER = 2
OPT_COLLAPSE = 4
OPT_BOUNDS = 8
OPT_PVS = 16
OPT_ALL = OPT_TT | OPT_ORDER | OPT_COLLAPSE | OPT_BOUNDS | OPT_PVS

# The solver context: an int64 array.
CX_TRUMP = 0
CX_N = 1
CX_LAST_BONUS = 2
CX_GEN = 3
CX_NODES = 4
CX_OPTS = 5
CX_TAKER = 6
CX_TAKERS = 7  # 4 slots: 1 when the seat is on the takers' side
CX_PTS = 11  # 32 slots: the card points of each card under this trump
CX_PROFILE = CX_PTS + 32  # 4 slots: each suit's row of CANON
CX_SIZE = CX_PROFILE + 4

# Strongest first: the ranks of a plain suit and of a trump suit.
PLAIN_DESC = np.array([7, 3, 6, 5, 4, 2, 1, 0], dtype=np.int64)  # A T K Q J 9 8 7
TRUMP_DESC = np.array([4, 2, 7, 3, 6, 5, 1, 0], dtype=np.int64)  # J 9 A T K Q 8 7

# A table entry: the position's key (two words of canonical hands and one of leader,
# capot flag and generation) and one word packing what is known of its value (see
# _tt_pack): 32 bytes, so that a two-entry bucket fills one 64-byte cache line.
TT_K1 = 0
TT_K2 = 1
TT_META = 2
TT_VAL = 3
TT_FIELDS = 4


@jit
def new_generation(cx):
    """Make every entry of the table stale (cheaper than clearing it): for positions of
    a new deal, whose entries would only crowd out the new ones."""
    cx[CX_GEN] += 1


@jit
def new_table(bits):
    """A transposition table of ``2**bits`` entries (``bits = 0``: a 1-entry dummy)."""
    return np.zeros((1 << bits, TT_FIELDS), dtype=np.int64)


@jit
def new_context():
    """An empty solver context; fill it with :func:`set_context`."""
    return np.zeros(CX_SIZE, dtype=np.int64)


@jit
def set_context(cx, rules, trump, taker, opts):
    """Prepare ``cx`` for deals played in ``trump`` with ``taker`` (a seat) and start a
    new generation of the table (older entries no longer match)."""
    n = rules[R_PLAYERS]
    k10 = 1 if rules[R_KING_VALUE] == 10 else 0
    ace19 = rules[R_NT_VALUES]
    cx[CX_TRUMP] = trump
    cx[CX_N] = n
    cx[CX_LAST_BONUS] = LAST_TRICK_BONUS[ace19, trump]
    cx[CX_GEN] += 1
    cx[CX_OPTS] = opts
    cx[CX_TAKER] = taker
    for s in range(4):
        if n == 4:
            cx[CX_TAKERS + s] = 1 if (s & 1) == (taker & 1) else 0
        else:
            cx[CX_TAKERS + s] = 1 if s == taker else 0
    for c in range(32):
        cx[CX_PTS + c] = POINTS[k10, ace19, trump, c]
    for suit in range(4):
        desc = TRUMP_DESC if _is_trump_suit(suit, trump) else PLAIN_DESC
        signature = 0
        for i in range(7):
            if cx[CX_PTS + 8 * suit + desc[i]] == cx[CX_PTS + 8 * suit + desc[i + 1]]:
                signature |= 1 << i
        cx[CX_PROFILE + suit] = _profile(signature, desc[0] == TRUMP_DESC[0])


@jit(inline="always")
def _is_trump_suit(suit, trump):
    return trump == ALL_TRUMPS or suit == trump


def _positions(desc: np.ndarray) -> np.ndarray:
    out = np.zeros(8, dtype=np.int64)
    for i, r in enumerate(desc):
        out[r] = i
    return out


PLAIN_POS = _positions(PLAIN_DESC)  # rank -> place in PLAIN_DESC (0 = strongest)
TRUMP_POS = _positions(TRUMP_DESC)


def _above_top(desc: np.ndarray, above: np.ndarray) -> np.ndarray:
    """``table[ranks]``: the ranks above every rank of ``ranks`` in the order ``desc``
    (all eight when ``ranks`` is empty)."""
    out = np.full(256, 0xFF, dtype=np.int64)
    for m in range(1, 256):
        top = next(int(r) for r in desc if m >> int(r) & 1)
        out[m] = above[top]
    return out


ABOVE_TOP = _above_top(TRUMP_DESC, TRUMP_ABOVE)  # in trump order
ABOVE_TOP_PLAIN = _above_top(PLAIN_DESC, PLAIN_ABOVE)


def _top_rank(desc: np.ndarray) -> np.ndarray:
    """``table[ranks]``: the strongest rank of ``ranks`` (non-empty) in the order ``desc``."""
    out = np.zeros(256, dtype=np.int64)
    for m in range(1, 256):
        out[m] = next(int(r) for r in desc if m >> int(r) & 1)
    return out


TOP_RANK = _top_rank(TRUMP_DESC)  # in trump order
TOP_RANK_PLAIN = _top_rank(PLAIN_DESC)


# ---------------------------------------------------------------------------------------
# Canonical hands for the transposition table.
#
# Within a suit, cards that are adjacent in rank among the cards still in play and worth
# the same points are interchangeable (the plain 9-8-7, the trump 8-7, and with
# ``king_value = 10`` the ten and king). A position where the 9 of a plain suit has gone
# and one where the 7 has gone are then the same position: the canonical form moves the
# remaining cards of each such group to the top ranks of the group, keeping their order
# and holders. Positions with the same canonical hands have the same value.

def _groups(desc: np.ndarray, signature: int) -> list[list[int]]:
    groups = [[int(desc[0])]]
    for i in range(7):
        if signature >> i & 1:
            groups[-1].append(int(desc[i + 1]))
        else:
            groups.append([int(desc[i + 1])])
    return groups


def _canon_table(desc: np.ndarray, signature: int) -> np.ndarray:
    """``table[R, bits]``: the canonical form of the suit's cards ``bits`` (rank mask)
    among the cards still in play ``R``."""
    table = np.zeros((256, 256), dtype=np.uint8)
    values = np.arange(256)
    for remaining in range(256):
        target = list(range(8))
        for group in _groups(desc, signature):
            present = [r for r in group if remaining >> r & 1]
            for r, t in zip(present, group, strict=False):
                target[r] = t
        out = np.zeros(256, dtype=np.int64)
        for r in range(8):
            out |= ((values >> r) & 1) << target[r]
        table[remaining] = out
    return table


def _keep_table(desc: np.ndarray, signature: int) -> np.ndarray:
    """``table[R, L]``: the cards of ``L`` (rank mask of a suit, the legal cards of one
    hand) worth searching when the suit's cards still in play are ``R``: the strongest
    of each run of cards of ``L`` adjacent in rank among ``R`` and of one group of equal
    points (:func:`candidates`). Points never increase down ``desc``, so two cards of a
    group have the same points and cards of different groups do not."""
    group = np.cumsum([0] + [0 if signature >> i & 1 else 1 for i in range(7)])
    remaining = np.arange(256)[:, None]
    legal = np.arange(256)[None, :]
    out = np.zeros((256, 256), dtype=np.int64)
    prev = np.full((256, 256), -1)  # group of the last legal card, -1 after a card in play
    for i in range(8):
        r = int(desc[i])
        is_legal = (legal >> r) & 1 == 1
        keep = is_legal & (prev != group[i])
        out |= keep.astype(np.int64) << r
        prev = np.where(is_legal, group[i], np.where((remaining >> r) & 1 == 1, -1, prev))
    return out.astype(np.uint8)


def _all_profiles() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (strength order, same-point groups) a suit can have under the point tables
    of :data:`belote_sim.cards.POINTS`, and the canonical and candidate tables of each."""
    keys = []
    tables = []
    keep = []
    for k10 in range(2):
        for ace19 in range(2):
            for trump in range(6):
                for suit in range(4):
                    is_trump = trump == ALL_TRUMPS or suit == trump
                    desc = TRUMP_DESC if is_trump else PLAIN_DESC
                    pts = [POINTS[k10, ace19, trump, 8 * suit + r] for r in desc]
                    if any(pts[i] < pts[i + 1] for i in range(7)):
                        # the canonical and candidate tables rely on this
                        raise ValueError(f"card points rise with strength: {pts}")
                    signature = sum(1 << i for i in range(7) if pts[i] == pts[i + 1])
                    key = signature | (256 if is_trump else 0)
                    if key not in keys:
                        keys.append(key)
                        tables.append(_canon_table(desc, signature))
                        keep.append(_keep_table(desc, signature))
    return np.array(keys, dtype=np.int64), np.stack(tables), np.stack(keep)


PROFILE_KEYS, CANON, KEEP = _all_profiles()


@jit
def _profile(signature, is_trump):
    key = signature | (256 if is_trump else 0)
    for i in range(PROFILE_KEYS.shape[0]):
        if PROFILE_KEYS[i] == key:
            return i
    return -1


@jit(inline="always")
def _canonical(cx, hand, in_play):
    out = 0
    for suit in range(4):
        bits = (hand >> (8 * suit)) & 0xFF
        if bits != 0:
            r = (in_play >> (8 * suit)) & 0xFF
            out |= np.int64(CANON[cx[CX_PROFILE + suit], r, bits]) << (8 * suit)
    return out


@jit(inline="always")
def _hash(k1, k2, meta, size):
    h = np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(k2) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= np.uint64(meta) * np.uint64(0x165667B19E3779F9)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(size - 1))


@jit(inline="always")
def _tt_pack(lo, hi, best, left):
    """The ``TT_VAL`` word: bounds ``lo`` and ``hi`` (clamped to -1 and 4094: values lie
    in 0..252, so this loses nothing), the best card and the tricks left."""
    return (max(lo, -1) + 1) | ((min(hi, 4094) + 1) << 16) | (best << 32) | (left << 40)


@jit(inline="always")
def _tt_victim(cx, tt, base, left):
    """The entry of the 2-entry bucket at ``base`` where a new position with ``left``
    tricks to play goes: the first one, whose entry moves to the second, unless it holds
    a position of this generation with more tricks to play (more work to redo)."""
    if base + 1 >= tt.shape[0]:
        return base
    if tt[base, TT_META] >> 3 == cx[CX_GEN] and (tt[base, TT_VAL] >> 40) & 0xFF > left:
        return base + 1
    for i in range(TT_FIELDS):
        tt[base + 1, i] = tt[base, i]
    return base


@jit_no_refcount
def candidates(cx, legal, in_play):
    """The legal cards worth searching: one card of each run of equivalent cards (same
    hand, adjacent in rank among ``in_play`` -- the cards of every hand and of the
    current trick -- and worth the same points). Without ``OPT_COLLAPSE``: ``legal``."""
    if cx[CX_OPTS] & OPT_COLLAPSE == 0:
        return legal
    out = 0
    for suit in range(4):
        bits = (legal >> (8 * suit)) & 0xFF
        if bits != 0:
            r = (in_play >> (8 * suit)) & 0xFF
            out |= np.int64(KEEP[cx[CX_PROFILE + suit], r, bits]) << (8 * suit)
    return out


@jit
def _representative(cx, c, moves):
    """The searched card standing for ``c``: the nearest card of ``moves`` above it in
    its suit (the cards between are of the same hand, equivalent, and not searched)."""
    suit = c >> 3
    if _is_trump_suit(suit, cx[CX_TRUMP]):
        desc = TRUMP_DESC
        pos = TRUMP_POS[c & 7]
    else:
        desc = PLAIN_DESC
        pos = PLAIN_POS[c & 7]
    for i in range(pos, -1, -1):
        d = 8 * suit + desc[i]
        if (moves >> d) & 1:
            return d
    return c


@jit(inline="always")
def _opponents_reach(cx, hands, leader, k, n, seat, led, trump):
    """The highest power (:func:`card_power`) the opponents of ``seat`` who play after
    it in the trick can reach with a card they may play: their best card of the suit
    led, or their best trump when they have none (-1: none can)."""
    reach = -1
    for i in range(k + 1, n):
        s = seat_after(leader, i, n)
        if cx[CX_TAKERS + s] == cx[CX_TAKERS + seat]:
            continue
        suit = led
        bits = (hands[s] >> (8 * led)) & 0xFF
        if bits == 0 and trump < ALL_TRUMPS:
            suit = trump
            bits = (hands[s] >> (8 * trump)) & 0xFF
        if bits != 0:
            top = TOP_RANK[bits] if _is_trump_suit(suit, trump) else TOP_RANK_PLAIN[bits]
            reach = max(reach, card_power(8 * suit + top, led, trump))
    return reach


@jit(inline="always")
def _order_score(cx, hist, seat, c, k, led, w_power, partner_wins, trump, reach):
    """Higher first: a cheap guess at the best card (only the search order depends on
    it); ``reach`` is what the opponents still to play can beat (see
    :func:`_opponents_reach`). When a partner holds the trick: secure it with a card
    they cannot beat if they can beat the partner's, otherwise give points. Else: win as
    cheaply as possible with a card they cannot beat, then with one they can, otherwise
    discard cheaply. Ties (and leads) by their history of cutoffs."""
    h = hist[4 * k + seat, c]
    if k == 0:
        return h
    pts = cx[CX_PTS + c]
    power = card_power(c, led, trump)
    if partner_wins:
        if w_power <= reach < power:
            return (3 << 50) - (power << 40) + h  # secure the trick
        return (1 << 50) + (pts << 40) + h  # give points
    if power > w_power and power > reach:
        return (3 << 50) - (power << 40) + h  # win for sure, cheaply
    if power > w_power:
        return (2 << 50) - (power << 40) + h  # win for now, cheaply
    return (1 << 49) - (pts << 40) + h  # discard cheaply


@jit(inline="always")
def _lead_score(cx, hist, seat, c, others, partners, trump):
    """Order of the leads (higher first): a card no other hand can beat in its suit,
    then a low card to a partner who holds the suit's best card, then a low card; ties
    by history."""
    suit = c >> 3
    rank = c & 7
    h = hist[seat, c]
    pts = cx[CX_PTS + c]
    theirs = (others >> (8 * suit)) & 0xFF
    if _is_trump_suit(suit, trump):
        top = theirs & TRUMP_ABOVE[rank]
        best = TOP_RANK[top]  # the best card of the suit among the other hands
    else:
        top = theirs & PLAIN_ABOVE[rank]
        best = TOP_RANK_PLAIN[top]
    if top == 0:
        return (3 << 50) + (pts << 40) + h
    if (partners >> (8 * suit + best)) & 1:
        return (2 << 50) - (pts << 40) + h
    return (1 << 50) - (pts << 40) + h


@jit(inline="always")
def _mask_points(cx, m):
    pts = 0
    while m != 0:
        pts += cx[CX_PTS + nth_bit(m, 0)]
        m &= m - 1
    return pts


@jit_no_refcount
def _trump_bounds(cx, hands, n, trump):
    """Sure points at a trick boundary of a suit contract: ``(takers' lower bound,
    whether the defenders surely win a trick, defenders' sure points)``.

    A trump above every trump of the other side wins its trick for its own side (the
    trick goes to the highest trump in it, which is of that side): a side surely takes
    the points of all its such trumps."""
    shift = 8 * trump
    tk = 0
    df = 0
    for s in range(n):
        t = (hands[s] >> shift) & 0xFF
        if cx[CX_TAKERS + s]:
            tk |= t
        else:
            df |= t
    hi_t = tk & ABOVE_TOP[df]
    hi_d = df & ABOVE_TOP[tk]
    lo = _mask_points(cx, hi_t << shift) if hi_t != 0 else 0
    dpts = _mask_points(cx, hi_d << shift) if hi_d != 0 else 0
    return lo, hi_d != 0, dpts


@jit_no_refcount
def _cash_bounds(cx, hands, n, trump, leader):
    """What the leader at a trick boundary surely cashes: ``(points, tricks)``.

    A card of the leader above every card of its suit in the other hands wins the trick
    it leads when no other hand can ruff it (it is a trump, or the contract has no
    trump suit, or no other hand holds a trump -- or will, once the leader's top trumps
    have drawn them): the followers cannot beat it, so the leader wins and leads again,
    and such cards stay such as the leader plays them. The other hands follow suit to
    these leads with their cheapest cards at best.
    ``tricks`` counts them all; ``points`` leaves out the trumps of a suit contract,
    already counted by :func:`_trump_bounds`."""
    mine = hands[leader]
    others = 0
    for s in range(n):
        if s != leader:
            others |= hands[s]
    suit_contract = trump < ALL_TRUMPS
    ruff = False
    if suit_contract:
        # The leader's top trumps draw the others' trumps first when they are at least
        # as many as the longest trump holding among the other hands (each must follow).
        draw = popcount((mine >> (8 * trump)) & ABOVE_TOP[(others >> (8 * trump)) & 0xFF])
        for s in range(n):
            if s != leader and popcount((hands[s] >> (8 * trump)) & 0xFF) > draw:
                ruff = True
    pts = 0
    tricks = 0
    for suit in range(4):
        mb = (mine >> (8 * suit)) & 0xFF
        if mb == 0:
            continue
        ob = (others >> (8 * suit)) & 0xFF
        above = ABOVE_TOP[ob] if _is_trump_suit(suit, trump) else ABOVE_TOP_PLAIN[ob]
        top = mb & above
        if top == 0:
            continue
        if suit_contract and suit == trump:
            tricks += popcount(top)
        elif not ruff:
            j = popcount(top)
            tricks += j
            pts += _mask_points(cx, top << (8 * suit))
            # Each other hand follows suit to these leads with as many of its cards of
            # the suit: at least its cheapest ones.
            desc = TRUMP_DESC if _is_trump_suit(suit, trump) else PLAIN_DESC
            for s in range(n):
                if s == leader:
                    continue
                hs = (hands[s] >> (8 * suit)) & 0xFF
                if hs == 0:
                    continue
                cnt = j
                for i in range(7, -1, -1):
                    if cnt == 0:
                        break
                    if (hs >> desc[i]) & 1:
                        pts += cx[CX_PTS + 8 * suit + desc[i]]
                        cnt -= 1
    return pts, tricks


@jit(inline="always")
def _trick_end(cx, tb, left, n, leader, trump, last):
    """(winner seat, points) of the complete trick ``tb[left]``."""
    led = tb[left, 0] >> 3
    w = 0
    wp = card_power(tb[left, 0], led, trump)
    pts = cx[CX_PTS + tb[left, 0]]
    for i in range(1, n):
        p = card_power(tb[left, i], led, trump)
        pts += cx[CX_PTS + tb[left, i]]
        if p > wp:
            w = i
            wp = p
    if last:
        pts += cx[CX_LAST_BONUS]
    return seat_after(leader, w, n), pts


@jit_no_refcount
def _two_tricks(rules, cx, hands, tb, k, leader, cap, alpha, beta, fr, d):
    """Fail-soft alpha-beta when two tricks remain (``k`` cards of the first already in
    ``tb[2]``): a plain depth-first search over the at most two cards of each hand in the
    first trick, the last one being forced. Frame ``fr[d]`` is its scratch (20 slots)."""
    n = cx[CX_N]
    trump = cx[CX_TRUMP]
    taker = cx[CX_TAKER]
    m = n - k
    # Per level j (the card k + j of the trick): fr[d, j] the cards left to try,
    # fr[d, 4 + j] the best so far, fr[d, 8 + j] and fr[d, 12 + j] the window, fr[d, 16 + j] the
    # position of the card winning the trick before the card of level j.
    w = 0
    if k > 0:
        led = tb[2, 0] >> 3
        wp = card_power(tb[2, 0], led, trump)
        for i in range(1, k):
            p = card_power(tb[2, i], led, trump)
            if p > wp:
                w = i
                wp = p
    j = 0
    a = alpha
    b = beta
    mode = 0  # 0: enter level j, 1: level j's card just tried is worth v, 2: next card
    v = 0
    while True:
        if mode == 0:
            if j > 0:
                cx[CX_NODES] += 1
            if j == m:
                # Both tricks are complete once the forced last one is played.
                w1, tp = _trick_end(cx, tb, 2, n, leader, trump, False)
                led = -1
                w2 = w1
                wp = -1
                tp2 = cx[CX_LAST_BONUS]
                for i in range(n):
                    s = seat_after(w1, i, n)
                    c = nth_bit(hands[s], 0)
                    if i == 0:
                        led = c >> 3
                    p = card_power(c, led, trump)
                    tp2 += cx[CX_PTS + c]
                    if p > wp:
                        wp = p
                        w2 = s
                t1 = cx[CX_TAKERS + w1] == 1
                t2 = cx[CX_TAKERS + w2] == 1
                v = (tp if t1 else 0) + (tp2 if t2 else 0)
                if cap and t1 and t2:
                    v += CAPOT_BONUS
                j -= 1
                mode = 1
                continue
            kk = k + j
            seat = seat_after(leader, kk, n)
            if kk == 0:
                legal = hands[seat]
            else:
                legal = legal_given_top(
                    rules, hands[seat], tb[2, 0] >> 3, tb[2, w], kk, leader, trump, taker, w
                )[0]
            fr[d, j] = legal
            fr[d, 4 + j] = -INF if cx[CX_TAKERS + seat] == 1 else INF
            fr[d, 8 + j] = a
            fr[d, 12 + j] = b
            fr[d, 16 + j] = w
            mode = 2
        elif mode == 1:
            kk = k + j
            seat = seat_after(leader, kk, n)
            hands[seat] ^= 1 << tb[2, kk]
            w = fr[d, 16 + j]
            if cx[CX_TAKERS + seat] == 1:
                if v > fr[d, 4 + j]:
                    fr[d, 4 + j] = v
                    if v > fr[d, 8 + j]:
                        fr[d, 8 + j] = v
            elif v < fr[d, 4 + j]:
                fr[d, 4 + j] = v
                if v < fr[d, 12 + j]:
                    fr[d, 12 + j] = v
            mode = 2
        else:
            if fr[d, j] == 0 or fr[d, 8 + j] >= fr[d, 12 + j]:
                v = fr[d, 4 + j]
                if j == 0:
                    return v
                j -= 1
                mode = 1
                continue
            kk = k + j
            c = nth_bit(fr[d, j], 0)
            fr[d, j] &= fr[d, j] - 1
            hands[seat_after(leader, kk, n)] ^= 1 << c
            tb[2, kk] = c
            if kk > 0:
                led = tb[2, 0] >> 3
                if card_power(c, led, trump) > card_power(tb[2, w], led, trump):
                    w = kk
            a = fr[d, 8 + j]
            b = fr[d, 12 + j]
            j += 1
            mode = 0


# ---------------------------------------------------------------------------------------
# The search, written as a loop over an explicit stack of frames (Numba cannot cache
# recursive functions safely).

MAX_TRICKS = 16
MAX_DEPTH = 4 * MAX_TRICKS + 2
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
F_K1 = 15
F_K2 = 16
F_META = 17
F_OLO = 18
F_OHI = 19
F_MAX = 20
F_PTS = 21  # card points still in play (hands and current trick)
F_INPLAY = 22  # cards still in play
F_TT = 23
F_SCOUT = 24  # 1: the move being tried got a scout window; 2: re-search it
F_RW = 25  # the re-search's narrowed bound
F_SIZE = 26

M_ENTER = 0
M_NEXT = 1
M_RETURN = 2
M_CHILD = 3


@jit
def new_workspace():
    """Scratch of the search: ``(frames, moves, tricks, history, killers)``.
    ``tricks[left]`` is the trick being played when ``left`` tricks remain;
    ``killers[left]`` the last two leads that caused a cutoff with ``left`` tricks to
    play."""
    return (
        np.zeros((MAX_DEPTH, F_SIZE), dtype=np.int64),
        np.zeros((MAX_DEPTH, 16), dtype=np.int64),
        np.zeros((MAX_TRICKS + 1, 4), dtype=np.int64),
        np.zeros((16, 32), dtype=np.int64),
        np.full((MAX_TRICKS + 1, 2), -1, dtype=np.int64),
    )


@jit(inline="always")
def _solve(rules, cx, tt, ws, hands, k, leader, cap, alpha, beta):
    """:func:`_alphabeta` with its integers passed as plain int64. Numba compiles a
    separate copy of a function for every literal integer argument (``0``, ``INF``...),
    and the search is the largest kernel of the package: pinning the types keeps it to
    one compiled copy."""
    return _alphabeta(
        rules, cx, tt, ws, hands, np.int64(k), np.int64(leader), np.int64(cap),
        np.int64(alpha), np.int64(beta),
    )


@jit_no_refcount
def _alphabeta(rules, cx, tt, ws, hands, k, leader, cap, alpha, beta):
    """Fail-soft alpha-beta from the position whose current trick is already in
    ``ws[2][left]``; returns the value or a bound on the side of the window it fails.

    The frames, moves and tricks are indexed in place (``fr[d, F_K]``), never through a
    row view (``f = fr[d]``): Numba reference-counts every view it makes, and in this
    loop that took a third of the time (the change, commit 9bb2a95, made the search 1.6x
    faster at the same node count)."""
    fr, mv, tb, hist, kil = ws
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
        pts += cx[CX_PTS + nth_bit(m, 0)]
        m &= m - 1
    for i in range(k):
        in_play |= 1 << tb[left0, i]
        pts += cx[CX_PTS + tb[left0, i]]
    d = 0
    fr[d, F_K] = k
    fr[d, F_LEADER] = leader
    fr[d, F_CAP] = cap
    fr[d, F_A] = alpha
    fr[d, F_B] = beta
    fr[d, F_PTS] = pts
    fr[d, F_INPLAY] = in_play
    mode = M_ENTER
    v = 0
    while True:
        if mode == M_ENTER:
            cx[CX_NODES] += 1
            kk = fr[d, F_K]
            ld = fr[d, F_LEADER]
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
                    tb[1, i] = nth_bit(hands[seat_after(ld, i, n)], 0)
                winner, tp = _trick_end(cx, tb, 1, n, ld, trump, True)
                v = tp + (CAPOT_BONUS if cp else 0) if cx[CX_TAKERS + winner] == 1 else 0
                mode = M_RETURN
                continue
            lo_bound = 0
            hi_bound = fr[d, F_PTS] + last_bonus + (CAPOT_BONUS if cp else 0)
            if kk == 0 and (opts & OPT_BOUNDS) != 0:
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
            use_tt = kk == 0 and left > 1 and (opts & OPT_TT) != 0
            fr[d, F_TT] = use_tt
            if use_tt:
                ip = fr[d, F_INPLAY]
                h0 = _canonical(cx, hands[0], ip)
                h1 = _canonical(cx, hands[1], ip)
                h2 = _canonical(cx, hands[2], ip)
                h3 = _canonical(cx, hands[3], ip)
                k1 = h0 | (h1 << 32)
                k2 = h2 | (h3 << 32)
                meta = ld | (cp << 2) | (cx[CX_GEN] << 3)
                base = _hash(k1, k2, meta, tt.shape[0]) & ~1
                slot = -1
                for j in range(base, min(base + 2, tt.shape[0])):
                    if tt[j, TT_K1] == k1 and tt[j, TT_K2] == k2 and tt[j, TT_META] == meta:
                        slot = j
                fr[d, F_SLOT] = slot if slot >= 0 else -1 - base
                fr[d, F_K1] = k1
                fr[d, F_K2] = k2
                fr[d, F_META] = meta
                if slot >= 0:
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
                fr[d, F_BEST] = _two_tricks(rules, cx, hands, tb, kk, ld, cp, a, b, fr, d + 1)
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
                w = 0
                w_power = card_power(tb[left, 0], led, trump)
                for i in range(1, kk):
                    p = card_power(tb[left, i], led, trump)
                    if p > w_power:
                        w = i
                        w_power = p
                legal = legal_given_top(
                    rules, hands[seat], led, tb[left, w], kk, ld, trump, cx[CX_TAKER], w
                )[0]
                partner_wins = cx[CX_TAKERS + seat_after(ld, w, n)] == cx[CX_TAKERS + seat]
            moves = candidates(cx, legal, fr[d, F_INPLAY])
            reach = -1
            if kk > 0 and (opts & OPT_ORDER) != 0:
                reach = _opponents_reach(cx, hands, ld, kk, n, seat, led, trump)
            others = 0
            partners = 0
            if kk == 0:
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
                c = nth_bit(m, 0)
                m &= m - 1
                sc = 0
                if opts & OPT_ORDER:
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
                            sc = _order_score(
                                cx, hist, seat, c, kk, led, w_power, partner_wins, trump,
                                reach,
                            )
                j = n_moves
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
                        slot = _tt_victim(cx, tt, -1 - slot, fr[d, F_LEFT])
                    lo = fr[d, F_OLO]
                    hi = fr[d, F_OHI]
                    if v <= fr[d, F_A0]:
                        hi = min(hi, v)
                    elif v >= fr[d, F_B0]:
                        lo = max(lo, v)
                    else:
                        lo = v
                        hi = v
                    tt[slot, TT_K1] = fr[d, F_K1]
                    tt[slot, TT_K2] = fr[d, F_K2]
                    tt[slot, TT_META] = fr[d, F_META]
                    tt[slot, TT_VAL] = _tt_pack(lo, hi, fr[d, F_BESTC], fr[d, F_LEFT])
                mode = M_RETURN
                continue
            c = mv[d, i]
            fr[d, F_I] = i + 1
            seat = fr[d, F_SEAT]
            kk = fr[d, F_K]
            ld = fr[d, F_LEADER]
            left = fr[d, F_LEFT]
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
            if kk + 1 < n:
                fr[d, F_GAIN] = 0
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
            lead_suit = tb[left, 0] >> 3
            wi = 0
            wp = card_power(tb[left, 0], lead_suit, trump)
            tp = cx[CX_PTS + tb[left, 0]]
            played = 1 << tb[left, 0]
            for q in range(1, n):
                p = card_power(tb[left, q], lead_suit, trump)
                tp += cx[CX_PTS + tb[left, q]]
                played |= 1 << tb[left, q]
                if p > wp:
                    wi = q
                    wp = p
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
            d += 1
            mode = M_ENTER
        elif mode == M_RETURN:
            if d == 0:
                return v
            d -= 1
            v += fr[d, F_GAIN]
            mode = M_CHILD
        else:  # M_CHILD: the move just tried at depth d is worth v
            c = mv[d, fr[d, F_I] - 1]
            hands[fr[d, F_SEAT]] ^= 1 << c
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
                hist[4 * fr[d, F_K] + fr[d, F_SEAT], c] += fr[d, F_LEFT] * fr[d, F_LEFT]
                if fr[d, F_K] == 0 and kil[fr[d, F_LEFT], 0] != c:
                    # killer leads: the last two leads that caused a cutoff
                    kil[fr[d, F_LEFT], 1] = kil[fr[d, F_LEFT], 0]
                    kil[fr[d, F_LEFT], 0] = c
            mode = M_NEXT


@jit
def _load(ws, hands, trick, k, n):
    """Copy the current trick into the workspace and age the history of cutoffs;
    return the tricks left."""
    hist = ws[3]
    for i in range(hist.shape[0]):
        for c in range(32):
            hist[i, c] >>= 2
    left = 0
    for s in range(n):
        c = popcount(hands[s])
        if c > left:
            left = c
    for i in range(k):
        ws[2][left, i] = trick[i]
    return left


@jit
def _exact(rules, cx, tt, ws, hands, k, leader, cap, guess):
    """Exact value: a null-window search tests ``guess``, then a principal variation
    search finds the value on the side of ``guess`` the test gave (in the window its
    fail-soft result leaves). Without ``OPT_PVS``, further null-window searches bisect
    the interval left between the bounds found so far."""
    if cx[CX_OPTS] & OPT_TT == 0:
        return _solve(rules, cx, tt, ws, hands, k, leader, cap, -INF, INF)
    n = cx[CX_N]
    seat = seat_after(leader, k, n)
    left = popcount(hands[seat])
    pts = 0
    for s in range(n):
        m = hands[s]
        while m != 0:
            pts += cx[CX_PTS + nth_bit(m, 0)]
            m &= m - 1
    tb = ws[2]
    for i in range(k):
        pts += cx[CX_PTS + tb[left, i]]
    lo = 0
    hi = pts + cx[CX_LAST_BONUS] + (CAPOT_BONUS if cap else 0)
    b = min(max(guess, lo + 1), hi)
    if cx[CX_OPTS] & OPT_PVS != 0 and lo < hi:
        g = _solve(rules, cx, tt, ws, hands, k, leader, cap, b - 1, b)
        if g >= b:
            return _solve(rules, cx, tt, ws, hands, k, leader, cap, g - 1, hi + 1)
        return _solve(rules, cx, tt, ws, hands, k, leader, cap, lo - 1, g + 1)
    while lo < hi:
        if b <= lo:
            b = lo + 1
        elif b > hi:
            b = hi
        g = _solve(rules, cx, tt, ws, hands, k, leader, cap, b - 1, b)
        if g >= b:
            lo = g
        else:
            hi = g
        b = (lo + hi + 1) >> 1
    return lo


@jit
def dd_search(rules, cx, tt, ws, hands, trick, k, leader, cap, alpha, beta):
    """Value for the takers of a position: ``hands`` (card masks; restored on return),
    the ``k`` cards of the current ``trick`` led by ``leader``, and ``cap`` = 1 while the
    takers have taken every trick so far. Fail-soft alpha-beta: the exact value when it
    lies strictly inside ``(alpha, beta)``, otherwise a bound on that side of the window.
    """
    _load(ws, hands, trick, k, cx[CX_N])
    return _solve(rules, cx, tt, ws, hands, k, leader, cap, alpha, beta)


@jit
def dd_value(rules, cx, tt, ws, hands, trick, k, leader, cap, guess):
    """Exact value of a position (see :func:`dd_search`): a null-window search at
    ``guess``, then a principal variation search on the side it found."""
    _load(ws, hands, trick, k, cx[CX_N])
    return _exact(rules, cx, tt, ws, hands, k, leader, cap, guess)


@jit
def dd_reaches(rules, cx, tt, ws, hands, trick, k, leader, cap, target):
    """True when the takers take at least ``target`` more points under perfect play:
    one null-window search."""
    _load(ws, hands, trick, k, cx[CX_N])
    return _solve(rules, cx, tt, ws, hands, k, leader, cap, target - 1, target) >= target


@jit(inline="always")
def _root_moves(cx, hands, trick, k, leader, legal):
    """``(moves, maximize)`` at the root of a card query: the cards of ``legal`` worth
    searching (see :func:`candidates`) and whether the seat to move is a taker."""
    n = cx[CX_N]
    in_play = 0
    for s in range(n):
        in_play |= hands[s]
    for i in range(k):
        in_play |= 1 << trick[i]
    return candidates(cx, legal, in_play), cx[CX_TAKERS + seat_after(leader, k, n)] == 1


@jit
def dd_move_values(rules, cx, tt, ws, hands, trick, k, leader, cap, legal, out):
    """``out[c]``: the exact value of the position after the seat to move plays card
    ``c`` of ``legal`` (equivalent cards get the value of the one searched). Returns the
    best of these values for the seat to move."""
    moves, maximize = _root_moves(cx, hands, trick, k, leader, legal)
    best = -INF if maximize else INF
    guess = 0
    m = moves
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        v = dd_card_value(rules, cx, tt, ws, hands, trick, k, leader, cap, c, 0, 0, guess)
        out[c] = v
        guess = v
        if (maximize and v > best) or (not maximize and v < best):
            best = v
    # Equivalent cards share the value of the card searched for them.
    m = legal & ~moves
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        out[c] = out[_representative(cx, c, moves)]
    return best


@jit(inline="always")
def dd_card_value(rules, cx, tt, ws, hands, trick, k, leader, cap, c, alpha, beta, guess):
    """Value of the position after the seat to move plays ``c``: exact (from the first
    ``guess``) when ``alpha >= beta``, otherwise a fail-soft search in ``(alpha, beta)``.
    (Integers pinned to int64, see :func:`_solve`.)"""
    return _card_value(
        rules, cx, tt, ws, hands, trick, np.int64(k), np.int64(leader), np.int64(cap),
        np.int64(c), np.int64(alpha), np.int64(beta), np.int64(guess),
    )


@jit
def _card_value(rules, cx, tt, ws, hands, trick, k, leader, cap, c, alpha, beta, guess):
    """Value of the position after the seat to move plays ``c``: exact when
    ``alpha >= beta``, otherwise a fail-soft search in ``(alpha, beta)``.

    The exact value of a card comes from one full-window principal variation search;
    :func:`_exact`'s test at ``guess`` first (the previous card's value) was tried here
    and cost more nodes on bid deals (closing note of issue 5, 2026-11-30): the cards of
    a hand often differ by a few points, so the test mostly confirms what the search
    finds anyway. Without ``OPT_PVS``, from :func:`_exact`'s bisection."""
    n = cx[CX_N]
    left = _load(ws, hands, trick, k, n)
    seat = seat_after(leader, k, n)
    hands[seat] ^= 1 << c
    ws[2][left, k] = c
    exact = alpha >= beta
    bisect = exact and (cx[CX_OPTS] & OPT_PVS) == 0
    if exact:
        alpha = -1
        beta = INF
    if k + 1 < n:
        if bisect:
            v = _exact(rules, cx, tt, ws, hands, k + 1, leader, cap, guess)
        else:
            v = _solve(rules, cx, tt, ws, hands, k + 1, leader, cap, alpha, beta)
    else:
        winner, pts = _trick_end(cx, ws[2], left, n, leader, cx[CX_TRUMP], left == 1)
        takers = cx[CX_TAKERS + winner] == 1
        gain = pts if takers else 0
        ncap = cap if takers else 0
        if left == 1:
            v = gain + (CAPOT_BONUS if ncap else 0)
        elif bisect:
            v = gain + _exact(rules, cx, tt, ws, hands, 0, winner, ncap, guess - gain)
        else:
            v = gain + _solve(
                rules, cx, tt, ws, hands, 0, winner, ncap, alpha - gain, beta - gain
            )
    hands[seat] ^= 1 << c
    return v


@jit
def dd_best_card(rules, cx, tt, ws, hands, trick, k, leader, cap, legal, guess):
    """``(card, value)``: a card of ``legal`` with the best double-dummy value for the
    seat to move, and that value. The first candidate is solved exactly (first guess
    ``guess``), each other one first tested with a null window against the best so far
    and solved only when it is better."""
    moves, maximize = _root_moves(cx, hands, trick, k, leader, legal)
    best_card = -1
    best = 0
    m = moves
    while m != 0:
        c = nth_bit(m, 0)
        m &= m - 1
        if best_card < 0:
            best = dd_card_value(rules, cx, tt, ws, hands, trick, k, leader, cap, c, 0, 0, guess)
            best_card = c
            continue
        if maximize:
            t = dd_card_value(
                rules, cx, tt, ws, hands, trick, k, leader, cap, c, best, best + 1, 0
            )
            if t > best:
                best = dd_card_value(
                    rules, cx, tt, ws, hands, trick, k, leader, cap, c, 0, 0, t
                )
                best_card = c
        else:
            t = dd_card_value(
                rules, cx, tt, ws, hands, trick, k, leader, cap, c, best - 1, best, 0
            )
            if t < best:
                best = dd_card_value(
                    rules, cx, tt, ws, hands, trick, k, leader, cap, c, 0, 0, t
                )
                best_card = c
    return best_card, best
