"""Every bidding policy's call at a point of the auction, in one place.

The engine's auctions (:func:`belote_sim.game.phases.bid_retourne`,
:mod:`belote_sim.game.coinche`) ask :func:`retourne_policy_call` and
:func:`coinche_policy_call` for the call of a seat's bidding policy; the worlds given the
auction (:mod:`belote_sim.infer.auction`) ask the same functions again, to replay each
seat's calls with the hand a world gives it.

Which seats the calls say something about (:func:`reads_calls`): ``threshold`` and
``table`` decide from the hand alone, so their calls are replayed; ``random`` calls by
the dice whatever the hand, so its calls say nothing; the ``dd`` bidder samples deals
and solves them at every call, which no world can afford to replay, so the worlds given
the auction refuse it (:func:`belote_sim.players.spec.check_policies`).
"""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.bid.coinche import choose_coinche_call
from belote_sim.bid.dd_bidder import dd_call
from belote_sim.bid.retourne import choose_call
from belote_sim.bid.table_bidder import table_call, table_coinche_call
from belote_sim.players.registry import BID_DD, BID_TABLE, BID_THRESHOLD
from belote_sim.players.seating import at_seat
from belote_sim.rules import R_SECOND_ROUND, SECOND_ROUND_ANY


@jit(inline="always")
def retourne_policy_call(rules, players, kit, rnd, bidder, rng):
    """The call the bidding policy of ``bidder.seat`` (a
    :class:`~belote_sim.bid.dd_bidder.BidView`: its five cards, the retourne, the
    first hand) makes in round ``rnd`` of the retourne bidding; ``kit`` is the solver
    kit the ``dd`` bidder searches with."""
    seat = bidder.seat
    policy = at_seat(players.bid, seat)
    param = at_seat(players.bid_param, seat)
    any_suit = rules[R_SECOND_ROUND] == SECOND_ROUND_ANY
    if policy == BID_DD:
        return dd_call(rules, kit, param, rnd, bidder, rng)
    if policy == BID_TABLE:
        position = (seat - bidder.first_hand + bidder.n) % bidder.n
        return table_call(players.table_keys, players.table_gains, param, rnd, position,
                          bidder.hand, bidder.retourne, any_suit)
    return choose_call(policy, param, rnd, bidder.hand, bidder.retourne, any_suit, rng)


@jit(inline="always")
def coinche_policy_call(players, seat, hand, auction, allow_at_nt, rng):
    """The call the bidding policy of ``seat``, holding ``hand``, makes at this point of
    the coinche :class:`~belote_sim.bid.coinche.Auction`."""
    policy = at_seat(players.bid, seat)
    param = at_seat(players.bid_param, seat)
    if policy == BID_TABLE:
        return table_coinche_call(players.table_keys, players.table_gains, param,
                                  (seat - auction.fh) & 3, hand, auction.high,
                                  auction.coinched, allow_at_nt)
    return choose_coinche_call(policy, param, seat, hand, auction, allow_at_nt, rng)


@jit(inline="always")
def reads_calls(policy):
    """Whether the calls of a seat bidding by ``policy`` say something of its hand that
    a world can check: those of ``threshold`` and ``table``."""
    return policy in (BID_THRESHOLD, BID_TABLE)
