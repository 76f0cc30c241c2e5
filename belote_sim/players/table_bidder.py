"""The ``table`` bidder: the call with the best gain over passing in the bid atlas.

The bid atlas (:mod:`belote_sim.studies.atlas`) measures, for every hand class, what a call
gains over passing at the same decision, paired deal by deal. The ``table`` bidder
(``param`` = the minimum gain, default 0) looks up each call it may make in the atlas
shipped with the package and makes the one with the best gain when that gain reaches
``param``; else it passes:

* retourne games: round 1 take, round 2 each suit it may name, round 3 all-trumps and
  no-trumps (``all_no_trumps_round``);
* coinche: the lowest legal bid in each strain; it never coinches nor surcoinches.

A hand's class is the atlas's (:data:`FEATURES`): round, position in the auction, the
strain (a suit, all-trumps, no-trumps), the bid value (coinche), the retourne's rank,
the seat's holding in the strain (:func:`hand_features`), its count, side aces and tens,
voids. Fine classes are rare, so the bidder reads a hierarchy (:data:`LEVELS`): a class
is looked up with every feature, then with fewer, and the first level that has it
answers. Each level's gain is shrunk towards its parent's (``PRIOR_DECISIONS``
decisions' worth of the parent), so a class seen a few times says little beyond its
parent. :func:`belote_sim.studies.atlas.bidder_lookup` builds this lookup from an atlas;
``make atlas`` writes the shipped ones (``belote_sim/data/``) from fixed seeds.

The lookups reach the kernels as arrays of the players (``table_keys`` and
``table_gains`` of :class:`~belote_sim.players.seating.Players`, from
:func:`shipped_lookup`), not as module constants: Numba would compile a constant array
into every kernel that can reach the bidder, which would make each cached kernel several
times larger and every start-up slower.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache
from pathlib import Path

import numpy as np

from belote_sim._jit import COMPILE_ALL, jit
from belote_sim.cards import ACE, ALL_TRUMPS, JACK, KING, NINE, NO_TRUMPS, QUEEN, TEN
from belote_sim.kernels.bits import popcount
from belote_sim.kernels.calls import (
    N_BID_VALUES,
    N_STRAINS,
    bid_code,
    bid_value_index,
    round_two_suits,
)
from belote_sim.kernels.layout import CALL_AT, CALL_NT, CALL_PASS, CALL_SUIT, CALL_TAKE
from belote_sim.players.seating import NOT_COMPILED, lookup_need, no_lookup

#: Holding bits of :func:`hand_features`: the strain's jack, nine, ace, ten, and belote
#: (its king and queen).
HOLD_JACK, HOLD_NINE, HOLD_ACE, HOLD_TEN, HOLD_BELOTE = 1, 2, 4, 8, 16

#: The features of a hand class, with how many values each takes. ``round``: 1..3 in
#: the retourne games, 0 in coinche; ``strain``: 0 a suit, 1 all-trumps, 2 no-trumps;
#: ``value``: the coinche bid's value index (0 in the retourne games); ``retourne``: its
#: rank + 1 (0: none); the rest as :func:`hand_features` gives them.
FEATURES = ("round", "position", "strain", "value", "retourne", "holding", "trumps",
            "side_aces", "side_tens", "voids")
RADIX = (4, 4, 3, N_BID_VALUES, 9, 32, 9, 5, 5, 4)
#: The levels of the lookup, finest first: the features each keeps.
LEVELS = (
    FEATURES,
    ("round", "position", "strain", "value", "retourne", "holding", "trumps", "side_aces"),
    ("round", "strain", "value", "holding", "trumps", "side_aces"),
    ("round", "strain", "value", "holding", "trumps"),
    ("round", "strain", "value", "trumps"),
    ("round", "strain", "value"),
)
N_FEATURES = len(FEATURES)
#: A hand class: its :data:`FEATURES` (of a decision, or of an atlas row), one integer
#: each.
HandClass = namedtuple("HandClass", FEATURES)
#: One atlas's part of a lookup: the lookup's sorted ``keys`` and their ``gains``
#: (:func:`shipped_lookup`), and ``base``, the key offset of that atlas's classes
#: (:data:`RETOURNE_BASE`, :data:`COINCHE_BASE`).
AtlasPart = namedtuple("AtlasPart", ["keys", "gains", "base"])
N_LEVELS = len(LEVELS)
#: ``KEEP[level, f]``: whether ``level`` keeps feature ``f``.
KEEP = np.array([[f in level for f in FEATURES] for level in LEVELS], dtype=np.int64)
_RADIX = np.array(RADIX, dtype=np.int64)
#: A level's gain is shrunk towards its parent's as if the parent's mean had been seen
#: this many more times.
PRIOR_DECISIONS = 30.0
#: The gain of a call no level of the lookup has: never made.
NO_GAIN = -1.0e9
#: Every key of one atlas is below this: the coinche lookup's keys are offset by it,
#: so that the two atlases make one sorted lookup.
KEY_SPAN = N_LEVELS * int(np.prod(RADIX))
#: The key offset of each atlas preset's classes in :func:`shipped_lookup`.
RETOURNE_BASE, COINCHE_BASE = 0, KEY_SPAN

#: The shipped lookups: ``belote_sim/data/bidder-<preset>.npz`` (sorted ``keys``,
#: ``gains``), per atlas preset.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
ATLAS_PRESETS = ("classic", "coinche")


def lookup_path(preset: str) -> Path:
    """Where the shipped lookup of ``preset``'s atlas lives."""
    return DATA_DIR / f"bidder-{preset}.npz"


def _load(preset: str) -> tuple[np.ndarray, np.ndarray]:
    path = lookup_path(preset)
    if not path.exists():  # before ``make atlas`` ever ran: the bidder has no table
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    with np.load(path) as data:
        return data["keys"].astype(np.int64), data["gains"].astype(np.float64)


@cache
def shipped_lookup() -> tuple[np.ndarray, np.ndarray]:
    """The shipped lookups of every atlas preset as one sorted ``(keys, gains)`` pair:
    the retourne games' (``classic``) keys as they are, coinche's offset by
    :data:`COINCHE_BASE`. The arrays every :class:`~belote_sim.players.seating.Players`
    carries (shared by every run of the process: never written).

    >>> keys, gains = shipped_lookup()
    >>> bool((keys[1:] > keys[:-1]).all()) and keys.size == gains.size
    True
    """
    parts = [(_load(preset), base) for preset, base in
             (("classic", RETOURNE_BASE), ("coinche", COINCHE_BASE))]
    keys = np.concatenate([k + base for (k, _), base in parts])
    gains = np.concatenate([g for (_, g), _ in parts])
    return keys, gains


def lookup_for(*bid_policies: int, every: bool = COMPILE_ALL,
               ) -> tuple[np.ndarray, np.ndarray] | tuple[None, None]:
    """The lookup players with these bidding policy ids need: :func:`shipped_lookup`
    when one of them is the table bidder (or ``every``, :func:`lookup_need`), else none
    (nothing is loaded, and the table bidder is not compiled into the kernels).

    >>> from belote_sim.players import BID_TABLE, BID_THRESHOLD
    >>> no_table, table = lookup_for(BID_THRESHOLD, every=False), lookup_for(BID_TABLE)
    >>> no_table, table[0].size > 0
    ((None, None), True)
    """
    if lookup_need(bid_policies, every):
        return shipped_lookup()
    return no_lookup()


@jit
def hand_features(hand, strain):
    """``(holding, trumps, side_aces, side_tens, voids)`` of ``hand`` for ``strain``
    (0..3 a suit, 4 all-trumps, 5 no-trumps): the ``HOLD_*`` bits of the strain's
    honours, its cards (all-trumps: jacks; no-trumps: aces), the aces and tens outside
    it (all-trumps and no-trumps: all of them) and the other suits it has no card in.

    >>> from belote_sim.cards import mask_of, parse_cards
    >>> hand = mask_of(parse_cards("JH 9H AS 7D 8C"))
    >>> [int(x) for x in hand_features(hand, 2)]
    [3, 2, 1, 0, 0]
    """
    holding = 0
    trumps = 0
    side_aces = 0
    side_tens = 0
    voids = 0
    for suit in range(4):
        cards = (hand >> (8 * suit)) & 0xFF
        ace = (cards >> ACE) & 1
        ten = (cards >> TEN) & 1
        if suit == strain:
            trumps = popcount(cards)
            holding = (((cards >> JACK) & 1) * HOLD_JACK | ((cards >> NINE) & 1) * HOLD_NINE
                       | ace * HOLD_ACE | ten * HOLD_TEN)
            if (cards >> KING) & 1 and (cards >> QUEEN) & 1:
                holding |= HOLD_BELOTE
            continue
        side_aces += ace
        side_tens += ten
        if cards == 0:
            voids += 1
        if strain == ALL_TRUMPS:
            trumps += (cards >> JACK) & 1
        elif strain == NO_TRUMPS:
            trumps += ace
    return holding, trumps, side_aces, side_tens, voids


@jit
def strain_kind(strain):
    """The ``strain`` feature of a strain 0..5: 0 a suit, 1 all-trumps, 2 no-trumps."""
    return 0 if strain < 4 else strain - 3


@jit
def class_key(level, cls):
    """The lookup key of the hand class ``cls`` (a :class:`HandClass`) at ``level``
    (features it does not keep count as 0): ``level`` then the features in mixed radix
    (:data:`RADIX`)."""
    key = np.int64(level)
    for f in range(N_FEATURES):
        key = key * _RADIX[f] + (cls[f] if KEEP[level, f] else 0)
    return key


@jit
def class_gain(atlas, rnd, position, strain, value, retourne, hand):
    """The gain over passing, in ``atlas`` (an :class:`AtlasPart`), of a call in
    ``strain`` (0..5) by a seat holding ``hand`` (``NO_GAIN`` when no level has its
    class). ``retourne`` is the turned card (-1: none)."""
    holding, trumps, aces, tens, voids = hand_features(hand, strain)
    turned = retourne & 7 if retourne >= 0 else -1
    cls = HandClass(rnd, position, strain_kind(strain), value, turned + 1, holding, trumps,
                    aces, tens, voids)
    keys = atlas.keys
    for level in range(N_LEVELS):
        key = atlas.base + class_key(level, cls)
        i = np.searchsorted(keys, key)
        if i < keys.size and keys[i] == key:
            return atlas.gains[i]
    return NO_GAIN


@jit
def table_call(keys, gains, min_gain, rnd, position, hand, retourne, any_suit):
    """The ``table`` bidder's call in round ``rnd`` of the retourne bidding, from
    ``position`` (0 = first hand) with ``hand`` (its five cards) and the ``retourne``;
    ``keys`` and ``gains`` are :func:`shipped_lookup`'s (``None``: not compiled in)."""
    if keys is None:
        return NOT_COMPILED
    atlas = AtlasPart(keys, gains, RETOURNE_BASE)
    turned = retourne >> 3
    best = NO_GAIN
    call = CALL_PASS
    if rnd == 1:
        best = class_gain(atlas, 1, position, turned, 0, retourne, hand)
        call = CALL_TAKE
    elif rnd == 2:
        allowed = round_two_suits(turned, any_suit)
        for suit in range(4):
            if (allowed >> suit) & 1:
                g = class_gain(atlas, 2, position, suit, 0, retourne, hand)
                if g > best:
                    best = g
                    call = CALL_SUIT + suit
    else:
        for strain, c in ((ALL_TRUMPS, CALL_AT), (NO_TRUMPS, CALL_NT)):
            g = class_gain(atlas, 3, position, strain, 0, retourne, hand)
            if g > best:
                best = g
                call = c
    return call if best >= min_gain and best > NO_GAIN else CALL_PASS


@jit
def table_coinche_call(keys, gains, min_gain, position, hand, high, coinched, allow_at_nt):
    """The ``table`` bidder's call in the coinche auction: the lowest legal bid in the
    strain whose lookup gain is best, when it reaches ``min_gain``; else pass (also
    after a coinche: it never coinches or surcoinches). ``high`` is the current bid
    (call code, -1 none); ``keys`` ``None``: not compiled in."""
    if keys is None:
        return NOT_COMPILED
    if coinched:
        return CALL_PASS
    vi = 0 if high < 0 else bid_value_index(high) + 1
    if vi >= N_BID_VALUES:
        return CALL_PASS
    atlas = AtlasPart(keys, gains, COINCHE_BASE)
    best = NO_GAIN
    best_strain = -1
    for strain in range(N_STRAINS if allow_at_nt else 4):
        g = class_gain(atlas, 0, position, strain, vi, -1, hand)
        if g > best:
            best = g
            best_strain = strain
    if best_strain < 0 or best < min_gain:
        return CALL_PASS
    return bid_code(vi, best_strain)
