"""Card text as rich markup: `:name:` stands for the game's icon `name`; the markup is checked before layout."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from ...sdk import MarkupError, did_you_mean, escape, parse

SHORT_ICON = re.compile(r":([a-z][a-z0-9-]{0,47}):")
ICON_TAG = re.compile(r"<icon\s+([^<>\s]+)\s*>")
NEWLINE = re.compile(r"\r\n|\r|\n")


def to_markup(value: object, literal: bool = False) -> str:
    """Return a field's text as markup: `:fox:` becomes `<icon fox>` and a line break `<br>`.

    With `literal` (a table cell whose column is not declared as markup), <, > and & print as themselves;
    otherwise other markup passes as written.
    """
    if isinstance(value, bool):
        text = "yes" if value else "no"
    else:
        text = "" if value is None else str(value)
    if literal:
        text = escape(text)
    if "\n" in text or "\r" in text:  # a cell's own line breaks, kept where text may break
        text = NEWLINE.sub("<br>", text.strip("\r\n"))
    return SHORT_ICON.sub(_icon_tag, text) if ":" in text else text  # most cells have neither: no pattern runs


def _icon_tag(match: re.Match[str]) -> str:
    return f"<icon {match.group(1)}>"


def problems(markup: str, icons: Collection[str]) -> Iterator[tuple[str, str, str | None]]:
    """Yield (code, message, hint) for every way `markup` cannot be set: bad tags, unknown icons."""
    try:
        parse(markup)
    except MarkupError as exc:
        yield (
            "S004",
            f"text markup: {exc}",
            "write &lt; for a literal < (a table's column prints < > & as written unless the deck lists it in `markup:`); "
            "tags are b, i, small, nobr, color, icon, br",
        )
    unknown = sorted({name for name in ICON_TAG.findall(markup) if name not in icons})
    for name in unknown:
        hint = did_you_mean(name, icons) or f"icons: {', '.join(sorted(icons))}"
        yield "S005", f"unknown icon '{name}' in text", hint
