"""What colver (the peer engine, on PyPI; a dev dependency, never one of the package)
and belote_sim call the same things: cards, calls, and the contrée colver plays, our
``colver`` preset (RULES.md section 10; ``tests/test_colver_game.py`` replays colver's
deals under it).

colver numbers a card ``8 * suit + rank`` with suits S H D C and ranks 7 8 9 J Q K T A;
we number it ``8 * suit + rank`` with suits C D H S and ranks 7 8 9 T J Q K A. Its bids
are action ``1 + 4 * step + suit`` (``step`` 0..8 for 80..160, suits S H D C), 37..40 a
capot in S H D C, 41 coinche, 42 surcoinche, 0 pass.

>>> from_colver_card(to_colver_card(31)), colver_call_name(to_colver_call("90H"))
(31, '90H')
"""

from __future__ import annotations

from belote_sim import Rules
from belote_sim.deallog.format import format_call, parse_call

#: colver's contrée: our ``colver`` preset.
COLVER_RULES = Rules.from_preset("colver")

# Our rank index as colver orders the ranks (7 8 9 J Q K T A).
_RANK = (0, 1, 2, 6, 3, 4, 5, 7)
_SUITS = "SHDC"  # colver's suit order; ours is C D H S
CAPOT_VALUE = 250
PASS, FIRST_CAPOT, COINCHE, SURCOINCHE = 0, 37, 41, 42


def to_colver_card(card: int) -> int:
    """Our card index as colver numbers it."""
    return 8 * (3 - card // 8) + _RANK[card % 8]


_FROM = {to_colver_card(c): c for c in range(32)}


def from_colver_card(card: int) -> int:
    """colver's card index as we number it."""
    return _FROM[card]


def colver_call_name(action: int) -> str:
    """A colver bidding action as our call (``"90H"``, ``"250S"``, ``"coinche"``)."""
    if action == PASS:
        return "pass"
    if action == COINCHE:
        return "coinche"
    if action == SURCOINCHE:
        return "surcoinche"
    if action >= FIRST_CAPOT:
        return f"{CAPOT_VALUE}{_SUITS[action - FIRST_CAPOT]}"
    step, suit = divmod(action - 1, 4)
    return f"{80 + 10 * step}{_SUITS[suit]}"


def to_colver_call(call: str | int) -> int:
    """Our call (a string or a code) as colver's bidding action.

    :raises ValueError: a call colver's auction does not have (all-trumps, no-trumps)."""
    name = format_call(parse_call(call) if isinstance(call, str) else int(call))
    for action in range(SURCOINCHE + 1):
        if colver_call_name(action) == name:
            return action
    raise ValueError(f"colver has no call {name!r}")
