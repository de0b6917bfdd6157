"""A game's translation: every message its base prints, and the catalogue an edition with `language:` reads.

The messages come from three places: the number words, the ruleset's own sentence forms (`Ruleset.messages`)
and every `_()`/`pgettext()` label in the templates on the game's layout path, found with Babel's Jinja
extractor (https://babel.pocoo.org/en/latest/messages.html), so a label added to a template is a message a
translation must give.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from .. import resources
from ..diagnostics import Report
from ..impose.plan import MESSAGES as PLAN_MESSAGES
from ..kit import MESSAGES as KIT_MESSAGES
from ..project.folders import GameDir
from ..source import safefile
from .catalogue import ENGLISH, NUMBERS, NUMBERS_CONTEXT, Catalogue, Message

if TYPE_CHECKING:
    from ..contract import Ruleset

KEYWORDS: dict[str, Any] = {"_": None, "gettext": None, "pgettext": ((1, "c"), 2)}
COMMENT_TAGS = ("Translators:",)  # a `{# Translators: … #}` comment before a label is its note
MAX_TEMPLATE_BYTES = 1_000_000
NUMBER_WORDS = Message(
    NUMBERS,
    NUMBERS_CONTEXT,
    "how the cards and rulebook spell 0 to 20, one word each, separated by spaces; un/une gives two spellings",
)


def base_messages(game: GameDir, ruleset: Ruleset[Any]) -> list[Message]:
    """Return every message the game prints, in the order a translator meets them: numbers, forms, labels."""
    found: dict[tuple[str, str], Message] = {}
    for message in (NUMBER_WORDS, *ruleset.messages(), *template_messages(game), *PLAN_MESSAGES, *KIT_MESSAGES):
        if message.key in found:
            known = found[message.key]
            found[message.key] = Message(known.id, known.context, known.comment, (*known.where, *message.where))
        else:
            found[message.key] = message
    return list(found.values())


def template_messages(game: GameDir) -> list[Message]:
    """Return the labels the templates on the game's layout path print, first template of each name only."""
    from babel.messages.extract import extract  # only a translated game reads its templates' labels
    from jinja2.ext import babel_extract

    roots = [game.root, *resources.installed(game.ruleset_layouts)]
    seen: set[str] = set()
    out: list[Message] = []
    for folder in game.layout_dirs():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.j2")):
            if path.name in seen:
                continue
            seen.add(path.name)
            try:
                text = safefile.read_text(path, MAX_TEMPLATE_BYTES, roots)
            except safefile.Refused:
                continue  # rendering reports it where the template is used
            shown = _shown(path, game.root)
            # a template Jinja cannot parse gives none (its extractor says nothing): rendering reports it, located
            found = list(
                extract(cast(Any, babel_extract), io.BytesIO(text.encode("utf-8")), KEYWORDS, COMMENT_TAGS, {})
            )
            for line, msgid, comments, context in found:
                if isinstance(msgid, str):
                    out.append(Message(msgid, context or "", " ".join(comments), (f"{shown}:{line}",)))
    return out


def _shown(path: Path, root: Path) -> str:
    for base in (root, resources.shipped()):
        try:
            return str(path.resolve().relative_to(base.resolve()))
        except ValueError:
            continue
    return path.name


def catalogue(game: GameDir, ruleset: Ruleset[Any], language: str, report: Report) -> Catalogue:
    """Return the words the game prints: English for a game, its messages.po for a translation (reported)."""
    if not language:
        return ENGLISH
    from . import pofile  # here: Babel's catalogues are for a translated game only

    path = game.find(pofile.CATALOGUE_FILE)
    if path is None:
        report.error(
            "I005",
            f"game.yaml says language: {language}, but there is no {pofile.CATALOGUE_FILE} beside it",
            loc=game.sources["game.yaml"].loc(("language",)),
            hint=f"`cardpress new-translation NAME --from GAME --lang {language}` writes one to translate",
        )
        return ENGLISH
    found = pofile.read(path, game.shown(path), language, base_messages(game, ruleset), report)
    return found or ENGLISH
