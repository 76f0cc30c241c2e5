"""The solver kit: what the solver players (:mod:`belote_sim.play.pimc`,
:mod:`belote_sim.bid.dd_bidder`) and the analysis of a deal log keep per workspace.

:func:`new_solver_kit` makes it: the solver context, its transposition table and the
search scratch (:mod:`belote_sim.dd`), the seat's knowledge
(:mod:`belote_sim.infer.knowledge`), per-run statistics (``STAT_*``) and the rows of
the analysis of a deal log. :func:`solver_table_bits` sizes the table for the policies
of a run; :func:`use_context` points the context at a contract, and :func:`kit_solver`
hands the solver its part of the kit.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim import dd
from belote_sim._jit import jit
from belote_sim.kernels.layout import KNOW_SIZE, MAX_SEATS
from belote_sim.players.registry import BID_DD, FASTPIMC_PLAYS, SOLVER_PLAYS

#: Per-run statistics of the solver players (see :mod:`belote_sim.studies.arena`), two
#: slots each, per side of the arena: decisions, their cycle-counter ticks; worlds drawn
#: to find worlds given the calls, worlds found, worlds short of those asked
#: (:func:`belote_sim.infer.worlds.draw_pimc_worlds`).
STAT_DECISIONS = 0
STAT_CYCLES = 2
STAT_DRAWN = 4
STAT_GIVEN = 6
STAT_SHORT = 8
STAT_SIZE = 10

#: Analysis of a deal log (``analysis``): row 0 the value of each position, row 1 the value
#: after the card played there, row 2 scratch (the value after each card, by card).
MAX_POSITIONS = 40
NO_VALUE = -1
#: A solver player's value of every card at a decision a seat is asked for
#: (:func:`belote_sim.play.pimc.pimc_values`): row ``VALUES_ROW`` by card, the number
#: of worlds at ``VALUES_WORLDS``.
VALUES_ROW = 2
VALUES_WORLDS = (1, 39)

TABLE_BITS = 20  # 2**20 entries, 16 MB per workspace of a solver player
#: ``fastpimc`` solves positions of at most ``EXACT_TRICKS`` tricks, whose searches fill
#: a small part of a table: in 1 MB rather than 16 MB its probes miss the caches less,
#: and each workspace has less to clear. ``pimc``'s first leads, whose 20 worlds share
#: the table, are a little slower with the small one, so any other solver player at the
#: table gets the large one. (The choices do not depend on the size: ``test_players``.)
FASTPIMC_TABLE_BITS = 16
ANALYSE_TABLE_BITS = 20
#: The solved outcomes of :class:`~belote_sim.game.state.Watch` ``solve`` (bid-strength
#: and the atlas under the ``dd`` model) solve whole deals, each in a new generation.
SOLVE_TABLE_BITS = dd.DEAL_TABLE_BITS


#: The kit, by name: the solver ``context``, its transposition ``table`` and the search's
#: ``scratch`` (:mod:`belote_sim.dd`), the seat knowledge ``know``
#: (:mod:`belote_sim.infer.knowledge`), the decision ``stats`` (``STAT_*``) and the
#: ``analysis`` rows of a deal log.
#: ``outcomes[trump, taker]`` the takers' double-dummy value of the deal in play
#: (:func:`belote_sim.play.pimc.deal_value`; -1 not yet solved): a bid-strength world
#: plays many auctions on one pack, and those that end in the same contract share it.
SolverKit = namedtuple(
    "SolverKit", ["context", "table", "scratch", "know", "stats", "analysis", "outcomes"]
)

#: Strains (four suits, all-trumps, no-trumps) for the ``outcomes`` memo.
N_TRUMPS = 6


@jit
def new_solver_kit(bits):
    """A :class:`SolverKit` with a table of ``2**bits`` entries; ``bits = 0`` gives a
    1-entry table for runs without solver players."""
    return SolverKit(
        dd.new_context(),
        dd.new_table(bits),
        dd.new_workspace(),
        np.zeros(KNOW_SIZE, dtype=np.int64),
        np.zeros(STAT_SIZE, dtype=np.int64),
        np.full((3, MAX_POSITIONS), NO_VALUE, dtype=np.int64),
        np.full((N_TRUMPS, MAX_SEATS), NO_VALUE, dtype=np.int64),
    )


@jit(inline="always")
def kit_solver(rules, kit):
    """The :class:`~belote_sim.dd.Solver` of ``kit`` under ``rules``: its
    context, table and search scratch."""
    return dd.Solver(rules, kit.context, kit.table, kit.scratch)


@jit
def use_context(cx, rules, trump, taker):
    """Point the solver context at ``trump`` and ``taker``. The table's entries depend
    only on the rules (fixed for a workspace's life), trump and the taker, so they are
    kept, across decisions and deals, as long as these stay the same."""
    if cx[dd.CX_GEN] == 0 or cx[dd.CX_TRUMP] != trump or cx[dd.CX_TAKER] != taker:
        dd.set_context(cx, rules, trump, taker, dd.OPT_ALL)


@jit
def solver_table_bits(players, analyse, solve):
    """Size of the transposition table a workspace needs for ``players``
    (:class:`belote_sim.players.seating.Players`), for the analysis of a deal log
    (``analyse``) or for the solved outcomes of :class:`~belote_sim.game.state.Watch`
    ``solve``, where no player plays a card (only a ``dd`` bidder still searches)."""
    if analyse:
        return ANALYSE_TABLE_BITS
    bits = SOLVE_TABLE_BITS if solve else 0
    for seat in range(MAX_SEATS):
        if players.bid[seat] == BID_DD:
            return TABLE_BITS
        if solve:
            continue
        if players.play[seat] in FASTPIMC_PLAYS:
            bits = FASTPIMC_TABLE_BITS
        elif players.play[seat] in SOLVER_PLAYS:
            return TABLE_BITS
    return bits
