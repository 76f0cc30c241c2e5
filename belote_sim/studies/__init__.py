"""What each command plays, as a job of the chunk runner: :mod:`~belote_sim.studies.simulate`,
:mod:`~belote_sim.studies.arena`, :mod:`~belote_sim.studies.compare`, the playouts
(:mod:`~belote_sim.studies.bid_strength`, :mod:`~belote_sim.studies.atlas`,
:mod:`~belote_sim.studies.card_values`, their shared :mod:`~belote_sim.studies.playouts`)
and declaration odds (:mod:`~belote_sim.studies.odds`)."""
