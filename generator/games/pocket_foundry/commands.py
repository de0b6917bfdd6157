"""What `cardpress explain`, `simulate` and `analyze` call for Pocket Foundry (the CLI stays game-blind)."""

from __future__ import annotations

from typing import Any

from ...contract import LoadedGame
from ...sdk import CardpressError, Document, Report
from . import analysis
from .botconfig import read_bots
from .explain import explain, render_text, to_json
from .model import PocketFoundry
from .simulation import PocketFoundrySim


def explain_run(
    loaded: LoadedGame[PocketFoundry], row: list[str], start: list[str], skips: list[int]
) -> tuple[str, dict[str, Any]]:
    """Return the run explained as text and as JSON-ready data."""
    e = explain(loaded.model, row, start, skips)
    return render_text(e), to_json(e)


def simulation(loaded: LoadedGame[PocketFoundry]) -> PocketFoundrySim:
    """Return the simulation plugin with the scripted bots of bots.yaml; a broken bot fails only when named."""
    found = read_bots(loaded.dir, loaded.model)
    return PocketFoundrySim(loaded.model, found.bots, game_id=loaded.dir.id, broken=found.broken)


def analyze(loaded: LoadedGame[PocketFoundry], turns: int | None, restricted: bool = True, jobs: int = 1) -> Document:
    """Return the exact analyses."""
    if turns is not None and not 1 <= turns <= 30:
        report = Report()
        report.error("U004", f"--turns {turns}: give 1 to 30 turns")
        raise CardpressError(report)
    return analysis.report(loaded.model, turns, restricted, jobs)
