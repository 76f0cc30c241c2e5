"""Whether a world makes the calls that were made: the auction read by the seats' own
bidders.

A world (a deal of the cards a seat cannot see) is consistent with the calls when each
call, replayed by its seat's bidding policy (:mod:`belote_sim.bid.dispatch`) with the
hand that seat holds in the world, is the call that was made (:func:`gives_calls`). The
policies are the bidders' models: what a seat believes of its neighbours is what their
bidders would do. Only the seats whose calls say something of their hands are replayed
(:func:`~belote_sim.bid.dispatch.reads_calls`).

In retourne games a seat bid with the five cards it was dealt first. A world gives each
seat all the cards it was dealt; which five of them came first is uniform among its
subsets of five (the retourne, picked up by the taker after the auction, apart), so the
check draws them (:func:`first_five`). The law of the accepted worlds is then uniform
over the deals, first five cards included, that make the calls.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.bid.coinche import Auction
from belote_sim.bid.dd_bidder import BidView
from belote_sim.bid.dispatch import coinche_policy_call, reads_calls, retourne_policy_call
from belote_sim.kernels.bits import nth_bit, popcount
from belote_sim.kernels.layout import (
    KNOW_CALL,
    KNOW_CALL_COINCHED,
    KNOW_CALL_HIGH,
    KNOW_CALL_HIGH_SEAT,
    KNOW_CALL_ROUND,
    KNOW_CALL_SEAT,
    KNOW_FIRST_HAND,
    KNOW_N_CALLS,
    KNOW_RETOURNE,
)
from belote_sim.kernels.rng import rand_below
from belote_sim.players.seating import at_seat
from belote_sim.rules import (
    CONTRACT_COINCHE,
    CONTRACT_NONE,
    CONTRACT_RETOURNE,
    PACKETS_LATE,
    R_ALL_NO_TRUMPS_ROUND,
    R_COINCHE_PACKETS,
    R_CONTRACT,
    R_PLAYERS,
)

#: Cards a seat of a retourne game holds when it bids.
BIDDING_CARDS = 5


@jit
def auction_read(rules):
    """Whether the worlds of ``rules``' deals are checked against the calls: the
    retourne bidding of three or four players and the coinche auction (but for
    ``coinche_packets = 3-3+2``). (The stock game's dealer may be forced to name a suit
    after redeals the seats' knowledge does not keep: its worlds stay uniform.)"""
    contract = rules[R_CONTRACT]
    n = rules[R_PLAYERS]
    if contract == CONTRACT_COINCHE:
        # Under the Saint-Étienne deal a seat bid with six of its cards, which the
        # worlds do not draw: they stay uniform.
        return rules[R_COINCHE_PACKETS] != PACKETS_LATE
    return (contract == CONTRACT_RETOURNE and n >= 3) or (contract == CONTRACT_NONE and n == 4)


@jit(inline="always")
def first_five(hand, retourne, rng):
    """Five cards of ``hand`` (every card a seat was dealt), drawn uniformly: the cards
    it bid with. The retourne, if the seat holds it, was picked up after the auction."""
    rest = hand & ~(1 << retourne) if retourne >= 0 else hand
    for _ in range(popcount(rest) - BIDDING_CARDS):
        rest &= ~(1 << nth_bit(rest, rand_below(rng, popcount(rest))))
    return rest


@jit(inline="always")
def to_bidding_hands(rules, hands, retourne, rng):
    """Turn the world ``hands`` (``int64[4]``, every card each seat was dealt) into the
    hands the seats bid with, in place: in retourne games five of each, drawn from
    ``rng`` (:func:`first_five`); in the coinche auction all eight, unchanged."""
    if rules[R_CONTRACT] != CONTRACT_COINCHE:
        for seat in range(rules[R_PLAYERS]):
            hands[seat] = first_five(hands[seat], retourne, rng)


@jit
def gives_calls(rules, players, kit, dealt, me, rng):
    """Whether the world ``dealt`` (``int64[4]``: every card each seat was dealt; turned
    into the hands they bid with, :func:`to_bidding_hands`) makes the auction's calls
    (:func:`makes_calls`)."""
    to_bidding_hands(rules, dealt, kit.know[KNOW_RETOURNE], rng)
    return makes_calls(rules, players, kit, dealt, me, rng)


@jit
def makes_calls(rules, players, kit, hands, me, rng):
    """Whether seats bidding with ``hands`` (``int64[4]``) make every call of the auction
    the knowledge ``kit.know`` records (``KNOW_CALL_*``), replayed by their bidding
    policies (:func:`retourne_policy_call`, :func:`coinche_policy_call`): each seat but
    ``me`` whose policy :func:`reads_calls`. Stops at the first call that differs."""
    know = kit.know
    n = rules[R_PLAYERS]
    n_calls = know[KNOW_N_CALLS]
    fh = know[KNOW_FIRST_HAND]
    retourne = know[KNOW_RETOURNE]
    coinche = rules[R_CONTRACT] == CONTRACT_COINCHE
    allow_at_nt = rules[R_ALL_NO_TRUMPS_ROUND] != 0
    calls = know[KNOW_CALL:KNOW_CALL + n_calls]
    for j in range(n_calls):
        seat = know[KNOW_CALL_SEAT + j]
        if seat == me or not reads_calls(at_seat(players.bid, seat)):
            continue
        if coinche and know[KNOW_CALL_COINCHED + j] != 0 and (
                (seat & 1) != (know[KNOW_CALL_HIGH_SEAT + j] & 1)):
            continue  # the coincher's side may only pass: its pass says nothing
        if coinche:
            auction = Auction(calls, np.int64(j), fh, know[KNOW_CALL_HIGH + j],
                              know[KNOW_CALL_HIGH_SEAT + j], know[KNOW_CALL_COINCHED + j] != 0)
            chosen = coinche_policy_call(players, seat, hands[seat], auction, allow_at_nt, rng)
        else:
            bidder = BidView(hands[seat], retourne, seat, fh, n)
            chosen = retourne_policy_call(rules, players, kit, know[KNOW_CALL_ROUND + j],
                                          bidder, rng)
        if chosen != calls[j]:
            return False
    return True
