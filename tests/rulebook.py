"""The printable materials as the Pocket Foundry rulebook words them: the oracle for printed text."""

from __future__ import annotations

import re
from pathlib import Path

RULEBOOK = Path(__file__).resolve().parent.parent / "cards" / "pocket-foundry" / "rulebook.txt"


def printable_materials() -> dict[str, list[str]]:
    """Return {component heading: [printed items]} from the rulebook's 'Printable materials' section."""
    text = RULEBOOK.read_text(encoding="utf-8")
    section = text.split("No card back may reveal the type of an undealt market card.\n", 1)[1]
    lines = [ln for ln in section.splitlines() if ln.strip()][:-1]  # the last line is the credits
    headings = re.compile(
        r"^(.+ · copy \d|Starter Feeder · print one per player|Foundry mat · print one per player|"
        r"Foundry lap record|Starting-player marker)$"
    )
    out: dict[str, list[str]] = {}
    current = None
    for line in lines:
        if headings.match(line):
            current = line
            out[current] = []
        else:
            out[current].extend(_items(line))
    return out


def _items(line: str) -> list[str]:
    """Split a rulebook line that lists several printed items ("Slot 1: … Slot 2: …") into the items."""
    if line.startswith("Slot 1:"):
        return re.split(r" (?=Slot \d+:)", line)
    if line.startswith("FEED:"):
        return re.split(r"(?<=\.) (?=[A-Z]+:)", line)
    return [line]
