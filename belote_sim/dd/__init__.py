"""Double-dummy solver: the exact card points of the takers under perfect play by all.

With every hand known, :func:`dd_search` is an alpha-beta search over the cards still
to play, from any position (mid-trick included), under the play rules of any preset
(the legal cards are those of :func:`belote_sim.kernels.legal.legal_given_top`, the
same kernel the deals use). Its value is what the takers' side still takes: the card
points of the tricks it wins, the last-trick bonus, and the capot bonus when the takers
have taken, and go on to take, every trick. Points already won add on top; they do not
change which card is best.

Speed comes from standard devices, each of which can be switched off for the reference
configuration of the tests (``OPT_*``); each module describes its own:

- :mod:`.table`: the solver context (``CX_*``, ``OPT_*``) and the transposition table
  at trick boundaries, keyed by canonical hands;
- :mod:`.ordering`: the cards worth searching (equivalent cards collapsed) and their
  order;
- :mod:`.bounds`: sure-point bounds at trick boundaries;
- :mod:`.endgame`: the last trick played out, the last two searched without frames;
- :mod:`.search`: the alpha-beta search (principal variation search, over an explicit
  stack of frames) and the queries: :func:`dd_search`, :func:`dd_exact`, :func:`dd_value`,
  :func:`dd_reaches`, :func:`dd_move_values`, :func:`dd_card_value`,
  :func:`dd_best_card`.

Every query takes a :class:`~.search.Solver` (the rules, the context, the table and the
search scratch) and a :class:`~.search.Position` (the hands and the current trick).
Callers use the names re-exported here (``dd.new_context()``,
``dd.dd_value(dd.Solver(...), dd.Position(...), guess)``).
"""

from __future__ import annotations

from belote_sim.dd.ordering import _representative, candidates
from belote_sim.dd.search import (
    MAX_TRICKS,
    Position,
    Solver,
    SolverScratch,
    dd_best_card,
    dd_card_value,
    dd_exact,
    dd_move_values,
    dd_reaches,
    dd_search,
    dd_value,
    new_workspace,
)
from belote_sim.dd.table import (
    CX_CUTOFFS,
    CX_FIRST_CUTOFFS,
    CX_GEN,
    CX_HITS,
    CX_NODES,
    CX_PROBES,
    CX_TAKER,
    CX_TAKERS,
    CX_TRUMP,
    DEAL_TABLE_BITS,
    INF,
    OPT_ALL,
    OPT_BOUNDS,
    OPT_COLLAPSE,
    OPT_ORDER,
    OPT_PVS,
    OPT_TT,
    SEARCH_STATS,
    TT_VAL,
    _tt_pack,
    new_context,
    new_generation,
    new_table,
    set_context,
)

__all__ = [
    "CX_CUTOFFS",
    "CX_FIRST_CUTOFFS",
    "CX_GEN",
    "CX_HITS",
    "CX_NODES",
    "CX_PROBES",
    "CX_TAKER",
    "CX_TAKERS",
    "CX_TRUMP",
    "DEAL_TABLE_BITS",
    "INF",
    "MAX_TRICKS",
    "OPT_ALL",
    "OPT_BOUNDS",
    "OPT_COLLAPSE",
    "OPT_ORDER",
    "OPT_PVS",
    "OPT_TT",
    "SEARCH_STATS",
    "Position",
    "Solver",
    "SolverScratch",
    "TT_VAL",
    "_representative",
    "_tt_pack",
    "candidates",
    "dd_best_card",
    "dd_card_value",
    "dd_exact",
    "dd_move_values",
    "dd_reaches",
    "dd_search",
    "dd_value",
    "new_context",
    "new_generation",
    "new_table",
    "new_workspace",
    "set_context",
]
