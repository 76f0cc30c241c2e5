"""The game engine: a whole deal of every game, played by the players of
:mod:`belote_sim.players` with the rule kernels of :mod:`belote_sim.kernels`.

Modules: ``phases`` (the retourne bidding rounds, declarations at the first trick),
``tricks`` (the trick loop of every game), ``deals`` (one deal: dispatch, the retourne
games, replay's scripted mode), ``coinche``, ``twoplayer`` (stock and no-contract 2p),
``chunks`` (chunks of independent deals and whole matches, in parallel).
"""
