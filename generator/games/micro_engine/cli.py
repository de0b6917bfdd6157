"""Micro-Engine's own command, `analyze`, with its options (declared to the core as a GameCommand)."""

from __future__ import annotations

from pathlib import Path

import typer

from ...contract import GameCommand, LoadedGame
from ...sdk import JobsOpt, JsonOpt, OutOpt, analysis, emit, workers
from .model import MicroEngine


def analyze(
    game: LoadedGame[MicroEngine],
    turns: int | None = typer.Option(None, "--turns", help="Rounds to analyse (default: the game's rounds)."),
    quick: bool = typer.Option(False, "--quick", help="Play 100 games per experiment instead of 400."),
    jobs: int = JobsOpt,
    as_json: bool = JsonOpt,
    out: Path | None = OutOpt,
) -> None:
    """Card-set tables (counts, connection mix, cost and VP curve, gated cards) and seeded balance experiments.

    Example: cardpress analyze micro-engine --quick --out output/micro-engine/analysis
    """
    from . import commands  # the engine and its analyses load only when a command runs

    document = analysis(lambda: commands.analyze(game, turns, restricted=not quick, jobs=workers(jobs)))
    emit(document, as_json, out, "analysis")


COMMANDS = (GameCommand("analyze", "Card-set tables and seeded balance experiments.", analyze),)
