"""Read the rulebook (rulebook.txt) for what it states as fact: its printed components and its key numbers.

The rulebook is the source of truth. Its "Printable materials" section prints every component line by
line (each card copy, the starter, the mat, the lap record, the marker); its prose states the counts and
constants ("sixteen market cards", "Deal four face up", "Store at most 6 FEED and 4 PARTS", …), each in a
sentence form below. A fan edition that rewrites a rule rewrites the number in that sentence; a required
form that no line reads like is reported where the rulebook should say it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...sdk import Form, sentence
from ...sdk import rulebook as rulebook_text

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
    col: int
    text: str  # the sentence it stands in


@dataclass(frozen=True)
class FactForm(Form):
    """A sentence form of a fact; an optional one (a restriction, or an example) may be absent."""

    required: bool = True


class Rulebook(rulebook_text.Rulebook):
    """The rulebook's lines, its printed components and its stated facts."""

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

    def facts(self, forms: Iterable[FactForm]) -> tuple[list[Fact], list[tuple[FactForm, int]]]:
        """Return every fact the forms find, in order of appearance, and each required form no line reads like."""
        found, missing = [], []
        for form in forms:
            hits = [
                Fact(form.id, m.group("v"), n, m.start("v") + 1, sentence(self.lines[n - 1], m))
                for n, m in self.search(form.rx)
            ]
            found += hits
            if not hits and form.required:
                missing.append((form, self.line_of(form.section) or 1))
        found.sort(key=lambda f: (f.line, f.col))
        return found, missing


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
    """Return `rulebook.txt:14:9 says "…"` for a hint."""
    return f'{rulebook.display}:{fact.line}:{fact.col} says "{fact.text}"'


# Facts the Pocket Foundry rulebook states, as sentence forms over its prose (`v` captures the value).
FACTS = (
    FactForm(
        "market_cards",
        "What you need",
        r"\b(?P<v>{N}) market cards",
        "One copy of the 16 market cards",
        "the number of market cards",
    ),
    FactForm(
        "copies_types",
        "What you need",
        r"\b(?P<v>{N} copies of {N}) machine types",
        "two copies of eight machine types",
        "how many machine types there are, and the copies of each",
    ),
    FactForm(
        "slots",
        "What you need",
        r"\b(?P<v>{N})-slot mat",
        "One Starter Feeder card and one four-slot mat per player",
        "the slots on a mat",
    ),
    FactForm(
        "laps",
        "What you need",
        r"\b(?P<v>{N})-lap record",
        "one twelve-lap record and starting-player marker",
        "the laps on the lap record",
    ),
    FactForm(
        "slots",
        "A small production line",
        r"\brow of (?P<v>{N}) machine slots",
        "Build a personal row of four machine slots.",
        "the slots in a row",
    ),
    FactForm(
        "build_slots",
        "A small production line",
        r"\bslots 2[–-](?P<v>{N})",
        "you may install and replace machines in slots 2–4",
        "the slots machines are built into",
    ),
    FactForm(
        "laps",
        "A small production line",
        r"\b(?P<v>{N})(?: equal)? laps\b",
        "Earn the most points by the end of twelve laps.",
        "the number of laps",
    ),
    FactForm(
        "market_size",
        "Set out the market",
        r"\bDeal (?P<v>{N}) face up",
        "Deal four face up in a shared market",
        "the size of the market",
    ),
    FactForm(
        "start",
        "Set out the market",
        r"\bGive each player[^.]{0,200}?slot 1, (?P<v>[^.]{1,200})\.",
        "Give each player one mat, a Starter Feeder in slot 1, 3 FEED, zero PARTS and zero points.",
        "what each player starts with",
    ),
    FactForm(
        "slot_numbers",
        "Build on your turn",
        r"\bslot numbered (?P<v>(?:{N}, )*{N} or {N})",
        "Install it in any one slot numbered 2, 3 or 4.",
        "the slots a build may use",
    ),
    FactForm(
        "never_reshuffle",
        "Refill and hold the order",
        r"\b(?P<v>Never) reshuffle discarded machines",
        "Never reshuffle discarded machines.",
        "that discarded machines are never reshuffled (the engine never reshuffles)",
    ),
    FactForm(
        "caps",
        "Store only what fits",
        r"\bStore at most (?P<v>[^,.]+)",
        "Store at most 6 FEED and 4 PARTS, separately.",
        "the storage caps",
    ),
    FactForm(
        "uncapped",
        "Store only what fits",
        r"\b(?P<v>\w+) have no storage cap",
        "Points have no storage cap and are recorded separately.",
        "which resource has no cap",
    ),
    FactForm(
        "turns",
        "Twelve equal laps",
        r"\beach player takes (?P<v>{N}) turns",
        "Each player takes twelve turns",
        "the turns each player takes",
    ),
    FactForm(
        "same_laps",
        "Twelve equal laps",
        r"\b(?P<v>starts the same number of laps) at every supported player count",
        "Each player takes twelve turns and starts the same number of laps at every supported player count.",
        "that every player starts the same number of laps",
        required=False,  # a restriction: a rulebook without it makes no such promise
    ),
    FactForm(
        "laps",
        "End without a bonus run",
        r"\bacted in lap (?P<v>{N})\b",
        "After everyone has acted in lap twelve, stop.",
        "the last lap",
    ),
    FactForm(
        "copies",
        "End without a bonus run",
        r"\breturn (?P<v>both|{N}) copies of every market type",
        "return both copies of every market type",
        "the copies of each market type",
    ),
    FactForm(
        "copies",
        "Printable materials",
        r"\bPrint (?P<v>both|{N}) physical copies of each market type",
        "Print both physical copies of each market type, sixteen cards total.",
        "the copies of each market type to print",
    ),
    FactForm(
        "market_cards",
        "Printable materials",
        r"\b(?P<v>{N}) cards total",
        "sixteen cards total",
        "the number of market cards to print",
    ),
)
