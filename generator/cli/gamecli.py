"""What the per-game commands a ruleset declares (`explain`, `analyze`) share: options and printing a report."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ..diagnostics import CardpressError, Report
from ..project.folders import GameDir

if TYPE_CHECKING:
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


def emit(document: writer.Document, as_json: bool, out: Path | None, stem: str, games: Sequence[GameDir] = ()) -> None:
    """Print a report document as Markdown (or JSON), and write both files into `out` when given; its provenance
    names `games`' input files and this command."""
    from ..sim import provenance, publish
    from ..sim import report as writer

    if document.provenance is None:
        document.provenance = provenance.collect(games, argv=None)
        document.provenance["command"] = command_line()
    typer.echo(json.dumps(writer.to_json(document), indent=1) if as_json else writer.to_markdown(document))
    if out is not None:
        for path in publish.write(document, out if out.is_absolute() else Path.cwd() / out, stem=stem):
            typer.echo(f"wrote {path}", err=True)


def command_line() -> list[str]:
    """Return the running command as a canonical command line: `cardpress`, the command, then every argument and
    every option given (not defaults), less those that never change a result (`--jobs`, `--scheduler`).

    Read from Click's parsed context, so it is the same however the options were spelled or ordered, and the
    same in tests (which do not set sys.argv)."""
    from ..sim import provenance

    ctx = _current_context()
    if ctx is None:
        return provenance.command()
    names = []
    at: Any = ctx
    while at is not None and at.parent is not None:
        names.append(at.info_name or "")
        at = at.parent
    root = (at.info_name or "") if at is not None else ""
    # a game's own command runs as its own app, named `cardpress analyze GAME`; the main app's name varies
    # (`cardpress`, `python -m generator`, a test runner's), so it is always written `cardpress`
    start = root.split() if root.startswith("cardpress ") else ["cardpress"]
    words = [*start, *reversed([n for n in names if n and not n.startswith("cardpress")])]
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name else None
        if source is None or source.name == "DEFAULT":
            continue
        value = ctx.params.get(param.name)
        if param.param_type_name == "argument":
            words += [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
            continue
        opt = max(param.opts, key=len)
        if opt in provenance.NEUTRAL:
            continue
        if getattr(param, "is_flag", False):
            if value:
                words.append(opt)
            continue
        for v in value if isinstance(value, list | tuple) else [value]:
            words += [opt, str(v)]
    return words


def _current_context() -> Any:
    """Return the running command's Click context, or None outside a command.

    Typer 0.29 and later run on a copy of Click of their own (`typer._click`), whose context stack is not
    `click`'s; earlier versions use Click itself. Both are asked, the one Typer runs on first."""
    for name in ("typer._click.globals", "click.globals"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        ctx = module.get_current_context(silent=True)
        if ctx is not None:
            return ctx
    return None
