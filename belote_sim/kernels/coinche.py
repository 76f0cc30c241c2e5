"""Coinche (RULES.md 7.4): deal 3-3-2, the auction, contract scoring. Work in progress:
the preset stays refused by :meth:`belote_sim.rules.Rules.check_implemented` until done."""

from __future__ import annotations

from belote_sim._jit import jit
from belote_sim.kernels.layout import ST_BAD_CALL
from belote_sim.kernels.play import fail


@jit
def deal_coinche(rules, rec, pack, dealer, bid_policy, bid_params, play_policy, play_params,
                 script_calls, n_script_calls, script_plays, n_script_plays, ws):
    """One coinche deal into ``rec``; returns an ``ST_*`` status."""
    return fail(rec, ST_BAD_CALL, 0, -1, -1, 0, 0)
