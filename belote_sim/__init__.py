"""belote_sim: a high-throughput Monte Carlo simulator of belote and its variants.

>>> from belote_sim import Rules, simulate
>>> simulate(Rules.from_preset("litige"), deals=1_000, seed=1).counters["deals"]
1000
"""

from belote_sim._version import __version__
from belote_sim.cards import CardSet
from belote_sim.deallog.replay import replay
from belote_sim.rules import PRESETS, Rules
from belote_sim.runner.rundir import load
from belote_sim.studies.arena import arena
from belote_sim.studies.bid_strength import bid_strength
from belote_sim.studies.compare import compare
from belote_sim.studies.simulate import play_match, simulate

__all__ = ["Rules", "PRESETS", "CardSet", "simulate", "play_match", "arena", "replay", "load",
           "bid_strength", "compare", "__version__"]
