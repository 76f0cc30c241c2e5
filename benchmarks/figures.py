"""The page of current figures, ``docs/performance.md``, and the README's speed lines,
generated from one sitting of ``make bench``.

``python benchmarks/figures.py`` (the last step of ``make bench``) gathers what the
benchmarks wrote to ``results/`` in this sitting into ``docs/figures.json``, with the
sitting's date, commit, processor and versions, then renders ``docs/performance.md``
and the README's block between its ``speed:begin`` and ``speed:end`` markers from that
file alone. ``python benchmarks/figures.py --render`` renders them again without
gathering. ``tests/test_figures.py`` renders them from the committed
``docs/figures.json`` and requires the committed page and README: no figure on either is
copied by hand, and none is older than the sitting the page names.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from collections import namedtuple
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
FIGURES = ROOT / "docs" / "figures.json"
PAGE = ROOT / "docs" / "performance.md"
README = ROOT / "README.md"
BEGIN = "<!-- speed:begin"
END = "<!-- speed:end -->"

#: The benchmarks of ``make bench`` whose figures the page shows: the file each writes
#: under ``results/``.
BENCHES = {
    "engine": "bench_engine.json",
    "presets": "bench_presets.json",
    "cold": "bench_cold.json",
    "players": "bench_players.json",
    "strength": "bench_strength.json",
    "worlds": "bench_worlds.json",
    "compare": "bench_compare.json",
    "vs_colver": "bench_vs_colver.json",
}


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def gather() -> dict[str, Any]:
    """The sitting: what each benchmark of :data:`BENCHES` wrote (None where it wrote
    nothing), and where and when."""
    import numba
    import numpy

    import belote_sim

    benches = {}
    for name, file in BENCHES.items():
        path = RESULTS / file
        benches[name] = json.loads(path.read_text()) if path.is_file() else None
    return {
        "sitting": {
            "date": datetime.now(timezone.utc).date().isoformat(),
        "commit": _commit(),
        "cpu": _cpu(),
        "cores": __import__("os").cpu_count(),
        "belote_sim": belote_sim.__version__,
        "numba": numba.__version__,
        "numpy": numpy.__version__,
        "python": platform.python_version(),
        },
        "benches": benches,
    }


# -- Formatting --------------------------------------------------------------------------


def n(x: float | None, digits: int = 0) -> str:
    """A number with thousands separators; an em dash for None."""
    return "—" if x is None else f"{x:,.{digits}f}"


def ms(x: float | None) -> str:
    """Milliseconds, in microseconds below a tenth of one."""
    if x is None:
        return "—"
    if x < 0.1:
        return f"{x * 1e3:.2f} µs"
    return f"{x:,.1f} ms" if x >= 10 else f"{x:,.2f} ms"


def s(x: float | None) -> str:
    return "—" if x is None else f"{x:,.2f} s"


def ratio(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}×"


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _missing(name: str) -> list[str]:
    return [f"*Not measured in this sitting (`results/{BENCHES[name]}` was missing).*"]


def _targets(checks: dict[str, bool | None]) -> str:
    def verdict(ok: bool | None) -> str:
        return "colver not installed" if ok is None else ("met" if ok else "**not met**")

    return "Targets: " + "; ".join(f"{k}: {verdict(v)}" for k, v in checks.items()) + "."


# -- The sections ---------------------------------------------------------------------------


def engine_section(e: dict) -> list[str]:
    threads = e["threads"]
    rows = [
        ["shuffle only, 1 thread (baseline)", f"{n(e['shuffle_only_per_s'])} deals/s", ""],
        ["classic, random bidding and play, 1 thread", f"{n(e['classic_1_thread_per_s'])} "
         "deals/s", f"{ratio(e['ratio_to_colver'])} colver's rollouts"],
        ["colver `Env.rollout`, 1 thread", "not installed" if e["colver_rollouts_per_s"] is None
         else f"{n(e['colver_rollouts_per_s'])} rollouts/s", ""],
        [f"classic, random, {threads} threads", f"{n(e['classic_all_threads_per_s'])} deals/s",
         f"{ratio(e['thread_ratio'])} one thread"],
        [f"classic, threshold bidding and heuristic play, {threads} threads",
         f"{n(e['classic_threshold_heuristic_per_s'])} deals/s",
         f"{ratio(e['heuristic_to_random_ratio'])} random play"],
        ["`belote-sim simulate`, 1 thread, start-up left out", f"{n(e['cli_1_thread_per_s'])} "
         "deals/s", f"{ratio(e['cli_ratio_to_colver'])} colver's `Env.rollout` calls"],
        ["peak memory, the import alone", f"{n(e['peak_rss_import_mb'])} MB", ""],
    ]
    rows += [[f"peak memory, a run of {int(k):,} deals", f"{n(v)} MB", ""]
             for k, v in e["peak_rss_run_mb"].items()]
    rows.append(["command start to first deal, warm cache", s(e["start_to_first_deal_s"]),
             "best of 5"])
    return table(["figure", "value", "ratio"], rows) + ["", _targets(e["targets"]), ""]


def presets_section(p: dict) -> list[str]:
    rates = p["deals_per_second"]
    books = p.get("rulebooks", [])
    vs_classic = p.get("vs_classic") or {k: r / rates["classic"] for k, r in rates.items()}
    vs_coinche = p.get("vs_coinche") or {k: rates[k] / rates["coinche"] for k in books}
    rows = [[f"`{name}`", n(r), ratio(vs_classic[name]),
             ratio(vs_coinche[name]) if name in books else ""]
            for name, r in rates.items()]
    out = table(["preset", "deals/s", "against classic", "against coinche"], rows) + [""]
    if books:
        out += [f"Target: each club rulebook at no less than {p['target_vs_coinche']:g}× "
                "`coinche`'s rate.", ""]
    return out


def cold_section(c: dict) -> list[str]:
    out: list[str] = []
    rows = []
    for name, r in c.items():
        if name == "compile_seconds":
            continue
        target = "" if r.get("target_cold_s") is None else f"< {r['target_cold_s']:g} s"
        rows.append([f"`belote-sim {name}`", s(r["cold_s"]), s(r["warm_s"]), target])
    out += table(["command", "cold", "warm", "target (cold)"], rows) + [""]
    kinds = c.get("compile_seconds", {})
    if kinds:
        out += table(["kind of job", "first compilation"],
                 [[f"`{k}`", f"{v:.0f} s"] for k, v in sorted(kinds.items())]) + [""]
    return out


def players_section(p: dict) -> list[str]:
    out: list[str] = []

    def solve_row(label: str, r: dict) -> list[str]:
        return [label, ms(r["mean_ms"]), ms(r["median_ms"]), n(r["nodes_per_second"] / 1e6, 1)]

    rows = [solve_row("exact value, random deal", p["exact"]),
        solve_row("can the takers reach 82, random deal", p["query82"]),
        solve_row("exact value, bid deal", p["bid_deals_exact"]),
        solve_row("exact value, bid deal, by bisection", p["bid_deals_exact_bisection"]),
        solve_row("every card's value, bid deal", p["bid_deals_every_card"]),
        solve_row("every card's value, bid deal, by bisection",
                  p["bid_deals_every_card_bisection"])]
    out += table(["query, from the first lead", "mean", "median", "M nodes/s"], rows) + [""]
    v = p.get("colver_comparison")
    if v:
        out += [f"Every card's value at the first lead against colver {v['colver']}'s "
                f"solver, {v['solves']} solves under coinche's play rules with "
                f"`undertrump=free`: ours {ms(v['ours_mean_ms'])} on average (median "
                f"{ms(v['ours_median_ms'])}), colver's {ms(v['colver_mean_ms'])} (median "
                f"{ms(v['colver_median_ms'])}): "
                f"{ratio(v['ours_mean_ms'] / v['colver_mean_ms'])} its time, "
                f"{ratio(v['ratio_colver_fastest_quarter'])} on its fastest quarter of the "
                f"solves and {ratio(v['ratio_colver_slowest_quarter'])} on its slowest; the "
                f"values equal on {v['equal']} of {v['solves']}.", ""]
    rows = [
        ["`pimc:20`, first lead of a bid deal", ms(p["pimc20_first_lead"]["mean_ms"])],
        ["`fastpimc:20`, first lead of a bid deal", ms(p["fastpimc20_first_lead"]["mean_ms"])],
        ["`pimc:20`, whole deals, uniform worlds", ms(p["pimc20_seconds_per_decision"] * 1e3)],
        ["`fastpimc:20`, the same deals", ms(p["fastpimc20_seconds_per_decision_same_deals"]
                                             * 1e3)],
        ["`fastpimc:20`, more deals, uniform worlds",
         ms(p["fastpimc20_seconds_per_decision"] * 1e3)],
        ["`fastpimc:20`, the same deals, worlds given the calls",
         ms(p["fastpimc20_given_seconds_per_decision"] * 1e3)],
        ["`heuristic`", ms(p["heuristic_seconds_per_decision"] * 1e3)],
    ]
    return out + table(["player", "time per decision"], rows) + [""]


def strength_section(b: dict) -> list[str]:
    rows = [
        ["`bid-strength`, 10,000 worlds, heuristic, start-up included",
         s(b["cli_10000_worlds_heuristic_s"]), "< 2 s"],
        ["the same in-process", s(b["heuristic_10000_worlds_s"]),
         f"{n(b['strength_heuristic_worlds_per_s'])} worlds/s"],
        ["200 worlds, `fastpimc:20`", s(b["fastpimc20_200_worlds_s"]), "< 60 s"],
        [f"`bid-strength --models dd`, {n(b['dd_worlds'])} worlds, start-up included",
         s(b["dd_command_s"]), "< 20 s"],
        ["`bid-table`, 100,000 classic deals, heuristic", s(b["atlas_100000_deals_s"]),
         f"{ratio(b['atlas_to_simulate_ratio'])} `simulate`'s deals/s (target ≥ 0.4)"],
        ["`simulate`, table bidder, heuristic play",
         f"{n(b['simulate_table_heuristic_deals_per_s'])} deals/s",
         f"{ratio(b['table_to_threshold_ratio'])} threshold bidding"],
    ]
    return table(["what", "figure", "against"], rows) + [""]


def worlds_section(w: dict) -> list[str]:
    rows = [[f"`bid-strength --rules {r['position']}`, 10,000 worlds, start-up included",
         s(r["given_s"]), s(r["uniform_s"]), pct(r["acceptance"]) + " of packs",
         f"< {r['target_s']:g} s"] for r in w["strength"]]
    rows += [[f"`fastpimc:20` per decision, {r['preset']} ({r['deals']} deals, sides swapped)",
          ms(r["given_ms"]), ms(r["uniform_ms"]), pct(r["acceptance"]) + " of worlds",
          f"≤ 1.5×: {ratio(r['ratio'])}"] for r in w["pimc"]]
    return table(["what", "given the calls", "uniform", "give the calls", "target"],
                   rows) + [""]


def compare_section(c: dict) -> list[str]:
    rows = [["two cells, threshold bidding and heuristic play",
             f"{n(c['compare_deals_per_s'])} deals/s",
             f"{ratio(c['compare_over_simulate'])} one `simulate` "
             f"({n(c['simulate_deals_per_s'])} deals/s; target ≤ 2.3×)"]]
    players = c.get("coverage_players", "random")
    for metric, v in c.get("coverage", {}).items():
        rows.append([f"coverage of the paired 95% interval, `{metric}`, {players} players",
                     f"{v['coverage']:.3f} [{v['coverage_low']:.3f}, "
                     f"{v['coverage_high']:.3f}]", "target 0.95 ± 0.02"])
    sq = c.get("sequential")
    if sq:
        decided = ", ".join(f"{d} {sq['decisions'].count(d)}" for d in sorted(set(sq["decisions"])))
        rows.append([f"`--until dedans_rate --delta {sq['delta']}`, {sq['runs']} seeds",
                 f"{decided}", f"{n(sq['mean_deals'])} deals on average"])
    return table(["what", "figure", "against"], rows) + [""]


def vs_colver_section(v: dict) -> list[str]:
    if not v.get("matches"):
        return _missing("vs_colver") + [""]
    rows = [[m["match"], n(m.get("pairs")), f"{m['mean_difference']:+.1f} "
             f"[{m['difference_low']:+.1f}, {m['difference_high']:+.1f}]",
         ms(m.get("ours_ms_per_move")), ms(m.get("theirs_ms_per_move"))]
            for m in v["matches"]]
    return table(["match", "pairs", "ours − theirs a deal [95%]", "ours a move",
                  "theirs a move"], rows) + [""]


#: A section of the page: its bench's name (``BENCHES``), its title, what it measures
#: and with which command, and the rows it renders from that bench's figures.
Section = namedtuple("Section", ["name", "title", "intro", "render"])

SECTIONS: tuple[Section, ...] = (
    Section("engine", "The engine",
        "`python benchmarks/bench_engine.py`: complete classic deals, every figure of the "
        "same run. The baseline (a shuffle and nothing else, one thread) says how fast the "
        "machine ran; colver, the fastest public belote engine (Rust, `pip install "
        "colver`), is measured beside ours in the same run (its rollouts score no "
        "declarations).",
        engine_section),
    Section("presets", "Every preset",
        "`python benchmarks/bench_presets.py`: deals a second with random bidding and "
        "play on all threads, measured in rounds of every preset in alternating order: "
        "each rate the best of 5 rounds, each ratio the median of the rounds' ratios.",
        presets_section),
    Section("cold", "A first run",
        "`python benchmarks/bench_cold.py`: commands in an empty kernel cache (what a "
        "first run after installing meets), then again with the cache filled; and the "
        "compile notice's figures, each kind of job's first compilation as the runner "
        "measures it (`belote_sim/data/compile-seconds.json`, the figure a machine that "
        "never compiled that kind of job announces).",
        cold_section),
    Section("players", "The solver and the players",
        "`python benchmarks/bench_players.py`, one core: the double-dummy solver's "
        "queries from the first lead, on random classic deals and on *bid* deals (those "
        "the threshold bidder took, where the takers hold most trumps: the positions "
        "`pimc` meets), and the players' time per decision.",
        players_section),
    Section("strength", "Bid strength, the atlas and the table bidder",
        "`python benchmarks/bench_strength.py`: one classic decision as a user meets it "
        "(the command run as a subprocess, start-up included, warm kernel cache), the "
        "bid atlas against `simulate`'s rate in the same run, and the table bidder's "
        "cost against threshold bidding.",
        strength_section),
    Section("worlds", "Worlds given the auction",
        "`python benchmarks/bench_worlds.py`: what reading the calls costs, as a user "
        "meets it.",
        worlds_section),
    Section("compare", "Comparisons",
        "`python benchmarks/bench_compare.py`: `compare`'s speed against one `simulate` "
        "of the same deals, its paired intervals' coverage, and the sequential test.",
        compare_section),
    Section("vs_colver", "Against colver's players",
        "`python benchmarks/bench_vs_colver.py --pairs 10` (in `make bench`: a few pairs, "
        "a check that the match runs; the published ladder, with its intervals over "
        "hundreds of pairs, is in [results/README.md](../results/README.md)): our seats "
        "against colver's in colver's own environment, each deal played twice with the "
        "sides swapped; time per move of each side.",
        vs_colver_section),
)


def render_page(figures: dict[str, Any]) -> str:
    """``docs/performance.md`` from the sitting ``figures``."""
    sit = figures["sitting"]
    lines = [
        "# Performance", "",
        "<!-- Generated by benchmarks/figures.py from docs/figures.json (make bench): edit "
        "the generator, not this page. -->", "",
        "The figures of the current code, measured by `make bench` in one sitting. The "
        "development machine is shared: its speed drifts within minutes, so only figures of "
        "the same sitting compare, and each ratio below is against a baseline measured in "
        "the same run. This page is generated from that sitting's figures "
        "(`docs/figures.json`, written by `benchmarks/figures.py`, the last step of `make "
        "bench`); a test renders it again and requires it. Where the time goes inside a "
        "deal: [design.md](design.md#speed-where-the-time-goes); how the code got this "
        "fast: [history.md](history.md).", "",
        f"**The sitting**: {sit['date']}, commit `{sit['commit']}`, {sit['cpu']}, "
        f"{sit['cores']} cores; belote_sim {sit['belote_sim']}, Numba {sit['numba']}, "
        f"NumPy {sit['numpy']}, Python {sit['python']}.", "",
        "## Reproducing the figures", "",
        "`make bench` (the dev extra brings the peer engine colver) runs the scripts "
        "below in turn, each described in its docstring (`python benchmarks/SCRIPT.py "
        "--help` for its options), and regenerates this page and the README's speed lines "
        "(`python benchmarks/figures.py`). `benchmarks/bench_phases.py` (in `make bench` "
        "too) prints where the time of one classic deal goes, phase by phase, for reading "
        "rather than keeping. Run by hand, to compare trees or look inside the code:", "",
        "| command | what it measures |",
        "|---|---|",
        "| `python benchmarks/bench_commits.py COMMIT ...` | the engine's rates of other "
        "commits beside this tree, in one sitting (`--probe presets`: two- and three-player "
        "presets and coinche; `--probe rundir`: deals committed to a run directory; "
        "`--probe loops`: the loops outside `simulate` and the atlas) |",
        "| `python benchmarks/bench_solver_commits.py COMMIT` | the solver's queries of "
        "another commit, both trees at once, one per core |",
        "| `python benchmarks/bench_compile.py [--all]` | every kernel a first run (or the "
        "test suite) compiles in an empty cache, with its time |",
        "| `python benchmarks/bench_solve_table.py` | whole-deal exact values as the `dd` "
        "model of bid strength solves them |",
        "| `python benchmarks/perf_kernels.py` | Linux `perf` over the jitted code |", "",
    ]
    for section in SECTIONS:
        bench = figures["benches"].get(section.name)
        lines += [f"## {section.title}", "", section.intro, ""]
        lines += _missing(section.name) + [""] if bench is None else section.render(bench)
    return "\n".join(lines).rstrip() + "\n"


def render_readme_block(figures: dict[str, Any]) -> str:
    """The README's speed lines (between its markers) from the sitting ``figures``."""
    sit, e = figures["sitting"], figures["benches"].get("engine")
    if e is None:
        return "Speed: see [docs/performance.md](docs/performance.md).\n"
    colver = ("" if e["ratio_to_colver"] is None else
              f"; per core {ratio(e['ratio_to_colver'])} the rate of colver, the fastest "
              f"public belote engine, and {ratio(e['cli_ratio_to_colver'])} as the command "
              "line runs them")
    return (f"Speed (`make bench`, {sit['date']}, {sit['cores']} cores): "
            f"{n(e['classic_all_threads_per_s'])} classic deals a second with random "
            f"players, {n(e['classic_threshold_heuristic_per_s'])} with realistic ones"
            f"{colver}. Every figure: [docs/performance.md](docs/performance.md).\n")


def with_readme_block(readme: str, figures: dict[str, Any]) -> str:
    """``readme`` with its speed lines rendered again between the markers."""
    if BEGIN not in readme or END not in readme:
        raise ValueError(f"README.md has no {BEGIN} ... {END} markers")
    head, rest = readme.split(BEGIN, 1)
    marker = rest.split("\n", 1)[0]
    tail = rest.split(END, 1)[1]
    return f"{head}{BEGIN}{marker}\n{render_readme_block(figures)}{END}{tail}"


def write(figures: dict[str, Any]) -> None:
    PAGE.write_text(render_page(figures), encoding="utf-8")
    README.write_text(with_readme_block(README.read_text(encoding="utf-8"), figures),
                  encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--render", action="store_true",
                    help="render from docs/figures.json without gathering results/")
    args = parser.parse_args()
    if args.render:
        figures = json.loads(FIGURES.read_text(encoding="utf-8"))
    else:
        FIGURES.write_text(json.dumps(gather(), indent=1) + "\n", encoding="utf-8")
        figures = json.loads(FIGURES.read_text(encoding="utf-8"))  # what the test renders
    write(figures)
    print(f"wrote {PAGE.relative_to(ROOT)} and the README's speed lines "
          f"(sitting {figures['sitting']['date']})", file=sys.stderr)


if __name__ == "__main__":
    main()
