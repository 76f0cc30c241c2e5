"""One seat's view of a deal: the :class:`~belote_sim.seat.seat.Seat` an app or a bot
framework drives, ``advise`` (every legal call or card of a position, valued), and
``positions``, their engine half (a position replayed from what the seat saw, and its
player's choice there).
"""
