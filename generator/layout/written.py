"""Find where a printed character was written: the card data's cell or value that holds it, at its column."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from ..diagnostics import Location
from ..source.yamlsrc import KeyPath, Source


def written(sources: Iterable[Source], char: str, text: str = "") -> Location | None:
    """Return where `char` is written in the sources' data, or None when no value holds it.

    The value that holds the word around `char` in `text` (the printed text) is preferred, so a character
    that several cards use is found in the card that prints it; the column is the character's own.
    """
    words = [w for w in re.split(r"\s+", text) if char in w]
    sources = list(sources)
    for needle in (*words[:1], char):
        for source in sources:
            for path, value in _strings(source.data, ()):
                if needle in value:
                    return _at(source, path, value, char)
    return None


def _strings(data: Any, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    """Yield (key path, value) for every string in a loaded file's data, in document order."""
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _strings(value, (*path, index))


def _at(source: Source, path: KeyPath, value: str, char: str) -> Location:
    """Return the place of `char` inside the value at `path`: the value's line when it is there, else a later one."""
    loc = source.loc(path)
    lines = value[: value.index(char)].count("\n")
    if lines == 0 and loc.text:
        found = loc.text.find(char, loc.caret)  # the text is an excerpt of the line around the value's column
        if found < 0:
            return loc
        return replace(loc, col=loc.col + found - loc.caret, caret=found)
    for extra in range(lines, lines + 3):  # a block scalar's or quoted cell's later line (folding may shift it)
        later = source.location(loc.line - 1 + extra, 0)
        col = later.text.find(char)
        if col >= 0 and later.file == loc.file:
            return Location(later.file, later.line, col + 1, later.text)
    return loc
