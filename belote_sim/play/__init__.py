"""The card players: ``heuristic`` (a club player's rules of thumb), ``pimc`` (``pimc``,
``fastpimc`` and ``dd``, by the double-dummy solver over sampled worlds), and
``dispatch``, the one place the trick loop asks a seat's policy for its card.
"""
