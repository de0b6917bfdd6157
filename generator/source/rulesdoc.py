"""The structure of a rulebook.txt for printing: title, headings, paragraphs, lists and the worked example.

A rulebook is plain text, written the way people write rules (see the shipped games): a heading is a short line
with no closing punctuation (or a line in capitals), a list item starts with `-`, `•` or `1.`, and a worked example
is the section under a heading that says "example". Blank lines separate paragraphs when the file has any, and a
paragraph may then be wrapped over several lines (an indented line continues a list item); a file without blank
lines holds one paragraph per line. Nothing is reworded: every block's text is the rulebook's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

BULLET = re.compile(r"^[-•*–]\s+(?P<text>\S.*)$")
NUMBERED = re.compile(r"^(?P<n>\d{1,2})[.)]\s+(?P<text>\S.*)$")
MAX_HEADING = 70  # characters: a longer line is a sentence, whatever its punctuation
MAX_HEADING_WORDS = 10
_CLOSING = (".", "!", "?", ":", ";", ",")
_NOT_A_HEADING = ("_", "□")  # blanks to fill in (a mat's "Player: ____") and boxes to tick are not headings
# A run-in lead printed in bold: "Patents. Shuffle …", "Cost — the number …", "BUILD COST: 2 FEED."
_LEAD_SENTENCE = re.compile(r"^(?P<lead>[^.?!:;—]{1,50}[.?])\s+(?=[A-Z“\"‘(])")
_LEAD_DASH = re.compile(r"^(?P<lead>[^.?!:;—]{1,48}?)\s+—\s+")
_LEAD_LABEL = re.compile(r"^(?P<lead>[A-Z][A-Z ]{1,30}:)\s")
MAX_LEAD_WORDS = 4  # a run-in label is a few words ("Order of reductions."), not a sentence
MAX_QUESTION_WORDS = 9  # or a question answered after it ("Several Research actions? Yes, …")


@dataclass(frozen=True)
class Block:
    """One printed block: its kind, its text (the rulebook's words, lines joined) and where it starts."""

    kind: str  # title, kicker, heading, paragraph, item
    text: str
    line: int  # 1-based line of rulebook.txt it starts on
    level: int = 1  # a heading: 1 for a chapter, 2 for a section inside one
    marker: str = ""  # an item's bullet ("•") or number ("1.")
    example: bool = False  # it stands in a worked example
    lead: str = ""  # the run-in words printed in bold: a prefix of `text`, or ""


def is_heading(text: str) -> bool:
    """Return True when a line reads as a heading: short, capitalised, without closing punctuation."""
    if not text or len(text) > MAX_HEADING or len(text.split()) > MAX_HEADING_WORDS:
        return False
    if text.endswith(_CLOSING) or any(mark in text for mark in _NOT_A_HEADING):
        return False
    if BULLET.match(text) or NUMBERED.match(text):
        return False
    return text[0].isupper() or text[0].isdigit()


def parse(text: str, title: str = "") -> list[Block]:
    """Return the blocks of a rulebook in order; `title` (the game's) finds the title line among the first."""
    blocks = _blocks(text)
    blocks = _title(blocks, title)
    blocks = _levels(blocks)
    blocks = _examples(blocks)
    return [replace(b, lead=lead(b)) if b.kind in ("paragraph", "item") else b for b in blocks]


def _blocks(text: str) -> list[Block]:
    """Split the text into headings, paragraphs and items, joining wrapped lines when the file wraps them."""
    lines = text.splitlines()
    wrapped = any(not line.strip() for line in lines)  # blank lines separate paragraphs: lines may be wrapped
    out: list[Block] = []
    open_block = False  # whether the last block may take a continuation line
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            open_block = False
            continue
        indented = raw[:1].isspace()
        bullet, numbered = BULLET.match(line), NUMBERED.match(line)
        last = out[-1] if out else None
        continues = wrapped and open_block and last is not None and not bullet and not numbered
        if continues and last is not None and (indented or last.kind == "paragraph"):
            out[-1] = replace(last, text=f"{last.text} {line}")
            continue
        if bullet:
            out.append(Block("item", bullet["text"], number, marker="•"))
        elif numbered:
            out.append(Block("item", numbered["text"], number, marker=f"{numbered['n']}."))
        elif is_heading(line) and not (
            wrapped and (open_block and last is not None and last.kind == "paragraph" or _wraps_on(lines, number))
        ):
            out.append(Block("heading", line, number))
            open_block = False
            continue
        else:
            out.append(Block("paragraph", line, number))
        open_block = wrapped
    return out


def _wraps_on(lines: list[str], number: int) -> bool:
    """Return True when the line after line `number` (1-based) continues it: it starts in lower case."""
    following = lines[number].strip() if number < len(lines) else ""
    return following[:1].islower()


def _title(blocks: list[Block], title: str) -> list[Block]:
    """Mark the title line (the game's title, or the first heading) and any heading-like line before it."""
    wanted = _key(title)
    at = next((i for i, b in enumerate(blocks[:4]) if wanted and _key(b.text) == wanted), None)
    if at is None:
        at = 0 if blocks and blocks[0].kind == "heading" else None
    if at is None:
        return blocks
    head = [replace(b, kind="kicker") if b.kind == "heading" else b for b in blocks[:at]]
    return [*head, replace(blocks[at], kind="title"), *blocks[at + 1 :]]


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _levels(blocks: list[Block]) -> list[Block]:
    """Make a heading followed at once by another a chapter (level 1) and the headings after it sections (2).

    Headings before the first such chapter stay chapters; a rulebook without one has chapters only.
    """
    out = list(blocks)
    chapters = {i for i, b in enumerate(out[:-1]) if b.kind == "heading" and out[i + 1].kind == "heading"}
    if not chapters:
        return out
    first = min(chapters)
    for i, b in enumerate(out):
        if b.kind == "heading" and i > first and i not in chapters:
            out[i] = replace(b, level=2)
    return out


def _examples(blocks: list[Block]) -> list[Block]:
    """Mark the blocks under a heading that says "example" as a worked example.

    The example runs to the next heading or, once it has had a list (its steps), to the first block after
    that list: a rulebook may go on with the rules without a heading of their own.
    """
    out, inside, steps = [], False, False
    for b in blocks:
        if b.kind in ("heading", "title"):
            inside, steps = b.kind == "heading" and "example" in b.text.casefold(), False
        elif inside:
            if steps and b.kind != "item":
                inside = False
            else:
                steps = steps or b.kind == "item"
                b = replace(b, example=True)
        out.append(b)
    return out


def lead(block: Block) -> str:
    """Return the run-in words of a paragraph or item that print in bold ("Patents.", "Cost"), or ""."""
    text = block.text
    for pattern in (_LEAD_LABEL, _LEAD_DASH, _LEAD_SENTENCE):
        m = pattern.match(text)
        if m is None:
            continue
        words = m["lead"].split()
        if block.kind == "paragraph":
            short = len(words) <= 3
        else:
            label = pattern is not _LEAD_SENTENCE or "(" in m["lead"]
            limit = MAX_QUESTION_WORDS if label or m["lead"].endswith("?") else MAX_LEAD_WORDS
            short = len(words) <= limit
        if short and m.end() < len(text) and (m["lead"][0].isupper() or m["lead"][0].isdigit()):
            return m["lead"]
    return ""
