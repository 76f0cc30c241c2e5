"""The named state of a deal in play, handed from phase to phase.

* :class:`Workspace`: the scratch arrays of one thread (the deal's record, the pack,
  the hands, the trick, declarations, sides, the random stream), the solver kit, and
  :class:`Watch`, the observers switched on for the workspace's life.
* :class:`Script`: the calls and cards of a deal log. A scripted deal takes every call
  and card from its script instead of the players, through the same choose, check and
  record steps (:func:`scripted_call`, :func:`scripted_card`). An *opening* script
  (:func:`opening_of`) gives only the first calls of the auction, and the players
  choose from there (a bidding decision put to the test, :mod:`belote_sim.batch.counterfactuals`).
* :class:`TrickPlan`: how many tricks, and the stock game's free tricks and draws.

The players of a deal are :class:`belote_sim.players.seating.Players`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import types
from numba.extending import overload

from belote_sim._jit import KERNEL_OPTIONS, jit
from belote_sim.dd.kit import new_solver_kit, solver_table_bits
from belote_sim.kernels.layout import MAX_DECLS, MAX_SEATS, REC_SIZE
from belote_sim.players.registry import SOLVER_PLAYS

#: What the engine observes besides the deal itself, set once per workspace: ``know``
#: keeps every seat's knowledge (voids shown, cards known) for the solver players;
#: ``timing`` counts each side's decisions and their cycles (the arena); ``analyse``
#: records the double-dummy value of every position of a scripted deal; ``solve``
#: settles the tricks of a four-player deal by one double-dummy solve instead of
#: playing them (the ``dd`` model of bid strength, :func:`~belote_sim.game.tricks.play_tricks`).
Watch = namedtuple("Watch", ["know", "timing", "analyse", "solve"])

#: One thread's deal in play: ``rec`` (the record, layout of
#: :mod:`belote_sim.kernels.layout`), ``pack`` (int64[32], top first), ``hands``,
#: ``trick``, ``decl`` (declarations scratch), ``sides`` (each seat's side in this
#: deal), ``rng`` (the random stream), ``kit`` (the solver kit, ``None`` for players who
#: need no solver) and ``watch``. Every use of the kit goes through a function that
#: receives it as an argument and tests it ``is None`` (:mod:`belote_sim.game.observers`,
#: the players' entry points): that test is what lets Numba leave the solver out.
Workspace = namedtuple(
    "Workspace", ["rec", "pack", "hands", "trick", "decl", "sides", "rng", "kit", "watch"]
)

#: A deal log's calls and cards (``on`` false: the players choose). With ``open_end``
#: the players choose what comes after the script's last call or card; without it a
#: missing call or card is an error of the deal log. ``checked`` (int64 bit mask): bit
#: ``i`` set, the script's call ``i`` must also be the call its seat's bidding policy
#: makes there, else the deal stops with ``ST_OTHER_CALL`` (the worlds given the
#: auction, :func:`given_calls`). With ``decide`` the deal stops with ``ST_DECIDED`` as
#: soon as the players have chosen the call or card after the script's end, the choice
#: in the record's ``ERR_*`` fields (:func:`deciding`).
Script = namedtuple("Script", ["on", "calls", "n_calls", "plays", "n_plays", "open_end",
                               "checked", "decide"])

#: The tricks of a deal: ``n_tricks``; in the stock game the first ``free_tricks`` allow
#: any card and the winner then draws ``pack[stock_pos]`` (-1: no stock); with
#: ``belote_at_play`` belote scores when played (RULES 7.2).
TrickPlan = namedtuple("TrickPlan", ["n_tricks", "stock_pos", "free_tricks", "belote_at_play"])

#: What :func:`scripted_call` and :func:`scripted_card` return past the script's end.
MISSING = -1


@jit
def new_workspace(players, timing, analyse, solve):
    """A workspace for ``players``: knowledge is kept when one of them plays with the
    solver, the solver kit's table is sized for them (or for ``analyse``); the flags
    are the :class:`Watch`'s. Players who need no solver (``players.solver`` is
    ``None``) get a workspace without kit, which watches nothing."""
    return _workspace(players.solver, players, timing, analyse, solve)


@jit
def _workspace(solver, players, timing, analyse, solve):
    """:func:`new_workspace`, ``solver`` passed on as an argument so that Numba drops
    the kit of players who need none (its type is ``None``) instead of compiling it."""
    if solver is None:
        watch = Watch(False, False, False, False)
    else:
        know = False
        for policy in players.play:
            if policy in SOLVER_PLAYS:
                know = True
        watch = Watch(know, timing, analyse, solve)
    return Workspace(
        np.zeros(REC_SIZE, dtype=np.int64),
        np.zeros(32, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros((MAX_DECLS, 4), dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        _kit(solver, players, analyse, solve),
        watch,
    )


def _kit(solver, players, analyse, solve):
    """The solver kit of a workspace for ``players`` (its table sized for them and the
    :class:`Watch` flags, :func:`solver_table_bits`), or none when ``solver`` is ``None``
    (kernels run as plain Python)."""
    if solver is None:
        return None
    return new_solver_kit(solver_table_bits(players, analyse, solve))


@overload(_kit, jit_options=KERNEL_OPTIONS)
def _kit_compiled(solver, players, analyse, solve):
    """:func:`_kit` chosen by the type of ``solver``: a branch on ``solver is None``
    would not be dropped for a ``bool`` (only for a literal), and its two arms would
    type the kit as optional, a type a workspace built in Python (with its kit) never
    has, so that every entry from Python compiled the deal again."""
    if isinstance(solver, types.NoneType):
        return lambda solver, players, analyse, solve: None
    return lambda solver, players, analyse, solve: new_solver_kit(
        solver_table_bits(players, analyse, solve))


@jit
def no_script():
    """The script of a deal the players play."""
    none = np.zeros(0, dtype=np.int64)
    return Script(False, none, np.int64(0), none, np.int64(0), False, np.int64(0), False)


@jit
def script_of(calls, plays):
    """The script of a deal log's ``calls`` and ``plays`` (call codes, card indices)."""
    return Script(True, calls, np.int64(len(calls)), plays, np.int64(len(plays)), False,
                  np.int64(0), False)


@jit
def checked_script(calls, plays, checked):
    """:func:`script_of` ``calls`` and ``plays``, the calls of the mask ``checked``
    checked against the seats' bidding policies (:func:`given_calls`): a deal played
    with it ends with ``ST_OTHER_CALL`` at the first call a policy would not make."""
    return Script(True, calls, np.int64(len(calls)), plays, np.int64(len(plays)), False,
                  np.int64(checked), False)


@jit
def opening_of(calls):
    """A script of the auction's first ``calls`` only: the players choose every later
    call and every card."""
    none = np.zeros(0, dtype=np.int64)
    return Script(True, calls, np.int64(len(calls)), none, np.int64(0), True, np.int64(0), False)


@jit(inline="always")
def leaves_every_card(script):
    """Whether the players choose every card of the deal: no script, or a script of
    calls only that leaves the cards to them (:func:`opening_of`)."""
    return not script.on or (script.n_plays == 0 and script.open_end and not script.decide)


@jit
def given_calls(calls, checked):
    """A script of the auction's first ``calls`` that checks those of the mask
    ``checked`` against the seats' bidding policies and stops after the last: a deal
    played with it ends with ``ST_OTHER_CALL`` at the first call a policy would not
    make, else with ``ST_MISSING_CALLS`` at call ``len(calls)`` (every checked call is
    the policy's)."""
    none = np.zeros(0, dtype=np.int64)
    return Script(True, calls, np.int64(len(calls)), none, np.int64(0), False,
                  np.int64(checked), False)


@jit
def position_of(calls, plays):
    """A script of a position: the deal's ``calls`` and ``plays`` so far; the players
    choose every later call and card."""
    return Script(True, calls, np.int64(len(calls)), plays, np.int64(len(plays)), True,
                  np.int64(0), False)


@jit
def deciding(calls, plays):
    """The script of a position: the deal's ``calls`` and ``plays`` so far, then the
    players choose the next call or card and the deal stops (``ST_DECIDED``) with the
    choice in ``rec[ERR_ITEM]``, its index in ``rec[ERR_STEP]``, the seat in
    ``rec[ERR_SEAT]``, and for a card the legal mask in ``rec[ERR_LEGAL]``."""
    return Script(True, calls, np.int64(len(calls)), plays, np.int64(len(plays)), True,
                  np.int64(0), True)


@jit(inline="always")
def is_checked(script, i):
    """Whether the script's call ``i`` is to be checked against the seat's policy."""
    return i < script.n_calls and ((script.checked >> i) & 1) != 0


@jit(inline="always")
def scripted_call(script, i):
    """The script's call number ``i``, :data:`MISSING` past its end."""
    return script.calls[i] if i < script.n_calls else MISSING


@jit(inline="always")
def scripted_card(script, i):
    """The script's card number ``i``, :data:`MISSING` past its end."""
    return script.plays[i] if i < script.n_plays else MISSING
