"""Read a game's rulebook.txt: its lines, the sentences in them and the values they state, with positions.

Games read their facts from their own rulebook text, so a fan edition that rewrites a rule changes what its
cards are held to. This module knows no game: each ruleset brings the sentence forms it reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Location, Report
from ..project.folders import GameDir
from . import safefile

RULEBOOK_FILE = "rulebook.txt"
MAX_BYTES = 256_000  # a rulebook is a few pages; refuse anything that looks like an attack
MAX_LINE = 4_000  # sentence patterns scan each line; a bounded line keeps them fast on hostile input
NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)
# A number as a rulebook writes it, `6` or `six`; it must end there, so `fourteen` is never read as `four`.
# The look ahead at its first character changes no match; it spares trying every word at every word's edge
# (a third of the rules check of the Pocket Foundry rulebook).
NUM = (
    r"(?=[\d"
    + "".join(sorted({w[0] for w in NUMBER_WORDS}))
    + r"])(?:\d{1,3}|"
    + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
    + r")\b"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def number(word: str) -> int:
    """Return 6 for `6`, `six` or `Six`; raise ValueError for anything else."""
    w = word.strip().casefold()
    if w.isdigit():
        return int(w)
    if w in NUMBER_WORDS:
        return NUMBER_WORDS.index(w)
    raise ValueError(f"'{word}' is not a number")


@dataclass(frozen=True)
class Form:
    """A sentence form a validator reads: the section it stands in, its pattern, and its shipped wording.

    In `pattern`, `{N}` is a number (`6` or `six`). A required form that no line reads like is reported at its
    section (a heading, or the first words of a paragraph), with `like` as the wording to restore.
    """

    id: str
    section: str
    pattern: str
    like: str
    what: str  # what the sentence states, for the message: "the hand limit"

    @property
    def rx(self) -> re.Pattern[str]:
        """Return the compiled pattern (compiled once per pattern by `re`'s own cache)."""
        return re.compile(self.pattern.replace("{N}", NUM), re.IGNORECASE)


@dataclass(frozen=True)
class Stated:
    """A value the rulebook states: the value, where (1-based line and column) and the sentence around it."""

    value: Any
    line: int
    col: int
    sentence: str


class Rulebook:
    """The rulebook's lines, with positions for what they state."""

    def __init__(self, text: str, display: str):
        self.text = text
        self.display = display
        self.lines = text.splitlines()

    def loc(self, line: int, col: int = 1) -> Location:
        """Return a location in the rulebook."""
        return Location(self.display, line, col, self.lines[line - 1] if 0 < line <= len(self.lines) else "")

    def at(self, stated: Stated) -> Location:
        """Return where a stated value is."""
        return self.loc(stated.line, stated.col)

    def line_of(self, prefix: str) -> int | None:
        """Return the 1-based line that starts with `prefix` (a heading or a paragraph's first words), or None."""
        return next((i + 1 for i, line in enumerate(self.lines) if line.strip().startswith(prefix)), None)

    def search(self, pattern: re.Pattern[str]) -> Iterator[tuple[int, re.Match[str]]]:
        """Yield (1-based line, match) for every match of `pattern` in every line, in order."""
        for i, line in enumerate(self.lines):
            if len(line) <= MAX_LINE:
                for m in pattern.finditer(line):
                    yield i + 1, m

    def stated(self, line: int, m: re.Match[str], group: str | int, value: Any = None) -> Stated:
        """Return the value of one group of a match, where it stands, and the sentence(s) it stands in."""
        start = m.start(group)
        return Stated(m.group(group) if value is None else value, line, start + 1, sentence(self.lines[line - 1], m))

    def quote(self, stated: Stated) -> str:
        """Return `cards/g/rulebook.txt:64:22 says "…"` for a hint."""
        return f'{self.display}:{stated.line}:{stated.col} says "{stated.sentence}"'


def sentence(line: str, m: re.Match[str]) -> str:
    """Return the sentence (or run of sentences) of `line` that the match spans."""
    start, end = m.span()
    out, pos = [], 0
    for piece in _SENTENCE_END.split(line):
        at = line.index(piece, pos)
        pos = at + len(piece)
        if pos > start and at < max(end, start + 1):
            out.append(piece)
    text = re.sub(r"^[•-]\s+", "", (" ".join(out) if out else line).strip())  # a list bullet is not the sentence's
    return text if len(text) <= 160 else text[:157] + "…"


def read(game: GameDir, report: Report, code: str, cls: type[Rulebook] = Rulebook) -> Rulebook | None:
    """Return the game's rulebook, or None after reporting why it cannot be read (a missing one is an error)."""
    path = game.find(RULEBOOK_FILE) or game.folder / RULEBOOK_FILE  # a fan edition's own, else its base's
    display = game.shown(path) if path.is_file() else game.display(RULEBOOK_FILE)
    where = Location(display, 1, 1)
    if not path.is_file():
        report.error(
            code,
            f"there is no {RULEBOOK_FILE}: the rules layer holds the cards to the game's own rulebook",
            loc=where,
            hint=f"copy the rulebook of the game this one is based on into {game.display('')}, then edit it",
        )
        return None
    try:
        text = safefile.read_text(path, MAX_BYTES)
    except safefile.Refused as exc:
        if exc.code == "Y003":
            report.error(code, f"{RULEBOOK_FILE} is larger than {MAX_BYTES // 1000} kB", loc=where)
        elif exc.code == "Y001":
            report.error(
                code,
                f"{RULEBOOK_FILE} is not UTF-8 text ({exc.reason.removeprefix('file is not UTF-8 text (')}",
                loc=where,
            )
        else:
            exc.report(report, display)
        return None
    rulebook = cls(text, display)
    for n, line in enumerate(rulebook.lines, 1):
        if len(line) > MAX_LINE:  # search() skips it: say so rather than silently check less
            report.error(code, f"line {n} is longer than {MAX_LINE} characters; it is not read", loc=rulebook.loc(n))
    return rulebook
