"""The run machinery every long command shares: the chunk runner
(:mod:`~belote_sim.runner.jobs`: a job's chunks played, committed, resumed), where chunks
run (:mod:`~belote_sim.runner.executors`, :mod:`~belote_sim.runner.distributed`) and
the files of a run directory (:mod:`~belote_sim.runner.rundir`)."""
