r"""Bidding policies for the coinche auction (RULES.md 7.4), selected by the same ids
as the retourne bidders (:mod:`belote_sim.bid.retourne`). A bidder sees only its own
eight cards and the calls so far.

* ``random`` (``param = p``, default 0.25): after a coinche, a player of the high
  bidder's side surcoinches with probability ``p/5``, else passes. Otherwise an opponent
  of the high bidder first coinches with probability ``p/5``; then, with probability
  ``p``, the player bids one or two steps above the current bid (80 or 90 when there is
  none; never above 250) in a random strain (the four suits, plus AT and NT with
  ``all_no_trumps_round``); else it passes.

* ``threshold`` (the heuristic bidder; ``param = t``, default 50): values its hand
  for each strain ``k`` with the retourne bidder's scales: ``v_k`` =
  :func:`~belote_sim.bid.retourne.hand_value` for a suit,
  :func:`~belote_sim.bid.retourne.all_trumps_value` for AT and
  :func:`~belote_sim.bid.retourne.no_trumps_value` for NT. Its **estimate** of
  what its side makes in ``k`` (card points scaled to 162, declarations and belote) is

  .. math::

     P_k = 80 + 1.3\,(v_k - t - o_k), \qquad o_k = 0 \text{ (suits)}, 7 \text{ (AT)},
     3 \text{ (NT)},

  a linear fit of the points its side makes in four deals out of five with the
  ``random`` card player (calibrated on 600,000 deals: with ``t = 50`` a suit hand
  valued 50 supports 80, and each further 7.7 points of value 10 more).
  **Support**: when its partner's last bid is in ``k`` (value ``V_p``) and it has not
  bid ``k`` itself (a raise is not raised back), the estimate becomes
  ``max(P_k, V_p + 1.3 (v_k - mu_k))``, ``mu_k`` being the average value of a hand
  (30 for a suit, 43 for AT, 31 for NT). At its turn it then calls:

  - **bid**, in the strain with the highest estimate ``E`` (the first of C D H S AT NT
    on ties; AT and NT only with ``all_no_trumps_round``), the highest value
    ``V <= E`` (80 .. 160 in steps of 10; 250 = capot only when ``E >= 250``, which
    only support of a 160 bid by a very strong hand reaches: with random card play even
    the strongest hands rarely take every trick), if ``V`` is higher than the current
    bid; else
  - **coinche** when an opponent holds the bid in strain ``k`` and its own hand is
    clearly strong there: ``1.3 (v_k - mu_k) >= 40`` (its trumps and aces take about
    that many points from the contract); else
  - **pass**;
  - after a coinche of its side's bid ``V`` in ``k``: **surcoinche** when its side's
    estimate in ``k`` reaches ``V + 30`` (here support counts even when it bid ``k``
    itself: the partner of the bidder may not have had a turn to raise), else pass.

  What it makes of the ``coinche`` preset (how many contracts are made, coinched,
  thrown in) is a run away: ``simulate(Rules.from_preset("coinche"), deals=20_000,
  seed=1, bid_policy="threshold")``; the published study tabulates it
  (``results/README.md``).

Deterministic given the seat's cards and the calls; the ``random`` policy draws from the
deal's seeded stream ``rng`` only.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit
from belote_sim.bid.retourne import all_trumps_value, hand_value, no_trumps_value
from belote_sim.kernels.calls import (
    CAPOT_BID,
    CAPOT_VALUE,
    N_STRAINS,
    bid_code,
    bid_strain,
    bid_value,
    bid_value_index,
    is_bid,
    value_at,
)
from belote_sim.kernels.layout import CALL_COINCHE, CALL_PASS, CALL_SURCOINCHE
from belote_sim.kernels.rng import rand_below, rand_float
from belote_sim.players.registry import BID_RANDOM, BID_THRESHOLD

#: ``threshold``: points of estimate per point of hand value.
SLOPE = 1.3
#: ``threshold``: extra hand value an 80 bid needs in each strain (C D H S AT NT).
STRAIN_OFFSET = np.array([0.0, 0.0, 0.0, 0.0, 7.0, 3.0])
#: ``threshold``: average value of a hand in each strain (for support and coinche).
MEAN_VALUE = np.array([30.0, 30.0, 30.0, 30.0, 43.0, 31.0])
#: ``threshold``: points its hand must take from the opponents' contract to coinche.
COINCHE_MARGIN = 40.0
#: ``threshold``: points its side's estimate must exceed a coinched bid by to surcoinche.
SURCOINCHE_MARGIN = 30.0
#: ``random``: a coinche or surcoinche is ``1/DOUBLE_SHARE`` as likely as a bid.
DOUBLE_SHARE = 5.0

#: The auction so far, as every bidder sees it: ``calls[:n_calls]`` the calls from the
#: first hand ``fh``; ``high`` the current bid (a call code, -1 none) and ``high_seat``
#: its bidder; ``coinched`` whether it has been coinched (then only the high bidder's
#: side speaks: surcoinche or pass).
Auction = namedtuple("Auction", ["calls", "n_calls", "fh", "high", "high_seat", "coinched"])


@jit
def strain_value(hand, strain):
    """The ``threshold`` bidder's value ``v_k`` of ``hand`` in ``strain`` (0..3, AT, NT)."""
    if strain < 4:
        return hand_value(hand, strain)
    if strain == 4:
        return all_trumps_value(hand)
    return no_trumps_value(hand)


@jit
def _random_call(param, seat, auction, allow_at_nt, rng):
    high, high_seat, coinched = auction.high, auction.high_seat, auction.coinched
    p = param
    if coinched:
        return CALL_SURCOINCHE if rand_float(rng) < p / DOUBLE_SHARE else CALL_PASS
    if high >= 0 and (seat & 1) != (high_seat & 1) and rand_float(rng) < p / DOUBLE_SHARE:
        return CALL_COINCHE
    if rand_float(rng) >= p:
        return CALL_PASS
    v = 0 if high < 0 else bid_value_index(high) + 1
    if v > CAPOT_BID:
        return CALL_PASS
    v = min(v + rand_below(rng, 2), CAPOT_BID)
    strain = rand_below(rng, N_STRAINS if allow_at_nt else 4)
    return bid_code(v, strain)


@jit
def _partner_last_bid(seat, calls, n_calls, fh, raise_back):
    """The last bid (call code, -1 none) of ``seat``'s partner; -1 as well, unless
    ``raise_back``, when ``seat`` has bid that strain itself (a raise is not raised
    back). Every bid comes before any coinche, so bid ``i`` was made by seat ``fh + i``."""
    partner = (seat + 2) & 3
    last = -1
    own = 0  # bit k: seat has bid strain k
    for i in range(n_calls):
        if is_bid(calls[i]):
            bidder = (fh + i) & 3
            if bidder == partner:
                last = calls[i]
            elif bidder == seat:
                own |= 1 << bid_strain(calls[i])
    if last >= 0 and not raise_back and (own >> bid_strain(last)) & 1:
        return -1
    return last


@jit
def side_estimate(param, hand, strain, partner_bid):
    """``threshold``: the side's estimate in ``strain``, with support when the partner's
    last bid ``partner_bid`` (call code, -1 none) is in that strain."""
    v = strain_value(hand, strain)
    est = 80.0 + SLOPE * (v - param - STRAIN_OFFSET[strain])
    if partner_bid >= 0 and bid_strain(partner_bid) == strain:
        v_p = float(bid_value(partner_bid))
        est = max(est, v_p + SLOPE * (v - MEAN_VALUE[strain]))
    return est


@jit
def _threshold_call(param, seat, hand, auction, allow_at_nt):
    high, high_seat, coinched = auction.high, auction.high_seat, auction.coinched
    partner_bid = _partner_last_bid(seat, auction.calls, auction.n_calls, auction.fh, coinched)
    if coinched:
        # Only the high bidder's side is asked: the high bidder (its partner's last bid
        # may support it) or the partner (whose partner's last bid is the high bid).
        strain = bid_strain(high)
        value = float(bid_value(high))
        est = side_estimate(param, hand, strain, partner_bid)
        return CALL_SURCOINCHE if est >= value + SURCOINCHE_MARGIN else CALL_PASS
    best = -1.0e9
    best_strain = 0
    for strain in range(N_STRAINS if allow_at_nt else 4):
        est = side_estimate(param, hand, strain, partner_bid)
        if est > best:
            best = est
            best_strain = strain
    if best >= CAPOT_VALUE:
        vi = CAPOT_BID
    elif best >= value_at(0):
        vi = min(int((best - value_at(0)) // 10.0), CAPOT_BID - 1)  # 80 .. 160 by tens
    else:
        vi = -1
    if vi >= 0 and (high < 0 or vi > bid_value_index(high)):
        return bid_code(vi, best_strain)
    if high >= 0 and (seat & 1) != (high_seat & 1):
        strain = bid_strain(high)
        if SLOPE * (strain_value(hand, strain) - MEAN_VALUE[strain]) >= COINCHE_MARGIN:
            return CALL_COINCHE
    return CALL_PASS


@jit
def choose_coinche_call(policy, param, seat, hand, auction, allow_at_nt, rng):
    """The call of ``seat`` holding ``hand`` (its 8 cards) at this point of the
    :class:`Auction` ``auction`` (after a coinche only surcoinche or pass is asked, of
    the bidder's side); ``allow_at_nt`` whether AT and NT bids exist. Always returns a
    legal call."""
    if policy == BID_RANDOM:
        return _random_call(param, seat, auction, allow_at_nt, rng)
    if policy == BID_THRESHOLD:
        return _threshold_call(param, seat, hand, auction, allow_at_nt)
    return CALL_PASS  # the table bidder is asked by the engine, with its lookup
