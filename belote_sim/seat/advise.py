"""Advice from one seat's view: every legal call or card of one position, its value
under a player, and the player's choice. The library side of ``belote-sim advise``.

The position is what the seat saw (:class:`~belote_sim.seat.seat.Seat`): its cards,
the dealer, the retourne, the calls and the cards played so far. The choice is the
seat's player's, made by the engine. The values:

* a call: :func:`~belote_sim.studies.bid_strength.bid_strength` with the player as the
  play model, in worlds given the calls so far;
* a card: in ``worlds`` deals completing what the seat saw and giving the calls of
  the other seats under ``bid_policy`` (the calls ``bid-strength``'s worlds give,
  :func:`~belote_sim.studies.bid_strength.calls_to_check`; none under the ``random``
  bidder, whose calls say nothing), found by rejection
  (:func:`belote_sim.seat.positions.card_values`): each legal card is played, and the
  deal played out in every seat by the player, the same random stream for every card.
  A ``pimc`` or ``fastpimc`` player values each world as it does when it chooses: the
  deal is played out by the heuristic while the seat holds more cards than it solves
  exactly (``fastpimc``: 6), double-dummy (``dd`` in every seat) from there on; the
  deal score is the engine's. So these are its values over more worlds than it draws
  itself, as deal scores rather than the takers' points it maximises; its choice
  (marked) comes from its own worlds, and where they disagree the difference is within
  the player's sampling.

The table (:func:`advise`): one row per candidate, ``candidate``, ``mean_difference``
(the seat's side's deal score minus the opponents', per deal) with ``difference_low``
and ``difference_high`` (95%), ``p_made`` (its side takes and makes) with its Wilson
interval, ``worlds``, and ``chosen``.

>>> df = advise("classic", "JH 9H AH 7D 8C", seat=1, dealer=0, retourne="TH", worlds=200)
>>> df.loc[df.chosen, "candidate"].item()
'take'
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from belote_sim.cards import format_card, parse_card
from belote_sim.cards import parse_cards as _parse_cards
from belote_sim.errors import BeloteError
from belote_sim.infer.worlds import TRIES_PER_WORLD
from belote_sim.play.dispatch import pimc_of
from belote_sim.players.registry import PIMC_PLAYS
from belote_sim.players.spec import PolicySpec, as_spec
from belote_sim.rules import Rules
from belote_sim.runner.jobs import check_int
from belote_sim.runner.rundir import software
from belote_sim.seat import positions
from belote_sim.seat.seat import MAX_TRIES, Seat
from belote_sim.stats import mean_interval, wilson_interval
from belote_sim.studies.playouts import rules_of
from belote_sim.studies.simulate import DEFAULT_BID_POLICY, DEFAULT_PLAY_POLICY

#: Worlds of an advice by default.
ADVISE_WORLDS = 1000
#: The table's columns.
COLUMNS = ("candidate", "mean_difference", "difference_low", "difference_high", "p_made",
           "p_made_low", "p_made_high", "worlds", "chosen")


def _words(text: str | Iterable[str]) -> list[str]:
    return text.split() if isinstance(text, str) else [str(t) for t in text]


def advise(rules: Rules | str, hand: str | Iterable[str], *, seat: int, dealer: int,
           retourne: str | None = None, calls: str | Iterable[str] = (),
           plays: str | Iterable[str] = (), shown: str | dict | None = None,
           player: str | PolicySpec = DEFAULT_PLAY_POLICY,
           bid_policy: str | PolicySpec = DEFAULT_BID_POLICY, worlds: int = ADVISE_WORLDS,
           seed: int = 0) -> pd.DataFrame:
    """Every legal call or card of the position, its value under ``player`` and the
    player's choice (the module docstring's table, provenance in ``df.attrs``).

    ``hand`` is every card the seat was dealt: five in the retourne games while the
    auction runs, eight once it is over (the taker's with the retourne), eight in
    coinche. ``shown``: the declarations shown, by seat (:meth:`Seat.observe_declarations`),
    as a mapping or as text ``"1: 7H 8H 9H; 3: JS JH JD JC"``.

    :raises BeloteError: one line for a bad position: a card twice, a card the seat
        holds played by someone else, a call or card of the history that breaks a rule,
        the wrong number of cards, or not the seat's turn.
    """
    rules = rules_of(rules)
    worlds = check_int("worlds", worlds, 1, 1_000_000)
    calls, plays = _words(calls), _words(plays)
    cards = _parse_cards(hand)
    r = parse_card(retourne) if retourne else -1
    s = Seat(rules, seat, player=player, bid_policy=bid_policy, seed=seed)
    first = [c for c in cards if c != r][:5] if r >= 0 else cards
    s.start([format_card(c) for c in first], dealer=dealer, retourne=retourne)
    for c in calls:
        s.observe_call(c)
    later = [c for c in cards if c not in first]
    if later:
        s.receive([format_card(c) for c in later])
    for c in plays:
        s.observe_card(c)
    if shown is not None:
        s.observe_declarations(parse_shown(shown) if isinstance(shown, str) else shown)
    choice = s.decide()
    how: dict = {}
    if choice.kind == "call":
        df = _call_values(s, cards, retourne, calls, worlds, seed)
    else:
        df, how = _card_values(s, worlds, seed)
    df["chosen"] = df.candidate == choice.item
    df = df[list(COLUMNS)].reset_index(drop=True)
    df.attrs["provenance"] = {
        "command": "advise", "rules": rules.describe(), "hand": [format_card(c) for c in cards],
        "seat": int(seat), "dealer": int(dealer), "retourne": retourne, "calls": calls,
        "plays": plays, "shown": s.shown(), "player": str(s.player),
        "bid_policy": str(s.bid_policy),
        "worlds": worlds, "seed": int(seed), "kind": choice.kind, "choice": choice.item,
        **how, **software(),
    }
    return df


def parse_shown(text: str) -> dict[int, str]:
    """The declarations shown, ``"SEAT: CARDS; SEAT: CARDS"``, by seat.

    >>> parse_shown("1: 7H 8H 9H; 3: JS JH JD JC")
    {1: '7H 8H 9H', 3: 'JS JH JD JC'}

    :raises BeloteError: a part that is not ``SEAT: CARDS``."""
    out: dict[int, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        who, sep, cards = part.partition(":")
        if not sep or not who.strip().isdigit() or not cards.strip():
            raise BeloteError(f"shown {part!r}: write SEAT: CARDS, e.g. '1: 7H 8H 9H'")
        out[int(who)] = cards.strip()
    return out


def _call_values(s: Seat, cards: list[int], retourne: str | None, calls: list[str],
                 worlds: int, seed: int) -> pd.DataFrame:
    from belote_sim.studies.bid_strength import bid_strength

    rules = s.rules
    where: dict = {"calls": " ".join(calls)}
    if rules.contract != "coinche":
        where = {"round": len(calls) // rules.players + 1, "retourne": retourne}
    table = bid_strength(rules, [format_card(c) for c in cards], seat=s.seat,
                         dealer=s.dealer, worlds=worlds, seed=seed,
                         bid_policy=s.bid_policy, models=[s.player], **where)
    rows = []
    for group in table[table.metric == "mean_difference"].group:
        call = group.split("call=")[1]
        diff = table[(table.metric == "mean_difference") & (table.group == group)].iloc[0]
        made = table[(table.metric == "p_made") & (table.group == group)].iloc[0]
        rows.append({"candidate": call, "mean_difference": diff.value,
                     "difference_low": diff.ci_low, "difference_high": diff.ci_high,
                     "p_made": made.value, "p_made_low": made.ci_low,
                     "p_made_high": made.ci_high, "worlds": int(diff.n)})
    return pd.DataFrame(rows)


def playout_of(player: PolicySpec, held: int) -> PolicySpec:
    """The player that plays a world out after each candidate card: ``player`` itself,
    or for a ``pimc`` or ``fastpimc`` player its own value of a world: ``dd`` while the
    seat holds at most the cards it solves exactly, the ``heuristic`` before."""
    if player.id not in PIMC_PLAYS:
        return player
    # the plain function: a jitted call from Python would compile it in every process
    exact = pimc_of.py_func(player.id, float(player.value)).exact_tricks
    return as_spec("dd" if held <= exact else "heuristic", "play")


def _card_values(s: Seat, worlds: int, seed: int) -> tuple[pd.DataFrame, dict]:
    from belote_sim.players.seating import players_of

    history, seen = s.position()
    playout = playout_of(s.player, s.held())
    from belote_sim.studies.bid_strength import calls_to_check

    checked = calls_to_check(s.speakers(), s.seat, s.bid_policy, "use another --bid-policy")
    max_tries = max(MAX_TRIES, worlds * TRIES_PER_WORLD)
    rules = s.rules.to_array()
    diff2, made, legal, tries = positions.card_values(
        rules, players_of(s.bid_policy, playout, rules, with_solver=True), seen, history,
        np.int64(checked), np.int64(seed), np.int64(worlds), np.int64(max_tries))
    k = len(diff2)
    if k == 0:
        given = " and the calls" if checked else ""
        raise BeloteError(f"no deal of the unseen cards in {int(tries):,} tries gives the "
                          f"cards played{given}")
    rows = []
    for c in range(32):
        if not (int(legal) >> c) & 1:
            continue
        d = diff2[:, c].astype(float) / 2
        mean, _, low, high = mean_interval(float(d.sum()), float((d * d).sum()), k)
        won = int(made[:, c].sum())
        p_low, p_high = wilson_interval(won, k)
        rows.append({"candidate": format_card(c), "mean_difference": mean,
                     "difference_low": low, "difference_high": high, "p_made": won / k,
                     "p_made_low": p_low, "p_made_high": p_high, "worlds": k})
    how = {"playout": str(playout), "worlds_given": "calls" if checked else "uniform",
           "packs_tried": int(tries)}
    return pd.DataFrame(rows), how
