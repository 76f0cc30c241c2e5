"""Rule kernels: the rules of the game as jitted functions over bitmasks, the layer
every player and the game engine build on (they never import anything above it).

Modules: ``bits`` (popcount/ctz intrinsics), ``rng`` (counter-based streams), ``layout``
(the deal record, counters and codes), ``calls`` (the coinche bid encoding), ``deal``
(shuffling, packets, the cut pack), ``legal``, ``trick``, ``declarations``,
``scoring``, ``counting`` (the counters of a deal), ``odds`` (declaration odds of one
hand), ``clock`` (a cycle counter).
"""

from belote_sim.kernels import (  # noqa: F401
    bits,
    calls,
    clock,
    counting,
    deal,
    declarations,
    layout,
    legal,
    odds,
    rng,
    scoring,
    trick,
)
