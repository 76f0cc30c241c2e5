"""Golden outputs: digests of the numbers and deal logs of a fixed set of runs.

A change that is meant to keep every result (a redesign, a speed-up) must leave every
digest of ``golden_outputs.json`` as it is; ``tests/test_golden.py`` checks that. A change
of the rules or of a player's behaviour changes some digests on purpose: record them
again and say in the commit which cases changed and why::

    python tests/golden.py record     # rewrite tests/golden_outputs.json
    python tests/golden.py check      # list the cases whose digests differ
    python tests/golden.py check --executor dask   # the runs on a local Dask cluster

Each case is a preset with options, the players, and a small run: the counters of
``simulate`` (independent deals or whole matches), the deal logs of the first deals
(``simulated_deals``, or the deals of one match with ``play_match``), and for the arena
its figures (timings left out). The *gate* cases (:func:`gate_cases`) are larger: for
each preset the summary table of 200,000 deals and of 2,000 matches under random and
realistic players and the first 200 deal logs; two arenas; ``analyse`` of 50 deals; the
exact declaration odds.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belote_sim.rules import PRESETS as _PRESETS

GOLDEN_FILE = Path(__file__).with_name("golden_outputs.json")

PRESETS = tuple(_PRESETS)
#: The presets the dd bidder plays (the retourne bidding of RULES 7.1).
RETOURNE_BIDDING = tuple(p for p, r in _PRESETS.items() if r.contract == "retourne")


@dataclass(frozen=True)
class Case:
    """One golden run."""

    preset: str
    options: dict = field(default_factory=dict)
    bid: str = "random"
    play: str = "random"
    deals: int = 0  # independent deals counted (0: matches instead)
    matches: int = 0
    logs: int = 8  # deal logs digested (deals, or the deals of match 0)
    arena: str = ""  # "A,B": an arena between two play policies instead of a run
    kind: str = "run"  # "run" (counters), "summary" (the summary table), "analyse", "odds"

    @property
    def name(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        unit = f"{self.deals}d" if self.deals else f"{self.matches}m"
        what = f"arena {self.arena}" if self.arena else f"{self.bid}/{self.play}"
        kind = "" if self.kind == "run" else f" {self.kind}"
        return f"{self.preset}[{opts}] {what} {unit}{kind}"


def cases() -> list[Case]:
    """Every preset under random and realistic players, in deals and in matches; the
    cut pack; the solver players and the dd bidder on a few deals; an arena."""
    out = []
    for p in PRESETS:
        for bid, play in (("random", "random"), ("threshold", "heuristic"),
                          ("threshold", "random"), ("random", "heuristic")):
            out.append(Case(p, bid=bid, play=play, deals=3_000, logs=12))
        out.append(Case(p, bid="threshold", play="heuristic", matches=40))
        out.append(Case(p, bid="random", play="random", matches=40))
        out.append(Case(p, {"shuffle": "cut"}, "threshold", "heuristic", matches=40))
    for p in ("tout-atout", "no-contract-2p", "no-contract-4p"):
        for bid in ("random", "threshold"):
            out.append(Case(p, {"second_round": "others"}, bid, "heuristic", deals=3_000))
            out.append(Case(p, {"second_round": "any"}, bid, "heuristic", deals=3_000))
    for p in ("classic", "litige", "stock-2p", "three-player"):
        out.append(Case(p, {"second_round": "any"}, "threshold", "heuristic", deals=2_000))
        out.append(Case(p, {"second_round": "any"}, "random", "random", deals=2_000))
    out.append(Case("classic", {"undertrump": "free", "first_packets": "2-3"}, "threshold",
                    "heuristic", deals=3_000))
    out.append(Case("coinche", {"all_no_trumps_round": False}, "threshold", "heuristic",
                    deals=3_000))
    for p in RETOURNE_BIDDING:
        out.append(Case(p, bid="dd", play="heuristic", deals=24, logs=6))
    # The solver players: with uniform worlds (as recorded before they read the calls),
    # and with worlds given the calls.
    for p in ("classic", "coinche", "stock-2p", "no-contract-2p", "tout-atout"):
        out.append(Case(p, bid="threshold", play="fastpimc:3:uniform", deals=6, logs=3))
    out.append(Case("classic", bid="threshold", play="pimc:2:uniform", deals=3, logs=2))
    for p in ("classic", "coinche", "tout-atout", "three-player"):
        out.append(Case(p, bid="threshold", play="fastpimc:3", deals=6, logs=3))
    out.append(Case("coinche", bid="table", play="fastpimc:3", deals=6, logs=3))
    out.append(Case("classic", bid="threshold", play="pimc:2", deals=3, logs=2))
    out.append(Case("classic", bid="threshold", play="dd", deals=6, logs=3))
    out.append(Case("classic", arena="heuristic,random", bid="threshold", deals=400,
                    matches=20))
    out.append(Case("coinche", arena="heuristic,random", bid="threshold", deals=400,
                    matches=20))
    return out + gate_cases()


def gate_cases() -> list[Case]:
    """The larger cases of the redesign's gate (issue 13)."""
    out = []
    for p in PRESETS:
        for bid, play in (("random", "random"), ("threshold", "heuristic")):
            out.append(Case(p, bid=bid, play=play, deals=200_000, logs=200, kind="summary"))
            out.append(Case(p, bid=bid, play=play, matches=2_000, logs=0, kind="summary"))
    out.append(Case("classic", arena="heuristic,random", bid="threshold", deals=20_000,
                    matches=1_000))
    out.append(Case("classic", arena="fastpimc:4:uniform,heuristic", bid="threshold", deals=60,
                    matches=0))
    out.append(Case("classic", bid="threshold", play="heuristic", deals=50, kind="analyse"))
    out.append(Case("stock-2p", bid="threshold", play="heuristic", deals=10, kind="analyse"))
    out.append(Case("classic", deals=1, kind="odds"))
    return out


#: The arena's figures that are a function of (rules, players, seed, counts): not its
#: timings.
ARENA_FIGURES = ("a", "b", "bid_policy", "seed", "deals", "matches", "mean_score_diff",
                 "diff_low", "diff_high", "a_mean", "b_mean", "thrown_in", "match_wins",
                 "match_draws", "match_unfinished", "decisions")


def _digest(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run_case(case: Case, executor: Any = "local") -> dict[str, str]:
    """The digests of one case: ``counters`` and ``logs`` (or ``arena``), its runs played
    on ``executor`` (the deal logs in this process)."""
    from belote_sim import Rules
    from belote_sim.studies.arena import arena
    from belote_sim.studies.simulate import play_match, simulate, simulated_deals

    rules = Rules.from_preset(case.preset, **case.options)
    if case.kind == "odds":
        from belote_sim.studies.odds import exact_odds

        return {"odds": _digest(exact_odds(8).to_dict("list")),
                "odds9": _digest(exact_odds(9).to_dict("list"))}
    if case.kind == "analyse":
        from belote_sim.deallog.analyse import analyse

        logs = simulated_deals(rules, case.deals, seed=11, bid_policy=case.bid,
                               play_policy=case.play)
        return {"analyse": _digest([analyse(d) for d in logs])}
    if case.arena:
        a, b = case.arena.split(",")
        res = arena(a, b, rules=rules, deals=case.deals, matches=case.matches, seed=7,
                    bid_policy=case.bid, executor=executor)
        figures = {k: getattr(res, k) for k in ARENA_FIGURES}
        return {"arena": _digest(figures)}
    if case.deals:
        run = simulate(rules, deals=case.deals, seed=11, bid_policy=case.bid,
                       play_policy=case.play, executor=executor)
        logs = simulated_deals(rules, case.logs, seed=11, bid_policy=case.bid,
                               play_policy=case.play)
    else:
        run = simulate(rules, matches=case.matches, seed=11, bid_policy=case.bid,
                       play_policy=case.play, executor=executor)
        logs = play_match(rules, seed=11, match=0, bid_policy=case.bid,
                          play_policy=case.play) if case.logs else []
    if case.kind == "summary":  # what summary.parquet and histograms.parquet hold
        return {"summary": _digest(run.table().to_dict("list")),
                "histograms": _digest(run.histograms().to_dict("list")), "logs": _digest(logs)}
    return {"counters": _digest(run.counters), "logs": _digest(logs)}


def compute(only: list[Case] | None = None, executor: Any = "local"
            ) -> dict[str, dict[str, str]]:
    return {c.name: run_case(c, executor) for c in (only if only is not None else cases())}


def main(argv: list[str]) -> int:
    dask = argv[2:] == ["--executor", "dask"]
    if len(argv) not in (2, 4) or argv[1] not in ("record", "check") or (
            len(argv) == 4 and not (dask and argv[1] == "check")):
        print(__doc__)
        return 2
    if dask:
        from belote_sim.runner.distributed import DaskExecutor

        executor = DaskExecutor(n_workers=2, threads=1)
        try:
            now = compute(executor=executor)
        finally:
            executor.close()
    else:
        now = compute()
    if argv[1] == "record":
        GOLDEN_FILE.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(now)} cases to {GOLDEN_FILE}")
        return 0
    old = json.loads(GOLDEN_FILE.read_text())
    differ = [k for k in now if old.get(k) != now[k]]
    for k in differ:
        print(f"differs: {k}: {old.get(k)} -> {now[k]}")
    print(f"{len(now) - len(differ)} of {len(now)} cases unchanged")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
