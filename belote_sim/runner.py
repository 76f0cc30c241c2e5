"""The simulation runner: validated arguments in, counters and a summary out.

>>> from belote_sim import Rules, simulate
>>> run = simulate(Rules.from_preset("classic"), deals=2_000, seed=7)
>>> run.counters["deals"]
2000
>>> bool(0 < run.table().set_index("metric").loc["take_rate", "value"] < 1)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np
import pandas as pd

from belote_sim import kernels as K
from belote_sim.deallog import record_to_deal
from belote_sim.errors import BeloteError
from belote_sim.kernels import layout as L
from belote_sim.policies import (
    DEFAULT_BID_PARAM,
    bid_policy_id,
    play_policy_id,
    policy_params,
)
from belote_sim.rules import Rules
from belote_sim.stats import counters_to_dict, summary_table

#: Deals per call of the chunk kernel (progress is reported between chunks).
CHUNK = 1_000_000
#: Blocks per chunk: enough for every core to stay busy; results do not depend on it.
BLOCKS_PER_CHUNK = 64


@dataclass(frozen=True)
class PolicySpec:
    """A policy name with its optional parameter, as written ``name[:param]``.

    >>> PolicySpec.parse("threshold:60", kind="bid")
    PolicySpec(kind='bid', name='threshold', param=60.0)
    """

    kind: str
    name: str
    param: float | None = None

    @classmethod
    def parse(cls, text: str, kind: str) -> PolicySpec:
        name, _, raw = text.partition(":")
        name = name.strip().lower()
        (bid_policy_id if kind == "bid" else play_policy_id)(name)
        param = None
        if raw:
            try:
                param = float(raw)
            except ValueError:
                raise BeloteError(f"bad parameter {raw!r} in {kind} policy {text!r}") from None
        if kind == "bid":
            if param is None:
                param = DEFAULT_BID_PARAM[name]
            if name == "random" and not 0.0 <= param <= 1.0:
                raise BeloteError(f"take probability {param} of {text!r} is not in 0..1")
        elif param is not None:
            raise BeloteError(f"play policy {name!r} takes no parameter ({text!r})")
        return cls(kind, name, param)

    @property
    def id(self) -> int:
        return bid_policy_id(self.name) if self.kind == "bid" else play_policy_id(self.name)

    def params(self) -> np.ndarray:
        return policy_params(*(() if self.param is None else (self.param,)))

    def __str__(self) -> str:
        return self.name if self.param is None else f"{self.name}:{self.param:g}"


@dataclass
class SimulationResult:
    """What a run produced: its settings, named counters and timing."""

    rules: Rules
    bid_policy: PolicySpec
    play_policy: PolicySpec
    seed: int
    deals: int
    counters: dict[str, int]
    raw_counters: np.ndarray = field(repr=False)
    wall_seconds: float = 0.0
    threads: int = 1

    def table(self) -> pd.DataFrame:
        """Headline figures with 95% intervals (see :func:`belote_sim.stats.summary_table`)."""
        return summary_table(self.raw_counters)

    def provenance(self) -> dict[str, Any]:
        """Everything needed to reproduce the run."""
        import belote_sim

        return {
            "rules": {"preset": self.rules.preset, "options": self.rules.options()},
            "bid_policy": str(self.bid_policy),
            "play_policy": str(self.play_policy),
            "seed": self.seed,
            "deals": self.deals,
            "version": belote_sim.__version__,
            "numba": numba.__version__,
            "numpy": np.__version__,
            "threads": self.threads,
            "wall_seconds": self.wall_seconds,
            "deals_per_second": self.deals / self.wall_seconds if self.wall_seconds else None,
        }


def check_run_args(deals: int, seed: int, threads: int | None = None) -> None:
    """Refuse non-positive deal counts, negative seeds and bad thread counts."""
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals <= 0:
        raise BeloteError(f"deals must be a positive integer, not {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not (
        0 <= seed < 2**63
    ):
        raise BeloteError(f"seed must be an integer in 0..2**63-1, not {seed!r}")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise BeloteError(
            f"threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, not {threads!r}"
        )


def _specs(bid_policy: str | PolicySpec, play_policy: str | PolicySpec):
    bid = bid_policy if isinstance(bid_policy, PolicySpec) else PolicySpec.parse(bid_policy, "bid")
    play = (
        play_policy
        if isinstance(play_policy, PolicySpec)
        else PolicySpec.parse(play_policy, "play")
    )
    return bid, play


def simulate(
    rules: Rules,
    deals: int,
    seed: int = 0,
    *,
    bid_policy: str | PolicySpec = "random",
    play_policy: str | PolicySpec = "random",
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play ``deals`` independent deals and count what happened.

    Deal ``i`` is a pure function of (rules, policies, seed, i): the counters are the
    same for any ``threads``. ``progress(done, total)`` is called after each chunk.
    """
    rules.check_implemented()
    check_run_args(deals, seed, threads)
    bid, play = _specs(bid_policy, play_policy)
    old_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        arr = rules.to_array()
        total = np.zeros(L.N_COUNTERS, dtype=np.int64)
        t0 = time.perf_counter()
        done = 0
        while done < deals:
            n = min(CHUNK, deals - done)
            counters, errors = K.simulate.simulate_counts(
                arr, bid.id, bid.params(), play.id, play.params(), seed, done, n,
                BLOCKS_PER_CHUNK,
            )
            if errors:
                raise RuntimeError(f"{errors} deal(s) had an illegal policy choice (a bug)")
            total += counters
            done += n
            if progress is not None:
                progress(done, deals)
        wall = time.perf_counter() - t0
        used = numba.get_num_threads()
    finally:
        numba.set_num_threads(old_threads)
    return SimulationResult(
        rules, bid, play, seed, deals, counters_to_dict(total), total, wall, used
    )


def simulated_deals(
    rules: Rules,
    deals: int,
    seed: int = 0,
    *,
    bid_policy: str | PolicySpec = "random",
    play_policy: str | PolicySpec = "random",
    start: int = 0,
) -> list[dict]:
    """Deal-log objects (DEAL_LOG.md, result fields included) of deals
    ``start .. start+deals-1`` of the run ``seed``: the very deals :func:`simulate` counts.

    >>> from belote_sim import Rules
    >>> d = simulated_deals(Rules(), 1, seed=3)[0]
    >>> len(d["pack"]), d["dealer"]
    (32, 0)
    """
    rules.check_implemented()
    check_run_args(deals, seed)
    bid, play = _specs(bid_policy, play_policy)
    recs = K.simulate.simulate_records(
        rules.to_array(), bid.id, bid.params(), play.id, play.params(), seed, start, deals
    )
    return [record_to_deal(r, rules) for r in recs]


def play_match(
    rules: Rules,
    seed: int = 0,
    match: int = 0,
    *,
    bid_policy: str | PolicySpec = "random",
    play_policy: str | PolicySpec = "random",
    max_deals: int = 500,
) -> dict[str, Any]:
    """Play one match to the target (RULES.md section 8, Match) and return
    ``{"winner", "scores", "deals"}``; ``winner`` is a side, ``"draw"``, or ``None`` when
    ``max_deals`` deals did not finish it. ``deals`` are deal-log objects, carried litige
    pots (``pot_before``) included.

    >>> from belote_sim import Rules
    >>> m = play_match(Rules(), seed=1)
    >>> m["winner"] in (0, 1, "draw") and max(m["scores"]) >= 1000
    True
    """
    rules.check_implemented()
    check_run_args(max_deals, seed)
    bid, play = _specs(bid_policy, play_policy)
    out = np.zeros((max_deals, L.REC_SIZE), dtype=np.int64)
    n, winner, s0, s1 = K.simulate.play_match(
        rules.to_array(), bid.id, bid.params(), play.id, play.params(), seed, match,
        max_deals, out,
    )
    return {
        "winner": {-1: None, 2: "draw"}.get(int(winner), int(winner)),
        "scores": [int(s0), int(s1)],
        "deals": [record_to_deal(r, rules) for r in out[:n]],
    }


__all__ = ["simulate", "simulated_deals", "play_match", "SimulationResult", "PolicySpec"]
