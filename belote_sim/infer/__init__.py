"""What a seat can infer of the cards it cannot see: its ``knowledge`` (kept card by card
by the engine), the ``auction`` (whether a world makes the calls that were made, by the
seats' own bidders) and the ``worlds`` its solver players sample.
"""
