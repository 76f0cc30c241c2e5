"""The ``belote-sim`` command line: a thin Typer layer over :mod:`belote_sim.runner.jobs` and
:mod:`belote_sim.deallog.replay`. User errors become one line on stderr and exit status 2."""

from __future__ import annotations

import functools
import inspect
import logging
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any

import typer

from belote_sim.errors import BeloteError
from belote_sim.players.registry import policy_usage
from belote_sim.rules import (
    OPTION_HELP,
    OPTION_SEEDS,
    PRESET_SEEDS,
    PRESETS,
    RULEBOOK_SOURCES,
    Rules,
    option_names,
)
from belote_sim.runner.jobs import RunOptions
from belote_sim.seat.advise import ADVISE_WORLDS
from belote_sim.studies.atlas import ATLAS_DEALS
from belote_sim.studies.bid_strength import MAX_PACKS, STRENGTH_WORLDS
from belote_sim.studies.card_values import CARD_VALUE_DEALS
from belote_sim.studies.compare import COMPARE_DEALS
from belote_sim.studies.simulate import DEFAULT_BID_POLICY, DEFAULT_PLAY_POLICY

#: The command's name, whichever way it is started (``belote-sim`` or ``python -m
#: belote_sim``).
PROG = "belote-sim"


class _App(typer.Typer):
    """Typer whose every command ends a Ctrl-C the command does not handle itself in one
    line, exit 130 (Typer's own ending of it says nothing)."""

    def command(self, *args: Any, **kwargs: Any) -> Callable:
        register = super().command(*args, **kwargs)

        def decorate(func: Callable) -> Callable:
            @functools.wraps(func)
            def interruptible(*a: Any, **k: Any) -> Any:
                try:
                    return func(*a, **k)
                except KeyboardInterrupt:
                    typer.echo("interrupted", err=True)
                    raise typer.Exit(130) from None

            register(interruptible)
            return func

        return decorate


app = _App(
    # Click's plain help: paragraphs rewrapped to the terminal, no "<bool>" on flags.
    rich_markup_mode=None,
    no_args_is_help=True,
    help="Monte Carlo simulator of belote and its variants (RULES.md).",
    pretty_exceptions_enable=False,
)


def version_line() -> str:
    """The package's version and those of the libraries its numbers depend on.

    >>> version_line().startswith("belote-sim ")
    True
    """
    import platform

    import numba
    import numpy

    from belote_sim import __version__

    return (f"{PROG} {__version__} (Numba {numba.__version__}, NumPy {numpy.__version__}, "
            f"Python {platform.python_version()})")


def _print_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the versions of belote-sim, Numba, NumPy and Python, and exit.")] = False,
) -> None:
    """Monte Carlo simulator of belote and its variants (RULES.md)."""
    runner_log = logging.getLogger("belote_sim")
    if not any(isinstance(h, _Notices) for h in runner_log.handlers):
        runner_log.addHandler(_Notices())


class _Notices(logging.Handler):
    """The runner's notices (the compile notice), on standard error whatever ``--quiet``
    says: the standard error of the moment, which a progress bar redirects above itself."""

    def emit(self, record: logging.LogRecord) -> None:
        print(self.format(record), file=sys.stderr)


#: One example per command, shown at the end of its ``--help`` page: its lines, joined
#: with shell continuations so that no line is wider than a terminal.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "simulate": ("belote-sim simulate --rules classic --deals 1_000_000 --seed 1",
                 "--bid-policy threshold --play-policy heuristic",
                 "--out results/classic --log-deals 100"),
    "summary": ("belote-sim summary results/classic",),
    "odds": ("belote-sim odds --cards 8 --out results/odds",),
    "replay": ("belote-sim replay results/classic/deals.jsonl",),
    "analyse": ("belote-sim analyse results/classic/deals.jsonl",),
    "arena": ("belote-sim arena --a heuristic --b random --deals 10_000",
              "--out results/arena"),
    "compare": ("belote-sim compare --a classic --b classic --b-set undertrump=free",
                "--deals 200_000 --bid-policy threshold --play-policy heuristic"),
    "bid-strength": ('belote-sim bid-strength --rules classic --hand "JH 9H AH 7D 8C"',
                     "--retourne TH"),
    "advise": ('belote-sim advise --rules coinche --hand "JS 9S AS TS KH 7D 8C 7C"',
               '--seat 0 --dealer 3 --calls "80S pass 90H pass pass pass"',
               '--plays "AS 7S 8S QS" --player heuristic'),
    "bid-table": ("belote-sim bid-table --rules classic --deals 100_000",
                  "--out results/atlas"),
    "card-values": ("belote-sim card-values --rules classic --deals 20_000",),
    "report": ("belote-sim report results/classic",),
    "study": ("belote-sim study --out results",),
    "rules": ("belote-sim rules",),
}


def _example(command: str) -> str:
    # "\b" keeps Click from rewrapping the example into a paragraph.
    return "\b\nExample:\n  " + " \\\n      ".join(EXAMPLES[command])


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _report(out: Path | None) -> None:
    """Write the report of the finished run in ``out``."""
    from belote_sim.report import write_report

    try:
        typer.echo(f"report: {write_report(out)}", err=True)
    except BeloteError as e:
        _fail(str(e))


def parse_sets(pairs: list[str] | None) -> dict[str, str]:
    """``["must_trump=off", ...]`` -> ``{"must_trump": "off"}``; refuses bad pairs."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise BeloteError(f"bad --set {pair!r}: expected option=value")
        out[name.strip()] = value.strip()
    return out


def _rules_from(preset: str, sets: list[str] | None) -> Rules:
    return Rules.from_preset(preset, **parse_sets(sets))


class _StopFlag:
    """First Ctrl-C: finish the current chunk, commit it and stop. Second: stop now."""

    def __init__(self) -> None:
        self.stop = False

    def __call__(self) -> bool:
        return self.stop

    def install(self):
        import signal

        def handler(signum, frame):
            if self.stop:
                raise KeyboardInterrupt
            self.stop = True
            typer.echo("\nstopping after the current chunk (Ctrl-C again to abort now)", err=True)

        return signal.signal(signal.SIGINT, handler)


# Options shared by the commands that play deals.
RulesOption = Annotated[str, typer.Option("--rules", "-r", help="preset (see `belote-sim rules`)")]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="override one option: option=value (repeatable)"),
]


@dataclass(frozen=True)
class RunFlags:
    """A long command's run options as the command line gives them: the run's
    :class:`~belote_sim.runner.jobs.RunOptions` (checked when built), and what the command
    line does around the run: ``quiet`` (no progress bar) and ``report`` (the run
    directory's report at the end)."""

    options: RunOptions
    quiet: bool = False
    report: bool = False

    def finish(self) -> None:
        """Write the report of the finished run when ``--report`` asked for it."""
        if self.report:
            _report(self.options.out)


#: The run options of the long commands, declared once: name, type, default, and the help
#: of those whose meaning is the same for every command (``out`` and ``chunk_size``
#: take theirs from :func:`run_command`: what the run directory holds, what a chunk
#: counts). Each command takes the ones :func:`run_command` gives it, after its own.
RUN_OPTIONS: dict[str, tuple[Any, Any, str]] = {
    "threads": (int | None, None, "threads to play on (default: all cores)"),
    "out": (Path | None, None, ""),
    "resume": (bool, False, "continue the interrupted run in OUT"),
    "chunk_size": (int | None, None, ""),
    "executor": (str, "local", "local or dask"),
    "scheduler": (str | None, None, "Dask scheduler address tcp://HOST:PORT"),
    "workers": (int | None, None, "workers of the LocalCluster started by --executor dask"),
    "quiet": (bool, False, "no progress bar"),
    "report": (bool, False, "also write OUT/report.html and OUT/plots/ at the end"),
}
#: The flags' own names: without them Typer would also offer ``--no-resume`` and the like.
_FLAG_NAMES = {"resume": ("--resume",), "quiet": ("--quiet", "-q"), "report": ("--report",)}


def run_command(name: str, *, out: str | None = None, chunk: str | None = None,
                only: tuple[str, ...] | None = None) -> Callable:
    """Register a long command: the function's own options, then the run options of
    :data:`RUN_OPTIONS` (``only`` those, or all; ``out`` and ``chunk`` are the help of
    ``--out`` and ``--chunk-size``, which are left out without one). The function gets
    them as one :class:`RunFlags`, its ``run`` argument, built and checked before it is
    called: a bad run option is one line and exit status 2, before anything is played.

    >>> " ".join(inspect.signature(odds).parameters)  # its own, then the run options
    'cards samples seed threads out resume executor scheduler workers quiet report'
    """
    helps = {"out": out, "chunk_size": chunk}
    names = [n for n in (only or RUN_OPTIONS) if helps.get(n, "") is not None]

    def decorate(func: Callable) -> Callable:
        own = [q for q in inspect.signature(func, eval_str=True).parameters.values()
               if q.name != "run"]
        added = []
        for n in names:
            kind, default, text = RUN_OPTIONS[n]
            option = typer.Option(*_FLAG_NAMES.get(n, ()), help=helps.get(n) or text)
            added.append(inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=default,
                                           annotation=Annotated[kind, option]))

        @functools.wraps(func)
        def command(**given: Any) -> Any:
            values = {n: given.pop(n) for n in names}
            quiet, report = values.pop("quiet", False), values.pop("report", False)
            try:
                options = RunOptions(**values)
            except BeloteError as e:
                _fail(str(e))
            if report and options.out is None:
                _fail("--report writes into the output directory: give --out DIR too")
            return func(**given, run=RunFlags(options, quiet, report))

        params = [q.replace(kind=inspect.Parameter.KEYWORD_ONLY) for q in own] + added
        command.__signature__ = inspect.Signature(params)
        command.__annotations__ = {q.name: q.annotation for q in params}
        del command.__wrapped__  # Typer reads the signature above, not the function's
        return app.command(name, epilog=_example(name))(command)

    return decorate


@run_command("simulate", out="run directory: summary.parquet, histograms.parquet, run.json ...",
             chunk="deals (or matches) per committed chunk")
def simulate(
    rules: RulesOption = "classic",
    set_: SetOption = None,
    deals: Annotated[
        int | None, typer.Option(help="independent deals to play (underscores allowed)")
    ] = None,
    matches: Annotated[
        int | None, typer.Option(help="whole matches to the target instead of deals")
    ] = None,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    bid_policy: Annotated[
        str,
        typer.Option(help=policy_usage("bid")),
    ] = DEFAULT_BID_POLICY,
    play_policy: Annotated[
        str,
        typer.Option(help=f"{policy_usage('play')} (see docs/players.md)"),
    ] = DEFAULT_PLAY_POLICY,
    records: Annotated[
        bool, typer.Option("--records", help="also write one row per deal to OUT/deals/")
    ] = False,
    log_deals: Annotated[
        int,
        typer.Option(help="write the first K deals (of matches 0, 1 ... with --matches) to "
                     "OUT/deals.jsonl (deal-log form)"),
    ] = 0,
    *,
    run: RunFlags,
) -> None:
    """Play deals (or matches), print the headline figures and write the run directory."""
    from belote_sim.studies.simulate import simulate as run_simulation

    result = _run(
        lambda options: run_simulation(
            _rules_from(rules, set_), deals=deals, matches=matches, seed=seed,
            bid_policy=bid_policy, play_policy=play_policy, records=records,
            log_deals=log_deals, run=options,
        ),
        "matches" if matches is not None else "deals", run,
    )
    _print_summary(result)
    if run.options.out is not None:
        typer.echo(f"wrote {run.options.out}", err=True)
    run.finish()


def _run(start: Callable[[RunOptions], Any], unit: str, run: RunFlags) -> Any:
    """Run ``start(options)`` (a runner function that checks its arguments before it
    plays anything) with the command's run options, a progress bar on a terminal unless
    ``--quiet``, and the Ctrl-C protocol of :class:`_StopFlag`; user errors exit 2, a
    stopped run 130."""
    from belote_sim.runner.jobs import RunInterrupted

    flag = _StopFlag()
    previous = flag.install()
    try:
        if not run.quiet and sys.stderr.isatty():
            with _progress_bar(unit) as report:
                return start(replace(run.options, progress=report, should_stop=flag))
        return start(replace(run.options, should_stop=flag))
    except RunInterrupted as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(130) from None
    except KeyboardInterrupt:  # the second Ctrl-C: the chunk in play is lost
        typer.echo("aborted: the committed chunks are kept; run again to resume", err=True)
        raise typer.Exit(130) from None
    except BeloteError as e:
        _fail(str(e))
    finally:
        import signal

        signal.signal(signal.SIGINT, previous)


@contextmanager
def _progress_bar(unit: str):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn(f"[bold]{unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    first: list[float] = []  # the units and the time of the first report
    with progress:
        task = progress.add_task(unit, total=None, rate="")

        def report(done: int, total: int) -> None:
            # Counted from the first report: resumed work and the kernels' loading or
            # compiling, which the runner does before it, do not count toward the rate.
            if not first:
                first.extend((done, time.perf_counter()))
            rate = (done - first[0]) / max(time.perf_counter() - first[1], 1e-9)
            progress.update(task, completed=done, total=total, rate=f"{rate:,.0f} {unit}/s")

        yield report


def _print_table(table, wanted=None) -> None:
    """The headline rows of a summary table (the catalogue's, :data:`stats.HEADLINE`)."""
    import pandas as pd

    from belote_sim.stats import HEADLINE

    wanted = HEADLINE if wanted is None else wanted

    index = {(r.metric, r.group): r for r in table.itertuples()}
    typer.echo(f"{'metric':<44}{'value':>10}  95% interval")
    for metric, group in wanted:
        row = index.get((metric, group))
        if row is None:
            continue
        name = metric + (f" [{group}]" if group else "")
        if row.k is pd.NA or row.k is None:
            typer.echo(f"{name:<44}{row.value:>10.2f}  [{row.ci_low:.2f}, {row.ci_high:.2f}]")
        else:
            typer.echo(f"{name:<44}{row.value:>10.4f}  [{row.ci_low:.4f}, {row.ci_high:.4f}]")


def _print_summary(result) -> None:
    s = result.settings
    over = s.rules.overrides()
    rules_text = s.rules.preset + "".join(f" {k}={v}" for k, v in over.items())
    deals = result.counters["deals"]
    typer.echo(
        f"{s.count:,} {s.unit}  rules: {rules_text}  bid: {s.bid_policy}  "
        f"play: {s.play_policy}  seed: {s.seed}"
    )
    played, rate = result.played_deals, result.deals_per_second
    if played == deals:
        typer.echo(f"{deals:,} deals in {result.wall_seconds:.2f} s: {rate or 0:,.0f} deals/s")
    elif not played:
        typer.echo(f"{deals:,} deals, every one read back from {str(result.out)!r}")
    else:
        typer.echo(f"{deals:,} deals, {deals - played:,} read back from {str(result.out)!r} "
                   f"and {played:,} played in {result.wall_seconds:.2f} s: {rate:,.0f} deals/s")
    _print_table(result.table())


@app.command(epilog=_example("summary"))
def summary(
    run: Annotated[Path, typer.Argument(help="run directory written by simulate --out")],
    all_rows: Annotated[bool, typer.Option("--all", help="every metric and group")] = False,
) -> None:
    """Print the headline figures of a finished run."""
    from belote_sim.runner.rundir import load

    try:
        data = load(run)
    except BeloteError as e:
        _fail(str(e))
        return
    prov = data.info.get("provenance", {})
    if prov.get("command") == "compare":
        from belote_sim.studies.compare import compare_report

        typer.echo(f"{run}: compare, bid {prov.get('bid_policy')}, play "
                   f"{prov.get('play_policy')}, seed {prov.get('seed')}")
        typer.echo(compare_report(data.summary))
        return
    typer.echo(
        f"{run}: {prov.get('count', '?'):,} {prov.get('unit', 'deals')}, rules "
        f"{prov.get('rules', {}).get('preset')}, bid {prov.get('bid_policy')}, play "
        f"{prov.get('play_policy')}, seed {prov.get('seed')}"
    )
    wanted = None  # the headline
    if all_rows:
        wanted = list(zip(data.summary.metric, data.summary.group, strict=True))
    _print_table(data.summary, wanted)


@run_command("odds", out="directory for summary.parquet (a run directory with --samples)")
def odds(
    cards: Annotated[int, typer.Option(help="hand size: 8 or 9")] = 8,
    samples: Annotated[
        int | None, typer.Option(help="estimate from N random hands instead of enumerating")
    ] = None,
    seed: Annotated[int, typer.Option(help="random seed for --samples")] = 0,
    *,
    run: RunFlags,
) -> None:
    """Odds that one random hand holds each declaration (exact enumeration in Numba, or
    Monte Carlo with --samples, a run of the chunk runner)."""
    from belote_sim.runner.rundir import software
    from belote_sim.studies.odds import check_odds_out, exact_odds, sampled_odds, write_odds

    out = run.options.out
    if samples is not None:
        table = _run(lambda options: sampled_odds(cards, samples, seed, run=options),
                     "hands", run)
    else:
        t0 = time.perf_counter()
        try:
            if out is not None:
                check_odds_out(out)
            table = exact_odds(cards)
            if out is not None:
                prov = {"command": "odds", "cards": cards, "method": "exact", "samples": None,
                        "seed": None, **software(), "wall_seconds": time.perf_counter() - t0}
                write_odds(table, out, prov)
        except BeloteError as e:
            _fail(str(e))
            return
    method = "exact, all hands" if samples is None else f"{samples:,} sampled hands"
    typer.echo(f"declarations in a hand of {cards} cards ({method})")
    typer.echo(f"{'metric':<32}{'value':>12}  95% interval")
    for row in table.itertuples():
        typer.echo(f"{row.metric:<32}{row.value:>12.6f}  [{row.ci_low:.6f}, {row.ci_high:.6f}]")
    if out is not None:
        typer.echo(f"wrote {out}/summary.parquet", err=True)
    run.finish()


def _each_deal(file: str, process) -> None:
    """Print ``process(deal, number=...)`` for every deal of a deal log, one JSON line
    each; a bad deal is one line on stderr and the others still go through (exit 2)."""
    from belote_sim.deallog.format import dumps, read_deals

    if file != "-" and not Path(file).is_file():
        _fail(f"no such file: {file}")
    errors = 0
    try:
        for number, deal in read_deals(file):
            try:
                if isinstance(deal, BeloteError):
                    raise deal
                typer.echo(dumps(process(deal, number=number)))
            except BeloteError as e:
                errors += 1
                typer.echo(f"error: {e}", err=True)
    except BeloteError as e:
        errors += 1
        typer.echo(f"error: {e}", err=True)
    except OSError as e:
        _fail(f"cannot read {file}: {e.strerror}")
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None
    if errors:
        raise typer.Exit(2)


@app.command(epilog=_example("replay"))
def replay(
    file: Annotated[str, typer.Argument(help="JSON Lines deal log ('-' for standard input)")],
) -> None:
    """Check and replay every deal of a deal log; print them with their result fields."""
    from belote_sim.deallog.replay import replay as replay_deal

    _each_deal(file, replay_deal)


@app.command(epilog=_example("analyse"))
def analyse(
    file: Annotated[str, typer.Argument(help="JSON Lines deal log ('-' for standard input)")],
) -> None:
    """Double-dummy analysis of every deal of a deal log: print each deal's input fields
    with `dd` (the takers' card points under perfect play, before each card and after
    the last) and `cost` (what each card cost its side against the best card)."""
    from belote_sim.deallog.analyse import analyse as analyse_deal

    _each_deal(file, analyse_deal)


@run_command("arena", out="run directory: summary.parquet, arena.json, run.json, chunks/",
             chunk="deals (or matches) per committed chunk")
def arena(
    a: Annotated[
        str, typer.Option("--a", help=f"player A: {policy_usage('play')}")
    ],
    b: Annotated[str, typer.Option("--b", help="player B")],
    rules: RulesOption = "classic",
    set_: SetOption = None,
    deals: Annotated[int, typer.Option(help="deals, each played twice with sides swapped")] = (
        1000
    ),
    matches: Annotated[
        int | None, typer.Option(help="matches, each played twice (default: deals // 10)")
    ] = None,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    bid_policy: Annotated[
        str, typer.Option(help=f"the bidding of both sides: {policy_usage('bid')}")
    ] = DEFAULT_BID_POLICY,
    a_bid: Annotated[
        str | None, typer.Option("--a-bid", help="side A's own bidding (default: --bid-policy)")
    ] = None,
    b_bid: Annotated[
        str | None, typer.Option("--b-bid", help="side B's own bidding (default: --bid-policy)")
    ] = None,
    *,
    run: RunFlags,
) -> None:
    """Play A against B on the same cards, sides swapped; print the mean score
    difference per deal with its 95% interval, A's match win rate and the time per
    decision. A and B are card players; with --a-bid/--b-bid each side also bids its
    own way, so two bidders meet with the same card play (--a heuristic --b heuristic
    --a-bid table --b-bid threshold)."""
    from belote_sim.studies.arena import arena as run_arena

    result = _run(
        lambda options: run_arena(
            a, b, rules=_rules_from(rules, set_), deals=deals, matches=matches, seed=seed,
            bid_policy=bid_policy, a_bid=a_bid, b_bid=b_bid, run=options,
        ),
        "games", run,
    )
    typer.echo(result.report())
    if run.options.out is not None:
        typer.echo(f"wrote {run.options.out}", err=True)
    run.finish()


@run_command("compare", out="run directory: compare.parquet, compare.json, run.json",
             chunk="deals per committed chunk")
def compare(
    a: Annotated[str | None, typer.Option("--a", help="the base cell's preset")] = None,
    a_set: Annotated[
        list[str] | None, typer.Option("--a-set", help="an option of cell A: option=value")
    ] = None,
    b: Annotated[str | None, typer.Option("--b", help="the other cell's preset")] = None,
    b_set: Annotated[
        list[str] | None, typer.Option("--b-set", help="an option of cell B: option=value")
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="a factorial's preset (with --factor)")
    ] = "classic",
    set_: SetOption = None,
    factor: Annotated[
        list[str] | None,
        typer.Option(help="a factor of a full factorial: option=value,value (repeatable)"),
    ] = None,
    deals: Annotated[
        int | None, typer.Option(help=f"deals, each played under every cell (default "
                                  f"{COMPARE_DEALS:,})")
    ] = None,
    matches: Annotated[
        int | None, typer.Option(help="whole matches instead of deals, each under every cell")
    ] = None,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    bid_policy: Annotated[str, typer.Option(help=policy_usage("bid"))] = DEFAULT_BID_POLICY,
    play_policy: Annotated[str, typer.Option(help=policy_usage("play"))] = DEFAULT_PLAY_POLICY,
    until: Annotated[
        str | None,
        typer.Option(help="stop when an SPRT on this metric's paired difference decides "
                     "(B - A), e.g. made_rate or capot_rate[side=takers]"),
    ] = None,
    delta: Annotated[float | None, typer.Option(help="the SPRT's H1 difference")] = None,
    alpha: Annotated[float, typer.Option(help="the SPRT's false-positive rate")] = 0.05,
    beta: Annotated[float, typer.Option(help="the SPRT's false-negative rate")] = 0.05,
    *,
    run: RunFlags,
) -> None:
    """Compare rule variants on the same deals: --a classic --b litige (with --a-set and
    --b-set), or a full factorial: --rules classic --factor undertrump=forced,free
    --factor partner_exemption=on,off. Prints each metric's paired differences with
    their 95% intervals and p-values (* = significant after Holm's adjustment)."""
    from belote_sim.studies import compare as C

    def start(options: RunOptions):
        if factor and (a or b):
            raise BeloteError("give --a/--b or --factor, not both")
        if factor:
            factors = [C.parse_factor(f) for f in factor]
            cells = C.factorial_cells(rules, parse_sets(set_), factors)
        else:
            if not a or not b:
                raise BeloteError("give two cells (--a PRESET --b PRESET) or --factor")
            factors = []
            cells = C.named_cells([("A " + _cell_text(a, a_set), a, parse_sets(a_set)),
                                   ("B " + _cell_text(b, b_set), b, parse_sets(b_set))])
        test = None
        if until is not None:
            if delta is None:
                raise BeloteError("--until needs --delta")
            if len(cells) != 2:
                raise BeloteError("--until compares two cells (--a and --b)")
            test = C.Until.parse(until, delta, alpha, beta)
        return C.compare(cells, deals, matches=matches, seed=seed, bid_policy=bid_policy,
                         play_policy=play_policy, factors=factors, until=test, run=options)

    table = _run(start, "deals" if matches is None else "matches", run)
    typer.echo(C.compare_report(table))
    if run.options.out is not None:
        typer.echo(f"wrote {run.options.out}", err=True)
    run.finish()


def _cell_text(preset: str, sets: list[str] | None) -> str:
    return " ".join([preset, *(sets or [])])


@run_command("bid-strength", out="run directory: summary.parquet, run.json, chunks/",
             chunk="deals, matches or worlds per committed chunk")
def bid_strength(
    hand: Annotated[
        str, typer.Option(help='the seat\'s cards before the bidding, e.g. "JH 9H AS 7D 8C"')
    ],
    rules: RulesOption = "classic",
    set_: SetOption = None,
    retourne: Annotated[
        str | None, typer.Option(help="the turned card (retourne games), e.g. TH")
    ] = None,
    seat: Annotated[int, typer.Option(help="the deciding seat")] = 0,
    dealer: Annotated[
        int | None,
        typer.Option(help="the dealer (default: the seat that makes SEAT speak next)"),
    ] = None,
    round_: Annotated[
        int, typer.Option("--round", help="bidding round of the retourne games (1, 2, 3)")
    ] = 1,
    calls: Annotated[
        str, typer.Option(help='coinche: the calls so far from the first hand, e.g. "80H pass"')
    ] = "",
    worlds: Annotated[int, typer.Option(help="completions of the unseen cards")] = STRENGTH_WORLDS,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    bid_policy: Annotated[
        str, typer.Option(help=f"every later call: {policy_usage('bid')}")
    ] = DEFAULT_BID_POLICY,
    models: Annotated[
        str, typer.Option(help="card-play models, comma separated, e.g. dd,heuristic,fastpimc:20")
    ] = "heuristic",
    worlds_given: Annotated[
        str,
        typer.Option(help="calls: worlds in which the other seats' calls so far are those "
                     "BID_POLICY makes with their cards; uniform: the seat's cards alone"),
    ] = "calls",
    max_packs: Annotated[
        int, typer.Option(help="at most this many packs dealt to find the worlds given the calls")
    ] = MAX_PACKS,
    worlds_out: Annotated[
        Path | None,
        typer.Option(help="write the worlds played to this .parquet file (world, seat, cards)"),
    ] = None,
    *,
    run: RunFlags,
) -> None:
    """How good is this hand: every call the seat may make at one bidding decision,
    each played out in the same worlds (completions of the unseen cards), with its
    chance to take, make, go dedans or capot, the mean deal scores and the gain over
    passing (95% intervals); the best call is marked."""
    from belote_sim.studies.bid_strength import bid_strength as run_strength

    table = _run(
        lambda options: run_strength(
            _rules_from(rules, set_), hand, retourne=retourne, seat=seat, dealer=dealer,
            round=round_, calls=calls, worlds=worlds, seed=seed, bid_policy=bid_policy,
            models=models, worlds_given=worlds_given, max_packs=max_packs,
            worlds_out=worlds_out, run=options,
        ),
        "worlds", run,
    )
    _print_strength(table)
    if run.options.out is not None:
        typer.echo(f"wrote {run.options.out}/summary.parquet", err=True)
    if worlds_out is not None:
        typer.echo(f"wrote {worlds_out}", err=True)
    run.finish()


def _print_strength(table) -> None:
    from belote_sim.studies.bid_strength import reach_table, strength_table

    prov = table.attrs["provenance"]
    where = f"round {prov['round']}" if prov["round"] else "calls: " + (
        " ".join(prov["calls"]) or "none"
    )
    retourne = f", retourne {prov['retourne']}" if prov["retourne"] else ""
    typer.echo(
        f"{prov['rules']['preset']}: seat {prov['seat']} (dealer {prov['dealer']}), "
        f"{where}, hand {' '.join(prov['hand'])}{retourne}; {prov['worlds']:,} worlds, "
        f"later calls by {prov['bid_policy']}"
    )
    if prov["checked_calls"]:
        typer.echo(
            f"worlds given the calls so far ({prov['bid_policy']} bidding): "
            f"{prov['effective_worlds']:,} found in {prov['packs']:,} packs "
            f"(acceptance {prov['acceptance']:.3%}, effective sample size "
            f"{prov['effective_worlds']:,})"
        )
    else:
        typer.echo("worlds: uniform completions of the seat's cards"
                   + (" (no call so far to give)" if prov["worlds_given"] == "calls" else ""))
    wide = strength_table(table)
    for model in wide.index.get_level_values("model").unique():
        typer.echo(f"\nplay model: {model}")
        typer.echo(
            f"  {'call':<8}{'takers':>8}{'made':>8}{'dedans':>8}{'capot':>8}{'own':>8}"
            f"{'opp':>8}{'diff':>8}  gain over pass [95%]"
        )
        for call, r in wide.loc[model].iterrows():
            mark = "  <- best" if r.best else ""
            typer.echo(
                f"  {call:<8}{r.p_takers:>8.3f}{r.p_made:>8.3f}{r.p_dedans:>8.3f}"
                f"{r.p_capot:>8.3f}{r.mean_own_score:>8.1f}{r.mean_opponent_score:>8.1f}"
                f"{r.mean_difference:>8.1f}  {r.gain_over_pass:+7.1f} "
                f"[{r.gain_low:+.1f}, {r.gain_high:+.1f}]{mark}"
            )
    reach = reach_table(table)
    if not reach.empty:
        typer.echo("\nP(S_T >= value), the auction ending on the seat's bid in that strain:")
        typer.echo(f"  {'model':<14}{'strain':<7}" + "".join(f"{v:>7}" for v in reach.columns))
        for (model, strain), r in reach.iterrows():
            typer.echo(f"  {model:<14}{strain:<7}" + "".join(f"{x:>7.3f}" for x in r))


@app.command("advise", epilog=_example("advise"))
def advise_command(
    hand: Annotated[str, typer.Option(
        help="every card the seat was dealt: 5 in the retourne games during the auction, "
             "else 8")],
    seat: Annotated[int, typer.Option(help="the advised seat")],
    dealer: Annotated[int, typer.Option(help="the dealer")],
    rules: RulesOption = "classic",
    set_: SetOption = None,
    retourne: Annotated[
        str | None, typer.Option(help="the turned card (retourne games), e.g. TH")
    ] = None,
    calls: Annotated[str, typer.Option(help='the calls so far from the first hand, e.g. '
                                            '"80S pass"')] = "",
    plays: Annotated[str, typer.Option(help='the cards played so far in order, e.g. '
                                            '"JS 7S"')] = "",
    shown: Annotated[str | None, typer.Option(
        help='the declarations shown once the auction is over, by seat, e.g. '
             '"1: 7H 8H 9H; 3: JS JH JD JC" (seats left out showed none)')] = None,
    player: Annotated[str, typer.Option(help=f"the player: {policy_usage('play')}")] = (
        DEFAULT_PLAY_POLICY),
    bid_policy: Annotated[
        str, typer.Option(help=f"its bidding and the model of the calls: {policy_usage('bid')}")
    ] = DEFAULT_BID_POLICY,
    worlds: Annotated[int, typer.Option(help="deals of the unseen cards the values are "
                                             "measured in")] = ADVISE_WORLDS,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    out: Annotated[Path | None, typer.Option(help="write the table to this .parquet "
                                                  "file, with its provenance")] = None,
) -> None:
    """Advice from one seat's view: every legal call or card of the position, its value
    under PLAYER (the side's deal score minus the opponents', P(made), 95% intervals)
    and the player's choice, marked."""
    from belote_sim.runner.rundir import check_output_file
    from belote_sim.seat.advise import advise

    try:
        if out is not None:
            if out.suffix != ".parquet":
                raise BeloteError(f"--out {str(out)!r}: give a .parquet file")
            check_output_file(out, "--out")
        table = advise(_rules_from(rules, set_), hand, seat=seat, dealer=dealer,
                       retourne=retourne, calls=calls, plays=plays, shown=shown,
                       player=player, bid_policy=bid_policy, worlds=worlds, seed=seed)
    except BeloteError as e:
        _fail(str(e))
        return
    prov = table.attrs["provenance"]
    typer.echo(f"{prov['rules']['preset']}: seat {seat} (dealer {dealer}), hand "
               f"{' '.join(prov['hand'])}; {prov['kind']} by {prov['player']} "
               f"(bidding {prov['bid_policy']}), values over {prov['worlds']:,} worlds")
    typer.echo(f"  {prov['kind']:<8}{'difference [95%]':>26}{'P(made) [95%]':>28}")
    for r in table.itertuples():
        mark = "  <- choice" if r.chosen else ""
        typer.echo(f"  {r.candidate:<8}{r.mean_difference:>+9.1f} "
                   f"[{r.difference_low:+7.1f}, {r.difference_high:+7.1f}]"
                   f"{r.p_made:>10.3f} [{r.p_made_low:.3f}, {r.p_made_high:.3f}]{mark}")
    if out is not None:
        from belote_sim.runner.rundir import write_parquet

        write_parquet(table, out, prov)
        typer.echo(f"wrote {out}", err=True)


@run_command("bid-table", out="run directory: atlas.parquet, run.json, chunks/",
             chunk="deals, matches or worlds per committed chunk")
def bid_table(
    rules: RulesOption = "classic",
    set_: SetOption = None,
    deals: Annotated[
        int, typer.Option(help="simulated deals whose decisions are tabulated")
    ] = ATLAS_DEALS,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    bid_policy: Annotated[
        str, typer.Option(help=f"the auctions and every later call: {policy_usage('bid')}")
    ] = DEFAULT_BID_POLICY,
    models: Annotated[
        str, typer.Option(help="card-play models, comma separated, e.g. heuristic,dd")
    ] = "heuristic",
    top: Annotated[int, typer.Option(help="classes to print, the largest first")] = 20,
    *,
    run: RunFlags,
) -> None:
    """The bid atlas: every bidding decision met in simulated deals, its call and the
    pass both played out on the same deal, tabulated by hand class (holding in the
    strain, its length, side aces and tens, voids, position, round, retourne or bid
    value): take, make and capot rates and the gain over passing per play model."""
    from belote_sim.runner.jobs import check_int
    from belote_sim.studies.atlas import bid_table as run_atlas

    def start(options: RunOptions):
        check_int("--top", top, 0)
        return run_atlas(_rules_from(rules, set_), deals, seed=seed, bid_policy=bid_policy,
                         models=models, run=options)

    atlas = _run(start, "deals", run)
    _print_atlas(atlas, top)
    if run.options.out is not None:
        typer.echo(f"wrote {run.options.out}/atlas.parquet", err=True)
    run.finish()


def _print_atlas(atlas, top: int) -> None:
    from belote_sim.studies.atlas import class_columns

    prov = atlas.attrs["provenance"]
    keys = class_columns(atlas)
    models = list(dict.fromkeys(atlas.model))
    typer.echo(
        f"{prov['rules']['preset']}: {prov['deals']:,} deals, bidding {prov['bid_policy']}, "
        f"{int(atlas[atlas.model == models[0]].n.sum()):,} call/pass pairs; the {top} "
        "largest classes (made: after the call; gain: over passing, 95% interval)"
    )
    wide = atlas.set_index(["model", *keys])
    largest = wide.loc[models[0]].sort_values("n", ascending=False).head(top)
    head = "  ".join(f"{k[:8]:>8}" for k in keys)
    typer.echo(f"{head}  {'n':>7} {'take':>5}" + "".join(
        f" | {m[:12]:>12} made  gain [95%]        " for m in models))
    for cls, row in largest.iterrows():
        cells = "  ".join(f"{str(v)[:8]:>8}" for v in cls)
        line = f"{cells}  {int(row.n):>7} {row.take_rate:>5.2f}"
        for m in models:
            r = wide.loc[(m, *cls)]
            line += (f" | {'':>12} {r.made_rate:>4.2f} {r.gain:+6.1f} "
                     f"[{r.gain_low:+6.1f},{r.gain_high:+6.1f}]")
        typer.echo(line)


@run_command("card-values", out="run directory: summary.parquet, run.json, chunks/",
             chunk="deals, matches or worlds per committed chunk")
def card_values(
    rules: RulesOption = "classic",
    set_: SetOption = None,
    deals: Annotated[int, typer.Option(help="simulated deals")] = CARD_VALUE_DEALS,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    bid_policy: Annotated[
        str, typer.Option(help=f"the auctions: {policy_usage('bid')}")
    ] = DEFAULT_BID_POLICY,
    models: Annotated[
        str, typer.Option(help="card-play models, comma separated, e.g. heuristic,dd")
    ] = "heuristic",
    *,
    run: RunFlags,
) -> None:
    """What holding a card is worth to the taker's side: each of the taker's cards
    swapped with a random defender's card on the same deal, the deal played again; the
    paired difference of the deal scores, by card (trump J, 9 ... side A, T ...)."""
    from belote_sim.studies.card_values import card_values as run_values
    from belote_sim.studies.card_values import value_table

    table = _run(
        lambda options: run_values(
            _rules_from(rules, set_), deals, seed=seed, bid_policy=bid_policy, models=models,
            run=options,
        ),
        "deals", run,
    )
    prov = table.attrs["provenance"]
    typer.echo(
        f"{prov['rules']['preset']}: {prov['deals']:,} deals, bidding {prov['bid_policy']}; "
        "points a card is worth to the taker's side (95% interval)"
    )
    wide = value_table(table)
    models_ = list(dict.fromkeys(m for m, _ in wide.columns))
    typer.echo(f"  {'card':<9}" + "".join(f"{m[:14]:>32}" for m in models_))
    for card, r in wide.iterrows():
        cells = "".join(
            f"{r[(m, 'value')]:>12.1f} [{r[(m, 'ci_low')]:6.1f}, {r[(m, 'ci_high')]:6.1f}]"
            f"{'':>2}" for m in models_
        )
        typer.echo(f"  {card:<9}{cells}")
    if run.options.out is not None:
        typer.echo(f"wrote {run.options.out}/summary.parquet", err=True)
    run.finish()


@app.command("report", epilog=_example("report"))
def report_command(
    directory: Annotated[Path, typer.Argument(help="an output directory (the --out of "
                                              "simulate, compare, arena, odds, "
                                              "bid-strength, bid-table or card-values)")],
) -> None:
    """Write DIRECTORY/report.html (one self-contained page: plots, every figure with its
    95% interval, how the run was made) and the plots as PNG in DIRECTORY/plots/."""
    _report(directory)


@run_command("study", only=("threads", "executor", "scheduler", "workers"))
def study(
    out: Annotated[Path, typer.Option(help="where README.md, plots/ and tables/ go")] = Path(
        "results"),
    quick: Annotated[bool, typer.Option("--quick", help="a few deals per part (a test of "
                                        "the pipeline; the figures mean nothing)")] = False,
    render_only: Annotated[bool, typer.Option(
        "--render-only", help="write README.md and plots/ again from OUT/tables/ "
        "without playing")] = False,
    *,
    run: RunFlags,
) -> None:
    """The published study (make study): every preset between realistic players,
    declaration odds, the bid atlases, card values, the rule-option factorials and the
    players' strengths, from fixed seeds, as OUT/tables/*.parquet, then OUT/README.md and
    OUT/plots/ written from those tables. Every run is committed under OUT/runs/: after
    Ctrl-C the same command resumes part by part. About 17 minutes on 2 cores."""
    from belote_sim.report.study import write_study

    if not render_only:
        _play_study(out, quick, run)
    try:
        path = write_study(out)
    except BeloteError as e:
        _fail(str(e))
        return
    typer.echo(f"wrote {path}")


def _play_study(out: Path, quick: bool, run: RunFlags) -> None:
    """Play the study's parts into ``OUT/tables/``, with the Ctrl-C protocol of
    :class:`_StopFlag`: interrupted, it says how to resume and exits 130."""
    from belote_sim.runner.jobs import RunInterrupted
    from belote_sim.studies.study import run_study

    flag = _StopFlag()
    previous = flag.install()
    try:
        run_study(out, quick=quick, say=lambda line: typer.echo(line, err=True),
                  run=replace(run.options, should_stop=flag))
    except RunInterrupted:
        typer.echo(f"interrupted: the finished parts and chunks are kept in {out}/runs; run "
                   "the same command again to continue", err=True)
        raise typer.Exit(130) from None
    except KeyboardInterrupt:
        typer.echo(f"aborted: the committed chunks are kept in {out}/runs; run the same "
                   "command again to continue", err=True)
        raise typer.Exit(130) from None
    except BeloteError as e:
        _fail(str(e))
    finally:
        import signal

        signal.signal(signal.SIGINT, previous)


@app.command("rules", epilog=_example("rules"))
def list_rules() -> None:
    """List the presets and every option with its values and meaning."""
    from belote_sim.rules import CHOICES

    typer.echo("presets (RULES.md section 9):")
    for name, preset in PRESETS.items():
        if name in RULEBOOK_SOURCES:
            continue
        desc = ", ".join(f"{k}={_fmt(v)}" for k, v in _choices(preset).items())
        typer.echo(f"  {name:<16} seed {PRESET_SEEDS[name]}: {desc or 'the defaults'}")
    typer.echo("\nrulebooks (RULES.md section 10: contract=coinche, the suits only), each "
               "choice with its source:")
    for name, sources in RULEBOOK_SOURCES.items():
        preset = PRESETS[name]
        typer.echo(f"  {name:<16} {sources['']}")
        shown = [k for k in option_names()
                 if k in sources
                 or (k in _choices(preset) and k not in ("contract", "all_no_trumps_round"))]
        for k in shown:
            source = f"  [{sources[k]}]" if k in sources else ""
            typer.echo(f"      {k}={_fmt(getattr(preset, k))}{source}")
    typer.echo("\noptions (--set option=value):")
    defaults = Rules()
    for name in option_names():
        values = CHOICES.get(name, ("on", "off") if isinstance(getattr(defaults, name), bool)
                             else ("integer",))
        typer.echo(
            f"  {name:<20} {'|'.join(str(v) for v in values):<28} "
            f"default {_fmt(getattr(defaults, name)):<9} {OPTION_HELP[name]} "
            f"[{'seed ' if OPTION_SEEDS[name][0].isdigit() else ''}{OPTION_SEEDS[name]}]"
        )


def _choices(preset: Rules) -> dict:
    """The options of ``preset`` that differ from section 9's defaults."""
    defaults = Rules()
    return {k: v for k, v in preset.options().items() if getattr(defaults, k) != v}


def _fmt(v) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


def run_app(args: list[str] | None = None) -> int:
    """Run the command line (``args``, else ``sys.argv``) and return its exit status;
    usage errors, interruptions and what the commands let through are raised, for
    :func:`belote_sim.console.main` to end in one line."""
    import gc
    import signal

    if hasattr(signal, "SIGPIPE"):  # `belote-sim replay log | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # The imports leave a heap of objects that live as long as the command (numba's,
    # pandas's): out of the collector's passes, which would otherwise walk them all at
    # every full collection and again at exit.
    gc.freeze()
    status = app(args, prog_name=PROG, standalone_mode=False)
    return status if isinstance(status, int) else 0
