"""The Python API behind the CLI: load and validate games, then build their print kits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from . import games, yamlsrc
from .diagnostics import CardpressError, Report, did_you_mean
from .project import GameDir, game_dir, list_games


@dataclass
class LoadedGame:
    """A game folder, its ruleset package and the model its card files describe."""

    dir: GameDir
    ruleset: ModuleType
    model: Any


def ruleset_of(game: GameDir, report: Report) -> ModuleType | None:
    """Read `ruleset:` from game.yaml and import that ruleset, reporting an unknown one."""
    probe = Report()
    source = yamlsrc.load_file(game.folder / "game.yaml", game.display("game.yaml"), probe)
    name = source.data.get("ruleset") if isinstance(source.data, dict) else None
    if not probe.ok():
        report.extend(probe.items)
        return None
    if name not in games.RULESETS:
        report.error(
            "S005",
            f"unknown ruleset {name!r}",
            path="ruleset",
            loc=source.loc(("ruleset",)),
            hint=did_you_mean(str(name), games.RULESETS) or f"rulesets: {', '.join(games.RULESETS)}",
        )
        return None
    game.ruleset = name
    return games.ruleset(name)


def load(root: Path, game_id: str, report: Report | None = None) -> LoadedGame:
    """Load one game through the schema layer; raise CardpressError listing every problem."""
    report = report if report is not None else Report()
    game = game_dir(root, game_id)
    module = ruleset_of(game, report)
    model = module.load(game, report, known_icons(game)) if module else None
    if model is None or not report.ok():
        raise CardpressError(report)
    return LoadedGame(game, module, model)


def validate(root: Path, game_id: str) -> tuple[LoadedGame | None, Report]:
    """Run every validation layer the game's ruleset has; return the game (if it loaded) and the report."""
    report = Report()
    try:
        loaded = load(root, game_id, report)
    except CardpressError as exc:
        return None, exc.report
    check_rules = getattr(loaded.ruleset, "check_rules", None)
    if check_rules is not None:
        check_rules(loaded.dir, loaded.model, report)
    return loaded, report


def known_icons(game: GameDir) -> set[str]:
    """Return the names of the icons the game's layouts define."""
    from .layout.icons import load_icons

    return set(load_icons(game.layout_dirs()).names())


def resolve_games(root: Path, game_id: str | None) -> list[str]:
    """Return [game_id], or every game under cards/ when none is named."""
    return [game_id] if game_id else list_games(root)
