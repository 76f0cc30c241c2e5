"""Rule kernels: the rules of the game as jitted functions over bitmasks, the layer
every player and the game engine build on (they never import anything above it).

Modules: ``bits`` (popcount/ctz intrinsics), ``rng`` (counter-based streams), ``layout``
(the deal record, counters, the seats' knowledge and codes), ``calls`` (the call
codes), ``deal`` (shuffling, packets, the cut pack), ``legal``, ``trick``,
``declarations``, ``scoring`` (every game's deal score); and beside them their
validating Python wrappers, ``api``.
"""
