"""The solver's players and tools: world sampling, knowledge, ``dd``, ``pimc``,
``analyse`` and the arena (RULES.md section 6 for the play they rely on)."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from belote_sim import PRESETS, Rules, replay
from belote_sim.cards import CardSet, parse_card
from belote_sim.deallog.analyse import analyse
from belote_sim.errors import BeloteError, IllegalPlayError
from belote_sim.infer.knowledge import learn_from_card
from belote_sim.infer.worlds import sample_worlds
from belote_sim.kernels.layout import KNOW_HELD, KNOW_SIZE, KNOW_VOID, RULE_FREE
from belote_sim.play.pimc import ALWAYS_EXACT, Pimc
from belote_sim.players.lookup import lookup_for
from belote_sim.players.seating import ALL_FAMILIES, same_players
from belote_sim.runner.jobs import RunInterrupted
from belote_sim.runner.rundir import load, read_provenance
from belote_sim.studies.arena import arena
from belote_sim.studies.simulate import simulated_deals

#: Players whose calls say nothing (random bidders), for the solver players called alone.
NO_BIDDERS = same_players(0, 0.25, 0, 0.0, *lookup_for(0), True, ALL_FAMILIES)

EXE = shutil.which("belote-sim", path=str(Path(sys.executable).parent)) or "belote-sim"
INPUTS = ("rules", "dealer", "pack", "calls", "plays")


def _mask(text: str) -> int:
    return int(CardSet(text))


def _inputs(deal: dict) -> dict:
    return {k: deal[k] for k in INPUTS}


# --- sampling -----------------------------------------------------------------------


def _consistent_worlds(hands, seat, unseen, know, n):
    """Every assignment of the unseen cards to the other seats that respects the
    hand sizes, the voids and the known cards: brute force."""
    others = [s for s in range(n) if s != seat]
    need = {s: bin(hands[s]).count("1") - bin(know[KNOW_HELD + s] & hands[s]).count("1")
            for s in others}
    cards = [c for c in range(32) if unseen >> c & 1]
    worlds = set()
    for owners in itertools.product(others, repeat=len(cards)):
        if any(owners.count(s) != need[s] for s in others):
            continue
        if any(know[KNOW_VOID + o] >> (c >> 3) & 1 for c, o in zip(cards, owners, strict=True)):
            continue
        w = [0] * 4
        w[seat] = hands[seat]
        for s in others:
            w[s] = know[KNOW_HELD + s] & hands[s]
        for c, o in zip(cards, owners, strict=True):
            w[o] |= 1 << c
        worlds.add(tuple(w))
    return worlds


def test_sampler_draws_every_consistent_world_equally_often():
    """Seat 0 must place 5 unseen cards: seat 1 is void in diamonds, seat 3 is known to
    hold 7H (the retourne, say). The 9 consistent worlds each come up about 1/9 of the
    time, and no sample breaks a constraint."""
    hands = np.zeros(4, dtype=np.int64)
    hands[0] = _mask("AS KS")
    hands[1] = _mask("7C 8C")
    hands[2] = _mask("9C 7D")
    hands[3] = _mask("8D 7H")
    played = 0xFFFFFFFF & ~int(hands[0] | hands[1] | hands[2] | hands[3])
    know = np.zeros(KNOW_SIZE, dtype=np.int64)
    know[KNOW_VOID + 1] = 1 << 1  # diamonds
    know[KNOW_HELD + 3] = _mask("7H")
    unseen = _mask("7C 8C 9C 7D 8D")
    expected = _consistent_worlds([int(h) for h in hands], 0, unseen, know, 4)
    assert len(expected) == 9
    samples = sample_worlds(hands, 0, played, 4, know, 9000, 3)
    counts = Counter(tuple(int(x) for x in row) for row in samples)
    assert set(counts) == expected
    for world, count in counts.items():
        assert abs(count - 1000) < 150, (world, count)


def test_pimc_plays_the_best_average_over_its_worlds():
    """``pimc_card`` with a seeded stream plays the card with the best total value over
    the worlds ``sample_worlds`` draws from the same seed (the same draws), each card's
    value recomputed by the solver's reference configuration (no table, no ordering, no
    merged cards, no principal variation search). Four tricks left; seat 1 (a defender)
    and seat 0 (the taker) on lead."""
    from dd_reference import deal_hands

    from belote_sim import dd
    from belote_sim.dd.kit import new_solver_kit
    from belote_sim.kernels.rng import seed_stream
    from belote_sim.play.pimc import pimc_card
    from belote_sim.players.seating import SeatView

    rules = Rules().to_array()
    trump, taker, worlds, seed = 2, 0, 6, 17
    rng0 = np.random.default_rng(4)
    for deal in range(6):
        hands = deal_hands(rng0.permutation(32), 4)
        played = 0xFFFFFFFF & ~int(hands.sum())
        seat = deal % 2
        trick = np.zeros(4, dtype=np.int64)
        sv = new_solver_kit(16)
        rng = np.zeros(1, dtype=np.uint64)
        seed_stream(rng, seed, 0, 0)
        view = SeatView(seat, trick, 0, seat, played, trump, taker, 4, 1, False)
        choice = pimc_card(rules, Pimc(worlds, ALWAYS_EXACT, False), hands[seat], hands, view,
                           rng, sv, NO_BIDDERS)
        solver = dd.Solver(rules, dd.new_context(), dd.new_table(0), dd.new_workspace())
        dd.set_context(solver.context, rules, trump, taker, 0)
        total = {c: 0 for c in range(32) if int(hands[seat]) >> c & 1}
        for world in sample_worlds(hands, seat, played, 4, sv.know, worlds, seed):
            for c in total:
                position = dd.Position(world.copy(), trick, 0, seat, 1)
                total[c] += int(dd.dd_card_value(solver, position, c, 0, 0, 0))
        best = max(total.values()) if seat % 2 == taker % 2 else min(total.values())
        assert choice == min(c for c, v in total.items() if v == best), (deal, total, choice)


@pytest.mark.parametrize("preset", ["classic", "tout-atout"])
def test_pimc_chooses_as_if_every_card_were_solved_in_every_world(preset):
    """With exact values ``pimc`` drops a card once tests against the best card so far
    show it cannot beat it (``_exact_choice``); it must still play the card that
    solving every legal card exactly in every world picks (best total, ties to the
    lowest card, merged cards sharing a value). Small positions, either side to move,
    every strain, two to nine worlds; each also with every world in turn first (the
    first world orders the cards), so that tied totals meet in every order."""
    from dd_reference import deal_hands

    from belote_sim import dd
    from belote_sim.dd.kit import new_solver_kit
    from belote_sim.play.pimc import _exact_choice
    from belote_sim.players.seating import SeatView

    rules = Rules.from_preset(preset).to_array()
    rng0 = np.random.default_rng(31)
    kit = new_solver_kit(16)
    cx = kit.context
    solver = dd.Solver(rules, cx, kit.table, kit.scratch)
    trick = np.zeros(4, dtype=np.int64)
    tied = 0
    for deal in range(60):
        size = 2 + deal % 4
        hands = deal_hands(rng0.permutation(32), size)
        trump, taker, seat, worlds = deal % 6, deal % 4, (deal // 3) % 4, 2 + deal % 8
        played = 0xFFFFFFFF & ~int(hands.sum())
        maximize = seat % 2 == taker % 2
        legal = int(hands[seat])
        choice = _pimc_choice(rules, hands, seat, trump, taker, worlds, deal, ALWAYS_EXACT)
        dd.set_context(cx, rules, trump, taker, dd.OPT_ALL)
        know = np.zeros(KNOW_SIZE, dtype=np.int64)
        sampled = sample_worlds(hands, seat, played, 4, know, worlds, deal)
        total = {c: 0 for c in range(32) if legal >> c & 1}
        for world in sampled:
            for c in total:
                position = dd.Position(world.copy(), trick, 0, seat, 1)
                total[c] += int(dd.dd_card_value(solver, position, c, 0, 0, 0))
        best = max(total.values()) if maximize else min(total.values())
        expected = min(c for c, v in total.items() if v == best)
        assert choice == expected, (deal, total, choice)
        moves = int(dd.candidates(cx, legal, 0xFFFFFFFF & ~played))
        tied += sum(v == best for c, v in total.items() if moves >> c & 1) > 1
        for first in range(worlds):
            rotated = np.roll(sampled, -first, axis=0).copy()
            view = SeatView(seat, trick, 0, seat, played, trump, taker, 4, 1, False)
            got = _exact_choice(rules, kit, rotated, legal, moves, view, maximize)
            assert got == expected, (deal, first, total, got)
    assert tied >= 5  # the ties the rotations are for


def _pimc_choice(rules, hands, seat, trump, taker, worlds, seed, exact_tricks, table_bits=16):
    from belote_sim.dd.kit import new_solver_kit
    from belote_sim.kernels.rng import seed_stream
    from belote_sim.play.pimc import pimc_card
    from belote_sim.players.seating import SeatView

    played = 0xFFFFFFFF & ~int(hands.sum())
    sv = new_solver_kit(table_bits)
    rng = np.zeros(1, dtype=np.uint64)
    seed_stream(rng, seed, 0, 0)
    view = SeatView(seat, np.zeros(4, dtype=np.int64), 0, seat, played, trump, taker, 4, 1,
                    False)
    return pimc_card(rules, Pimc(worlds, exact_tricks, False), hands[seat], hands, view, rng,
                     sv, NO_BIDDERS)


@pytest.mark.parametrize("exact_tricks", [0, ALWAYS_EXACT])
def test_pimc_with_equivalent_cards_only_plays_the_lowest_and_draws_its_worlds(exact_tricks):
    """Legal cards all equivalent (the 8 and 7 of clubs with the 9 gone, hearts trump):
    ``pimc`` (and ``fastpimc``, which would play the worlds out) plays the lowest without
    valuing them, and the deal's random stream goes on as if it had (its worlds drawn)."""
    from belote_sim.dd.kit import new_solver_kit
    from belote_sim.infer.knowledge import reset_knowledge
    from belote_sim.infer.worlds import _sample, prepare_worlds
    from belote_sim.kernels.rng import seed_stream
    from belote_sim.play.pimc import pimc_card
    from belote_sim.players.seating import SeatView

    rules = Rules().to_array()
    rng0 = np.random.default_rng(4)
    for deal in range(5):
        rest = [c for c in rng0.permutation(32) if c > 2]
        hands = np.array([0b11] + [(1 << int(rest[2 * s])) | (1 << int(rest[2 * s + 1]))
                                   for s in range(3)], dtype=np.int64)
        played = 0xFFFFFFFF & ~int(hands.sum())
        sv = new_solver_kit(10)
        reset_knowledge(sv.know)
        rng = np.zeros(1, dtype=np.uint64)
        seed_stream(rng, deal, 0, 0)
        view = SeatView(0, np.zeros(4, dtype=np.int64), 0, 0, played, 2, deal % 4, 4, 1, False)
        card = pimc_card(rules, Pimc(6, exact_tricks, False), hands[0], hands, view, rng, sv,
                         NO_BIDDERS)
        assert card == 0
        drawn = np.zeros(1, dtype=np.uint64)
        seed_stream(drawn, deal, 0, 0)
        sampler = prepare_worlds(hands, 0, played, 4, sv.know)
        for _ in range(6):
            world = np.zeros(4, dtype=np.int64)
            world[0] = hands[0]
            _sample(sampler, world, drawn)
        assert rng[0] == drawn[0]


def test_fastpimc_plays_out_the_first_tricks_with_the_heuristic():
    """While the seat holds more than ``EXACT_TRICKS`` cards, ``fastpimc`` values a card
    in each world by the deal played out by the heuristic in every seat
    (``heuristic_playout``), and plays the best total; cards the solver merges as
    equivalent share the value of the one it keeps. Seven and eight cards in hand."""
    from dd_reference import deal_hands

    from belote_sim import dd
    from belote_sim.infer.worlds import sample_worlds
    from belote_sim.play.heuristic import heuristic_playout
    from belote_sim.play.pimc import EXACT_TRICKS
    from belote_sim.players.seating import SeatView

    rules = Rules().to_array()
    trump, taker, worlds, seed = 1, 0, 5, 23
    rng0 = np.random.default_rng(8)
    cx = dd.new_context()
    dd.set_context(cx, rules, trump, taker, 0)
    for deal in range(8):
        size = 8 - deal % 2
        assert size > EXACT_TRICKS
        hands = deal_hands(rng0.permutation(32), size)
        seat = deal // 2
        played = 0xFFFFFFFF & ~int(hands.sum())
        choice = _pimc_choice(rules, hands, seat, trump, taker, worlds, seed, EXACT_TRICKS)
        legal = int(hands[seat])
        moves = int(dd.candidates(cx, legal, 0xFFFFFFFF & ~played))
        know = np.zeros(KNOW_SIZE, dtype=np.int64)
        total = {c: 0 for c in range(32) if moves >> c & 1}
        for world in sample_worlds(hands, seat, played, 4, know, worlds, seed):
            for c in total:
                h = world.copy()
                h[seat] ^= 1 << c
                trick = np.zeros(4, dtype=np.int64)
                trick[0] = c
                view = SeatView((seat + 1) % 4, trick, 1, seat, played | 1 << c, trump,
                                taker, 4, 1, False)
                total[c] += int(heuristic_playout(rules, h, view))
        for c in range(32):
            if legal >> c & 1 and c not in total:
                total[c] = total[int(dd._representative(cx, c, moves))]
        best = max(total.values()) if seat % 2 == taker % 2 else min(total.values())
        assert choice == min(c for c, v in total.items() if v == best), (deal, total, choice)


def test_fastpimc_is_pimc_from_exact_tricks_on():
    """With ``EXACT_TRICKS`` cards in hand ``fastpimc`` solves its worlds exactly: the
    same card as ``pimc`` from the same stream; with one more card it plays them out,
    and on some of these deals chooses otherwise."""
    from dd_reference import deal_hands

    from belote_sim.play.pimc import EXACT_TRICKS

    rules = Rules().to_array()
    rng0 = np.random.default_rng(5)
    differ = 0
    for deal in range(12):
        trump, taker, seat = deal % 4, deal % 3, deal % 4
        for size, same in ((EXACT_TRICKS, True), (EXACT_TRICKS + 1, False)):
            hands = deal_hands(rng0.permutation(32), size)
            fast = _pimc_choice(rules, hands, seat, trump, taker, 4, deal, EXACT_TRICKS)
            exact = _pimc_choice(rules, hands, seat, trump, taker, 4, deal, ALWAYS_EXACT)
            if same:
                assert fast == exact, (deal, hands)
            else:
                differ += fast != exact
    assert differ > 0


def test_solver_table_is_sized_for_the_players():
    """``fastpimc`` alone gets the small table, any other solver player at the table the
    large one; a workspace of solved outcomes gets its small table unless a dd bidder
    searches in it. The choices do not depend on the size (a table of 16 entries, nearly
    always overwritten, chooses as one of 2**16 does)."""
    from dd_reference import deal_hands

    from belote_sim.dd.kit import (
        FASTPIMC_TABLE_BITS,
        SOLVE_TABLE_BITS,
        TABLE_BITS,
        solver_table_bits,
    )
    from belote_sim.play.pimc import EXACT_TRICKS
    from belote_sim.players.registry import (
        BID_DD,
        BID_THRESHOLD,
        PLAY_DD,
        PLAY_FASTPIMC,
        PLAY_HEURISTIC,
        PLAY_PIMC,
    )
    from belote_sim.players.seating import ALL_FAMILIES, SidePolicies, sided_players

    def bits(bid_a, play_a, bid_b, play_b, solve=False):
        players = sided_players(SidePolicies(bid_a, 50.0, play_a, 20.0),
                                SidePolicies(bid_b, 50.0, play_b, 20.0), 4,
                                lookup_for(bid_a, bid_b), True, ALL_FAMILIES)
        return solver_table_bits(players, False, solve)

    t = BID_THRESHOLD
    assert FASTPIMC_TABLE_BITS < TABLE_BITS
    assert bits(t, PLAY_HEURISTIC, t, PLAY_HEURISTIC) == 0
    assert bits(t, PLAY_FASTPIMC, t, PLAY_HEURISTIC) == FASTPIMC_TABLE_BITS
    assert bits(t, PLAY_HEURISTIC, t, PLAY_FASTPIMC) == FASTPIMC_TABLE_BITS
    assert bits(t, PLAY_FASTPIMC, t, PLAY_PIMC) == TABLE_BITS
    assert bits(t, PLAY_PIMC, t, PLAY_FASTPIMC) == TABLE_BITS
    assert bits(t, PLAY_FASTPIMC, BID_DD, PLAY_HEURISTIC) == TABLE_BITS
    # Solved outcomes: no card is searched, only a dd bidder's calls.
    assert SOLVE_TABLE_BITS < TABLE_BITS
    assert bits(t, PLAY_DD, t, PLAY_DD, solve=True) == SOLVE_TABLE_BITS
    assert bits(BID_DD, PLAY_DD, t, PLAY_DD, solve=True) == TABLE_BITS
    rules = Rules().to_array()
    rng0 = np.random.default_rng(8)
    for deal in range(6):
        hands = deal_hands(rng0.permutation(32), EXACT_TRICKS)
        trump, taker, seat = deal % 4, (deal + 1) % 4, deal % 4
        choices = {_pimc_choice(rules, hands, seat, trump, taker, 8, deal, EXACT_TRICKS, b)
                   for b in (4, FASTPIMC_TABLE_BITS, TABLE_BITS)}
        assert len(choices) == 1, (deal, choices)


def test_sampler_three_players_keeps_cards_out_of_play():
    """With three players 8 cards are out of play: samples give each opponent its hand
    size, never a card seen or played, and respect a void."""
    rng = np.random.default_rng(5)
    order = rng.permutation(32)
    hands = np.zeros(4, dtype=np.int64)
    for s in range(3):
        for c in order[8 * s : 8 * s + 5]:
            hands[s] |= 1 << int(c)
    played = 0
    for c in order[24:27]:
        played |= 1 << int(c)
    know = np.zeros(KNOW_SIZE, dtype=np.int64)
    void_suit = 0
    # make seat 2 void in clubs for real, so the constraint is satisfiable
    clubs = int(hands[2]) & 0xFF
    hands[2] &= ~0xFF
    spare = [c for c in range(8, 32) if not (int(hands[0] | hands[1] | hands[2]) | played) >> c & 1]
    for c in spare[: bin(clubs).count("1")]:
        hands[2] |= 1 << c
    know[KNOW_VOID + 2] = 1 << void_suit
    samples = sample_worlds(hands, 0, played, 3, know, 2000, 9)
    for row in samples:
        assert row[0] == hands[0] and row[3] == 0
        for s in (1, 2):
            assert bin(int(row[s])).count("1") == bin(int(hands[s])).count("1")
            assert int(row[s]) & (int(hands[0]) | played) == 0
        assert int(row[2]) & 0xFF == 0
        assert int(row[1]) & int(row[2]) == 0


def test_knowledge_from_a_discard():
    """A player who neither follows nor trumps, where trumping was compulsory, is void
    in the suit led and in trumps; one who follows shows nothing."""
    from belote_sim.players.seating import SeatView

    rules = Rules().to_array()
    know = np.zeros(KNOW_SIZE, dtype=np.int64)
    know[KNOW_HELD + 1] = _mask("7C")
    trick = np.array([parse_card("AH"), 0, 0, 0], dtype=np.int64)
    played = 1 << parse_card("AH")
    # seats 1 and 2 each playing the trick's second card after seat 0's (spades trumps)
    view = SeatView(1, trick, 1, 0, played, 3, 0, 4, 1, False)
    learn_from_card(rules, know, view, parse_card("7C"), 0, RULE_FREE)
    assert know[KNOW_VOID + 1] == (1 << 2) | (1 << 3)  # hearts and spades (trump)
    assert know[KNOW_HELD + 1] == 0
    view = SeatView(2, trick, 1, 1, played, 3, 0, 4, 1, False)
    learn_from_card(rules, know, view, parse_card("KH"), 0, RULE_FREE)
    assert know[KNOW_VOID + 2] == 0


# --- analyse ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def heuristic_deals():
    deals = simulated_deals(Rules(), 6, 21, bid_policy="threshold", play_policy="heuristic")
    return [d for d in deals if not d.get("thrown_in")][:3]


def _sides(deal):
    return [s & 1 for s in range(4)]


def test_heuristic_playout_finishes_heuristic_deals_as_played(heuristic_deals):
    """From every position of a deal the heuristic played in every seat, the playout
    plays the rest of it again: the takers' card points still to come, that is the
    deal's ``card_points`` (last trick and capot included) less the tricks they already
    won."""
    from reference.rules_ref import TRUMP_NAMES, card_value

    from belote_sim.play.heuristic import heuristic_playout
    from belote_sim.players.seating import SeatView

    rules = Rules().to_array()
    for deal in heuristic_deals:
        full = replay(_inputs(deal))
        trump, taker = TRUMP_NAMES.index(full["trump"]), full["taker"]
        takers = taker & 1
        start = np.array([_mask(" ".join(h)) for h in full["hands"]], dtype=np.int64)
        plays = [parse_card(c) for c in deal["plays"]]
        won, cap = 0, 1
        for i in range(len(plays)):
            t, k = divmod(i, 4)
            if k == 0 and t > 0:
                prev = full["tricks"][t - 1]
                if prev["winner"] & 1 == takers:
                    won += sum(card_value(parse_card(c), trump) for c in prev["cards"])
                else:
                    cap = 0
            hands = start.copy()
            for c in plays[:i]:
                hands[[s for s in range(4) if hands[s] >> c & 1][0]] ^= 1 << c
            trick = np.zeros(4, dtype=np.int64)
            trick[:k] = plays[4 * t : i]
            played = sum(1 << c for c in plays[:i])
            leader = full["tricks"][t]["leader"]
            view = SeatView((leader + k) % 4, trick, k, leader, played, trump, taker, 4, cap,
                            False)
            value = heuristic_playout(rules, hands, view)
            assert value == full["card_points"][takers] - won, (i, deal["plays"])


def test_analyse_values_follow_the_plays(heuristic_deals):
    """``dd`` has one value per position; the last is the takers' card points of the
    deal; each card moves the value by its cost, against its own side."""
    for deal in heuristic_deals:
        out = analyse(_inputs(deal))
        full = replay(_inputs(deal))
        plays = deal["plays"]
        assert len(out["dd"]) == len(plays) + 1 and len(out["cost"]) == len(plays)
        taker_side = full["taker"] & 1
        assert out["dd"][-1] == full["card_points"][taker_side]
        seat_of = [t["leader"] for t in full["tricks"]]
        for i, cost in enumerate(out["cost"]):
            seat = (seat_of[i // 4] + i % 4) % 4
            assert cost >= 0
            if (seat & 1) == taker_side:
                assert out["dd"][i + 1] == out["dd"][i] - cost
            else:
                assert out["dd"][i + 1] == out["dd"][i] + cost
        for k in INPUTS:
            assert out[k] == deal[k]


def test_analyse_stops_anywhere(heuristic_deals):
    """Plays may stop mid-trick: the values are those of the full log's positions."""
    deal = heuristic_deals[0]
    whole = analyse(_inputs(deal))
    part = _inputs(deal)
    part["plays"] = part["plays"][:13]
    out = analyse(part)
    assert out["dd"] == whole["dd"][:14]
    assert out["cost"] == whole["cost"][:13]


def test_analyse_refuses_an_illegal_card_like_replay(heuristic_deals):
    deal = _inputs(heuristic_deals[0])
    deal["plays"] = deal["plays"][:1] + deal["plays"][:1]
    with pytest.raises(IllegalPlayError) as err:
        analyse(deal)
    with pytest.raises(IllegalPlayError) as err2:
        replay(deal)
    assert str(err.value) == str(err2.value)


def test_dd_player_never_loses_a_point():
    """The ``dd`` player sees every hand and plays a double-dummy best card, so the
    analysis of its deals finds no card that cost anything."""
    deals = simulated_deals(Rules(), 3, 4, bid_policy="threshold", play_policy="dd")
    played = [d for d in deals if not d.get("thrown_in")]
    assert played
    for deal in played:
        out = analyse(_inputs(deal))
        assert set(out["cost"]) == {0}
        assert replay(_inputs(deal))["card_points"] == deal["card_points"]


@pytest.mark.parametrize("player", ["pimc:2", "fastpimc:2"])
def test_pimc_deals_replay_legally(player):
    """``pimc`` and ``fastpimc`` choose legal cards whatever they sample (every card
    re-checked)."""
    deals = simulated_deals(Rules(), 2, 8, bid_policy="threshold", play_policy=player)
    for deal in deals:
        assert replay(_inputs(deal))["card_points"] == deal.get("card_points")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fastpimc_plays_legally_in_every_preset(preset):
    """``fastpimc``'s playouts and exact worlds in every preset's play rules (every card
    re-checked by replay)."""
    deals = simulated_deals(Rules.from_preset(preset), 4, 6, bid_policy="random",
                            play_policy="fastpimc:2")
    assert any(deal.get("plays") for deal in deals)
    for deal in deals:
        inputs = {k: deal[k] for k in INPUTS + ("redeals_before",) if k in deal}
        assert replay(inputs) == deal


@pytest.mark.parametrize("player", ["pimc", "fastpimc"])
def test_pimc_parameter_is_checked(player):
    with pytest.raises(BeloteError, match=f"{player} needs a whole number of worlds"):
        arena(f"{player}:0", "random", deals=1)
    with pytest.raises(BeloteError, match="whole number of worlds.*'2.5'"):
        arena(f"{player}:2.5", "random", deals=1)


# --- arena --------------------------------------------------------------------------


def test_arena_of_a_player_against_itself_is_exactly_even():
    """Both passes of a deal are the same game with the sides swapped: a player against
    itself scores a difference of exactly zero, deal by deal."""
    for player in ("random", "heuristic"):
        res = arena(player, player, deals=300, matches=10, seed=2)
        assert res.mean_score_diff == 0.0
        assert res.match_wins + res.match_draws + res.match_unfinished <= res.games


def test_heuristic_beats_random_widely():
    res = arena("heuristic", "random", deals=3000, matches=30, seed=4)
    assert res.diff_low > 10
    assert res.match_wins > res.games // 2
    table = res.table()
    row = table[table["metric"] == "mean_score_diff"].iloc[0]
    assert row["n"] == 3000 and row["ci_low"] == pytest.approx(res.diff_low)


def test_arena_is_a_resumable_run(tmp_path):
    """The arena runs on the chunk runner: the same figures for any chunk size or thread
    count, and a run stopped after its first chunk resumes to the same figures."""
    figures = ("mean_score_diff", "diff_low", "diff_high", "a_mean", "b_mean", "thrown_in",
               "match_wins", "match_draws", "match_unfinished", "decisions")
    kw = dict(deals=900, matches=12, seed=5)
    whole = arena("heuristic", "random", **kw)
    seen = []
    with pytest.raises(RunInterrupted):
        arena("heuristic", "random", out=tmp_path / "a", chunk_size=400, threads=1,
              progress=lambda done, total: seen.append((done, total)),
              should_stop=lambda: True, **kw)
    assert seen == [(0, 912), (400, 912)]
    resumed = arena("heuristic", "random", out=tmp_path / "a", chunk_size=400, resume=True,
                    **kw)
    assert {f: getattr(resumed, f) for f in figures} == {f: getattr(whole, f) for f in figures}
    info = json.loads((tmp_path / "a" / "run.json").read_text())
    assert info["status"] == "complete" and info["settings"]["b"] == "random"
    assert load(tmp_path / "a").metric("mean_score_diff").value == whole.mean_score_diff
    with pytest.raises(BeloteError, match="different chunk_size"):
        arena("heuristic", "random", out=tmp_path / "a", chunk_size=300, **kw)


def test_arena_refuses_three_players():
    with pytest.raises(BeloteError, match="three-player"):
        arena("random", "heuristic", rules=Rules.from_preset("three-player"), deals=10)


def test_arena_cli_writes_summary(tmp_path):
    out = tmp_path / "arena"
    proc = subprocess.run(
        [EXE, "arena", "--a", "heuristic", "--b", "random",
         "--deals", "400", "--matches", "4", "--seed", "3", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "mean score difference" in proc.stdout
    df = pd.read_parquet(out / "summary.parquet")
    row = df[df["metric"] == "mean_score_diff"].iloc[0]
    assert row["n"] == 400 and row["ci_low"] < row["value"] < row["ci_high"]
    prov = read_provenance(out / "summary.parquet")
    assert prov["a"] == "heuristic" and prov["b"] == "random" and prov["seed"] == 3
    bad = subprocess.run(
        [EXE, "arena", "--a", "nobody", "--b", "random"],
        capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 2 and "unknown play policy 'nobody'" in bad.stderr


def test_analyse_cli(tmp_path, heuristic_deals):
    log = tmp_path / "deals.jsonl"
    log.write_text("".join(json.dumps(_inputs(d)) + "\n" for d in heuristic_deals[:2]))
    proc = subprocess.run(
        [EXE, "analyse", str(log)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["dd"] for x in lines] == [analyse(_inputs(d))["dd"] for d in heuristic_deals[:2]]
    missing = subprocess.run(
        [EXE, "analyse", str(tmp_path / "nope.jsonl")],
        capture_output=True, text=True, timeout=120,
    )
    assert missing.returncode == 2 and "no such file" in missing.stderr


# --- the dd bidder ------------------------------------------------------------------


def test_dd_bidder_takes_by_its_make_chance():
    """``dd:P`` takes when at least a share P of sampled completions make the contract
    double-dummy: with P = 0 the first hand always takes the retourne, with P above 1
    nobody could, and the deals replay."""
    always = simulated_deals(Rules(), 2, 1, bid_policy="dd:0", play_policy="heuristic")
    for deal in always:
        assert deal["calls"] == ["take"]
        assert replay(_inputs(deal))["card_points"] == deal["card_points"]
    some = simulated_deals(Rules(), 3, 2, bid_policy="dd:0.5", play_policy="heuristic")
    for deal in some:
        assert replay(_inputs(deal)).get("taker") == deal.get("taker")
    with pytest.raises(BeloteError, match="not in 0..1"):
        simulated_deals(Rules(), 1, 1, bid_policy="dd:1.5")
    with pytest.raises(BeloteError, match="retourne bidding only"):
        simulated_deals(Rules.from_preset("coinche"), 1, 1, bid_policy="dd")
