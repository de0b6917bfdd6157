"""Read the rulebook (rulebook.txt) for what it states as fact: its printed components and its key numbers.

The rulebook is the source of truth. Its "Printable materials" section prints every component line by
line (each card copy, the starter, the mat, the lap record, the marker); its prose states the counts and
constants ("sixteen market cards", "Deal four face up", "Store at most 6 FEED and 4 PARTS", …), each in a
sentence form below. A fan edition that rewrites a rule rewrites the number in that sentence; a required
form that no line reads like is reported where the rulebook should say it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ...sdk import ENGLISH, Catalogue, Form, Message, sentence
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
    parts: Mapping[str, str] = field(default_factory=dict)  # a form with several slots: each one's words


@dataclass(frozen=True)
class FactForm(Form):
    """A sentence form of a fact; an optional one (a restriction, or an example) may be absent.

    `form` is the same sentence as a translatable message: what the pattern reads, `{v}` the value (each slot
    matching its `kinds` entry: `N` a number, `BOTH` a number or the word for both), `…` the words it skips.
    A translated edition reads its rulebook through the translation of `form`; the English reads `pattern`.
    """

    required: bool = True
    form: str = ""
    kinds: tuple[tuple[str, str], ...] = (("v", "N"),)

    def message(self) -> Message:
        """Return the form as a message for the catalogue."""
        return Message(self.form, RULEBOOK, f"states {self.what}; in the section '{self.section}'")

    def compiled(self, words: Catalogue) -> re.Pattern[str]:
        """Return the pattern this form reads in the catalogue's language."""
        if not words.translated:
            return self.rx
        kinds = {k: _kind(v, words) for k, v in self.kinds}
        rx = words.pattern(self.form, RULEBOOK, kinds, gaps=True).pattern
        text = words.text(self.form, RULEBOOK)
        return re.compile((r"\b" if text[:1].isalnum() else "") + rx.removeprefix(r"\s*").removesuffix(r"\s*"), re.I)


RULEBOOK = "rulebook"  # the context of the forms the validator reads in a rulebook
SECTION = "rulebook section"  # the context of its headings (where a missing form is reported)
BOTH = Message("both", "numbers", "as in 'return both copies of every market type'")


def _kind(kind: str, words: Catalogue) -> str:
    if kind == "BOTH":
        return f"{re.escape(words.text(BOTH.id, BOTH.context))}|{words.num}"
    return words.num if kind == "N" else kind.replace("{N}", words.num)


class Rulebook(rulebook_text.Rulebook):
    """The rulebook's lines, its printed components and its stated facts."""

    def blocks(self, titles: Iterable[str], footer: str = "", words: Catalogue = ENGLISH) -> list[Block]:
        """Split the printable-materials section into components.

        A title line is one of `titles` (alone or followed by ` · …`), any other `Name · …` line, or a
        short line that is nearly one of `titles` (a renamed component); the last two give blocks whose
        title is not in `titles`, which the validator reports.
        """
        names = sorted(set(titles), key=len, reverse=True)
        heading = words.text(MATERIALS, SECTION)
        start = next((i for i, line in enumerate(self.lines) if line.startswith(heading)), None)
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

    def facts(
        self, forms: Iterable[FactForm], words: Catalogue = ENGLISH
    ) -> tuple[list[Fact], list[tuple[FactForm, int]]]:
        """Return every fact the forms find, in order of appearance, and each required form no line reads like."""
        found, missing = [], []
        for form in forms:
            hits = [self._fact(form, n, m) for n, m in self.search(form.compiled(words))]
            found += hits
            if not hits and form.required:
                missing.append((form, self.line_of(words.text(form.section, SECTION)) or 1))
        found.sort(key=lambda f: (f.line, f.col))
        return found, missing

    def _fact(self, form: FactForm, n: int, m: re.Match[str]) -> Fact:
        """Return the fact one match states: its `v` slot, else every slot's words, else the whole match."""
        parts = {k: v for k, v in m.groupdict().items() if k != "v" and v is not None}
        group: str | int = "v" if m.groupdict().get("v") is not None else 0
        start, end = m.span(group)
        if group == 0 and parts:
            start, end = min(m.start(k) for k in parts), max(m.end(k) for k in parts)
        return Fact(form.id, m.string[start:end], n, start + 1, sentence(self.lines[n - 1], m), parts)


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
NUM_AND_OR = r"(?:{N}\s*,\s*)*{N}\s+\w+\s+{N}"  # `2, 3 or 4` in any language: numbers, the last after a word
FACTS = (
    FactForm(
        "market_cards",
        "What you need",
        r"\b(?P<v>{N}) market cards",
        "One copy of the 16 market cards",
        "the number of market cards",
        form="{v} market cards",
    ),
    FactForm(
        "copies_types",
        "What you need",
        r"\b(?P<v>(?P<copies>{N}) copies of (?P<types>{N})) machine types",
        "two copies of eight machine types",
        "how many machine types there are, and the copies of each",
        form="{copies} copies of {types} machine types",
        kinds=(("copies", "N"), ("types", "N")),
    ),
    FactForm(
        "slots",
        "What you need",
        r"\b(?P<v>{N})-slot mat",
        "One Starter Feeder card and one four-slot mat per player",
        "the slots on a mat",
        form="{v}-slot mat",
    ),
    FactForm(
        "laps",
        "What you need",
        r"\b(?P<v>{N})-lap record",
        "one twelve-lap record and starting-player marker",
        "the laps on the lap record",
        form="{v}-lap record",
    ),
    FactForm(
        "slots",
        "A small production line",
        r"\brow of (?P<v>{N}) machine slots",
        "Build a personal row of four machine slots.",
        "the slots in a row",
        form="row of {v} machine slots",
    ),
    FactForm(
        "build_slots",
        "A small production line",
        r"\bslots 2[–-](?P<v>{N})",
        "you may install and replace machines in slots 2–4",
        "the slots machines are built into",
        form="slots 2–{v}",
    ),
    FactForm(
        "laps",
        "A small production line",
        r"\b(?P<v>{N})(?: equal)? laps\b",
        "Earn the most points by the end of twelve laps.",
        "the number of laps",
        form="end of {v} laps",
    ),
    FactForm(
        "market_size",
        "Set out the market",
        r"\bDeal (?P<v>{N}) face up",
        "Deal four face up in a shared market",
        "the size of the market",
        form="Deal {v} face up",
    ),
    FactForm(
        "start",
        "Set out the market",
        r"\bGive each player[^.]{0,200}?slot 1, (?P<v>[^.]{1,200})\.",
        "Give each player one mat, a Starter Feeder in slot 1, 3 FEED, zero PARTS and zero points.",
        "what each player starts with",
        form="Give each player … slot 1, {v}.",
        kinds=(("v", "[^.]{1,200}"),),
    ),
    FactForm(
        "slot_numbers",
        "Build on your turn",
        r"\bslot numbered (?P<v>(?:{N}, )*{N} or {N})",
        "Install it in any one slot numbered 2, 3 or 4.",
        "the slots a build may use",
        form="slot numbered {v}",
        kinds=(("v", NUM_AND_OR),),
    ),
    FactForm(
        "never_reshuffle",
        "Refill and hold the order",
        r"\b(?P<v>Never) reshuffle discarded machines",
        "Never reshuffle discarded machines.",
        "that discarded machines are never reshuffled (the engine never reshuffles)",
        form="Never reshuffle discarded machines",
        kinds=(),
    ),
    FactForm(
        "caps",
        "Store only what fits",
        r"\bStore at most (?P<v>[^,.]+)",
        "Store at most 6 FEED and 4 PARTS, separately.",
        "the storage caps",
        form="Store at most {v}",
        kinds=(("v", "[^,.]+"),),
    ),
    FactForm(
        "uncapped",
        "Store only what fits",
        r"\b(?P<v>\w+) have no storage cap",
        "Points have no storage cap and are recorded separately.",
        "which resource has no cap",
        form="{v} have no storage cap",
        kinds=(("v", r"\w+"),),
    ),
    FactForm(
        "turns",
        "Twelve equal laps",
        r"\beach player takes (?P<v>{N}) turns",
        "Each player takes twelve turns",
        "the turns each player takes",
        form="each player takes {v} turns",
    ),
    FactForm(
        "same_laps",
        "Twelve equal laps",
        r"\b(?P<v>starts the same number of laps) at every supported player count",
        "Each player takes twelve turns and starts the same number of laps at every supported player count.",
        "that every player starts the same number of laps",
        required=False,  # a restriction: a rulebook without it makes no such promise
        form="starts the same number of laps at every supported player count",
        kinds=(),
    ),
    FactForm(
        "laps",
        "End without a bonus run",
        r"\bacted in lap (?P<v>{N})\b",
        "After everyone has acted in lap twelve, stop.",
        "the last lap",
        form="acted in lap {v}",
    ),
    FactForm(
        "copies",
        "End without a bonus run",
        r"\breturn (?P<v>both|{N}) copies of every market type",
        "return both copies of every market type",
        "the copies of each market type",
        form="return {v} copies of every market type",
        kinds=(("v", "BOTH"),),
    ),
    FactForm(
        "copies",
        "Printable materials",
        r"\bPrint (?P<v>both|{N}) physical copies of each market type",
        "Print both physical copies of each market type, sixteen cards total.",
        "the copies of each market type to print",
        form="Print {v} physical copies of each market type",
        kinds=(("v", "BOTH"),),
    ),
    FactForm(
        "market_cards",
        "Printable materials",
        r"\b(?P<v>{N}) cards total",
        "sixteen cards total",
        "the number of market cards to print",
        form="{v} cards total",
    ),
)


def messages() -> tuple[Message, ...]:
    """Return the rulebook's messages: its headings, the forms the validator reads, the word for both."""
    sections = dict.fromkeys([*(f.section for f in FACTS), MATERIALS])
    heads = tuple(
        Message(s, SECTION, "a heading of the rulebook, as the translated rulebook prints it") for s in sections
    )
    return (*heads, *(f.message() for f in FACTS), BOTH)
