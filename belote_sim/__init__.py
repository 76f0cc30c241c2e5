"""belote_sim: a high-throughput Monte Carlo simulator of belote and its variants.

>>> from belote_sim import Rules, simulate
>>> simulate(Rules.from_preset("litige"), deals=1_000, seed=1).counters["deals"]
1000
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from belote_sim._version import __version__

#: The public names and the module of each, imported on first use: ``import belote_sim``
#: loads no engine, so the command line can answer a Ctrl-C from its first moment.
_PUBLIC = {
    "Rules": "belote_sim.rules", "PRESETS": "belote_sim.rules", "CardSet": "belote_sim.cards",
    "simulate": "belote_sim.studies.simulate", "play_match": "belote_sim.studies.simulate",
    "arena": "belote_sim.studies.arena", "replay": "belote_sim.deallog.replay",
    "load": "belote_sim.runner.rundir", "bid_strength": "belote_sim.studies.bid_strength",
    "compare": "belote_sim.studies.compare",
}

__all__ = [*_PUBLIC, "__version__"]

if TYPE_CHECKING:  # what a type checker reads (``name as name``: re-exported)
    from belote_sim.cards import CardSet as CardSet
    from belote_sim.deallog.replay import replay as replay
    from belote_sim.rules import PRESETS as PRESETS
    from belote_sim.rules import Rules as Rules
    from belote_sim.runner.rundir import load as load
    from belote_sim.studies.arena import arena as arena
    from belote_sim.studies.bid_strength import bid_strength as bid_strength
    from belote_sim.studies.compare import compare as compare
    from belote_sim.studies.simulate import play_match as play_match
    from belote_sim.studies.simulate import simulate as simulate


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'belote_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
