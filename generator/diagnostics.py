"""Compiler-style diagnostics: located problems, collected, then reported once."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

EXCERPT = 240  # characters of a source line shown, 120 either side of the column: a 600 KB line prints as 240
MAX_MESSAGE = 500  # characters of a message (one that quotes the user's whole list, say)
MAX_SHOWN = 100  # problems printed (or sent to the preview page) at most; the summary counts them all


@dataclass(frozen=True)
class Location:
    """A 1-based position in a source file, with (an excerpt of) that line's text for the caret view.

    The text is clipped to EXCERPT characters around the column as the location is made, so a diagnostic
    never holds (or prints) more of a long line; `caret` is the column's place in the excerpt.
    """

    file: str
    line: int
    col: int
    text: str = ""
    caret: int = -1  # 0-based place of the caret in `text`; worked out from `col` when not given
    cell: str = ""  # a spreadsheet's place, `Sheet!B3`: shown instead of line and column

    def __post_init__(self) -> None:
        if self.caret < 0:
            shown, caret = excerpt(self.text, self.col)
            object.__setattr__(self, "text", shown)
            object.__setattr__(self, "caret", caret)

    def where(self) -> str:
        """Return `file:line:col`, or `file:Sheet!B3` for a spreadsheet cell."""
        return f"{self.file}:{self.cell}" if self.cell else f"{self.file}:{self.line}:{self.col}"


def excerpt(text: str, col: int, width: int = EXCERPT) -> tuple[str, int]:
    """Return at most `width` characters of `text` around 1-based `col` ("…" marks a cut) and the caret's index."""
    at = max(0, col - 1)
    if len(text) <= width:
        return text, at
    start = max(0, min(at - width // 2, len(text) - width))
    end = start + width
    lead = "…" if start > 0 else ""
    return lead + text[start:end] + ("…" if end < len(text) else ""), at - start + len(lead)


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in the user's input."""

    severity: str  # "error" or "warning"
    code: str
    message: str
    path: str = ""
    loc: Location | None = None
    hint: str | None = None

    def __post_init__(self) -> None:
        for name in ("message", "path", "hint"):
            value = getattr(self, name)
            if value is not None and len(value) > MAX_MESSAGE:
                object.__setattr__(self, name, value[: MAX_MESSAGE - 1] + "…")

    def headline(self) -> str:
        """Return the first line: `file:line:col: error[CODE] key.path: message`."""
        where = f"{self.loc.where()}: " if self.loc else ""
        what = f"{self.path}: " if self.path else ""
        return f"{where}{self.severity}[{self.code}] {what}{self.message}"

    def render(self, note: str = "") -> str:
        """Return the headline (with `note` after it), the source line with a caret under the column, and the hint."""
        lines = [self.headline() + (f" {note}" if note else "")]
        if self.loc and self.loc.text:
            gutter = str(self.loc.line)
            pad = " " * len(gutter)
            lines.append(f" {pad} |")
            lines.append(f" {gutter} | {self.loc.text}")
            lines.append(f" {pad} | {' ' * self.loc.caret}^")
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

    def problems(self) -> list[Problem]:
        """Return each problem once, sorted by file and position: copies of one found on many faces go together,
        and so does a run of the same problem on one line (2,000 player counts out of range)."""
        return runs(group(sort_diagnostics(self.items)))

    def summary(self) -> str:
        """Return e.g. `2 errors, 1 warning in 2 files`, counting each problem once however many faces it is on."""
        problems = self.problems()
        files = {p.diagnostic.loc.file for p in problems if p.diagnostic.loc}
        errors = sum(1 + p.alike for p in problems if p.diagnostic.severity == "error")
        warnings = sum(1 + p.alike for p in problems) - errors
        parts = [_plural(errors, "error"), _plural(warnings, "warning")]
        tail = f" in {_plural(len(files), 'file')}" if files else ""
        return ", ".join(parts) + tail

    def render(self) -> str:
        """Return every problem once (the first MAX_SHOWN), sorted by file and position, then the summary."""
        problems = self.problems()
        shown, more = problems[:MAX_SHOWN], not_shown(problems[MAX_SHOWN:])
        return "\n\n".join([p.render() for p in shown] + ([more] if more else []) + [self.summary()])


def not_shown(hidden: Sequence[Problem]) -> str:
    """Return the line that stands for problems left unprinted, or "" when there are none."""
    if not hidden:
        return ""
    errors = sum(1 + p.alike for p in hidden if p.diagnostic.severity == "error")
    said = ", ".join([_plural(errors, "error"), _plural(sum(1 + p.alike for p in hidden) - errors, "warning")])
    return f"… and {_plural(len(hidden), 'more problem')} not shown ({said}): fix those above first"


# A face-level message starts with the face's key ("feed-belt-1/front: art: …", "workshop-back: …"), or
# names it where a template problem says which render it broke ("… while rendering a-1/front: …").
_KEY = r"[A-Za-z0-9][\w.-]*(?:/[\w.-]+)?"
_LEAD = re.compile(rf"{_KEY}(?=: .)", re.S)
_NAMED = re.compile(rf"(?<=while rendering ){_KEY}(?=: |$)|(?<=\(needed for ){_KEY}(?=\))")
_COPY = re.compile(r"-\d+(?=/|$)")  # feed-belt-2/front is copy 2 of feed-belt/front
_LISTED = 3  # faces named in "(20 places: a, b, c, …)"


@dataclass(frozen=True)
class Problem:
    """One problem as it is reported: a diagnostic standing for every face (copy or place) it was found on."""

    diagnostic: Diagnostic
    faces: tuple[str, ...] = ()  # the face keys of every copy, when it was found on more than one face
    alike: int = 0  # how many more problems like it on the same line it stands for

    @property
    def count(self) -> int:
        """Return how many faces the problem is on (1 when it is not a face-level problem)."""
        return max(1, len(self.faces))

    def copies(self) -> bool:
        """Return True when every face is a copy of one card (feed-belt-1/front, feed-belt-2/front)."""
        return len({_COPY.sub("", f) for f in self.faces}) == 1

    def note(self) -> str:
        """Return what follows the headline: `(3 copies)`, `(20 places: a, b, c, …)`, `(and 4 more like it on
        this line)`, or nothing."""
        if self.alike:
            return f"(and {self.alike} more like it on this line)"
        if self.count == 1:
            return ""
        if self.copies():
            return f"({self.count} copies)"
        named = face_in(self.diagnostic.message)
        if named and named[1] == self.faces[0]:  # the headline names the first place: list the others
            others = self.faces[1:]
            shown = ", ".join(others[:_LISTED]) + (", …" if len(others) > _LISTED else "")
            return f"(and {_plural(len(others), 'more place')}: {shown})"
        shown = ", ".join(self.faces[:_LISTED]) + (", …" if self.count > _LISTED else "")
        return f"({self.count} places: {shown})"

    def shown(self) -> Diagnostic:
        """Return the diagnostic as said once: copies of a card are named by the card, not its first copy."""
        d = self.diagnostic
        if self.count > 1 and self.copies():
            found = face_in(d.message)
            if found:
                before, _, after = found
                message = f"{before}{_COPY.sub('', self.faces[0])}{after}"
                return Diagnostic(d.severity, d.code, message, d.path, d.loc, d.hint)
        return d

    def render(self) -> str:
        """Return the diagnostic in compiler style with its count after the headline."""
        return self.shown().render(self.note())


def face_in(message: str) -> tuple[str, str, str] | None:
    """Return (text before, face key, text after) for a message that names the face it was found on, else None."""
    match = _LEAD.match(message) or _NAMED.search(message)
    if match is None:
        return None
    return message[: match.start()], match[0], message[match.end() :]


def group(items: Sequence[Diagnostic]) -> list[Problem]:
    """Return the diagnostics as problems, in order: those differing only in the face they name are one problem."""
    found: dict[tuple[Any, ...], list[Any]] = {}
    for d in items:
        split = face_in(d.message)
        rest, face = ((split[0], split[2]), split[1]) if split else (d.message, None)
        entry = found.setdefault((d.severity, d.code, d.path, d.loc, d.hint, rest), [d, []])
        if face is not None and face not in entry[1]:
            entry[1].append(face)
    return [Problem(d, tuple(faces) if len(faces) > 1 else ()) for d, faces in found.values()]


_NUMBER = re.compile(r"\d+")


def runs(problems: Sequence[Problem]) -> list[Problem]:
    """Return the problems with each run of alike ones on one line (same code, message but for its numbers) as one."""
    out: list[Problem] = []
    last: tuple[Any, ...] | None = None
    for problem in problems:
        d = problem.diagnostic
        shape = (
            (d.severity, d.code, d.loc.file, d.loc.line, _NUMBER.sub("#", d.path), _NUMBER.sub("#", d.message), d.hint)
            if d.loc and not problem.faces
            else None
        )
        if shape is not None and shape == last:
            out[-1] = Problem(out[-1].diagnostic, (), out[-1].alike + 1)
            continue
        out.append(problem)
        last = shape
    return out


class CardpressError(Exception):
    """User input was invalid; carries the diagnostics that explain why."""

    def __init__(self, report: Report):
        super().__init__(report.summary())
        self.report = report

    def __reduce__(self) -> tuple[type[CardpressError], tuple[Report]]:
        # rebuild from the report, so the error survives pickling out of a worker process
        return (type(self), (self.report,))


def sort_diagnostics(items: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Sort by file, line and column; unlocated diagnostics keep their order at the end."""
    located = sorted((d for d in items if d.loc), key=lambda d: (d.loc.file, d.loc.line, d.loc.col) if d.loc else ())
    return located + [d for d in items if not d.loc]


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """Return a `did you mean 'x'?` hint when a close match exists."""
    matches = difflib.get_close_matches(str(word), sorted(map(str, choices)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
