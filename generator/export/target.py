"""The export contract: what an export target declares, and the job it is given (one game, laid out at most once).

Targets register under the `cardpress.exports` entry-point group, the shipped ones too, so a separately
installed package adds a target the way it adds a ruleset: `cardpress export --to NAME`, the bundle and the
manual's target table all read `exports()`.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from dataclasses import replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ..diagnostics import Report
from ..registry import Registration, found
from .options import ExportOptions

if TYPE_CHECKING:
    from .common import Game

EXPORT_GROUP = "cardpress.exports"
RANKS = {"home": 0, "files": 1, "shop": 2, "table": 3, "bundle": 4}  # the order `--to all` runs them in


class ExportJob:
    """One game to export with the chosen options; the face targets share one layout of it."""

    def __init__(self, root: Path, game_id: str, options: ExportOptions, missing_art: str | None = None):
        self.root = root
        self.game_id = game_id
        self.options = options
        self.missing_art = missing_art
        self._game: Game | None = None

    def game(self) -> Game:
        """Return the game laid out through the pipeline (once per job); its kit is None after an error."""
        if self._game is None:
            from ..pipeline import Pipeline
            from .common import laid_out

            pipeline = Pipeline(self.root, self.game_id, players=self.options.players, missing_art=self.missing_art)
            self._game = laid_out(pipeline)
        return self._game

    def within(self, folder: Path) -> ExportJob:
        """Return this job with its targets' folders inside `folder`, sharing its one layout of the game."""
        job = ExportJob(self.root, self.game_id, replace(self.options, within=folder), self.missing_art)
        job._game = self.game()
        return job


class ExportTarget(ABC):
    """Somewhere a game goes: subclass it, name it, register an instance under `cardpress.exports`."""

    name: ClassVar[str]  # what `--to` says
    summary: ClassVar[str]  # one line for the manual's table and `cardpress export --help`
    kind: ClassVar[str] = "files"  # one of RANKS: home kits, face files, print shops, virtual tables, bundles
    bundled: ClassVar[bool] = False  # the bundle carries this target's files
    unpacked: ClassVar[bool] = False  # the bundle also writes them beside its zip (they name where they are)

    @property
    def rank(self) -> int:
        """Return where the target runs in `--to all` (by kind)."""
        return RANKS.get(self.kind, len(RANKS))

    @abstractmethod
    def files(self, job: ExportJob) -> tuple[dict[str, bytes], Report]:
        """Return the target's files ({path inside OUT/<game>/<target>/: bytes}) and the report they were made with."""


class FaceTarget(ExportTarget):
    """A target made from the game's laid-out faces: it writes nothing when the game has an error."""

    def files(self, job: ExportJob) -> tuple[dict[str, bytes], Report]:
        game = job.game()
        if game.kit is None:
            return {}, game.report
        return self.made(game, job.options), game.report

    @abstractmethod
    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        """Return the files made from a game that laid out without errors."""


@functools.cache
def registrations() -> tuple[Registration[ExportTarget], ...]:
    """Return every registered export target, in the order `--to all` runs them (home kits first, bundles last)."""
    targets = found(EXPORT_GROUP, ExportTarget)  # type: ignore[type-abstract]  # an isinstance check, not a call
    return tuple(sorted(targets, key=lambda r: (r.plugin.rank if r.plugin else len(RANKS), r.name)))


def exports() -> list[ExportTarget]:
    """Return the export targets that loaded, in run order."""
    return [r.plugin for r in registrations() if r.plugin is not None]


@functools.cache
def names() -> list[str]:
    """Return every registered target's name without importing it (the CLI's `--to` choices)."""
    return sorted({point.name for point in entry_points(group=EXPORT_GROUP)})


def get(name: str) -> ExportTarget | None:
    """Return the loaded export target called `name`, or None."""
    return next((t for t in exports() if t.name == name), None)
