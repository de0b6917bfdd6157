"""Export a game everywhere people play: home kits, print-shop files, Tabletop Simulator, one bundle.

`run(root, game, targets, out, options)` writes each target's files under OUT/<game>/<target>/, every
game's set together or not at all (generator.project.output.write_all); one failing game does not stop the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..diagnostics import Report
from ..pipeline import Pipeline, resolve_games
from ..project.output import write_all
from .common import Game, laid_out
from .options import TARGETS, ExportOptions

__all__ = ["TARGETS", "ExportOptions", "ExportResult", "run", "target_files"]

# targets made from the kit's faces as laid out (the home kit and the bundle run pipelines of their own)
FACE_TARGETS = ("cards", "thegamecrafter", "makeplayingcards", "drivethrucards", "tts")


@dataclass
class ExportResult:
    """What an export wrote, which games failed, and every diagnostic."""

    written: list[Path] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    report: Report = field(default_factory=Report)


def target_files(
    root: Path,
    game_id: str,
    target: str,
    options: ExportOptions,
    missing_art: str | None = None,
    game: Game | None = None,
) -> tuple[dict[str, bytes], Report]:
    """Return one target's files for one game ({path inside the target folder: bytes}) and its report.

    `game` reuses a game already laid out with the default options for the face targets.
    """
    from . import bundle, pnp

    if target == "pnp":
        pipe = pnp.pipeline(root, game_id, options, missing_art)
        return pnp.files(pipe, options), pipe.report
    if target == "bundle":
        return bundle.files(root, game_id, options, missing_art)
    if game is None:
        game = laid_out(Pipeline(root, game_id, players=options.players, missing_art=missing_art))
    if game.kit is None:
        return {}, game.report
    return face_target(target).files(game, options), game.report


class FaceTarget(Protocol):
    """A face target's module: it makes the target's files from a laid-out game."""

    def files(self, game: Game, options: ExportOptions) -> dict[str, bytes]: ...


def face_target(target: str) -> FaceTarget:
    """Return the module that makes a face target's files."""
    from . import cards, drivethrucards, makeplayingcards, thegamecrafter, tts

    return {
        "cards": cards,
        "thegamecrafter": thegamecrafter,
        "makeplayingcards": makeplayingcards,
        "drivethrucards": drivethrucards,
        "tts": tts,
    }[target]


def run(
    root: Path,
    game_id: str | None,
    targets: Sequence[str],
    out: Path,
    options: ExportOptions,
    missing_art: str | None = None,
) -> ExportResult:
    """Export every named game to every target; a game's files are written together or not at all."""
    result = ExportResult()
    for gid in resolve_games(root, game_id):
        files: dict[Path, bytes] = {}
        reports: list[Report] = []  # targets that share a pipeline share its report: each is read once
        game = None
        ok = True
        for target in targets:
            if target in FACE_TARGETS and game is None:
                game = laid_out(Pipeline(root, gid, players=options.players, missing_art=missing_art))
            made, said = target_files(root, gid, target, options, missing_art, game)
            if all(said is not r for r in reports):
                reports.append(said)
            ok = ok and said.ok() and bool(made)
            files.update({out / gid / target / name: data for name, data in made.items()})
        report = Report()
        for said in reports:
            report.extend(said.items)
        result.report.extend(_unique(report).items)
        if not ok:
            result.failed.append(gid)
            continue
        result.written += write_all(dict(sorted(files.items())))
    return result


def _unique(report: Report) -> Report:
    """Return the report with each diagnostic once (targets that share a pipeline share its findings)."""
    seen, out = set(), Report()
    for item in report.items:
        key = repr(item)
        if key not in seen:
            seen.add(key)
            out.add(item)
    return out
