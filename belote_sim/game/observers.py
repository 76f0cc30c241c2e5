"""What the workspace's observers (:class:`~belote_sim.game.state.Watch`) take from a deal
in play: the seats' knowledge, each side's decision time, and the double-dummy value of
each position of a deal log, all kept in the solver kit.

Every function receives the kit as an argument and returns at once when it is ``None``
(players who need no solver, :func:`~belote_sim.players.seating.solver_need`): Numba
prunes a branch on an argument that ``is None`` before it types the rest, so a run of
such players compiles none of this, nor anything the kit would bring in. The deal
functions call these under the watch's flags, which a kit-less workspace never sets.
"""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.cards import CAPOT_BONUS
from belote_sim.dd.kit import (
    NO_VALUE,
    STAT_CYCLES,
    STAT_DECISIONS,
    STAT_DRAWN,
    STAT_GIVEN,
    STAT_SHORT,
)
from belote_sim.infer.knowledge import (
    KNOW_HELD,
    learn_call,
    learn_deal,
    learn_from_card,
    reset_knowledge,
    show_declarations,
)
from belote_sim.kernels.layout import (
    DECISION_CYCLES,
    DECISIONS,
    WORLDS_DRAWN,
    WORLDS_GIVEN,
    WORLDS_SHORT,
)
from belote_sim.play.pimc import analyse_position


@jit
def start_watch(kit, watch):
    """A new deal: nothing known yet, no decision timed."""
    if kit is None:
        return
    if watch.know:
        reset_knowledge(kit.know)
    if watch.timing:
        kit.stats[:] = 0


@jit
def record_decisions(kit, rec):
    """Each side's decisions, their cycles and the worlds drawn for them, into the
    record (the arena's timing)."""
    if kit is None:
        return
    for side in range(2):
        rec[DECISIONS + side] = kit.stats[STAT_DECISIONS + side]
        rec[DECISION_CYCLES + side] = kit.stats[STAT_CYCLES + side]
        rec[WORLDS_DRAWN + side] = kit.stats[STAT_DRAWN + side]
        rec[WORLDS_GIVEN + side] = kit.stats[STAT_GIVEN + side]
        rec[WORLDS_SHORT + side] = kit.stats[STAT_SHORT + side]


@jit
def time_decision(kit, side, ticks):
    """One decision of ``side`` that took ``ticks`` cycles."""
    if kit is None:
        return
    kit.stats[STAT_CYCLES + side] += ticks
    kit.stats[STAT_DECISIONS + side] += 1


@jit
def see_deal(kit, first_hand, retourne):
    """The deal starts from ``first_hand`` with ``retourne`` face up (-1: none)."""
    if kit is None:
        return
    learn_deal(kit.know, first_hand, retourne)


@jit
def see_retourne_taken(kit, taker, retourne):
    """The ``taker`` picked up the retourne: everyone saw it."""
    if kit is None:
        return
    kit.know[KNOW_HELD + taker] |= 1 << retourne


@jit
def see_call(kit, j, call, seat, rnd, high, high_seat, coinched):
    """Call ``j`` of the auction (see :func:`~belote_sim.infer.knowledge.learn_call`)."""
    if kit is None:
        return
    learn_call(kit.know, j, call, seat, rnd, high, high_seat, coinched)


@jit
def see_declarations(rules, kit, rec, hands, n, sides, decl):
    """The winning side's declarations are shown."""
    if kit is None:
        return
    show_declarations(rules, rec, hands, n, sides, kit.know, decl)


@jit
def see_card(rules, kit, view, card, w, rule):
    """The seat of ``view`` played ``card`` (``w``: the position of the card winning the
    trick before it, ``rule``: the rule that made its legal set)."""
    if kit is None:
        return
    learn_from_card(rules, kit.know, view, card, w, rule)


@jit
def value_position(rules, kit, n_plays, taken, hands, view, legal, solvable):
    """The takers' double-dummy value of the position before play ``n_plays``: the
    points they have ``taken`` plus those perfect play still gives them (``NO_VALUE``
    where the solver does not apply: not ``solvable``); the value after each legal card
    goes to the kit's scratch row."""
    if kit is None:
        return
    kit.analysis[0, n_plays] = NO_VALUE
    if solvable:
        kit.analysis[0, n_plays] = taken + analyse_position(rules, kit, hands, view, legal)


@jit
def value_card_played(kit, n_plays, taken, card):
    """The value of the position after play ``n_plays`` was ``card``."""
    if kit is None:
        return
    kit.analysis[1, n_plays] = taken + kit.analysis[2, card]


@jit
def value_end(kit, n_plays, taken, takers_all):
    """The value after the last card: the points the takers took, with the capot bonus
    when they took ``takers_all`` the tricks."""
    if kit is None:
        return
    kit.analysis[0, n_plays] = taken + (CAPOT_BONUS if takers_all else 0)
