"""Batch kernels: many deals in parallel blocks, counted as integers. Whole deals and
matches for simulate, compare and the arena (:mod:`~belote_sim.batch.runs`); decisions
and deals replayed with one thing changed for bid strength, the atlas and card values
(:mod:`~belote_sim.batch.counterfactuals`)."""
