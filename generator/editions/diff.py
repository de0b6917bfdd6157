"""What a fan edition changes against its base: cards by id, constants, rulebook, art, templates, icons, fonts."""

from __future__ import annotations

import builtins
import difflib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import CardpressError, Report
from ..project.folders import GameDir
from .chain import GAME_FILE, OWN_KEYS, open_game
from .overlay import is_deck

MAX_FILES = 2000  # an edition folder listed for a diff; more than this is not a fan edition
RULEBOOK = "rulebook.txt"
_MISSING = "–"


@dataclass
class FieldChange:
    """One value: where it is (a key path inside the card or file), what it was, what it is."""

    path: str
    old: Any = None  # None: it was not there
    new: Any = None  # None: it is gone


@dataclass
class CardChange:
    """A card (an entry of a list with ids) the edition adds, removes or changes."""

    kind: str  # added | removed | changed
    list: str  # e.g. "machines", "parts"
    id: str
    name: str = ""
    fields: builtins.list[FieldChange] = field(default_factory=builtins.list)  # `list` is a field here


@dataclass
class FileChange:
    """What an edition's card file (YAML) changes."""

    file: str
    cards: list[CardChange] = field(default_factory=list)
    values: list[FieldChange] = field(default_factory=list)  # constants and other keys outside the decks


@dataclass
class EditionDiff:
    """Everything an edition changes against the game (or edition) it extends."""

    edition: str
    title: str
    base: str
    files: list[FileChange] = field(default_factory=list)
    rulebook: list[str] = field(default_factory=list)  # unified diff lines; empty when inherited or the same
    assets: list[tuple[str, str]] = field(default_factory=list)  # (file, "adds" | "replaces")

    def to_json(self) -> dict[str, Any]:
        """Return the diff as JSON-ready data."""
        return asdict(self)


def diff(root: Path, edition_id: str) -> EditionDiff:
    """Return what `edition_id` changes against its base; raise CardpressError if it cannot be read."""
    report = Report()
    game = open_game(root, edition_id, report)
    if game is not None and not game.bases:
        report.error(
            "E012",
            f"'{edition_id}' is a game, not a fan edition: it extends nothing",
            hint=f"`cardpress new-edition my-edition --from {edition_id}` makes an edition of it",
        )
    if game is None or not report.ok():
        raise CardpressError(report)
    base = game.bases[0]
    title = (
        game.sources[GAME_FILE].data.get("title", edition_id) if isinstance(game.sources[GAME_FILE].data, dict) else ""
    )
    result = EditionDiff(edition_id, str(title), base.id)
    own = _own_files(game)
    for name in sorted(n for n in own if n.endswith((".yaml", ".yml")) and "/" not in n):
        keep_out = OWN_KEYS if name == GAME_FILE else ()
        before = base.merge(name, report, keep_out).data if base.find(name) else None
        after = game.merge(name, report, keep_out).data
        if name == GAME_FILE:
            before = _without(before, OWN_KEYS)
            after = _without(after, OWN_KEYS)
        change = FileChange(name)
        _compare(before, after, (), change)
        if change.cards or change.values:
            result.files.append(change)
    if not report.ok():
        raise CardpressError(report)
    if RULEBOOK in own and (base_rulebook := base.find(RULEBOOK)):
        old = base_rulebook.read_text(encoding="utf-8", errors="replace").splitlines()
        new = (game.folder / RULEBOOK).read_text(encoding="utf-8", errors="replace").splitlines()
        result.rulebook = list(
            difflib.unified_diff(old, new, f"{base.id}/{RULEBOOK}", f"{edition_id}/{RULEBOOK}", n=0, lineterm="")
        )
    for name in sorted(own):
        if name.endswith((".yaml", ".yml")) and "/" not in name or name == RULEBOOK and base.find(RULEBOOK):
            continue
        result.assets.append((name, "replaces" if _inherited(base, name) else "adds"))
    return result


def _own_files(game: GameDir) -> list[str]:
    """Return the files in the edition's own folder, relative to it (bounded)."""
    found = []
    for path in sorted(game.folder.rglob("*")):
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(game.folder).parts):
            found.append(path.relative_to(game.folder).as_posix())
            if len(found) >= MAX_FILES:
                break
    return found


def _inherited(base: GameDir, name: str) -> bool:
    """Return True when the base has this file too: in its folder, or (templates, icons) on its layout path."""
    if base.find(name):
        return True
    if name.startswith("layouts/"):
        rest = name.removeprefix("layouts/")
        return any((folder / rest).is_file() for folder in base.layout_dirs())
    return False


def _without(data: Any, keys: tuple[str, ...]) -> Any:
    return {k: v for k, v in data.items() if k not in keys} if isinstance(data, dict) else data


def _compare(old: Any, new: Any, path: tuple[str | int, ...], change: FileChange) -> None:
    """Record the differences between `old` and `new` under `path`: decks card by card, the rest value by value."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            _compare(old.get(key), new.get(key), path + (key,), change)
        return
    if isinstance(old, list) and isinstance(new, list) and (is_deck(old) or is_deck(new)) and _decks(old, new):
        _cards(old, new, _dotted(path), change)
        return
    if old != new:
        change.values.append(FieldChange(_dotted(path), old, new))


def _decks(old: list[Any], new: list[Any]) -> bool:
    return all(isinstance(x, dict) and isinstance(x.get("id"), str) for x in (*old, *new))


def _cards(old: list[Any], new: list[Any], where: str, change: FileChange) -> None:
    before = {c["id"]: c for c in old}
    after = {c["id"]: c for c in new}
    for cid, card in after.items():
        if cid not in before:
            change.cards.append(CardChange("added", where, cid, _name(card), list(_leaves(card, (), True))))
            continue
        fields = list(_fields(before[cid], card, ()))
        if fields:
            change.cards.append(CardChange("changed", where, cid, _name(card), fields))
    for cid, card in before.items():
        if cid not in after:
            change.cards.append(CardChange("removed", where, cid, _name(card)))


def _fields(old: Any, new: Any, path: tuple[str | int, ...]) -> Iterator[FieldChange]:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            yield from _fields(old.get(key), new.get(key), path + (key,))
    elif old != new:
        yield FieldChange(_dotted(path), old, new)


def _leaves(card: dict[str, Any], path: tuple[str | int, ...], top: bool) -> Iterator[FieldChange]:
    for key, value in card.items():
        if top and key == "id":
            continue
        yield FieldChange(_dotted(path + (key,)), None, value)


def _name(card: dict[str, Any]) -> str:
    name = card.get("name")
    return name if isinstance(name, str) else ""


def _dotted(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def show(value: Any) -> str:
    """Return a value as the edition's YAML would say it, on one line."""
    if value is None:
        return _MISSING
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False).replace('"', "")


def to_text(d: EditionDiff) -> str:
    """Return the diff as text for the terminal (and Markdown readers): one block per file, one line per card."""
    out = [f"{d.edition} ({d.title}) against {d.base}", ""]
    if not (d.files or d.rulebook or d.assets):
        out.append("No changes yet: everything is inherited.")
    for change in d.files:
        kind = "header and rules constants" if change.file == GAME_FILE else "cards and settings"
        out.append(f"{change.file} ({kind})")
        for card in change.cards:
            label = f"{card.id} ({card.name})" if card.name else card.id
            out.append(f"  {card.kind:8} {card.list}: {label}")
            for f in card.fields:
                if card.kind == "added":
                    out.append(f"             {f.path}: {show(f.new)}")
                else:
                    out.append(f"             {f.path}: {show(f.old)} → {show(f.new)}")
        for f in change.values:
            out.append(f"  {f.path}: {show(f.old)} → {show(f.new)}")
        out.append("")
    if d.rulebook:
        changed = sum(1 for line in d.rulebook if line.startswith(("+", "-")) and not line.startswith(("+++", "---")))
        out.append(f"{RULEBOOK} (replaces the base's; {changed} lines differ)")
        out += [f"  {line}" for line in d.rulebook[2:]]
        out.append("")
    if d.assets:
        out.append("files (art, templates, icons, fonts)")
        out += [f"  {verb:8} {name}" for name, verb in d.assets]
        out.append("")
    return "\n".join(out).rstrip() + "\n"
