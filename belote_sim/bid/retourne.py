"""Bidding policies for the retourne rounds (RULES.md 7.1).

* ``random``: in each turn, takes (round 1) or names a suit at random (round 2: one of
  the three other suits, or with ``second_round = any`` one of all four) with
  probability ``param`` (default 0.25).
* ``threshold``: values the hand it would hold with the retourne for each candidate
  trump suit and takes when the best value reaches ``param`` (default 50):

  ====================================  ======================================
  trump held (the retourne included)     its trump points (J 20, 9 14, A 11, 10 10,
                                         K 4, Q 3), + 10 for each trump past the second
  plain aces                             11 each
  plain tens with their ace              10 each
  king and queen of trumps (belote)      20
  ====================================  ======================================

  Round 1 values the retourne's suit only; round 2 the best of the suits it may name
  (the three others; all four with ``second_round = any``, the lowest suit on a tie).
  Round 3 (``all_no_trumps_round``) values all-trumps as the trump points of every card
  scaled to 162 (x 162/258) plus 20 per belote pair, and no-trumps as the plain points
  of every card scaled to 162 (x 162/152), and takes the better one when it reaches the
  threshold.

A dealer who may not pass (the stock game after two redeals in a row) names the suit
its hand values most among those it may name, whatever the policy.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import ACE, ALL_TRUMPS, PLAIN_POINTS, TEN, TRUMP_POINTS
from belote_sim.kernels.bits import nth_bit, popcount
from belote_sim.kernels.calls import round_two_suits
from belote_sim.kernels.declarations import belote_pairs
from belote_sim.kernels.layout import CALL_AT, CALL_NT, CALL_PASS, CALL_SUIT, CALL_TAKE
from belote_sim.kernels.rng import below_from, float_from
from belote_sim.players.registry import BID_RANDOM, BID_THRESHOLD


def _trump_points_of_bytes():
    """``TRUMP_POINTS_OF_BYTE[b]``: the trump points of the ranks of byte ``b``."""
    return np.array([sum(TRUMP_POINTS[r] for r in range(8) if b >> r & 1) for b in range(256)],
                    dtype=np.int64)


TRUMP_POINTS_OF_BYTE = _trump_points_of_bytes()
_ACES = sum(1 << (8 * suit + ACE) for suit in range(4))


@jit
def hand_value(hand, trump):
    """The ``threshold`` bidder's value of ``hand`` (with the retourne) for ``trump``.

    >>> int(hand_value(0b11111100 << 8 | 0x88, 1))  # 9 T J Q K A of trumps, A T aside
    143
    """
    trumps = (hand >> (8 * trump)) & 0xFF
    value = TRUMP_POINTS_OF_BYTE[trumps] + 10 * max(popcount(trumps) - 2, 0)
    plain = hand & ~(0xFF << (8 * trump))
    aces = plain & _ACES
    tens_with_ace = plain & (aces >> (ACE - TEN))  # each ten whose ace is held
    value += 11 * popcount(aces) + 10 * popcount(tens_with_ace)
    return value + 20 * belote_pairs(hand, trump)


@jit
def all_trumps_value(hand):
    """Round 3 value of ``hand`` in all-trumps, on the 162 scale."""
    value = 0
    for card in range(32):
        if hand >> card & 1:
            value += TRUMP_POINTS[card & 7]
    return value * 162 // 258 + 20 * belote_pairs(hand, ALL_TRUMPS)


@jit
def no_trumps_value(hand):
    """Round 3 value of ``hand`` in no-trumps, on the 162 scale."""
    value = 0
    for card in range(32):
        if hand >> card & 1:
            value += PLAIN_POINTS[card & 7]
    return value * 162 // 152


@jit
def _best_suit(hand, turned, any_suit):
    """The round 2 suit ``hand`` values most among :func:`round_two_suits` (the turned
    card's suit ``turned`` only with ``any_suit``); the lowest suit on a tie."""
    allowed = round_two_suits(turned, any_suit)
    best_suit = -1
    best = -1
    for suit in range(4):
        if (allowed >> suit) & 1:
            v = hand_value(hand, suit)
            if v > best:
                best = v
                best_suit = suit
    return best_suit, best


@jit
def forced_call(hand, retourne, any_suit):
    """The call of a dealer who may not pass (the stock game's round 2 after two redeals,
    RULES 7.2), whatever its policy: the suit its hand values most."""
    return CALL_SUIT + _best_suit(hand | (1 << retourne), retourne >> 3, any_suit)[0]


@jit_no_refcount(inline="always")
def choose_call(policy, param, rnd, hand, retourne, any_suit, rng):
    """The call of a seat holding ``hand`` in round ``rnd`` (1, 2 or 3) of the retourne
    bidding, by bidding policy ``policy`` with parameter ``param``; ``retourne`` is the
    turned card; ``any_suit`` lets round 2 name the turned card's suit too
    (``second_round = any``)."""
    call, z = call_from(policy, param, rnd, hand, retourne, any_suit, rng[0])
    rng[0] = z
    return call


@jit(inline="always")
def call_from(policy, param, rnd, hand, retourne, any_suit, z):
    """:func:`choose_call` from a stream whose state ``z`` a loop holds in a local:
    ``(call, next state)``."""
    turned = retourne >> 3
    with_retourne = hand | (1 << retourne)
    if policy == BID_RANDOM:
        take, z = float_from(z)
        if take >= param:
            return CALL_PASS, z
        if rnd == 1:
            return CALL_TAKE, z
        if rnd == 3:
            coin, z = below_from(z, 2)
            return (CALL_AT if coin == 0 else CALL_NT), z
        allowed = round_two_suits(turned, any_suit)
        i, z = below_from(z, popcount(allowed))
        return CALL_SUIT + nth_bit(allowed, i), z
    if policy == BID_THRESHOLD:
        if rnd == 1:
            return (CALL_TAKE if hand_value(with_retourne, turned) >= param else CALL_PASS), z
        if rnd == 3:
            at = all_trumps_value(with_retourne)
            nt = no_trumps_value(with_retourne)
            if max(at, nt) < param:
                return CALL_PASS, z
            return (CALL_AT if at >= nt else CALL_NT), z
        best_suit, best = _best_suit(with_retourne, turned, any_suit)
        return (CALL_SUIT + best_suit if best >= param else CALL_PASS), z
    return CALL_PASS, z
