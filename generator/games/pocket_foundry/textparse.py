"""Read printed Pocket Foundry text back into data, so the validator can prove it says what the data says.

It reads the sentence forms `text.py` prints, with any capitalisation, digits or number words:
`BUILD COST: 2 FEED.`, `RUN: Gain 1 FEED and 1 point.`, `RUN: Pay 2 FEED to gain 1 PART.`,
`RUN: Gain 2 FEED, then discard down to the six-FEED cap.`, and the mat and lap-record lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...sdk import NUM
from ...sdk import rulebook as rulebook_text
from .model import Rules


class TextError(ValueError):
    """Printed text that does not follow any sentence form the validator knows."""


def number(word: str) -> int:
    """Return 6 for `6` or `six`."""
    try:
        return rulebook_text.number(word)
    except ValueError as exc:
        raise TextError(str(exc)) from None


def _nouns(rules: Rules) -> dict[str, str]:
    """Map every printed resource word (singular, plural, label) to its resource id."""
    out = {}
    for r in rules.resources:
        for word in (r.singular, r.plural, r.label):
            out[word.casefold()] = r.id
    return out


def resource(rules: Rules, word: str) -> str:
    """Return the id of the resource a printed word names (`Points`, `FEED`, `PART`)."""
    rid = _nouns(rules).get(word.strip().casefold())
    if rid is None:
        raise TextError(f"'{word}' is not a resource (resources: {', '.join(r.plural for r in rules.resources)})")
    return rid


def amounts(rules: Rules, text: str) -> dict[str, int]:
    """Read `3 FEED and 1 point` (or `3 FEED, zero PARTS and zero points`) into {feed: 3, points: 1}."""
    nouns = _nouns(rules)
    parts = re.split(r",\s*and\s+|,\s*|\s+and\s+", text.strip())
    out: dict[str, int] = {}
    for part in parts:
        m = re.fullmatch(rf"({NUM})\s+(.+)", part.strip(), flags=re.IGNORECASE)
        if not m:
            raise TextError(f"expected an amount like '2 FEED', got '{part}'")
        rid = nouns.get(m.group(2).strip().casefold())
        if rid is None:
            raise TextError(
                f"'{m.group(2)}' is not a resource (resources: {', '.join(r.plural for r in rules.resources)})"
            )
        if rid in out:
            raise TextError(f"{m.group(2)} is named twice")
        n = number(m.group(1))
        res = rules.resource(rid)
        word = m.group(2).strip().casefold()
        if res.singular.casefold() != res.plural.casefold():
            wanted = res.noun(n)
            if word != wanted.casefold():
                raise TextError(f"'{part}': write '{n} {wanted}'")
        out[rid] = n
    return out


def build_cost(rules: Rules, line: str) -> dict[str, int]:
    """Read `BUILD COST: 2 FEED.`."""
    m = re.fullmatch(r"\s*BUILD COST:\s*(.+?)\.\s*", line, flags=re.IGNORECASE)
    if not m:
        raise TextError("expected 'BUILD COST: <amounts>.'")
    return amounts(rules, m.group(1))


@dataclass(frozen=True)
class RunText:
    """What a RUN line says."""

    pay: dict[str, int]
    gain: dict[str, int]
    cap_reminders: tuple[tuple[str, int], ...]  # (resource id, cap) from ", then discard down to the six-FEED cap"


def run(rules: Rules, line: str) -> RunText:
    """Read `RUN: Pay 2 FEED to gain 1 PART.` or `RUN: Gain 3 FEED[, then discard down to the six-FEED cap].`."""
    m = re.fullmatch(r"\s*RUN:\s*(.+?)\.\s*", line, flags=re.IGNORECASE)
    if not m:
        raise TextError("expected 'RUN: Gain <amounts>.' or 'RUN: Pay <amounts> to gain <amounts>.'")
    body = m.group(1)
    reminders: list[tuple[str, int]] = []
    labels = {r.label.casefold(): r.id for r in rules.resources}
    while True:
        tail = re.search(rf",\s*then discard down to the ({NUM})-(\S+) cap$", body, flags=re.IGNORECASE)
        if not tail:
            break
        rid = labels.get(tail.group(2).casefold())
        if rid is None:
            raise TextError(f"'{tail.group(2)}' in the cap reminder is not a resource label")
        reminders.insert(0, (rid, number(tail.group(1))))
        body = body[: tail.start()]
    paid = re.fullmatch(r"Pay\s+(.+?)\s+to gain\s+(.+)", body, flags=re.IGNORECASE)
    if paid:
        return RunText(amounts(rules, paid.group(1)), amounts(rules, paid.group(2)), tuple(reminders))
    free = re.fullmatch(r"Gain\s+(.+)", body, flags=re.IGNORECASE)
    if free:
        return RunText({}, amounts(rules, free.group(1)), tuple(reminders))
    raise TextError("expected 'Gain <amounts>' or 'Pay <amounts> to gain <amounts>' after 'RUN:'")


def mat_tracks(rules: Rules, line: str) -> dict[str, tuple[int, int | None]]:
    """Read `FEED: 3 → ____ (cap 6). PARTS: 0 → ____ (cap 4). POINTS: 0 → ____` into {id: (start, cap)}."""
    labels = {r.label.casefold(): r.id for r in rules.resources}
    found = re.findall(rf"(\S+):\s*({NUM})\s*→\s*_+(?:\s*\(cap\s+({NUM})\))?", line, flags=re.IGNORECASE)
    if not found:
        raise TextError("expected '<LABEL>: <start> → ____ (cap <n>).' tracks")
    out = {}
    for label, start, cap in found:
        rid = labels.get(label.casefold())
        if rid is None:
            raise TextError(f"'{label}' is not a resource label")
        out[rid] = (number(start), number(cap) if cap else None)
    return out


def mat_slots(line: str) -> list[tuple[int, str]]:
    """Read `Slot 1: STARTER FEEDER Slot 2: ____ …` into [(1, 'STARTER FEEDER'), (2, '____'), …]."""
    found = re.findall(r"Slot (\d+):\s*(.*?)(?=\s*Slot \d+:|$)", line)
    if not found:
        raise TextError("expected 'Slot 1: … Slot 2: …'")
    return [(int(n), what.strip()) for n, what in found]


def resolve_order(line: str) -> int:
    """Read `Resolve from slot 1 to slot 4. …` into 4."""
    m = re.search(rf"Resolve from slot 1 to slot ({NUM})", line, flags=re.IGNORECASE)
    if not m:
        raise TextError("expected 'Resolve from slot 1 to slot <n>'")
    return number(m.group(1))


def lap_boxes(lines: list[str]) -> list[int]:
    """Read `Laps 1–6: 1 □ 2 □ …` rows into the lap numbers that have a box."""
    laps = []
    for line in lines:
        head, _, boxes = line.partition(":")
        if not head.strip().casefold().startswith("laps"):
            raise TextError("expected 'Laps <a>–<b>: 1 □ 2 □ …'")
        laps += [int(n) for n in re.findall(r"(\d+)\s*□", boxes)]
    return laps


def last_lap(line: str) -> int:
    """Read `… Stop after lap twelve; …` into 12."""
    m = re.search(rf"Stop after lap ({NUM})", line, flags=re.IGNORECASE)
    if not m:
        raise TextError("expected 'Stop after lap <n>'")
    return number(m.group(1))
