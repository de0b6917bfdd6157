"""Find the project's games and read their folders, keeping every path inside its folder."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import CardpressError, Diagnostic, Location, Report
from ..i18n.catalogue import ENGLISH, Catalogue
from ..source import schema, yamlsrc

if TYPE_CHECKING:
    from ..source.edits import Edit


def find_root(start: Path | None = None, needs_cards: bool = True, outside: Path | None = None) -> Path:
    """Return the project root: the nearest folder at or above `start` that holds `cards/`.

    Without `start` (no --root), a folder outside any project is a project of its own with no games yet
    (`outside`, default the current folder): the games cardpress ships are still found by name (see
    `generator.project.games`). A `start` the user named must exist and (with `needs_cards`) lie in a
    project: validating the shipped games instead would pass for the user's files.
    """
    if start is not None:
        problem = None
        if not start.exists():
            problem = (f"--root: the folder {start} does not exist", "check the path, or leave --root out")
        elif not start.is_dir():
            problem = (f"--root: {start} is a file, not a folder", "name the project folder that holds cards/")
        if problem is None:
            here = Path(os.path.realpath(start))
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
    here = Path(os.path.realpath(Path.cwd()))
    for folder in (here, *here.parents):
        if (folder / "cards").is_dir():
            return folder
    return outside if outside is not None else here


@dataclass
class GameDir:
    """One game folder under `cards/`, with the layout search path that goes with it.

    A fan edition's folder holds only what it changes: `bases` is what it extends, nearest first, and every
    file (card data, art, templates, icons, fonts, rulebook) is looked up in the edition first, then its bases.
    """

    root: Path  # the project root
    id: str
    ruleset: str = ""  # the game family, read from game.yaml; its layouts serve every edition of it
    home: Path | None = None  # the folder holding this game's folder: the project's cards/ (None), or an installed one
    ruleset_layouts: tuple[Path, ...] = ()  # the template folders its ruleset declares (its pack), set on loading
    folder: Path = field(init=False)
    sources: dict[str, yamlsrc.Source] = field(default_factory=dict)
    bases: list[GameDir] = field(default_factory=list)  # what this edition extends, nearest first; [] for a game
    merged: dict[str, yamlsrc.Source] = field(default_factory=dict, repr=False)  # through the chain, unchecked
    said: dict[str, tuple[Diagnostic, ...]] = field(default_factory=dict, repr=False)  # per loaded file
    edits: dict[str, list[Edit]] = field(default_factory=dict)  # values set in memory before checks (see edits)
    catalogue: Catalogue = ENGLISH  # the words it prints: a translation's messages.po, read on loading (i18n)

    def __post_init__(self) -> None:
        self.folder = (self.home or self.root / "cards") / self.id

    @property
    def chain(self) -> list[GameDir]:
        """Return this folder and every base it extends, nearest first."""
        return [self, *self.bases]

    def display(self, relative: str) -> str:
        """Return the path shown in messages, relative to the project root."""
        return f"cards/{self.id}/{relative}"

    def shown(self, path: Path) -> str:
        """Return a file's path relative to the project root, for messages."""
        try:
            # the folder is resolved, not the file: a link is named where it is, not where it leads
            return (Path(os.path.realpath(path.parent)) / path.name).relative_to(os.path.realpath(self.root)).as_posix()
        except ValueError:
            return str(path)

    def layout_dirs(self) -> list[Path]:
        """Return where templates are looked up, first match wins: the edition's, its bases', the family's
        (the project's layouts/<ruleset>, then the ruleset's own), then the shared ones (the project's, cardpress's)."""
        from .. import resources

        folders: list[Path] = []
        for level in self.chain:
            folders += [level.folder / "layouts", self.root / "layouts" / level.id]
        if self.ruleset:
            folders.append(self.root / "layouts" / self.ruleset)
        folders += self.ruleset_layouts
        return list(dict.fromkeys([*folders, *resources.common_layouts(self.root)]))

    def edit(self, name: str, report: Report) -> None:
        """Set the values a caller edits in an already loaded source (a table read by its ruleset) in memory."""
        if name in self.edits and name in self.sources:
            from ..source.edits import apply as apply_edits  # here: only a sweep edits files

            apply_edits(self.sources[name], self.edits[name], report)

    def find(self, relative: str) -> Path | None:
        """Return the file `relative` names in the edition, else in its nearest base that has it, else None."""
        for level in self.chain:
            candidate = level.folder / relative
            if candidate.is_file():
                return candidate
        return None

    def owner(self, relative: str) -> GameDir | None:
        """Return the level of the chain whose file `relative` is used, or None."""
        return next((level for level in self.chain if (level.folder / relative).is_file()), None)

    def resolve(self, relative: str, report: Report, where: Location | None, path: str = "") -> Path | None:
        """Resolve a path named in a card file, edition first then its bases; refuse one that leaves its folder.

        Links are followed before the check, so a link inside a folder that leads out of it is refused too;
        so is anything that cannot be a file. Returns the resolved path (a missing file is the caller's to
        report, at the edition's own folder), or None after reporting.
        """
        from ..source import safefile

        base = os.path.abspath(self.folder)
        leaves = (
            "S010",
            f"path '{relative}' leaves the folder cards/{self.id}/",
            "name files relative to the game folder, without '..'",
        )
        if "\0" in relative:
            problem: tuple[str, str, str | None] = (
                "Y007",
                f"path {relative!r} contains a NUL character",
                "remove the control character",
            )
        elif os.path.isabs(relative) or not os.path.normpath(os.path.join(base, relative)).startswith(base + os.sep):
            problem = leaves
        else:
            level = next((g for g in self.chain if os.path.lexists(g.folder / relative)), self)
            folder = f"cards/{level.id}/"
            try:
                real, _ = safefile.check(level.folder / relative, [level.folder], f"the folder {folder}")
                return Path(real)
            except safefile.Refused as exc:
                if exc.code == "Y004":  # named as written below the folder: a dangling link is not followed
                    return Path(os.path.realpath(self.folder)) / os.path.normpath(relative)
                if exc.code == "Y006":
                    problem = ("S010", f"path '{relative}' leaves the folder {folder} (through a link)", exc.hint)
                else:
                    problem = (exc.code, exc.message(level.display(relative)), exc.hint)
        report.error(problem[0], problem[1], path=path, loc=where, hint=problem[2])
        return None

    def load(self, name: str, schema_id: str, report: Report) -> yamlsrc.Source:
        """Load `name` (merged over the edition's bases) and check it against a schema, once: it is kept, and
        what was said about it is said again to the next report that asks (a report keeps each problem once)."""
        if name in self.sources:
            report.extend(self.said.get(name, ()))
            return self.sources[name]
        own = Report()
        source = self.merge(name, own)
        self.sources[name] = source
        if own.ok():  # a sweep's values, set before any check sees the file
            self.edit(name, own)
        if own.ok():  # a file that did not parse (or merge) has nothing to check
            schema.check(source, schema_id, own)
        self.said[name] = tuple(own.items)
        report.extend(own.items)
        return source

    def merge(self, name: str, report: Report, keep_out: tuple[str, ...] = ()) -> yamlsrc.Source:
        """Return `name` as the edition sees it: its own file merged over its bases' (no schema check)."""
        if name in self.merged:
            return self.merged[name]
        from ..editions.overlay import merge

        path = self.folder / name
        base = self.bases[0] if self.bases and self.bases[0].find(name) else None
        inherited = base.merge(name, report, keep_out) if base is not None else None
        if not path.is_file() and inherited is not None:
            source = inherited
        else:
            source = yamlsrc.load_file(path, self.display(name), report)
            if inherited is not None and inherited.data is not None and source.data is not None:
                assert base is not None  # only a base is inherited from
                source = merge(inherited, source, base.id, report, keep_out)
        self.merged[name] = source
        return source
