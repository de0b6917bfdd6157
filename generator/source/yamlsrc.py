"""Safe YAML loading that remembers where every key and value came from."""

from __future__ import annotations

import contextlib
import marshal
from pathlib import Path

from ..diagnostics import Report
from ..project import cache
from . import safefile
from .digest import text_digest
from .located import MAX_DEPTH, MAX_NODES, KeyPath, Source, format_path

MAX_BYTES = 2_000_000  # card files are small; refuse anything that looks like an attack
KEPT_LIMIT = 16 * 2**20  # bytes of parsed texts kept on disk: each entry is one version of one file

# What every loader of card files shares, read here as ever.
__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NODES", "KeyPath", "Source", "format_path", "load_file", "load_text", "trim"]


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
    cache.trim("sources", KEPT_LIMIT)
