"""`cardpress new-translation`: start a translation of a game as a fan edition that holds only its words.

It writes cards/NAME/ with game.yaml (`extends`, `language`), messages.po (every label and sentence form the
base prints, msgstr empty: untranslated entries print in English until translated), each card file with the
words printed card by card (names, texts) in English to translate over, and a copy of the rulebook.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from .. import pipeline
from ..diagnostics import CardpressError, Report
from ..editions.chain import ID, ID_HINT, RULEBOOK_FILE
from ..editions.overlay import is_deck
from ..project.output import write_all
from . import pofile, translation

LANGUAGE = r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*"
Item = tuple[str, tuple[str | int, ...], str]  # (card file, key path, text)


def create(root: Path, name: str, base_id: str, language: str) -> list[Path]:
    """Make cards/NAME/ a translation of `base_id` into `language`; raise CardpressError (I007) if it cannot."""
    report = Report()
    if not ID.fullmatch(name):
        report.error("I007", f"'{name}' is not a folder name cardpress accepts", hint=ID_HINT)
    elif (root / "cards" / name).exists():
        report.error("I007", f"cards/{name}/ already exists", hint="choose another name, or edit that folder")
    if not re.fullmatch(LANGUAGE, language):
        report.error("I007", f"--lang '{language}' is not a language tag", hint="e.g. fr, de, es or pt-BR")
    if not report.ok():
        raise CardpressError(report)
    base = pipeline.Pipeline(root, base_id)
    loaded = base.validate()
    if loaded is None or not base.report.ok():
        report.error(
            "I007",
            f"{base_id} does not validate, so its words cannot be listed",
            hint=f"`cardpress validate {base_id}` says why",
        )
        raise CardpressError(report)
    game = loaded.dir
    items = list(loaded.ruleset.translatable(loaded))
    title = next((text for file, path, text in items if file == "game.yaml" and path == ("title",)), base_id)
    files: dict[Path, bytes] = {}
    folder = root / "cards" / name
    by_file: dict[str, list[Item]] = {}
    for item in items:
        by_file.setdefault(item[0], []).append(item)
    head = [
        f"# A translation of {title} into '{language}'. Translate every quoted text below; keep the ids.",
        "# Card texts are read back through messages.po's sentence forms, so their numbers are checked.",
        f'# See the cardpress manual, "Translations". `cardpress validate {name}` checks it.',
    ]
    own = by_file.pop("game.yaml", [])
    data = {"extends": base_id, "language": language, **_overlay(game.sources["game.yaml"].data, own)}
    files[folder / "game.yaml"] = _yaml(head, data)
    for file, found in sorted(by_file.items()):
        source = game.sources.get(file)
        files[folder / file] = _yaml(head[:1], _overlay(source.data if source else {}, found))
    messages = translation.base_messages(game, loaded.ruleset)
    files[folder / pofile.CATALOGUE_FILE] = pofile.write(language, title, messages, {})
    rulebook = game.find(RULEBOOK_FILE)
    if rulebook is not None:
        files[folder / RULEBOOK_FILE] = rulebook.read_bytes()
    return write_all(files, root=root)


def _overlay(base: Any, items: Sequence[Item]) -> dict[str, Any]:
    """Return an edition file that sets each item's key path, naming a deck's entry by its id."""
    out: dict[str, Any] = {}
    for _, path, text in items:
        here: Any = out
        there: Any = base
        for i, key in enumerate(path):
            last = i == len(path) - 1
            if isinstance(key, int):
                card = there[key] if isinstance(there, list) and key < len(there) else {}
                entry = next((e for e in here if e.get("id") == card.get("id")), None)
                if entry is None:
                    entry = {"id": card.get("id")}
                    here.append(entry)
                here, there = entry, card
                continue
            nxt = path[i + 1] if not last else None
            there = there.get(key) if isinstance(there, dict) else None
            if last:
                here[key] = text
            else:
                here = here.setdefault(key, [] if isinstance(nxt, int) and is_deck(there) else {})
    return out


def _yaml(head: Sequence[str], data: dict[str, Any]) -> bytes:
    """Return a YAML document under comment lines (strings quoted as JSON, which YAML reads the same)."""
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
    return ("\n".join(head) + "\n" + text).encode("utf-8")
