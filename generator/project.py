"""Find the project's games and read their folders, keeping every path inside its folder."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import schema, yamlsrc
from .diagnostics import CardpressError, Location, Report, did_you_mean
from .edits import Edit
from .edits import apply as apply_edits


def find_root(start: Path | None = None) -> Path:
    """Return the project root: the nearest folder at or above `start` that holds `cards/`."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "cards").is_dir():
            return folder
    return Path(__file__).resolve().parent.parent  # the checkout cardpress was installed from


@dataclass
class GameDir:
    """One game folder under `cards/`, with the layout search path that goes with it."""

    root: Path  # the project root
    id: str
    ruleset: str = ""  # the game family, read from game.yaml; its layouts serve every edition of it
    folder: Path = field(init=False)
    sources: dict[str, yamlsrc.Source] = field(default_factory=dict)
    edits: dict[str, list[Edit]] = field(default_factory=dict)  # values set in memory before checks (see edits)

    def __post_init__(self) -> None:
        self.folder = self.root / "cards" / self.id

    def display(self, relative: str) -> str:
        """Return the path shown in messages, relative to the project root."""
        return f"cards/{self.id}/{relative}"

    def layout_dirs(self) -> list[Path]:
        """Return where templates are looked up, first match wins: the game's own, its family's, common."""
        folders = [self.folder / "layouts", self.root / "layouts" / self.id]
        if self.ruleset and self.ruleset != self.id:
            folders.append(self.root / "layouts" / self.ruleset)
        return folders + [self.root / "layouts" / "common"]

    def resolve(self, relative: str, report: Report, where: Location | None, path: str = "") -> Path | None:
        """Resolve a path named in a card file; refuse any path that leaves the game folder."""
        candidate = (self.folder / relative).resolve()
        base = self.folder.resolve()
        if os.path.isabs(relative) or base not in candidate.parents:
            report.error(
                "S010",
                f"path '{relative}' leaves the folder cards/{self.id}/",
                path=path,
                loc=where,
                hint="name files relative to the game folder, without '..'",
            )
            return None
        return candidate

    def load(self, name: str, schema_id: str, report: Report) -> yamlsrc.Source:
        """Load `name` from the game folder and check it against a schema (once: a loaded file is kept)."""
        if name in self.sources:
            return self.sources[name]
        before = len(report.errors)
        source = yamlsrc.load_file(self.folder / name, self.display(name), report)
        self.sources[name] = source
        if len(report.errors) == before and name in self.edits:
            apply_edits(source, self.edits[name], report)
        if len(report.errors) == before:  # a file that did not parse has nothing to check
            schema.check(source, schema_id, report)
        return source


def list_games(root: Path) -> list[str]:
    """Return the id of every game folder under `cards/` (those holding a game.yaml)."""
    cards = root / "cards"
    if not cards.is_dir():
        return []
    return sorted(p.name for p in cards.iterdir() if (p / "game.yaml").is_file())


def game_dir(root: Path, game_id: str) -> GameDir:
    """Return the folder of a game, or fail with a hint naming the games that exist."""
    games = list_games(root)
    if game_id not in games:
        report = Report()
        hint = did_you_mean(game_id, games) or (f"games here: {', '.join(games)}" if games else None)
        report.error("G001", f"no game '{game_id}' in {root / 'cards'}", hint=hint)
        raise CardpressError(report)
    return GameDir(root, game_id)
