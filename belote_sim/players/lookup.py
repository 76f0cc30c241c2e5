"""The ``table`` bidder's lookup, which the players carry: the key of a hand class, the
lookups shipped with the package (``belote_sim/data/``, written by ``make atlas`` from
the bid atlases) and the lookup players of given policies need.

The lookups reach the kernels as arrays of the players (``table_keys`` and
``table_gains`` of :class:`~belote_sim.players.seating.Players`, from
:func:`shipped_lookup`), not as module constants: Numba would compile a constant array
into every kernel that can reach the bidder, which would make each cached kernel several
times larger and every start-up slower. The bidder that reads them is
:mod:`belote_sim.bid.table_bidder`; :func:`belote_sim.studies.atlas.bidder_lookup`
builds them from an atlas.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache
from pathlib import Path

import numpy as np

from belote_sim._jit import COMPILE_ALL, jit
from belote_sim.kernels.calls import N_BID_VALUES
from belote_sim.players.registry import BID_TABLE

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

    >>> from belote_sim.players.registry import BID_TABLE, BID_THRESHOLD
    >>> no_table, table = lookup_for(BID_THRESHOLD, every=False), lookup_for(BID_TABLE)
    >>> no_table, table[0].size > 0
    ((None, None), True)
    """
    if lookup_need(bid_policies, every):
        return shipped_lookup()
    return no_lookup()


def lookup_need(bids: tuple[int, ...], every: bool = COMPILE_ALL) -> bool:
    """Whether players with these bidding policy ids need the table bidder's lookup;
    with ``every`` (default: ``BELOTE_SIM_COMPILE_ALL=1``,
    :data:`belote_sim._jit.COMPILE_ALL`) any players do."""
    return every or BID_TABLE in bids


@jit
def no_lookup():
    """The ``table`` bidder lookup of players none of whom bids by table: none."""
    return None, None


@jit
def class_key(level, cls):
    """The lookup key of the hand class ``cls`` (a :class:`HandClass`) at ``level``
    (features it does not keep count as 0): ``level`` then the features in mixed radix
    (:data:`RADIX`)."""
    key = np.int64(level)
    for f in range(N_FEATURES):
        key = key * _RADIX[f] + (cls[f] if KEEP[level, f] else 0)
    return key
