"""Pocket Foundry's own commands, `explain` and `analyze`, with their options (declared to the core as GameCommands)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ...contract import GameCommand, LoadedGame
from ...sdk import JobsOpt, JsonOpt, OutOpt, analysis, emit, workers
from .model import PocketFoundry


def explain(
    game: LoadedGame[PocketFoundry],
    row: list[str] = typer.Argument(
        ...,
        help="Machine names in slots 1–4 (the Starter Feeder may be left out; '-' leaves a slot empty).",
        show_default=False,
    ),
    start: list[str] = typer.Option(
        [], "--start", help="Stored resources at the start, e.g. --start feed=3 (default: the rules' starting amounts)."
    ),
    skip: list[int] = typer.Option([], "--skip", help="Slot to skip (repeatable); default: the best skips."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
) -> None:
    """Explain one run of a row, slot by slot: what each slot pays, gains and discards, and what it skips.

    Example: cardpress explain pocket-foundry "Polishing Wheel" "Small Press" "Ticket Stamp" --start feed=3
    """
    from . import commands  # the engine and its analyses load only when a command runs

    text, data = commands.explain_run(game, row, start, skip)
    typer.echo(json.dumps(data, indent=1) if as_json else text.rstrip("\n"))


def analyze(
    game: LoadedGame[PocketFoundry],
    turns: int | None = typer.Option(None, "--turns", help="Turns per player to analyse (default: the laps)."),
    quick: bool = typer.Option(False, "--quick", help="Skip the eight searches with one machine removed."),
    jobs: int = JobsOpt,
    as_json: bool = JsonOpt,
    out: Path | None = OutOpt,
) -> None:
    """Exact analyses: the best solo score and plan, conversion rates and chains, engines, the opening market.

    Example: cardpress analyze pocket-foundry --quick --out output/pocket-foundry/analysis
    """
    from . import commands  # the engine and its analyses load only when a command runs

    document = analysis(lambda: commands.analyze(game, turns, restricted=not quick, jobs=workers(jobs)))
    emit(document, as_json, out, "analysis")


COMMANDS = (
    GameCommand("explain", "Explain one run of a row of machines, slot by slot.", explain),
    GameCommand("analyze", "Exact analyses of the card set: best plans, conversions, engines, the market.", analyze),
)
