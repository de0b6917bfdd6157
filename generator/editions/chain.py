"""Fan editions: a game folder whose game.yaml `extends:` a game (or another edition) and holds only its changes.

`open_game` follows the chain of `extends` from an edition down to its game and returns the GameDir that looks
every file up through it, with game.yaml already merged (see `generator.editions.overlay` for how files merge).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..diagnostics import CardpressError, Location, Report, did_you_mean
from ..project.folders import GameDir
from ..project.locate import game_dir, installed_games, list_games
from ..source import yamlsrc

GAME_FILE = "game.yaml"
MAX_DEPTH = 8  # editions of editions: deep enough for any real family, short enough to stay readable
# Who made this folder: said by each edition itself, never inherited from the game it extends (credits add up:
# see `credits`).
OWN_KEYS = ("extends", "version", "authors", "licence", "based_on", "credits")


def open_game(root: Path, game_id: str, report: Report) -> GameDir | None:
    """Return the game folder with its chain of bases resolved and game.yaml merged, or None after reporting why."""
    try:
        game = game_dir(root, game_id)
    except CardpressError as exc:
        report.extend(exc.report.items)
        return None
    games = list_games(root) + installed_games(root)
    chain = [game]
    before = len(report.errors)
    own = yamlsrc.load_file(game.folder / GAME_FILE, game.display(GAME_FILE), report)
    while len(report.errors) == before:
        data = own.data if isinstance(own.data, dict) else {}
        base_id = data.get("extends")
        if base_id is None:
            break
        where = own.loc(("extends",))
        if not isinstance(base_id, str):
            report.error("E001", "extends names the game this edition is based on", path="extends", loc=where)
            break
        seen = [level.id for level in chain]
        if base_id in seen:
            cycle = " → ".join([*seen[seen.index(base_id) :], base_id])
            report.error(
                "E002",
                f"extends '{base_id}' makes a cycle: {cycle}",
                path="extends",
                loc=where,
                hint="an edition extends a game, or an edition that does not extend it back",
            )
            break
        if base_id not in games:
            near = did_you_mean(base_id, [g for g in games if g not in seen])
            report.error(
                "E001",
                f"extends '{base_id}', but there is no game '{base_id}' in cards/",
                path="extends",
                loc=where,
                hint=near or f"games here: {', '.join(g for g in games if g not in seen)}",
            )
            break
        if len(chain) > MAX_DEPTH:
            report.error("E009", f"more than {MAX_DEPTH} editions extend one another", path="extends", loc=where)
            break
        base = game_dir(root, base_id)
        own = yamlsrc.load_file(base.folder / GAME_FILE, base.display(GAME_FILE), report)
        chain.append(base)
    if len(report.errors) != before:
        return None
    for i, level in enumerate(chain):
        level.bases = chain[i + 1 :]
    source = game.merge(GAME_FILE, report, OWN_KEYS)
    _check_ruleset(game, report)
    game.sources[GAME_FILE] = source
    return game if len(report.errors) == before else None


def _check_ruleset(game: GameDir, report: Report) -> None:
    """An edition plays its base's ruleset: saying another one is a mistake, located where it is said."""
    if not game.bases:
        return
    own = yamlsrc.load_file(game.folder / GAME_FILE, game.display(GAME_FILE), Report())
    base = game.bases[0].merge(GAME_FILE, report, OWN_KEYS)
    mine = own.data.get("ruleset") if isinstance(own.data, dict) else None
    theirs = base.data.get("ruleset") if isinstance(base.data, dict) else None
    if mine is not None and theirs is not None and mine != theirs:
        report.error(
            "E008",
            f"an edition plays the ruleset of the game it extends ('{theirs}'), not '{mine}'",
            path="ruleset",
            loc=own.loc(("ruleset",)),
            hint="remove `ruleset:` from the edition's game.yaml",
        )


def based_on(game: GameDir) -> str:
    """Return what an edition is based on, from its base's own game.yaml: "Pocket Foundry (Round & Revel, …)"."""
    if not game.bases:
        return ""
    base = game.bases[0]
    data = base.merge(GAME_FILE, Report(), OWN_KEYS).data
    data = data if isinstance(data, dict) else {}
    title = _text(data.get("title")) or base.id
    by = _authors(data.get("authors")) if base.bases else ""  # an edition's makers, else the game's publisher
    who = [x for x in (by or _text(data.get("publisher")), "" if base.bases else _text(data.get("edition"))) if x]
    version = _text(data.get("version"))
    name = f"{title} {version}" if version else title
    return f"{name} ({', '.join(who)})" if who else name


def credits(game: GameDir) -> tuple[str, ...]:
    """Return every credit line of the edition and of each base it extends, the edition's own first.

    Credits add up rather than being replaced: inherited art, rules and fonts keep their makers' names."""
    found: list[str] = []
    for level in game.chain:
        data = yamlsrc.load_file(level.folder / GAME_FILE, level.display(GAME_FILE), Report()).data
        lines = data.get("credits") if isinstance(data, dict) else None
        for line in [lines] if isinstance(lines, str) else lines if isinstance(lines, list) else []:
            if isinstance(line, str) and line not in found:
                found.append(line)
    return tuple(found)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value) if isinstance(value, (int, float)) else ""


def _authors(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(x for x in value if isinstance(x, str))
    return _text(value)


def chain_ids(root: Path, game_id: str) -> list[str]:
    """Return the folder ids a game reads from: the game (or edition) and every base it extends, quietly."""
    game = open_game(root, game_id, Report())
    return [level.id for level in game.chain] if game is not None else [game_id]


def create(
    root: Path,
    name: str,
    base_id: str,
    *,
    title: str | None = None,
    authors: tuple[str, ...] = (),
    licence: str | None = None,
    version: str = "0.1",
    rulebook: bool = False,
) -> list[Path]:
    """Make cards/NAME/ an edition of `base_id` holding only game.yaml (and a copy of the rulebook if asked).

    Raise CardpressError when the name is taken or not an id, or the base cannot be opened.
    """
    report = Report()
    if not ID.fullmatch(name):
        report.error("E013", f"'{name}' is not a folder name cardpress accepts", hint=ID_HINT)
    elif (root / "cards" / name).exists():
        report.error("E013", f"cards/{name}/ already exists", hint="choose another name, or edit that folder")
    base = open_game(root, base_id, report) if report.ok() else None
    if base is None or not report.ok():
        raise CardpressError(report)
    data = base.sources[GAME_FILE].data if isinstance(base.sources[GAME_FILE].data, dict) else {}
    base_title = str(data.get("title") or base_id)
    title = title or f"{base_title}: Fan Edition"[:60]
    lines = [
        f"# A fan edition of {base_title}. It holds only what it changes; everything else is read from",
        f"# cards/{base_id}/, so fixes there flow in. Change a card by its id in a file named like the base's",
        "# (machines.yaml, workshop.yaml, ...): give only the fields that change; `add: true` adds a card,",
        "# `remove: true` drops one. Art, layouts/, fonts/ and rulebook.txt here replace the base's.",
        "# `cardpress diff " + name + '` lists what it changes. See the cardpress manual, "Fan editions".',
        f"extends: {base_id}",
        f"title: {_quoted(title)}",
        f"version: {_quoted(version)}",
        "authors: [" + ", ".join(_quoted(a) for a in authors) + "]" if authors else "# authors: [Your Name]",
        f"licence: {_quoted(licence)}" if licence else "# licence: CC BY-SA 4.0",
        '# credits: ["Art: …"]',
    ]
    files = {root / "cards" / name / GAME_FILE: ("\n".join(lines) + "\n").encode("utf-8")}
    source = base.find(RULEBOOK_FILE)
    if rulebook and source is not None:
        files[root / "cards" / name / RULEBOOK_FILE] = source.read_bytes()
    from ..project.output import write_all

    return write_all(files, root=root)


RULEBOOK_FILE = "rulebook.txt"
ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")
ID_HINT = "use lower-case letters, digits and hyphens, e.g. pocket-foundry-deluxe"


def _quoted(text: str) -> str:
    """Return a YAML scalar for a string, quoted (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def advise_rulebook(game: GameDir, report: Report, since: int = 0) -> None:
    """Tell an edition whose cards disagree with the rulebook it inherits where its own copy goes.

    Hints quote the base's rulebook; a new user would otherwise edit the base game's file. Each hint that
    cites it (from report item `since` on) says once how the edition gets its own."""
    path = game.find(RULEBOOK_FILE)
    if not game.bases or path is None or Path(os.path.realpath(path)).parent == Path(os.path.realpath(game.folder)):
        return
    cited = game.shown(path) + ":"
    advice = (
        f"; {game.id} inherits that rulebook: to change a rule, copy it to {game.display(RULEBOOK_FILE)} "
        "and edit the copy"
    )
    for i in range(since, len(report.items)):
        item = report.items[i]
        if item.hint and cited in item.hint and advice not in item.hint:
            report.items[i] = replace(item, hint=item.hint + advice)


def check_strays(game: GameDir, report: Report) -> None:
    """Warn about a YAML file in an edition that nothing reads: no base has it and the ruleset did not load it."""
    if not game.bases:
        return
    known = {p.name for level in game.bases for p in level.folder.glob("*.yaml")} | set(game.sources)
    for path in sorted(game.folder.glob("*.y*ml")):
        if path.name not in known:
            report.warning(
                "E014",
                f"nothing reads {path.name}: {game.bases[0].id} has no file of that name to change",
                loc=Location(game.display(path.name), 1, 1),
                hint=did_you_mean(path.name, sorted(known)) or f"files it can change: {', '.join(sorted(known))}",
            )
