"""Read printed Pocket Foundry text back into data, so the validator can prove it says what the data says.

It reads the sentence forms `text.py` prints, in the game's language (its catalogue's forms), with any
capitalisation, digits or number words: `BUILD COST: 2 FEED.`, `RUN: Gain 1 FEED and 1 point.`,
`RUN: Pay 2 FEED to gain 1 PART.`, `RUN: Gain 2 FEED, then discard down to the six-FEED cap.`, and the mat and
lap-record lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...sdk import ENGLISH, Catalogue, Message
from . import text
from .model import Rules


class TextError(ValueError):
    """Printed text that does not follow any sentence form the validator knows."""


def number(word: str, words: Catalogue | None = None) -> int:
    """Return 6 for `6` or `six` (in the game's language when `words` is given)."""
    try:
        return (words or ENGLISH).number(word)
    except ValueError as exc:
        raise TextError(str(exc)) from None


def _form(words: Catalogue, message: Message, **kinds: str) -> re.Pattern[str]:
    return words.pattern(message.id, message.context, kinds)


AMOUNTS = ("amounts", "pay", "gain", "items", "last")  # slots an error message names <amounts>


def _said(words: Catalogue, message: Message, **shown: str) -> str:
    """Return a form as the error messages quote it: `'BUILD COST: <amounts>.'` (a slot in `shown` as given)."""

    def slot(m: re.Match[str]) -> str:
        name = m.group(1)
        return shown.get(name, "<amounts>" if name in AMOUNTS else f"<{name}>")

    return "'" + re.sub(r"\{(\w+)\}", slot, words.text(message.id, message.context)) + "'"


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


def _splitter(words: Catalogue) -> re.Pattern[str]:
    """Return the pattern between two amounts: a comma, the list's last word (`and`), or both."""
    joint = re.sub(r"\{\w+\}", "", words.text(text.LIST.id, text.LIST.context)).strip()
    last = re.escape(joint).replace(r"\ ", r"\s+")
    return re.compile(rf",\s*{last}\s+|,\s*|\s+{last}\s+" if joint else r",\s*", re.IGNORECASE)


def amounts(rules: Rules, line: str) -> dict[str, int]:
    """Read `3 FEED and 1 point` (or `3 FEED, zero PARTS and zero points`) into {feed: 3, points: 1}."""
    words = rules.words
    nouns = _nouns(rules)
    parts = _splitter(words).split(line.strip())
    out: dict[str, int] = {}
    for part in parts:
        m = re.fullmatch(rf"({words.num})\s+(.+)", part.strip(), flags=re.IGNORECASE)
        if not m:
            raise TextError(f"expected an amount like '2 {rules.resources[0].label}', got '{part}'")
        rid = nouns.get(m.group(2).strip().casefold())
        if rid is None:
            raise TextError(
                f"'{m.group(2)}' is not a resource (resources: {', '.join(r.plural for r in rules.resources)})"
            )
        if rid in out:
            raise TextError(f"{m.group(2)} is named twice")
        n = number(m.group(1), words)
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
    m = _form(rules.words, text.BUILD_COST).fullmatch(line)
    if not m:
        raise TextError(f"expected {_said(rules.words, text.BUILD_COST)}")
    return amounts(rules, m.group("amounts"))


@dataclass(frozen=True)
class RunText:
    """What a RUN line says."""

    pay: dict[str, int]
    gain: dict[str, int]
    cap_reminders: tuple[tuple[str, int], ...]  # (resource id, cap) from ", then discard down to the six-FEED cap"


def run(rules: Rules, line: str) -> RunText:
    """Read `RUN: Pay 2 FEED to gain 1 PART.` or `RUN: Gain 3 FEED[, then discard down to the six-FEED cap].`."""
    words = rules.words
    m = _form(words, text.RUN).fullmatch(line)
    if not m:
        raise TextError(
            f"expected {_said(words, text.RUN).replace('<effect>', _said(words, text.GAIN)[1:-1])} or "
            f"{_said(words, text.RUN).replace('<effect>', _said(words, text.PAY)[1:-1])}"
        )
    body = m.group("effect")
    reminders: list[tuple[str, int]] = []
    labels = {r.label.casefold(): r.id for r in rules.resources}
    cap_form = _form(words, text.CAP, effect=".+", cap="N", label=r"\S+")
    while True:
        tail = cap_form.fullmatch(body)
        if not tail:
            break
        rid = labels.get(tail.group("label").casefold())
        if rid is None:
            raise TextError(f"'{tail.group('label')}' in the cap reminder is not a resource label")
        reminders.insert(0, (rid, number(tail.group("cap"), words)))
        body = tail.group("effect")
    paid = _form(words, text.PAY).fullmatch(body)
    if paid:
        return RunText(amounts(rules, paid.group("pay")), amounts(rules, paid.group("gain")), tuple(reminders))
    free = _form(words, text.GAIN).fullmatch(body)
    if free:
        return RunText({}, amounts(rules, free.group("gain")), tuple(reminders))
    head = words.text(text.RUN.id).split("{effect}")[0].strip()
    raise TextError(f"expected {_said(words, text.GAIN)} or {_said(words, text.PAY)} after '{head}'")


def _scan(words: Catalogue, message: Message, **kinds: str) -> re.Pattern[str]:
    """Return a pattern that finds each instance of a form repeated along one line (its last slot ends where the
    next instance, or the line, does)."""
    one = _form(words, message, **kinds).pattern.removeprefix(r"\s*").removesuffix(r"\s*")
    head = one.split("(?P<", 1)[0]  # the words before the first slot start the next instance
    return re.compile(rf"{one}(?=\s*{head}|\s*$)", re.IGNORECASE)


def mat_tracks(rules: Rules, line: str) -> dict[str, tuple[int, int | None]]:
    """Read `FEED: 3 → ____ (cap 6). PARTS: 0 → ____ (cap 4). POINTS: 0 → ____` into {id: (start, cap)}."""
    words = rules.words
    labels = {r.label.casefold(): r.id for r in rules.resources}
    cap = _form(words, text.TRACK_CAP, n="N").pattern
    found = list(
        re.finditer(
            _form(words, text.TRACK, label=r"\S+", start="N", blank="_+", cap=f"(?:{cap})?").pattern,
            line,
            flags=re.IGNORECASE,
        )
    )
    if not found:
        cap = _said(words, text.TRACK_CAP)[1:-1]
        raise TextError(f"expected {_said(words, text.TRACK, label='<LABEL>', blank='____', cap=cap)} tracks")
    out = {}
    for m in found:
        rid = labels.get(m.group("label").casefold())
        if rid is None:
            raise TextError(f"'{m.group('label')}' is not a resource label")
        n = m.group("n")
        out[rid] = (number(m.group("start"), words), number(n, words) if n else None)
    return out


def mat_slots(rules: Rules, line: str) -> list[tuple[int, str]]:
    """Read `Slot 1: STARTER FEEDER Slot 2: ____ …` into [(1, 'STARTER FEEDER'), (2, '____'), …]."""
    found = _scan(rules.words, text.SLOT, n=r"\d+", machine=".*?").finditer(line)
    out = [(int(m.group("n")), m.group("machine").strip()) for m in found]
    if not out:
        one, two = (_said(rules.words, text.SLOT, n=str(n), machine="…")[1:-1] for n in (1, 2))
        raise TextError(f"expected '{one} {two}'")
    return out


def resolve_order(rules: Rules, line: str) -> int:
    """Read `Resolve from slot 1 to slot 4. …` into 4."""
    m = _form(rules.words, text.ORDER, slots="N").fullmatch(line)
    if not m:
        raise TextError(f"expected {_said(rules.words, text.ORDER)}")
    return number(m.group("slots"), rules.words)


def is_lap_row(rules: Rules, line: str) -> bool:
    """Return True for a lap-record row, `Laps 1–6: 1 □ 2 □ …`."""
    return _lap_row(rules).fullmatch(line) is not None


def _lap_row(rules: Rules) -> re.Pattern[str]:
    return _form(rules.words, text.LAPS, first=r"\d+", last=r"\d+", boxes=".*")


def lap_boxes(rules: Rules, lines: list[str]) -> list[int]:
    """Read `Laps 1–6: 1 □ 2 □ …` rows into the lap numbers that have a box."""
    laps = []
    for line in lines:
        m = _lap_row(rules).fullmatch(line)
        if not m:
            raise TextError(f"expected {_said(rules.words, text.LAPS, first='<a>', last='<b>', boxes='1 □ 2 □ …')}")
        laps += [int(n) for n in re.findall(r"(\d+)\s*□", m.group("boxes"))]
    return laps


def last_lap(rules: Rules, line: str) -> int:
    """Read `… Stop after lap twelve; …` into 12."""
    m = _form(rules.words, text.FOOTER, laps="N").fullmatch(line)
    if not m:
        raise TextError(f"expected {_said(rules.words, text.FOOTER)}")
    return number(m.group("laps"), rules.words)
