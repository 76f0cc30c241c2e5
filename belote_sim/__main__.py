"""``python -m belote_sim``: the ``belote-sim`` command."""

from belote_sim.console import main

if __name__ == "__main__":  # not when a test collector imports the module
    main()
