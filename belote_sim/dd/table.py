"""The solver context and the transposition table.

The solver context ``cx`` (see ``CX_*``) holds what the search reads besides the hands:
trump, the number of players, the takers' side, each card's points, the options
(``OPT_*``: each device of the search can be switched off for the reference
configuration of the tests) and the table's generation. ``tt`` is the table of
:func:`new_table`, reusable across positions and deals (entries carry the context's
generation).

The transposition table is used at trick boundaries, keyed by the four hands, the leader
and whether a takers' capot is still possible, storing lower and upper bounds (so the
null-window searches that find an exact value share their work). An entry holds a 64-bit
check of the key rather than the key (16 bytes rather than 32), and a bucket four entries
in one cache line; a new position replaces a stale entry first, otherwise the one with
the fewest tricks to play: more positions stay in the table than with two entries of
32 bytes in a bucket, and the solves take fewer nodes. Every bit of the key reaches the
low bits of the index (:func:`_hash`): a hash that left most bits of the key out of them
would send many positions to the same buckets, where they evict each other. The
search asks for a position's bucket as soon as it has the key (:func:`prefetch_bucket`)
and computes the bounds while the line comes: the table mostly misses the processor's
caches, and the probe's wait was the search's hottest spot.
``python benchmarks/bench_solver_commits.py COMMIT`` prints the node counts of this
tree's solves beside another commit's. The hands of
the key are canonical: cards adjacent in rank among the cards still in play and worth
the same points are interchangeable (see the tables below).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from belote_sim._jit import DISABLE_JIT, PYTHON_FORMS, jit
from belote_sim.cards import ALL_TRUMPS, LAST_TRICK_BONUS, POINTS
from belote_sim.kernels.bits import nonneg
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
# What the search counts besides its nodes (the callers reset them): table probes and
# hits; beta cut-offs, and those the first move tried made (how good the ordering is).
CX_PROBES = CX_PROFILE + 4
CX_HITS = CX_PROBES + 1
CX_CUTOFFS = CX_PROBES + 2
CX_FIRST_CUTOFFS = CX_PROBES + 3
#: Every counter of the search by name (its slot in the context): a caller resets them
#: all at once, and the benchmarks print them.
SEARCH_STATS = {"nodes": CX_NODES, "probes": CX_PROBES, "hits": CX_HITS,
                "cutoffs": CX_CUTOFFS, "first_cutoffs": CX_FIRST_CUTOFFS}
CX_SIZE = max(SEARCH_STATS.values()) + 1

# Strongest first: the ranks of a plain suit and of a trump suit.
PLAIN_DESC = np.array([7, 3, 6, 5, 4, 2, 1, 0], dtype=np.int64)  # A T K Q J 9 8 7
TRUMP_DESC = np.array([4, 2, 7, 3, 6, 5, 1, 0], dtype=np.int64)  # J 9 A T K Q 8 7

# A table entry: a 64-bit check of the position's key (the canonical hands, the leader,
# the capot flag and the generation; see _check) and one word packing what is known of
# its value (see _tt_pack): 16 bytes, so that a four-entry bucket fills one 64-byte cache
# line.
TT_CHECK = 0
TT_VAL = 1
TT_FIELDS = 2
TT_BUCKET = 4


@jit
def new_generation(cx):
    """Make every entry of the table stale (cheaper than clearing it): for positions of
    a new deal, whose entries would only crowd out the new ones."""
    cx[CX_GEN] += 1


#: The size of a table for queries that each solve one deal in a new generation (the
#: Python API's, the solved outcomes of bid strength and the atlas, the benchmarks'):
#: 2^16 entries (1 MB), which the processor's caches hold, serve them faster than larger
#: tables, for a few more nodes (``benchmarks/bench_solve_table.py``). Players that
#: share a table across the worlds of a decision take a larger one.
DEAL_TABLE_BITS = 16


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
    groups = _groups(desc, signature)
    target = np.tile(np.arange(8), (256, 1))  # target[R, r]: where rank r goes
    for remaining in range(256):
        for group in groups:
            present = [r for r in group if remaining >> r & 1]
            for r, t in zip(present, group, strict=False):
                target[remaining, r] = t
    bits = np.arange(256)[None, :]
    table = np.zeros((256, 256), dtype=np.int64)
    for r in range(8):
        table |= ((bits >> r) & 1) << target[:, r : r + 1]
    return table.astype(np.uint8)


def _keep_table(desc: np.ndarray, signature: int) -> np.ndarray:
    """``table[R, L]``: the cards of ``L`` (rank mask of a suit, the legal cards of one
    hand) worth searching when the suit's cards still in play are ``R``: the strongest
    of each run of cards of ``L`` adjacent in rank among ``R`` and of one group of equal
    points (:func:`.ordering.candidates`). Points never increase down ``desc``, so two
    cards of a group have the same points and cards of different groups do not."""
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
            out |= np.int64(CANON[nonneg(cx[CX_PROFILE + suit]), r, bits]) << (8 * suit)
    return out


@jit(inline="always")
def _mix(k1, k2, meta, m1, m2, m3):
    """A key's three words folded into one by multiply and xor-shift steps; the odd
    multipliers ``m1``, ``m2``, ``m3`` choose the function (:func:`_hash` and
    :func:`_check` use unrelated ones)."""
    h = np.uint64(k1) * m1
    h ^= h >> np.uint64(32)
    h += np.uint64(k2) * m2
    h ^= h >> np.uint64(32)
    h += np.uint64(meta) * m3
    h ^= h >> np.uint64(33)
    return h


@jit(inline="always")
def _hash(k1, k2, meta, size):
    """The index of a key in a table of ``size`` entries (a power of two): every bit of
    the key reaches the low bits (a final mix as MurmurHash3's)."""
    h = _mix(k1, k2, meta, np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F),
             np.uint64(0x165667B19E3779F9))
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return nonneg(np.int64(h & np.uint64(size - 1)))


@jit(inline="always")
def _check(k1, k2, meta):
    """The ``TT_CHECK`` word of a key: a hash of it independent of :func:`_hash`'s, odd
    (an empty entry never matches). Two positions of one bucket share it with a
    probability of 2**-63 per probe."""
    h = _mix(k1, k2, meta, np.uint64(0xD6E8FEB86659FD93), np.uint64(0x9FB21C651E98DF25),
             np.uint64(0xA0761D6478BD642F))
    return np.int64(h | np.uint64(1))


@jit(inline="always")
def _tt_pack(lo, hi, best, left, gen):
    """The ``TT_VAL`` word: bounds ``lo`` and ``hi`` (clamped to -1 and 4094: values lie
    in 0..252, so this loses nothing), the best card, the tricks left and the low 16 bits
    of the generation (for :func:`_tt_victim`)."""
    return ((max(lo, -1) + 1) | ((min(hi, 4094) + 1) << 16) | (best << 32) | (left << 40)
            | ((gen & 0xFFFF) << 48))


@intrinsic
def _prefetch(typingctx, table, entry):
    """Ask the processor to fetch the cache line of ``table``'s row ``entry`` (LLVM's
    ``prefetch``, for a read), without waiting for it."""
    if not (isinstance(table, types.Array) and isinstance(entry, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        table_type = signature.args[0]
        data = context.make_array(table_type)(context, builder, args[0]).data
        offset = builder.mul(args[1], context.get_constant(types.int64, TT_FIELDS))
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
            "llvm.prefetch.p0",
        )
        # a read (0), kept in every level of cache (3), of data (1)
        builder.call(fn, [builder.bitcast(builder.gep(data, [offset]), i8p), i32(0), i32(3),
                          i32(1)])
        return context.get_dummy_value()

    return types.void(table, types.int64), codegen


def _python_prefetch_bucket(tt, base):
    """Plain Python has no cache to warm."""


if DISABLE_JIT:
    prefetch_bucket = _python_prefetch_bucket
else:

    @jit(inline="always")
    def prefetch_bucket(tt, base):
        """Start loading the bucket at entry ``base`` of the table ``tt`` into the cache:
        a probe's load misses the cache most of the time, and the work done between
        this call and the probe hides part of its wait."""
        _prefetch(tt, np.int64(base))

    PYTHON_FORMS[prefetch_bucket] = _python_prefetch_bucket


@jit(inline="always")
def _tt_victim(cx, tt, base):
    """The entry of the bucket at ``base`` where a new position goes: an empty or stale
    one (of another generation) first, otherwise the one with the fewest tricks to play
    (the least work to redo)."""
    gen = cx[CX_GEN] & 0xFFFF
    victim = base
    least = 1 << 20
    for j in range(base, min(base + TT_BUCKET, tt.shape[0])):
        e = nonneg(j)
        val = tt[e, TT_VAL]
        work = 0
        if tt[e, TT_CHECK] != 0 and (val >> 48) & 0xFFFF == gen:
            work = ((val >> 40) & 0xFF) + 1
        if work < least:
            least = work
            victim = e
    return victim
