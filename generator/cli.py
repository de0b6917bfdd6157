"""The `cardpress` command line: a thin Typer layer over `generator.pipeline`."""

from __future__ import annotations

import contextlib
import importlib
import sys
import traceback
from enum import StrEnum
from pathlib import Path
from typing import Optional

import typer

from . import __version__
from .diagnostics import CardpressError, Report

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    help="Turn tabletop-game cards written in YAML into cut-ready print-and-play PDFs.",
)

GameArg = typer.Argument(None, help="Game folder under cards/ (default: every game).", show_default=False)
RootOpt = typer.Option(
    None, "--root", help="Project folder holding cards/ (default: found from here).", show_default=False
)


class MissingArt(StrEnum):
    """What a missing art file is: quietly stood in for, a warning, or an error."""

    placeholder = "placeholder"
    warn = "warn"
    error = "error"


MissingArtOpt = typer.Option(None, "--missing-art", help="Override game.yaml's missing_art policy.", show_default=False)


class Paper(StrEnum):
    """Paper sizes a kit can be printed on."""

    a4 = "a4"
    letter = "letter"
    both = "both"


def _root(root: Optional[Path]) -> Path:
    from .project import find_root

    return find_root(root)


def echo_report(report: Report) -> None:
    """Print diagnostics to stderr (nothing when there are none)."""
    if report.items:
        typer.echo(report.render(), err=True)


def fail(report: Report) -> None:
    """Print the diagnostics and exit with status 1."""
    echo_report(report)
    raise typer.Exit(1)


@app.command()
def validate(
    game: Optional[str] = GameArg, root: Optional[Path] = RootOpt, missing_art: Optional[MissingArt] = MissingArtOpt
) -> None:
    """Check card files: schema, references, rules, layout and art. Exit 1 on any error."""
    from .pipeline import Pipeline, resolve_games

    base = _root(root)
    total = Report()
    for game_id in resolve_games(base, game):
        pipeline = Pipeline(base, game_id, missing_art=missing_art.value if missing_art else None)
        pipeline.lint()
        total.extend(pipeline.report.items)
        if pipeline.report.ok():
            typer.echo(f"{game_id}: ok ({pipeline.report.summary()})")
    if not total.ok():
        fail(total)
    echo_report(total)


@app.command()
def build(
    game: Optional[str] = GameArg,
    paper: Paper = typer.Option(Paper.both, "--paper", help="Paper size of the PDF."),
    players: Optional[int] = typer.Option(None, "--players", help="Player count (default: the largest supported)."),
    out: Path = typer.Option(Path("output"), "--out", help="Folder to write into."),
    root: Optional[Path] = RootOpt,
    missing_art: Optional[MissingArt] = MissingArtOpt,
) -> None:
    """Validate, then build each game's print-and-play kit into OUT/<game>/."""
    from . import build as builder

    base = _root(root)
    papers = ["a4", "letter"] if paper is Paper.both else [paper.value]
    out_dir = out if out.is_absolute() else Path.cwd() / out
    result = builder.build(
        base, game, papers=papers, players=players, out=out_dir, missing_art=missing_art.value if missing_art else None
    )
    echo_report(result.report)  # warnings: the kit was built, but something deserves a look
    for path in result.written:
        typer.echo(f"wrote {_shown(path)}")
    if len(result.reports) > 1:  # one line per game, so a failure among many stands out
        for gid, report in result.reports.items():
            verdict = "built" if gid in result.built else "not built"
            typer.echo(f"{gid}: {verdict} ({report.summary()})", err=gid in result.failed)
    if result.failed:
        raise typer.Exit(1)


@app.command()
def new(
    game: str = typer.Argument(..., help="Name of the new game's folder under cards/, e.g. star-port."),
    size: str = typer.Option("poker", "--size", help="Card size: a preset (poker, tarot, mini …) or e.g. 63x88mm."),
    from_csv: Optional[Path] = typer.Option(None, "--from-csv", help="Make the cards from this CSV (a name column)."),
    root: Optional[Path] = RootOpt,
) -> None:
    """Make a new card game from data and templates (ruleset `deck`) that builds at once."""
    from .scaffold import new_game

    for path in new_game(_root(root), game, size=size, from_csv=from_csv):
        typer.echo(f"wrote {_shown(path)}")
    typer.echo(f"next: edit cards/{game}/cards.csv and its layouts/, then `cardpress build {game}`")


from .cli_rules import register as _register_rules  # noqa: E402  explain, simulate, analyze

_register_rules(app)


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"cardpress {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=version_callback, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """cardpress: print-and-play kits from YAML card data."""


def main() -> None:
    """Console entry point: user errors become diagnostics and exit 1, never a traceback."""
    try:
        code = app(standalone_mode=False)
    except CardpressError as exc:
        echo_report(exc.report)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    except Exception as exc:  # click's usage errors carry their own exit code (2)
        # typer ≥ 0.2x vendors click; a separately installed click (dask brings one) has other classes.
        kinds = []
        for module in ("typer._click.exceptions", "click.exceptions"):
            with contextlib.suppress(ImportError):
                kinds.append(importlib.import_module(module).ClickException)

        if isinstance(exc, tuple(kinds)):
            exc.show()
            sys.exit(exc.exit_code)
        typer.echo(
            "cardpress: internal error (this is a bug in cardpress, not in your files); please report it:", err=True
        )
        traceback.print_exc()
        sys.exit(70)
    sys.exit(code if isinstance(code, int) else 0)


# Last, because these commands use the helpers above.
from .cli_iterate import register as _register_iterate  # noqa: E402  proof, watch, serve, art

_register_iterate(app)

from .cli_export import register as _register_export  # noqa: E402  export

_register_export(app)
