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

import numpy as np

from belote_sim._jit import jit
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
from belote_sim.players.lookup import (
    COINCHE_BASE,
    N_LEVELS,
    NO_GAIN,
    RETOURNE_BASE,
    AtlasPart,
    HandClass,
    class_key,
)
from belote_sim.players.seating import NOT_COMPILED

#: Holding bits of :func:`hand_features`: the strain's jack, nine, ace, ten, and belote
#: (its king and queen).
HOLD_JACK, HOLD_NINE, HOLD_ACE, HOLD_TEN, HOLD_BELOTE = 1, 2, 4, 8, 16

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
