"""Small Markdown writers the generated pages share: tables, cells, and the banner that says a page is made."""

from __future__ import annotations

import re
from collections.abc import Sequence

_CODE = re.compile(r"(`[^`]*`)")


def banner(source: str) -> str:
    """Return the comment that heads a generated page: what it is made from, and how to remake it."""
    return f"<!-- Made by `python -m generator.docs` from {source}: edit that, not this page. -->\n"


def cell(text: str) -> str:
    """Return `text` made safe for one cell of a Markdown table (one line, pipes escaped)."""
    return " ".join(text.split()).replace("|", "\\|")


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Return a Markdown table with the header `head` and one line per row."""
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def prose(text: str) -> str:
    """Return plain text safe as Markdown: `<`, `>` and `*` outside code spans escaped (OUT/<game>/ is no HTML tag)."""
    pieces = _CODE.split(text)
    return "".join(
        piece if piece.startswith("`") else piece.replace("<", "&lt;").replace(">", "&gt;").replace("*", "\\*")
        for piece in pieces
    )
