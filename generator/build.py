"""Build print kits: every named game through the pipeline; each game's PDFs are written together or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import CardpressError, Report
from .layout.studio import keep_faces
from .pipeline import Pipeline, resolve_games
from .project import rulings
from .project.output import write_all
from .source import yamlsrc


@dataclass
class BuildResult:
    """What a build wrote, which games failed, and every diagnostic it found."""

    written: list[Path] = field(default_factory=list)
    built: list[str] = field(default_factory=list)  # games whose kits were written
    failed: list[str] = field(default_factory=list)  # games whose errors kept their kits from being written
    report: Report = field(default_factory=Report)
    reports: dict[str, Report] = field(default_factory=dict)  # per game

    @property
    def ok(self) -> bool:
        """Return True when every game was built."""
        return not self.failed


def kit_path(out: Path, game_id: str, paper: str) -> Path:
    """Return where a game's home kit for `paper` is written."""
    return out / game_id / f"{game_id}-{paper}.pdf"


def build(
    root: Path,
    game_id: str | None,
    papers: Sequence[str],
    players: int | None,
    out: Path,
    missing_art: str | None = None,
    result: BuildResult | None = None,
) -> BuildResult:
    """Validate and build every named game; a game with errors is not written, and does not stop the others.

    The kits of every game built are written as one set, once all are rendered: a failure or a kill before
    then leaves every previous kit whole, and a disk problem is one located error that fails them all.
    Pass `result` to see how far a build got should it be interrupted (Ctrl-C).
    """
    result = result if result is not None else BuildResult()
    files: dict[Path, bytes] = {}
    for gid in resolve_games(root, game_id):
        pipeline = Pipeline(root, gid, players=players, missing_art=missing_art)
        pdfs = pipeline.render(papers)
        result.report.extend(pipeline.report.items)
        result.reports[gid] = pipeline.report
        if pdfs is None:
            result.failed.append(gid)
            continue
        files.update({kit_path(out, gid, paper): data for paper, data in pdfs.items()})
        result.built.append(gid)
    keep_faces()
    rulings.trim()
    yamlsrc.trim()
    try:
        result.written = write_all(files, root=out)
    except CardpressError as exc:
        result.report.extend(exc.report.items)
        for gid in result.built:
            result.reports[gid].extend(exc.report.items)
        result.failed += result.built
        result.built = []
    return result
