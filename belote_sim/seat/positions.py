"""A position seen from one seat: a deal the engine can replay to it, and the choice of
the seat's player there.

A seat sees its own cards, the retourne, the calls and the cards played. The engine
replays a position only from a whole pack, so :func:`decide_at` completes what the seat
saw into packs (:func:`_complete`: the seat's cards, the retourne and the cards each
other seat has played or shown at pack positions that seat was dealt, the unseen cards
shuffled into the others, then each other seat's cards shuffled among its positions)
until one replays the calls and cards so far without an error (a card another seat
played must have been legal from the hand the pack gives it: its voids). The engine
then lets the players choose the next call or card
(:func:`~belote_sim.game.state.deciding`). A fair player sees only what its seat sees,
so its choice is the same in every such pack; ``dd`` sees every hand, and is given the
true deal by its caller.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from belote_sim._jit import jit
from belote_sim.batch.counterfactuals import side_scores
from belote_sim.dd.kit import VALUES_ROW, VALUES_WORLDS
from belote_sim.game.deals import play_deal
from belote_sim.game.state import (
    checked_script,
    deciding,
    new_workspace,
    position_of,
    script_of,
)
from belote_sim.kernels.bits import ctz
from belote_sim.kernels.deal import complete_pack
from belote_sim.kernels.declarations import shown_cards
from belote_sim.kernels.layout import (
    ERR_ITEM,
    ERR_LEGAL,
    ERR_SEAT,
    ERR_STEP,
    HANDS,
    MAX_SEATS,
    ST_ILLEGAL_CARD,
    ST_MISSING_CALLS,
    ST_MISSING_PLAYS,
)
from belote_sim.kernels.rng import rand_below, seed_stream
from belote_sim.rules import R_PLAYERS

#: What a seat saw, as a pack to complete: ``fixed_cards[j]`` at ``fixed_pos[j]`` (its
#: cards, the retourne, the cards the others played or showed), the ``unseen`` cards to
#: shuffle into the ``free_pos`` positions; the positions of each other seat's cards
#: (``mixed_pos``, the seats one after another, each ending at its ``mixed_end``), among
#: which its cards are then shuffled (:func:`_mix_seats`); and, once it saw the
#: declarations shown (``declared``), the cards each seat showed (``shown``, masks by
#: seat): a pack must show the same (:func:`_shows_as_seen`).
Seen = namedtuple("Seen", ["fixed_pos", "fixed_cards", "free_pos", "unseen", "mixed_pos",
                           "mixed_end", "shown", "declared"])

#: The history of a position: the ``calls`` and ``plays`` so far (call codes, card
#: indices), the ``dealer``, and whether the next step is a call (``bidding``).
History = namedtuple("History", ["calls", "plays", "dealer", "bidding"])

#: The stream keys of a position: its packs, the decision, and the deals played from
#: each pack (:func:`card_values`).
KEY_PACK = 0
KEY_DECIDE = 1
KEY_VALUE = 2

#: What :func:`decide_at` returns, by index: the engine's status (``ST_DECIDED``, or the
#: error of the history), the index of the call or card decided (or of the error), its
#: seat, the call code or card, the legal cards (a card decision), and the packs tried.
OUT_STATUS = 0
OUT_STEP = 1
OUT_SEAT = 2
OUT_ITEM = 3
OUT_LEGAL = 4
OUT_TRIES = 5
N_OUT = 6


@jit
def decide_at(rules, players, seen, history, seed, max_tries):
    """The choice of ``players`` at the position after ``history`` (a :class:`History`)
    seen as ``seen`` (a :class:`Seen`): ``int64[N_OUT]`` (``OUT_*``), the engine's
    record of the last replay (to explain an error), and a ``pimc`` player's values of
    the cards (``int64[33]``: per card the takers' points summed over its worlds, then
    the number of worlds; 0 worlds for the other players,
    :func:`~belote_sim.play.pimc.pimc_values`). A pack is kept
    when the engine replays the history in it and stops where the history ends, showing
    the declarations the seat saw shown; a pack in which another seat's card is illegal
    (the voids it showed), or that shows other declarations, is tried again, at
    most ``max_tries`` packs (stream ``(seed, try, KEY_PACK)``); any other error is the
    history's, whatever the pack, and is returned at once. The decision plays from the
    stream ``(seed, 0, KEY_DECIDE)``."""
    out = np.zeros(N_OUT, dtype=np.int64)
    ws = new_workspace(players, False, False, False)
    check = script_of(history.calls, history.plays)
    ends = ST_MISSING_CALLS if history.bidding else ST_MISSING_PLAYS
    at = len(history.calls) if history.bidding else len(history.plays)
    rec = ws.rec
    shown = np.zeros(MAX_SEATS, dtype=np.int64)
    for t in range(max_tries):
        seed_stream(ws.rng, seed, t, KEY_PACK)
        _complete(ws.pack, seen, ws.rng)
        status = play_deal(rules, players, check, ws, history.dealer, 0, 0)
        out[OUT_TRIES] = t + 1
        if status == ends and rec[ERR_STEP] == at:
            if not _shows_as_seen(rules, ws, seen, shown):
                continue
            seed_stream(ws.rng, seed, 0, KEY_DECIDE)
            status = play_deal(rules, players, deciding(history.calls, history.plays), ws,
                               history.dealer, 0, 0)
            _record(out, status, rec)
            return out, rec.copy(), _values(ws.kit.analysis)
        if status != ST_ILLEGAL_CARD:
            _record(out, status, rec)
            return out, rec.copy(), np.zeros(33, dtype=np.int64)
    _record(out, ST_ILLEGAL_CARD, rec)
    return out, rec.copy(), np.zeros(33, dtype=np.int64)


@jit
def _complete(pack, seen, rng):
    """A pack completing what the seat saw (:func:`~belote_sim.kernels.deal.complete_pack`),
    each other seat's cards then in a uniform order over its positions
    (:func:`_mix_seats`)."""
    complete_pack(pack, seen.fixed_pos, seen.fixed_cards, seen.free_pos, seen.unseen, rng)
    _mix_seats(pack, seen.mixed_pos, seen.mixed_end, rng)


@jit
def _mix_seats(pack, mixed_pos, mixed_end, rng):
    """Shuffle each other seat's cards among its positions (Fisher-Yates on ``rng``).
    The cards it played or showed are placed at some of its positions, and in the
    retourne games its first five positions are the cards it bid with: which of its
    cards those were, the seat does not know, so every order is equally likely."""
    start = 0
    for g in range(len(mixed_end)):
        end = mixed_end[g]
        for i in range(end - 1, start, -1):
            j = start + rand_below(rng, i - start + 1)
            a, b = mixed_pos[i], mixed_pos[j]
            tmp = pack[a]
            pack[a] = pack[b]
            pack[b] = tmp
        start = end


@jit
def _shows_as_seen(rules, ws, seen, shown):
    """Whether the deal in ``ws`` shows the declarations the seat saw shown (any, while
    it saw none: :class:`Seen` ``declared`` false); ``shown`` is scratch
    (``int64[MAX_SEATS]``), so that no pack tried allocates."""
    if not seen.declared:
        return True
    n = rules[R_PLAYERS]
    shown[:] = 0
    shown_cards(rules, ws.rec, ws.rec[HANDS:HANDS + n], n, ws.sides, ws.decl, shown, 0)
    return (shown[:n] == seen.shown[:n]).all()


@jit
def _values(analysis):
    """The values :func:`~belote_sim.play.pimc.pimc_values` left in the kit, and the
    number of worlds (0 when no ``pimc`` player valued the cards)."""
    values = np.zeros(33, dtype=np.int64)
    worlds = analysis[VALUES_WORLDS]
    if worlds > 0:
        values[:32] = analysis[VALUES_ROW, :32]
        values[32] = worlds
    return values


@jit
def _record(out, status, rec):
    out[OUT_STATUS] = status
    out[OUT_STEP] = rec[ERR_STEP]
    out[OUT_SEAT] = rec[ERR_SEAT]
    out[OUT_ITEM] = rec[ERR_ITEM]
    out[OUT_LEGAL] = rec[ERR_LEGAL]


@jit
def card_values(rules, players, seen, history, checked, seed, worlds, max_tries):
    """What each legal card of the seat to play is worth at the position after
    ``history`` (a card decision), over ``worlds`` packs completing what the seat saw
    (found as :func:`decide_at` finds them, at most ``max_tries`` packs) in which every
    call of the mask ``checked`` (bit ``i``: call ``i``) is the call its seat's bidding
    policy makes there (rejection: the packs are uniform among those that give the
    calls): in each pack every legal card is played, then ``players`` play every later
    card from the stream ``(seed, pack, KEY_VALUE)``, the same for every card (common
    random numbers).

    Returns ``diff2`` (``int64[k, 32]``: twice the seat's side's deal score minus the
    opponents', :func:`~belote_sim.batch.counterfactuals.side_scores`), ``made``
    (``bool[k, 32]``: its side took and made), the legal mask and the packs tried; ``k``
    packs were found."""
    ws = new_workspace(players, False, False, False)
    rec = ws.rec
    n = rules[R_PLAYERS]
    check = checked_script(history.calls, history.plays, checked)
    at = len(history.plays)
    plays = np.empty(at + 1, dtype=np.int64)
    plays[:at] = history.plays
    diff2 = np.zeros((worlds, 32), dtype=np.int64)
    made = np.zeros((worlds, 32), dtype=np.bool_)
    pack = np.empty(32, dtype=np.int64)
    shown = np.zeros(MAX_SEATS, dtype=np.int64)
    legal = 0
    found = 0
    tries = 0
    while found < worlds and tries < max_tries:
        seed_stream(ws.rng, seed, tries, KEY_PACK)
        _complete(ws.pack, seen, ws.rng)
        tries += 1
        status = play_deal(rules, players, check, ws, history.dealer, 0, 0)
        if status != ST_MISSING_PLAYS or rec[ERR_STEP] != at:
            continue
        if not _shows_as_seen(rules, ws, seen, shown):
            continue
        legal = rec[ERR_LEGAL]
        seat = rec[ERR_SEAT]
        pack[:] = ws.pack
        m = legal
        while m != 0:
            c = ctz(m)
            m &= m - 1
            plays[at] = c
            ws.pack[:] = pack
            seed_stream(ws.rng, seed, found, KEY_VALUE)
            play_deal(rules, players, position_of(history.calls, plays), ws, history.dealer,
                      0, 0)
            _, won, _, _, _, _, d2 = side_scores(rec, seat, n)
            diff2[found, c] = d2
            made[found, c] = won
        found += 1
    return diff2[:found], made[:found], legal, tries


@jit
def play_on(rules, players, pack, history, seed):
    """The deal of ``pack`` played on by ``players`` from the position after
    ``history``, from the stream of :func:`decide_at`'s choice, ``(seed, 0,
    KEY_DECIDE)``: the engine's record. A fair player makes the same choice here as
    :func:`decide_at` from any pack completing its seat's view (what the seat object's
    test checks)."""
    ws = new_workspace(players, False, False, False)
    ws.pack[:] = pack
    seed_stream(ws.rng, seed, 0, KEY_DECIDE)
    play_deal(rules, players, position_of(history.calls, history.plays), ws,
              history.dealer, 0, 0)
    return ws.rec.copy()
