"""Read the rulebook (rulebook.txt) for what it states as fact: its printed components and its key numbers.

The rulebook is the source of truth. Its "Printable materials" section prints every component line by
line (each card copy, the starter, the mat, the lap record, the marker); its prose states the counts and
constants ("sixteen market cards", "Deal four face up", "Store at most 6 FEED and 4 PARTS", …). A fan
edition that rewrites the rulebook simply states other facts, or none: only facts found are checked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...diagnostics import Location
from .textparse import NUM

MATERIALS = "Printable materials"


@dataclass
class Block:
    """One printed component in the rulebook: its title line and the lines under it."""

    title: str  # the component's name, e.g. `Feed Belt`
    suffix: str  # what follows ` · ` on the title line, e.g. `copy 1`
    line: int  # 1-based line of the title
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Fact:
    """A number (or amounts text) the rulebook's prose states, where it states it."""

    name: str
    value: str
    line: int
    text: str


class Rulebook:
    """The rulebook's lines, its printed components and its stated facts."""

    def __init__(self, text: str, display: str):
        self.text = text
        self.display = display
        self.lines = text.splitlines()

    def loc(self, line: int, col: int = 1) -> Location:
        """Return a location in the rulebook."""
        return Location(self.display, line, col, self.lines[line - 1] if 0 < line <= len(self.lines) else "")

    def blocks(self, titles: Iterable[str], footer: str = "") -> list[Block]:
        """Split the printable-materials section into components.

        A title line is one of `titles` (alone or followed by ` · …`), any other `Name · …` line, or a
        short line that is nearly one of `titles` (a renamed component); the last two give blocks whose
        title is not in `titles`, which the validator reports.
        """
        names = sorted(set(titles), key=len, reverse=True)
        start = next((i for i, line in enumerate(self.lines) if line.startswith(MATERIALS)), None)
        if start is None:
            return []
        out: list[Block] = []
        for i in range(start + 1, len(self.lines)):
            line = self.lines[i].strip()
            title = _title(line, names)
            if title is not None:
                out.append(Block(title, line[len(title) :].removeprefix(" · ").strip(), i + 1))
            elif out and line and not (footer and line.startswith(footer)):
                out[-1].lines.append((i + 1, line))
        return out

    def facts(self, patterns: dict[str, str]) -> list[Fact]:
        """Return every match of each named pattern (group `v` is the value), in order of appearance."""
        found = []
        for name, pattern in patterns.items():
            rx = re.compile(pattern.replace("{NUM}", NUM), flags=re.IGNORECASE)
            for i, line in enumerate(self.lines):
                for m in rx.finditer(line):
                    found.append(Fact(name, m.group("v"), i + 1, line))
        found.sort(key=lambda f: f.line)
        return found


def _title(line: str, names: list[str]) -> str | None:
    known = next((n for n in names if line == n or line.startswith(n + " · ")), None)
    if known is not None:
        return known
    if " · " in line:
        return line.split(" · ")[0].strip()
    if (
        len(line) <= 40
        and ":" not in line
        and not line.endswith(".")
        and difflib.get_close_matches(line, names, 1, 0.8)
    ):
        return line
    return None


def where(rulebook: Rulebook, fact: Fact) -> str:
    """Return `rulebook.txt:14 says "…"` for a hint."""
    quote = fact.text if len(fact.text) <= 90 else _around(fact.text, fact.value)
    return f'{rulebook.display}:{fact.line} says "{quote}"'


def _around(text: str, value: str) -> str:
    at = max(0, text.casefold().find(value.casefold()) - 40)
    return ("…" if at else "") + text[at : at + 90] + "…"


# Facts the Pocket Foundry rulebook states, as patterns over its prose (`v` captures the value).
FACT_PATTERNS = {
    "market_cards": r"\b(?P<v>{NUM}) market cards",
    "cards_total": r"\b(?P<v>{NUM}) cards total",
    "copies_types": r"\b(?P<v>{NUM} copies of {NUM}) machine types",
    "market_size": r"\bDeal (?P<v>{NUM}) face up",
    "slots": r"\brow of (?P<v>{NUM}) machine slots",
    "laps": r"\b(?P<v>{NUM})(?: equal)? laps\b",
    "turns": r"\beach player takes (?P<v>{NUM}) turns",
    "caps": r"\bStore at most (?P<v>[^,.]+)",
    "start": r"\bGive each player[^.]*?slot 1, (?P<v>[^.]+)\.",
}
