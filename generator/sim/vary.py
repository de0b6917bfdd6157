"""What a sweep varies: `--vary PATH=RANGE` parsed, resolved against a loaded game's card files, and turned into edits.

PATH names a number in the card files, by what it means rather than where it sits:
- `cards.<id>.<field>`: a field of the card (or any entry) with that `id`, in whichever file holds it; the
  field is its dotted path inside the entry (`run.gain.points`), or just its last key when that is unambiguous
  (`points`, `vp`);
- `<field>` or `game.<field>`: a value of game.yaml, by dotted path (`rules.rounds`) or unambiguous last key
  (`rounds`, `laps`).
RANGE is `A..B` (integers, step 1), `A..B step S`, or a list `a,b,c`. Mistakes are diagnostics located in
the argument itself (file `--vary`, line = which `--vary`, column = where the problem starts).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from ..diagnostics import CardpressError, Location, Report, did_you_mean
from ..source.edits import Edit
from ..source.yamlsrc import KeyPath, Source, format_path

MAX_AXES = 2
MAX_VALUES = 50  # per --vary
MAX_POINTS = 100  # in the whole grid
GAME_FILE = "game.yaml"
NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
SPAN = re.compile(rf"\s*({NUMBER})\s*\.\.\s*({NUMBER})\s*(?:step\s+({NUMBER}))?\s*")
LIST = re.compile(rf"\s*{NUMBER}\s*(?:,\s*{NUMBER}\s*)*")

Number = int | float


@dataclass(frozen=True)
class Axis:
    """One swept value: where it is in the card files, what it is now, and the values to try."""

    spec: str  # the --vary argument as given
    path: str  # canonical: cards.ticket-stamp.run.gain.points, or game.rules.rounds
    label: str  # for people: "Ticket Stamp points", "rounds"
    file: str  # the card file holding it
    keypath: KeyPath  # where in that file
    card: str | None  # the id of the card it belongs to, if any
    base: Number  # its value in the card files
    values: tuple[Number, ...]


def parse(specs: Sequence[str], sources: Mapping[str, Source]) -> list[Axis]:
    """Return the axes of `--vary` arguments resolved in the loaded `sources`; raise CardpressError listing every mistake."""
    report = Report()
    axes: list[Axis] = []
    if len(specs) > MAX_AXES:
        report.error("U016", f"{len(specs)} --vary options; a sweep varies one or two values", hint="drop one")
    entries = card_entries(sources)
    for line, spec in enumerate(specs[:MAX_AXES], start=1):
        axis = _axis(spec, line, sources, entries, report)
        if axis is not None:
            if any(a.path == axis.path for a in axes):
                report.error("U016", f"{axis.path} is varied twice", loc=_at(spec, line, 0), hint="vary it once")
            axes.append(axis)
    total = 1
    for axis in axes:
        total *= len(axis.values)
    if total > MAX_POINTS:
        report.error(
            "U014",
            f"the sweep has {total} points; at most {MAX_POINTS}",
            hint="use fewer values, or a larger step",
        )
    if not report.ok():
        raise CardpressError(report)
    return axes


def points(axes: Sequence[Axis]) -> list[tuple[Number, ...]]:
    """Return every combination of the axes' values, the first axis varying slowest."""
    return list(itertools.product(*(a.values for a in axes)))


def edits(axes: Sequence[Axis], point: Sequence[Number]) -> dict[str, list[Edit]]:
    """Return the edits that set each axis to its value at `point`, by file."""
    out: dict[str, list[Edit]] = {}
    for axis, value in zip(axes, point):
        out.setdefault(axis.file, []).append(Edit(axis.file, axis.keypath, value, f"--vary {axis.path}={value:g}"))
    return out


def card_entries(sources: Mapping[str, Source]) -> dict[str, list[tuple[str, KeyPath, dict[str, Any]]]]:
    """Return every entry with an `id` in the card files (not nested in another such entry): id -> places."""
    found: dict[str, list[tuple[str, KeyPath, dict[str, Any]]]] = {}

    def walk(file: str, value: Any, path: KeyPath) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("id"), str) and path:
                found.setdefault(value["id"], []).append((file, path, value))
                return
            for key, child in value.items():
                walk(file, child, path + (key,))
        elif isinstance(value, list):
            for i, child in enumerate(value):
                walk(file, child, path + (i,))

    for file, source in sorted(sources.items()):
        if file != GAME_FILE:
            walk(file, source.data, ())
    return found


def numeric_fields(value: Any, path: KeyPath = ()) -> Iterator[KeyPath]:
    """Yield the path of every number (not a boolean) inside `value`."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from numeric_fields(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from numeric_fields(child, path + (i,))
    elif _is_number(value):
        yield path


def _axis(
    spec: str,
    line: int,
    sources: Mapping[str, Source],
    entries: Mapping[str, list[tuple[str, KeyPath, dict[str, Any]]]],
    report: Report,
) -> Axis | None:
    if "=" not in spec:
        report.error(
            "U011",
            f"--vary '{spec}' names no range",
            loc=_at(spec, line, len(spec)),
            hint="write PATH=RANGE, e.g. cards.ticket-stamp.points=1..6",
        )
        return None
    path_text, range_text = spec.split("=", 1)
    where = _resolve(path_text.strip(), spec, line, sources, entries, report)
    values = parse_range(range_text, spec, line, len(path_text) + 1, report)
    if where is None or values is None:
        return None
    canonical, label, file, keypath, card, base = where
    if isinstance(base, int):  # 2.0 on an integer field is 2; 2.5 stays 2.5 and the schema will say so
        values = tuple(int(v) if isinstance(v, float) and v.is_integer() else v for v in values)
    return Axis(spec, canonical, label, file, keypath, card, base, values)


def _resolve(
    text: str,
    spec: str,
    line: int,
    sources: Mapping[str, Source],
    entries: Mapping[str, list[tuple[str, KeyPath, dict[str, Any]]]],
    report: Report,
) -> tuple[str, str, str, KeyPath, str | None, Number] | None:
    """Return (canonical path, label, file, key path, card id, current value) for PATH, or report why not."""
    parts = text.split(".")
    if not text or any(not p for p in parts):
        report.error("U013", f"'{text}' is not a path", loc=_at(spec, line, 0), hint="e.g. cards.<id>.vp or rounds")
        return None
    if parts[0] == "cards":
        if len(parts) < 3:
            report.error(
                "U013",
                f"'{text}' names no field of a card",
                loc=_at(spec, line, len(text)),
                hint="write cards.<id>.<field>, e.g. cards.ticket-stamp.points",
            )
            return None
        card, field = parts[1], parts[2:]
        places = entries.get(card)
        col = len("cards.")
        if not places:
            hint = did_you_mean(card, entries) or f"card ids: {', '.join(sorted(entries)[:12])}"
            report.error("U012", f"no card '{card}' in this game", loc=_at(spec, line, col), hint=hint)
            return None
        if len(places) > 1:
            where = ", ".join(f"{f}: {format_path(p)}" for f, p, _ in places)
            report.error(
                "U012", f"the id '{card}' is used by {len(places)} entries ({where})", loc=_at(spec, line, col)
            )
            return None
        file, base_path, entry = places[0]
        found = _field(entry, field, spec, line, col + len(card) + 1, f"card '{card}'", report)
        if found is None:
            return None
        name = entry.get("name") if isinstance(entry.get("name"), str) else card
        canonical = "cards." + card + "." + format_path(found)
        return canonical, f"{name} {found[-1]}", file, base_path + found, card, _get(entry, found)
    offset = 0
    if parts[0] == "game":
        parts, offset = parts[1:], len("game.")
    game = sources.get(GAME_FILE)
    data = game.data if game is not None else None
    found = _field(data, parts, spec, line, offset, "game.yaml", report) if parts else None
    if found is None:
        if not parts:
            report.error("U013", "'game' names no value of game.yaml", loc=_at(spec, line, len(text)))
        return None
    return "game." + format_path(found), str(found[-1]), GAME_FILE, found, None, _get(data, found)


def _field(
    entry: Any, field: Sequence[str], spec: str, line: int, col: int, owner: str, report: Report
) -> KeyPath | None:
    """Return the key path of the number `field` names in `entry` (exact, else by its unambiguous end)."""
    exact = _walk(entry, field)
    dotted = ".".join(field)
    if exact is not None:
        if _is_number(_get(entry, exact)):
            return exact
        report.error(
            "U013",
            f"{dotted} of {owner} is not a number",
            loc=_at(spec, line, col),
            hint="a sweep varies numbers: costs, points, VP, counts",
        )
        return None
    fields = list(numeric_fields(entry))
    ends = [p for p in fields if [str(x) for x in p[-len(field) :]] == list(field)]
    if len(ends) == 1:
        return ends[0]
    shown = sorted((format_path(p) for p in fields), key=lambda p: (not p.startswith("rules."), p))
    if len(ends) > 1:
        report.error(
            "U013",
            f"'{dotted}' is ambiguous in {owner}: " + ", ".join(sorted(format_path(p) for p in ends)),
            loc=_at(spec, line, col),
            hint="give the whole path",
        )
        return None
    names = set(shown) | {str(p[-1]) for p in fields}
    hint = did_you_mean(dotted, names) or (f"its numbers: {', '.join(shown[:12])}" if shown else "it holds no numbers")
    report.error("U013", f"{owner} has no field '{dotted}'", loc=_at(spec, line, col), hint=hint)
    return None


def parse_range(text: str, spec: str, line: int, col: int, report: Report) -> tuple[Number, ...] | None:
    """Return the values of RANGE (`A..B`, `A..B step S`, `a,b,c`), or report why it is not one."""
    where = _at(spec, line, col)
    span = SPAN.fullmatch(text)
    try:
        if span:
            lo, hi = Decimal(span.group(1)), Decimal(span.group(2))
            step = Decimal(span.group(3)) if span.group(3) else Decimal(1)
            if step <= 0:
                report.error("U014", f"step {span.group(3)} must be positive", loc=where)
                return None
            if hi < lo:
                report.error("U014", f"the range {text.strip()} runs backwards", loc=where, hint=f"write {hi}..{lo}")
                return None
            count = int((hi - lo) / step) + 1
            if count > MAX_VALUES:
                report.error(
                    "U014",
                    f"{text.strip()} has {count} values; at most {MAX_VALUES}",
                    loc=where,
                    hint="use a larger step",
                )
                return None
            decimals = [lo + i * step for i in range(count)]
            floats = any("." in g for g in span.groups() if g)
        elif LIST.fullmatch(text):
            decimals = [Decimal(x) for x in text.split(",")]
            floats = "." in text
            if len(decimals) > MAX_VALUES:
                report.error("U014", f"{len(decimals)} values; at most {MAX_VALUES}", loc=where)
                return None
            if len(set(decimals)) != len(decimals):
                report.error("U014", f"'{text.strip()}' lists a value twice", loc=where)
                return None
        else:
            report.error(
                "U014",
                f"'{text}' is not a range",
                loc=where,
                hint="write A..B, A..B step S, or a list a,b,c (e.g. 1..6, 0.5..2 step 0.5, 1,2,4)",
            )
            return None
    except InvalidOperation:
        report.error("U014", f"'{text}' is not a range", loc=where)
        return None
    return tuple(float(d) if floats else int(d) for d in decimals)


def _walk(value: Any, field: Sequence[str]) -> KeyPath | None:
    path: KeyPath = ()
    for part in field:
        if isinstance(value, dict) and part in value:
            key: Any = part
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            key = int(part)
        else:
            return None
        value = value[key]
        path += (key,)
    return path


def _get(value: Any, path: KeyPath) -> Any:
    for key in path:
        value = value[key]
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _at(spec: str, line: int, col: int) -> Location:
    """Return a location in the --vary argument itself, so the caret points at the mistake."""
    return Location("--vary", line, col + 1, spec)
