"""Safe YAML loading that remembers where every key and value came from."""

from __future__ import annotations

import contextlib
import marshal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Location, Report
from ..project import cache
from . import safefile
from .digest import text_digest

MAX_BYTES = 2_000_000  # card files are small; refuse anything that looks like an attack
MAX_NODES = 200_000  # aliases can expand a tiny file into a huge tree ("billion laughs")
MAX_DEPTH = 100  # mappings and lists nested deeper than this are refused, long before Python's recursion limit
KEPT_LIMIT = 16 * 2**20  # bytes of parsed texts kept on disk: each entry is one version of one file

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


def load_text(text: str, display: str, report: Report) -> Source:
    """Parse YAML text safely; syntax errors go to `report` and leave `data` as None.

    A text parsed cleanly before is not parsed again: its data and positions are kept on disk by its digest,
    so a rebuild of unchanged files does not even load PyYAML.
    """
    source = Source(display, text)
    shelf = cache.shelf("sources")
    key = text_digest(cache.code_digest(), text) if shelf is not None else ""
    kept = shelf.get(key) if shelf is not None else None
    if kept is not None:
        with contextlib.suppress(EOFError, ValueError, TypeError):  # torn or foreign: parse again
            source.data, source.values, source.keys = marshal.loads(kept)
            return source
    from . import yamlparse

    said = Report()  # its own report: one that already holds a problem would not add it again
    yamlparse.parse(source, said)
    report.extend(said.items)
    if shelf is not None and not said.items:
        with contextlib.suppress(ValueError):  # a date or other value marshal cannot write: not kept
            shelf.put(key, marshal.dumps((source.data, source.values, source.keys)))
    return source


def load_file(path: Path, display: str, report: Report, roots: safefile.Roots | None = None) -> Source:
    """Read and parse a YAML file; problems reading it are reported, not raised.

    Only a regular file inside `roots` is read (by default the project the path lies in, links
    resolved first), and only up to MAX_BYTES: a link to a system file, a FIFO or /dev/zero is refused.
    """
    try:
        text = safefile.read_text(path, MAX_BYTES, roots)
    except safefile.Refused as exc:
        exc.report(report, display)
        return Source(display, "")
    return load_text(text, display, report)


def trim() -> None:
    """Drop the least recently used parsed texts past KEPT_LIMIT."""
    shelf = cache.shelf("sources")
    if shelf is not None:
        shelf.trim(KEPT_LIMIT)
