"""Find the project's games and read their folders, keeping every path inside its folder."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import schema, yamlsrc
from .diagnostics import CardpressError, Location, Report, did_you_mean


def find_root(start: Path | None = None, needs_cards: bool = True) -> Path:
    """Return the project root: the nearest folder at or above `start` that holds `cards/`.

    Without `start` (no --root), a folder outside any project falls back to the checkout cardpress was
    installed from. A `start` the user named must exist and (with `needs_cards`) lie in a project:
    validating the installed checkout instead would pass for the user's files.
    """
    if start is not None:
        problem = None
        if not start.exists():
            problem = (f"--root: the folder {start} does not exist", "check the path, or leave --root out")
        elif not start.is_dir():
            problem = (f"--root: {start} is a file, not a folder", "name the project folder that holds cards/")
        if problem is None:
            here = start.resolve()
            for folder in (here, *here.parents):
                if (folder / "cards").is_dir():
                    return folder
            if not needs_cards:
                return here
            problem = (
                f"--root: {start} holds no cards/ folder, nor does any folder above it",
                "name the project folder that holds cards/, or make a game there with `cardpress new`",
            )
        report = Report()
        report.error("G003", problem[0], hint=problem[1])
        raise CardpressError(report)
    here = Path.cwd().resolve()
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
        """Resolve a path named in a card file; refuse one that leaves the game folder or cannot be a file.

        Links are followed before the check, so a link inside the folder that leads out of it is refused
        too. Returns the resolved path (a missing file is the caller's to report), or None after reporting.
        """
        from . import safefile

        folder = f"cards/{self.id}/"
        base = os.path.abspath(self.folder)
        leaves = (
            "S010",
            f"path '{relative}' leaves the folder {folder}",
            "name files relative to the game folder, without '..'",
        )
        if "\0" in relative:
            problem = ("Y007", f"path {relative!r} contains a NUL character", "remove the control character")
        elif os.path.isabs(relative) or not os.path.normpath(os.path.join(base, relative)).startswith(base + os.sep):
            problem = leaves
        else:
            try:
                real, _ = safefile.check(self.folder / relative, [self.folder], f"the folder {folder}")
                return Path(real)
            except safefile.Refused as exc:
                if exc.code == "Y004":
                    return Path(os.path.realpath(self.folder / relative))
                if exc.code == "Y006":
                    problem = (leaves[0], leaves[1] + " (through a link)", exc.hint)
                else:
                    problem = (exc.code, exc.message(self.display(relative)), exc.hint)
        report.error(problem[0], problem[1], path=path, loc=where, hint=problem[2])
        return None

    def load(self, name: str, schema_id: str, report: Report) -> yamlsrc.Source:
        """Load `name` from the game folder and check it against a schema (once: a loaded file is kept)."""
        if name in self.sources:
            return self.sources[name]
        before = len(report.errors)
        source = yamlsrc.load_file(self.folder / name, self.display(name), report)
        self.sources[name] = source
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
