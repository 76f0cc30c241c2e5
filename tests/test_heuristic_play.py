"""The heuristic card player (issue 5, first step): its rules of thumb on hand-built
positions, and legal, replayable play in every preset."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote_sim import PRESETS, Rules, replay
from belote_sim.cards import NO_TRUMPS, format_card, mask_of, parse_cards
from belote_sim.play.heuristic import KEYS, _cheapest, _richest, heuristic_card
from belote_sim.players.seating import SeatView
from belote_sim.studies.simulate import PolicySpec, simulated_deals

HEARTS = 2


def play(hand, trick, leader, played=(), trump=HEARTS, taker=0, legal=None):
    """The heuristic's card for the seat after ``trick`` (four players)."""
    h = mask_of(parse_cards(hand))
    cards = parse_cards(trick) if trick else []
    t = np.zeros(4, dtype=np.int64)
    t[: len(cards)] = cards
    seen = mask_of(parse_cards(played)) | mask_of(cards) if played else mask_of(cards)
    lg = h if legal is None else mask_of(parse_cards(legal))
    k = len(cards)
    view = SeatView((leader + k) % 4, t, k, leader, np.int64(seen), trump, taker, 4, 1, False)
    return format_card(heuristic_card(np.int64(lg), np.int64(h), view))


def first_by_keys(cards, keys, better):
    """The naive form of ``_cheapest`` and ``_richest``: the cards in index order, the
    first one whose key is ``better`` than every key before it kept; -1 for none."""
    best = -1
    for c in range(32):
        if (cards >> c) & 1 and (best < 0 or better(keys[c], keys[best])):
            best = c
    return best


@settings(max_examples=300, deadline=None)
@given(
    cards=st.one_of(
        st.integers(0, 2**32 - 1),  # about half the pack
        st.sets(st.integers(0, 31), max_size=8).map(lambda cs: sum(1 << c for c in cs)),
    ),
    trump=st.integers(0, NO_TRUMPS),
)
def test_cheapest_and_richest_follow_their_keys(cards, trump):
    # the compiled choices read an order table; the keys are the order's definition
    assert _cheapest(np.int64(cards), trump) == first_by_keys(
        cards, KEYS[0, trump], lambda a, b: a < b)
    assert _richest(np.int64(cards), trump) == first_by_keys(
        cards, KEYS[1, trump], lambda a, b: a > b)


def test_gives_points_to_a_partner_whose_card_is_master():
    # seat 0 (partner of seat 2) leads the master AS; seat 2 follows with its ten
    assert play("TS 8S", ["AS", "7S"], leader=0) == "TS"


def test_plays_cheap_when_the_partner_is_winning_but_not_master():
    # seat 2's partner (seat 0) wins with KS, but AS and TS are unseen: keep the ten
    assert play("TS 8S", ["KS", "7S"], leader=0) == "8S"


def test_gives_points_when_playing_last_behind_the_partner():
    # seat 3's partner (seat 1) wins with 9S; seat 3 plays last: give the ten
    assert play("TS 8S", ["7S", "9S", "8D"], leader=0, legal="TS 8S") == "TS"


def test_wins_with_the_cheapest_winning_card():
    # opponent (seat 1) leads KS: AS and TS both win, the ten is the cheaper winner
    assert play("AS TS 7S", ["KS"], leader=1) == "TS"


def test_discards_the_cheapest_card_when_it_cannot_win():
    assert play("TS 7S", ["AS"], leader=1) == "7S"


def test_taker_draws_trumps_with_a_master_trump():
    assert play("JH 7H AS", [], leader=0, taker=0) == "JH"


def test_defender_leads_a_master_plain_card_not_trumps():
    # seat 1 defends (taker 0): no trump lead; the master AS is led
    assert play("AS 7C JH", [], leader=1, taker=0) == "AS"


def test_keeps_jack_and_nine_of_trumps_when_giving_points():
    # partner master on a trump lead is impossible to follow here: seat 2 is void in
    # spades, partner (seat 0) wins with the master AS, seat 2 may play anything
    assert play("JH 9H TD", ["AS", "7S"], leader=0, played=["AS", "7S"]) == "TD"


def test_heuristic_policy_is_selectable():
    assert PolicySpec.parse("heuristic", "play").id == 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_heuristic_play_is_legal_and_replays_in_every_preset(preset):
    rules = Rules.from_preset(preset)
    for deal in simulated_deals(rules, 60, seed=5, play_policy="heuristic"):
        inputs = {k: deal[k] for k in ("rules", "dealer", "pack", "calls", "plays")}
        if "redeals_before" in deal:
            inputs["redeals_before"] = deal["redeals_before"]
        assert replay(inputs) == deal  # replay checks every card against its legal set


def test_an_illegal_card_from_a_policy_is_refused_not_played():
    """Every card a policy chooses goes through the legality check replay's cards go
    through: a broken player stops the run with an error instead of dealing an illegal
    deal. Shown in plain-Python mode, where the trick loop's heuristic can be swapped
    for a broken one."""
    code = (
        "import belote_sim.game.tricks as T\n"
        "from belote_sim import Rules, simulate\n"
        "broken = lambda legal, *rest: min(c for c in range(32) if not legal >> c & 1)\n"
        "T.heuristic_card = broken\n"
        "try:\n"
        "    simulate(Rules(), deals=20, seed=1, play_policy='heuristic', threads=1)\n"
        "except RuntimeError as e:\n"
        "    print('refused:', e)\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", code],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert "refused:" in out and "illegal policy choice" in out, out
