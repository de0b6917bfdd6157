"""Terminal output through rich: colour on a terminal, plain text when piped or when NO_COLOR is set."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from ..diagnostics import MAX_SHOWN, Diagnostic, Problem, Report, not_shown

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

STYLES = {
    "error": "bold red",
    "warning": "bold yellow",
    "where": "bold",
    "gutter": "blue",
    "hint": "cyan",
    "ok": "green",
    "note": "dim",
}


WIDE = 200  # columns of a table when piped (no terminal to measure): wide enough for paths, never folded


def console(err: bool = False, wide: bool = False) -> Console:
    """Return a console on stdout (or stderr) that colours only a terminal, never with NO_COLOR set.

    Lines are never wrapped (soft_wrap): a diagnostic stays one line per line, whatever the width, so it
    reads the same in a terminal, a pipe or a log. FORCE_COLOR makes a pipe count as a terminal (rich reads it).
    """
    from rich.console import Console

    plain = bool(os.environ.get("NO_COLOR"))
    out = Console(
        stderr=err,
        color_system=None if plain else "auto",
        no_color=plain or None,
        soft_wrap=True,
        highlight=False,
        markup=False,
        emoji=False,
    )
    if wide and not out.is_terminal:
        out.width = WIDE
    return out


def problem_text(problem: Problem) -> Text:
    """Return one problem in compiler style (file:line:col code message, caret, hint) with colour spans."""
    from rich.text import Text

    d = problem.shown()
    text = Text()
    if d.loc:
        text.append(f"{d.loc.where()}: ", STYLES["where"])
    text.append(f"{d.severity}[{d.code}]", STYLES[d.severity])
    text.append(f" {d.path}: " if d.path else " ")
    text.append(d.message)
    note = problem.note()
    if note:
        text.append(f" {note}", STYLES["note"])
    if d.loc and d.loc.text:
        gutter, pad = str(d.loc.line), " " * len(str(d.loc.line))
        text.append(f"\n {pad} |", STYLES["gutter"])
        text.append(f"\n {gutter} |", STYLES["gutter"])
        text.append(f" {d.loc.text}")
        text.append(f"\n {pad} |", STYLES["gutter"])
        text.append(f" {' ' * d.loc.caret}")
        text.append("^", STYLES[d.severity])
    if d.hint:
        text.append("\n  = hint: ", STYLES["hint"])
        text.append(d.hint)
    return text


def print_problems(report: Report | Iterable[Diagnostic], out: Console | None = None) -> int:
    """Print each problem once (sorted, with its count of copies or places) to stderr; return how many."""
    if not isinstance(report, Report):
        report = Report(list(report))
    problems = report.problems()
    if not problems:
        return 0
    from rich.text import Text

    out = out or console(err=True)
    for problem in problems[:MAX_SHOWN]:
        out.print(problem_text(problem))
        out.print()
    more = not_shown(problems[MAX_SHOWN:])
    if more:
        out.print(Text(more, STYLES["note"]))
        out.print()
    return len(problems)


def summary_style(report: Report) -> str:
    """Return the colour of a summary: red with errors, yellow with warnings only, green when clean."""
    return STYLES["error"] if not report.ok() else STYLES["warning"] if report.items else STYLES["ok"]


def print_line(line: str, style: str | None = None, err: bool = False) -> None:
    """Print one line (a verdict, a summary, a path written) in a style."""
    stream = sys.stderr if err else sys.stdout
    if not _terminal(stream):  # what rich would write, without loading rich (a tenth of a warm rebuild's start)
        stream.write(line + "\n")
        return
    from rich.text import Text

    console(err=err).print(Text(line, style or ""))


def _terminal(stream: TextIO) -> bool:
    """Return whether rich would take `stream` for a terminal: as `Console.is_terminal` decides, from
    TTY_COMPATIBLE, then FORCE_COLOR, then the stream itself."""
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    forced = os.environ.get("FORCE_COLOR")
    if forced is not None:
        return forced != ""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream: not a terminal, as rich says
        return False


def print_report(report: Report) -> None:
    """Print every problem once, then the summary, to stderr (nothing at all when there are none)."""
    if report.items:
        print_problems(report)
        print_line(report.summary(), summary_style(report), err=True)


def table(title: str | None, columns: Iterable[str]) -> Table:
    """Return a rich table with the house look: bold headers, no box lines when piped."""
    from rich.table import Table

    grid = Table(title=title, header_style="bold", title_justify="left", title_style="bold")
    for name in columns:
        grid.add_column(name, overflow="fold")
    return grid
