"""The calls of the auctions, written once: which suits round 2 of the retourne bidding
may name and whether a call is legal in a round (RULES 7.1 step 3; the bidders and the
engine ask these), and the coinche bid encoding (RULES 7.4): a bid's call code from its
value and strain, and back. A bid's code is ``CALL_BID + N_STRAINS * value_index + strain``,
with ``LADDER[value_index]`` its value and ``strain`` 0..3 a suit, 4 all-trumps, 5
no-trumps. The first ``N_BID_VALUES`` values are the ladder of every rule set (80 .. 160,
then the capot at ``CAPOT_BID``); the bids 170 .. 260 that ``capot_value = 270`` opens
follow, so that the codes of the usual ladder do not depend on that option. The capot
bid's value is the rules' ``capot_value`` (:func:`contract_value`).

>>> from belote_sim.kernels.calls import bid_code, bid_value, bid_strain
>>> code = bid_code(1, 2)  # 90 hearts
>>> int(bid_value(code)), int(bid_strain(code))
(90, 2)
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.kernels.layout import (
    BID_VALUES,
    CALL_AT,
    CALL_BID,
    CALL_NT,
    CALL_PASS,
    CALL_SUIT,
    CALL_TAKE,
    HIGH_BID_VALUES,
)

#: Number of bid values of the usual ladder (the bidders' and the tables'), and of strains.
N_BID_VALUES = len(BID_VALUES)
N_STRAINS = 6
#: Every bid value a code may hold: the usual ladder, then 170 .. 260.
LADDER = BID_VALUES + HIGH_BID_VALUES
N_LADDER = len(LADDER)
#: Index of the capot bid in ``BID_VALUES``, and its value by default.
CAPOT_BID = N_BID_VALUES - 1
CAPOT_VALUE = BID_VALUES[CAPOT_BID]
_VALUES = np.array(LADDER, dtype=np.int64)


@jit(inline="always")
def round_two_suits(turned_suit, any_suit):
    """The suits round 2 may name, as a 4-bit mask: the three other than the turned
    card's ``turned_suit``, or all four with ``any_suit`` (``second_round = any``).

    >>> int(round_two_suits(2, False)), int(round_two_suits(2, True))
    (11, 15)
    """
    return 0xF if any_suit else 0xF ^ (1 << turned_suit)


@jit(inline="always")
def call_is_legal(call, rnd, retourne, any_suit):
    """Whether ``call`` may be made in round ``rnd`` of the retourne bidding (RULES 7.1):
    take in round 1, a suit of :func:`round_two_suits` in round 2, all-trumps or
    no-trumps in round 3, pass in any."""
    if call == CALL_PASS:
        return True
    if rnd == 1:
        return call == CALL_TAKE
    if rnd == 2:
        allowed = round_two_suits(retourne >> 3, any_suit)
        return CALL_SUIT <= call < CALL_SUIT + 4 and ((allowed >> (call - CALL_SUIT)) & 1) == 1
    return call in (CALL_AT, CALL_NT)


@jit(inline="always")
def bid_code(value_index, strain):
    """Call code of the bid ``BID_VALUES[value_index]`` in ``strain``."""
    return CALL_BID + N_STRAINS * value_index + strain


@jit(inline="always")
def is_bid(call):
    """Whether ``call`` is a coinche bid (not pass, coinche or a retourne call)."""
    return CALL_BID <= call < CALL_BID + N_STRAINS * N_LADDER


@jit(inline="always")
def bid_value_index(call):
    """Index in ``BID_VALUES`` of a bid's value."""
    return (call - CALL_BID) // N_STRAINS


@jit(inline="always")
def bid_strain(call):
    """Strain of a bid: 0..3 a suit, 4 all-trumps, 5 no-trumps."""
    return (call - CALL_BID) % N_STRAINS


@jit(inline="always")
def value_at(value_index):
    """The value ``LADDER[value_index]``: 80 .. 160, 250 for capot, 170 .. 260."""
    return _VALUES[value_index]


@jit(inline="always")
def bid_value(call):
    """Value of a bid with the capot worth 250: 80 .. 160, 250 for capot, 170 .. 260."""
    return _VALUES[bid_value_index(call)]


@jit(inline="always")
def contract_value(call, capot_value):
    """Value of a bid under rules whose capot bid is worth ``capot_value`` (250 or 270):
    what the bid contracts for, and how the ladder orders the bids.

    >>> int(contract_value(bid_code(CAPOT_BID, 0), 270)), int(contract_value(bid_code(10, 0), 270))
    (270, 170)
    """
    vi = bid_value_index(call)
    return capot_value if vi == CAPOT_BID else _VALUES[vi]


@jit(inline="always")
def on_ladder(call, capot_value):
    """Whether the bid ``call`` is a value of the rules' ladder: 170 .. 260 exist only
    with ``capot_value = 270``."""
    return bid_value_index(call) < N_BID_VALUES or capot_value != CAPOT_VALUE
