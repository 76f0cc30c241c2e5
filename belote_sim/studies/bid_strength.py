"""Bid strength of one hand: every call a seat may make at one bidding decision, each
played out in the same many worlds, under one or more card-play models.

The library side of ``belote-sim bid-strength``. :func:`decision` checks the position
(the rules, the seat's cards, the retourne, seat, dealer, round or the coinche calls so
far) with the engine itself: the calls so far are replayed by the simulator's kernels,
and a call is a candidate exactly when the engine accepts it there. :func:`bid_strength`
plays the worlds (:mod:`belote_sim.batch.counterfactuals`) and returns the tidy table of the
runner (``metric, group, n, k, value, ci_low, ci_high``), one group per model and call
(``model=heuristic call=take``):

* ``p_takers``: the seat's side ends as takers (its call stands, or a partner takes
  later); ``p_made`` / ``p_dedans``: it takes and makes / goes dedans (ties and litige
  count in neither); ``p_capot``: the side takes every trick; ``p_thrown_in``;
* ``mean_own_score``, ``mean_opponent_score`` (per opponent), ``mean_difference``
  (own minus opponents'), deal scores as RULES 8 gives them;
* ``gain_over_pass``: ``mean_difference`` of the call minus that of passing, paired
  world by world (the pass's own row is exactly 0);
* coinche: ``p_reach`` per strain and value (group ``model=M strain=H value=100``):
  the chance that the seat's side, taking that strain with the auction ending on its
  bid, scores ``S_T >= V`` (the capot row: takes every trick).

**The dd model.** With four players the ``dd`` model settles the tricks of each
contract by one double-dummy solve (the takers' points under perfect play by all,
remembered per contract within a world), instead of searching every card: the same
points, as perfect play keeps the value (tested). It cannot tell a defenders' capot
from the takers winning only tricks without points (it counts points): it calls it a
capot when the takers get none. The other games play every card with the ``dd`` policy.

**What the worlds know.** A world fixes the seat's cards and the retourne, deals every
other card, and by default (``worlds_given="calls"``) is kept only when every earlier
call of another seat is the one the bidding policy makes with that seat's cards in the
world: the calls are replayed by the engine, each checked against the policy
(:func:`checked_calls`, :func:`~belote_sim.batch.counterfactuals.draw_world`). This is
rejection sampling: the worlds are uniform among the deals, in the order they are dealt
(the first five cards of the retourne games included), that give the calls. A pilot
measures how often a pack does before any world is played (:func:`plan_worlds`), the
run stops in one line when no pack does or when the budget (``max_packs``) is too small,
and the table reports the acceptance rate and the effective sample size (every world
weighs one). The ``random`` bidder's calls say nothing of the cards and the ``dd``
bidder's cannot be replayed in every pack: with the first nothing is checked, the
second is refused. ``worlds_given="uniform"`` deals the other cards uniformly. Every
later call, this seat's included, is made by the bidding policy; every card by the
model.

>>> df = bid_strength("classic", "JH 9H AH 7D 8C", retourne="TH", worlds=200, seed=1)
>>> gain = df[(df.metric == "gain_over_pass") & (df.group == "model=heuristic call=take")]
>>> bool(gain.value.iloc[0] > 0)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.batch import counterfactuals
from belote_sim.cards import TRUMP_NAMES, cards_of, format_card, format_cards, parse_card
from belote_sim.cards import parse_cards as _parse_cards
from belote_sim.deallog.format import format_call, parse_call
from belote_sim.deallog.replay import explain
from belote_sim.errors import BeloteError
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.kernels.calls import BID_VALUES, CAPOT_BID, N_LADDER, N_STRAINS, bid_strain
from belote_sim.kernels.calls import is_bid as _is_bid
from belote_sim.players.spec import PolicySpec
from belote_sim.rules import Rules
from belote_sim.runner import compile_times
from belote_sim.runner.executors import Chunk, ChunkResult
from belote_sim.runner.jobs import (
    RunOptions,
    check_int,
    check_run_args,
    chunk_plan,
    engine_identity,
    execute,
)
from belote_sim.runner.rundir import check_output_file, summary_frame, write_parquet
from belote_sim.stats import mean_interval, wilson_interval
from belote_sim.studies.playouts import (
    PlayoutSetup,
    check_refused,
    finish,
    playout_setup,
    provenance,
    rules_of,
)
from belote_sim.studies.simulate import DEFAULT_BID_POLICY

#: Default number of worlds.
STRENGTH_WORLDS = 10_000
#: What the worlds are given (``--worlds-given``): the calls so far under the run's
#: bidding policy (the default), or only the seat's cards (uniform completions).
WORLDS_GIVEN = ("calls", "uniform")
#: Default budget of packs dealt to find the worlds given the calls, all worlds together.
MAX_PACKS = 200_000_000
#: Packs of the pilot that measures, before any world is played, how often a pack gives
#: the calls; a world may then take up to ``PACKS_MARGIN`` times the packs the pilot's
#: lower bound expects, which no world of a run needs but once in about e^30 worlds.
PILOT_PACKS = 100_000
PACKS_MARGIN = 30
#: The metrics of the worlds themselves: the share of packs kept (``n`` packs dealt,
#: ``k`` worlds found) and the effective sample size (every world weighs the same).
DRAW_METRICS = ("world_acceptance", "effective_worlds")
#: Worlds per chunk (one progress step, one committed file) for the fast models, the
#: solver models, and ``dd`` alone (one exact solve per contract and world, tens of
#: milliseconds: longer chunks, which the threads' blocks of a chunk share more evenly).
CHUNK_FAST = 4_000
CHUNK_SOLVER = 16
CHUNK_DD = 128

#: The proportion metrics of a call, with their counters, and the mean metrics.
PROPORTIONS = (
    ("p_takers", counterfactuals.SC_TAKERS),
    ("p_made", counterfactuals.SC_MADE),
    ("p_dedans", counterfactuals.SC_DEDANS),
    ("p_capot", counterfactuals.SC_CAPOT),
    ("p_thrown_in", counterfactuals.SC_THROWN_IN),
)
MEANS = ("mean_own_score", "mean_opponent_score", "mean_difference", "gain_over_pass")
REACH_METRIC = "p_reach"

#: The calls the retourne games may make, in the order tables list them (pass first).
RETOURNE_CALLS = (L.CALL_PASS, L.CALL_TAKE, *(L.CALL_SUIT + s for s in range(4)), L.CALL_AT,
                  L.CALL_NT)
#: The coinche calls: pass, every bid in code order (the usual ladder by value then
#: strain, then 170 .. 260, which only ``capot_value = 270`` allows), coinche, surcoinche.
COINCHE_CALLS = (
    L.CALL_PASS,
    *range(L.CALL_BID, L.CALL_BID + N_STRAINS * N_LADDER),
    L.CALL_COINCHE,
    L.CALL_SURCOINCHE,
)


@dataclass(frozen=True)
class Decision:
    """One bidding decision: the rules, the seat and what it knows, the calls made so
    far, and the calls it may make (``candidates``, pass first). Built and checked by
    :func:`decision`.

    The world layout: the seat's cards lie at the pack positions ``fixed_pos``
    (``fixed_cards``), the unseen cards are dealt over ``free_pos``."""

    rules: Rules
    hand: int
    retourne: int
    seat: int
    dealer: int
    round: int
    calls: tuple[int, ...]
    candidates: tuple[int, ...]
    probes: tuple[tuple[int, int], ...]  # coinche: (strain, lowest legal bid code)
    speakers: tuple[int, ...]  # the seat that made each call so far
    fixed_pos: np.ndarray
    fixed_cards: np.ndarray
    free_pos: np.ndarray
    unseen: np.ndarray

    @property
    def players(self) -> int:
        return self.rules.players


    def describe(self) -> dict[str, Any]:
        """The decision in words, for provenance and tables."""
        return {
            "rules": self.rules.describe(),
            "hand": format_cards(self.hand),
            "retourne": None if self.retourne < 0 else format_card(self.retourne),
            "seat": self.seat,
            "dealer": self.dealer,
            "round": self.round,
            "calls": [format_call(c, self.rules.capot_value) for c in self.calls],
            "candidates": [format_call(c, self.rules.capot_value) for c in self.candidates],
        }


def _replay(rules: Rules, pack: np.ndarray, dealer: int, calls: Sequence[int]):
    """The engine's record and status of the deal ``pack`` whose auction starts with
    ``calls`` (and has no cards)."""
    rec, status, _ = replay_deal(
        rules.to_array(), pack, dealer, 0, 0, np.asarray(calls, dtype=np.int64),
        np.zeros(0, dtype=np.int64), False,
    )
    return rec, int(status)


def _next_speaker(rules: Rules, pack: np.ndarray, dealer: int, calls: Sequence[int]):
    """``(seat, None)``: the seat whose call the auction waits for after ``calls``; or
    ``(None, why)`` when they are illegal or end the auction."""
    rec, status = _replay(rules, pack, dealer, calls)
    if status == L.ST_MISSING_CALLS and int(rec[L.ERR_STEP]) == len(calls):
        return int(rec[L.ERR_SEAT]), None
    if status in (L.ST_BAD_CALL, L.ST_EXTRA_CALLS):
        return None, explain(rec, status, 1, rules, where="the calls so far")
    return None, "the auction is over after the calls so far: there is no decision left"


def _parse_hand(hand: str | Iterable[str] | int) -> list[int]:
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        return cards_of(int(hand) & 0xFFFFFFFF)
    return _parse_cards(hand)


def decision(
    rules: Rules | str,
    hand: str | Iterable[str] | int,
    *,
    retourne: str | int | None = None,
    seat: int = 0,
    dealer: int | None = None,
    round: int = 1,
    calls: str | Iterable[str] = (),
) -> Decision:
    """Check a bidding decision and list the calls the seat may make.

    ``hand``: the seat's cards at that point (5 in the retourne games, 8 in coinche: as
    RULES.md deals them before the bidding). ``retourne``: the turned card, where the
    rules have one. ``dealer`` (default: the seat that makes ``seat`` speak next, first
    hand in round 1). ``round``: the retourne games' bidding round (every call before
    it is a pass). ``calls``: coinche's calls so far, from the first hand
    (``"80H pass"``).

    :raises BeloteError: one line naming what is wrong (duplicate or unknown cards, the
        wrong number of cards, a retourne that is missing, superfluous or in the hand, a
        seat, dealer or round out of range, calls that are illegal or end the auction).

    >>> d = decision("classic", "JH 9H AS 7D 8C", retourne="TH", seat=1, round=2)
    >>> [format_call(c) for c in d.candidates], d.dealer
    (['pass', 'C', 'D', 'S'], 0)
    """
    rules = rules_of(rules)
    n = rules.players
    seat = check_int("seat", seat, 0, n - 1)
    if dealer is not None:
        dealer = check_int("dealer", dealer, 0, n - 1)
    mine = _parse_hand(hand)
    coinche = rules.contract == "coinche"

    # Where the engine deals the seat's cards and the retourne: a replay of the pack
    # 0, 1, ..., 31 puts card p at position p.
    identity = np.arange(32, dtype=np.int64)
    layout_dealer = dealer if dealer is not None else (seat - 1) % n
    rec, _ = _replay(rules, identity, layout_dealer, [])
    has_retourne = int(rec[L.RETOURNE]) >= 0
    if coinche:
        if round != 1:
            raise BeloteError("coinche has no bidding rounds: give the calls so far instead")
        prefix = [parse_call(c, rules.capot_value)
                  for c in (calls.split() if isinstance(calls, str) else calls)]
    else:
        if (calls.split() if isinstance(calls, str) else list(calls)):
            raise BeloteError(
                f"{rules.preset}: every call before a decision of the retourne bidding is a "
                "pass; give the round and the seat instead of calls"
            )
        n_rounds = 3 if rules.all_no_trumps_round else 2
        round = check_int("round", round, 1, n_rounds)
        prefix = []  # set once the dealer is known
    if has_retourne and retourne is None:
        raise BeloteError(f"{rules.preset} turns a card up: give the retourne")
    if not has_retourne and retourne is not None:
        raise BeloteError(f"{rules.preset} has no retourne (got {retourne!r})")
    turned = -1
    if retourne is not None:
        turned = retourne if isinstance(retourne, (int, np.integer)) else parse_card(retourne)
        turned = int(turned)
        if not 0 <= turned < 32:
            raise BeloteError(f"retourne {retourne!r} is not a card")
        if turned in mine:
            raise BeloteError(f"the retourne {format_card(turned)} is also in the hand")

    def layout(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        rec, _ = _replay(rules, identity, d, [])
        positions = cards_of(int(rec[L.DEALT + seat]))
        if len(mine) != len(positions):
            raise BeloteError(
                f"{rules.preset} deals {len(positions)} cards to a seat before the bidding, "
                f"the hand has {len(mine)}"
            )
        fixed_pos = list(positions)
        fixed = sorted(mine)
        if turned >= 0:
            fixed_pos.append(int(rec[L.RETOURNE]))
            fixed.append(turned)
        free = [p for p in range(32) if p not in fixed_pos]
        unseen = [c for c in range(32) if c not in fixed]
        pack = np.zeros(32, dtype=np.int64)
        pack[fixed_pos] = fixed
        pack[free] = unseen
        return (np.array(fixed_pos, dtype=np.int64), np.array(fixed, dtype=np.int64),
                np.array(free, dtype=np.int64), np.array(unseen, dtype=np.int64), pack)

    def opening_calls(d: int) -> list[int]:
        if coinche:
            return prefix
        first_hand = (d + 1) % n
        return [L.CALL_PASS] * ((round - 1) * n + (seat - first_hand) % n)

    # The dealer: given, or the first (from the seat's right) under whom the seat speaks.
    dealers = [dealer] if dealer is not None else [(seat - k) % n for k in range(1, n + 1)]
    why = None
    for d in dealers:
        *world, pack = layout(d)
        speaker, why = _next_speaker(rules, pack, d, opening_calls(d))
        if speaker == seat:
            dealer = d
            break
        if why is None:
            why = (f"after the calls so far seat {speaker} speaks, not seat {seat}"
                   + (f" (dealer {d})" if len(dealers) == 1 else ""))
    else:
        raise BeloteError(why)
    prefix = opening_calls(dealer)
    universe = COINCHE_CALLS if coinche else RETOURNE_CALLS
    candidates = []
    for call in universe:
        rec, status = _replay(rules, pack, dealer, [*prefix, call])
        if not (status == L.ST_BAD_CALL and int(rec[L.ERR_STEP]) == len(prefix)):
            candidates.append(call)
    if L.CALL_PASS not in candidates:
        raise BeloteError("this seat may not pass here: there is nothing to compare")
    probes = []
    if coinche:
        for strain in range(N_STRAINS):
            bids = [c for c in candidates if _is_bid(c) and int(bid_strain(c)) == strain]
            if bids:
                probes.append((strain, bids[0]))
    speakers = tuple(_next_speaker(rules, pack, dealer, prefix[:i])[0]
                     for i in range(len(prefix)))
    fixed_pos, fixed_cards, free_pos, unseen = world
    return Decision(rules, sum(1 << c for c in mine), turned, seat, dealer,
                    0 if coinche else round, tuple(prefix), tuple(candidates), tuple(probes),
                    speakers, fixed_pos, fixed_cards, free_pos, unseen)


def _openings(dec: Decision) -> tuple[np.ndarray, np.ndarray]:
    """The openings the kernel plays (``-1`` padded) and the strain each probes (-1 for
    a candidate): the candidates first (the pass is row 0), then the probes, each its
    bid followed by three passes."""
    rows = [[*dec.calls, c] for c in dec.candidates]
    strains = [-1] * len(rows)
    for strain, code in dec.probes:
        rows.append([*dec.calls, code, L.CALL_PASS, L.CALL_PASS, L.CALL_PASS])
        strains.append(strain)
    width = max(len(r) for r in rows)
    table = np.full((len(rows), width), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        table[i, : len(r)] = r
    return table, np.array(strains, dtype=np.int64)


def checked_calls(dec: Decision, bid_policy: PolicySpec, given: str) -> int:
    """The mask of the calls so far that the worlds of ``dec`` must give (bit ``i``: call
    ``i``): :func:`calls_to_check` with ``given = "calls"``, none with ``"uniform"``.

    :raises BeloteError: an unknown ``given``, or the ``dd`` bidder as the model of the
        calls (:func:`calls_to_check`).
    """
    if given not in WORLDS_GIVEN:
        raise BeloteError(
            f"worlds given {given!r}: choose one of {', '.join(WORLDS_GIVEN)}"
        )
    if given == "uniform":
        return 0
    return calls_to_check(dec.speakers, dec.seat, bid_policy,
                          "use --worlds-given uniform or another --bid-policy")


def calls_to_check(speakers: Sequence[int], seat: int, bid_policy: PolicySpec,
                   instead: str) -> int:
    """The mask of the calls so far (made by ``speakers``) that worlds seen from ``seat``
    must give, as the bidding policy would make them: every call of another seat. The
    seat's own calls are left out (its cards are known: they tell nothing of the
    others'), and so is every call under the ``random`` bidder, whose calls say nothing
    of the cards.

    :raises BeloteError: the ``dd`` bidder as the model of such calls (a search per call
        and pack: too slow to replay in every pack tried), with ``instead`` as the way
        out.
    """
    if bid_policy.name == "random":
        return 0
    others = [i for i, speaker in enumerate(speakers) if speaker != seat]
    if others and bid_policy.name == "dd":
        raise BeloteError(
            "the dd bidder cannot serve as the model of the calls so far (it searches at "
            f"every call of every pack tried): {instead}"
        )
    return sum(1 << i for i in others)


def _draw_of(dec: Decision, checked: int, max_packs: int) -> counterfactuals.Draw:
    return counterfactuals.Draw(
        counterfactuals.World(dec.fixed_pos, dec.fixed_cards, dec.free_pos, dec.unseen),
        np.asarray(dec.calls, dtype=np.int64),
        np.int64(checked),
        np.int64(max_packs),
    )


@dataclass(frozen=True)
class WorldsGiven:
    """How the worlds of a decision are drawn: as asked (``given``, one of
    :data:`WORLDS_GIVEN`), the mask of the calls they must give (:func:`checked_calls`;
    0, uniform worlds), at most ``packs_per_world`` packs a
    world, and what the pilot measured (packs dealt, packs that gave the calls)."""

    given: str
    checked: int
    packs_per_world: int
    pilot_packs: int = 0
    pilot_found: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"worlds_given": self.given, "checked_calls": self.checked,
                "packs_per_world": self.packs_per_world}


def _why_no_world(dec: Decision, setup: PlayoutSetup, draws: np.ndarray) -> str:
    """One line: which call the packs fail at, under which model."""
    rejected = draws[counterfactuals.DW_REJECTED :]
    i = int(np.argmax(rejected))
    return (
        f"no world gives the calls so far: in {int(draws[counterfactuals.DW_PACKS]):,} packs "
        "completing "
        f"the seat's cards, {setup.bid_policy} bidding never makes them all "
        f"({int(rejected[i]):,} fail at call {i + 1}, "
        f"{format_call(dec.calls[i], dec.rules.capot_value)} by seat "
        f"{dec.speakers[i]}); use --worlds-given uniform or another --bid-policy"
    )


def plan_worlds(dec: Decision, setup: PlayoutSetup, worlds: int, given: str = "calls",
                max_packs: int = MAX_PACKS) -> WorldsGiven:
    """Check that ``worlds`` worlds of the decision can be found within ``max_packs``
    packs, by a pilot of :data:`PILOT_PACKS` packs, and size each world's share.

    :raises BeloteError: one line when no pack of the pilot gives the calls (naming the
        call they fail at and the model), or when the pilot's rate says ``worlds``
        worlds need more than ``max_packs`` packs (naming what to change).
    """
    checked = checked_calls(dec, setup.bid_policy, given)
    max_packs = check_int("max_packs", max_packs, 1, 2**62)
    if checked == 0:
        return WorldsGiven(given, 0, 1)
    from belote_sim.players.seating import players_of

    rules = setup.rules.to_array()
    players = players_of(setup.bid_policy, setup.models[0], rules, with_solver=True)
    pilot = min(PILOT_PACKS, max_packs)
    draws = counterfactuals.pilot_draws(rules, players, _draw_of(dec, checked, 1),
                          dec.dealer, setup.seed, pilot)
    found = int(draws[counterfactuals.DW_WORLDS])
    if found == 0:
        raise BeloteError(_why_no_world(dec, setup, draws))
    low, _ = wilson_interval(found, pilot)
    need = worlds * pilot / found
    if need > max_packs:
        raise BeloteError(
            f"worlds given the calls are too rare for the budget: {found:,} of "
            f"{pilot:,} packs give them, so {worlds:,} worlds need about {need:,.0f} "
            f"packs, over --max-packs {max_packs:,}; lower --worlds, raise --max-packs or "
            "use --worlds-given uniform"
        )
    return WorldsGiven(given, checked, int(np.ceil(PACKS_MARGIN / low)), pilot, found)


def _call_rows(model: str, call: str, c: np.ndarray, n_opp: int) -> list[tuple]:
    """The table rows of one (model, call) from its counters."""
    group = f"model={model} call={call}"
    n = int(c[counterfactuals.SC_WORLDS])
    rows = []
    for metric, slot in PROPORTIONS:
        k = int(c[slot])
        low, high = wilson_interval(k, n)
        rows.append((metric, group, n, k, k / n, low, high))
    sums = {
        "mean_own_score": (c[counterfactuals.SC_OWN], c[counterfactuals.SC_OWN_SQ], 1),
        "mean_opponent_score": (c[counterfactuals.SC_OPP], c[counterfactuals.SC_OPP_SQ], n_opp),
        "mean_difference": (c[counterfactuals.SC_DIFF2], c[counterfactuals.SC_DIFF2_SQ], 2),
        "gain_over_pass": (c[counterfactuals.SC_GAIN2], c[counterfactuals.SC_GAIN2_SQ], 2),
    }
    for metric in MEANS:
        total, total_sq, scale = sums[metric]
        mean, se, low, high = mean_interval(int(total), int(total_sq), n)
        if metric == "gain_over_pass" and int(total_sq) == 0:
            low = high = mean  # the pass itself, or a call that never changes a world
        rows.append((metric, group, n, None, mean / scale, low / scale, high / scale))
    return rows


@dataclass(frozen=True)
class StrengthTask:
    """A chunk of worlds of one decision: the counters of every opening under every
    model, then the reach counters, flat."""

    chunk: Chunk
    threads: int | None
    setup: PlayoutSetup
    draw: counterfactuals.Draw
    openings: np.ndarray
    probe_strain: np.ndarray
    seat: int
    dealer: int

    def play(self, blocks: int) -> ChunkResult:
        c, s = self.chunk, self.setup
        inputs = counterfactuals.StrengthInputs(
            s.players_table(), *s.lookup(), self.draw, self.openings, self.probe_strain,
            self.seat, self.dealer, s.seed, s.rules.players == 4,
        )
        counters, reach, draws = counterfactuals.strength_chunk(s.rules.to_array(), inputs, c.start,
                                                  c.count, blocks)
        return ChunkResult(c.index, np.concatenate([counters.ravel(), reach.ravel(), draws]))


@dataclass(frozen=True)
class StrengthJob:
    """``worlds`` completions of one decision, every candidate call played out in each
    under every model."""

    decision: Decision
    setup: PlayoutSetup
    worlds: int
    chunk_size: int
    given: WorldsGiven = WorldsGiven("uniform", 0, 1)
    unit = "worlds"

    @property
    def total(self) -> int:
        return self.worlds

    @property
    def uses_solver(self) -> bool:
        """Whether its players search (the kind of its kernels)."""
        return self.setup.uses_solver

    def to_json(self) -> dict[str, Any]:
        return {**engine_identity(counterfactuals.N_SC), "command": "bid-strength",
                **self.decision.describe(), **self.setup.to_json(), "worlds": self.worlds,
                **self.given.to_json(), "chunk_size": self.chunk_size}

    def chunks(self) -> list[Chunk]:
        return chunk_plan([("worlds", self.worlds)], self.chunk_size)

    def task(self, chunk: Chunk, threads: int | None) -> StrengthTask:
        d = self.decision
        openings, probe_strain = _openings(d)
        draw = _draw_of(d, self.given.checked, self.given.packs_per_world)
        return StrengthTask(chunk, threads, self.setup, draw, openings, probe_strain,
                            d.seat, d.dealer)

    def split(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The counters ``int64[M, O, N_SC]``, reach ``int64[M, N_STRAINS, N_REACH]``
        and the draws ``int64[N_DW]`` of a merged result."""
        m = len(self.setup.models)
        o = len(self.decision.candidates) + len(self.decision.probes)
        cut = m * o * counterfactuals.N_SC
        cut2 = cut + m * N_STRAINS * counterfactuals.N_REACH
        return (flat[:cut].reshape(m, o, counterfactuals.N_SC),
                flat[cut:cut2].reshape(m, N_STRAINS, counterfactuals.N_REACH), flat[cut2:])

    merge = staticmethod(np.add)


def bid_strength(
    rules: Rules | str,
    hand: str | Iterable[str] | int,
    *,
    retourne: str | int | None = None,
    seat: int = 0,
    dealer: int | None = None,
    round: int = 1,
    calls: str | Iterable[str] = (),
    worlds: int = STRENGTH_WORLDS,
    seed: int = 0,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    models: str | Iterable[str | PolicySpec] = ("heuristic",),
    worlds_given: str = "calls",
    max_packs: int = MAX_PACKS,
    worlds_out: str | Path | None = None,
    run: RunOptions | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Every call the seat may make at this decision (:func:`decision`), played out in
    ``worlds`` completions of what it knows under each play model of ``models``; the
    tidy table of the module docstring, with the provenance in ``df.attrs``.

    A run of the chunk runner (:func:`belote_sim.runner.jobs.execute`), played as ``run``
    (:class:`~belote_sim.runner.jobs.RunOptions`, or its fields as keywords) says, as
    :func:`~belote_sim.studies.simulate.simulate`'s. With ``out`` the
    chunks are committed there as they finish, and ``summary.parquet`` and ``run.json``
    written at the end. The worlds are a pure function of the decision, ``seed`` and
    their number: the same whatever the threads, executor or chunk size; every call and
    model meets the same worlds and random streams.

    The worlds are given the calls so far (``worlds_given="calls"``): each other seat's
    call must be the one the bidding policy makes with its cards in that world
    (:func:`checked_calls`; rejection sampling, at most ``max_packs`` packs dealt in
    all, :func:`plan_worlds`); ``"uniform"`` completes the seat's cards alone. The table
    then has the rows ``world_acceptance`` (worlds found per pack dealt) and
    ``effective_worlds``. ``worlds_out``: a Parquet file of the worlds played
    (:func:`worlds_frame`).

    :raises BeloteError: a bad decision (see :func:`decision`), bad ``worlds``, ``seed``,
        ``threads``, bidding policy, model or ``out``, all before any world is played;
        worlds the budget cannot find (:func:`plan_worlds`), before any is played too;
        a world not found in its share of the budget, after the run (nothing written).
    """
    run = RunOptions.of(run, **options)
    check_run_args(worlds, seed, "worlds")
    setup = playout_setup(rules, seed=seed, bid_policy=bid_policy, models=models)
    if worlds_out is not None:
        worlds_out = Path(worlds_out)
        if worlds_out.suffix != ".parquet":
            raise BeloteError(f"--worlds-out {str(worlds_out)!r}: give a .parquet file")
        check_output_file(worlds_out, "--worlds-out")
    # The replay of the calls so far and the search for the worlds compile kernels of
    # their own: one compile notice and one compile figure with the run's.
    with compile_times.compiling(compile_times.compile_kind(StrengthJob, setup.uses_solver)):
        dec = decision(setup.rules, hand, retourne=retourne, seat=seat, dealer=dealer,
                       round=round, calls=calls)
        given = plan_worlds(dec, setup, int(worlds), worlds_given, max_packs)
        job = StrengthJob(dec, setup, int(worlds),
                          setup.chunk_size(run, CHUNK_FAST, CHUNK_SOLVER, CHUNK_DD), given)
        ran = execute(job, run)
    counters, reach, draws = job.split(ran.counters)
    check_refused(int(counters[:, :, counterfactuals.SC_REFUSED].sum()))
    missed = int(draws[counterfactuals.DW_MISSED])
    if missed:
        raise BeloteError(
            f"{missed:,} of {job.worlds:,} worlds were not found within "
            f"{given.packs_per_world:,} packs each (the pilot found {given.pilot_found:,} "
            f"in {given.pilot_packs:,}): raise --max-packs or use --worlds-given uniform"
        )
    n_opp = 2 if dec.players == 3 else 1
    rows: list[tuple] = []
    for m, spec in enumerate(setup.models):
        for o, call in enumerate(dec.candidates):
            rows += _call_rows(str(spec), format_call(call, dec.rules.capot_value),
                               counters[m, o], n_opp)
        for strain, _ in dec.probes:
            r = reach[m, strain]
            n_r = int(r[counterfactuals.REACH_WORLDS])
            for v, value in enumerate(BID_VALUES):
                k = int(r[v])
                low, high = wilson_interval(k, n_r)
                if v == CAPOT_BID:  # every trick: the capot, worth the rules' capot_value
                    value = dec.rules.capot_value
                group = f"model={spec} strain={TRUMP_NAMES[strain]} value={value}"
                rows.append((REACH_METRIC, group, n_r, k, k / n_r, low, high))
    found, packs = int(draws[counterfactuals.DW_WORLDS]), int(draws[counterfactuals.DW_PACKS])
    low, high = wilson_interval(found, packs)
    rows.append(("world_acceptance", "", packs, found, found / packs, low, high))
    rows.append(("effective_worlds", "", found, None, float(found), None, None))
    df = summary_frame(rows)
    prov = provenance("bid-strength", dec.describe(), setup, "worlds", job.worlds, ran)
    df.attrs["provenance"] = {**prov, **given.to_json(), "packs": packs,
                              "acceptance": found / packs, "effective_worlds": found}
    if worlds_out is not None:
        write_parquet(worlds_frame(job), worlds_out, df.attrs["provenance"])
    finish(ran, job, df, "summary.parquet")
    return df


def sample_worlds(dec: Decision, setup: PlayoutSetup, given: WorldsGiven, start: int,
                  n: int) -> tuple[np.ndarray, np.ndarray]:
    """The packs (``int64[k, 32]``, top first) of the worlds ``start .. start+n-1`` of
    the decision that were found (all but those that ran out of packs), as
    :func:`bid_strength` draws and plays them, and the ``DW_*`` counters.

    >>> dec = decision("coinche", "JS 9S AS TS KH 7D 8C 7C", seat=2, dealer=3, calls="80H pass")
    >>> setup = playout_setup(dec.rules, seed=1, bid_policy="threshold", models="heuristic")
    >>> packs, draws = sample_worlds(dec, setup, plan_worlds(dec, setup, 10), 0, 10)
    >>> packs.shape, int(draws[counterfactuals.DW_WORLDS])
    ((10, 32), 10)
    """
    from belote_sim.players.seating import players_of

    rules = setup.rules.to_array()
    players = players_of(setup.bid_policy, setup.models[0], rules, with_solver=True)
    draw = _draw_of(dec, given.checked, given.packs_per_world)
    packs, found, draws = counterfactuals.draw_worlds(rules, players, draw, dec.dealer,
                                        setup.seed, start, n)
    return packs[found], draws


def dealt_positions(dec: Decision) -> tuple[list[list[int]], list[int]]:
    """The pack positions each seat holds when the bidding starts, and the others (the
    talon: the retourne first where there is one, then the rest in pack order)."""
    rec, _ = _replay(dec.rules, np.arange(32, dtype=np.int64), dec.dealer, [])
    seats = [cards_of(int(rec[L.DEALT + s])) for s in range(dec.players)]
    dealt = {p for held in seats for p in held}
    talon = [p for p in range(32) if p not in dealt]
    if int(rec[L.RETOURNE]) >= 0:
        talon.remove(int(rec[L.RETOURNE]))
        talon.insert(0, int(rec[L.RETOURNE]))
    return seats, talon


def worlds_frame(job: StrengthJob) -> pd.DataFrame:
    """The worlds a :func:`bid_strength` run plays, drawn again from their streams: one
    row per world and seat with the cards the seat holds when the bidding starts, and a
    row per world for seat -1, the talon (:func:`dealt_positions`); ``weight`` is 1
    (every world weighs the same).

    Columns: ``world, seat, cards, weight``."""
    seats, talon = dealt_positions(job.decision)
    rows = []
    step = 100_000
    for start in range(0, job.worlds, step):
        n = min(step, job.worlds - start)
        packs, _ = sample_worlds(job.decision, job.setup, job.given, start, n)
        for j, pack in enumerate(packs):
            for s, positions in enumerate(seats):
                hand = sum(1 << int(c) for c in pack[positions])
                rows.append((start + j, s, " ".join(format_cards(hand)), 1.0))
            rows.append((start + j, -1, " ".join(format_card(int(pack[p])) for p in talon),
                         1.0))
    return pd.DataFrame(rows, columns=["world", "seat", "cards", "weight"])


def strength_table(df: pd.DataFrame) -> pd.DataFrame:
    """The calls of a :func:`bid_strength` table side by side: one row per (model,
    call), one column per metric (values only), and ``best``: the call with the highest
    gain over passing under that model.

    >>> df = bid_strength("classic", "JH 9H AH 7D 8C", retourne="TH", worlds=100)
    >>> float(strength_table(df).loc[("heuristic", "take"), "p_takers"])
    1.0
    """
    calls = df[~df.metric.isin((REACH_METRIC, *DRAW_METRICS))].copy()
    parts = calls.group.str.extract(r"model=(?P<model>\S+) call=(?P<call>\S+)")
    calls = calls.assign(model=parts.model, call=parts.call)
    wide = calls.pivot_table(index=["model", "call"], columns="metric", values="value",
                             sort=False)
    gain = calls[calls.metric == "gain_over_pass"].set_index(["model", "call"])
    wide["gain_low"] = gain.ci_low
    wide["gain_high"] = gain.ci_high
    wide["best"] = False
    for model in wide.index.get_level_values("model").unique():
        best = wide.loc[model, "gain_over_pass"].idxmax()
        wide.loc[(model, best), "best"] = True
    return wide[[*(m for m, _ in PROPORTIONS), *MEANS, "gain_low", "gain_high", "best"]]


def reach_table(df: pd.DataFrame) -> pd.DataFrame:
    """Coinche: ``P(S_T >= V)`` by model and strain (rows) and bid value (columns);
    empty for the retourne games."""
    reach = df[df.metric.eq(REACH_METRIC)]
    if reach.empty:
        return pd.DataFrame()
    parts = reach.group.str.extract(
        r"model=(?P<model>\S+) strain=(?P<strain>\S+) value=(?P<bid>\d+)"
    )
    reach = reach.assign(model=parts.model, strain=parts.strain, bid=parts.bid.astype(int))
    return reach.pivot_table(index=["model", "strain"], columns="bid", values="value",
                             sort=False)
