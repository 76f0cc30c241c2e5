"""Plain-Python references of the rules ("test oracles"), one per game family.

Each is written independently, straight from ``docs/spec/RULES.md`` and
``docs/spec/DEAL_LOG.md``, with Python sets and lists, and not from the engine: nothing here
imports ``belote_sim.kernels``, ``belote_sim.kernels.api``, ``belote_sim.game`` or the players;
only the card notation of ``belote_sim.cards`` and the option object
``belote_sim.rules.Rules``. The tests compare the engine with them.

- :mod:`reference.rules_ref`: the building blocks every family shares (card orders and
  values, trick winner, legal cards, sides, declarations and their contest, the scoring
  of each family, the pack rebuilt after a deal).
- :mod:`reference.retourne`: one replay of every retourne deal (RULES 7.1 and 7.3 with
  four players: ``classic``, ``litige``, ``sans-annonces``, ``tout-atout``,
  ``three-player``, ``no-contract-4p``).
- :mod:`reference.coinche`: the coinche auction and one replay of a coinche deal (7.4).
- :mod:`reference.two_player`: one replay of the two-player games (``stock-2p``, 7.2;
  ``no-contract-2p``, 7.3).

The harness (deal builders, hypothesis strategies, legality checks) is in
``tests/hand_built.py``; the solver's reference in ``tests/dd_reference.py``.
"""
