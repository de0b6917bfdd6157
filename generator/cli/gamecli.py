"""What the per-game commands a ruleset declares (`explain`, `analyze`) share: options and printing a report."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import typer

from ..diagnostics import CardpressError, Report
from ..sim import publish
from ..sim import report as writer

JsonOpt = typer.Option(False, "--json", help="Print JSON instead of Markdown.")
OutOpt = typer.Option(None, "--out", help="Also write the report as Markdown and JSON into this folder.")
JobsOpt = typer.Option(0, "--jobs", min=0, max=256, help="Worker processes (0: one per core).")
SchedulerOpt = typer.Option(
    None,
    "--scheduler",
    help="Play on a Dask cluster: its scheduler's address (tcp://HOST:8786), or local:N to start N local workers. "
    "The report is the same as a local run's.",
    show_default=False,
)


def usage(code: str, message: str, hint: str | None = None) -> CardpressError:
    """Return a user mistake in a command's arguments as a diagnostic to raise."""
    report = Report()
    report.error(code, message, hint=hint)
    return CardpressError(report)


def workers(jobs: int) -> int:
    """Return the number of worker processes for `--jobs` (0: one per core, at most 8)."""
    return jobs or min(os.cpu_count() or 1, 8)


def analysis(make: Callable[[], writer.Document]) -> writer.Document:
    """Run an analysis with progress shown; Ctrl-C in it says how far the step got and exits 130."""
    from ..sim import progress
    from ..sim.tasks import Interrupted

    try:
        with progress.reporting("games"):
            return make()
    except Interrupted as stop:
        typer.echo(
            f"interrupted: {stop.done} of {stop.total} {stop.unit} of this step finished; nothing written", err=True
        )
        raise typer.Exit(130) from None


def emit(document: writer.Document, as_json: bool, out: Path | None, stem: str) -> None:
    """Print a report document as Markdown (or JSON), and write both files into `out` when given."""
    typer.echo(json.dumps(writer.to_json(document), indent=1) if as_json else writer.to_markdown(document))
    if out is not None:
        for path in publish.write(document, out if out.is_absolute() else Path.cwd() / out, stem=stem):
            typer.echo(f"wrote {path}", err=True)
