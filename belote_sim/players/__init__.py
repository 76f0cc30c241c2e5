"""The players: the registry of the bidding and card-play policies (``registry``), the
parser of their ``name[:param]`` specs (``spec``) and who sits where (``seating``: the
:class:`~belote_sim.players.seating.Players` every kernel reads, and what the seat to
play sees). The policies themselves live in their rooms: ``belote_sim.bid`` (the
bidders), ``belote_sim.play`` (the card players), ``belote_sim.infer`` (what a seat
knows of the hidden cards, its worlds) and ``belote_sim.dd`` (the double-dummy solver).
"""
