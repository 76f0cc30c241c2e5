"""Runs: what users start, on top of the game engine.

:mod:`~belote_sim.runs.runner` plays the chunks of every run (``simulate``, and the
arena of :mod:`~belote_sim.runs.arena`) on an executor (:mod:`~belote_sim.runs.executors`,
:mod:`~belote_sim.runs.distributed`), resumably; :mod:`~belote_sim.runs.replay`,
:mod:`~belote_sim.runs.analyse` and :mod:`~belote_sim.runs.deallog` read and check deal
logs; :mod:`~belote_sim.runs.odds` computes declaration odds;
:mod:`~belote_sim.runs.stats` turns counters into tables and :mod:`~belote_sim.runs.io`
writes and reads run directories; :mod:`~belote_sim.runs.engine` and
:mod:`~belote_sim.runs.solver` are validating wrappers of the rule kernels and the
solver.
"""
