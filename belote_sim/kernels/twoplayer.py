"""Two-player games: the stock game (RULES.md 7.2) and the two-player game without
contract (7.3). Work in progress: both presets stay refused by
:meth:`belote_sim.rules.Rules.check_implemented` until done."""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.kernels.layout import ST_BAD_CALL
from belote_sim.kernels.play import fail


@jit
def deal_stock(rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
               script_calls, n_script_calls, script_plays, n_script_plays, ws):
    """One stock-game deal into ``rec``; returns an ``ST_*`` status."""
    return fail(rec, ST_BAD_CALL, 0, -1, -1, 0, 0)


@jit
def deal_no_contract_2p(rules, rec, pack, dealer, bid_policy, bid_params, play_policy,
                        play_params, script_calls, n_script_calls, script_plays, n_script_plays,
                        ws):
    """One deal of the two-player game without contract into ``rec``."""
    return fail(rec, ST_BAD_CALL, 0, -1, -1, 0, 0)
