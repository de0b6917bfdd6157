"""Rich-text markup for layout documents: <b>, <i>, <small>, <nobr>, <color #hex>, <icon name>, <br>."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

_TAG = re.compile(r"<(/?)([a-z]+)(?:\s+([^<>]*?))?\s*>|([^<]+)|(<)")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
SMALL = 0.72  # <small> scale: a clear step down that stays legible


@dataclass(frozen=True)
class Style:
    """How a run of text is set."""

    bold: bool = False
    italic: bool = False
    scale: float = 1.0
    colour: str | None = None
    nobreak: bool = False


@dataclass(frozen=True)
class Run:
    """A piece of text in one style, an inline icon, or a forced line break."""

    text: str = ""
    style: Style = Style()
    icon: str | None = None
    newline: bool = False


class MarkupError(ValueError):
    """The markup is malformed (unknown or unbalanced tag)."""


def escape(text: str) -> str:
    """Escape plain text so that it can be embedded in markup unchanged."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    """Undo `escape`."""
    if "&" not in text:  # most text: nothing to undo, no pattern to run
        return text
    return re.sub(r"&(lt|gt|amp);", lambda m: _ENTITIES[m.group(0)], text)


def with_icons(text: str, words: dict[str, str]) -> str:
    """Escape `text`; put an icon before each amount such as `2 FEED` and keep the amount on one line."""
    if not words:
        return escape(text)
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    pattern = re.compile(rf"\b(\d+) ({alternatives})\b")
    return pattern.sub(lambda m: f"<nobr><icon {words[m.group(2)]}>{m.group(1)} {m.group(2)}</nobr>", escape(text))


def parse(markup: str) -> list[Run]:
    """Parse markup into runs; raise MarkupError on an unknown or unbalanced tag."""
    runs: list[Run] = []
    stack: list[tuple[str, Style]] = []
    style = Style()
    for match in _TAG.finditer(markup):
        closing, tag, arg, text, stray = match.groups()
        if text is not None:
            runs.append(Run(unescape(text), style))
        elif stray is not None:
            raise MarkupError("a lone '<' (write &lt; for a literal <)")
        elif tag == "br" and not closing:
            runs.append(Run(newline=True))
        elif tag == "icon" and not closing:
            if not arg:
                raise MarkupError("<icon> needs a name, e.g. <icon feed>")
            runs.append(Run(style=style, icon=arg.strip()))
        elif closing:
            if not stack or stack[-1][0] != tag:
                raise MarkupError(f"</{tag}> does not close an open tag")
            style = stack.pop()[1]
        elif tag in ("b", "i", "small", "nobr", "color"):
            stack.append((tag, style))
            if tag == "b":
                style = replace(style, bold=True)
            elif tag == "i":
                style = replace(style, italic=True)
            elif tag == "small":
                style = replace(style, scale=style.scale * SMALL)
            elif tag == "nobr":
                style = replace(style, nobreak=True)
            else:
                if not arg or not re.fullmatch(r"#[0-9a-fA-F]{6}", arg.strip()):
                    raise MarkupError("<color> needs a colour, e.g. <color #b0303a>")
                style = replace(style, colour=arg.strip())
        else:
            raise MarkupError(f"unknown tag <{tag}> (known: b, i, small, nobr, color, icon, br)")
    if stack:
        raise MarkupError(f"<{stack[-1][0]}> is never closed")
    return runs


def plain(markup: str) -> str:
    """Return the text a reader sees (icons and tags dropped, line breaks as spaces)."""
    return "".join(" " if r.newline else r.text for r in parse(markup))
