"""Compiler-style diagnostics: located problems, collected, then reported once."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Location:
    """A 1-based position in a source file, with the text of that line for the caret view."""

    file: str
    line: int
    col: int
    text: str = ""


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in the user's input."""

    severity: str  # "error" or "warning"
    code: str
    message: str
    path: str = ""
    loc: Location | None = None
    hint: str | None = None

    def headline(self) -> str:
        """Return the first line: `file:line:col: error[CODE] key.path: message`."""
        where = f"{self.loc.file}:{self.loc.line}:{self.loc.col}: " if self.loc else ""
        what = f"{self.path}: " if self.path else ""
        return f"{where}{self.severity}[{self.code}] {what}{self.message}"

    def render(self) -> str:
        """Return the headline, the source line with a caret under the column, and the hint."""
        lines = [self.headline()]
        if self.loc and self.loc.text:
            gutter = str(self.loc.line)
            pad = " " * len(gutter)
            lines.append(f" {pad} |")
            lines.append(f" {gutter} | {self.loc.text}")
            lines.append(f" {pad} | {' ' * (self.loc.col - 1)}^")
        if self.hint:
            lines.append(f"  = hint: {self.hint}")
        return "\n".join(lines)


@dataclass
class Report:
    """Every diagnostic found during one run, in the order found."""

    items: list[Diagnostic] = field(default_factory=list)
    _seen: set[Diagnostic] = field(default_factory=set, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._seen.update(self.items)

    def add(self, diagnostic: Diagnostic) -> None:
        """Record one diagnostic; the same problem found twice (e.g. once per paper) is kept once."""
        # A set beside the list keeps this O(1): thousands of problems in one file stay linear.
        if diagnostic not in self._seen:
            self._seen.add(diagnostic)
            self.items.append(diagnostic)

    def error(
        self, code: str, message: str, *, path: str = "", loc: Location | None = None, hint: str | None = None
    ) -> None:
        """Record an error."""
        self.add(Diagnostic("error", code, message, path, loc, hint))

    def warning(
        self, code: str, message: str, *, path: str = "", loc: Location | None = None, hint: str | None = None
    ) -> None:
        """Record a warning."""
        self.add(Diagnostic("warning", code, message, path, loc, hint))

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Record several diagnostics."""
        for diagnostic in diagnostics:
            self.add(diagnostic)

    @property
    def errors(self) -> list[Diagnostic]:
        """Return the errors only."""
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        """Return the warnings only."""
        return [d for d in self.items if d.severity == "warning"]

    def ok(self) -> bool:
        """Return True when no error was recorded."""
        return not self.errors

    def summary(self) -> str:
        """Return e.g. `2 errors, 1 warning in 2 files`."""
        files = {d.loc.file for d in self.items if d.loc}
        parts = [_plural(len(self.errors), "error"), _plural(len(self.warnings), "warning")]
        tail = f" in {_plural(len(files), 'file')}" if files else ""
        return ", ".join(parts) + tail

    def render(self) -> str:
        """Return every diagnostic, sorted by file and position, then the summary."""
        return "\n\n".join([d.render() for d in sort_diagnostics(self.items)] + [self.summary()])


class CardpressError(Exception):
    """User input was invalid; carries the diagnostics that explain why."""

    def __init__(self, report: Report):
        super().__init__(report.summary())
        self.report = report

    def __reduce__(self):
        # rebuild from the report, so the error survives pickling out of a worker process
        return (type(self), (self.report,))


def sort_diagnostics(items: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Sort by file, line and column; unlocated diagnostics keep their order at the end."""
    located = sorted((d for d in items if d.loc), key=lambda d: (d.loc.file, d.loc.line, d.loc.col))
    return located + [d for d in items if not d.loc]


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """Return a `did you mean 'x'?` hint when a close match exists."""
    matches = difflib.get_close_matches(str(word), sorted(map(str, choices)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
