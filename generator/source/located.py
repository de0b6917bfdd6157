"""A loaded document: its plain data and where in its file every key and value came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Location

MAX_NODES = 200_000  # aliases can expand a tiny file into a huge tree ("billion laughs")
MAX_DEPTH = 100  # mappings and lists nested deeper than this are refused, long before Python's recursion limit

KeyPath = tuple[Any, ...]


@dataclass
class Source:
    """A loaded YAML document: plain Python data plus a position for every key path."""

    display: str
    text: str
    data: Any = None
    values: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    # For a document merged from several files (a fan edition over its base): the file each position is in.
    origin: dict[KeyPath, Source] = field(default_factory=dict)
    _lines: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    def loc(self, path: KeyPath = (), *, key: bool = False) -> Location:
        """Return the location of the value (or key) at `path`, falling back to its nearest parent."""
        table = self.keys if key else self.values
        probe = tuple(path)
        while probe not in table and probe:
            probe = probe[:-1]
        line, col = table.get(probe, (0, 0))
        return self.origin.get(probe, self).location(line, col)

    def location(self, line: int, col: int) -> Location:
        """Return a Location for a 0-based line and column."""
        if self._lines is None:  # split once: a file with thousands of problems asks thousands of times
            self._lines = self.text.splitlines()
        lines = self._lines
        text = lines[line] if 0 <= line < len(lines) else ""
        return Location(self.display, line + 1, col + 1, text)


def format_path(path: KeyPath) -> str:
    """Render a key path as `machines[3].run.pay`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
