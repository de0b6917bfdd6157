"""Card sizes, pure: named presets in exact millimetres, custom sizes in mm or inches, portrait or landscape.

A user's size value is one of:

- a preset name, optionally followed by an orientation: ``poker``, ``tarot landscape``, ``business-us portrait``;
- two lengths joined by ``x`` (or ``×``), a unit after either or both, optionally an orientation:
  ``63x88mm``, ``2.5 x 3.5 in``, ``2.5in x 88mm``, ``70x120 landscape`` (bare numbers are millimetres);
- a mapping: ``{w: 2.5in, h: 3.5in}`` or ``{preset: tarot}``, each with an optional
  ``orientation: portrait | landscape``.

The orientation names the result: ``landscape`` makes the card wider than tall, ``portrait`` taller than
wide (so it swaps the two sides of a preset or a custom size only when they are the other way round).
Without it a size keeps the orientation it was written in; presets are portrait except the business cards.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..diagnostics import did_you_mean
from ..layout.units import to_mm

MIN_SIDE = 15.0  # mm: smaller than any card people print (TGC's micro cards are 31.75 mm wide)
MAX_SIDE = 300.0  # mm: larger than either paper; such a card is refused when its sheet is laid out
MAX_BOARD = 1200.0  # mm: the longest side of a board printed in parts (about five A4 pages across)


@dataclass(frozen=True)
class CardSize:
    """A card's trim size in millimetres, with the preset it came from ('' for a custom size)."""

    w: float
    h: float
    name: str = ""

    def __iter__(self) -> Iterator[float]:
        # `w, h = size` and `render(face, *size)` keep working where a (w, h) tuple was used before
        yield self.w
        yield self.h

    @property
    def mm(self) -> tuple[float, float]:
        """Return (width, height) in millimetres."""
        return (self.w, self.h)

    @property
    def label(self) -> str:
        """Return how the cover names the size, e.g. 'tarot, 69.85 × 120.65 mm' or '70 × 120 mm'."""
        dims = f"{self.w:g} × {self.h:g} mm"
        return f"{self.name}, {dims}" if self.name else dims

    def oriented(self, orientation: str | None) -> CardSize:
        """Return the size turned to 'portrait' or 'landscape' (None keeps it as it is)."""
        if orientation is None or (orientation == "landscape") == (self.w > self.h) or self.w == self.h:
            return self
        return CardSize(self.h, self.w, self.name)


def _in(inches: float) -> float:
    return round(inches * 25.4, 4)


# Exact trims from print-specs.md §1 (inch sizes converted at 25.4 mm, never rounded to whole mm).
PRESETS: dict[str, CardSize] = {
    "poker": CardSize(_in(2.5), _in(3.5), "poker"),  # 63.5 × 88.9, US shops' "poker"
    "poker-euro": CardSize(63.0, 88.0, "poker-euro"),  # MTG and European printers' "poker"
    "bridge": CardSize(_in(2.25), _in(3.5), "bridge"),  # 57.15 × 88.9
    "tarot": CardSize(_in(2.75), _in(4.75), "tarot"),  # 69.85 × 120.65
    "mini-american": CardSize(_in(1.75), _in(2.5), "mini-american"),  # 44.45 × 63.5
    "mini-euro": CardSize(44.0, 68.0, "mini-euro"),
    "euro": CardSize(59.0, 92.0, "euro"),
    "square": CardSize(_in(3.5), _in(3.5), "square"),  # 88.9 × 88.9
    "euro-square": CardSize(70.0, 70.0, "euro-square"),
    "jumbo": CardSize(_in(3.5), _in(5.5), "jumbo"),  # 88.9 × 139.7
    "business-us": CardSize(_in(3.5), _in(2.0), "business-us"),  # 88.9 × 50.8, landscape as printed
    "business-eu": CardSize(85.0, 55.0, "business-eu"),  # landscape as printed
}
ALIASES = {
    "mini-us": "mini-american",
    "mini": "mini-american",
    "euro-poker": "poker-euro",
    "mtg": "poker-euro",
    "square-us": "square",
    "us-square": "square",
    "business": "business-us",
}
POKER = PRESETS["poker"]
ORIENTATIONS = ("portrait", "landscape")
KEYS = ("preset", "w", "h", "orientation")

_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"
_UNIT = r"(mm|cm|in|pt)?"
_PAIR = re.compile(rf"^{_NUMBER}\s*{_UNIT}\s*[x×]\s*{_NUMBER}\s*{_UNIT}$")


class SizeError(ValueError):
    """A size value that cannot be read; `key` names the part at fault (None: the value as a whole)."""

    def __init__(self, message: str, hint: str | None = None, key: str | None = None):
        super().__init__(message)
        self.message, self.hint, self.key = message, hint, key


def parse_size(value: Any, most: float = MAX_SIDE) -> CardSize:
    """Return the card size a user wrote (see the module docstring); raise SizeError saying what is wrong.

    `most` is the longest side allowed: MAX_SIDE for a card, MAX_BOARD for a board split over pages."""
    if isinstance(value, CardSize):
        return value
    if isinstance(value, str):
        return _parse_text(value, most)
    if isinstance(value, dict):
        return _parse_mapping(value, most)
    raise SizeError(
        f"a card size must be a preset name, 'W x H' text or a mapping, not {_kind(value)}",
        hint="write e.g. poker, 'tarot landscape', 63x88mm or {w: 2.5in, h: 3.5in}",
    )


def preset(name: str) -> CardSize:
    """Return the preset called `name` (or one of its aliases); raise SizeError with a 'did you mean'."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key in PRESETS:
        return PRESETS[key]
    raise SizeError(
        f"unknown card size '{name}'",
        hint=did_you_mean(key, [*PRESETS, *ALIASES]) or f"presets: {', '.join(PRESETS)}; or write e.g. 63x88mm",
        key="preset",
    )


def _parse_text(text: str, most: float = MAX_SIDE) -> CardSize:
    words = text.strip().lower().split()
    if not words:
        raise SizeError("a card size is empty", hint=f"presets: {', '.join(PRESETS)}; or write e.g. 63x88mm")
    orientation = None
    if len(words) > 1 and words[-1] in ORIENTATIONS:
        orientation, words = words[-1], words[:-1]
    elif len(words) > 1 and did_you_mean(words[-1], ORIENTATIONS) and not _PAIR.match("".join(words)):
        raise SizeError(f"unknown orientation '{words[-1]}'", hint=did_you_mean(words[-1], ORIENTATIONS))
    body = "".join(words)
    match = _PAIR.match(body)
    if match:
        w, w_unit, h, h_unit = match.groups()
        unit_w = w_unit or h_unit or "mm"  # "2.5x3.5in": a unit after the pair covers both numbers
        size = CardSize(_side(f"{w}{unit_w}", "w", most), _side(f"{h}{h_unit or unit_w}", "h", most))
    elif re.search(r"\d", body):
        raise SizeError(
            f"'{text}' is not a card size",
            hint="write width x height with a unit, e.g. 63x88mm or 2.5x3.5in (bare numbers are mm)",
        )
    else:
        size = preset(" ".join(words))
    return size.oriented(orientation)


def _parse_mapping(value: dict[str, Any], most: float = MAX_SIDE) -> CardSize:
    for key in value:
        if key not in KEYS:
            raise SizeError(
                f"unknown key '{key}' in a card size",
                hint=did_you_mean(str(key), KEYS) or f"a card size mapping takes {', '.join(KEYS)}",
                key=str(key),
            )
    orientation = value.get("orientation")
    if orientation is not None and orientation not in ORIENTATIONS:
        raise SizeError(
            f"orientation must be portrait or landscape, not {orientation!r}",
            hint=did_you_mean(str(orientation), ORIENTATIONS),
            key="orientation",
        )
    if "preset" in value:
        if "w" in value or "h" in value:
            raise SizeError(
                "a card size takes either a preset or w and h, not both",
                key="w" if "w" in value else "h",
                hint="drop w and h to use the preset, or drop the preset for a custom size",
            )
        if not isinstance(value["preset"], str):
            raise SizeError(f"preset must be a name, not {_kind(value['preset'])}", key="preset")
        return preset(value["preset"]).oriented(orientation)
    missing = [k for k in ("w", "h") if k not in value]
    if missing:
        raise SizeError(
            f"a custom card size needs {' and '.join(missing)}",
            hint="write e.g. {w: 2.5in, h: 3.5in} or {preset: poker}",
        )
    return CardSize(_side(value["w"], "w", most), _side(value["h"], "h", most)).oriented(orientation)


def _side(value: Any, key: str, most: float = MAX_SIDE) -> float:
    """Return one side in mm, refusing what is not a length or no card could be."""
    try:
        mm = to_mm(value)
    except ValueError:
        raise SizeError(
            f"{key} must be a length, not {_kind(value)}", hint="write e.g. 63.5, '63.5mm' or '2.5in'", key=key
        ) from None
    if not math.isfinite(mm) or not MIN_SIDE <= mm <= most:
        thing = "card" if most == MAX_SIDE else "board"
        hint = f"a {thing} side is between {MIN_SIDE:g} and {most:g} mm"
        if isinstance(value, (int, float)) and MIN_SIDE <= mm * 25.4 <= most:
            hint = f"bare numbers are millimetres: write '{value:g}in' for inches"
        raise SizeError(f"{key} is {mm:g} mm, which no {thing} is", hint=hint, key=key)
    return round(mm, 4)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, (int, float)):
        return f"the number {value:g}"
    if isinstance(value, str):
        return f"'{value}'"
    if value is None:
        return "nothing"
    return f"a {type(value).__name__}"


@dataclass(frozen=True)
class SizeConflict:
    """A deck whose cards are not all one size: the size most of its cards have, and the cards that differ."""

    deck: str
    size: tuple[float, float]
    cards: tuple[str, ...]

    @property
    def message(self) -> str:
        """Return the diagnostic's message."""
        w, h = self.size
        verb = "differs" if len(self.cards) == 1 else "differ"
        return f"deck '{self.deck}' mixes card sizes: {', '.join(self.cards)} {verb} from its {w:g} × {h:g} mm cards"


def size_label(size: CardSize | tuple[float, float]) -> str:
    """Return how a size is named for people: its preset and millimetres, or just the millimetres."""
    if isinstance(size, CardSize):
        return size.label
    w, h = size
    return f"{w:g} × {h:g} mm"


def size_conflicts(cards: Iterable[Any]) -> list[SizeConflict]:
    """Return every deck (in first-seen order) whose cards differ in size; `cards` have id, deck and size."""
    sizes: dict[str, dict[tuple[float, float], list[str]]] = {}
    for card in cards:
        w, h = card.size
        sizes.setdefault(card.deck, {}).setdefault((w, h), []).append(card.id)
    conflicts = []
    for deck, groups in sizes.items():
        if len(groups) > 1:
            # the biggest group sets the deck's size (the first such on a tie); every other card is named
            main = max(groups, key=lambda s: len(groups[s]))
            odd = tuple(i for s, ids in groups.items() if s != main for i in ids)
            conflicts.append(SizeConflict(deck, main, odd))
    return conflicts
