"""Which games a project can name: its own folders under cards/, then the games cardpress and installed rulesets ship."""

from __future__ import annotations

import os
from pathlib import Path

from .. import registry, resources
from ..diagnostics import CardpressError, Report, did_you_mean
from .folders import GameDir


def _games_in(home: Path) -> list[str]:
    """Return the id of every game folder in `home` (those holding a game.yaml)."""
    if not home.is_dir():
        return []
    return sorted(p.name for p in home.iterdir() if (p / "game.yaml").is_file())


def homes(root: Path) -> list[Path]:
    """Return the folders of game folders, nearest first: the project's cards/, cardpress's, each ruleset's own."""
    found = [root / "cards", resources.shipped() / "cards"]
    for registration in registry.registrations():
        games = registration.plugin.pack().games if registration.plugin is not None else None
        if games is not None:
            found.append(games)
    unique: dict[str, Path] = {}
    for home in found:
        unique.setdefault(os.path.realpath(home), home)  # in a checkout the project's cards/ is the shipped one
    return list(unique.values())


def list_games(root: Path) -> list[str]:
    """Return the project's own games: every game folder under its cards/ (what `build` with no GAME builds)."""
    return _games_in(root / "cards")


def installed_games(root: Path) -> list[str]:
    """Return the games cardpress and installed rulesets ship that the project does not hold a folder of."""
    own = set(list_games(root))
    return sorted({g for home in homes(root)[1:] for g in _games_in(home)} - own)


def game_dir(root: Path, game_id: str) -> GameDir:
    """Return the folder of a game (the project's own first, then the installed ones), or fail with a hint.

    A project folder whose game.yaml is there but cannot be read (a folder, a FIFO, a loop of links) is said
    so, at that file: neither "no game" nor the installed game of that name stands in for it.
    """
    own = root / "cards" / game_id / "game.yaml"
    if os.path.lexists(own) and not own.is_file():
        from ..source import safefile

        report = Report()
        try:
            safefile.check(own, [root])
        except safefile.Refused as exc:
            exc.report(report, f"cards/{game_id}/game.yaml")
            raise CardpressError(report) from None
    for index, home in enumerate(homes(root)):
        if game_id in _games_in(home):
            return GameDir(root, game_id, home=None if index == 0 else home)
    games = list_games(root) + installed_games(root)
    report = Report()
    hint = did_you_mean(game_id, games) or (f"games here: {', '.join(games)}" if games else None)
    report.error("G001", f"no game '{game_id}' in {root / 'cards'}", hint=hint)
    raise CardpressError(report)
