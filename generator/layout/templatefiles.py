"""Finding layout template files without Jinja: names split as Jinja splits them, read through the containment
checks (regular files inside the project, capped in size)."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence

from ..source import safefile

MAX_TEMPLATE_BYTES = 1_000_000  # a template file


class Unreadable(Exception):
    """A template file that exists but may not be read: outside the project, special, too big, not text."""

    def __init__(self, filename: str, refused: safefile.Refused):
        super().__init__(refused.reason)
        self.filename = filename
        self.refused = refused


def template_path(name: str) -> list[str] | None:
    """Return the path pieces of template `name`, or None for a name that leaves its folder: as Jinja's
    `split_template_path` splits it (importing that would load all of Jinja, which a rebuild never renders with)."""
    pieces = []
    for piece in name.split("/"):
        if os.path.sep in piece or (os.path.altsep and os.path.altsep in piece) or piece == os.path.pardir:
            return None
        if piece and piece != ".":
            pieces.append(piece)
    return pieces


def find_source(folders: Sequence[str], roots: safefile.Roots, name: str) -> tuple[str, str, float] | None:
    """Return (text, file, mtime) of template `name` from the first of `folders` that has it, read through the
    containment checks (regular files inside the project, capped in size), or None; raise Unreadable."""
    pieces = template_path(name)
    if pieces is None:
        return None
    for folder in folders:
        filename = posixpath.join(folder, *pieces)
        if not os.path.lexists(filename):
            continue
        try:
            contents = safefile.read_text(filename, MAX_TEMPLATE_BYTES, roots)
        except safefile.Refused as exc:
            if exc.code == "Y004":  # a dangling link: as if it were not there
                continue
            raise Unreadable(filename, exc) from None
        return contents, os.path.normpath(filename), os.path.getmtime(filename)
    return None
