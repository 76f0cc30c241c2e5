"""The arena: measure one card player against another on the same cards.

Every deal is played twice from the same random stream — the same cards and the same
bidding (both sides use the arena's bidding policy) — once with player A on side 0
(seats 0 and 2; seat 0 with two players) and once with the sides swapped. The paired
difference per deal, ``(A - B in pass 1 + A - B in pass 2) / 2`` of the deal scores,
cancels the luck of the cards; its mean comes with a 95% interval. Matches are played
the same way (each twice, sides swapped) for A's win rate. Decisions are timed inside
the kernels with the processor's cycle counter, converted to seconds against the wall
clock of the same run.

>>> from belote_sim.arena import arena
>>> res = arena("heuristic", "random", deals=200, matches=4, seed=1)
>>> res.mean_score_diff > 0
True
>>> sorted(set(res.table()["metric"]))[:2]
['a_match_win_rate', 'a_mean_deal_score']
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.game.chunks import play_match, simulate_records
from belote_sim.io import summary_frame, write_parquet, write_text_atomic
from belote_sim.kernels import layout as L
from belote_sim.kernels.clock import cycles
from belote_sim.players import PLAY_SIDES, policy_params
from belote_sim.rules import Rules
from belote_sim.runner import CHUNK_SOLVER, PolicySpec, check_policies, check_run_args
from belote_sim.stats import mean_interval, wilson_interval

#: Deals per kernel call of the fast players (the solver players use the runner's
#: ``CHUNK_SOLVER``).
CHUNK_FAST = 5_000


@dataclass(frozen=True)
class ArenaResult:
    """The figures of an arena run (see the module docstring)."""

    a: str
    b: str
    rules: Rules
    bid_policy: str
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
        return summary_frame(rows)

    def provenance(self) -> dict[str, Any]:
        import belote_sim

        return {
            "engine": f"{belote_sim.__version__}/{L.N_COUNTERS}",
            "command": "arena",
            "a": self.a,
            "b": self.b,
            "rules": {"preset": self.rules.preset, "options": self.rules.options()},
            "bid_policy": self.bid_policy,
            "seed": self.seed,
            "deals": self.deals,
            "matches": self.matches,
        }

    def report(self) -> str:
        """A few lines for people."""
        lines = [
            f"A = {self.a}, B = {self.b}, {self.rules.preset} rules, bidding "
            f"{self.bid_policy}, seed {self.seed}",
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
                f"time per decision, {who} ({name}): {_fmt_seconds(sec)} over {n_dec:,} "
                "decisions"
            )
        lines.append(f"wall time: {self.seconds:.1f} s")
        return "\n".join(lines)


def _fmt_seconds(sec: float) -> str:
    if not math.isfinite(sec):
        return "n/a"
    if sec >= 1e-3:
        return f"{sec * 1e3:.2f} ms"
    return f"{sec * 1e6:.2f} µs"


def arena(
    a: str | PolicySpec,
    b: str | PolicySpec,
    *,
    rules: Rules | None = None,
    deals: int = 1000,
    matches: int | None = None,
    seed: int = 0,
    bid_policy: str | PolicySpec = "threshold",
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """Play ``deals`` deals and ``matches`` matches (default ``deals // 10``), each twice
    with the sides swapped, between play policies ``a`` and ``b``.

    ``progress(done, total)`` is called after each batch (deals, then matches, each
    played twice). Three-player rules are refused: the sides are not symmetric.
    """
    rules = rules if rules is not None else Rules()
    if rules.players == 3:
        raise BeloteError(
            "the arena needs two sides of equal size: three-player rules have the taker "
            "alone against two"
        )
    spec_a = a if isinstance(a, PolicySpec) else PolicySpec.parse(a, "play")
    spec_b = b if isinstance(b, PolicySpec) else PolicySpec.parse(b, "play")
    bid = bid_policy if isinstance(bid_policy, PolicySpec) else PolicySpec.parse(bid_policy, "bid")
    check_run_args(deals, seed)
    check_policies(rules, bid)
    if matches is None:
        matches = deals // 10
    if isinstance(matches, bool) or not isinstance(matches, (int, np.integer)) or matches < 0:
        raise BeloteError(f"matches must be an integer >= 0, not {matches!r}")
    ab = policy_params(spec_a.id, spec_a.params()[0], spec_b.id, spec_b.params()[0])
    ba = policy_params(spec_b.id, spec_b.params()[0], spec_a.id, spec_a.params()[0])
    arr = rules.to_array()
    slow = spec_a.uses_solver or spec_b.uses_solver
    chunk = CHUNK_SOLVER if slow else CHUNK_FAST
    total = deals + matches
    t0 = time.perf_counter()
    c0 = cycles()
    diff_sum = 0.0
    diff_sq = 0.0
    a_sum = 0
    b_sum = 0
    thrown = 0
    decisions = np.zeros(2, dtype=np.int64)  # A, B
    ticks = np.zeros(2, dtype=np.int64)
    for start in range(0, deals, chunk):
        n = min(chunk, deals - start)
        # Pass p: A plays side p, so side p's scores and timing are A's.
        first = simulate_records(arr, bid.id, bid.params(), PLAY_SIDES, ab, seed, start, n)
        second = simulate_records(arr, bid.id, bid.params(), PLAY_SIDES, ba, seed, start, n)
        a_scores = first[:, L.DEAL_SCORE] + second[:, L.DEAL_SCORE + 1]
        b_scores = first[:, L.DEAL_SCORE + 1] + second[:, L.DEAL_SCORE]
        diff = (a_scores - b_scores) / 2.0
        diff_sum += float(diff.sum())
        diff_sq += float((diff * diff).sum())
        a_sum += int(a_scores.sum())
        b_sum += int(b_scores.sum())
        thrown += int(first[:, L.THROWN_IN].sum())
        for recs, side_a in ((first, 0), (second, 1)):
            decisions[0] += int(recs[:, L.DECISIONS + side_a].sum())
            ticks[0] += int(recs[:, L.DECISION_CYCLES + side_a].sum())
            decisions[1] += int(recs[:, L.DECISIONS + 1 - side_a].sum())
            ticks[1] += int(recs[:, L.DECISION_CYCLES + 1 - side_a].sum())
        if progress:
            progress(start + n, total)
    wins = draws = unfinished = 0
    out = np.zeros((L.MAX_MATCH_DEALS, L.REC_SIZE), dtype=np.int64)
    for m in range(matches):
        for p, params in enumerate((ab, ba)):
            _, w, _ = play_match(
                arr, bid.id, bid.params(), PLAY_SIDES, params, seed, m, L.MAX_MATCH_DEALS, out
            )
            if w < 0:
                unfinished += 1
            elif w == L.MATCH_DRAW:
                draws += 1
            elif w == p:  # A played side p
                wins += 1
        if progress:
            progress(deals + m + 1, total)
    seconds = time.perf_counter() - t0
    per_second = (cycles() - c0) / seconds if seconds > 0 else math.nan
    mean, _, lo, hi = mean_interval(diff_sum, diff_sq, deals)
    dec = (int(decisions[0]), int(decisions[1]))
    spd = tuple(ticks[i] / per_second / dec[i] if dec[i] else math.nan for i in range(2))
    return ArenaResult(
        a=str(spec_a), b=str(spec_b), rules=rules, bid_policy=str(bid), seed=seed,
        deals=deals, matches=int(matches), mean_score_diff=mean, diff_low=lo, diff_high=hi,
        a_mean=a_sum / (2 * deals), b_mean=b_sum / (2 * deals), thrown_in=thrown,
        match_wins=wins, match_draws=draws, match_unfinished=unfinished, decisions=dec,
        seconds_per_decision=(float(spd[0]), float(spd[1])), seconds=seconds,
    )


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
