"""The published study: ``make study`` (``belote-sim study``) plays every part from fixed
seeds and keeps its figures as small Parquet tables in ``results/tables/``;
:mod:`belote_sim.report.study` writes ``results/README.md`` and its plots
(``results/plots/``) from those tables alone.

Parts (each a function of :class:`Sizes` returning tables):

- every preset between realistic players (threshold bidding, heuristic play): take,
  made, dedans, capot, tie and litige rates, mean scores, over single deals and over
  whole matches;
- declaration odds of one hand, exact and sampled, and what ``shuffle=cut`` does to the
  declarations dealt (whole matches, the two rules on the same seeds);
- the bid atlases the package ships (classic and coinche) summarised, and the gap
  between double-dummy and heuristic play on the same decisions;
- card values under heuristic and double-dummy play;
- the rule-option factorials of classic (play options, scoring options), over deals and
  over matches;
- the players' strengths against each other (the arena) and their time per decision;
- worlds that know the auction: bid strength at a few positions with worlds given the
  calls and with uniform worlds, and ``fastpimc:20`` with either kind of worlds against
  itself.

Every run of a part is committed under ``OUT/runs/`` (:class:`StudyRuns`), and each
finished part keeps its tables there, so an interrupted study resumes part by part
(:func:`run_study`).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

from belote_sim.errors import BeloteError
from belote_sim.rules import BOOL_OPTIONS, CHOICES, PRESETS, RULEBOOK_SOURCES, Rules
from belote_sim.runner.jobs import RunOptions
from belote_sim.runner.rundir import read_provenance, software, write_parquet
from belote_sim.runner.rundir import write_text_atomic as _write_text
from belote_sim.studies.atlas import SHIPPED, SUMS
from belote_sim.studies.bid_strength import WORLDS_GIVEN

#: The seed of every part (one per part, so that a part can be rerun alone).
SEEDS = {"presets": 16, "odds": 16, "shuffle": 16, "atlas_gap": 16, "card_values": 16,
         "factorial": 15, "arena": 16, "worlds": 16, "rulebooks": 16}
#: The players of every part but the arena: realistic belote.
PLAYERS = {"bid_policy": "threshold", "play_policy": "heuristic"}


@dataclass(frozen=True)
class Sizes:
    """How much each part plays."""

    preset_deals: int
    preset_matches: int
    odds_samples: int
    shuffle_matches: int
    gap_deals: dict[str, int]
    card_deals: int
    card_dd_deals: int
    factorial_deals: int
    factorial_matches: int
    #: (A, B, A's bidding, B's bidding, deals, matches)
    arena: tuple[tuple[str, str, str, str, int, int], ...] = field(default=())
    #: Worlds per bid-strength position, and deals per preset of the arena of
    #: ``fastpimc:20`` given the calls against its uniform worlds.
    worlds_strength: int = 0
    worlds_arena_deals: int = 0
    #: Deals per cell of the club disputes' factorials; deals and matches per cell of
    #: the rulebooks' comparison; (A, B, matches) of each skill match per rulebook.
    dispute_deals: int = 0
    rulebook_deals: int = 0
    rulebook_matches: int = 0
    skill: tuple[tuple[str, str, int], ...] = field(default=())


FULL = Sizes(
    preset_deals=1_000_000, preset_matches=20_000, odds_samples=2_000_000,
    shuffle_matches=50_000, gap_deals={"classic": 1_500, "coinche": 300}, card_deals=50_000,
    card_dd_deals=200, factorial_deals=2_000_000, factorial_matches=50_000,
    arena=(("heuristic", "random", "threshold", "threshold", 100_000, 10_000),
           ("heuristic", "heuristic", "table", "threshold", 100_000, 10_000),
           ("fastpimc:20", "heuristic", "threshold", "threshold", 2_000, 0)),
    worlds_strength=20_000, worlds_arena_deals=2_000,
    dispute_deals=1_000_000, rulebook_deals=1_000_000, rulebook_matches=20_000,
    skill=(("heuristic", "random", 5_000), ("fastpimc:20", "heuristic", 300)),
)
QUICK = Sizes(
    preset_deals=2_000, preset_matches=20, odds_samples=20_000, shuffle_matches=20,
    gap_deals={"classic": 4, "coinche": 2}, card_deals=300, card_dd_deals=2,
    factorial_deals=500, factorial_matches=10,
    arena=(("heuristic", "random", "threshold", "threshold", 300, 4),),
    worlds_strength=200, worlds_arena_deals=4,
    dispute_deals=300, rulebook_deals=300, rulebook_matches=4,
    skill=(("heuristic", "random", 4),),
)

#: The tables of the study, each written to ``tables/NAME.parquet``.
TABLES = ("about", "presets", "odds", "shuffle", "atlas", "atlas_gap", "card_values",
          "factorial", "arena", "worlds_strength", "worlds_arena", "disputes", "rulebooks",
          "skill")
#: Tables written beside them by another command (the one named), rendered when present:
#: the match against colver (``benchmarks/bench_vs_colver.py``; colver is no dependency
#: of the study).
OTHER_TABLES = {"ladder": "bench_vs_colver"}

@dataclass(frozen=True)
class StudyRuns:
    """Where the study commits its runs and how they run (nothing here changes a
    figure): every run of a part is a run directory under ``root`` (``OUT/runs/``), so an
    interrupted study resumes chunk by chunk, and each finished part keeps its tables
    there (``parts/``), so a study run again plays only the parts it had not finished.
    ``run`` is the study's :class:`~belote_sim.runner.jobs.RunOptions` (its executor
    shared by every run)."""

    root: Path
    run: RunOptions

    def at(self, name: str) -> RunOptions:
        """The run options of the run called ``name``."""
        return replace(self.run, out=self.root / name)


# -- The parts --------------------------------------------------------------------------


def row_where(df: pd.DataFrame, **where) -> pd.Series | None:
    """The first row of ``df`` whose columns have the values ``where`` gives, or None."""
    mask = pd.Series(True, index=df.index)
    for k, v in where.items():
        mask &= df[k] == v
    rows = df[mask]
    return None if rows.empty else rows.iloc[0]


def _tidy(df: pd.DataFrame, **columns) -> pd.DataFrame:
    return df.assign(**columns)[[*columns, *df.columns]]


def presets_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.simulate import simulate

    parts = []
    for name in PRESETS:
        rules = Rules.from_preset(name)
        for unit, count in (("deals", s.preset_deals), ("matches", s.preset_matches)):
            if unit == "deals" and rules.shuffle == "cut":
                continue  # a cut pack depends on the deal before: whole matches only
            kw = {"deals": count} if unit == "deals" else {"matches": count}
            run = simulate(rules, seed=SEEDS["presets"], **kw, **PLAYERS,
                           run=runs.at(f"presets/{name}-{unit}"))
            parts.append(_tidy(run.table(), preset=name, unit=unit))
    return {"presets": pd.concat(parts, ignore_index=True)}


def odds_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.odds import exact_odds, sampled_odds

    parts = [_tidy(exact_odds(c), cards=c, method="exact") for c in (8, 9)]
    parts.append(_tidy(sampled_odds(8, s.odds_samples, SEEDS["odds"], run=runs.at("odds")),
                       cards=8, method="sampled"))
    return {"odds": pd.concat(parts, ignore_index=True)}


def shuffle_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.compare import compare, named_cells

    cells = named_cells([("shuffle=full", "classic", {}),
                         ("shuffle=cut", "classic", {"shuffle": "cut"})])
    table = compare(cells, matches=s.shuffle_matches, seed=SEEDS["shuffle"], **PLAYERS,
                    run=runs.at("shuffle"))
    return {"shuffle": pd.DataFrame(table)}


#: The atlases the study summarises: the ones the package ships.
ATLAS_PRESETS = tuple(SHIPPED)


def atlas_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.atlas import bid_table, model_gap, shipped_atlas

    grids, gaps = [], []
    for preset in ATLAS_PRESETS:
        atlas = shipped_atlas(preset)
        grid = atlas.groupby(["model", "holding", "side_aces"], sort=False)[
            list(SUMS)].sum().reset_index()
        grids.append(_tidy(grid, preset=preset,
                           deals=int(atlas.attrs["provenance"]["deals"])))
        both = bid_table(preset, s.gap_deals[preset], seed=SEEDS["atlas_gap"],
                         models="heuristic,dd", bid_policy=PLAYERS["bid_policy"],
                         run=runs.at(f"atlas-gap/{preset}"))
        by = "round" if "round" in both.columns else "strain"
        for key in (by, "trumps", "holding"):
            gap = model_gap(both, "heuristic", by=[key]).sort_values(key, kind="stable")
            gap = gap.rename(columns={key: "level"})
            gaps.append(_tidy(gap.astype({"level": "string"}), preset=preset, by=key))
    return {"atlas": pd.concat(grids, ignore_index=True),
            "atlas_gap": pd.concat(gaps, ignore_index=True)}


def card_values_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.card_values import card_values

    parts = [card_values("classic", s.card_deals, seed=SEEDS["card_values"],
                         models="heuristic", run=runs.at("card-values/heuristic")),
             card_values("classic", s.card_dd_deals, seed=SEEDS["card_values"],
                         models="dd", run=runs.at("card-values/dd"))]
    return {"card_values": pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)}


PRESET = "classic"
PLAY_OPTIONS = ("must_trump", "partner_exemption", "overtrump_partner", "undertrump")
SCORING_OPTIONS = ("declarations", "belote", "split_long_runs", "declaration_tie",
                   "king_value")


def _word(value) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def factor(name: str, preset: str = PRESET, level: Any = None) -> tuple[str, list[str]]:
    """An option as a two-level factor, ``preset``'s value first (the base of its main
    effect), then its other value, or ``level`` for an option of more values, as
    :mod:`belote_sim.rules` declares them."""
    values = (True, False) if name in BOOL_OPTIONS else CHOICES[name]
    base = getattr(Rules.from_preset(preset), name)
    others = [v for v in values if v != base]
    if level is not None:
        others = [v for v in others if v == level]
    if len(others) != 1:
        raise BeloteError(f"{name} is not a two-valued option: {values}")
    return name, [_word(base), _word(others[0])]


#: Interactions listed per factorial (the smallest Holm p-values).
MAX_INTERACTIONS = 10
#: The two factorials: their names and factors.
FACTORIALS = {"play options": [factor(n) for n in PLAY_OPTIONS],
              "scoring options": [factor(n) for n in SCORING_OPTIONS]}


def factorial_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.compare import compare, factorial_cells

    parts = []
    for name, factors in FACTORIALS.items():
        cells = factorial_cells(PRESET, {}, factors)
        for unit, kw in (("deals", {"deals": s.factorial_deals}),
                         ("matches", {"matches": s.factorial_matches})):
            table = compare(cells, seed=SEEDS["factorial"], factors=factors, **kw, **PLAYERS,
                            run=runs.at(f"factorial/{name.replace(' ', '-')}-{unit}"))
            parts.append(_tidy(pd.DataFrame(table), study=name, unit=unit))
    return {"factorial": pd.concat(parts, ignore_index=True)}


def arena_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.arena import arena

    rows = []
    for a, b, a_bid, b_bid, deals, matches in s.arena:
        r = arena(a, b, deals=deals, matches=matches, seed=SEEDS["arena"], a_bid=a_bid,
                  b_bid=b_bid, run=runs.at(f"arena/{a}-{a_bid}-vs-{b}-{b_bid}"))
        decided = r.games - r.match_unfinished
        rows.append({
            "a": a, "b": b, "a_bid": a_bid, "b_bid": b_bid, "deals": deals,
            "matches": matches, "mean_score_diff": r.mean_score_diff,
            "diff_low": r.diff_low, "diff_high": r.diff_high, "games": decided,
            "a_match_wins": r.match_wins, "a_seconds_per_decision": r.seconds_per_decision[0],
            "b_seconds_per_decision": r.seconds_per_decision[1],
        })
    return {"arena": pd.DataFrame(rows)}


#: The club disputes of coinche (RULES.md section 9's second table) as two factorials
#: over ``coinche``, every cell on the same deals: what a failed or coinched contract
#: scores, and what the contract test asks and how the score is written. (A factorial
#: of all nine would hold 512 cells, whose paired moments the kernel cannot keep.)
DISPUTE_PRESET = "coinche"
DISPUTES = {
    "what a failed or coinched contract scores": [
        factor("coinche_base", DISPUTE_PRESET),
        factor("coinche_multiplies", DISPUTE_PRESET, "all"),
        factor("surcoinche_mult", DISPUTE_PRESET),
        factor("capot_bid", DISPUTE_PRESET),
        factor("belote_prenable", DISPUTE_PRESET)],
    "what the contract asks and how the score is written": [
        factor("coinche_scoring", DISPUTE_PRESET, "bid"),
        factor("beat_defence", DISPUTE_PRESET),
        factor("eighty_needs", DISPUTE_PRESET),
        factor("round_up_from", DISPUTE_PRESET)],
}
#: The rulebooks compared, ``coinche`` first, then the presets of RULES.md section 10.
RULEBOOKS = ("coinche", *RULEBOOK_SOURCES)


def rulebooks_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    """The club disputes' factorials; the rulebooks paired deal by deal and match by
    match, each in turn the base of the others; and how much each rulebook rewards the
    stronger of two sides (duplicate matches to its target)."""
    from belote_sim.stats import wilson_interval
    from belote_sim.studies.arena import arena
    from belote_sim.studies.compare import compare, factorial_cells, named_cells

    seed = SEEDS["rulebooks"]
    disputes = []
    for name, factors in DISPUTES.items():
        cells = factorial_cells(DISPUTE_PRESET, {}, factors)
        table = compare(cells, deals=s.dispute_deals, seed=seed, factors=factors, **PLAYERS,
                        run=runs.at(f"disputes/{_slug(name)}"))
        disputes.append(_tidy(pd.DataFrame(table), study=name))
    books = []
    for base in RULEBOOKS:
        cells = named_cells([(p, p, {}) for p in (base, *(b for b in RULEBOOKS if b != base))])
        for unit, kw in (("deals", {"deals": s.rulebook_deals}),
                         ("matches", {"matches": s.rulebook_matches})):
            table = compare(cells, seed=seed, **kw, **PLAYERS,
                            run=runs.at(f"rulebooks/{base}-{unit}"))
            books.append(_tidy(pd.DataFrame(table), base=base, unit=unit))
    skill = []
    for preset in RULEBOOKS:
        for a, b, matches in s.skill:
            r = arena(a, b, rules=Rules.from_preset(preset), deals=matches, matches=matches,
                      seed=seed, bid_policy=PLAYERS["bid_policy"],
                      run=runs.at(f"skill/{preset}-{_slug(a)}-vs-{_slug(b)}"))
            decided = r.games - r.match_unfinished
            low, high = wilson_interval(r.match_wins, decided)
            skill.append({
                "preset": preset, "a": a, "b": b, "matches": matches, "games": decided,
                "a_match_wins": r.match_wins,
                "a_win_rate": r.match_wins / decided if decided else float("nan"),
                "a_win_low": low, "a_win_high": high, "mean_score_diff": r.mean_score_diff,
                "diff_low": r.diff_low, "diff_high": r.diff_high,
            })
    return {"disputes": pd.concat(disputes, ignore_index=True),
            "rulebooks": pd.concat(books, ignore_index=True), "skill": pd.DataFrame(skill)}


#: The bid-strength positions of the worlds part: what the position asks, the rules, the
#: seat's hand and where it sits (:func:`~belote_sim.studies.bid_strength.decision`).
WORLD_POSITIONS: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("raise the partner's 80♥ holding A♥ T♥?", "coinche", "AH TH 7H AS TS 8C 9D 7D",
     {"seat": 2, "dealer": 3, "calls": "80H pass"}),
    ("bid over an opponent's 90♠?", "coinche", "JH 9H AH KH AD TD 7C 8S",
     {"seat": 0, "dealer": 2, "calls": "90S"}),
    ("name hearts in round 2 after four passes (retourne T♠)?", "classic",
     "JH 9H 7D 8C KS", {"retourne": "TS", "seat": 0, "dealer": 3, "round": 2}),
)
#: The kinds of worlds the part compares (bid strength's), uniform first.
WORLD_KINDS = tuple(sorted(WORLDS_GIVEN, key=lambda given: given != "uniform"))


def worlds_part(s: Sizes, runs: StudyRuns) -> dict[str, pd.DataFrame]:
    from belote_sim.studies.arena import arena
    from belote_sim.studies.bid_strength import bid_strength

    rows = []
    for i, (question, preset, hand, where) in enumerate(WORLD_POSITIONS):
        for given in WORLD_KINDS:
            df = bid_strength(preset, hand, worlds=s.worlds_strength, seed=SEEDS["worlds"],
                              worlds_given=given, **where,
                              run=runs.at(f"worlds/position-{i}-{given}"))
            accept = row_where(df, metric="world_acceptance")
            for group in df[df.metric == "gain_over_pass"].group:
                call = group.split("call=")[1]
                gain = row_where(df, metric="gain_over_pass", group=group)
                made = row_where(df, metric="p_made", group=group)
                rows.append({
                    "position": i, "question": question, "preset": preset, "hand": hand,
                    "where": json.dumps(where), "worlds_given": given, "call": call,
                    "worlds": int(s.worlds_strength), "acceptance": float(accept.value),
                    "gain": gain.value, "gain_low": gain.ci_low, "gain_high": gain.ci_high,
                    "p_made": made.value, "p_made_low": made.ci_low,
                    "p_made_high": made.ci_high,
                })
    arena_rows = []
    for preset in ("coinche", "classic"):
        r = arena("fastpimc:20", "fastpimc:20:uniform", rules=Rules.from_preset(preset),
                  deals=s.worlds_arena_deals, matches=0, seed=SEEDS["worlds"],
                  run=runs.at(f"worlds/arena-{preset}"))
        arena_rows.append({
            "preset": preset, "deals": s.worlds_arena_deals,
            "mean_score_diff": r.mean_score_diff, "diff_low": r.diff_low,
            "diff_high": r.diff_high, "a_seconds_per_decision": r.seconds_per_decision[0],
            "b_seconds_per_decision": r.seconds_per_decision[1],
            "acceptance": r.world_acceptance(0), "worlds_short": r.worlds_short[0],
            "worlds_given": r.worlds_given[0],
        })
    return {"worlds_strength": pd.DataFrame(rows), "worlds_arena": pd.DataFrame(arena_rows)}


#: The parts in the order they run.
PARTS: dict[str, Callable[[Sizes, StudyRuns], dict[str, pd.DataFrame]]] = {
    "presets": presets_part, "odds": odds_part, "shuffle": shuffle_part,
    "atlas": atlas_part, "card values": card_values_part, "factorial": factorial_part,
    "arena": arena_part, "worlds": worlds_part, "rulebooks": rulebooks_part,
}


#: The run directory of the study's runs, below OUT.
RUNS_DIR = "runs"


def _identity(quick: bool, sizes: Sizes) -> dict[str, Any]:
    """What the study's figures depend on: runs committed under another identity are
    not resumed."""
    return {"quick": quick, "version": software()["version"], "seeds": SEEDS,
            "sizes": json.loads(json.dumps(asdict(sizes)))}


def _prepare_runs(root: Path, identity: dict[str, Any], say: Callable[[str], None]) -> None:
    """Keep ``root`` when it holds the runs of the same study, else start it afresh."""
    marker = root / "study.json"
    if marker.is_file():
        if json.loads(marker.read_text()) == identity:
            return
        say(f"study: {root} holds the runs of another study (other sizes, seeds or "
            "version): starting afresh")
        shutil.rmtree(root)
    elif root.exists() and any(root.iterdir()):
        raise BeloteError(f"{str(root)!r} exists and does not hold the study's runs")
    root.mkdir(parents=True, exist_ok=True)
    _write_text(marker, json.dumps(identity, indent=2) + "\n")


def _slug(name: str) -> str:
    """``name`` as a file name: a run's or a part's."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name)


def _load_part(root: Path, name: str) -> tuple[dict[str, pd.DataFrame], float] | None:
    """A finished part's tables and seconds, or None."""
    done = root / "parts" / _slug(name) / "done.json"
    if not done.is_file():
        return None
    info = json.loads(done.read_text())
    tables = {t: pd.read_parquet(done.parent / f"{t}.parquet") for t in info["tables"]}
    return tables, float(info["seconds"])


def _save_part(root: Path, name: str, tables: dict[str, pd.DataFrame], seconds: float) -> None:
    folder = root / "parts" / _slug(name)
    folder.mkdir(parents=True, exist_ok=True)
    for table, df in tables.items():
        write_parquet(df.reset_index(drop=True), folder / f"{table}.parquet",
                      {"command": "study", "part": name, "table": table})
    _write_text(folder / "done.json",
                json.dumps({"tables": sorted(tables), "seconds": seconds}) + "\n")


def run_study(out: str | Path, quick: bool = False,
              say: Callable[[str], None] = print, *, run: RunOptions | None = None,
              **options: Any) -> dict[str, pd.DataFrame]:
    """Play every part and write ``OUT/tables/*.parquet``; return the tables. (The
    README and plots are drawn from those tables by
    :func:`belote_sim.report.study.write_study`.)

    ``quick`` plays a few deals of each part (for the test suite): the figures mean
    nothing, the files are those of the full study. Every run goes through the chunk
    runner as ``run`` (:class:`~belote_sim.runner.jobs.RunOptions`, or its fields as
    keywords: ``threads``, the executor, ``should_stop``; ``out`` and ``chunk_size`` are
    the study's own) says, committed under ``OUT/runs/`` (:class:`StudyRuns`): when
    ``should_stop()`` turns true the study stops after the current chunk with
    :class:`~belote_sim.runner.jobs.RunInterrupted`, and running it again resumes part
    by part and chunk by chunk, to the same tables.
    """
    from belote_sim.runner.jobs import make_executor

    run = RunOptions.of(run, **options)
    sizes = QUICK if quick else FULL
    out = Path(out)
    root = out / RUNS_DIR
    _prepare_runs(root, _identity(quick, sizes), say)
    tables: dict[str, pd.DataFrame] = {}
    timings = []
    started = datetime.now(timezone.utc)
    pool = make_executor(run.executor, run.scheduler, run.workers, run.threads)
    runs = StudyRuns(root, replace(run, executor=pool, scheduler=None, workers=None))
    try:
        for name, part in PARTS.items():
            kept = _load_part(root, name)
            if kept is not None:
                say(f"study: {name} already done")
                part_tables, seconds = kept
            else:
                say(f"study: {name} ...")
                t0 = time.perf_counter()
                part_tables = part(sizes, runs)
                seconds = time.perf_counter() - t0
                _save_part(root, name, part_tables, seconds)
                say(f"study: {name} done in {seconds:.0f} s")
            tables.update(part_tables)
            timings.append((name, seconds))
    finally:
        pool.close()
    soft = software()
    about = [("quick", str(quick)), ("version", soft["version"]),
             ("git_commit", str(soft["git_commit"])), ("numba", soft["numba"]),
             ("numpy", soft["numpy"]), ("started", started.isoformat(timespec="seconds")),
             ("seconds", f"{sum(t for _, t in timings):.0f}")]
    about += [(f"seconds: {n}", f"{t:.0f}") for n, t in timings]
    for k, v in asdict(sizes).items():
        if isinstance(v, dict):
            about += [(f"size: {k} {key}", str(x)) for key, x in v.items()]
        else:
            about.append((f"size: {k}", str(v)))
    about += [(f"seed: {k}", str(v)) for k, v in SEEDS.items()]
    tables["about"] = pd.DataFrame(about, columns=["key", "value"])
    table_dir = out / "tables"
    table_dir.mkdir(parents=True, exist_ok=True)
    for name in TABLES:
        write_parquet(tables[name].reset_index(drop=True), table_dir / f"{name}.parquet",
                      {"command": "study", "table": name, **soft})
    return tables


def load_tables(out: str | Path) -> dict[str, pd.DataFrame]:
    """The study's tables as committed in ``OUT/tables/``.

    :raises BeloteError: a table is missing or was not written by the study.
    """
    tables = {}
    for name in TABLES:
        path = Path(out) / "tables" / f"{name}.parquet"
        if not path.is_file() or read_provenance(path).get("command") != "study":
            raise BeloteError(f"{str(path)!r} is not a table of the study (run make study)")
        tables[name] = pd.read_parquet(path)
    for name, command in OTHER_TABLES.items():
        path = Path(out) / "tables" / f"{name}.parquet"
        if path.is_file() and read_provenance(path).get("command") == command:
            tables[name] = pd.read_parquet(path)
    return tables
