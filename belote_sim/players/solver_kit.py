"""The solver kit ``sv``: what the solver players (:mod:`belote_sim.players.pimc`,
:mod:`belote_sim.players.dd_bidder`) and the analysis of a deal log keep per workspace.

:func:`new_solver_kit` makes it: the solver context, its transposition table and the
search scratch (:mod:`belote_sim.players.dd`), the seat's knowledge
(:mod:`belote_sim.players.knowledge`), per-run statistics (``STAT_*``) and the rows of
the analysis of a deal log. :func:`solver_table_bits` sizes the table for the policies
of a run; :func:`use_context` points the context at a contract.
"""

from __future__ import annotations

import numpy as np

from belote_sim._jit import jit
from belote_sim.players import (
    BID_DD,
    PLAY_ANALYSE,
    PLAY_SIDES,
    SOLVER_PLAYS,
    dd,
)
from belote_sim.players.knowledge import KNOW_SIZE

#: Per-run statistics of the solver players (see :mod:`belote_sim.arena`).
STAT_DECISIONS = 0  # 2 slots, per side of the arena
STAT_CYCLES = 2  # 2 slots
STAT_SIZE = 4

#: Analysis of a deal log (``sv[5]``): row 0 the value of each position, row 1 the value
#: after the card played there, row 2 scratch (the value after each card, by card).
MAX_POSITIONS = 40
NO_VALUE = -1

TABLE_BITS = 20  # 2**20 entries, 32 MB per workspace of a solver player
ANALYSE_TABLE_BITS = 20


@jit
def new_solver_kit(bits):
    """What the solver players need per workspace: ``(context, table, search scratch,
    knowledge, statistics, analysis)``; ``bits = 0`` gives a 1-entry table for runs
    without solver players."""
    return (
        dd.new_context(),
        dd.new_table(bits),
        dd.new_workspace(),
        np.zeros(KNOW_SIZE, dtype=np.int64),
        np.zeros(STAT_SIZE, dtype=np.int64),
        np.full((3, MAX_POSITIONS), NO_VALUE, dtype=np.int64),
    )


@jit
def use_context(cx, rules, trump, taker):
    """Point the solver context at ``trump`` and ``taker``. The table's entries depend
    only on the rules (fixed for a workspace's life), trump and the taker, so they are
    kept, across decisions and deals, as long as these stay the same."""
    if cx[dd.CX_GEN] == 0 or cx[dd.CX_TRUMP] != trump or cx[dd.CX_TAKER] != taker:
        dd.set_context(cx, rules, trump, taker, dd.OPT_ALL)


@jit
def solver_table_bits(bid_policy, play_policy, play_params):
    """Size of the transposition table a workspace needs for these policies."""
    if bid_policy == BID_DD:
        return TABLE_BITS
    if play_policy == PLAY_ANALYSE:
        return ANALYSE_TABLE_BITS
    if play_policy in SOLVER_PLAYS:
        return TABLE_BITS
    if play_policy == PLAY_SIDES and (
        int(play_params[0]) in SOLVER_PLAYS or int(play_params[2]) in SOLVER_PLAYS
    ):
        return TABLE_BITS
    return 0
