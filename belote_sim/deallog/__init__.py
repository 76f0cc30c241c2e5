"""Deal logs (``docs/spec/DEAL_LOG.md``): the format (:mod:`~belote_sim.deallog.format`),
replay checked by the engine's own kernels (:mod:`~belote_sim.deallog.replay`) and the
double-dummy analysis of every position (:mod:`~belote_sim.deallog.analyse`)."""
