"""The arena: measure one card player against another on the same cards.

Every deal is played twice from the same random stream — the same cards — once with
player A on side 0 (seats 0 and 2; seat 0 with two players) and once with the sides
swapped. A player is a card-play policy and a bidding policy: both sides bid with the
arena's bidding policy unless a side has its own (``a_bid``, ``b_bid``), so two bidders
can be measured with the same card play. The paired
difference per deal, ``(A - B in pass 1 + A - B in pass 2) / 2`` of the deal scores,
cancels the luck of the cards; its mean comes with a 95% interval. Matches are played
the same way (each twice, sides swapped) for A's win rate. Decisions are timed inside
the kernels with the processor's cycle counter, converted to seconds against the wall
clock of the same run. An arena is a run of the chunk runner
(:func:`belote_sim.runner.jobs.execute`): executors, resuming and progress as in ``simulate``.

>>> from belote_sim.studies.arena import arena
>>> res = arena("heuristic", "random", deals=200, matches=4, seed=1)
>>> res.mean_score_diff > 0
True
>>> sorted(set(res.table()["metric"]))[:2]
['a_match_win_rate', 'a_mean_deal_score']
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.game.clock import cycles
from belote_sim.kernels import layout as L
from belote_sim.players.seating import Players
from belote_sim.players.spec import PolicySpec, as_spec, check_policies
from belote_sim.rules import Rules
from belote_sim.runner.executors import Chunk, ChunkResult
from belote_sim.runner.jobs import (
    MAX_COUNT,
    RunOptions,
    check_int,
    check_run_args,
    chunk_plan,
    engine_identity,
    execute,
)
from belote_sim.runner.rundir import software, summary_frame, write_parquet, write_text_atomic
from belote_sim.stats import mean_interval, wilson_interval
from belote_sim.studies.simulate import CHUNK_SOLVER, DEFAULT_BID_POLICY

#: Deals (or matches) per chunk of the fast players (the solver players use the
#: runner's ``CHUNK_SOLVER``).
CHUNK_FAST = 5_000


@dataclass(frozen=True)
class Side:
    """One side of the arena: its bidding and its card play."""

    bid_policy: PolicySpec
    play_policy: PolicySpec


@dataclass(frozen=True)
class ArenaTask:
    """A chunk of an arena: its deals (or matches) played twice, A on side 0 and then
    B, into arena counters."""

    chunk: Chunk
    threads: int | None
    rules: tuple[int, ...]
    a_first: Players
    b_first: Players
    seed: int

    def play(self, blocks: int) -> ChunkResult:
        from belote_sim.batch import runs

        c = self.chunk
        counters = runs.arena_chunk(
            np.asarray(self.rules, dtype=np.int64), self.a_first, self.b_first, self.seed,
            c.start, c.count, blocks, c.unit == "matches",
        )
        return ChunkResult(c.index, counters)


def sides_seated(rules: Rules, first: Side, second: Side) -> Players:
    """The :class:`~belote_sim.players.seating.Players` of an arena pass: ``first`` on
    side 0, ``second`` on side 1; with the solver kit whoever plays (it keeps each side's
    decision time)."""
    from belote_sim.players.lookup import lookup_for
    from belote_sim.players.seating import SidePolicies, families_for, sided_players

    def policies(side: Side) -> SidePolicies:
        return SidePolicies(side.bid_policy.id, side.bid_policy.value, side.play_policy.id,
                            side.play_policy.value)

    array = rules.to_array()
    lookup = lookup_for(first.bid_policy.id, second.bid_policy.id)
    return sided_players(policies(first), policies(second), rules.players, lookup, True,
                         families_for(array))


@dataclass(frozen=True)
class ArenaJob:
    """An arena run: ``deals`` deals, then ``matches`` matches, each played twice with
    the sides swapped, into arena counters. The players of both passes are built once,
    when the job is."""

    rules: Rules
    a: Side
    b: Side
    seed: int
    deals: int
    matches: int
    chunk_size: int
    seats: tuple[Players, Players] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", (sides_seated(self.rules, self.a, self.b),
                                           sides_seated(self.rules, self.b, self.a)))

    @property
    def unit(self) -> str:
        return "deals and matches" if self.matches else "deals"

    @property
    def total(self) -> int:
        return self.deals + self.matches

    def to_json(self) -> dict[str, Any]:
        return {
            **engine_identity(L.N_ARENA_COUNTERS),
            "command": "arena",
            "rules": self.rules.describe(),
            "a": str(self.a.play_policy),
            "b": str(self.b.play_policy),
            "a_bid": str(self.a.bid_policy),
            "b_bid": str(self.b.bid_policy),
            "seed": self.seed,
            "count": self.deals,
            "matches": self.matches,
            "chunk_size": self.chunk_size,
        }

    def chunks(self) -> list[Chunk]:
        return chunk_plan([("deals", self.deals), ("matches", self.matches)], self.chunk_size)

    def task(self, chunk: Chunk, threads: int | None) -> ArenaTask:
        return ArenaTask(chunk, threads, tuple(int(x) for x in self.rules.to_array()),
                         *self.seats, self.seed)

    merge = staticmethod(np.add)


@dataclass(frozen=True)
class ArenaResult:
    """The figures of an arena run (see the module docstring)."""

    a: str
    b: str
    rules: Rules
    a_bid: str
    b_bid: str
    seed: int
    deals: int
    matches: int
    mean_score_diff: float
    diff_low: float
    diff_high: float
    a_mean: float
    b_mean: float
    thrown_in: int
    match_wins: int
    match_draws: int
    match_unfinished: int
    decisions: tuple[int, int]
    seconds_per_decision: tuple[float, float]
    seconds: float
    executor: dict[str, Any] = field(default_factory=dict)
    #: Per player (A, B), over the deals: worlds drawn to find worlds given the calls,
    #: worlds found, and worlds short of those the decisions asked (zeros for players
    #: whose worlds ignore the calls).
    worlds_drawn: tuple[int, int] = (0, 0)
    worlds_given: tuple[int, int] = (0, 0)
    worlds_short: tuple[int, int] = (0, 0)

    def world_acceptance(self, player: int) -> float:
        """The share of the worlds player ``player`` (0 = A) drew that gave the calls."""
        drawn = self.worlds_drawn[player]
        return self.worlds_given[player] / drawn if drawn else math.nan

    @property
    def bid_policy(self) -> str:
        """The bidding of both sides; ``"A_BID / B_BID"`` when each has its own."""
        return self.a_bid if self.a_bid == self.b_bid else f"{self.a_bid} / {self.b_bid}"

    @property
    def games(self) -> int:
        """Matches played (each match twice)."""
        return 2 * self.matches

    def table(self) -> pd.DataFrame:
        """The figures in the runner's tidy summary form (``metric, group, n, k, value,
        ci_low, ci_high``); the score difference is ``mean_score_diff``."""
        rows: list[tuple] = [
            ("mean_score_diff", "", self.deals, None, self.mean_score_diff, self.diff_low,
             self.diff_high),
            ("a_mean_deal_score", "", self.deals, None, self.a_mean, math.nan, math.nan),
            ("b_mean_deal_score", "", self.deals, None, self.b_mean, math.nan, math.nan),
            ("thrown_in_rate", "", self.deals, self.thrown_in,
             self.thrown_in / self.deals, *wilson_interval(self.thrown_in, self.deals)),
        ]
        if self.matches:
            decided = self.games - self.match_unfinished
            rows.append(("a_match_win_rate", "", decided, self.match_wins,
                         self.match_wins / decided if decided else math.nan,
                         *wilson_interval(self.match_wins, decided)))
            rows.append(("match_draw_rate", "", decided, self.match_draws,
                         self.match_draws / decided if decided else math.nan,
                         *wilson_interval(self.match_draws, decided)))
        for who, n_dec, sec in zip("ab", self.decisions, self.seconds_per_decision,
                                   strict=True):
            rows.append((f"{who}_seconds_per_decision", "", n_dec, None, sec, math.nan,
                         math.nan))
        for i, who in enumerate("ab"):
            drawn, given = self.worlds_drawn[i], self.worlds_given[i]
            if drawn:
                rows.append((f"{who}_world_acceptance", "", drawn, given, given / drawn,
                             *wilson_interval(given, drawn)))
                rows.append((f"{who}_worlds_short", "", given + self.worlds_short[i], None,
                             self.worlds_short[i], math.nan, math.nan))
        return summary_frame(rows)

    def provenance(self) -> dict[str, Any]:
        return {
            **engine_identity(L.N_ARENA_COUNTERS),
            "command": "arena",
            "a": self.a,
            "b": self.b,
            "rules": self.rules.describe(),
            "a_bid": self.a_bid,
            "b_bid": self.b_bid,
            "seed": self.seed,
            "deals": self.deals,
            "matches": self.matches,
            **software(),
            **self.executor,
            "wall_seconds": self.seconds,
            "worlds_drawn": list(self.worlds_drawn),
            "worlds_given": list(self.worlds_given),
            "worlds_short": list(self.worlds_short),
        }

    def _bidding(self) -> str:
        if self.a_bid == self.b_bid:
            return f"bidding {self.a_bid}"
        return f"A bids {self.a_bid}, B bids {self.b_bid}"

    def report(self) -> str:
        """A few lines for people."""
        lines = [
            f"A = {self.a}, B = {self.b}, {self.rules.preset} rules, {self._bidding()}, "
            f"seed {self.seed}",
            f"deals: {self.deals:,} (each played twice, sides swapped); "
            f"thrown in: {self.thrown_in:,}",
            f"mean score difference per deal, A - B: {self.mean_score_diff:+.2f} "
            f"[{self.diff_low:+.2f}, {self.diff_high:+.2f}] (95%)",
            f"mean deal score: A {self.a_mean:.2f}, B {self.b_mean:.2f}",
        ]
        if self.matches:
            decided = self.games - self.match_unfinished
            lo, hi = wilson_interval(self.match_wins, decided)
            rate = self.match_wins / decided if decided else math.nan
            lines.append(
                f"matches: {self.games:,} ({self.matches:,} twice); A won {self.match_wins:,}"
                f" = {rate:.3f} [{lo:.3f}, {hi:.3f}], draws {self.match_draws:,}"
            )
        for who, name, n_dec, sec in zip("AB", (self.a, self.b), self.decisions,
                                         self.seconds_per_decision, strict=True):
            lines.append(
                f"time per decision, {who} ({name}): {format_seconds(sec)} over {n_dec:,} "
                "decisions"
            )
        for i, who in enumerate("AB"):
            if self.worlds_drawn[i]:
                lines.append(
                    f"worlds given the calls, {who}: {self.world_acceptance(i):.1%} of "
                    f"{self.worlds_drawn[i]:,} drawn; {self.worlds_short[i]:,} short of "
                    "those asked"
                )
        lines.append(f"wall time: {self.seconds:.1f} s")
        return "\n".join(lines)


def format_seconds(sec: float) -> str:
    """A time per decision for people.

    >>> format_seconds(0.00315), format_seconds(4.9e-8)
    ('3.15 ms', '49 ns')
    """
    if not math.isfinite(sec):
        return "n/a"
    if sec >= 1e-3:
        return f"{sec * 1e3:.2f} ms"
    if sec >= 1e-6:
        return f"{sec * 1e6:.2f} µs"
    return f"{sec * 1e9:.0f} ns"


def arena(
    a: str | PolicySpec,
    b: str | PolicySpec,
    *,
    rules: Rules | None = None,
    deals: int = 1000,
    matches: int | None = None,
    seed: int = 0,
    bid_policy: str | PolicySpec = DEFAULT_BID_POLICY,
    a_bid: str | PolicySpec | None = None,
    b_bid: str | PolicySpec | None = None,
    run: RunOptions | None = None,
    **options: Any,
) -> ArenaResult:
    """Play ``deals`` deals and ``matches`` matches (default ``deals // 10``), each twice
    with the sides swapped, between play policies ``a`` and ``b``. Side A bids with
    ``a_bid``, side B with ``b_bid``; each defaults to ``bid_policy``.

    An arena is a run of :func:`belote_sim.runner.jobs.execute`, played as ``run`` (or
    its fields as keywords) says, as :func:`belote_sim.studies.simulate.simulate`'s:
    chunked, on any executor, resumable from ``out`` (where ``summary.parquet``,
    ``arena.json`` and ``run.json`` are written at the end). Its figures are a pure
    function of (rules, players, seed, deals, matches). Three-player rules are refused:
    the sides are not symmetric.
    """
    run = RunOptions.of(run, **options)
    rules = rules if rules is not None else Rules()
    if rules.players == 3:
        raise BeloteError(
            "the arena needs two sides of equal size: three-player rules have the taker "
            "alone against two"
        )
    spec_a, spec_b = as_spec(a, "play"), as_spec(b, "play")
    bid = as_spec(bid_policy, "bid")
    bid_a = as_spec(a_bid, "bid") if a_bid is not None else bid
    bid_b = as_spec(b_bid, "bid") if b_bid is not None else bid
    check_run_args(deals, seed)
    for spec in (bid_a, bid_b):
        check_policies(rules, spec, spec_a, spec_b)
    if matches is None:
        matches = deals // 10
    matches = check_int("matches", matches, 0, MAX_COUNT)
    slow = any(s.uses_solver for s in (spec_a, spec_b, bid_a, bid_b))
    job = ArenaJob(rules, Side(bid_a, spec_a), Side(bid_b, spec_b), int(seed), int(deals),
                   int(matches), run.chunk_size_or(CHUNK_SOLVER if slow else CHUNK_FAST))
    c0, t0 = cycles(), time.perf_counter()
    ran = execute(job, run)
    seconds = time.perf_counter() - t0
    per_second = (cycles() - c0) / seconds if seconds > 0 else math.nan
    c = ran.counters
    # Scores are integers: the sums below are exact in float64.
    mean, _, lo, hi = mean_interval(int(c[L.AR_DIFF]) / 2, int(c[L.AR_DIFF_SQ]) / 4, deals)
    dec = (int(c[L.AR_DECISIONS]), int(c[L.AR_DECISIONS + 1]))
    spd = tuple(
        int(c[L.AR_CYCLES + i]) / per_second / dec[i] if dec[i] else math.nan for i in range(2)
    )
    result = ArenaResult(
        a=str(spec_a), b=str(spec_b), rules=rules, a_bid=str(bid_a), b_bid=str(bid_b),
        seed=seed,
        deals=deals, matches=int(matches), mean_score_diff=mean, diff_low=lo, diff_high=hi,
        a_mean=int(c[L.AR_SCORE]) / (2 * deals), b_mean=int(c[L.AR_SCORE + 1]) / (2 * deals),
        thrown_in=int(c[L.AR_THROWN_IN]), match_wins=int(c[L.AR_WINS]),
        match_draws=int(c[L.AR_DRAWS]), match_unfinished=int(c[L.AR_UNFINISHED]),
        decisions=dec, seconds_per_decision=(float(spd[0]), float(spd[1])), seconds=seconds,
        executor=ran.executor,
        worlds_drawn=(int(c[L.AR_WORLDS_DRAWN]), int(c[L.AR_WORLDS_DRAWN + 1])),
        worlds_given=(int(c[L.AR_WORLDS_GIVEN]), int(c[L.AR_WORLDS_GIVEN + 1])),
        worlds_short=(int(c[L.AR_WORLDS_SHORT]), int(c[L.AR_WORLDS_SHORT + 1])),
    )
    if ran.run_dir is not None:
        write_arena(result, ran.run_dir.path)
        ran.run_dir.write_info({"status": "complete", "settings": job.to_json(),
                            "done": job.total, "provenance": result.provenance()})
    return result


def write_arena(result: ArenaResult, out: str | Path) -> Path:
    """Write ``OUT/summary.parquet`` (with the provenance in its metadata) and
    ``OUT/arena.json``; return the directory."""
    import json

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    prov = result.provenance()
    write_parquet(result.table(), out / "summary.parquet", prov)
    write_text_atomic(out / "arena.json", json.dumps(prov, indent=2) + "\n")
    return out
