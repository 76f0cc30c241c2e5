"""The bidders: each policy's call (``retourne``: random and threshold in the retourne
games; ``coinche``: random and threshold in the coinche auction; ``table_bidder``: the
bid atlas's best call; ``dd_bidder``: calls by double-dummy solves), and ``dispatch``,
the one place the engine and the worlds ask a seat's policy for its call.
"""
