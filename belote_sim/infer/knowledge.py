"""What a seat knows of the other hands, for the ``pimc:N`` and ``fastpimc:N`` players.

The worlds those players sample (:mod:`belote_sim.infer.worlds`) agree with everything
the seat knows, kept card by card by the trick loop in the *knowledge* array
(``KNOW_*``):

- its own hand, every card played, and how many cards each player holds;
- suits a player has shown to be void: a player who does not follow the suit led is
  void in it, and one who then plays neither a trump nor is excused by the rules (no
  partner exemption, no free undertrump) is void in trumps too;
- cards known to be in a hand, until played: the retourne with the taker, and the
  cards of the declarations shown by the side that won the contest (RULES 5);
- the cards each seat has played (``KNOW_PLAYED``): with its hand now, the hand it was
  dealt;
- the auction: every call, who made it and the point of the auction it was made at
  (``KNOW_CALL_*``, recorded by the engine's auctions through :func:`learn_call`), from
  which the worlds given the auction (:mod:`belote_sim.infer.auction`) replay each
  seat's bidder.
"""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.cards import ALL_TRUMPS
from belote_sim.kernels.declarations import shown_cards
from belote_sim.kernels.layout import (
    KNOW_CALL,
    KNOW_CALL_COINCHED,
    KNOW_CALL_HIGH,
    KNOW_CALL_HIGH_SEAT,
    KNOW_CALL_ROUND,
    KNOW_CALL_SEAT,
    KNOW_FIRST_HAND,
    KNOW_HELD,
    KNOW_N_CALLS,
    KNOW_PLAYED,
    KNOW_RETOURNE,
    KNOW_VOID,
    RULE_FREE,
)
from belote_sim.rules import (
    R_MUST_TRUMP,
    R_UNDERTRUMP,
    UNDERTRUMP_FREE,
)


@jit
def reset_knowledge(know):
    """Nothing known yet (a new deal)."""
    know[:] = 0


@jit(inline="always")
def learn_from_card(rules, know, view, card, w, rule):
    """Update what everyone knows after the seat of ``view``
    (:class:`~belote_sim.players.seating.SeatView`) played ``card`` as the trick's card
    ``view.k``, ``w`` being the position winning the trick before it and ``rule`` the
    rule that decided the legal set."""
    seat, trick, trump = view.seat, view.trick, view.trump
    know[KNOW_HELD + seat] &= ~(1 << card)
    know[KNOW_PLAYED + seat] |= 1 << card
    if view.k == 0:
        return
    led = trick[0] >> 3
    if card >> 3 == led:
        return
    know[KNOW_VOID + seat] |= 1 << led
    if (
        rule == RULE_FREE
        and rules[R_MUST_TRUMP] != 0
        and trump < ALL_TRUMPS
        and led != trump
        and card >> 3 != trump
        and not (trick[w] >> 3 == trump and rules[R_UNDERTRUMP] == UNDERTRUMP_FREE)
    ):
        know[KNOW_VOID + seat] |= 1 << trump


@jit(inline="always")
def learn_deal(know, first_hand, retourne):
    """The deal's first hand and retourne (-1 none), seen by everyone before the
    auction."""
    know[KNOW_FIRST_HAND] = first_hand
    know[KNOW_RETOURNE] = retourne


@jit(inline="always")
def learn_call(know, j, call, seat, rnd, high, high_seat, coinched):
    """Record call ``j`` of the auction, ``call`` by ``seat``: in round ``rnd`` of the
    retourne bidding (``high = high_seat = -1``), or in the coinche auction (``rnd``
    0) when the current bid was ``high`` by ``high_seat``, ``coinched`` or not."""
    know[KNOW_N_CALLS] = j + 1
    know[KNOW_CALL + j] = call
    know[KNOW_CALL_SEAT + j] = seat
    know[KNOW_CALL_ROUND + j] = rnd
    know[KNOW_CALL_HIGH + j] = high
    know[KNOW_CALL_HIGH_SEAT + j] = high_seat
    know[KNOW_CALL_COINCHED + j] = coinched


@jit
def show_declarations(rules, rec, hands, n, sides, know, decl):
    """The declarations of the side that won the contest are shown at the first trick
    (RULES 5): their cards become known to everyone."""
    shown_cards(rules, rec, hands, n, sides, decl, know, KNOW_HELD)
