"""The pseudo-locale: every printed word accented and 35 % longer, to find the faces a translation would overflow.

Pseudo-localization is the usual stress test before translating (https://www.rws.com/glossary/pseudolocalization:
expanded text, accented letters). Every message the game prints (labels, sentence forms) and every
word its card files hold (names, texts: `Ruleset.translatable`) is replaced by its pseudo form, `Fééd Bélt ~~~`,
and the whole kit is laid out and linted as a build would, without the rules check (no rulebook says those
words). The report lists each face with text that no longer fits its box even at its smallest size.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import pipeline
from ..diagnostics import CardpressError, Diagnostic
from ..project.folders import GameDir
from ..source.digest import text_digest
from ..source.edits import Edit, by_file
from . import translation
from .catalogue import NUMBERS_CONTEXT, Catalogue

GROWTH = 0.35  # how much longer each string gets
ACCENTS = str.maketrans("aceinouyACEINOUY", "åçéîñöüýÅÇÉÎÑÖÜÝ")  # Latin-1, which every shipped font covers
KEEP = re.compile(r"(\{\w+\}|</?[a-z]+(?:\s[^<>]*)?>|&\w+;|\{\{|\}\})")  # slots, markup tags, entities: as they are
OVERFLOW = ("L100",)  # text that does not fit its box even at its minimum size


def pseudo(text: str) -> str:
    """Return `text` accented and padded with `~` words to 35 % more letters, its slots and tags kept."""
    pieces = KEEP.split(text)
    letters = sum(len(p) for i, p in enumerate(pieces) if i % 2 == 0)
    out = "".join(p if i % 2 else p.translate(ACCENTS) for i, p in enumerate(pieces))
    pad = math.ceil(letters * GROWTH)
    if not pad:
        return out
    words = [("~" * 7)] * (pad // 8) + (["~" * (pad % 8 - 1)] if pad % 8 > 1 else [])
    tail = " ".join(words) if words else "~"
    return f"{out} {tail}"


def catalogue(game: GameDir, ruleset: Any) -> Catalogue:
    """Return the pseudo-locale's catalogue of every message the game prints (numbers stay English: they are
    read back)."""
    strings = {m.key: pseudo(m.id) for m in translation.base_messages(game, ruleset) if m.context != NUMBERS_CONTEXT}
    return Catalogue("en-XA", strings, text_digest(*(f"{k}\0{v}" for k, v in sorted(strings.items()))))


@dataclass
class Overflow:
    """The faces whose text would not fit in the pseudo-locale, each with what does not fit."""

    game: str
    faces: dict[str, list[Diagnostic]] = field(default_factory=dict)
    laid_out: int = 0  # faces laid out in all

    def to_json(self) -> dict[str, Any]:
        """Return the report as JSON data."""
        return {
            "game": self.game,
            "growth": GROWTH,
            "faces_laid_out": self.laid_out,
            "faces_overflowing": len(self.faces),
            "faces": [
                {
                    "face": face,
                    "problems": [{"code": d.code, "message": d.message.removeprefix(face + ": ")} for d in found],
                }
                for face, found in self.faces.items()
            ],
        }

    def to_text(self) -> str:
        """Return the report as lines for the terminal."""
        lines = [
            f"{self.game}: {len(self.faces)} of {self.laid_out} faces overflow in the pseudo-locale "
            f"(accented, {round(GROWTH * 100)} % longer)"
        ]
        for face, found in self.faces.items():
            lines.append(f"  {face}")
            lines += [f"    {d.code}: {d.message.removeprefix(face + ': ')}" for d in found]
        return "\n".join(lines) + "\n"


def overflows(root: Path, game_id: str, papers: tuple[str, ...] = pipeline.PAPERS) -> Overflow:
    """Lay out the game in the pseudo-locale and return the faces that overflow; CardpressError if it cannot load."""
    plain = pipeline.Pipeline(root, game_id)
    loaded = plain.load()
    if loaded is None:
        raise CardpressError(plain.report)
    edits = []
    for file, path, text in loaded.ruleset.translatable(loaded):
        source = loaded.dir.sources.get(file)
        if source is not None and _holds(source.data, path):
            edits.append(Edit(file, path, pseudo(text), "the pseudo-locale"))
    run = pipeline.Pipeline(root, game_id, edits=by_file(edits), words=catalogue, rules=False)
    run.lint(papers)
    studio = run.studio()
    if studio is None or run.kit() is None:
        raise CardpressError(run.report)
    found = Overflow(game_id, laid_out=len(studio.said))
    for face, said in studio.said.items():
        bad = [d for d in said if d.code in OVERFLOW]
        if bad:
            found.faces[face] = bad
    return found


def _holds(data: Any, path: tuple[str | int, ...]) -> bool:
    """Return True when `data` has a value at `path` (a hand-written text a card may not have is skipped)."""
    for key in path:
        found = isinstance(data, list) and isinstance(key, int) and key < len(data)
        if not (found or (isinstance(data, dict) and key in data)):
            return False
        data = data[key]
    return True
