"""The ``belote-sim`` command line: a thin Typer layer over :mod:`belote_sim.runner` and
:mod:`belote_sim.replay`. User errors become one line on stderr and exit status 2."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated

import typer

from belote_sim.errors import BeloteError
from belote_sim.rules import OPTION_HELP, PRESET_SEEDS, PRESETS, Rules, option_names

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Monte Carlo simulator of belote and its variants (RULES.md).",
    pretty_exceptions_enable=False,
)


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def parse_sets(pairs: list[str] | None) -> dict[str, str]:
    """``["must_trump=off", ...]`` -> ``{"must_trump": "off"}``; refuses bad pairs."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise BeloteError(f"bad --set {pair!r}: expected option=value")
        out[name.strip()] = value.strip()
    return out


def _check_out_dir(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise BeloteError(f"--out {str(out)!r} is a file, not a directory")
    parent = out if out.exists() else out.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not os.access(parent, os.W_OK):
        raise BeloteError(f"--out {str(out)!r} is not writable")


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@app.command()
def simulate(
    rules: Annotated[str, typer.Option("--rules", "-r", help="preset (see `belote-sim rules`)")] = (
        "classic"
    ),
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="override one option: option=value (repeatable)"),
    ] = None,
    deals: Annotated[int, typer.Option(help="number of deals (underscores allowed)")] = 100_000,
    seed: Annotated[int, typer.Option(help="random seed")] = 0,
    bid_policy: Annotated[
        str, typer.Option(help="random[:TAKE_PROBABILITY] or threshold[:MIN_VALUE]")
    ] = "random",
    play_policy: Annotated[str, typer.Option(help="random")] = "random",
    threads: Annotated[int | None, typer.Option(help="numba threads (default: all)")] = None,
    out: Annotated[
        Path | None, typer.Option(help="run directory for run.json and deals.jsonl")
    ] = None,
    log_deals: Annotated[
        int, typer.Option(help="write the first K deals to OUT/deals.jsonl (deal-log form)")
    ] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Play DEALS independent deals and print the headline figures."""
    try:
        rule_set = Rules.from_preset(rules, **parse_sets(set_))
        rule_set.check_implemented()
        from belote_sim.runner import PolicySpec, check_run_args

        check_run_args(deals, seed, threads)
        bid = PolicySpec.parse(bid_policy, "bid")
        play = PolicySpec.parse(play_policy, "play")
        if log_deals < 0:
            raise BeloteError(f"--log-deals must be >= 0, not {log_deals}")
        if log_deals and out is None:
            raise BeloteError("--log-deals needs --out DIR")
        if log_deals > deals:
            raise BeloteError(f"--log-deals {log_deals} is more than --deals {deals}")
        if out is not None:
            _check_out_dir(out)
    except BeloteError as e:
        _fail(str(e))
        return
    from belote_sim.runner import simulate as run_simulation
    from belote_sim.runner import simulated_deals

    started = datetime.now(timezone.utc)
    show = not quiet and sys.stderr.isatty()
    if show:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        progress = Progress(
            TextColumn("[bold]simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            transient=True,
        )
        t0 = time.perf_counter()
        with progress:
            task = progress.add_task("deals", total=deals, rate="")

            def report(done: int, total: int) -> None:
                rate = done / max(time.perf_counter() - t0, 1e-9)
                progress.update(task, completed=done, rate=f"{rate:,.0f} deals/s")

            result = run_simulation(
                rule_set, deals, seed, bid_policy=bid, play_policy=play, threads=threads,
                progress=report,
            )
    else:
        result = run_simulation(
            rule_set, deals, seed, bid_policy=bid, play_policy=play, threads=threads
        )
    table = result.table()
    _print_summary(result, table)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        if log_deals:
            logged = simulated_deals(rule_set, log_deals, seed, bid_policy=bid, play_policy=play)
            from belote_sim.deallog import dumps

            _write_atomic(out / "deals.jsonl", "".join(dumps(d) + "\n" for d in logged))
        run = result.provenance()
        run["started"] = started.isoformat()
        run["finished"] = datetime.now(timezone.utc).isoformat()
        run["counters"] = result.counters
        run["summary"] = json.loads(table.to_json(orient="records"))
        _write_atomic(out / "run.json", json.dumps(run, indent=2) + "\n")
        typer.echo(f"wrote {out}/run.json" + (f" and {out}/deals.jsonl" if log_deals else ""),
                   err=True)


def _print_summary(result, table) -> None:
    r = result.rules
    over = r.overrides()
    rules_text = r.preset + ("".join(f" {k}={v}" for k, v in over.items()) if over else "")
    rate = result.deals / result.wall_seconds if result.wall_seconds else float("nan")
    typer.echo(
        f"{result.deals:,} deals  rules: {rules_text}  bid: {result.bid_policy}  "
        f"play: {result.play_policy}  seed: {result.seed}"
    )
    typer.echo(
        f"{result.wall_seconds:.2f} s on {result.threads} thread(s): {rate:,.0f} deals/s"
    )
    typer.echo(f"{'metric':<32}{'value':>10}  95% interval")
    for row in table.itertuples(index=False):
        if row.k is None or row.k != row.k:  # a mean
            typer.echo(f"{row.metric:<32}{row.value:>10.2f}")
        else:
            typer.echo(
                f"{row.metric:<32}{row.value:>10.4f}  [{row.ci_low:.4f}, {row.ci_high:.4f}]"
            )


@app.command()
def replay(
    file: Annotated[str, typer.Argument(help="JSON Lines deal log ('-' for standard input)")],
) -> None:
    """Check and replay every deal of a deal log; print them with their result fields."""
    from belote_sim.deallog import dumps, read_deals
    from belote_sim.replay import replay as replay_deal

    if file != "-" and not Path(file).is_file():
        _fail(f"no such file: {file}")
    errors = 0
    try:
        for number, deal in read_deals(file):
            try:
                typer.echo(dumps(replay_deal(deal, number=number)))
            except BeloteError as e:
                errors += 1
                typer.echo(f"error: {e}", err=True)
    except BeloteError as e:
        errors += 1
        typer.echo(f"error: {e}", err=True)
    except OSError as e:
        _fail(f"cannot read {file}: {e.strerror}")
    if errors:
        raise typer.Exit(2)


@app.command("rules")
def list_rules() -> None:
    """List the presets and every option with its values and meaning."""
    from belote_sim.rules import CHOICES, IMPLEMENTED_PRESETS

    typer.echo("presets (RULES.md section 9):")
    for name, preset in PRESETS.items():
        state = "" if name in IMPLEMENTED_PRESETS else "  (not implemented yet)"
        over = {
            k: v for k, v in preset.options().items() if getattr(Rules(), k) != v
        }
        desc = ", ".join(f"{k}={_fmt(v)}" for k, v in over.items()) or "the defaults"
        typer.echo(f"  {name:<16} seed {PRESET_SEEDS[name]}: {desc}{state}")
    typer.echo("\noptions (--set option=value):")
    defaults = Rules()
    for name in option_names():
        values = CHOICES.get(name, ("on", "off") if isinstance(getattr(defaults, name), bool)
                             else ("integer",))
        typer.echo(
            f"  {name:<20} {'|'.join(str(v) for v in values):<28} "
            f"default {_fmt(getattr(defaults, name)):<9} {OPTION_HELP[name]}"
        )


def _fmt(v) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


def main() -> None:
    """Console entry point."""
    import signal

    if hasattr(signal, "SIGPIPE"):  # `belote-sim replay log | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    app()


if __name__ == "__main__":
    main()
