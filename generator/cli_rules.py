"""The rules-engine commands: `explain`, `simulate` and `analyze`, thin over each ruleset's `commands()`."""

from __future__ import annotations

import functools
import json
import os
import time
from pathlib import Path
from typing import List, Optional

import typer

from .diagnostics import CardpressError, Report

GameArg = typer.Argument(..., help="Game folder under cards/, e.g. pocket-foundry.", show_default=False)
RootOpt = typer.Option(
    None, "--root", help="Project folder holding cards/ (default: found from here).", show_default=False
)


def _usage(code: str, message: str, hint: str | None = None) -> CardpressError:
    report = Report()
    report.error(code, message, hint=hint)
    return CardpressError(report)


def _interruptible(command):
    """Let Ctrl-C outside the games (loading, preparing) end the command with a message and exit 130 too."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            typer.echo("interrupted before any game finished; nothing written", err=True)
            raise typer.Exit(130) from None

    return run


def _load(game: str, root: Optional[Path], hook: str):
    """Load a game through the schema layer; return it and its ruleset's `hook` (explain_run, simulation, analyze)."""
    from . import pipeline
    from .project import find_root

    loaded = pipeline.load(find_root(root), game)
    commands = getattr(loaded.ruleset, "rules_commands", None)
    if commands is None:
        raise _usage(
            "U005",
            f"the ruleset of '{game}' has no rules engine, so it cannot be explained, simulated or analysed",
            hint="`cardpress validate` still checks its card data",
        )
    found = getattr(commands(), hook, None)
    if found is None:
        raise _usage("U005", f"the rules engine of '{game}' does not offer this command")
    return loaded, found


def explain(
    game: str = GameArg,
    row: List[str] = typer.Argument(
        ...,
        help="Machine names in slots 1–4 (the Starter Feeder may be left out; '-' leaves a slot empty).",
        show_default=False,
    ),
    start: List[str] = typer.Option(
        [], "--start", help="Stored resources at the start, e.g. --start feed=3 (default: the rules' starting amounts)."
    ),
    skip: List[int] = typer.Option([], "--skip", help="Slot to skip (repeatable); default: the best skips."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
    root: Optional[Path] = RootOpt,
) -> None:
    """Explain one run of a row, slot by slot: what each slot pays, gains and discards, and what it skips."""
    loaded, explain_run = _load(game, root, "explain_run")
    text, data = explain_run(loaded, row, start, skip)
    typer.echo(json.dumps(data, indent=1) if as_json else text.rstrip("\n"))


def simulate(
    game: str = GameArg,
    players: Optional[int] = typer.Option(None, "--players", help="Players per game (default: 4 if supported)."),
    games: int = typer.Option(1000, "--games", min=1, max=1_000_000, help="Games in the main line-up."),
    bots: Optional[str] = typer.Option(
        None,
        "--bots",
        help="One bot for every seat, or one per seat, comma-separated, seat 1 first (default: the strong bot).",
    ),
    seed: int = typer.Option(1, "--seed", help="Seed: the same seed gives the same report."),
    jobs: int = typer.Option(
        0, "--jobs", min=0, max=256, help="Worker processes (0: one per core); results do not depend on it."
    ),
    skill_games: Optional[int] = typer.Option(
        None, "--skill-games", min=0, help="Games of strong bot against random bots (default: --games)."
    ),
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        help="Folder for report.html, report.md, report.json and charts/ (default: output/<game>/simulation).",
    ),
    list_bots: bool = typer.Option(False, "--list-bots", help="List the bots this game has and exit."),
    variant: List[str] = typer.Option(
        [], "--variant", help="Play a rulebook variant (repeatable), e.g. quick or travel for micro-engine."
    ),
    scheduler: Optional[str] = typer.Option(
        None,
        "--scheduler",
        help="Play on a Dask cluster: its scheduler's address (tcp://HOST:8786), or local:N to start N local "
        "workers. The report is the same as a local run's.",
        show_default=False,
    ),
    root: Optional[Path] = RootOpt,
) -> None:
    """Play many seeded games with bots and write a designer report (HTML with charts, Markdown and JSON)."""
    import inspect

    from .sim import progress
    from .sim import report as writer
    from .sim.cluster import ClusterError, check_address
    from .sim.executors import Interrupted, executor_for
    from .sim.plugin import BotSpecError
    from .sim.simulate import simulate as run

    if scheduler is not None and (problem := check_address(scheduler)) is not None:
        raise _usage(
            "U007", f"--scheduler: {problem}", hint="give tcp://HOST:8786 (a running `dask scheduler`) or local:2"
        )

    loaded, plugin_for = _load(game, root, "simulation")
    if variant:
        if "variants" not in inspect.signature(plugin_for).parameters:
            raise _usage("U006", f"{loaded.model.title} has no variants to simulate")
        plugin = plugin_for(loaded, variants=variant)
    else:
        plugin = plugin_for(loaded)
    if list_bots:
        typer.echo(plugin.bot_help())
        return
    n = plugin.default_players if players is None else players
    if n not in plugin.players:
        raise _usage(
            "U002",
            f"{loaded.model.title} is not played by {n} players",
            hint=f"supported player counts: {', '.join(map(str, plugin.players))}",
        )
    specs = [s.strip() for s in (bots or plugin.default_bots).split(",")]
    if len(specs) == 1:
        specs *= n
    if len(specs) != n:
        raise _usage(
            "U003", f"--bots names {len(specs)} bots for {n} seats", hint="name one bot for every seat, or one per seat"
        )
    try:
        specs = [plugin.check_spec(s) for s in specs]
    except BotSpecError as exc:
        raise _usage("U001", str(exc), hint="`cardpress simulate GAME --list-bots` lists them") from None
    workers = jobs or min(os.cpu_count() or 1, 8)
    executor = executor_for(workers, scheduler)
    began = time.perf_counter()
    try:
        with progress.reporting("games"):
            result = run(plugin, n, specs, games, seed, workers, skill_games, executor)
        where = (
            f"Dask cluster {scheduler}, {executor.workers} workers"
            if scheduler
            else f"{workers} process" + ("es" if workers > 1 else "")
        )
    except Interrupted as stop:
        typer.echo(f"interrupted: {stop.done} of {stop.total} games finished; no report written", err=True)
        raise typer.Exit(130) from None
    except ClusterError as exc:
        raise _usage("U008", str(exc), hint="start `dask scheduler` and `dask worker` first (see the README)") from None
    finally:
        executor.close()
    wall = time.perf_counter() - began
    folder = out if out is not None else Path("output") / loaded.dir.id / "simulation"
    try:
        paths = writer.write(result.document, folder if folder.is_absolute() else Path.cwd() / folder)
    except KeyboardInterrupt:
        typer.echo(f"interrupted: all {result.games} games finished, but no report written", err=True)
        raise typer.Exit(130) from None
    seats = result.document.sections[0].data["seats"]
    typer.echo(f"{result.games} games in {wall:.1f} s ({result.games / wall:.0f} games/s, {where})")
    typer.echo("win share by seat: " + ", ".join(f"{s['seat']} {s['bot']} {100 * s['win_share']:.1f} %" for s in seats))
    for path in paths:
        typer.echo(f"wrote {path}")


def analyze(
    game: str = GameArg,
    turns: Optional[int] = typer.Option(
        None, "--turns", help="Turns per player to analyse (default: the game's laps or rounds)."
    ),
    quick: bool = typer.Option(
        False,
        "--quick",
        help="A faster analysis: Pocket Foundry skips the searches with "
        "one machine removed; Micro-Engine plays fewer games.",
    ),
    jobs: int = typer.Option(
        0,
        "--jobs",
        min=0,
        max=256,
        help="Worker processes for the searches with one machine removed (0: one per core).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of Markdown."),
    out: Optional[Path] = typer.Option(None, "--out", help="Also write analysis.md and analysis.json here."),
    root: Optional[Path] = RootOpt,
) -> None:
    """Analyse a card set: exact searches (Pocket Foundry) or card-set tables and balance experiments (Micro-Engine)."""
    from .sim import progress
    from .sim import report as writer
    from .sim.executors import Interrupted

    loaded, analyze_game = _load(game, root, "analyze")
    try:
        with progress.reporting("games"):
            document = analyze_game(loaded, turns, restricted=not quick, jobs=jobs or min(os.cpu_count() or 1, 8))
    except Interrupted as stop:
        typer.echo(
            f"interrupted: {stop.done} of {stop.total} {stop.unit} of this step finished; nothing written", err=True
        )
        raise typer.Exit(130) from None
    typer.echo(json.dumps(writer.to_json(document), indent=1) if as_json else writer.to_markdown(document))
    if out is not None:
        for path in writer.write(document, out if out.is_absolute() else Path.cwd() / out, stem="analysis"):
            typer.echo(f"wrote {path}", err=True)


def register(app: typer.Typer) -> None:
    """Add the rules-engine commands to the cardpress CLI."""
    app.command()(explain)
    app.command()(_interruptible(simulate))
    app.command()(_interruptible(analyze))
