"""Legal cards as bitmasks: every case of RULES.md section 6."""

from __future__ import annotations

from numba.extending import overload

from belote_sim._jit import jit
from belote_sim.cards import ALL_TRUMPS, TRUMP_ABOVE
from belote_sim.kernels.layout import (
    RULE_FOLLOW,
    RULE_FREE,
    RULE_MUST_TRUMP,
    RULE_OVERTRUMP,
    RULE_OVERTRUMP_LEAD,
    RULE_PARTNER,
    RULE_UNDERTRUMP,
)
from belote_sim.kernels.trick import are_partners, seat_after, trick_winner
from belote_sim.rules import (
    N_RULE_SLOTS,
    R_MUST_TRUMP,
    R_OVERTRUMP_PARTNER,
    R_PARTNER_EXEMPTION,
    R_PLAYERS,
    R_UNDERTRUMP,
    UNDERTRUMP_FREE,
)


def rule_values(rules):
    """The rules array as a tuple of its values, which the kernels that only read
    ``rules[R_*]`` (the legal cards, a trick's points) accept as well: a loop that
    stores into other int64 arrays (the record, the hands) must reload an array's
    options after each store, as far as the compiler knows the arrays may overlap; a
    tuple's values stay in registers. (Compiled by
    :func:`_rule_values_jit`; this is its plain-Python form.)

    >>> from belote_sim import Rules
    >>> from belote_sim.rules import R_PLAYERS
    >>> rule_values(Rules().to_array())[R_PLAYERS]
    4
    """
    return tuple(int(x) for x in rules)


def _read_every_slot():
    """``impl(rules) -> (rules[0], ..., rules[N_RULE_SLOTS - 1])``, the reads written out.

    Numba's ``to_fixed_tuple`` builds the tuple in a loop that LLVM does not see
    through: the trick loop copied every slot through the stack at each deal. Written
    out, each read is a load of its own, and the
    loads of the slots a kernel never uses are dropped."""
    reads = ", ".join(f"rules[{i}]" for i in range(N_RULE_SLOTS))
    namespace: dict = {}
    exec(f"def impl(rules):\n    return ({reads},)\n", namespace)
    return namespace["impl"]


@overload(rule_values, inline="always")
def _rule_values_jit(rules):
    return _read_every_slot()


@jit
def legal_cards_rule(rules, hand, trick, k, leader, trump, taker):
    """Legal cards of the player holding ``hand`` who plays the ``k``-th card of a trick
    (``trick[:k]`` already played, led by seat ``leader``), and the ``RULE_*`` code of
    the rule that decided the set (for error messages).

    ``hand`` is an int64 card mask; ``trick`` holds card indices. Kernel of
    :func:`belote_sim.kernels.api.legal_cards`; naive reference in ``tests/reference/rules_ref.py``.
    """
    if k == 0:
        return hand, RULE_FREE
    w = trick_winner(trick, k, trump)
    return legal_given_winner(rules, hand, trick, k, leader, trump, taker, w)


@jit(inline="always")
def legal_given_winner(rules, hand, trick, k, leader, trump, taker, w):
    """:func:`legal_cards_rule` for ``k >= 1`` when the position ``w`` of the card winning
    the trick so far is already known (the deal kernel tracks it card by card)."""
    n = rules[R_PLAYERS]
    return legal_given_top(rules, hand, trick[0] >> 3, trick[w], seat_after(leader, k, n),
                           seat_after(leader, w, n), trump, taker)


@jit(inline="always")
def legal_given_top(rules, hand, led, top, seat, holder, trump, taker):
    """:func:`legal_given_winner` from what matters of the trick: the suit ``led``, the
    card ``top`` winning so far and the seat ``holder`` who played it, for ``seat``
    holding ``hand``."""
    n = rules[R_PLAYERS]
    follow = hand & (0xFF << (8 * led))
    partner_winning = are_partners(seat, holder, n, taker)
    if follow != 0:
        if trump == ALL_TRUMPS or led == trump:
            if partner_winning and rules[R_OVERTRUMP_PARTNER] == 0:
                return follow, RULE_FOLLOW
            # On a trump lead the winning card is the highest card of the suit led.
            higher = follow & (TRUMP_ABOVE[top & 7] << (8 * led))
            if higher != 0:
                return higher, RULE_OVERTRUMP_LEAD
        return follow, RULE_FOLLOW
    if partner_winning and rules[R_PARTNER_EXEMPTION] != 0:
        return hand, RULE_PARTNER
    if rules[R_MUST_TRUMP] != 0 and trump < ALL_TRUMPS:
        trumps = hand & (0xFF << (8 * trump))
        if trumps != 0:
            if top >> 3 == trump:  # a trump is in the trick, and it is winning
                higher = trumps & (TRUMP_ABOVE[top & 7] << (8 * trump))
                if higher != 0:
                    return higher, RULE_OVERTRUMP
                if rules[R_UNDERTRUMP] == UNDERTRUMP_FREE:
                    return hand, RULE_FREE
                return trumps, RULE_UNDERTRUMP
            return trumps, RULE_MUST_TRUMP
    return hand, RULE_FREE


@jit(inline="always")
def legal_cards(rules, hand, trick, k, leader, trump, taker):
    """Legal card mask only; see :func:`legal_cards_rule`."""
    return legal_cards_rule(rules, hand, trick, k, leader, trump, taker)[0]
