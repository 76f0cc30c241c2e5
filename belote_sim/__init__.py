"""belote_sim: a high-throughput Monte Carlo simulator of belote and its variants.

>>> from belote_sim import Rules, simulate
>>> simulate(Rules.from_preset("litige"), deals=1_000, seed=1).counters["deals"]
1000
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("belote_sim")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0+source"

from belote_sim.cards import CardSet  # noqa: E402
from belote_sim.rules import PRESETS, Rules  # noqa: E402
from belote_sim.runs.arena import arena  # noqa: E402
from belote_sim.runs.compare import compare  # noqa: E402
from belote_sim.runs.io import load  # noqa: E402
from belote_sim.runs.replay import replay  # noqa: E402
from belote_sim.runs.runner import play_match, simulate  # noqa: E402
from belote_sim.runs.strength import bid_strength  # noqa: E402

__all__ = ["Rules", "PRESETS", "CardSet", "simulate", "play_match", "arena", "replay", "load",
           "bid_strength", "compare", "__version__"]
