"""The options, arguments and helpers the cardpress commands share (one definition each)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any, Optional

import typer

from ..diagnostics import Report

GameArg: Any = typer.Argument(None, help="Game folder under cards/ (default: every game).", show_default=False)
OneGameArg: Any = typer.Argument(..., help="Game folder under cards/, e.g. pocket-foundry.", show_default=False)
RootOpt: Any = typer.Option(
    None, "--root", help="Project folder holding cards/ (default: found from here).", show_default=False
)


class MissingArt(StrEnum):
    """What a missing art file is: quietly stood in for, a warning, or an error."""

    placeholder = "placeholder"
    warn = "warn"
    error = "error"


MissingArtOpt: Any = typer.Option(
    None, "--missing-art", help="Override game.yaml's missing_art policy.", show_default=False
)


class Paper(StrEnum):
    """Paper sizes a kit can be printed on."""

    a4 = "a4"
    letter = "letter"
    both = "both"


def paper_option(what: str) -> Any:
    """Return a `--paper` option, read in any case (Letter, A4) by every command that takes one."""
    return typer.Option(Paper.both, "--paper", case_sensitive=False, help=f"{what}, in any case (Letter, A4).")


PaperOpt: Any = paper_option("Paper size of the kit PDFs")


def root_of(root: Optional[Path], needs_cards: bool = True) -> Path:
    from ..project.folders import find_root

    return find_root(root, needs_cards)


def echo_report(report: Report) -> None:
    """Print each problem once, then the summary, to stderr (nothing when there are none)."""
    from .console import print_report

    print_report(report)


def out_folder(value: Optional[Path]) -> Optional[Path]:
    """Check an --out folder as the option is read: one the file system cannot write into (a file of that name,
    a name too long, a loop of links) is a diagnostic (exit 1) before any work, not an error after it."""
    if value is not None:
        from ..project.output import check_folder

        check_folder(value)  # raises CardpressError, which main() prints
    return value


def fail(report: Report) -> None:
    """Print the diagnostics and exit with status 1."""
    echo_report(report)
    raise typer.Exit(1)


def shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
