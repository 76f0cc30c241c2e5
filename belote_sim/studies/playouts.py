"""Playouts: the runs that play every decision (or deal) out under one or more card-play
models, each its own :class:`~belote_sim.runner.jobs.Job` of the chunk runner: bid
strength (:mod:`belote_sim.studies.bid_strength`), the bid atlas (:mod:`belote_sim.studies.atlas`)
and card values (:mod:`belote_sim.studies.card_values`).

What they share is here, written once: the checked setup of such a run
(:func:`playout_setup`: rules, seed, bidding policy, play models), the players as the
kernels read them, the job of a playout over simulated deals (:class:`DealsPlayoutJob`),
how a run is finished in its run directory (:func:`finish`) and its provenance.

>>> s = playout_setup("classic", seed=1, bid_policy="threshold", models="heuristic,dd")
>>> [str(m) for m in s.models], s.uses_solver
(['heuristic', 'dd'], True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.players.spec import PolicySpec, as_spec, check_policies
from belote_sim.rules import Rules
from belote_sim.runner.executors import Chunk
from belote_sim.runner.jobs import (
    MAX_SEED,
    Execution,
    Job,
    RunOptions,
    check_int,
    chunk_plan,
    engine_identity,
)
from belote_sim.runner.rundir import software, write_parquet


def rules_of(rules: Rules | str) -> Rules:
    """``rules`` as :class:`Rules` (a preset name is read with its defaults)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.from_preset(rules)
    raise BeloteError(f"rules must be a Rules or a preset name, got {rules!r}")


def play_models(models: str | Iterable[str | PolicySpec]) -> tuple[PolicySpec, ...]:
    """The card-play models of ``"dd,heuristic"`` (or a list), checked, none repeated.

    >>> play_models("dd,dd")
    Traceback (most recent call last):
    belote_sim.errors.BeloteError: a play model is repeated in dd, dd
    """
    items = [m for m in models.split(",") if m.strip()] if isinstance(models, str) else list(
        models
    )
    if not items:
        raise BeloteError("give at least one play model (e.g. heuristic)")
    specs = tuple(as_spec(m.strip() if isinstance(m, str) else m, "play") for m in items)
    if len({str(s) for s in specs}) != len(specs):
        raise BeloteError(f"a play model is repeated in {', '.join(str(s) for s in specs)}")
    return specs


@dataclass(frozen=True)
class PlayoutSetup:
    """What a playout plays with: the rules, the run's seed, the bidding policy (every
    call the run does not fix) and the card-play models, each played in turn."""

    rules: Rules
    seed: int
    bid_policy: PolicySpec
    models: tuple[PolicySpec, ...]

    @property
    def uses_solver(self) -> bool:
        """Whether the players search with the double-dummy solver (small chunks)."""
        return any(m.uses_solver for m in self.models) or self.bid_policy.name == "dd"

    @property
    def solves_once(self) -> bool:
        """Whether the only player that searches is the ``dd`` model, which settles each
        contract of a world by one exact solve (no sampling player, no ``dd`` bidder)."""
        return (self.uses_solver and self.bid_policy.name != "dd"
                and all(m.name == "dd" or not m.uses_solver for m in self.models))

    @property
    def rules_key(self) -> tuple[int, ...]:
        """The rules as the kernels read them, as plain integers (a task carries them)."""
        return tuple(int(x) for x in self.rules.to_array())

    def players_table(self) -> np.ndarray:
        """The kernels' ``float64[M, 4]`` players: per model the bidding policy and its
        parameter, the play policy and its parameter."""
        bid = self.bid_policy
        return np.array([[bid.id, bid.value, m.id, m.value] for m in self.models],
                        dtype=np.float64)

    def lookup(self) -> tuple[np.ndarray, np.ndarray]:
        """The table bidder's lookup the bidding policy needs (empty if none)."""
        from belote_sim.players.lookup import lookup_for

        return lookup_for(self.bid_policy.id)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "bid_policy": str(self.bid_policy),
                "models": [str(m) for m in self.models]}

    def chunk_size(self, run: RunOptions, fast: int, solver: int, dd: int | None = None) -> int:
        """The chunk size ``run`` gives, or the default of the players: ``solver`` items
        per chunk when they search (seconds an item), ``dd`` (when given) when only the
        ``dd`` model searches (:attr:`solves_once`), else ``fast``."""
        if not self.uses_solver:
            default = fast
        else:
            default = dd if dd is not None and self.solves_once else solver
        return run.chunk_size_or(default)


def playout_setup(rules: Rules | str, *, seed: int, bid_policy: str | PolicySpec,
                  models: str | Iterable[str | PolicySpec]) -> PlayoutSetup:
    """Check the parts every playout shares and return them.

    :raises BeloteError: unknown rules, a bad seed, a bidding policy the rules cannot
        use, bad or repeated models.
    """
    rules = rules_of(rules)
    seed = check_int("seed", seed, 0, MAX_SEED)
    bid = as_spec(bid_policy, "bid")
    models = play_models(models)
    check_policies(rules, bid, *models)
    return PlayoutSetup(rules, int(seed), bid, models)


def check_refused(refused: int) -> None:
    """Refuse the results of a run in which a player broke the rules."""
    if refused:
        raise BeloteError(f"a player broke the rules in {int(refused)} deal(s): a policy bug")


@dataclass(frozen=True)
class DealsPlayoutJob:
    """A playout over ``deals`` simulated deals, dealt and bid as ``simulate`` deals
    them: the base of the atlas's and card values' jobs, which name their command, the
    kernel's counter layout, their task type and how their results merge."""

    setup: PlayoutSetup
    deals: int
    chunk_size: int
    unit = "deals"
    command: ClassVar[str]
    layout: ClassVar[int]
    task_type: ClassVar[type]

    @property
    def total(self) -> int:
        return self.deals

    @property
    def uses_solver(self) -> bool:
        """Whether its players search (the kind of its kernels)."""
        return self.setup.uses_solver

    def to_json(self) -> dict[str, Any]:
        return {**engine_identity(self.layout), "command": self.command,
                "rules": self.setup.rules.describe(), **self.setup.to_json(),
                "deals": self.deals, "chunk_size": self.chunk_size}

    def chunks(self) -> list[Chunk]:
        return chunk_plan([("deals", self.deals)], self.chunk_size)

    def task(self, chunk: Chunk, threads: int | None) -> Any:
        return self.task_type(chunk, threads, self.setup)


def provenance(command: str, head: dict[str, Any], setup: PlayoutSetup, unit: str,
               count: int, run: Execution) -> dict[str, Any]:
    """What reproduces a playout (``head``: its decision; its rules when empty), and how
    it went."""
    seconds = run.wall_seconds
    return {
        "command": command,
        **(head or {"rules": setup.rules.describe()}),
        unit: count,
        **setup.to_json(),
        **software(),
        **run.executor,
        "started": run.started,
        "seconds": float(f"{seconds:.3f}"),
        f"{unit}_per_second": (float(f"{run.played / seconds:.1f}")
                               if seconds > 0 and run.played else None),
    }


def finish(ran: Execution, job: Job, table: pd.DataFrame, name: str) -> None:
    """Write ``table`` (its provenance in ``table.attrs``) as ``name`` in the run
    directory of ``ran`` (when it has one) and mark the run complete."""
    run_dir = ran.run_dir
    if run_dir is None:
        return
    prov = table.attrs["provenance"]
    write_parquet(table, run_dir.path / name, prov)
    run_dir.write_info({"status": "complete", "settings": job.to_json(), "done": job.total,
                        "provenance": prov})
